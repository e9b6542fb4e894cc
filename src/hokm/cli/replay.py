"""``hokm replay FILE...``: check ``hokm/1`` records through the engine and summarise them.

With ``--json`` each file gives one line, the object described in ``docs/record-format.md``;
otherwise a short table per file. The exit status is 0 only when every file is a valid record,
so the command doubles as a checker in scripts and CI.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cards import Suit
from ..records import RecordError, replay_summary

HELP = "check game records (hokm/1) and summarise them"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files ('-' reads standard input)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file, one per line")


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def summarise_file(path: str) -> dict[str, Any]:
    """The summary object for one file; an unreadable file is a ``bad_format`` record."""
    try:
        data = _read(path)
    except OSError as e:
        return {"ok": False, "error": RecordError("bad_format", f"cannot read {path}: {e.strerror or e}").to_json()}
    return replay_summary(data)


def _side_name(players: int, side: int) -> str:
    from ..rules import Rules

    if players != 4:
        return f"seat {side}"
    return f"team {side} (seats {' and '.join(str(s) for s in Rules(players=4).seats_of(side))})"


def _print_human(console: Any, path: str, summary: dict[str, Any]) -> None:
    from rich.table import Table

    if not summary["ok"]:
        err = summary["error"]
        where = "".join(f", {k} {err[k]}" for k in ("hand", "action") if err[k] is not None)
        console.print(f"[bold]{path}[/bold]: [red]invalid[/red] ({err['code']}{where}): {err['message']}",
                      highlight=False)
        return
    n = summary["players"]
    sides = "team" if n == 4 else "seat"
    table = Table(title=f"{path}: {n} players", title_justify="left")
    table.add_column("hand", justify="right")
    table.add_column("Hâkem", justify="right")
    table.add_column("trump")
    table.add_column(f"tricks per {sides}")
    table.add_column("winner")
    table.add_column("points", justify="right")
    for i, h in enumerate(summary["hands"]):
        winner = "—" if h["winner"] is None else f"{sides} {h['winner']}" + (" kot" if h["kot"] else "")
        trump = "—" if h["trump"] is None else Suit.parse(h["trump"]).symbol + " " + h["trump"]
        table.add_row(str(i), str(h["hakem"]), trump, "-".join(map(str, h["tricks"])), winner, str(h["points"]))
    console.print(table)
    scores = "-".join(map(str, summary["scores"]))
    if summary["game_over"]:
        console.print(f"final score {scores}: {_side_name(n, summary['winner'])} wins", highlight=False)
    else:
        console.print(f"score {scores}; in progress: seat {summary['to_move']} to move ({summary['phase']})",
                      highlight=False)


def run(args: argparse.Namespace) -> int:
    ok = True
    console = None
    if not args.json:
        from rich.console import Console

        console = Console()
    for path in args.files:
        summary = summarise_file(path)
        ok = ok and summary["ok"]
        if args.json:
            sys.stdout.write(json.dumps(summary) + "\n")  # ASCII: safe on any terminal encoding
            sys.stdout.flush()
        else:
            _print_human(console, path, summary)
    return 0 if ok else 1
