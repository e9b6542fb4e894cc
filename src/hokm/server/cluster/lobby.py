"""The lobby of one node among several: tables are owned through leases and reached from anywhere.

:class:`ClusterLobby` keeps the single-process :class:`~hokm.server.lobby.Lobby` (creating rooms,
codes, the actors) and adds ownership. A table's actor runs only on the node holding its lease;
:meth:`ClusterLobby.get` hands the HTTP and WebSocket layers a :class:`RoutedTable`, which calls
the actor directly when this node owns the table and sends the request to the owner otherwise.
Because the routed table looks the owner up on every call, a connection survives its table
moving to another node; when the owner dies, the first node to need the table (or the periodic
scan) takes the expired lease, claims a newer fence in the database and rebuilds the actor from
the stored events, the same way a single process restarts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from types import SimpleNamespace
from typing import Any

from ...engine.view import SeatView
from ..botpool import BotPool
from ..bus import Bus
from ..config import ServerConfig
from ..lobby import Lobby
from ..table import TableActor, TableError
from .fence import FencedError, FencedStorage
from .lease import Lease, Leases
from .locks import KeyedLocks
from .queues import RedisQueues
from .rpc import RemoteError, Rpc, RpcTimeout

log = logging.getLogger("hokm.server.cluster")
ROUTED = frozenset({"join", "disconnect", "act", "back", "add_seed", "hint_view", "sit", "seat_bot", "free",
                    "start", "info"})
#: Requests after which the asker needs the table's summary (the HTTP answer is ``TableInfo``); the
#: others (an action above all) travel without it, which keeps the answer to a play small.
WITH_SNAPSHOT = frozenset({"info", "sit", "seat_bot", "free", "start"})


async def invoke(actor: TableActor, method: str, args: list[Any]) -> Any:
    """Run one table request on the local actor; the result in JSON terms."""
    if method not in ROUTED:
        raise TableError("bad_message", f"unknown table request {method!r}")
    if method == "info":
        return None
    if method == "join":
        seat, state, lost = await actor.join(*args)
        return [seat, state, lost]
    if method == "hint_view":
        seat, view = await actor.hint_view(*args)
        return [seat, view.to_json()]
    return await getattr(actor, method)(*args)


def snapshot(actor: TableActor) -> dict[str, Any]:
    """What a routed table caches between calls, for the synchronous reads of the HTTP layer."""
    return {"info": actor.info(), "fair": [f.public() for f in actor.fair]}


class _PublicFair:
    """A hand's public fairness facts received from the owner node (``.public()`` like ``HandSeeds``)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def public(self) -> dict[str, Any]:
        return dict(self._data)


