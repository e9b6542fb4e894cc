"""Account endpoints: claim a username, sign in, device links, and the account's summary.

- ``GET /api/account``: the signed-in player's username (or null) and friend code;
- ``POST /api/account``: the signed-in guest claims a username and password;
- ``POST /api/signin``: username and password give a new token for this device;
- ``POST /api/links``: a one-time device code (with its link and QR code) for another device;
- ``POST /api/links/redeem``: the other device trades the code for its own token.

Sign-in attempts are limited per account and per address (token buckets, :mod:`..limits`); a
successful attempt gives its tokens back, so only failures use them up.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..accounts import SignedIn, qr_svg
from ..limits import check_all
from ..protocol import ClaimRequest, RedeemLinkRequest, SignInRequest
from .social_base import address, base_url, body, endpoint, me, social


def signed_in(s: SignedIn) -> JSONResponse:
    return JSONResponse({"player_id": s.player.id, "nickname": s.player.nickname, "username": s.username,
                         "token": s.token}, status_code=201)


@endpoint
async def account(request: Request) -> Any:
    p = await me(request)
    soc = social(request)
    if request.method == "POST":
        req = await body(request, ClaimRequest)
        soc.limits["address_signin"].check(address(request))  # a claim hashes a password: same pace
        await soc.accounts.claim(p, req.username, req.password)
    code = await soc.friends.friend_code(p.id)
    return {"player_id": p.id, "nickname": p.nickname, "username": await soc.accounts.username_of(p.id),
            "friend_code": code, "friend_url": f"{base_url(request)}/?friend={code}"}


@endpoint
async def sign_in(request: Request) -> Any:
    req = await body(request, SignInRequest)
    soc = social(request)
    # Wrong passwords are counted per account from each address, and per account from all of them more loosely:
    # guessing from one address is slow, and failures sent from one address cannot lock the owner out elsewhere.
    account, here = soc.accounts.sign_in_key(req.username), address(request)
    pairs = ((soc.limits["address_signin"], here), (soc.limits["signin"], f"{account}@{here}"),
             (soc.limits["account_signin"], account))
    check_all(*pairs)
    result = await soc.accounts.sign_in(req.username, req.password)
    for limit, key in pairs:  # only failed attempts count
        limit.refund(key)
    return signed_in(result)


@endpoint
async def new_link(request: Request) -> Any:
    p = await me(request)
    soc = social(request)
    soc.limits["link"].check(p.id)
    code, expires = await soc.accounts.new_link(p)
    url = f"{base_url(request)}/?link={code}"
    return JSONResponse({"code": code, "url": url, "qr_svg": qr_svg(url), "expires_at": expires}, status_code=201)


@endpoint
async def redeem_link(request: Request) -> Any:
    req = await body(request, RedeemLinkRequest)
    soc = social(request)
    soc.limits["address_signin"].check(address(request))  # codes cannot be guessed quickly
    return signed_in(await soc.accounts.redeem_link(req.code))


routes = [
    Route("/api/account", account, methods=["GET", "POST"]),
    Route("/api/signin", sign_in, methods=["POST"]),
    Route("/api/links", new_link, methods=["POST"]),
    Route("/api/links/redeem", redeem_link, methods=["POST"]),
]
