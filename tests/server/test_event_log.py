"""The table's event log in process: what a join catches up on."""

from __future__ import annotations

from typing import Any, cast

from hokm.server.storage import EventRow
from hokm.server.table.log import MAX_MISSED, EventLog


def _log(n: int) -> EventLog:
    log = EventLog("t", cast(Any, None), cast(Any, None))
    log.loaded([EventRow("t", i, "presence", {"seat": i % 4, "connected": i % 2 == 0}, float(i))
                for i in range(1, n + 1)])
    return log


def test_a_join_catches_up_on_at_most_max_missed_events() -> None:
    """A join that asks for more events than that gets the view alone: a client asking again and again for a
    long table's whole history kept the node redacting it, and every other table on the node waited."""
    log = _log(MAX_MISSED + 50)
    behind = log.missed(log.seq - MAX_MISSED, seat=0)
    assert behind is not None and [e["seq"] for e in behind] == list(range(log.seq - MAX_MISSED + 1, log.seq + 1))
    assert log.missed(log.seq - MAX_MISSED - 1, seat=0) is None
    assert log.missed(0, seat=None) is None
    assert log.missed(log.seq, seat=1) == []
    assert log.missed(log.seq + 1, seat=1) is None  # from a future this table never had
    short = _log(10)
    assert [e["seq"] for e in short.missed(0, seat=2) or []] == list(range(1, 11))
