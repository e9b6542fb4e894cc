"""``GET /api/games/{game_id}/analysis?hand=N``: the post-hand analysis of a finished game's hand.

Same access rule as the record and the replay: the game must be over (a game in progress is
refused with ``game_in_progress``, so no hand still being played is ever analysed) and the asker
one of its players. The double-dummy work (:func:`hokm.search.analysis.analyse_record_json`)
runs in a worker process of its own (``services.analysis_cpu``: a crowd of analyses never shuts
out record checks), at most a few per player and per address per minute
(``services.limits["analysis"]``, ``["address_analysis"]``; a request refused as ``busy`` has
spent its turn); each hand's result is kept in a bounded in-memory cache, and one under way is
shared by everyone who asks for it meanwhile, so asking again (or another player of the same game
asking) costs nothing.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ..cpu import Busy
from ..errors import ApiError
from ..limits import check_all
from ..memo import Memo
from ..protocol import PROTOCOL_VERSION
from .common import address_of, endpoint, services
from .records import finished_game

#: Solver nodes per card before a card is left ``unsolved`` (about a second of a worker).
NODE_LIMIT = 1_000_000


def analysis_memo() -> Memo[tuple[str, int], dict[str, Any]]:
    """Finished hands' analyses by ``(game_id, hand)``, the 512 most recently asked for."""
    return Memo(512)


def analyse_in_worker(record: str | bytes, node_limit: int, hand: int) -> dict[str, Any]:
    """:func:`hokm.search.analysis.analyse_record_json`, imported in the analysis worker that runs it: the solver's
    compiled kernels (0.7 s of loading) stay out of the server's own process and its start."""
    from ...search.analysis import analyse_record_json

    return analyse_record_json(record, node_limit, hand)


_HAND = re.compile(r"[0-9]{1,4}")


def _hand_of(request: Request) -> int:
    text = request.query_params.get("hand", "")
    if not _HAND.fullmatch(text):  # ASCII digits only: "²" and "①" count as digits to str.isdigit
        raise ApiError("bad_request", "hand must be given as a whole number: ?hand=0 is the first hand")
    return int(text)


@endpoint
async def game_analysis(request: Request) -> dict[str, Any]:
    hand = _hand_of(request)
    player, row = await finished_game(request, "analysis")
    s = services(request)
    if hand >= row.hands:
        raise ApiError("not_found", f"the game has hands 0 to {row.hands - 1}")
    memo: Memo[tuple[str, int], dict[str, Any]] = request.app.state.analysis_memo

    async def compute() -> dict[str, Any]:
        check_all((s.limits["analysis"], player.id), (s.limits["address_analysis"], address_of(request)))
        try:
            result = await s.analysis_cpu.run(analyse_in_worker, row.record, NODE_LIMIT, hand)
        except Busy:
            raise ApiError("busy", "the server is analysing too many hands; try again in a moment") from None
        return {"v": PROTOCOL_VERSION, "game_id": row.id, **result}

    return await memo.get_or_compute((row.id, hand), compute)


#: This module's routes, for the application's route list.
routes = [Route("/api/games/{game_id}/analysis", game_analysis)]
