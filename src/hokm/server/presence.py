"""Presence: which players are connected, and at which table; friends hear of every change.

Each WebSocket connection registers itself under its player (:meth:`PresenceHub.connected`),
says which table it opened (:meth:`PresenceHub.at_table`) and leaves (:meth:`PresenceHub.gone`).
A player is online while at least one connection is; their table is the one a connection has
open. When that summary changes, each of the player's friends gets a ``friend_presence`` message
on their ``player:<id>`` channel of the bus, so it reaches them on whichever node they are.

Where the entries live is a :class:`PresenceStore`: in the process (one node), or in Redis
(several nodes: one hash per player, one field per connection, with an expiry that each node
renews for its own connections, so a node that dies stops counting within ``ttl`` seconds).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol

from .bus import Bus
from .protocol import PROTOCOL_VERSION, SFriendPresence
from .storage.social import SocialStore

log = logging.getLogger("hokm.server.presence")


@dataclass(frozen=True)
class Status:
    online: bool
    table: str | None

    @staticmethod
    def of(entries: dict[str, str]) -> Status:
        tables = sorted(t for t in entries.values() if t)
        return Status(bool(entries), tables[0] if tables else None)


OFFLINE = Status(False, None)


class PresenceStore(Protocol):
    async def put(self, player_id: str, conn_id: str, table: str | None) -> None: ...
    async def drop(self, player_id: str, conn_id: str) -> None: ...
    async def entries(self, player_id: str) -> dict[str, str]:
        """The player's connections: connection id -> the table it has open ("" for none)."""

    async def statuses(self, ids: list[str]) -> dict[str, Status]: ...
    async def refresh(self) -> None:
        """Keep this node's entries alive (called every few seconds)."""


class LocalPresence:
    """Entries in this process: one node sees every connection."""

    def __init__(self) -> None:
        self._entries: dict[str, dict[str, str]] = {}

    async def put(self, player_id: str, conn_id: str, table: str | None) -> None:
        self._entries.setdefault(player_id, {})[conn_id] = table or ""

    async def drop(self, player_id: str, conn_id: str) -> None:
        conns = self._entries.get(player_id)
        if conns is not None:
            conns.pop(conn_id, None)
            if not conns:
                del self._entries[player_id]

    async def entries(self, player_id: str) -> dict[str, str]:
        return dict(self._entries.get(player_id, {}))

    async def statuses(self, ids: list[str]) -> dict[str, Status]:
        return {pid: Status.of(self._entries.get(pid, {})) for pid in ids}

    async def refresh(self) -> None:
        return None


class RedisPresence:
    """Entries in Redis, shared by every node: ``<prefix>:presence:<player>`` = {connection: table}."""

    def __init__(self, redis: Any, prefix: str = "hokm", ttl: float = 90.0) -> None:
        self.redis, self.prefix, self.ttl = redis, prefix, int(ttl)
        self._mine: dict[str, dict[str, str]] = {}  # this node's connections, renewed by refresh()

    def _key(self, player_id: str) -> str:
        return f"{self.prefix}:presence:{player_id}"

    async def put(self, player_id: str, conn_id: str, table: str | None) -> None:
        self._mine.setdefault(player_id, {})[conn_id] = table or ""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._key(player_id), conn_id, table or "")
            pipe.expire(self._key(player_id), self.ttl)
            await pipe.execute()

    async def drop(self, player_id: str, conn_id: str) -> None:
        conns = self._mine.get(player_id)
        if conns is not None:
            conns.pop(conn_id, None)
            if not conns:
                del self._mine[player_id]
        await self.redis.hdel(self._key(player_id), conn_id)

    @staticmethod
    def _decode(raw: dict[Any, Any]) -> dict[str, str]:
        def s(x: Any) -> str:
            return x.decode() if isinstance(x, bytes) else str(x)
        return {s(k): s(v) for k, v in raw.items()}

    async def entries(self, player_id: str) -> dict[str, str]:
        return self._decode(await self.redis.hgetall(self._key(player_id)))

    async def statuses(self, ids: list[str]) -> dict[str, Status]:
        if not ids:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in ids:
                pipe.hgetall(self._key(pid))
            found = await pipe.execute()
        return {pid: Status.of(self._decode(raw)) for pid, raw in zip(ids, found)}

    async def refresh(self) -> None:
        if not self._mine:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid, conns in self._mine.items():
                pipe.hset(self._key(pid), mapping=conns)
                pipe.expire(self._key(pid), self.ttl)
            await pipe.execute()


