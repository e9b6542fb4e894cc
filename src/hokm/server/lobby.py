"""Rooms, invite codes and matchmaking: where tables are made, found and brought back.

The lobby owns the live :class:`TableActor` objects of this process. It creates the three kinds
of table (vs computer, private room, public match), resolves invite codes, runs the public
queues (one per player count; bots fill the seats still empty after ``queue_wait``), and on
start-up restores every unfinished table from storage.

It also keeps the server from being filled: at most ``max_tables`` unfinished tables (the count
and the creation cannot interleave: a slot is reserved before the first ``await``), at most
``max_hosted`` per host and ``max_waiting_per_address`` waiting rooms per creating address, and a
room still waiting after ``waiting_room_ttl`` seconds without a seat change or a member looking at
it is closed (stored as over, so it is neither restored nor counted again).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any

from ..rules import Rules, RulesError, partner_of
from .botpool import BotPool, pick_level
from .bus import Bus
from .codes import new_code, typed_code
from .config import ServerConfig
from .protocol import PROTOCOL_VERSION, CreateTable, Timers
from .seams import TableHandle
from .seats import SeatKind
from .storage import PlayerRow, Storage, TableRow
from .table import TableActor, TableError

log = logging.getLogger("hokm.server.lobby")
MATCH_EVERY = 0.25  # seconds between matchmaking rounds while someone waits in a queue
IDLE_MATCH_EVERY = 60.0  # ... while no one does (on one node every join wakes it at once)
def new_table_id() -> str:
    return secrets.token_urlsafe(12)


def human_seats(players: int, humans: int) -> list[int]:
    """The seats of a public table's people, in a random order for the queued players.

    Two people at a four-player table sit as partners (seats 0 and 2), the bots facing them.
    """
    partner = partner_of(0, players)
    seats = [0, partner] if humans == 2 and partner is not None else random.sample(range(players), humans)
    random.shuffle(seats)
    return seats


def fill_in(group_since: list[float], players: int, wait: float, now: float) -> float:
    """Seconds until a queued player's group is seated: bots take the seats still empty ``wait``
    seconds after its first player queued; a full group is seated at once (0)."""
    if len(group_since) >= players:
        return 0.0
    return max(0.0, group_since[0] + wait - now)


@dataclass
class QueueEntry:
    player_id: str
    name: str
    since: float


class Lobby:
    """The lobby of a single process (a :class:`~hokm.server.seams.LobbyProtocol`)."""

    def __init__(self, storage: Storage, bus: Bus, bots: BotPool, config: ServerConfig) -> None:
        self.storage, self.bus, self.bots, self.config = storage, bus, bots, config
        self.actors: dict[str, TableActor] = {}
        self.queues: dict[int, dict[str, QueueEntry]] = {2: {}, 3: {}, 4: {}}
        self.matched: dict[str, tuple[str, float]] = {}
        # Players taken from a queue whose table is being made: still queued to a poll meanwhile (not "idle").
        self.seating: dict[str, tuple[int, QueueEntry]] = {}
        #: Seeds for the first hand given when queueing (kept by the node that took the request).
        self.queue_seeds: dict[str, str] = {}
        self.default_bot = pick_level(config.default_bot)
        self.hint_bot = pick_level(config.hint_bot or None)
        self.draining = False  # a single process stops at once; the cluster's lobby drains first
        self._task: asyncio.Task[None] | None = None
        self._queue_joined = asyncio.Event()  # wakes the matchmaker
        self.idle_match_every = IDLE_MATCH_EVERY
        self._expiry: asyncio.Task[None] | None = None
        self._reserved = 0  # tables being created right now (counted before their first await)
        self._creating: list[tuple[str, str | None]] = []  # (host, address of a private room) being created
        self.origin: dict[str, str] = {}  # waiting room id -> the address that created it (kept in its config)
        self.seen: dict[str, float] = {}  # waiting room id -> when a member last looked at it
        self._loading: dict[str, asyncio.Future[TableActor | None]] = {}

    # ------------------------------------------------------------------ actors
    def _actor(self, row: TableRow) -> TableActor:
        actor = TableActor(row, storage=self.storage, bus=self.bus, bots=self.bots, config=self.config,
                           on_over=self._over)
        actor.watchers_known = True  # one node: every connection joins through it
        return actor

    def _over(self, actor: TableActor) -> None:
        """Keep a finished table in memory a while (late joins, record links), then drop it."""
        self.origin.pop(actor.id, None)
        self.seen.pop(actor.id, None)
        loop = asyncio.get_running_loop()
        loop.call_later(300, lambda: self.actors.pop(actor.id, None) if self.actors.get(actor.id) is actor else None)

    async def restore(self) -> int:
        """Bring back every unfinished table (start-up); return how many."""
        rows = await self.storage.unfinished_tables()
        for row in rows:
            actor = self._actor(row)
            await actor.restore()
            self.actors[row.id] = actor
            if row.status == "waiting" and row.config.get("origin"):
                self.origin[row.id] = row.config["origin"]  # still counts against its address's rooms
        return len(rows)

    async def get(self, table_id: str) -> TableHandle | None:
        """The live actor of a table, loading a finished one from storage on demand."""
        return await self._load(table_id)

    async def _load(self, table_id: str) -> TableActor | None:
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        if table_id in self._loading:
            return await asyncio.shield(self._loading[table_id])
        fut: asyncio.Future[TableActor | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            row = await self.storage.get_table(table_id)
            actor = None
            if row is not None:
                actor = self._actor(row)
                await actor.restore()
                self.actors[table_id] = actor
                if actor.status == "over":
                    self._over(actor)
            fut.set_result(actor)
            return actor
        except BaseException as e:
            fut.set_exception(e)
            raise
        finally:
            del self._loading[table_id]

    async def by_code(self, code: str) -> TableHandle | None:
        row = await self.storage.table_by_code(typed_code(code))
        return None if row is None else await self.get(row.id)

    def bot_level(self, name: str) -> str:
        try:
            return pick_level(name)
        except ValueError as e:
            raise TableError("unknown_bot", str(e)) from None

    # ------------------------------------------------------------------ creating tables
    def _options(self, players: int, rules: dict[str, Any], bot: str | None) -> tuple[Rules, str]:
        try:
            parsed = Rules.from_dict(players, rules)
        except (RulesError, TypeError) as e:
            raise TableError("bad_rules", str(e)) from None
        if parsed.partner_draw:
            raise TableError("bad_rules", "partner_draw is not offered online: teams are fixed by seat")
        return parsed, self.bot_level(bot) if bot else self.default_bot

    def open_tables(self) -> int:
        """Unfinished tables held here, plus those being created."""
        return sum(1 for a in self.actors.values() if a.status != "over") + self._reserved

    async def _new_table(self, *, mode: str, players: int, rules: Rules, timers: Timers, level: str, hints: bool,
                         host: str | None, seats: list[dict[str, Any]], code: str | None,
                         previous: str | None = None, origin: str | None = None) -> TableActor:
        # Check and reserve with no await in between: concurrent creations cannot pass the limit together.
        if self.open_tables() >= self.config.max_tables:
            raise TableError("full", "the server holds as many tables as it may; try again later")
        self._reserved += 1
        try:
            now = time.time()
            row = TableRow(id=new_table_id(), mode=mode, players=players,
                           config={"rules": rules.to_dict(), "timers": timers.model_dump(), "bot": level,
                                   "hints": hints} | ({"previous": previous} if previous else {})
                                  | ({"origin": origin} if origin else {}),
                           host=host, status="waiting", seats=seats, created_at=now, updated_at=now, code=code)
            await self.storage.create_table(row)
            actor = self._actor(row)
            self.actors[row.id] = actor
        finally:
            self._reserved -= 1
        return actor

    @staticmethod
    def _seat(seat: int, kind: SeatKind = SeatKind.EMPTY, player_id: str | None = None, name: str | None = None,
              bot: str | None = None) -> dict[str, Any]:
        return {"seat": seat, "kind": kind.value, "player_id": player_id, "name": name, "bot": bot, "connected": False,
                "auto": False, "reclaim_until": None}

    async def create(self, player: PlayerRow, req: CreateTable, address: str | None = None) -> TableActor:
        """A new table hosted by ``player``; ``address`` (the request's) bounds the waiting rooms per address."""
        rules, level = self._options(req.players, req.rules, req.bot)
        limit = self.config.max_hosted
        origin = address if req.mode == "private" else None
        # Counted with the creations still under way, and reserved before the first await: parallel
        # requests of one host or one address cannot all pass the check.
        hosting = sum(1 for a in self.actors.values() if a.row.host == player.id and a.status != "over")
        hosting += sum(1 for host, _ in self._creating if host == player.id)
        if hosting >= limit:
            raise TableError("too_many_tables", f"you already host {hosting} unfinished tables (at most {limit})")
        if origin is not None:
            waiting = sum(1 for tid, a in list(self.actors.items())
                          if self.origin.get(tid) == origin and a.status == "waiting")
            waiting += sum(1 for _, at in self._creating if at == origin)
            if waiting >= self.config.max_waiting_per_address:
                raise TableError("too_many_tables", f"{waiting} rooms made from your address are waiting for "
                                 f"players (at most {self.config.max_waiting_per_address})")
        if not 0 <= req.seat < req.players:
            raise TableError("no_such_seat", f"seats are 0 to {req.players - 1}")
        seats = []
        for i in range(req.players):
            if i == req.seat:
                seats.append(self._seat(i, SeatKind.HUMAN, player.id, player.nickname))
            elif req.mode == "computer":
                seats.append(self._seat(i, SeatKind.BOT, name=f"{level} bot", bot=level))
            else:
                seats.append(self._seat(i))
        code = new_code() if req.mode == "private" else None
        pending = (player.id, origin)
        self._creating.append(pending)
        try:
            actor = await self._new_table(mode=req.mode, players=req.players, rules=rules, timers=req.timers,
                                          level=level, hints=req.hints, host=player.id, seats=seats, code=code,
                                          origin=origin)
            if origin is not None:
                self.origin[actor.id] = origin
        finally:
            self._creating.remove(pending)
        await actor.create({req.seat: req.seed} if req.seed else None)
        if req.mode == "computer":
            await actor.start(None)
        return actor

    # ------------------------------------------------------------------ rematch
    async def rematch(self, player: PlayerRow, table: TableHandle) -> TableHandle | None:
        """``player`` asks to play ``table`` again; the rematch's table once every person asked.

        The new table keeps the seats, the options and the host, and has fresh fairness seeds.
        Two last confirmations racing each make a table; the one linked first is played and the
        other closed before its start.
        """
        plan = await table.rematch(player.id)
        if plan is None:
            nxt = table.info().get("next")
            return None if nxt is None else await self.get(nxt)
        cfg = plan["config"]
        players = len(plan["seats"])
        actor = await self._new_table(
            mode=plan["mode"], players=players, rules=Rules.from_dict(players, cfg["rules"]),
            timers=Timers.model_validate(cfg["timers"]), level=cfg["bot"], hints=bool(cfg.get("hints", True)),
            host=plan["host"], seats=plan["seats"], code=new_code() if plan["mode"] == "private" else None,
            previous=table.id)
        await actor.create()
        linked = await table.link_next(actor.id)
        if linked != actor.id:
            await actor.expire(time.time() + 1)
            return await self.get(linked)
        await actor.start(None)
        return actor

    # ------------------------------------------------------------------ public matchmaking
    async def _check_not_playing(self, player: PlayerRow) -> None:
        for tid in await self.storage.tables_of_player(player.id):
            table = await self.get(tid)
            if table is not None and table.mode == "public" and table.status != "over":
                raise TableError("in_game", f"you are already playing at public table {tid}")

    async def enqueue(self, player: PlayerRow, players: int, seed: str | None = None) -> dict[str, Any]:
        await self._check_not_playing(player)
        await self.leave_queue(player.id)
        self.queues[players][player.id] = QueueEntry(player.id, player.nickname, time.time())
        self._queue_joined.set()
        if seed:
            self.queue_seeds[player.id] = seed.lower()
        return self._status(player.id)

    async def leave_queue(self, player_id: str) -> None:
        self.queue_seeds.pop(player_id, None)
        self.matched.pop(player_id, None)
        for q in self.queues.values():
            q.pop(player_id, None)

    async def queue_status(self, player_id: str) -> dict[str, Any]:
        return self._status(player_id)

    def _status(self, player_id: str) -> dict[str, Any]:
        now = time.time()
        for n, q in self.queues.items():
            if player_id in q:
                entries = list(q.values())
                head = [e.player_id for e in entries].index(player_id) // n * n
                group = [e.since for e in entries[head:head + n]]
                return {"status": "queued", "players": n, "table": None, "waited": now - q[player_id].since,
                        "queued": len(q), "fill_in": fill_in(group, n, self.config.queue_wait, now)}
        if player_id in self.seating:
            n, e = self.seating[player_id]
            return {"status": "queued", "players": n, "table": None, "waited": now - e.since,
                    "queued": len(self.queues[n]), "fill_in": 0.0}
        if player_id in self.matched:
            tid, _ = self.matched[player_id]
            return {"status": "matched", "players": None, "table": tid, "waited": None, "queued": None,
                    "fill_in": None}
        return {"status": "idle", "players": None, "table": None, "waited": None, "queued": None, "fill_in": None}

    async def match_once(self) -> list[str]:
        """Form the tables the queues allow now; return their ids."""
        made = []
        now = time.time()
        for pid in [p for p, (_, at) in self.matched.items() if now - at > 600]:
            del self.matched[pid]  # a match result is kept ten minutes for polling clients
        for n, q in self.queues.items():
            while q:
                entries = list(q.values())
                if len(entries) < n and now - entries[0].since < self.config.queue_wait:
                    break
                group = entries[:n]
                for e in group:
                    del q[e.player_id]
                    self.seating[e.player_id] = (n, e)
                try:
                    made.append(await self._start_public(n, group))
                except TableError as err:
                    if err.code != "full":
                        raise
                    # No room for a table now: the group stays first in its queue for the next round.
                    front = {e.player_id: e for e in group}
                    front.update(q)
                    q.clear()
                    q.update(front)
                    log.debug("public table for %d players postponed: the server is full", n)
                    break
                finally:
                    for e in group:
                        self.seating.pop(e.player_id, None)
        return made

    async def _start_public(self, n: int, group: list[QueueEntry]) -> str:
        order = human_seats(n, len(group))
        seats = [self._seat(i, SeatKind.BOT, name=f"{self.default_bot} bot", bot=self.default_bot) for i in range(n)]
        for e, i in zip(group, order):
            seats[i] = self._seat(i, SeatKind.HUMAN, e.player_id, e.name)
        actor = await self._new_table(mode="public", players=n, rules=Rules(players=n), timers=Timers(),
                                      level=self.default_bot, hints=True, host=None, seats=seats, code=None)
        seeds = {i: self.queue_seeds.pop(e.player_id) for e, i in zip(group, order) if e.player_id in self.queue_seeds}
        await actor.create(seeds)
        await actor.start(None)
        for e in group:
            self.matched[e.player_id] = (actor.id, time.time())
            await self.bus.publish(f"player:{e.player_id}", {"v": PROTOCOL_VERSION, "type": "matched",
                                                            "table": actor.id})
        return actor.id

    def anyone_queued(self) -> bool:
        """Whether the last matchmaking round left someone waiting in a queue."""
        return any(self.queues.values())

    async def _matchmaker(self) -> None:
        # Rounds every MATCH_EVERY seconds while someone waits (a group forms, or the computers
        # fill in after queue_wait); while no one does, a queue join wakes it, and it looks anyway
        # every idle_match_every seconds (the only wake-up an idle node has from here).
        while True:
            try:
                await self.match_once()
            except Exception:
                log.exception("matchmaking failed")
            period = MATCH_EVERY if self.anyone_queued() else self.idle_match_every
            try:
                await asyncio.wait_for(self._queue_joined.wait(), period)
            except TimeoutError:
                pass
            self._queue_joined.clear()

    def start_matchmaker(self) -> None:
        self._task = asyncio.ensure_future(self._matchmaker())
        self._expiry = asyncio.ensure_future(self._expirer())

    # ------------------------------------------------------------------ idle waiting rooms
    def in_progress(self, game_id: str) -> bool:
        return any(a.game_id == game_id and a.status != "over" for a in list(self.actors.values()))

    def table_counts(self) -> dict[str, int]:
        counts = {"waiting": 0, "playing": 0, "over": 0}
        for actor in list(self.actors.values()):
            counts[actor.status] = counts.get(actor.status, 0) + 1
        return counts

    def ownership(self) -> tuple[int, int] | None:
        return None

    def touch(self, table_id: str) -> None:
        """A member looked at a waiting room: it is in use even with no seat change."""
        actor = self.actors.get(table_id)
        if actor is not None and actor.status == "waiting":
            self.seen[table_id] = time.time()

    def idle_since(self, actor: TableActor) -> float:
        last = actor.last_event_at() or actor.row.created_at
        return max(last, self.seen.get(actor.id, 0.0))

    async def expire_idle(self) -> int:
        """Close every waiting room idle for ``waiting_room_ttl``; return how many."""
        cutoff = time.time() - self.config.waiting_room_ttl
        closed = 0
        for actor in list(self.actors.values()):
            if actor.status == "waiting" and self.idle_since(actor) < cutoff and await actor.expire(cutoff):
                closed += 1
        if closed:
            log.info("closed %d idle waiting rooms", closed)
        return closed

    async def _expirer(self) -> None:
        period = min(60.0, max(0.2, self.config.waiting_room_ttl / 4))
        while True:
            try:
                await self.expire_idle()
            except Exception:
                log.exception("closing idle rooms failed")
            await asyncio.sleep(period)

    async def close(self) -> None:
        for task in (self._task, self._expiry):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(actor.aclose() for actor in list(self.actors.values())))
