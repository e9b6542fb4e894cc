"""``hokm bench solver``: the double-dummy solver side by side with endplay's bridge solver.

Four players only (endplay solves bridge, which is four-handed Hokm without the early stop).
For random deals played out at random to the start of tricks 1, 3, 5 and 7, both solvers answer
the same question, "does the side to move reach 7 tricks?": ours with
:func:`hokm.search.dds.reaches`, endplay with ``solve_board`` in target mode (the target being the
tricks the side still needs). Every answer is compared; the times are medians per position,
measured in the same run, after both solvers have been warmed up. The clock is this thread's CPU
time by default (both solvers run in the calling thread), which a machine shared with other work
disturbs far less than wall time (``--clock wall``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from ..rules import Rules
from ..search.position import DDPosition, random_position

HELP = "time the double-dummy solver against endplay's (bridge DDS) on random 4-player positions"
TRICKS = (1, 3, 5, 7)
RANKS = "23456789TJQKA"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--positions", type=int, default=100, help="positions per trick (default 100)")
    parser.add_argument("--tricks", default="1,3,5,7",
                        help="comma-separated tricks to measure at (default 1,3,5,7)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random deals (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--oracle-games", type=int, default=0, metavar="N",
                        help="instead, play N 4-player games of oracle against heuristic and time the oracle")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="thread CPU time (default) or wall time")


def endplay_deal(pos: DDPosition):
    """The position as an endplay ``Deal``: seat k is endplay player k (both go in play order)."""
    from endplay.types import Deal, Denom, Player

    if pos.rules.players != 4:
        raise ValueError("endplay solves four-handed positions only")
    hands = list(pos.hands)
    for i, c in enumerate(pos.trick):
        hands[(pos.leader + i) % 4] |= 1 << c
    pbn = "N:" + " ".join(
        ".".join("".join(RANKS[r] for r in range(12, -1, -1) if (h >> (13 * s + r)) & 1) for s in range(4))
        for h in hands)
    deal = Deal(pbn)
    deal.first = Player(pos.leader)
    deal.trump = Denom(pos.trump)
    for c in pos.trick:
        deal.play(_endplay_card(c))
    return deal


def _endplay_card(c: int):
    from endplay.types import Card, Denom, Rank

    return Card(suit=Denom(c // 13), rank=Rank(1 << (c % 13 + 2)))


def endplay_reaches7(pos: DDPosition) -> bool:
    """endplay's answer to "does the side to move reach 7 tricks?" (its DD tricks plus tricks won)."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    side = pos.side_of(pos.to_move)
    need = 7 - pos.side_tricks[side]
    if need <= 0:
        return True
    # target mode lists a card only when the target can be met (a miss is scored -1 and skipped)
    scores = [score for _, score in solve_board(endplay_deal(pos), SolveMode.TargetOne, need)]
    return bool(scores) and max(scores) >= need


def measure(positions: int, seed: int, clock: str = "cpu", tricks: tuple[int, ...] = TRICKS) -> dict[str, Any]:
    """Run the comparison; returns per-trick medians (ms) and the disagreements."""
    from ..search import dds

    rules = Rules(players=4)
    rng = random.Random(seed)
    now = time.thread_time if clock == "cpu" else time.perf_counter
    warm = dds.warm_up()
    endplay_reaches7(random_position(rules, random.Random(0), 13))
    out: dict[str, Any] = {"positions": positions, "seed": seed, "clock": clock, "warm_up_s": round(warm, 3),
                           "tricks": {}}
    total_bad = 0
    for trick in tricks:
        ours: list[float] = []
        theirs: list[float] = []
        bad: list[str] = []
        for _ in range(positions):
            pos = random_position(rules, rng, 14 - trick)
            side = pos.side_of(pos.to_move)
            t0 = now()
            a = dds.reaches(pos, side, 7)
            t1 = now()
            b = endplay_reaches7(pos)
            t2 = now()
            ours.append((t1 - t0) * 1000)
            theirs.append((t2 - t1) * 1000)
            if a != b:
                bad.append(pos.describe())
        total_bad += len(bad)
        out["tricks"][str(trick)] = {
            "hokm_ms": round(statistics.median(ours), 4),
            "endplay_ms": round(statistics.median(theirs), 4),
            "hokm_p90_ms": round(statistics.quantiles(ours, n=10)[-1], 4) if len(ours) > 1 else ours[0],
            "endplay_p90_ms": round(statistics.quantiles(theirs, n=10)[-1], 4) if len(theirs) > 1 else theirs[0],
            "disagreements": len(bad),
            "examples": bad[:3],
        }
    out["disagreements"] = total_bad
    return out


