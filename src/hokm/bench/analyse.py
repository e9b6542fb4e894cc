"""``hokm bench analyse``: seconds to analyse a whole hand (every card judged double-dummy).

Games between heuristic bots (seeded deal sequences, so every run sees the same hands) are
written as records and analysed hand by hand with :func:`hokm.search.analysis.analyse_record`,
in this one process (one core). The clock is this thread's CPU time by default (``--clock
wall`` for wall time). The solver's transposition table is cleared before each hand, so no hand
profits from the one before. Reports the median, 90th percentile and maximum per hand and how
many cards were left unsolved at the node limit.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

HELP = "time the post-hand analysis of whole hands (heuristic-bot games, one core)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--hands", type=int, default=6, help="hands to analyse (default 6), from as many games as needed")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal sequences (default 1)")
    parser.add_argument("--node-limit", type=int, default=0, metavar="N",
                        help="solver nodes per card before it is left unsolved (default 0: no limit)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a summary")


def measure(players: int, hands: int, seed: int, node_limit: int | None, clock: str,
            progress: bool = False) -> dict[str, Any]:
    from ..arena.runner import play_game
    from ..players import make_bot
    from ..records import record_from_game
    from ..rules import Rules
    from ..search import dds
    from ..search.analysis import analyse_record

    tick = time.thread_time if clock == "cpu" else time.perf_counter
    dds.warm_up()
    rules = Rules(players=players)
    per_hand: list[float] = []
    unsolved = cards = 0
    k = 0
    while len(per_hand) < hands:
        bots = [make_bot("heuristic", seed=seed * 1000 + k * 10 + s) for s in range(players)]
        game = play_game(rules, bots, f"{seed}:{k}", keep_game=True).game
        assert game is not None  # keep_game
        record = record_from_game(game)
        for h in range(min(len(game.results), hands - len(per_hand))):
            dds.clear_table()
            t0 = tick()
            a = analyse_record(record, hands=[h], node_limit=node_limit)
            per_hand.append(tick() - t0)
            for p in a.hands[0].plays:
                cards += 1
                unsolved += p.mark.value == "unsolved"
            if progress:
                print(f"game {k} hand {h}: {per_hand[-1]:.3f} s", flush=True)
        k += 1
    per_hand.sort()
    return {"players": players, "games": k, "hands": len(per_hand), "cards": cards, "unsolved": unsolved,
            "node_limit": node_limit, "clock": clock, "median_s": statistics.median(per_hand),
            "p90_s": per_hand[min(len(per_hand) - 1, int(0.9 * len(per_hand)))], "max_s": per_hand[-1],
            "total_s": sum(per_hand)}


def run(args: argparse.Namespace) -> int:
    if args.hands < 1 or args.node_limit < 0:
        print("hokm bench analyse: --hands must be at least 1 and --node-limit 0 or more")
        return 2
    r = measure(args.players, args.hands, args.seed, args.node_limit or None, args.clock, progress=not args.json)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['players']} players, {r['games']} games, {r['hands']} hands, {r['cards']} cards "
          f"({r['unsolved']} unsolved at node limit {r['node_limit']}); {r['clock']} seconds per hand: "
          f"median {r['median_s']:.3f}, p90 {r['p90_s']:.3f}, max {r['max_s']:.3f}, total {r['total_s']:.1f}")
    return 0
