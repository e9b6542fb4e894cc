"""What a node spends making one action's messages, by who can receive them.

    python scripts/measure_publish.py [--games 4] [--repeat 5]

Plays random four-player games with the engine and, after every action, builds the batch's
messages as a table does before it publishes them (:func:`hokm.server.wire.view_texts` and
:func:`hokm.server.wire.event_frames`) for two sets of recipients: every seat and the spectators
(what a table made before copies were limited to those a connection can take), and one seat alone
(a person playing three computers with nobody watching). Prints the microseconds per action of
each, the fastest of ``--repeat`` passes over the same actions.
"""

from __future__ import annotations

import argparse
import time

from measure_deflate import random_actions

from hokm.engine import Game
from hokm.server.storage import EventRow
from hokm.server.wire import event_frames, view_texts

SEATS = [{"seat": s, "kind": "bot", "player_id": None, "name": f"Computer {s + 1}", "bot": "medium",
          "connected": False, "auto": False, "reclaim_until": None} for s in range(4)]


def positions(games: int) -> list[tuple[Game, list[EventRow]]]:
    """Each action of ``games`` random games: the game after it (a copy) and its event rows."""
    return [(game.copy(), [EventRow("t", seq, "action", {"seat": seat, "action": action.to_json(), "by": "player"},
                                    1.0)])
            for seq, (game, seat, action) in enumerate(random_actions(games), 1)]


def per_action(actions: list[tuple[Game, list[EventRow]]], recipients: list[int | None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for game, rows in actions:
            event_frames(rows, recipients, view_texts(game, recipients), SEATS, "playing", None)
        best = min(best, time.perf_counter() - t0)
    return best / len(actions) * 1e6


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    actions = positions(a.games)
    every = per_action(actions, [0, 1, 2, 3, None], a.repeat)
    one = per_action(actions, [0], a.repeat)
    print(f"{len(actions)} actions: every seat and the spectators {every:.1f} us an action, "
          f"one seat {one:.1f} us ({one / every:.0%})")


if __name__ == "__main__":
    main()
