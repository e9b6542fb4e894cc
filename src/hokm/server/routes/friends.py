"""Friend and invitation endpoints.

- ``GET /api/friends``: friends with presence, requests both ways, blocked players, recent
  opponents and partners, and this player's friend code;
- ``POST /api/friends``: ask a player (by username, friend code or player id) to be friends;
- ``POST /api/friends/{player_id}/accept`` and ``/decline``: answer a request;
- ``DELETE /api/friends/{player_id}``: end a friendship or withdraw a request;
- ``POST /api/blocks/{player_id}`` and ``DELETE /api/blocks/{player_id}``: block, unblock;
- ``POST /api/invitations``: invite a friend to a private room of yours;
- ``GET /api/invitations``: pending invitations; ``POST /api/invitations/{id}/accept`` and
  ``/decline`` answer one.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..errors import ApiError
from ..protocol import AddFriendRequest, InviteRequest
from .social_base import body, endpoint, me, player_param, social


@endpoint
async def friends(request: Request) -> Any:
    p = await me(request)
    soc = social(request)
    if request.method == "GET":
        return await soc.friends.overview(p)
    req = await body(request, AddFriendRequest)
    soc.limits["friend"].check(p.id)  # usernames and codes cannot be enumerated quickly
    other = await soc.friends.find(req.username, req.code, req.player_id)
    state = await soc.friends.request(p, other)
    person = await soc.friends.person(other)
    return JSONResponse({"state": state, "player": person.model_dump()}, status_code=201)


@endpoint
async def answer_request(request: Request) -> Any:
    p = await me(request)
    other = player_param(request)
    soc = social(request)
    if request.path_params["answer"] == "accept":
        await soc.friends.accept(p, other)
    elif request.path_params["answer"] == "decline":
        await soc.friends.decline(p, other)
    else:
        raise ApiError("not_found", "answer a friend request with accept or decline")
    return await soc.friends.overview(p)


@endpoint
async def remove(request: Request) -> Any:
    p = await me(request)
    soc = social(request)
    soc.limits["friend"].check(p.id)  # withdrawing counts with asking: ask, withdraw, ask again is paced
    await soc.friends.remove(p, player_param(request))
    return await soc.friends.overview(p)


@endpoint
async def block(request: Request) -> Any:
    p = await me(request)
    soc = social(request)
    soc.limits["friend"].check(p.id)  # blocks and unblocks too: each one rewrites the player's lists
    if request.method == "POST":
        await soc.friends.block(p, player_param(request))
    else:
        await soc.friends.unblock(p, player_param(request))
    return await soc.friends.overview(p)


@endpoint
async def invitations(request: Request) -> Any:
    p = await me(request)
    soc = social(request)
    if request.method == "GET":
        return {"invitations": [i.model_dump() for i in await soc.friends.pending(p)]}
    req = await body(request, InviteRequest)
    soc.limits["invite"].check(p.id)
    inv = await soc.friends.invite(p, req.friend, req.table)
    return JSONResponse({"invitation": inv.model_dump()}, status_code=201)


@endpoint
async def answer_invitation(request: Request) -> Any:
    p = await me(request)
    soc = social(request)
    answer = request.path_params["answer"]
    if answer not in ("accept", "decline"):
        raise ApiError("not_found", "answer an invitation with accept or decline")
    inv = await soc.friends.answer(p, request.path_params["invitation_id"][:32], answer == "accept")
    return {"invitation": None if inv is None else inv.model_dump()}


routes = [
    Route("/api/friends", friends, methods=["GET", "POST"]),
    Route("/api/friends/{player_id}/{answer}", answer_request, methods=["POST"]),
    Route("/api/friends/{player_id}", remove, methods=["DELETE"]),
    Route("/api/blocks/{player_id}", block, methods=["POST", "DELETE"]),
    Route("/api/invitations", invitations, methods=["GET", "POST"]),
    Route("/api/invitations/{invitation_id}/{answer}", answer_invitation, methods=["POST"]),
]
