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
from typing import Any

from ...engine.view import SeatView
from ..botpool import BotPool
from ..bus import Bus
from ..config import ServerConfig
from ..lobby import Lobby
from ..seams import TableHandle
from ..seats import SeatKind
from ..storage import PlayerRow, TableRow
from ..table import TableActor, TableError
from .fence import FencedError, FencedStorage
from .lease import Lease, Leases
from .locks import KeyedLocks
from .queues import RedisQueues
from .rpc import RemoteError, Rpc, RpcTimeout

log = logging.getLogger("hokm.server.cluster")
CLUSTER_IDLE_MATCH_EVERY = 1.0  # seconds between matchmaking rounds while no shared queue holds anyone
ROUTED = frozenset({"join", "disconnect", "act", "back", "add_seed", "hint_view", "sit", "seat_bot", "free",
                    "start", "info", "rematch", "link_next", "chat", "say"})
#: Requests after which the asker needs the table's summary (the HTTP answer is ``TableInfo``); the
#: others (an action above all) travel without it, which keeps the answer to a play small.
WITH_SNAPSHOT = frozenset({"info", "sit", "seat_bot", "free", "start", "rematch", "link_next"})
#: Requests that may write to a finished table, whose copy on every node is read-only.
FINISHED_WRITES = frozenset({"rematch", "link_next", "chat", "say"})


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
    return {"info": actor.info(), "fair": actor.fairness()}


