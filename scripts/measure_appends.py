"""What the storage spends on an append: CPU per append, alone and in groups, on SQLite and PostgreSQL.

    python scripts/measure_appends.py [--appends 1000] [--group 20] [--postgres]

Appends one event at a time to one table (each append its own transaction, as on a quiet node),
then ``--group`` tables' appends at once (one group commit each round, as on a busy one), through
``SqlStorage.append_events``, and prints the process's CPU time (every thread: SQLite's and
aiosqlite's included) per append, and the wall time. ``--postgres`` does the same on a fresh
database at PostgreSQL's standard local port (as user ``postgres``; dropped afterwards), as a single
node and as a cluster node (``FencedStorage``, each append's fence checked). PostgreSQL's own CPU is
not counted: a node's is what the figures are about. Run another tree with
``PYTHONPATH=/path/to/its/src`` to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from typing import Any

from hokm.server.storage import EventRow, TableRow

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def _table(t: str) -> TableRow:
    return TableRow(id=t, mode="private", players=4, config={}, host=None, status="playing", seats=[],
                    created_at=0.0, updated_at=0.0)


def _event(t: str, seq: int) -> EventRow:
    return EventRow(t, seq, "action", {"seat": seq % 4, "type": "play", "card": "AS"}, time.time())


async def measure(storage: Any, label: str, appends: int, group: int, fenced: bool) -> None:
    await storage.init()
    tables = [f"t{i}" for i in range(group)]
    for t in tables:
        await storage.create_table(_table(t))
        if fenced:
            await storage.claim(t, 1)
    seq = dict.fromkeys(tables, 0)

    async def one(t: str) -> None:
        seq[t] += 1
        await storage.append_events(t, [_event(t, seq[t])])

    for _ in range(50):  # warm: statements prepared, caches filled
        await one(tables[0])
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(appends):
        await one(tables[0])
    alone = (time.process_time() - cpu) / appends * 1e6, (time.perf_counter() - wall) / appends * 1e6
    rounds = max(1, appends // group)
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(rounds):
        await asyncio.gather(*(one(t) for t in tables))
    n = rounds * group
    grouped = (time.process_time() - cpu) / n * 1e6, (time.perf_counter() - wall) / n * 1e6
    await storage.close()
    print(f"{label}: alone {alone[0]:.1f} us CPU ({alone[1]:.1f} us wall) an append; "
          f"{group} at once {grouped[0]:.1f} us CPU ({grouped[1]:.1f} us wall) an append", flush=True)


async def admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--appends", type=int, default=1000)
    p.add_argument("--group", type=int, default=20)
    p.add_argument("--postgres", action="store_true")
    a = p.parse_args()
    from hokm.server.storage.sql import SqlStorage

    with tempfile.TemporaryDirectory() as folder:
        await measure(SqlStorage(f"sqlite+aiosqlite:///{folder}/appends.db"), "SQLite", a.appends, a.group, False)
    if a.postgres:
        from hokm.server.cluster.fence import FencedStorage

        for label, kind, fenced in (("PostgreSQL", SqlStorage, False), ("PostgreSQL, fenced", FencedStorage, True)):
            name = "appends_" + uuid.uuid4().hex[:10]
            await admin(f"CREATE DATABASE {name}")
            try:
                await measure(kind(f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"), label, a.appends,
                              a.group, fenced)
            finally:
                await admin(f"DROP DATABASE IF EXISTS {name}")


if __name__ == "__main__":
    asyncio.run(main())
