"""``hokm arena``: a duplicate match between two bots, with confidence intervals.

See :mod:`hokm.arena.match` for how games are paired and what ``--games`` counts, and
``docs/arena.md`` for measured results.
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "play duplicate games between two bots and report win rates with 95% intervals"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="player count (default 4)")
    parser.add_argument("--a", required=True, metavar="BOT", help="bot spec of side a (one seat with 3 players)")
    parser.add_argument("--b", required=True, metavar="BOT", help="bot spec of side b (two seats with 3 players)")
    parser.add_argument("--games", type=_positive, default=100,
                        help="games to play, rounded up to whole pairs (triples with 3 players); default 100")
    parser.add_argument("--seed", type=int, default=None,
                        help="match seed: fixes every deal and bot seed (default: a fresh random seed, printed)")
    parser.add_argument("--jobs", type=_positive, default=None,
                        help="worker processes (default: every available CPU; 1 plays in-process)")
    parser.add_argument("--time-limit", type=_seconds, default=None, metavar="SECONDS",
                        help="forfeit a bot whose decision takes longer than this")
    parser.add_argument("--rules", default=None, metavar="JSON",
                        help='rule options as a JSON object, e.g. \'{"target_points": 5}\'')
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--progress", action="store_true", help="show progress on stderr")


def run(args: argparse.Namespace) -> int:
    import secrets

    from ..arena import run_match
    from ..rules import Rules, RulesError

    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    try:
        rules_data = json.loads(args.rules) if args.rules else None
        rules = Rules.from_dict(args.players, rules_data)
    except (json.JSONDecodeError, RulesError, TypeError) as e:
        print(f"hokm arena: bad --rules: {e}", file=sys.stderr)
        return 2

    def progress(done: int, total: int) -> None:
        print(f"\r{done}/{total} deal sequences", end="" if done < total else "\n", file=sys.stderr, flush=True)

    try:
        report = run_match(args.a, args.b, players=args.players, games=args.games, seed=seed, rules=rules,
                           jobs=args.jobs, time_limit=args.time_limit,
                           progress=progress if args.progress else None)
    except ValueError as e:
        print(f"hokm arena: {e}", file=sys.stderr)
        return 2
    data = report.to_json()
    if args.json:
        print(json.dumps(data))
    else:
        print_summary(data)
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci: list[float]) -> str:
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def print_summary(d: dict) -> None:
    """The human-readable report."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    group = "pairs" if d["games_per_sequence"] == 2 else "triples"
    console.print(f"[bold]{d['a']}[/] (a) vs [bold]{d['b']}[/] (b), {d['players']} players, seed {d['seed']}: "
                  f"{d['games']} games = {d['deal_sequences']} duplicate {group}, "
                  f"{d['seconds']:.1f}s on {d['jobs']} process(es)")
    table = Table(show_header=True, header_style="bold")
    for col in ("", "a", "b", "a share", "95% interval"):
        table.add_column(col, justify="right")
    table.add_row("games won", str(d["a_wins"]), str(d["b_wins"]), _pct(d["a_win_rate"]), _ci(d["a_win_ci95"]))
    table.add_row("hands won", str(d["hands_a"]), str(d["hands_b"]), _pct(d["hands_a_rate"]), _ci(d["hands_a_ci95"]))
    kots = d["kots_a"] + d["kots_b"]
    table.add_row("kots won", str(d["kots_a"]), str(d["kots_b"]),
                  _pct(d["kots_a"] / kots) if kots else "-", _ci(d["kots_a_ci95"]))
    table.add_row("points", str(d["points_a"]), str(d["points_b"]), "", "")
    spd, p95 = d["seconds_per_decision"], d["p95_seconds_per_decision"]
    table.add_row("ms/decision (mean)", f"{1000 * spd['a']:.3f}", f"{1000 * spd['b']:.3f}", "", "")
    med = d["median_seconds_per_decision"]
    table.add_row("ms/decision (median)", f"{1000 * med['a']:.3f}", f"{1000 * med['b']:.3f}", "", "")
    table.add_row("ms/decision (p95)", f"{1000 * p95['a']:.3f}", f"{1000 * p95['b']:.3f}", "", "")
    table.add_row("forfeits", str(d["forfeits"]["a"]), str(d["forfeits"]["b"]), "", "")
    console.print(table)
    if d["players"] != 3:
        lo, hi = d["elo_ci95"]
        point = d["elo_diff"]
        if point is None:  # unbounded: a won every game or none
            point_text = "+∞" if d["a_wins"] else "−∞"
        else:
            point_text = f"{point:+.0f}"
        lo_text = "−∞" if lo is None else f"{lo:+.0f}"
        hi_text = "+∞" if hi is None else f"{hi:+.0f}"
        console.print(f"Elo difference a − b: {point_text} (95%: {lo_text} .. {hi_text})")
    if d["players"] == 3:
        console.print(f"a's fair share with three players is {_pct(d['fair_share'])} of the games.")
    for msg in d["forfeit_messages"]:
        console.print(f"[red]forfeit:[/] {msg}")
