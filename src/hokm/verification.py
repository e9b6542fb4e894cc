"""The whole check of a record file: JSON, replay, fair shuffles, signature.

Shared by ``hokm verify`` and ``POST /api/verify`` (which runs it in a worker process, since a
long record takes a noticeable time of pure Python). It never raises: every fault becomes a
result with ``ok`` false and a ``stage`` saying which check refused the record:

- ``read``: the file could not be read (the CLI only);
- ``json``: not UTF-8 JSON, or nested deeper than :data:`hokm.jsonlimit.MAX_DEPTH`;
- ``record``: a ``hokm/1`` record that is malformed or breaks a rule (``code`` from
  ``docs/record-format.md``: ``not_in_hand`` is a replay failure, not a JSON one);
- ``fairness``: a hand whose commit or deck does not match its seeds;
- ``signature``: a signature that does not match, or not the required server's;
- ``None`` when the record verifies.
"""

from __future__ import annotations

from typing import Any

from .fairness import verify_record
from .jsonlimit import MAX_DEPTH, JsonTooDeep, loads_bounded
from .records import RecordError, load_record
from .signing import check_signature


def _refused(stage: str, message: str, code: str | None = None) -> dict[str, Any]:
    return {"ok": False, "stage": stage, "code": code, "message": message, "hakem_draw_ok": None, "hands": [],
            "signature": None}


def check_record(data: bytes | dict[str, Any], expected_key: str | None = None) -> dict[str, Any]:
    """``{"ok", "stage", "code", "message", "hakem_draw_ok", "hands", "signature"}`` for a record.

    ``expected_key`` (64 hex digits) requires the record to be signed by that server's key.
    """
    try:
        if isinstance(data, dict):
            record: Any = data
        else:
            record = loads_bounded(bytes(data).removeprefix(b"\xef\xbb\xbf"), MAX_DEPTH)
    except JsonTooDeep as e:
        return _refused("json", str(e), "too_deep")
    except UnicodeDecodeError as e:
        return _refused("json", f"not UTF-8: {e.reason} at byte {e.start}", "bad_json")
    except ValueError as e:
        return _refused("json", f"not JSON: {e}", "bad_json")
    try:
        load_record(record)
    except RecordError as e:
        where = "" if e.hand is None else f" (hand {e.hand}" + ("" if e.action is None else f", play {e.action}") + ")"
        return _refused("record", f"the record does not replay: {e.code}{where}: {e.message}", e.code)
    fair = verify_record(record).to_json()
    sig = check_signature(record, expected_key)
    out = {"ok": fair["ok"] and sig.ok, "stage": None, "code": None, "message": fair["message"],
           "hakem_draw_ok": fair["hakem_draw_ok"], "hands": fair["hands"], "signature": sig.to_json()}
    if not fair["ok"]:
        out["stage"], out["code"] = "fairness", "not_fair"
    elif not sig.ok:
        out["stage"], out["code"] = "signature", sig.status
        out["message"] = f"{fair['message']}, but {sig.message}"
    else:
        out["message"] = f"{fair['message']}; {sig.message}"
    return out
