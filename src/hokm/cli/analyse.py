"""``hokm analyse RECORD``: every card of a record's finished hands judged double-dummy.

The marks (fine, inaccuracy, mistake, blunder) are defined in ``docs/analysis.md``. ``--json``
prints the analysis object; otherwise one table per hand with the cards that were not fine.
A hand still being played is never analysed (asking for it with ``--hand`` is an error).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from ..cards import Suit
from ..records import RecordError

if TYPE_CHECKING:
    from rich.console import JustifyMethod

HELP = "judge every card of a record's finished hands with the double-dummy solver"
STYLE = {"fine": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red", "unsolved": "dim"}
DEFAULT_NODE_LIMIT = 2_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="a hokm/1 record file ('-' reads standard input)")
    parser.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    parser.add_argument("--hand", type=int, action="append", metavar="N",
                        help="analyse hand N only (0-based; may be given more than once)")
    parser.add_argument("--trump", action="store_true", help="also judge the trump choice (4 solves a hand)")
    parser.add_argument("--all", action="store_true", help="list every card, not only those that cost something")
    parser.add_argument("--node-limit", type=int, default=DEFAULT_NODE_LIMIT, metavar="N",
                        help=f"solver nodes per card before it is left unsolved (0: no limit; "
                             f"default {DEFAULT_NODE_LIMIT})")


def _suit(letter: str) -> str:
    return Suit.parse(letter).symbol


def _card(text: str) -> str:
    return text[:-1] + _suit(text[-1])


def _print_human(console: Any, path: str, result: dict[str, Any], show_all: bool) -> None:
    from rich.table import Table

    n = result["players"]
    for note in result["notes"]:
        console.print(f"[dim]note: {note}[/dim]", highlight=False)
    for h in result["hands"]:
        sides = "team" if n == 4 else "seat"
        winner = f"{sides} {h['winner']}" + (" kot" if h["kot"] else "")
        table = Table(title=f"{path}: hand {h['hand']}, Hâkem seat {h['hakem']}, trump {_suit(h['trump'])}, "
                            f"tricks {'-'.join(map(str, h['tricks']))}, {winner}", title_justify="left")
        columns: tuple[tuple[str, JustifyMethod], ...] = (
            ("trick", "right"), ("seat", "right"), ("card", "left"), ("mark", "left"),
            ("side could force", "left"), ("after the card", "left"), ("better", "left"))
        for col, just in columns:
            table.add_column(col, justify=just)
        shown = [p for p in h["plays"] if show_all or p["mark"] != "fine"]
        for p in shown:
            best = p["best"]["text"] if p["best"] else "—"
            played = p["played"]["text"] if p["played"] else "—"
            table.add_row(str(p["trick"] + 1), str(p["seat"]), _card(p["card"]),
                          f"[{STYLE[p['mark']]}]{p['mark']}[/]", best, played,
                          " ".join(_card(c) for c in p["better"]) or "—")
        if shown:
            console.print(table)
        else:
            console.print(f"{table.title}: every card kept the best result", highlight=False)
        counts = "; ".join(f"seat {s}: " + ", ".join(f"{v} {k}" for k, v in c.items() if v and k != "fine")
                           for s, c in enumerate(h["counts"]) if any(v for k, v in c.items() if k != "fine"))
        console.print(f"cards that cost something: {counts or 'none'}", highlight=False)
        t = h["trump_choice"]
        if t is not None:
            by = "; ".join(f"{_suit(s)} {v['text']}" for s, v in t["by_suit"].items())
            console.print(f"trump {_suit(t['chosen'])}: [{STYLE[t['mark']]}]{t['mark']}[/] ({by})", highlight=False)
        d = h.get("last_draw")
        if d is not None:
            by = "; ".join(f"{c} {v['text']}" for c, v in d["by_choice"].items())
            console.print(f"last draw, seat {d['seat']} chose {d['chosen']}: [{STYLE[d['mark']]}]{d['mark']}[/] ({by})",
                          highlight=False)
    if result["in_progress"] is not None:
        console.print(f"hand {result['in_progress']} is still being played: not analysed", highlight=False)


def run(args: argparse.Namespace) -> int:
    from ..search.analysis import AnalysisError, analyse_record

    if args.node_limit < 0:
        print("hokm analyse: --node-limit must be 0 or more", file=sys.stderr)
        return 2
    try:
        if args.record == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.record, "rb") as f:
                data = f.read()
    except OSError as e:
        print(f"hokm analyse: cannot read {args.record}: {e.strerror or e}", file=sys.stderr)
        return 2
    try:
        result = analyse_record(data, hands=args.hand, trump=args.trump, node_limit=args.node_limit or None)
    except RecordError as e:
        print(f"hokm analyse: {args.record}: invalid record: {e}", file=sys.stderr)
        return 1
    except AnalysisError as e:
        print(f"hokm analyse: {args.record}: {e.message}", file=sys.stderr)
        return 1
    out = result.to_json()
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    from rich.console import Console

    _print_human(Console(), args.record, out, args.all)
    return 0
