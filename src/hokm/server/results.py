"""What a finished game leaves behind: its ``hokm/1`` record, the players' stats and ratings.

Kept apart from the table actor because it is a pure summary of a finished game plus one read
of the players' current ratings; the actor only decides *when* it is written (before the
``game_over`` event, so a downloadable record exists as soon as anyone hears the game ended).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Game
from ..fairness import HandSeeds
from ..records import dumps, record_from_game
from ..signing import Signer
from .ratings import ESTABLISHED_GAMES, rate_game
from .storage import GameRow, PlayerUpdate, Storage


async def finished_game(storage: Storage, game: Game, *, game_id: str, table_id: str, mode: str,
                        names: list[str], player_ids: list[str | None], fair: Sequence[HandSeeds],
                        started_at: float, ended_at: float, signer: Signer | None = None,
                        server: str = "hokm") -> tuple[GameRow, list[PlayerUpdate]]:
    """The game row and per-player updates of a finished game; ``signer`` signs its record.

    Stats count for every person; ratings move only at private and public tables with at least
    two people (games against the computer are not rated), and a newcomer's game moves no established
    opponent's rating (see :mod:`.ratings`).
    """
    rules = game.rules
    winner = game.winner
    assert winner is not None, "the game is not over"
    meta: dict[str, Any] = {"server": server, "table_id": table_id, "game_id": game_id, "mode": mode,
                            "started_at": started_at, "ended_at": ended_at}
    record = record_from_game(game, names=names, meta=meta, fair=[f.record_entry() for f in fair[:len(game.results)]])
    if signer is not None:
        record = signer.sign(record)
    kots = [sum(1 for r in game.results if r.kot and r.winner == side) for side in range(rules.sides)]
    humans = [i for i, pid in enumerate(player_ids) if pid]
    ratings: list[tuple[float, float] | None] = [None] * game.n
    if mode != "computer" and len(humans) >= 2:
        rows = await storage.get_players([pid for pid in player_ids if pid])
        current = [(rows[pid].mu, rows[pid].sigma) if pid and pid in rows else None for pid in player_ids]
        newcomers = [bool(pid) and pid in rows and rows[pid].rated_games < ESTABLISHED_GAMES for pid in player_ids]
        ratings = rate_game(current, [rules.side_of(i) for i in range(game.n)], winner, newcomers)
    updates = [PlayerUpdate(player_ids[i] or "", wins=int(rules.side_of(i) == winner), kots=kots[rules.side_of(i)],
                            rating=ratings[i]) for i in humans]
    row = GameRow(id=game_id, table_id=table_id, mode=mode, players=game.n, names=names, player_ids=player_ids,
                  scores=list(game.scores), winner=winner, hands=len(game.results), record=dumps(record),
                  started_at=started_at, ended_at=ended_at)
    return row, updates