class RoutedTable:
    """A table as seen from any node: the actor's request methods, sent where the table lives."""

    def __init__(self, lobby: "ClusterLobby", table_id: str, snap: dict[str, Any]) -> None:
        self.id = table_id
        self.channel = f"table:{table_id}"
        self._lobby = lobby
        self._snap = snap
        self._state: dict[str, Any] | None = None

    def _local(self) -> TableActor | None:
        return self._lobby.local(self.id)

    async def _call(self, method: str, *args: Any) -> Any:
        result, snap = await self._lobby.call(self.id, method, list(args))
        if snap is not None and "info" in snap:  # otherwise local, or an answer without a summary
            self._snap = snap
        return result

    # synchronous reads: the local actor, or what the owner last said
    def info(self) -> dict[str, Any]:
        actor = self._local()
        return actor.info() if actor is not None else dict(self._snap["info"])

    @property
    def status(self) -> str:
        return str(self.info()["status"])

    @property
    def game_id(self) -> str | None:
        return self.info()["game_id"]

    @property
    def level(self) -> str:
        return str(self.info()["bot"])

    @property
    def row(self) -> Any:
        actor = self._local()
        if actor is not None:
            return actor.row
        info = self._snap["info"]
        return SimpleNamespace(id=self.id, mode=info["mode"], host=info["host"], code=info["code"])

    @property
    def fair(self) -> list[Any]:
        actor = self._local()
        return actor.fair if actor is not None else [_PublicFair(f) for f in self._snap["fair"]]

    def seat_of(self, player_id: str) -> int | None:
        actor = self._local()
        if actor is not None:
            return actor.seat_of(player_id)
        for s in self._snap["info"]["seats"]:
            if s["kind"] == "human" and s["player_id"] == player_id:
                return int(s["seat"])
        return None

    def state(self, seat: int | None, last_seq: int | None) -> dict[str, Any]:
        actor = self._local()
        if actor is not None:
            return actor.state(seat, last_seq)
        if self._state is None:
            raise TableError("busy", "the table lives on another node; join again")
        return self._state

    # requests
    async def join(self, player_id: str, last_seq: int | None) -> tuple[int | None, dict[str, Any], bool]:
        seat, state, lost = await self._call("join", player_id, last_seq)
        self._state = state
        if self._local() is None:
            self._snap = {"info": state["table"], "fair": state["fair"]}
        return seat, state, lost

    async def disconnect(self, player_id: str) -> None:
        try:
            await self._call("disconnect", player_id)
        except TableError:
            pass  # the owner is gone: its successor starts with nobody connected anyway

    async def act(self, player_id: str, action: Any, seq: int | None) -> None:
        await self._call("act", player_id, action, seq)

    async def back(self, player_id: str) -> None:
        await self._call("back", player_id)

    async def add_seed(self, player_id: str, seed: str) -> int:
        return int(await self._call("add_seed", player_id, seed))

    async def hint_view(self, player_id: str) -> tuple[int, SeatView]:
        seat, view = await self._call("hint_view", player_id)
        return seat, SeatView.from_json(view)

    async def sit(self, player_id: str, name: str, seat: int, seed: str | None = None) -> None:
        await self._call("sit", player_id, name, seat, seed)

    async def seat_bot(self, player_id: str, seat: int, level: str) -> None:
        await self._call("seat_bot", player_id, seat, level)

    async def free(self, player_id: str, seat: int) -> None:
        await self._call("free", player_id, seat)

    async def start(self, player_id: str | None) -> None:
        await self._call("start", player_id)


