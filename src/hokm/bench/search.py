"""``hokm bench search``: the search's inner loops in Python and compiled, side by side.

A search decision draws hundreds of candidate deals, reads every other seat's past plays in each
(what would the heuristic player have played here?) and, with three players, plays candidate cards
out to the end of the hand. Both the Python code (:meth:`hokm.search.play_model.PlayEvidence.log_weight`,
:func:`hokm.search.sampler.sample_deal`, :class:`hokm.search.lookahead.LookaheadEvaluator`) and its
compiled twin (:mod:`hokm.search._heuristic_kernel`) are timed here on the same positions: mid-hand
views of games between heuristic players. Every answer is compared too (``disagreements``).
Times are this thread's CPU time per candidate deal (per card played out, for playouts).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.view import SeatView

HELP = "time play-read, deal sampling and playouts in Python against the compiled versions"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="player count (default 4)")
    parser.add_argument("--positions", type=int, default=20, help="mid-hand positions (default 20)")
    parser.add_argument("--deals", type=int, default=200, help="candidate deals per position (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time the compiled paths this many times over the same deals and keep the fastest "
                             "pass, the one least disturbed by other load (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def _positions(players: int, count: int, seed: int) -> list[SeatView]:
    from ..bots.heuristic import HeuristicBot
    from ..engine import Game, Phase, Rules

    rng = random.Random(seed)
    bot = HeuristicBot()
    out: list[SeatView] = []
    while len(out) < count:
        game = Game.new(Rules(players=players), seed=rng.randrange(10**9))
        stop = rng.randrange(3 * players, 7 * players)
        plays = 0
        while game.hand_index == 0:
            if game.phase is Phase.DEAL:
                game.deal(rng=rng)
                continue
            seat = game.to_move
            if seat is None:
                raise RuntimeError(f"no seat is to move in the {game.phase.value} phase")
            if game.phase is Phase.PLAY:
                if plays >= stop and len(game.legal_cards()) > 1:
                    out.append(game.view(seat))
                    break
                plays += 1
            game.apply(bot.act(game.view(seat)))
    return out


def measure(players: int, positions: int, deals: int, seed: int, repeat: int = 1) -> dict[str, Any]:
    import numpy as np

    from ..cards import cards_in
    from ..search import _heuristic_kernel as hk
    from ..search.lookahead import LookaheadEvaluator
    from ..search.play_model import PlayEvidence
    from ..search.rollout import Position
    from ..search.sampler import knowledge, sample_deal

    clock = time.thread_time
    views = _positions(players, positions, seed)
    rng = random.Random(seed)
    t = dict.fromkeys(("read_py", "read_c", "sample_py", "sample_c", "playout_py", "playout_c"), 0.0)
    candidates = cards_out = disagreements = 0
    fast, slow = LookaheadEvaluator.playout(), LookaheadEvaluator.playout()
    slow._kernel = None
    #: per view: what the compiled paths ran on, for the repeated passes
    kept: list[tuple[SeatView, list[np.ndarray], PlayEvidence, np.ndarray, list[Position]]] = []
    for view in views:
        if view.trump is None:
            raise RuntimeError("card play positions have a trump")
        trump = int(view.trump)
        kn = knowledge(view)
        t0 = clock()
        batch = [sample_deal(kn, rng) for _ in range(deals)]
        t["sample_py"] += clock() - t0
        arrays = [np.array(x, dtype=np.int64) for x in (cards_in(kn.unknown), kn.known, kn.need, kn.banned)]
        t0 = clock()
        hk.sample_deals(*arrays, deals, rng.getrandbits(32), 200)  # type: ignore[call-arg]  # numba's stubs type a signature-compiled kernel as taking no arguments
        t["sample_c"] += clock() - t0
        ev = PlayEvidence(view)
        t0 = clock()
        py = [ev.log_weight(d) for d in batch]
        t["read_py"] += clock() - t0
        rows = np.array(batch, dtype=np.int64)
        t0 = clock()
        compiled = ev.log_weights(rows, np.zeros(deals), float("inf"))
        t["read_c"] += clock() - t0
        kept.append((view, arrays, ev, rows, []))
        disagreements += sum(1 for a, b in zip(py, compiled.tolist()) if abs(a - b) > 1e-9)
        candidates += deals
        for hands in batch[:10]:
            pos = Position(view.rules, trump, hands, view.leader, [c for _, c in view.trick],
                           list(view.seat_tricks), view.hakem)
            kept[-1][4].append(pos)
            for ev_, key in ((slow, "playout_py"), (fast, "playout_c")):
                ev_.prepare(view)
                t0 = clock()
                values = ev_.move_values(pos)
                t[key] += clock() - t0
                if key == "playout_py":
                    want = values
            disagreements += values != want
            cards_out += len(values)

    for _ in range(repeat - 1):
        again = dict.fromkeys(("sample_c", "read_c", "playout_c"), 0.0)
        for view, arrays, ev, rows, positions_ in kept:
            t0 = clock()
            hk.sample_deals(*arrays, deals, rng.getrandbits(32), 200)  # type: ignore[call-arg]  # numba's stubs type a signature-compiled kernel as taking no arguments
            again["sample_c"] += clock() - t0
            t0 = clock()
            ev.log_weights(rows, np.zeros(deals), float("inf"))
            again["read_c"] += clock() - t0
            fast.prepare(view)
            t0 = clock()
            for pos in positions_:
                fast.move_values(pos)
            again["playout_c"] += clock() - t0
        for key, value in again.items():
            t[key] = min(t[key], value)

    def per(key: str, count: int) -> float:
        return 1e6 * t[key] / max(count, 1)

    return {
        "players": players, "positions": len(views), "deals": deals, "seed": seed, "repeat": repeat,
        "candidates": candidates, "cards_played_out": cards_out, "disagreements": disagreements,
        "read_us": {"python": per("read_py", candidates), "compiled": per("read_c", candidates)},
        "sample_us": {"python": per("sample_py", candidates), "compiled": per("sample_c", candidates)},
        "playout_us": {"python": per("playout_py", cards_out), "compiled": per("playout_c", cards_out)},
    }


def run(args: argparse.Namespace) -> int:
    from ..search import _heuristic_kernel  # noqa: F401  (compile before timing)

    measure(args.players, 2, 20, args.seed + 1)  # warm up every compiled path
    d = measure(args.players, args.positions, args.deals, args.seed, args.repeat)
    if args.json:
        print(json.dumps(d))
        return 0
    print(f"{d['players']} players, {d['positions']} positions x {d['deals']} candidate deals, seed {d['seed']} "
          f"(CPU microseconds; disagreements: {d['disagreements']})")
    print(f"{'':28s} {'python':>10s} {'compiled':>10s} {'speed-up':>9s}")
    for key, label in (("read_us", "play-read, per deal"), ("sample_us", "deal drawn, per deal"),
                       ("playout_us", "playout, per card")):
        py, c = d[key]["python"], d[key]["compiled"]
        print(f"{label:28s} {py:10.1f} {c:10.1f} {py / c if c else float('inf'):8.1f}x")
    return 0 if d["disagreements"] == 0 else 1
