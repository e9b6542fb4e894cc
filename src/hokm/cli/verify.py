"""``hokm verify FILE...``: check the commit-reveal fairness data of game records.

Each record is first replayed through the engine (a record that breaks the rules is not fair
whatever its seeds say), then every hand's commit and deck, and the first Hâkem's ace draw, are
checked as ``docs/fairness.md`` describes. Exit status 0 only when every file verifies.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..fairness import verify_record
from ..records import RecordError, load_record

HELP = "check the fairness (commit-reveal shuffles) of game records"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files ('-' reads standard input)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file")


def verify_file(path: str) -> dict[str, Any]:
    """``{"file", "ok", "message", "hakem_draw_ok", "hands"}`` for one record file."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
        record = json.loads(data)
        load_record(record)
    except OSError as e:
        return {"file": path, "ok": False, "message": f"cannot read: {e.strerror or e}", "hakem_draw_ok": None,
                "hands": []}
    except ValueError as e:
        return {"file": path, "ok": False, "message": f"not JSON: {e}", "hakem_draw_ok": None, "hands": []}
    except RecordError as e:
        return {"file": path, "ok": False, "message": f"not a valid record: {e.message}", "hakem_draw_ok": None,
                "hands": []}
    return {"file": path} | verify_record(record).to_json()


def run(args: argparse.Namespace) -> int:
    ok = True
    for path in args.files:
        result = verify_file(path)
        ok = ok and result["ok"]
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
            continue
        print(f"{path}: {'fair' if result['ok'] else 'NOT VERIFIED'}: {result['message']}")
        for h in result["hands"]:
            if not h["ok"]:
                print(f"  hand {h['hand']}: {h['message']}")
        if result["hakem_draw_ok"] is False:
            print("  the first Hâkem's ace draw does not follow from hand 0's seeds")
    return 0 if ok else 1
