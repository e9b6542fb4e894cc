"""The Redis and PostgreSQL pieces one by one: bus, leases, queues, fencing and migrations."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest
import redis.exceptions

from hokm.server.bus.redis import RedisBus
from hokm.server.cluster.fence import FencedError, FencedStorage
from hokm.server.cluster.lease import Leases
from hokm.server.cluster.queues import RedisQueues
from hokm.server.migrations import current, head
from hokm.server.storage import EventRow, TableRow

HEAD = head()  # the newest migration

pytestmark = pytest.mark.scale


def _drain(sub: Any) -> list[dict[str, Any]]:
    out = []
    while not sub._queue.empty():
        out.append(sub._queue.get_nowait())
    return out


async def _first(sub: Any, n: int) -> Any:
    async for m in sub:
        yield m
        n -= 1
        if n == 0:
            return


def test_bus_carries_messages_between_nodes_and_keeps_prefixes_apart(redis_url: str, redis_prefix: str) -> None:
    async def go() -> None:
        a, b = RedisBus(redis_url, prefix=redis_prefix), RedisBus(redis_url, prefix=redis_prefix)
        other = RedisBus(redis_url, prefix=redis_prefix + "-other")
        try:
            sub = await b.subscribe("table:x")
            stray = await other.subscribe("table:x")
            for i in range(3):
                await a.publish("table:x", {"n": i})
            got = []
            async for m in sub:
                got.append(m["n"])
                if len(got) == 3:
                    break
            assert got == [0, 1, 2]
            # The publishing node's own reader gets each message once: directly, not again through Redis.
            own = await a.subscribe("table:x")
            await a.publish("table:x", {"n": 3})
            await asyncio.sleep(0.2)
            assert [m["n"] for m in _drain(own)] == [3]
            assert [m["n"] async for m in _first(sub, 1)] == [3]
            await asyncio.sleep(0.1)
            assert stray._queue.empty()  # type: ignore[attr-defined]
            await own.close()
            await sub.close()
            await stray.close()
        finally:
            for bus in (a, b, other):
                await bus.close()

    asyncio.run(go())


def test_a_message_is_handed_on_as_it_came_and_publishes_use_a_connection_of_their_own(
        redis_url: str, redis_prefix: str, caplog: pytest.LogCaptureFixture) -> None:
    """redis-py's own handler of a pub/sub message makes text of the whole message for a debug line
    (a table's batch, every copy); the bus hands messages on untouched, so with that logger at debug
    level nothing is logged. The publisher's pipelines go on a client of their own, not the pool's."""
    async def go() -> None:
        a, b = RedisBus(redis_url, prefix=redis_prefix), RedisBus(redis_url, prefix=redis_prefix)
        try:
            assert a._publisher is not a.redis
            sub = await b.subscribe("table:y")
            with caplog.at_level(logging.DEBUG, logger="push_response"):
                for i in range(3):
                    await a.publish("table:y", {"n": i, "copy": "x" * 2000})
                assert [m["n"] async for m in _first(sub, 3)] == [0, 1, 2]
            assert not [r for r in caplog.records if r.name == "push_response"]
            await sub.close()
        finally:
            for bus in (a, b):
                await bus.close()

    asyncio.run(go())


def test_messages_published_together_go_in_one_pipeline_in_order(redis_url: str, redis_prefix: str) -> None:
    """Tables publishing at once share pipelines; each channel's messages arrive in the order they
    were published, and each publisher returns only once its message is in Redis."""
    async def go() -> None:
        a, b = RedisBus(redis_url, prefix=redis_prefix), RedisBus(redis_url, prefix=redis_prefix)
        try:
            subs = [await b.subscribe(f"table:{t}") for t in range(20)]

            async def table(t: int) -> None:
                for n in range(10):
                    await a.publish(f"table:{t}", {"t": t, "n": n})
                    if n % 3 == 0:
                        await asyncio.sleep(0)

            await asyncio.gather(*(table(t) for t in range(20)))
            assert a.published == 200 and a.pipelines < 100
            for t, sub in enumerate(subs):
                assert [m["n"] async for m in _first(sub, 10)] == list(range(10)), t
                await sub.close()
        finally:
            for bus in (a, b):
                await bus.close()

    asyncio.run(go())


def test_a_publish_that_cannot_reach_redis_fails_to_its_caller() -> None:
    async def go() -> None:
        bus = RedisBus("redis://127.0.0.1:9/0")  # nothing listens on the discard port
        try:
            for _ in range(2):  # and the next pipeline still tries
                with pytest.raises(redis.exceptions.ConnectionError):
                    await asyncio.wait_for(bus.publish("table:x", {"n": 1}), 10)
            assert bus.published == 0
        finally:
            await bus.close()

    asyncio.run(go())


def test_leases_are_exclusive_fenced_renewed_and_expire(redis_url: str, redis_prefix: str) -> None:
    async def go() -> None:
        import redis.asyncio as aioredis

        r = aioredis.from_url(redis_url)
        try:
            # A TTL long enough that a busy machine's stall between two steps does not end the lease.
            ttl = 1.5
            one, two = Leases(r, redis_prefix, "one", ttl), Leases(r, redis_prefix, "two", ttl)
            first = await one.acquire("t")
            assert first is not None and await two.acquire("t") is None
            assert (await two.owner("t")).node == "one"  # type: ignore[union-attr]
            await r.sadd(one.live_key, "orphan")  # live, with no lease: what a takeover scan takes
            assert await two.unowned() == ["orphan"]
            await r.srem(one.live_key, "orphan")
            for _ in range(4):  # renewed past its TTL
                await asyncio.sleep(ttl / 3)
                assert await one.renew([first]) == []
            assert await two.unowned() == []
            await asyncio.sleep(ttl * 1.5)  # not renewed: gone
            assert await two.owner("t") is None and await two.unowned() == ["t"]
            second = await two.acquire("t")
            assert second is not None and second.fence > first.fence
            assert await one.renew([first]) == [first]  # the old owner learns it lost the table
            await one.release(first)  # releasing someone else's lease does nothing
            assert (await one.owner("t")).node == "two"  # type: ignore[union-attr]
            await two.release(second, finished=True)
            assert await one.owner("t") is None and await r.smembers(one.live_key) == set()
        finally:
            keys = [k async for k in r.scan_iter(f"{redis_prefix}:*")]
            if keys:
                await r.delete(*keys)
            await r.aclose()

    asyncio.run(go())


def test_queues_are_shared_and_one_node_matches(redis_url: str, redis_prefix: str) -> None:
    async def go() -> None:
        import redis.asyncio as aioredis

        r = aioredis.from_url(redis_url)
        try:
            a, b = RedisQueues(r, redis_prefix, "a", 1.0), RedisQueues(r, redis_prefix, "b", 1.0)
            await a.add("p1", "Sara", 2)
            await b.add("p2", "Reza", 2)
            queued = await b.status("p1", 20)
            assert queued["status"] == "queued" and queued["queued"] == 2 and queued["fill_in"] == 0.0  # group full
            assert await a.lead() and not await b.lead()
            assert await a.waiting() == {2: 2, 3: 0, 4: 0} and await b.waiting() is None
            group = await a.take_group(2, wait=20)
            assert group is not None and [e.name for e in group] == ["Sara", "Reza"]
            # while its table is made, the group is still queued to a poll (not "idle", as if it had left)
            seating = await b.status("p2", 20)
            assert seating["status"] == "queued" and seating["players"] == 2 and seating["fill_in"] == 0.0, seating
            await a.matched("p1", "T1")
            assert (await b.status("p1", 20)) | {} == {"status": "matched", "players": None, "table": "T1",
                                                      "waited": None, "queued": None, "fill_in": None}
            await b.add("p3", "Ali", 4)
            await b.add("p4", "Nima", 4)
            alone = await a.status("p4", 20)
            assert alone["queued"] == 2 and 19.0 < alone["fill_in"] <= 20.0  # the bots come for both at once
            await b.remove("p4")
            assert await a.take_group(4, wait=20) is None  # alone, and not waited long enough
            assert [e.player_id for e in await a.take_group(4, wait=0) or []] == ["p3"]
            await b.remove("p1")
            assert (await a.status("p1", 20))["status"] == "idle"
            # no table could be made (the server is full): the group goes back, first in line
            await a.add("p4", "Mina", 2)
            await asyncio.sleep(0.05)
            await a.add("p5", "Omid", 2)
            taken = await a.take_group(2, wait=20) or []
            await b.add("p6", "Nazi", 2)
            await a.put_back(2, taken)
            assert (await b.status("p4", 20))["waited"] is not None  # in its queue again, not only being seated
            failed = await a.take_group(2, wait=20) or []
            assert [e.player_id for e in failed] == ["p4", "p5"]
            # a table that failed otherwise: the group is no longer being seated
            await a.unseat(failed)
            assert [(await b.status(e.player_id, 20))["status"] for e in failed] == ["idle", "idle"]
        finally:
            keys = [k async for k in r.scan_iter(f"{redis_prefix}:*")]
            if keys:
                await r.delete(*keys)
            await r.aclose()

    asyncio.run(go())


def test_postgres_migrates_and_refuses_a_stale_owner(pg_url: str) -> None:
    async def go() -> None:
        old, new = FencedStorage(pg_url), FencedStorage(pg_url)
        await old.init()
        await new.init()
        now = time.time()
        await old.create_table(TableRow(id="t", mode="private", players=4, config={}, host=None, status="waiting",
                                        seats=[], created_at=now, updated_at=now))
        await old.claim("t", 1)
        await old.append_events("t", [EventRow("t", 1, "seat", {}, now)])
        await new.claim("t", 2)
        with pytest.raises(FencedError):
            await old.append_events("t", [EventRow("t", 2, "seat", {}, now)])
        await new.append_events("t", [EventRow("t", 2, "seat", {}, now)])
        assert [e.seq for e in await new.events("t")] == [1, 2]
        await old.close()
        await new.close()

    asyncio.run(go())
    assert asyncio.run(current(pg_url)) == HEAD


@pytest.mark.timeout(60)  # without the lock, concurrent CREATE TABLEs deadlock or fail
def test_nodes_starting_together_migrate_once(pg_url: str) -> None:
    from hokm.server.migrations import upgrade

    async def go() -> None:
        await asyncio.gather(*(upgrade(pg_url) for _ in range(4)))

    asyncio.run(go())
    assert asyncio.run(current(pg_url)) == HEAD


def test_the_newest_migration_matches_the_metadata_on_postgres(pg_url: str) -> None:
    """Alembic's autogenerate comparison finds nothing between the migrated schema and the metadata
    (SQLite: ``tests/server/test_schema.py``)."""
    from hokm.server.migrations import drift, upgrade

    asyncio.run(upgrade(pg_url))
    assert asyncio.run(drift(pg_url)) == []


def test_a_group_commit_on_postgresql_refuses_only_the_superseded_table(pg_url: str) -> None:
    """Appends of several tables in one transaction: the one whose fence was superseded is refused
    alone (its fence read with the others' in one statement), the others are stored."""
    async def go() -> None:
        old, new = FencedStorage(pg_url), FencedStorage(pg_url)
        await old.init()
        await new.init()
        now = time.time()
        ids = [f"g{i}" for i in range(6)]
        for t in ids:
            await old.create_table(TableRow(id=t, mode="private", players=4, config={}, host=None, status="waiting",
                                            seats=[], created_at=now, updated_at=now))
            await old.claim(t, 1)
        await new.claim("g3", 2)
        for round_ in (1, 2):  # the second round: a group of another size, the same statement
            results = await asyncio.gather(*(old.append_events(t, [EventRow(t, round_, "seat", {}, now)])
                                             for t in ids), return_exceptions=True)
            assert [isinstance(r, FencedError) for r in results] == [t == "g3" for t in ids], results
            ids = [t for t in ids if t != "g3"][: 6 - round_]
        assert [e.seq for e in await new.events("g0")] == [1, 2] and await new.events("g3") == []
        await old.close()
        await new.close()

    asyncio.run(go())
