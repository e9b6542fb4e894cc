"""Group commit: many tables' appends in one transaction, each acknowledged after its commit, each
refusal its own."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from pathlib import Path

import pytest

from hokm.server.cluster.fence import FencedError, FencedStorage
from hokm.server.storage import EventRow, StorageError, TableRow, TableUpdate
from hokm.server.storage.group import Append, GroupCommit
from hokm.server.storage.sql import SqlStorage


def _row(table_id: str) -> TableRow:
    return TableRow(id=table_id, mode="private", players=4, config={}, host=None, status="waiting", seats=[],
                    created_at=1.0, updated_at=1.0)


def _ev(table_id: str, seq: int, kind: str = "presence") -> EventRow:
    return EventRow(table_id, seq, kind, {"seat": 0, "connected": True}, float(seq))


def test_appends_that_arrive_during_a_write_share_the_next_transaction() -> None:
    written: list[list[str]] = []

    async def go() -> None:
        release = asyncio.Event()

        async def write(group: list[Append]) -> dict[int, BaseException]:
            written.append([a.table_id for a in group])
            await release.wait()
            return {}

        commit = GroupCommit(write)
        first = asyncio.ensure_future(commit.append("t0", [_ev("t0", 1)], None))
        await asyncio.sleep(0)
        others = [asyncio.ensure_future(commit.append(f"t{i}", [_ev(f"t{i}", 1)], None)) for i in range(1, 6)]
        await asyncio.sleep(0.01)
        # Nothing is acknowledged before its transaction commits.
        assert not first.done() and not any(o.done() for o in others)
        release.set()
        await asyncio.gather(first, *others)
        assert commit.groups == 2 and commit.appends == 6

    asyncio.run(go())
    assert written == [["t0"], ["t1", "t2", "t3", "t4", "t5"]]


def test_a_failed_group_is_written_again_one_by_one_so_only_the_refused_append_fails() -> None:
    async def go() -> None:
        calls: list[list[str]] = []

        async def write(group: list[Append]) -> dict[int, BaseException]:
            calls.append([a.table_id for a in group])
            await asyncio.sleep(0)
            if any(a.table_id == "bad" for a in group):
                raise ValueError("constraint failed")
            return {}

        commit = GroupCommit(write, lambda a, e: StorageError(f"{a.table_id}: {e}"))
        block = asyncio.ensure_future(commit.append("first", [], TableUpdate(status="playing")))
        await asyncio.sleep(0)
        tasks = [asyncio.ensure_future(commit.append(t, [_ev(t, 1)], None)) for t in ("a", "bad", "b")]
        await block
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], StorageError) and "bad: constraint failed" in str(results[1])
        assert calls == [["first"], ["a", "bad", "b"], ["a"], ["bad"], ["b"]]

    asyncio.run(go())


def test_many_tables_append_concurrently_to_sqlite_and_every_event_is_stored(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'group.db'}"

    async def go() -> None:
        s = SqlStorage(url)
        await s.init()
        ids = [f"t{i}" for i in range(40)]
        for t in ids:
            await s.create_table(_row(t))

        async def play(t: str) -> None:
            for seq in range(1, 11):
                await s.append_events(t, [_ev(t, seq, "action")], None if seq % 5 else TableUpdate(status="playing"))

        await asyncio.gather(*(play(t) for t in ids))
        assert s._appends.appends == 400
        assert s._appends.groups < 400  # appends shared transactions
        for t in ids:
            assert [e.seq for e in await s.events(t)] == list(range(1, 11))
            row = await s.get_table(t)
            assert row is not None and row.seq == 10 and row.status == "playing" and row.updated_at == 10.0
        # A taken sequence number is refused as before, naming the table and the seq.
        with pytest.raises(StorageError, match="table t3: event sequence 10 is already taken"):
            await s.append_events("t3", [_ev("t3", 10)])
        await s.close()

    asyncio.run(go())


def test_a_superseded_fence_refuses_its_table_alone_within_a_group(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'fenced.db'}"

    async def go() -> None:
        old, new = FencedStorage(url), FencedStorage(url)
        await old.init()
        await new.init()
        for t in ("kept", "taken"):
            await old.create_table(_row(t))
            await old.claim(t, 1)
        await new.claim("taken", 2)
        results = await asyncio.gather(old.append_events("kept", [_ev("kept", 1)]),
                                       old.append_events("taken", [_ev("taken", 1)]),
                                       old.append_events("unowned", [_ev("unowned", 1)]), return_exceptions=True)
        assert results[0] is None
        assert isinstance(results[1], FencedError) and "superseded" in str(results[1])
        assert isinstance(results[2], FencedError) and "does not own" in str(results[2])
        assert [e.seq for e in await new.events("kept")] == [1]
        assert await new.events("taken") == []
        await new.append_events("taken", [_ev("taken", 1)])
        await old.close()
        await new.close()

    asyncio.run(go())


def test_sqlite_event_appends_go_to_their_own_thread_in_one_call_and_a_refusal_stays_alone(tmp_path: Path) -> None:
    """On a SQLite file a group that only adds events is one call to the appends' thread (no statement
    through SQLAlchemy's connection). A group holding a taken sequence number is rolled back whole and
    written again one by one: the other table's events are stored once, the refused one fails alone.
    Closing the storage ends the thread."""
    import threading

    from hokm.server.storage.direct import SqliteAppends

    url = f"sqlite+aiosqlite:///{tmp_path / 'direct.db'}"

    async def go() -> None:
        s = SqlStorage(url)
        await s.init()
        assert isinstance(s._direct, SqliteAppends)
        for t in ("a", "b"):
            await s.create_table(_row(t))
        statements: list[str] = []
        from sqlalchemy import event

        event.listen(s._e.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        await s.append_events("a", [_ev("a", 1), _ev("a", 2)])
        assert statements == []
        assert [e.seq for e in await s.events("a")] == [1, 2]
        assert (await s.get_table("a")).seq == 2  # type: ignore[union-attr]

        results = await asyncio.gather(s.append_events("a", [_ev("a", 3)]), s.append_events("b", [_ev("b", 1)]),
                                       s.append_events("a", [_ev("a", 2)]), return_exceptions=True)
        assert results[0] is None and results[1] is None
        assert isinstance(results[2], StorageError) and "event sequence 2 is already taken" in str(results[2])
        assert [e.seq for e in await s.events("a")] == [1, 2, 3]
        assert [e.seq for e in await s.events("b")] == [1]
        assert (await s.get_table("a")).seq == 3  # type: ignore[union-attr]
        await s.close()

    asyncio.run(go())
    assert not [t for t in threading.enumerate() if t.name.startswith("hokm-checkpoint")]


def test_an_append_that_changes_the_table_row_is_written_through_sqlalchemy_with_its_events(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'update.db'}"

    async def go() -> None:
        s = SqlStorage(url)
        await s.init()
        await s.create_table(_row("t"))
        seats = [{"seat": 0, "player_id": "p1", "name": "Ali"}]
        await s.append_events("t", [_ev("t", 1)], TableUpdate(status="playing", seats=seats))
        row = await s.get_table("t")
        assert row is not None and row.seq == 1 and row.status == "playing" and row.seats == seats
        assert await s.tables_of_player("p1") == ["t"]
        await s.close()

    asyncio.run(go())


def test_an_append_waits_for_the_other_connections_write_without_holding_the_event_loop(tmp_path: Path) -> None:
    """While SQLAlchemy's connection holds SQLite's write lock across awaits, an append neither blocks
    the loop (which that transaction needs to finish) nor fails: it tries again, and lands after."""
    from sqlalchemy import update

    from hokm.server.storage.metadata import tables

    url = f"sqlite+aiosqlite:///{tmp_path / 'lock.db'}"

    async def go() -> None:
        s = SqlStorage(url)
        await s.init()
        await s.create_table(_row("t"))
        assert s._direct is not None
        async with s._e.begin() as conn:
            await conn.execute(update(tables).where(tables.c.id == "t").values(status="playing"))
            pending = asyncio.ensure_future(s.append_events("t", [_ev("t", 1)]))
            ticks = 0
            for _ in range(20):  # the loop keeps turning meanwhile
                await asyncio.sleep(0.002)
                ticks += 1
            assert ticks == 20 and not pending.done()
            assert s._direct.lock_waits > 0
        await asyncio.wait_for(pending, 5)
        assert [e.seq for e in await s.events("t")] == [1]
        row = await s.get_table("t")
        assert row is not None and row.status == "playing" and row.seq == 1
        await s.close()

    asyncio.run(go())


def test_a_checkpoint_that_ends_before_it_is_recorded_lets_the_next_one_start(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint's thread may end it before ``submit`` has returned to the loop (a busy machine). The thread
    cleared the record of the checkpoint under way, and the loop then recorded the ended one as under way: no
    checkpoint ran again, and the log grew with every commit (a full run of the suite saw it grow to 4.9 MB in
    400 commits). The next one still starts ``CHECKPOINT_EVERY`` commits later."""
    from hokm.server.storage import direct
    monkeypatch.setattr(direct, "CHECKPOINT_EVERY", 20)
    ran: list[int] = []

    class EndsAtOnce:
        """Runs each checkpoint to its end inside ``submit``, as a quick thread may."""

        def submit(self, fn):  # type: ignore[no-untyped-def]
            done: Future[None] = Future()
            fn()
            ran.append(1)
            done.set_result(None)
            return done

        def shutdown(self, wait: bool = True) -> None:
            pass

    async def go() -> None:
        s = SqlStorage(f"sqlite+aiosqlite:///{tmp_path / 'quick.db'}")
        await s.init()
        await s.create_table(_row("t"))
        assert s._direct is not None
        s._direct._checkpoints = EndsAtOnce()  # type: ignore[assignment]
        for seq in range(1, 201):
            await s.append_events("t", [EventRow("t", seq, "action", {"pad": "x" * 200}, float(seq))])
        assert len(ran) == 10 and s._direct._checkpoint is None
        assert (tmp_path / "quick.db-wal").stat().st_size < 1_000_000  # some 2.5 MB without the checkpoints
        await s.close()
    asyncio.run(go())