class RoutedTable:
    """A table as seen from any node (a :class:`~hokm.server.seams.TableHandle`): the actor's
    request methods, sent where the table lives."""

    def __init__(self, lobby: ClusterLobby, table_id: str, snap: dict[str, Any]) -> None:
        self._id = table_id
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
    @property
    def id(self) -> str:
        return self._id

    @property
    def channel(self) -> str:
        return f"table:{self._id}"

    def info(self) -> dict[str, Any]:
        actor = self._local()
        return actor.info() if actor is not None else dict(self._snap["info"])

    @property
    def status(self) -> str:
        return str(self.info()["status"])

    @property
    def mode(self) -> str:
        return str(self.info()["mode"])

    @property
    def game_id(self) -> str | None:
        game_id = self.info()["game_id"]
        return None if game_id is None else str(game_id)

    @property
    def level(self) -> str:
        return str(self.info()["bot"])

    def fairness(self) -> list[dict[str, Any]]:
        actor = self._local()
        return actor.fairness() if actor is not None else [dict(f) for f in self._snap["fair"]]

    def seat_of(self, player_id: str) -> int | None:
        actor = self._local()
        if actor is not None:
            return actor.seat_of(player_id)
        for s in self._snap["info"]["seats"]:
            if SeatKind(s["kind"]) is SeatKind.HUMAN and s["player_id"] == player_id:
                return int(s["seat"])
        return None

    async def fresh_state(self, player_id: str) -> dict[str, Any]:
        actor = self._local()
        if actor is not None:
            return await actor.fresh_state(player_id)
        if self._state is None:
            raise TableError("busy", "the table lives on another node; join again")
        return self._state

    # requests
    async def join(self, player_id: str, last_seq: int | None,
                   code: str | None = None) -> tuple[int | None, dict[str, Any], bool]:
        seat, state, lost = await self._call("join", player_id, last_seq, code)
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

    async def chat(self, player_id: str, phrase: str | None, emote: str | None) -> None:
        await self._call("chat", player_id, phrase, emote)

    async def say(self, player_id: str, name: str, text: str) -> None:
        await self._call("say", player_id, name, text)

    async def rematch(self, player_id: str) -> dict[str, Any] | None:
        plan: dict[str, Any] | None = await self._call("rematch", player_id)
        return plan

    async def link_next(self, table_id: str) -> str:
        return str(await self._call("link_next", table_id))


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
        self.idle_match_every = CLUSTER_IDLE_MATCH_EVERY
        self._queued = False  # the last matchmaking round saw someone in a shared queue
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
    def _actor(self, row: TableRow) -> TableActor:
        actor = super()._actor(row)
        actor.node = self.node
        actor.watchers_known = False  # until made here (_new_table): other nodes' connections joined elsewhere
        return actor

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
            if time.monotonic() > deadline:
                raise TableError("busy", "the table's server does not answer; try again")
            ran, result = await self._run_here(table_id, method, args)
            if ran:
                return result, None
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
                        raise TableError(e.code, e.message, e.facts) from None
                    self._owners.pop(table_id, None)
                    await asyncio.sleep(0.05)
                except RpcTimeout:
                    self._owners.pop(table_id, None)
                    log.warning("node %s did not answer for table %s", lease.node, table_id)
            if time.monotonic() > deadline:
                raise TableError("busy", "the table's server does not answer; try again")

    async def _run_here(self, table_id: str, method: str, args: list[Any]) -> tuple[bool, Any]:
        """Run the request on this node's actor: ``(True, result)``, or ``(False, None)`` when this
        node has no actor that may run it (the table is owned elsewhere, or was lost just now)."""
        actor = self.local(table_id)
        if actor is None:
            return False, None
        if table_id not in self.held and method in FINISHED_WRITES:
            return await self._write_finished(table_id, method, args)
        try:
            return True, await invoke(actor, method, args)
        except FencedError:
            self._drop(table_id)
            return False, None

    async def _write_finished(self, table_id: str, method: str, args: list[Any]) -> tuple[bool, Any]:
        """A request that writes to a finished table (a rematch, its link, words after the game): the
        copy every node may read is not owned, so the write takes the table's lease for its time,
        from a copy read again after claiming (another node may have written meanwhile)."""
        async with self._table_locks(table_id):
            lease = await self.leases.acquire(table_id)
            if lease is None:
                return False, None  # another node is writing to it now: the request goes there
            self.held[table_id] = lease
            try:
                await self.fenced.claim(table_id, lease.fence)
                row = await self.storage.get_table(table_id)
                if row is None:
                    raise TableError("not_found", "no such table")
                actor = self._actor(row)
                await actor.restore()
                self.actors[table_id] = actor
                super()._over(actor)  # kept a while, like any finished table's copy
                return True, await invoke(actor, method, args)
            finally:
                self.held.pop(table_id, None)
                self.fenced.forget(table_id)
                await self._release(lease, finished=True)

    async def _handle(self, table_id: str, method: str, args: list[Any], origin: str) -> Any:
        """A request from node ``origin``. Its joins and leaves are counted on the actor, so that the
        table's events go through Redis only while another node has a connection there."""
        actor = self.local(table_id)
        joining = method == "join" and actor is not None
        if joining and actor is not None:
            actor.watched_from(origin, +1)  # before the state is taken: what follows reaches that node
        ran = False
        try:
            ran, result = await self._run_here(table_id, method, args)
        except FencedError as e:
            self._drop(table_id)
            raise RemoteError("not_owner", str(e)) from None
        finally:
            if joining and actor is not None and not ran:
                actor.watched_from(origin, -1)  # refused or failed: that node has no connection here
        here = self.local(table_id)
        if not ran or here is None:
            raise RemoteError("not_owner", f"node {self.node} does not own table {table_id}")
        if method == "disconnect":
            here.watched_from(origin, -1)
        return {"r": result} | snapshot(here) if method in WITH_SNAPSHOT else {"r": result}

    # ------------------------------------------------------------------ matchmaking in Redis
    async def enqueue(self, player: PlayerRow, players: int, seed: str | None = None) -> dict[str, Any]:
        await self._check_not_playing(player)
        await self.redis_queues.add(player.id, player.nickname, players)
        self._queue_joined.set()  # at once if this node forms the tables
        self.queue_seeds.pop(player.id, None)
        if seed:  # kept by this node: the matchmaker node deals without it (see Lobby.queue_seeds)
            self.queue_seeds[player.id] = seed.lower()
        return await self.redis_queues.status(player.id, self.config.queue_wait)

    async def leave_queue(self, player_id: str) -> None:
        self.queue_seeds.pop(player_id, None)
        await self.redis_queues.remove(player_id)

    def anyone_queued(self) -> bool:
        # Joins through other nodes are seen only by asking Redis, so an idle round comes every
        # CLUSTER_IDLE_MATCH_EVERY seconds, which is also how soon a node takes the matchmaker's
        # lease over from one that died (after the lease's time to live).
        return self._queued

    async def queue_status(self, player_id: str) -> dict[str, Any]:
        return await self.redis_queues.status(player_id, self.config.queue_wait)

    async def match_once(self) -> list[str]:
        """Form the tables the shared queues allow now (only on the matchmaker node)."""
        waiting = None if self.draining else await self.redis_queues.waiting()
        self._queued = waiting is not None and any(waiting.values())
        if not waiting:
            return []
        made = []
        for n, queued in waiting.items():
            if not queued:
                continue
            while (group := await self.redis_queues.take_group(n, self.config.queue_wait)) is not None:
                try:
                    tid = await self._start_public(n, group)
                except TableError as e:
                    if e.code != "full":
                        await self.redis_queues.unseat(group)
                        raise
                    await self.redis_queues.put_back(n, group)  # first in line when a place frees up
                    break
                except BaseException:
                    await self.redis_queues.unseat(group)  # no table: not "being seated" any more
                    raise
                for entry in group:
                    await self.redis_queues.matched(entry.player_id, tid)
                made.append(tid)
        return made

    # ------------------------------------------------------------------ the Lobby interface
    async def get(self, table_id: str) -> TableHandle | None:
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
        actor.watchers_known = True  # made here: a connection elsewhere must join through this node
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
        except Exception:
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
        taken = 0
        for table_id in await self.leases.unowned():
            if self.local(table_id) is None and not self.draining:
                try:
                    before = len(self.held)
                    await self._take(table_id)
                    taken += len(self.held) > before
                except Exception:
                    log.exception("taking over table %s failed", table_id)
        return taken

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease_ttl / 3)
            try:
                for lost in await self.leases.renew(list(self.held.values())):
                    if self.held.get(lost.table_id) == lost:
                        self._drop(lost.table_id)
            except Exception:
                log.warning("lease renewal failed", exc_info=True)

    async def _scan_loop(self) -> None:
        # A table someone plays at is taken over by the first request that finds its lease gone
        # (call); the scan is for those no one asks about, whose turn timers must still run.
        while True:
            await asyncio.sleep(min(2.5, max(0.2, self.config.lease_ttl / 2)))
            try:
                await self.scan()
            except Exception:
                log.warning("takeover scan failed", exc_info=True)

    def ownership(self) -> tuple[int, int] | None:
        return len(self.held), self.takeovers

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
                async with actor.lock:
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
