"""``hokm bench solver``: the double-dummy solver side by side with endplay's bridge solver.

Four players (endplay solves bridge, which is four-handed Hokm without the early stop).
For random deals played out at random to the start of tricks 1, 3, 5 and 7, both solvers answer
the same question, "does the side to move reach 7 tricks?": ours with
:func:`hokm.search.dds.reaches`, endplay with ``solve_board`` in target mode (the target being the
tricks the side still needs). Every answer is compared; the times are medians per position,
measured in the same run, after both solvers have been warmed up. The clock is this thread's CPU
time by default (both solvers run in the calling thread), which a machine shared with other work
disturbs far less than wall time (``--clock wall``).

``--players 2`` and ``--players 3`` time the solver alone on the whole-hand question
(:func:`hokm.search.dds.solve`: who wins, by how much, kot included) at the same tricks, and
check it against exhaustive minimax (:func:`hokm.search.brute.brute_move_values`) at the late tricks
where that is feasible (``--brute-tricks``).
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
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4,
                        help="4 (default): against endplay; 2 or 3: the solver alone, and brute force late")
    parser.add_argument("--brute-tricks", default=None,
                        help="2 and 3 players: tricks at which exhaustive minimax checks every answer "
                             "(default 9,10,11 with two players, 14,15,16 with three)")


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
    return endplay_search7(pos)[0]


def endplay_search7(pos: DDPosition) -> tuple[bool, int]:
    """endplay's answer to "does the side to move reach 7 tricks?", and the nodes DDS counted for it
    (``futureTricks.nodes``: DDS counts the positions at the start of a trick it reached)."""
    from endplay import _dds
    from endplay.dds.solve import SolvedBoard, SolveMode

    side = pos.side_of(pos.to_move)
    need = 7 - pos.side_tricks[side]
    if need <= 0:
        return True, 0
    # what endplay's solve_board does, keeping DDS's answer object for its node count; target mode
    # lists a card only when the target can be met (a miss is scored -1 and skipped)
    found = _dds.futureTricks()
    target, solutions = SolveMode.TargetOne.target_solutions(need)
    _dds.SolveBoard(endplay_deal(pos)._data, target, solutions, 1, found, 0)
    scores = [score for _, score in SolvedBoard(found)]
    return bool(scores) and max(scores) >= need, int(found.nodes)


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


BRUTE_TRICKS = {2: (9, 10, 11), 3: (14, 15, 16)}


def measure_small(players: int, positions: int, seed: int, clock: str = "cpu", tricks: tuple[int, ...] = TRICKS,
                  brute_tricks: tuple[int, ...] | None = None) -> dict[str, Any]:
    """Two or three players: the solver's time per whole-hand answer at each trick (median, p90)
    and, at ``brute_tricks``, exhaustive minimax's time and every disagreement with it."""
    from ..search import dds
    from ..search.brute import brute_move_values

    if players not in (2, 3):
        raise ValueError(f"measure_small is for 2 or 3 players, not {players!r}")
    rules = Rules(players=players)
    rng = random.Random(seed)
    now = time.thread_time if clock == "cpu" else time.perf_counter
    warm = dds.warm_up()
    brute_at = BRUTE_TRICKS[players] if brute_tricks is None else brute_tricks
    out: dict[str, Any] = {"players": players, "positions": positions, "seed": seed, "clock": clock,
                           "warm_up_s": round(warm, 3), "tricks": {}}
    total_bad = 0
    for trick in sorted(set(tricks) | set(brute_at)):
        ours: list[float] = []
        brute: list[float] = []
        bad: list[str] = []
        for _ in range(positions):
            pos = random_position(rules, rng, rules.total_tricks + 1 - trick)
            t0 = now()
            value = dds.solve(pos).value
            ours.append((now() - t0) * 1000)
            if trick in brute_at:
                t1 = now()
                expect = max(brute_move_values(pos).values())
                brute.append((now() - t1) * 1000)
                if value != expect:
                    bad.append(pos.describe())
        total_bad += len(bad)
        row: dict[str, Any] = {"hokm_ms": round(statistics.median(ours), 4), "hokm_p90_ms": _p90(ours)}
        if brute:
            row.update(brute_ms=round(statistics.median(brute), 4), brute_p90_ms=_p90(brute),
                       disagreements=len(bad), examples=bad[:3])
        out["tricks"][str(trick)] = row
    out["disagreements"] = total_bad
    return out


