"""``GET /api/games/{game_id}/analysis?hand=N``: the post-hand analysis of a finished game's hand.

Same access rule as the record and the replay: the game must be over (a game in progress is
refused with ``game_in_progress``, so no hand still being played is ever analysed) and the asker
one of its players. The double-dummy work (:func:`hokm.search.analysis.analyse_record_json`)
runs in the server's worker processes (``services.cpu``), at most a few per player per minute
(``services.limits["analysis"]``); each hand's result is kept in a bounded in-memory cache, so
asking again (or another player of the same game asking) costs nothing.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ...search.analysis import analyse_record_json
from ..cpu import Busy
from ..errors import ApiError
from ..protocol import PROTOCOL_VERSION
from .common import endpoint, services
from .records import finished_game

#: Solver nodes per card before a card is left ``unsolved`` (about a second of a worker).
NODE_LIMIT = 1_000_000


class AnalysisCache:
    """Finished hands' analyses by ``(game_id, hand)``; the least recently used go first."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    def get(self, key: tuple[str, int]) -> dict[str, Any] | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: tuple[str, int], value: dict[str, Any]) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


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
    cache: AnalysisCache = request.app.state.analysis_cache
    found = cache.get((row.id, hand))
    if found is not None:
        return found
    s.limits["analysis"].check(player.id)
    try:
        result = await s.cpu.run(analyse_record_json, row.record, NODE_LIMIT, hand)
    except Busy as e:
        s.limits["analysis"].refund(player.id)
        raise ApiError("busy", str(e)) from None
    body = {"v": PROTOCOL_VERSION, "game_id": row.id, **result}
    cache.put((row.id, hand), body)
    return body


#: This module's routes, for the application's route list.
routes = [Route("/api/games/{game_id}/analysis", game_analysis)]
