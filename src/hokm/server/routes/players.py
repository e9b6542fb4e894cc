"""Players: guests, the caller's profile, tokens and signing out, the leaderboard."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..auth import bearer, create_guest, issue_token, sign_out
from ..profiles import stats_of
from ..protocol import GuestRequest, SignOutRequest
from .common import address_of, body, endpoint, limit_of, me, services


@endpoint
async def guest(request: Request) -> Any:
    s = services(request)
    req = await body(request, GuestRequest)
    s.limits["guest"].check(address_of(request))
    row, token = await create_guest(s.storage, req.nickname)
    return JSONResponse({"player_id": row.id, "nickname": row.nickname, "token": token}, status_code=201)


@endpoint
async def profile(request: Request) -> Any:
    p = await me(request)
    return {"player_id": p.id, "nickname": p.nickname, "stats": stats_of(p).model_dump(),
            "tables": await services(request).storage.tables_of_player(p.id)}


@endpoint
async def sign_out_route(request: Request) -> Any:
    p = await me(request)
    req = await body(request, SignOutRequest)
    token = bearer(request.headers.get("authorization")) or ""
    s = services(request)
    revoked = await sign_out(s.storage, token, req.everywhere, p.id, s.bus)
    if req.everywhere:
        await s.social.accounts.drop_links(p.id)  # unused device codes go too
    return {"revoked": revoked}


@endpoint
async def new_token(request: Request) -> Any:
    """Another token for the same player (a second device); each can be signed out alone."""
    p = await me(request)
    s = services(request)
    s.limits["guest"].check(address_of(request))  # tokens are rows too: same pace as new guests
    return JSONResponse({"player_id": p.id, "nickname": p.nickname, "token": await issue_token(s.storage, p.id)},
                        status_code=201)


@endpoint
async def leaderboard(request: Request) -> Any:
    await me(request)
    rows = await services(request).storage.leaderboard(limit_of(request, 50))
    # Two players may share a nickname: a claimed username tells them apart.
    usernames = await services(request).social.store.usernames([p.id for p in rows])
    return {"players": [{"rank": i + 1, "player_id": p.id, "nickname": p.nickname, "username": usernames.get(p.id)}
                        | stats_of(p).model_dump() for i, p in enumerate(rows)]}


routes = [
    Route("/api/guest", guest, methods=["POST"]),
    Route("/api/me", profile),
    Route("/api/signout", sign_out_route, methods=["POST"]),
    Route("/api/tokens", new_token, methods=["POST"]),
    Route("/api/leaderboard", leaderboard),
]