def oracle_games(games: int, seed: int) -> dict[str, Any]:
    """``oracle`` (team 0) against ``heuristic`` (team 1): wins, seconds a game, oracle decisions."""
    from ..arena.runner import play_game
    from ..bots.base import make_bot
    from ..search import dds

    dds.warm_up()
    wins, per_game, decisions, fallbacks = 0, [], [], 0
    for g in range(games):
        oracle = make_bot("oracle")
        bots = [oracle if s % 2 == 0 else make_bot("heuristic", seed=seed + g) for s in range(4)]
        t0 = time.perf_counter()
        out = play_game(Rules(players=4), bots, seed=seed + g)
        per_game.append(time.perf_counter() - t0)
        wins += out.winner == 0
        decisions += out.decision_seconds[0] + out.decision_seconds[2]
        fallbacks += oracle.fallbacks  # type: ignore[attr-defined]
    q = statistics.quantiles(decisions, n=20) if len(decisions) > 1 else decisions * 19
    return {"games": games, "seed": seed, "oracle_wins": wins, "median_s_per_game": round(statistics.median(per_game), 2),
            "decisions": len(decisions), "decision_p50_ms": round(statistics.median(decisions) * 1000, 3),
            "decision_p95_ms": round(q[-1] * 1000, 1), "decision_max_ms": round(max(decisions) * 1000, 1),
            "over_node_budget": fallbacks}


def run(args: argparse.Namespace) -> int:
    if args.oracle_games:
        if args.oracle_games < 1:
            print("--oracle-games must be at least 1")
            return 2
        res = oracle_games(args.oracle_games, args.seed)
        print(json.dumps(res, indent=2) if args.json else
              f"oracle vs heuristic: {res['oracle_wins']}/{res['games']} games won, {res['median_s_per_game']} s a game; "
              f"oracle decisions p50 {res['decision_p50_ms']} ms, p95 {res['decision_p95_ms']} ms, "
              f"max {res['decision_max_ms']} ms; {res['over_node_budget']} over the node budget")
        return 0
    if args.positions < 1:
        print("--positions must be at least 1")
        return 2
    try:
        import endplay  # noqa: F401
    except ImportError:
        print("hokm bench solver needs endplay (pip install -e '.[dev]')")
        return 2
    try:
        tricks = tuple(int(t) for t in args.tricks.split(","))
    except ValueError:
        tricks = ()
    if not tricks or any(not 1 <= t <= 13 for t in tricks):
        print(f"--tricks must list trick numbers from 1 to 13, not {args.tricks!r}")
        return 2
    result = measure(args.positions, args.seed, args.clock, tricks)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"does the side to move reach 7? {args.positions} random 4-player positions per trick, "
              f"seed {args.seed}, {args.clock} clock (solver warm-up {result['warm_up_s']} s, not counted)")
        print(f"{'trick':>5}  {'hokm ms':>9}  {'endplay ms':>10}  {'speed-up':>8}  {'disagree':>8}")
        for trick, row in result["tricks"].items():
            ratio = row["endplay_ms"] / row["hokm_ms"] if row["hokm_ms"] else float("inf")
            print(f"{trick:>5}  {row['hokm_ms']:>9.3f}  {row['endplay_ms']:>10.3f}  {ratio:>7.1f}x  "
                  f"{row['disagreements']:>8}")
        print("medians per position; both solvers measured in the same run")
    return 1 if result["disagreements"] else 0
