"""Public matchmaking queues in Redis, shared by every node.

A player may queue through one node and poll through another, so the queues are Redis sorted
sets (``<prefix>:queue:<players>``, scored by the time of queueing) with the nicknames in a hash,
and a match result is a short-lived key ``<prefix>:matched:<player>``. One node at a time forms
tables: the holder of the ``<prefix>:matchmaker`` lease, renewed while it lives, so two nodes
never put the same player at two tables; if it dies another node takes the lease over.

Every node asks for the lease a few times a second, so that question is one script call: it holds
or takes the lease and, for the holder, answers how many wait in each queue, so an empty queue
costs no further round trip.
"""

from __future__ import annotations

import time
from typing import Any

from ..lobby import QueueEntry, fill_in

MATCHED_TTL = 600  # seconds a match result stays visible to polling
SEATING_TTL = 30  # seconds a group taken from its queue counts as queued while its table is made (or put back)
QUEUES = (2, 3, 4)  # the tables' sizes, one queue each

#: KEYS: the matchmaker lease, then the queues of QUEUES; ARGV: this node, the lease's time to live
#: (ms). The queues' lengths while this node holds (or has just taken) the lease, else nil.
_LEAD = """
local holder = redis.call('get', KEYS[1])
if holder == false then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
elseif holder == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
else
  return false
end
local sizes = {}
for i = 2, #KEYS do
  sizes[i - 1] = redis.call('zcard', KEYS[i])
end
return sizes
"""


class RedisQueues:
    def __init__(self, redis: Any, prefix: str, node: str, ttl: float) -> None:
        self.redis, self.prefix, self.node = redis, prefix, node
        self.ttl_ms = max(500, int(ttl * 1000))
        self._lead = redis.register_script(_LEAD)

    def _q(self, n: int) -> str:
        return f"{self.prefix}:queue:{n}"

    @property
    def _names(self) -> str:
        return f"{self.prefix}:queue-names"

    def _matched(self, player_id: str) -> str:
        return f"{self.prefix}:matched:{player_id}"

    def _seating(self, player_id: str) -> str:
        return f"{self.prefix}:seating:{player_id}"

    async def add(self, player_id: str, name: str, n: int) -> None:
        async with self.redis.pipeline(transaction=True) as p:
            for k in QUEUES:
                p.zrem(self._q(k), player_id)
            p.delete(self._matched(player_id))
            p.delete(self._seating(player_id))
            p.hset(self._names, player_id, name)
            p.zadd(self._q(n), {player_id: time.time()})
            await p.execute()

    async def remove(self, player_id: str) -> None:
        async with self.redis.pipeline(transaction=True) as p:
            for k in QUEUES:
                p.zrem(self._q(k), player_id)
            p.hdel(self._names, player_id)
            p.delete(self._matched(player_id))
            p.delete(self._seating(player_id))
            await p.execute()

    async def status(self, player_id: str, wait: float) -> dict[str, Any]:
        """Where the player stands; queued, with how many wait and the seconds until bots fill
        (``wait``: the seconds bots leave a group to fill up with people)."""
        for n in QUEUES:
            rank = await self.redis.zrank(self._q(n), player_id)
            if rank is not None:
                head = rank // n * n
                group = [float(since) for _, since in
                         await self.redis.zrange(self._q(n), head, head + n - 1, withscores=True)]
                now = time.time()
                return {"status": "queued", "players": n, "table": None, "waited": now - group[rank - head],
                        "queued": int(await self.redis.zcard(self._q(n))), "fill_in": fill_in(group, n, wait, now)}
        table = await self.redis.get(self._matched(player_id))
        if table is not None:
            tid = table.decode() if isinstance(table, bytes) else table
            return {"status": "matched", "players": None, "table": tid, "waited": None, "queued": None,
                    "fill_in": None}
        seating = await self.redis.get(self._seating(player_id))
        if seating is not None:  # taken from the queue, its table being made: still queued to a poll
            n = int(seating)
            return {"status": "queued", "players": n, "table": None, "waited": None,
                    "queued": int(await self.redis.zcard(self._q(n))), "fill_in": 0.0}
        return {"status": "idle", "players": None, "table": None, "waited": None, "queued": None, "fill_in": None}

    async def waiting(self) -> dict[int, int] | None:
        """Hold (or take) the matchmaker lease: how many wait in each queue (by table size) while
        this node forms the tables, ``None`` while another node does. One round trip."""
        sizes = await self._lead(keys=[f"{self.prefix}:matchmaker"] + [self._q(n) for n in QUEUES],
                                 args=[self.node, self.ttl_ms])
        if sizes is None:
            return None
        return {n: int(k) for n, k in zip(QUEUES, sizes)}

    async def lead(self) -> bool:
        """Hold (or take) the matchmaker lease; True while this node forms the tables."""
        return await self.waiting() is not None

    async def take_group(self, n: int, wait: float) -> list[QueueEntry] | None:
        """The next ``n`` (or fewer, after ``wait`` seconds) queued players, removed from the queue."""
        rows = await self.redis.zrange(self._q(n), 0, n - 1, withscores=True)
        if not rows or (len(rows) < n and time.time() - float(rows[0][1]) < wait):
            return None
        ids = [r[0].decode() if isinstance(r[0], bytes) else r[0] for r in rows]
        names = await self.redis.hmget(self._names, ids)
        async with self.redis.pipeline(transaction=True) as pipe:
            for pid in ids:
                pipe.set(self._seating(pid), n, ex=SEATING_TTL)
            pipe.zrem(self._q(n), *ids)
            await pipe.execute()
        return [QueueEntry(pid, (nm.decode() if isinstance(nm, bytes) else nm) or "player", float(since))
                for pid, nm, (_, since) in zip(ids, names, rows)]

    async def put_back(self, n: int, group: list[QueueEntry]) -> None:
        """Return a taken group to its queue with its original times (no table could be made)."""
        await self.redis.zadd(self._q(n), {e.player_id: e.since for e in group})
        await self.redis.delete(*(self._seating(e.player_id) for e in group))

    async def unseat(self, group: list[QueueEntry]) -> None:
        """The group's table could not be made, and it does not go back: no longer being seated."""
        await self.redis.delete(*(self._seating(e.player_id) for e in group))

    async def matched(self, player_id: str, table_id: str) -> None:
        await self.redis.set(self._matched(player_id), table_id, ex=MATCHED_TTL)
        await self.redis.delete(self._seating(player_id))