def test_the_appends_log_is_checkpointed_off_the_loop_and_does_not_grow(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The appends' connection never checkpoints itself; every ``CHECKPOINT_EVERY`` commits a thread
    does, and the log starts again from its beginning instead of growing with every event: by the
    next commit after a copy of the whole log, without a checkpoint that holds the appends."""
    from hokm.server.storage import direct

    monkeypatch.setattr(direct, "CHECKPOINT_EVERY", 20)
    db = tmp_path / "wal.db"

    async def go() -> None:
        s = SqlStorage(f"sqlite+aiosqlite:///{db}")
        await s.init()
        await s.create_table(_row("t"))
        assert s._direct is not None
        sizes = []
        for seq in range(1, 401):
            await s.append_events("t", [EventRow("t", seq, "action", {"pad": "x" * 200}, float(seq))])
            if seq % 20 == 0:
                for _ in range(500):  # the checkpoint under way finishes (its thread may be slow on a busy machine)
                    if s._direct._checkpoint is None:
                        break
                    await asyncio.sleep(0.01)
            if seq % 100 == 0:
                sizes.append((tmp_path / "wal.db-wal").stat().st_size)
        # 400 commits of a few pages each would be some 5 MB of log; it is started again instead.
        assert max(sizes) < 1_000_000, sizes
        assert s._direct.restarts == 0
        assert [e.seq for e in await s.events("t")][-1] == 400
        await s.close()

    asyncio.run(go())


@pytest.mark.parametrize("restart_frames", [1, 10**9])
def test_a_checkpoint_holds_the_appends_to_start_the_log_again_only_past_restart_frames(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restart_frames: int) -> None:
    """A checkpoint copies the log without holding the appends (``PASSIVE``); only a log grown past
    ``RESTART_FRAMES`` (appends kept adding to it while it was copied, so no commit could start it
    again) is started again by the checkpoint itself, which holds them meanwhile."""
    from hokm.server.storage import direct

    monkeypatch.setattr(direct, "CHECKPOINT_EVERY", 20)
    monkeypatch.setattr(direct, "RESTART_FRAMES", restart_frames)

    async def go() -> None:
        s = SqlStorage(f"sqlite+aiosqlite:///{tmp_path / 'log.db'}")
        await s.init()
        await s.create_table(_row("t"))
        assert s._direct is not None
        for seq in range(1, 101):
            await s.append_events("t", [_ev("t", seq)])
            for _ in range(500):
                if s._direct._checkpoint is None:
                    break
                await asyncio.sleep(0.01)
        assert s._direct.restarts == (5 if restart_frames == 1 else 0)
        assert [e.seq for e in await s.events("t")] == list(range(1, 101))
        await s.close()

    asyncio.run(go())


def test_an_append_held_by_a_checkpoint_starting_the_log_again_goes_in_as_it_ends(tmp_path: Path) -> None:
    """An append that finds the lock held by a checkpoint starting the log again waits for that
    checkpoint's end and tries once more, instead of polling at growing intervals (up to 20 ms) and
    coming back after it."""
    import concurrent.futures
    import threading

    async def go() -> None:
        s = SqlStorage(f"sqlite+aiosqlite:///{tmp_path / 'held.db'}")
        await s.init()
        await s.create_table(_row("t"))
        d = s._direct
        assert d is not None
        checkpoint: concurrent.futures.Future[None] = concurrent.futures.Future()
        d._checkpoint, d._restarting = checkpoint, True
        write, tries = d._try_write, []

        def try_write(rows: list[tuple[object, ...]], seqs: list[tuple[object, ...]]) -> bool:
            tries.append(checkpoint.done())
            return checkpoint.done() and write(rows, seqs)

        d._try_write = try_write  # type: ignore[method-assign]
        timer = threading.Timer(0.06, checkpoint.set_result, (None,))
        timer.start()
        try:
            await asyncio.wait_for(s.append_events("t", [_ev("t", 1)]), 5)
        finally:
            timer.cancel()
            d._checkpoint, d._restarting = None, False
        assert tries == [False, True] and d.lock_waits == 1
        assert [e.seq for e in await s.events("t")] == [1]
        await s.close()

    asyncio.run(go())
