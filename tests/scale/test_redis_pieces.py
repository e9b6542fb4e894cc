"""The Redis and PostgreSQL pieces one by one: bus, leases, queues, fencing and migrations."""

from __future__ import annotations

import asyncio
import time

import pytest

from hokm.server.bus.redis import RedisBus
from hokm.server.cluster.fence import FencedError, FencedStorage
from hokm.server.cluster.lease import Leases
from hokm.server.cluster.queues import RedisQueues
from hokm.server.migrations import current
from hokm.server.storage import EventRow, TableRow

pytestmark = pytest.mark.scale


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
            await asyncio.sleep(0.1)
            assert stray._queue.empty()  # type: ignore[attr-defined]
            await sub.close()
            await stray.close()
        finally:
            for bus in (a, b, other):
                await bus.close()

    asyncio.run(go())


def test_leases_are_exclusive_fenced_renewed_and_expire(redis_url: str, redis_prefix: str) -> None:
    async def go() -> None:
        import redis.asyncio as aioredis

        r = aioredis.from_url(redis_url)
        try:
            one, two = Leases(r, redis_prefix, "one", 0.3), Leases(r, redis_prefix, "two", 0.3)
            first = await one.acquire("t")
            assert first is not None and await two.acquire("t") is None
            assert (await two.owner("t")).node == "one"  # type: ignore[union-attr]
            for _ in range(4):  # renewed past its TTL
                await asyncio.sleep(0.15)
                assert await one.renew([first]) == []
            await asyncio.sleep(0.45)  # not renewed: gone
            assert await two.owner("t") is None
            second = await two.acquire("t")
            assert second is not None and second.fence > first.fence
            assert await one.renew([first]) == [first]  # the old owner learns it lost the table
            await one.release(first)  # releasing someone else's lease does nothing
            assert (await one.owner("t")).node == "two"  # type: ignore[union-attr]
            await two.release(second, finished=True)
            assert await one.owner("t") is None and await one.live() == []
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
            assert (await b.status("p1"))["status"] == "queued"
            assert await a.lead() and not await b.lead()
            group = await a.take_group(2, wait=20)
            assert group is not None and [e.name for e in group] == ["Sara", "Reza"]
            await a.matched("p1", "T1")
            assert (await b.status("p1")) | {} == {"status": "matched", "players": None, "table": "T1",
                                                  "waited": None, "queued": None}
            await b.add("p3", "Ali", 4)
            assert await a.take_group(4, wait=20) is None  # alone, and not waited long enough
            assert [e.player_id for e in await a.take_group(4, wait=0) or []] == ["p3"]
            await b.remove("p1")
            assert (await a.status("p1"))["status"] == "idle"
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
    assert asyncio.run(current(pg_url)) == "0002"


@pytest.mark.timeout(60)  # without the lock, concurrent CREATE TABLEs deadlock or fail
def test_nodes_starting_together_migrate_once(pg_url: str) -> None:
    from hokm.server.migrations import upgrade

    async def go() -> None:
        await asyncio.gather(*(upgrade(pg_url) for _ in range(4)))

    asyncio.run(go())
    assert asyncio.run(current(pg_url)) == "0002"