#: How long a friends list read for announcements is kept, and how many are kept at most.
FRIENDS_TTL = 10.0
FRIENDS_KEPT = 20_000


class PresenceHub:
    """Registers connections and tells friends when a player's status changes."""

    def __init__(self, store: PresenceStore, social: SocialStore, bus: Bus, refresh_every: float = 30.0) -> None:
        self.store, self.social, self.bus, self.refresh_every = store, social, bus, refresh_every
        self._task: asyncio.Task[None] | None = None
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # per player, with how many use it
        # Friends lists read for announcements, kept FRIENDS_TTL seconds: a connection announces
        # itself up to three times (online, at a table, gone), and each read would otherwise wait
        # for the database the games write to. Changes made on this node drop the entry at once.
        self._friends: dict[str, tuple[float, list[str]]] = {}

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._refresh_loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _refresh_loop(self) -> None:
        while True:
            await asyncio.sleep(self.refresh_every)
            try:
                await self.store.refresh()
            except Exception as e:  # noqa: BLE001 - try again next time
                log.warning("renewing presence entries failed: %r", e)

    async def _change(self, player_id: str, apply: Any) -> None:
        lock, users = self._locks.get(player_id, (asyncio.Lock(), 0))
        self._locks[player_id] = (lock, users + 1)
        try:
            async with lock:
                before = Status.of(await self.store.entries(player_id))
                await apply()
                after = Status.of(await self.store.entries(player_id))
                if after != before:
                    await self.announce(player_id, after)
        except Exception as e:  # noqa: BLE001 - presence is a courtesy: a failure never ends a connection
            log.warning("updating presence failed: %r", e)  # e.g. storage or Redis closing at shutdown
        finally:
            lock, users = self._locks[player_id]
            if users == 1:
                del self._locks[player_id]
            else:
                self._locks[player_id] = (lock, users - 1)

    async def announce(self, player_id: str, status: Status) -> None:
        message = SFriendPresence(v=PROTOCOL_VERSION, type="friend_presence", player_id=player_id,
                                  online=status.online, table=status.table).model_dump()
        for friend in await self._friends_of(player_id):
            await self.bus.publish(f"player:{friend}", message)

    async def _friends_of(self, player_id: str) -> list[str]:
        now = time.monotonic()
        if not isinstance(self.store, LocalPresence):  # several nodes: another node may change them
            return await self.social.friends_of(player_id)
        kept = self._friends.get(player_id)
        if kept is not None and now - kept[0] < FRIENDS_TTL:
            return kept[1]
        friends = await self.social.friends_of(player_id)
        if len(self._friends) >= FRIENDS_KEPT:
            self._friends.clear()
        self._friends[player_id] = (now, friends)
        return friends

    def forget_friends(self, *player_ids: str) -> None:
        """Their friends changed: the next announcement reads the lists again."""
        for p in player_ids:
            self._friends.pop(p, None)

    async def connected(self, player_id: str, conn_id: str) -> None:
        await self._change(player_id, lambda: self.store.put(player_id, conn_id, None))

    async def at_table(self, player_id: str, conn_id: str, table: str | None) -> None:
        await self._change(player_id, lambda: self.store.put(player_id, conn_id, table))

    async def gone(self, player_id: str, conn_id: str) -> None:
        await self._change(player_id, lambda: self.store.drop(player_id, conn_id))

    async def statuses(self, ids: list[str]) -> dict[str, Status]:
        return await self.store.statuses(ids)