class ClusterLobby(Lobby):
    """:class:`Lobby` for one node of several sharing Redis and one database."""

    def __init__(self, storage: FencedStorage, bus: Bus, bots: BotPool, config: ServerConfig, *, node: str,
                 redis: Any) -> None:
        super().__init__(storage, bus, bots, config)
        self.fenced = storage
        self.node = node
        self.leases = Leases(redis, config.redis_prefix, node, config.lease_ttl)
        self.held: dict[str, Lease] = {}
        self.redis_queues = RedisQueues(redis, config.redis_prefix, node, max(1.0, config.lease_ttl))
        self.rpc = Rpc(bus, node, self._handle)
        self.draining = False
        self.takeovers = 0
        # A request unanswered this long makes the asker check the owner's lease: still held, it
        # keeps waiting for the same answer; gone, it sends the request to whoever owns the table now.
        self.call_timeout = min(2.0, max(0.5, config.lease_ttl / 2))
        self._table_locks = KeyedLocks()
        self._owners: dict[str, Lease] = {}  # last known owner of tables owned elsewhere
        self._loops: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ ownership
    def local(self, table_id: str) -> TableActor | None:
        """This node's actor for the table if it owns it (or holds a finished, read-only copy)."""
        actor = self.actors.get(table_id)
        if actor is None:
            return None
        if table_id in self.held or actor.status == "over":
            return actor
        return None

    async def _take(self, table_id: str) -> bool:
        """Try to own a table whose lease is free; False when it does not exist."""
        async with self._table_locks(table_id):
            if self.local(table_id) is not None:
                return True
            row = await self.storage.get_table(table_id)
            if row is None:
                return False
            if row.status == "over":
                await self.leases.redis.srem(self.leases.live_key, table_id)
                actor = self._actor(row)
                await actor.restore()
                self.actors[table_id] = actor
                super()._over(actor)
                return True
            if self.draining:
                return True
            lease = await self.leases.acquire(table_id)
            if lease is None:
                return True
            try:
                await self.fenced.claim(table_id, lease.fence)
                row = await self.storage.get_table(table_id) or row  # read after the claim: nothing newer can land
                actor = self._actor(row)
                self.held[table_id] = lease
                await actor.restore()
            except Exception:
                self.held.pop(table_id, None)
                self.fenced.forget(table_id)
                await self.leases.release(lease)
                raise
            self.actors[table_id] = actor
            self.takeovers += 1
            log.info("table %s taken at fence %d", table_id, lease.fence)
            return True

    def _drop(self, table_id: str) -> None:
        """The lease is gone: stop the actor here (its successor rebuilds it from the log)."""
        self.held.pop(table_id, None)
        self.fenced.forget(table_id)
        actor = self.actors.pop(table_id, None)
        if actor is not None:
            actor.close()
        log.warning("lost the lease of table %s", table_id)

    async def call(self, table_id: str, method: str, args: list[Any]) -> tuple[Any, dict[str, Any] | None]:
        """Run a table request wherever the table lives, following it if it moves.

        Returns the result and, from another node, its snapshot of the table (``None`` when local).
        The owner is remembered between calls and looked up again only when it stops answering
        as the owner, which saves a Redis round trip per action.
        """
        deadline = time.monotonic() + max(10.0, 3 * self.config.lease_ttl)
        while True:
            actor = self.local(table_id)
            if actor is not None:
                try:
                    return await invoke(actor, method, args), None
                except FencedError:
                    self._drop(table_id)
                    continue
            lease = self._owners.get(table_id)
            if lease is None:
                lease = await self.leases.owner(table_id)
                if lease is not None and lease.node != self.node:
                    self._owners[table_id] = lease
                    if len(self._owners) > 100_000:
                        self._owners.clear()
            if lease is None:
                if not await self._take(table_id):
                    raise TableError("not_found", "no such table")
                if self.local(table_id) is None:
                    await asyncio.sleep(0.05)
                continue
            if lease.node == self.node:  # being restored here right now
                await asyncio.sleep(0.02)
            else:
                try:
                    async def still_owner(lease: Lease = lease) -> bool:
                        return await self.leases.owner(table_id) == lease

                    out = await self.rpc.call(lease.node, table_id, method, args, self.call_timeout, still_owner)
                    return out["r"], out
                except RemoteError as e:
                    if e.code != "not_owner":
                        raise TableError(e.code, e.message) from None
                    self._owners.pop(table_id, None)
                    await asyncio.sleep(0.05)
                except RpcTimeout:
                    self._owners.pop(table_id, None)
                    log.warning("node %s did not answer for table %s", lease.node, table_id)
            if time.monotonic() > deadline:
                raise TableError("busy", "the table's server does not answer; try again")

    async def _handle(self, table_id: str, method: str, args: list[Any]) -> Any:
        actor = self.local(table_id)
        if actor is None:
            raise RemoteError("not_owner", f"node {self.node} does not own table {table_id}")
        try:
            result = await invoke(actor, method, args)
        except FencedError as e:
            self._drop(table_id)
            raise RemoteError("not_owner", str(e)) from None
        return {"r": result} | snapshot(actor) if method in WITH_SNAPSHOT else {"r": result}

    # ------------------------------------------------------------------ matchmaking in Redis
    async def enqueue(self, player: Any, players: int) -> dict[str, Any]:
        for tid in await self.storage.tables_of_player(player.id):
            table = await self.get(tid)
            if table is not None and table.row.mode == "public" and table.status != "over":
                raise TableError("in_game", f"you are already playing at public table {tid}")
        await self.redis_queues.add(player.id, player.nickname, players)
        return await self.redis_queues.status(player.id)

    async def leave_queue(self, player_id: str) -> None:  # type: ignore[override]
        await self.redis_queues.remove(player_id)

    async def queue_status(self, player_id: str) -> dict[str, Any]:  # type: ignore[override]
        return await self.redis_queues.status(player_id)

    async def match_once(self) -> list[str]:
        """Form the tables the shared queues allow now (only on the matchmaker node)."""
        if self.draining or not await self.redis_queues.lead():
            return []
        made = []
        for n in (2, 3, 4):
            while (group := await self.redis_queues.take_group(n, self.config.queue_wait)) is not None:
                tid = await self._start_public(n, group)
                for e in group:
                    await self.redis_queues.matched(e.player_id, tid)
                made.append(tid)
        return made

    # ------------------------------------------------------------------ the Lobby interface
    async def get(self, table_id: str) -> Any:
        actor = self.local(table_id)
        if actor is not None:
            return RoutedTable(self, table_id, snapshot(actor))
        try:
            _, snap = await self.call(table_id, "info", [])
        except TableError as e:
            if e.code == "not_found":
                return None
            raise
        if snap is None:  # taken over by this node on the way
            actor = self.local(table_id)
            if actor is None:
                raise TableError("busy", "the table moved while it was looked up; try again")
            snap = snapshot(actor)
        return RoutedTable(self, table_id, snap)

    async def _new_table(self, **kwargs: Any) -> TableActor:
        if self.draining:
            raise TableError("busy", "this server is shutting down; try again")
        actor = await super()._new_table(**kwargs)
        lease = await self.leases.acquire(actor.id)
        if lease is None:  # a fresh random id: only a clash of ids could get here
            self.actors.pop(actor.id, None)
            raise TableError("busy", "could not own the new table; try again")
        await self.fenced.claim(actor.id, lease.fence)
        self.held[actor.id] = lease
        return actor

    def _over(self, actor: TableActor) -> None:
        super()._over(actor)
        lease = self.held.pop(actor.id, None)
        self.fenced.forget(actor.id)
        if lease is not None:
            asyncio.ensure_future(self._release(lease, finished=True))

    async def _release(self, lease: Lease, finished: bool = False) -> None:
        try:
            await self.leases.release(lease, finished=finished)
        except Exception:  # noqa: BLE001 - it expires by itself
            log.warning("could not release the lease of table %s", lease.table_id, exc_info=True)

    async def restore(self) -> int:
        """Start-up: listen for requests, register unfinished tables for the scan, take the orphans."""
        await self.rpc.start()
        rows = await self.storage.unfinished_tables()
        if rows:
            await self.leases.redis.sadd(self.leases.live_key, *[r.id for r in rows])
        taken = await self.scan()
        self._loops = [asyncio.ensure_future(self._renew_loop()), asyncio.ensure_future(self._scan_loop())]
        return taken

    async def scan(self) -> int:
        """Take every live table whose lease has expired; return how many this node took."""
        live = await self.leases.live()
        owners = await self.leases.owners(live)
        taken = 0
        for table_id, lease in zip(live, owners):
            if lease is None and self.local(table_id) is None and not self.draining:
                try:
                    before = len(self.held)
                    await self._take(table_id)
                    taken += len(self.held) > before
                except Exception:  # noqa: BLE001 - one bad table must not stop the others
                    log.exception("taking over table %s failed", table_id)
        return taken

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease_ttl / 3)
            try:
                for lost in await self.leases.renew(list(self.held.values())):
                    if self.held.get(lost.table_id) == lost:
                        self._drop(lost.table_id)
            except Exception:  # noqa: BLE001 - Redis hiccup: the database fence still protects
                log.warning("lease renewal failed", exc_info=True)

    async def _scan_loop(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, max(0.2, self.config.lease_ttl / 4)))
            try:
                await self.scan()
            except Exception:  # noqa: BLE001
                log.warning("takeover scan failed", exc_info=True)

    async def drain(self) -> int:
        """Graceful stop: take no more tables, then hand each one over (release its lease).

        Each actor's lock is taken first, so no append is half done; the events are already in
        the database, so the next owner continues exactly where this one stopped.
        """
        self.draining = True
        handed = 0
        for table_id, lease in list(self.held.items()):
            actor = self.actors.get(table_id)
            if actor is not None:
                async with actor._lock:
                    actor.close()
                    self.held.pop(table_id, None)
                    self.fenced.forget(table_id)
                    await self._release(lease)
            else:
                self.held.pop(table_id, None)
                await self._release(lease)
            handed += 1
        return handed

    async def close(self) -> None:
        handed = await self.drain()
        if handed:
            log.info("handed over %d tables", handed)
        for t in self._loops:
            t.cancel()
        await self.rpc.close()
        await super().close()
        await self.leases.redis.aclose()