def _p90(times: list[float]) -> float:
    return round(statistics.quantiles(times, n=10)[-1], 4) if len(times) > 1 else round(times[0], 4)


def oracle_games(games: int, seed: int) -> dict[str, Any]:
    """``oracle`` (team 0) against ``heuristic`` (team 1): wins, seconds a game, oracle decisions."""
    from ..arena.runner import play_game
    from ..players import make_bot
    from ..search import dds
    from ..search.oracle import OracleBot

    dds.warm_up()
    rules = Rules(players=4)
    wins, per_game, decisions, fallbacks = 0, [], [], 0
    for g in range(games):
        oracle = make_bot("oracle")
        if not isinstance(oracle, OracleBot):
            raise TypeError(f"the 'oracle' player is a {type(oracle).__name__}, not an OracleBot")
        bots = [oracle if rules.side_of(s) == 0 else make_bot("heuristic", seed=seed + g) for s in range(4)]
        t0 = time.perf_counter()
        out = play_game(rules, bots, seed=seed + g)
        per_game.append(time.perf_counter() - t0)
        wins += out.winner == 0
        for s in rules.seats_of(0):
            decisions += out.decision_seconds[s]
        fallbacks += oracle.fallbacks
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
    last = Rules(players=args.players).total_tricks
    tricks = _trick_list(args.tricks, last)
    if tricks is None:
        print(f"--tricks must list trick numbers from 1 to {last}, not {args.tricks!r}")
        return 2
    if args.players != 4:
        return _run_small(args, tricks, last)
    try:
        import endplay  # noqa: F401
    except ImportError:
        print("hokm bench solver needs endplay (pip install -e '.[dev]')")
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


def _trick_list(text: str, last: int) -> tuple[int, ...] | None:
    try:
        tricks = tuple(int(t) for t in text.split(","))
    except ValueError:
        return None
    if not tricks or any(not 1 <= t <= last for t in tricks):
        return None
    return tricks


def _run_small(args: argparse.Namespace, tricks: tuple[int, ...], last: int) -> int:
    brute_at = None
    if args.brute_tricks is not None:
        brute_at = () if args.brute_tricks == "" else _trick_list(args.brute_tricks, last)
        if brute_at is None:
            print(f"--brute-tricks must list trick numbers from 1 to {last}, not {args.brute_tricks!r}")
            return 2
    result = measure_small(args.players, args.positions, args.seed, args.clock, tricks, brute_at)
    if args.json:
        print(json.dumps(result, indent=2))
        return 1 if result["disagreements"] else 0
    print(f"the whole hand's value (dds.solve), {args.positions} random {args.players}-player positions per trick, "
          f"seed {args.seed}, {args.clock} clock (solver warm-up {result['warm_up_s']} s, not counted)")
    print(f"{'trick':>5}  {'hokm ms':>9}  {'hokm p90':>9}  {'brute ms':>9}  {'brute p90':>9}  {'disagree':>8}")
    for trick, row in result["tricks"].items():
        brute = (f"{row['brute_ms']:>9.3f}  {row['brute_p90_ms']:>9.3f}  {row['disagreements']:>8}"
                 if "brute_ms" in row else f"{'-':>9}  {'-':>9}  {'-':>8}")
        print(f"{trick:>5}  {row['hokm_ms']:>9.3f}  {row['hokm_p90_ms']:>9.3f}  {brute}")
    print("medians and 90th percentiles per position")
    return 1 if result["disagreements"] else 0
