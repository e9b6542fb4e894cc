"""PostgreSQL's appends: a whole group in one statement, one round trip, fence check included.

Through SQLAlchemy a group of appends was a transaction of four or five round trips (``BEGIN``, the
fence read of a cluster node, the events, the sequence numbers, ``COMMIT``), each with SQLAlchemy's
work on its statement and result: about a millisecond of a node's CPU for one append, and more in a
cluster. Here the group is one statement on an asyncpg connection of the appends' own, which
PostgreSQL runs as a transaction of its own: the events and the sequence numbers go as arrays
(``unnest``), the two writes are parts of one query.

In a cluster the same statement first locks the group's rows of ``table_owners`` whose fence is
still this node's (``FOR UPDATE``: a newer owner's claim waits for the statement, as it waited for
the transaction before), writes only those tables' events, and returns their ids; the others'
appends are refused. A sequence number already taken fails the statement as a whole, and nothing
of it stays; the group commit then writes each append alone, so that only that one fails.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import URL

_EVENTS = "unnest($1::varchar[], $2::integer[], $3::varchar[], $4::text[], $5::float8[])"
_BUMPS = "unnest($6::varchar[], $7::integer[], $8::float8[])"

#: The events of every append and each table's latest sequence number and time.
APPEND = f"""
WITH ins AS (
    INSERT INTO table_events (table_id, seq, kind, payload, at)
    SELECT * FROM {_EVENTS}
)
UPDATE tables SET seq = b.seq, updated_at = b.at
FROM {_BUMPS} AS b(id, seq, at)
WHERE tables.id = b.id
"""

#: The same for the tables whose stored fence is still the one given; returns their ids.
FENCED_APPEND = f"""
WITH owned AS (
    SELECT o.table_id FROM table_owners AS o
    JOIN unnest($9::varchar[], $10::bigint[]) AS f(table_id, fence)
      ON o.table_id = f.table_id AND o.fence = f.fence
    FOR UPDATE OF o
), ins AS (
    INSERT INTO table_events (table_id, seq, kind, payload, at)
    SELECT e.* FROM {_EVENTS} AS e(table_id, seq, kind, payload, at)
    WHERE e.table_id IN (SELECT table_id FROM owned)
), bump AS (
    UPDATE tables SET seq = b.seq, updated_at = b.at
    FROM {_BUMPS} AS b(id, seq, at)
    WHERE tables.id = b.id AND b.id IN (SELECT table_id FROM owned)
)
SELECT table_id FROM owned
"""


def _columns(rows: list[dict[str, Any]], keys: tuple[str, ...]) -> list[list[Any]]:
    return [[r[k] for r in rows] for k in keys]


class PgAppends:
    """A connection of the appends' own (the group commit writes one group at a time), opened again
    when it was lost."""

    def __init__(self, url: URL) -> None:
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._conn: Any = None

    async def _connection(self) -> Any:
        if self._conn is None or self._conn.is_closed():
            import asyncpg

            self._conn = await asyncpg.connect(self._dsn)
        return self._conn

    async def write(self, events: list[dict[str, Any]], bumps: list[dict[str, Any]],
                    fences: dict[str, int] | None) -> set[str] | None:
        """Write a group in one statement. With ``fences`` (table id to this node's fence), only the
        tables whose stored fence is still that one are written, and their ids returned."""
        args = [*_columns(events, ("table_id", "seq", "kind", "payload", "at")),
                *_columns(bumps, ("b_id", "b_seq", "b_at"))]
        conn = await self._connection()
        if fences is None:
            await conn.execute(APPEND, *args)
            return None
        ids = sorted(fences)
        rows = await conn.fetch(FENCED_APPEND, *args, ids, [fences[t] for t in ids])
        return {r[0] for r in rows}

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()
