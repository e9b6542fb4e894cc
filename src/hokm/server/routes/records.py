"""Finished games: lists, summaries, records and replays for their players, and checking a record."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ...records import replay_frames
from ...verification import check_record
from ..cpu import Busy
from ..errors import ApiError
from ..limits import check_all
from ..memo import Memo
from ..storage import GameRow, PlayerRow
from .common import address_of, endpoint, limit_of, me, raw_body, services

MAX_RECORD_BODY = 2 * 1024 * 1024


@endpoint
async def games(request: Request) -> Any:
    await me(request)
    rows = await services(request).storage.recent_games(limit_of(request))
    return {"games": [g.summary() for g in rows]}


@endpoint
async def my_games(request: Request) -> Any:
    p = await me(request)
    rows = await services(request).storage.recent_games(limit_of(request), player_id=p.id)
    return {"games": [g.summary() for g in rows]}


@endpoint
async def game(request: Request) -> Any:
    await me(request)
    row = await services(request).storage.get_game(request.path_params["game_id"][:64])
    if row is None:
        raise ApiError("not_found", "no such game (a game in progress has no summary yet)")
    return row.summary()


async def finished_game(request: Request, what: str = "record") -> tuple[PlayerRow, GameRow]:
    """The asker and the stored game behind a record, replay or analysis request, for one of its players only."""
    p = await me(request)
    s = services(request)
    gid = request.path_params["game_id"][:64]
    row = await s.storage.get_game(gid)
    if row is None:
        if s.lobby.in_progress(gid):
            raise ApiError("game_in_progress", f"the {what} is available once the game is over")
        raise ApiError("not_found", "no finished game has this id")
    if p.id not in row.player_ids:
        raise ApiError("forbidden", f"only the players of a game may see its {what}")
    return p, row


@endpoint
async def record(request: Request) -> Any:
    _, row = await finished_game(request)
    gid = request.path_params["game_id"][:64]
    return Response(row.record, media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="hokm-{gid}.json"'})


def replay_json(record: str, bots: list[bool]) -> bytes:
    """A replay's answer, encoded: the record as stored, its frames, and which seats the computer played (the
    record names them in English, "easy bot"; the page names them itself). Run in a worker process: a long
    game's frames, built on the event loop, held every table's messages back."""
    return orjson.dumps({"record": orjson.Fragment(record), "frames": replay_frames(record), "bots": bots})


def replay_memo() -> Memo[str, bytes]:
    """Finished games' replays, encoded, by game id: at most 256 of them and 64 MiB in all."""
    return Memo(256, budget=64 * 1024 * 1024, weigh=len)


@endpoint
async def replay(request: Request) -> Any:
    _, row = await finished_game(request)
    s = services(request)
    memo: Memo[str, bytes] = request.app.state.replay_memo

    async def compute() -> bytes:
        try:
            return await s.cpu.run(replay_json, row.record, [not pid for pid in row.player_ids])
        except Busy as e:
            raise ApiError("busy", str(e)) from None

    return Response(await memo.get_or_compute(row.id, compute), media_type="application/json")


@endpoint
async def verify(request: Request) -> Any:
    p = await me(request)
    s = services(request)
    check_all((s.limits["address_verify"], address_of(request)), (s.limits["verify"], p.id))
    raw = await raw_body(request, MAX_RECORD_BODY, "bad_record", f"a record larger than {MAX_RECORD_BODY} bytes is refused")
    try:
        result = await s.cpu.run(check_record, raw)
    except Busy as e:
        raise ApiError("busy", str(e)) from None
    if result["stage"] in ("json", "record"):
        raise ApiError("too_deep" if result["code"] == "too_deep" else "bad_record", result["message"])
    sig = result["signature"]
    sig["this_server"] = sig["status"] == "signed" and sig["public_key"] == s.signer.public_key
    if sig["status"] == "signed" and not sig["this_server"]:
        sig["message"] += ", not by this server"
        result["message"] += ", not by this server"
    elif sig["status"] == "unsigned":
        sig["message"] = "the record is not signed: nothing shows that this server dealt it"
        result["message"] = result["message"].rsplit("; ", 1)[0] + "; " + sig["message"]
    return result


routes = [
    Route("/api/me/games", my_games),
    Route("/api/games", games),
    Route("/api/games/{game_id}", game),
    Route("/api/games/{game_id}/record", record),
    Route("/api/games/{game_id}/replay", replay),
    Route("/api/verify", verify, methods=["POST"]),
]
