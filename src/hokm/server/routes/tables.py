"""Tables: creating one, looking it up (by id or invite code), seats, bots, the start, a rematch, fairness."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..errors import ApiError
from ..limits import check_all
from ..protocol import BotRequest, CreateTable, FreeRequest, SitRequest
from ..seats import code_matches, is_member
from .common import address_of, body, endpoint, me, services, table_json, table_of


@endpoint
async def create_table(request: Request) -> Any:
    p = await me(request)
    req = await body(request, CreateTable)
    s = services(request)
    ip = address_of(request)
    check_all((s.limits["address_table"], ip), (s.limits["table"], p.id))
    table = await s.lobby.create(p, req, ip)
    return JSONResponse(table_json(request, table, p.id), status_code=201)


@endpoint
async def get_table(request: Request) -> Any:
    p = await me(request)
    table = await table_of(request)
    info = table_json(request, table, p.id)
    if info["code"] and info["status"] == "waiting":
        services(request).lobby.touch(table.id)  # a member has the room open: it is not idle
    return info


@endpoint
async def by_code(request: Request) -> Any:
    p = await me(request)
    s = services(request)
    # Per account, and (looser) per address: codes cannot be enumerated quickly, and people
    # sharing one address do not use up each other's lookups.
    check_all((s.limits["address_code"], address_of(request)), (s.limits["code"], p.id))
    table = await s.lobby.by_code(request.path_params["code"][:16])
    if table is None:
        raise ApiError("not_found", "no room has this invite code")
    return table_json(request, table)


@endpoint
async def sit(request: Request) -> Any:
    p = await me(request)
    req = await body(request, SitRequest)
    table = await table_of(request)
    info = table.info()
    if info["code"] and not is_member(info, p.id) and not code_matches(info, req.code):
        # A wrong code counts as a code lookup: guessing through this route is no faster.
        s = services(request)
        check_all((s.limits["address_code"], address_of(request)), (s.limits["code"], p.id))
        raise ApiError("code_required", "this is a private room: sitting needs its invite code")
    await table.sit(p.id, p.nickname, req.seat, req.seed)
    return table_json(request, table, p.id)


@endpoint
async def seat_bot(request: Request) -> Any:
    p = await me(request)
    req = await body(request, BotRequest)
    table = await table_of(request)
    level = services(request).lobby.bot_level(req.level) if req.level else table.level
    await table.seat_bot(p.id, req.seat, level)
    return table_json(request, table, p.id)


@endpoint
async def free(request: Request) -> Any:
    p = await me(request)
    req = await body(request, FreeRequest)
    table = await table_of(request)
    await table.free(p.id, req.seat)
    return table_json(request, table, p.id)


@endpoint
async def start(request: Request) -> Any:
    p = await me(request)
    table = await table_of(request)
    await table.start(p.id)
    return table_json(request, table, p.id)


@endpoint
async def rematch(request: Request) -> Any:
    """Ask to play the finished game again; the answer's ``next`` is the new table once everyone asked."""
    p = await me(request)
    table = await table_of(request)
    s = services(request)
    check_all((s.limits["table"], p.id))
    await s.lobby.rematch(p, table)
    return table_json(request, table, p.id)


@endpoint
async def fair(request: Request) -> Any:
    await me(request)
    table = await table_of(request)
    return {"hands": table.fairness()}


routes = [
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables/{table_id}", get_table),
    Route("/api/tables/{table_id}/sit", sit, methods=["POST"]),
    Route("/api/tables/{table_id}/bot", seat_bot, methods=["POST"]),
    Route("/api/tables/{table_id}/free", free, methods=["POST"]),
    Route("/api/tables/{table_id}/start", start, methods=["POST"]),
    Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
    Route("/api/tables/{table_id}/fair", fair),
    Route("/api/codes/{code}", by_code),
]
