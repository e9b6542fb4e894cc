"""Table ownership leases in Redis: one owner node per table, renewed, with a fencing token.

A lease is the key ``<prefix>:lease:<table>`` holding ``"<node>|<fence>"`` with a time to live.
The owner renews all its leases in one script call every third of the TTL; a node that stops
(``kill -9``, a pause, a lost network) stops renewing, its keys expire, and any other node may
take the table. The fence is a per-table counter (``INCR <prefix>:fence:<table>``), so each new
owner holds a larger number than every earlier one; the database refuses appends carrying an
older fence (:mod:`.fence`), which is what keeps a stale owner that has not noticed its loss from
writing. Redis alone cannot give that guarantee (a paused process may resume after its key
expired), the database check can.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("hokm.server.cluster")

_RENEW = """
local out = {}
for i, k in ipairs(KEYS) do
  if redis.call('get', k) == ARGV[i] then
    redis.call('pexpire', k, ARGV[#ARGV])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

#: KEYS: the live set; ARGV: the lease keys' prefix. The live tables whose lease has expired (or
#: was never taken), so that the takeover scan reads only those, not every live table's lease.
_UNOWNED = """
local out = {}
for _, t in ipairs(redis.call('smembers', KEYS[1])) do
  if redis.call('exists', ARGV[1] .. t) == 0 then
    out[#out + 1] = t
  end
end
return out
"""

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


@dataclass(frozen=True)
class Lease:
    table_id: str
    node: str
    fence: int

    @property
    def value(self) -> str:
        return f"{self.node}|{self.fence}"


def parse_lease(table_id: str, raw: bytes | str | None) -> Lease | None:
    if raw is None:
        return None
    text = raw.decode() if isinstance(raw, bytes) else raw
    node, _, fence = text.rpartition("|")
    try:
        return Lease(table_id, node, int(fence))
    except ValueError:
        return None


class Leases:
    """Acquire, look up, renew and release table leases for one node."""

    def __init__(self, redis: Any, prefix: str, node: str, ttl: float) -> None:
        self.redis, self.prefix, self.node = redis, prefix, node
        self.ttl_ms = max(100, int(ttl * 1000))
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._unowned = redis.register_script(_UNOWNED)

    def key(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    @property
    def live_key(self) -> str:
        """The set of table ids that have (or had) an owner and are not over: what takeover scans."""
        return f"{self.prefix}:live"

    async def acquire(self, table_id: str) -> Lease | None:
        """Take a free lease with a new, larger fence; ``None`` when another node holds it."""
        fence = int(await self.redis.incr(f"{self.prefix}:fence:{table_id}"))
        lease = Lease(table_id, self.node, fence)
        if await self.redis.set(self.key(table_id), lease.value, nx=True, px=self.ttl_ms):
            await self.redis.sadd(self.live_key, table_id)
            return lease
        return None

    async def owner(self, table_id: str) -> Lease | None:
        return parse_lease(table_id, await self.redis.get(self.key(table_id)))

    async def renew(self, leases: list[Lease]) -> list[Lease]:
        """Extend ``leases``; return those that were lost (expired or taken)."""
        if not leases:
            return []
        kept = await self._renew(keys=[self.key(x.table_id) for x in leases],
                                 args=[x.value for x in leases] + [self.ttl_ms])
        return [x for x, ok in zip(leases, kept) if not int(ok)]

    async def release(self, lease: Lease, finished: bool = False) -> None:
        """Give a lease back at once (shutdown, game over), so no one waits for it to expire."""
        await self._release(keys=[self.key(lease.table_id)], args=[lease.value])
        if finished:
            await self.redis.srem(self.live_key, lease.table_id)

    async def unowned(self) -> list[str]:
        """The live tables no node holds a lease on: what the takeover scan may take. One round
        trip, whose answer is empty while every owner renews."""
        found = await self._unowned(keys=[self.live_key], args=[self.key("")])
        return sorted(m.decode() if isinstance(m, bytes) else m for m in found)
