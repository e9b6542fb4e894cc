"""``hokm verify FILE...``: check the fairness and the signature of game records.

Each record is first replayed through the engine (a record that breaks the rules is not fair
whatever its seeds say), then every hand's commit and deck, and the first Hâkem's ace draw, are
checked as ``docs/fairness.md`` describes, and finally the server's Ed25519 signature
(``docs/record-format.md``): who signed it, or that it is unsigned. ``--key`` requires a given
server. Exit status 0 only when every file verifies.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..signing import SigningError, fingerprint, parse_public_key
from ..verification import check_record

HELP = "check the fairness (commit-reveal shuffles) and the server signature of game records"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files ('-' reads standard input)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file")
    parser.add_argument("--key", metavar="PUBKEY",
                        help="require the signature of this server: its public key (64 hex digits, from "
                             "/api/info) or a file holding it (hex or PEM)")


def expected_key(value: str | None) -> str | None:
    """The ``--key`` argument as 64 hex digits: the key itself, or the contents of a file."""
    if value is None:
        return None
    text = value
    if os.path.isfile(value):
        with open(value, encoding="utf-8") as f:
            text = f.read()
    return parse_public_key(text)


def verify_file(path: str, key: str | None = None) -> dict[str, Any]:
    """:func:`hokm.verification.check_record` of one file, with ``"file"`` first."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    except OSError as e:
        return {"file": path, "ok": False, "stage": "read", "code": "cannot_read",
                "message": f"cannot read: {e.strerror or e}", "hakem_draw_ok": None, "hands": [], "signature": None}
    return {"file": path} | check_record(data, key)


def _label(result: dict[str, Any]) -> str:
    if result["ok"]:
        sig = result["signature"] or {}
        return "fair, signed" if sig.get("status") == "signed" else "fair, UNSIGNED"
    return {"read": "NOT READ", "json": "NOT JSON", "record": "NOT A VALID RECORD", "fairness": "NOT FAIR",
            "signature": "SIGNATURE REFUSED"}.get(result["stage"], "NOT VERIFIED")


def run(args: argparse.Namespace) -> int:
    try:
        key = expected_key(args.key)
    except (OSError, SigningError, UnicodeDecodeError) as e:
        print(f"hokm verify: --key: {e}", file=sys.stderr)
        return 2
    if key is not None and not args.json:
        print(f"requiring the signature of server {fingerprint(key)}")
    ok = True
    for path in args.files:
        result = verify_file(path, key)
        ok = ok and result["ok"]
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
            continue
        print(f"{path}: {_label(result)}: {result['message']}")
        for h in result["hands"]:
            if not h["ok"]:
                print(f"  hand {h['hand']}: {h['message']}")
        if result["hakem_draw_ok"] is False:
            print("  the first Hâkem's ace draw does not follow from hand 0's seeds")
        sig = result["signature"]
        if sig and sig["public_key"] and sig["status"] != "bad_signature":
            print(f"  server public key: {sig['public_key']}")
    return 0 if ok else 1
