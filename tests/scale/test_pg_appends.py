"""PostgreSQL's appends in one statement (``hokm.server.storage.pg_appends``): what is stored, what
is refused alone, and a lost connection."""

from __future__ import annotations

import asyncio
import time

import pytest

from hokm.server.cluster.fence import FencedError, FencedStorage
from hokm.server.storage import EventRow, StorageError, TableRow
from hokm.server.storage.sql import SqlStorage


def _table(t: str) -> TableRow:
    now = time.time()
    return TableRow(id=t, mode="private", players=4, config={}, host=None, status="waiting", seats=[],
                    created_at=now, updated_at=now)


def _ev(t: str, seq: int) -> EventRow:
    return EventRow(t, seq, "action", {"seat": seq % 4, "card": "AS", "note": "حکم"}, 1000.0 + seq)


def test_a_group_is_one_statement_and_a_taken_sequence_number_fails_alone(pg_url: str) -> None:
    """A single node on PostgreSQL: events and each table's sequence number are stored by one statement
    on the appends' own connection (none through SQLAlchemy's); a group holding a taken sequence number
    is undone whole and written again one by one, so the other tables' events are stored once."""
    async def go() -> None:
        s = SqlStorage(pg_url)
        await s.init()
        for t in ("a", "b", "c"):
            await s.create_table(_table(t))
        statements: list[str] = []
        from sqlalchemy import event

        event.listen(s._e.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        await s.append_events("a", [_ev("a", 1), _ev("a", 2)])
        assert statements == []
        results = await asyncio.gather(s.append_events("b", [_ev("b", 1)]), s.append_events("a", [_ev("a", 2)]),
                                       s.append_events("c", [_ev("c", 1)]), return_exceptions=True)
        assert results[0] is None and results[2] is None, results
        assert isinstance(results[1], StorageError) and "table a: event sequence 2 is already taken" in str(results[1])
        for t, seqs in (("a", [1, 2]), ("b", [1]), ("c", [1])):
            stored = await s.events(t)
            assert [e.seq for e in stored] == seqs
            row = await s.get_table(t)
            assert row is not None and row.seq == seqs[-1] and row.updated_at == 1000.0 + seqs[-1]
        assert (await s.events("a"))[0].payload == {"seat": 1, "card": "AS", "note": "حکم"}
        await s.close()

    asyncio.run(go())


def test_the_appends_connection_is_opened_again_when_postgresql_drops_it(pg_url: str) -> None:
    async def go() -> None:
        s = SqlStorage(pg_url)
        await s.init()
        await s.create_table(_table("t"))
        await s.append_events("t", [_ev("t", 1)])
        assert s._pg is not None and s._pg._conn is not None
        pid = s._pg._conn.get_server_pid()
        import asyncpg

        admin = await asyncpg.connect(pg_url.replace("+asyncpg", ""))
        await admin.execute("SELECT pg_terminate_backend($1)", pid)
        await admin.close()
        for _ in range(50):  # the client notices the connection's end
            if s._pg._conn.is_closed():
                break
            await asyncio.sleep(0.02)
        await s.append_events("t", [_ev("t", 2)])
        assert [e.seq for e in await s.events("t")] == [1, 2]
        assert s._pg._conn.get_server_pid() != pid
        await s.close()

    asyncio.run(go())


@pytest.mark.timeout(60)
def test_a_claim_waits_for_an_append_of_the_old_owner_under_way(pg_url: str) -> None:
    """The one statement locks the fence rows it checks: a newer owner's claim made while the old
    owner's append holds them waits for it, and the old owner's next append is refused."""
    async def go() -> None:
        old, new = FencedStorage(pg_url), FencedStorage(pg_url)
        await old.init()
        await new.init()
        await old.create_table(_table("t"))
        await old.claim("t", 1)
        import asyncpg

        # Hold the table's events' lock (an open transaction inserting seq 1) so that the old owner's
        # statement, having locked the fence row, waits inside itself.
        blocker = await asyncpg.connect(pg_url.replace("+asyncpg", ""))
        tx = blocker.transaction()
        await tx.start()
        await blocker.execute("INSERT INTO table_events (table_id, seq, kind, payload, at) VALUES ('t', 1, 'x', '{}', 0)")
        append = asyncio.ensure_future(old.append_events("t", [_ev("t", 1)]))
        await asyncio.sleep(0.3)
        claim = asyncio.ensure_future(new.claim("t", 2))
        await asyncio.sleep(0.3)
        assert not append.done() and not claim.done()  # the claim waits for the fence row
        await tx.rollback()
        await blocker.close()
        await asyncio.wait_for(append, 10)
        await asyncio.wait_for(claim, 10)
        with pytest.raises(FencedError):
            await old.append_events("t", [_ev("t", 2)])
        await new.append_events("t", [_ev("t", 2)])
        assert [e.seq for e in await new.events("t")] == [1, 2]
        await old.close()
        await new.close()

    asyncio.run(go())
