"""SQLite's appends written on the event loop's own thread, with no trip to another thread.

Every action a player makes is one append: its events inserted, the table's latest sequence number
and time updated. Through SQLAlchemy's asyncio layer on SQLite that transaction took eight trips to
aiosqlite's thread (a cursor made, the statement run and the cursor closed for each statement, the
commit, the pool's rollback when the connection came back) and SQLAlchemy's work on each: about a
millisecond of CPU for one append, against about 0.09 ms written as below (``scripts/measure_appends.py``;
WAL mode with ``synchronous=NORMAL`` writes a commit to the log without waiting for the disk).

:class:`SqliteAppends` keeps a connection of its own to the same database file and writes a whole
group at once, in one synchronous call: ``BEGIN IMMEDIATE``, one ``executemany`` for the events, one
for the sequence numbers, ``COMMIT``. The two statements are compiled once, for SQLite, from the
same Core constructs the rest of the storage uses. The rest of the storage (reads, tables made,
games finished) keeps SQLAlchemy's connection, whose reads see each append once committed.

The event loop must never wait on SQLite's lock: a write of the other connection is spread over
several trips to its thread, each needing the loop. So this connection takes the lock without
waiting (``busy_timeout`` 0) and, if it is held, yields to the loop and tries again. It never
checkpoints the log itself either (a checkpoint waits for the disk): every few hundred commits a
checkpoint runs in a thread of its own, on a third connection, copying the log into the database
(``PASSIVE``: appends go on meanwhile). A log copied whole is started again from its beginning by
the next commit; one that appends kept adding to while it was copied is not, so once the log has
grown past :data:`RESTART_FRAMES` the checkpoint also starts it again (``RESTART``), which holds
appends for as long as it runs: a sync of the database file, 10 to 25 ms on this project's machine,
once every few thousand commits rather than every few hundred. An append that finds that
checkpoint under way waits for its end, not a round of polls.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, cast

from sqlalchemy.dialects.sqlite import pysqlite
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

log = logging.getLogger(__name__)

#: Commits between checkpoints: each commit adds a few pages to the log, and SQLite's own default
#: checkpoints at about a thousand.
CHECKPOINT_EVERY = 250
#: Frames in the log (4 KB each, about four a commit) past which a checkpoint starts it again:
#: 8,192 frames, a log of 32 MB at most.
RESTART_FRAMES = 8192
#: How long an append waits in all for the other connection to release the lock before it fails.
LOCK_WAIT_S = 5.0


def _locked(e: sqlite3.OperationalError) -> bool:
    return getattr(e, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or \
        "locked" in str(e)


class Compiled:
    """A Core statement's SQL text for SQLite, and the order of its positional parameters."""

    def __init__(self, statement: ClauseElement, keys: list[str] | None = None) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=pysqlite.dialect(), column_keys=keys))
        if compiled.positiontup is None:
            raise ValueError("SQLite's statements take positional parameters")
        self.sql = str(compiled)
        self.order = tuple(compiled.positiontup)
        # What SQLAlchemy would do to each value on its way to the driver (a Float column's float()).
        processors = cast(dict[str, Callable[[Any], Any]], compiled._bind_processors)
        self._process = tuple(processors.get(k) for k in self.order)

    def rows(self, values: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        order, process = self.order, self._process
        if not any(process):
            return [tuple(v[k] for k in order) for v in values]
        return [tuple(v[k] if p is None else p(v[k]) for k, p in zip(order, process, strict=True)) for v in values]


class SqliteAppends:
    """The appends' connection, and the thread that checkpoints what it writes."""

    def __init__(self, path: str, insert_events: Compiled, bump: Compiled) -> None:
        self._path, self._insert, self._bump = path, insert_events, bump
        self._conn: sqlite3.Connection | None = None
        self._checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hokm-checkpoint")
        self._checkpoint: Future[None] | None = None
        self._restarting = False  # the checkpoint under way holds the lock to start the log again
        self._commits = 0
        self.lock_waits = 0  # times an append found the other connection writing
        self.restarts = 0  # checkpoints that started the log again

    def open(self) -> None:
        # Transactions are begun and ended here explicitly (isolation_level None: no implicit BEGIN).
        conn = sqlite3.connect(self._path, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=0")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        self._conn = conn

    async def write(self, events: list[dict[str, Any]], bumps: list[dict[str, Any]]) -> None:
        """Insert ``events`` and set each ``bumps`` table's sequence in one transaction; raises if it failed."""
        rows, seqs = self._insert.rows(events), self._bump.rows(bumps)
        loop = asyncio.get_running_loop()
        give_up = loop.time() + LOCK_WAIT_S
        pause = 0.0005
        while not self._try_write(rows, seqs):
            self.lock_waits += 1
            if loop.time() > give_up:
                raise sqlite3.OperationalError(f"database is locked: no append for {LOCK_WAIT_S:.0f} s")
            running = self._checkpoint
            if running is not None and self._restarting:
                # Its end, whatever it was (a failure is reported by _checkpoint_done); never cancelled from here.
                await asyncio.wait([asyncio.wrap_future(running)], timeout=max(0.0, give_up - loop.time()))
            else:
                await asyncio.sleep(pause)
                pause = min(pause * 2, 0.02)
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and self._checkpoint is None:
            self._commits = 0
            running = self._checkpoints.submit(self._run_checkpoint)
            self._checkpoint = running
            # Only once it is set: a checkpoint that ended before submit() returned runs this at once, here.
            running.add_done_callback(self._checkpoint_done)

    def _try_write(self, rows: list[tuple[Any, ...]], seqs: list[tuple[Any, ...]]) -> bool:
        """Write the transaction; False if the other connection holds the lock (nothing was written)."""
        conn = self._conn
        if conn is None:
            raise RuntimeError("the appends' connection is closed")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if _locked(e):
                return False
            raise
        try:
            if rows:
                conn.executemany(self._insert.sql, rows)
            if seqs:
                conn.executemany(self._bump.sql, seqs)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return True

    def _checkpoint_done(self, done: Future[None]) -> None:
        """The end of a checkpoint, in its thread or, where it ended before it was recorded, in the loop's.

        The thread cleared the record itself once: a checkpoint that ended before ``submit`` returned (a
        thread quicker than the loop, on a busy machine) was then recorded as under way for good, and no
        checkpoint ran again while the log grew with every commit."""
        if self._checkpoint is done:
            self._checkpoint = None
        e = done.exception()
        if e is not None:  # the log stays whole; the next checkpoint tries again
            log.warning("checkpoint of the appends' log failed: %s", e)

    def _run_checkpoint(self) -> None:
        conn = sqlite3.connect(self._path, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout=5000")
            _, frames, _ = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if frames >= RESTART_FRAMES:
                self._restarting = True
                conn.execute("PRAGMA wal_checkpoint(RESTART)")
                self.restarts += 1
        finally:
            self._restarting = False
            conn.close()

    def close(self) -> None:
        """Wait for a checkpoint under way, then close the connection (SQLite checkpoints the log then)."""
        self._checkpoints.shutdown(wait=True)
        if self._conn is not None:
            self._conn.close()
            self._conn = None
