"""Rooms, invite codes and matchmaking: where tables are made, found and brought back.

The lobby owns the live :class:`TableActor` objects of this process. It creates the three kinds
of table (vs computer, private room, public match), resolves invite codes, runs the public
queues (one per player count; bots fill the seats still empty after ``queue_wait``), and on
start-up restores every unfinished table from storage.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any

from ..rules import Rules, RulesError
from .botpool import BotPool, pick_level
from .bus import Bus
from .config import ServerConfig
from .protocol import PROTOCOL_VERSION, CreateTable, Timers
from .storage import PlayerRow, Storage, TableRow
from .table import TableActor, TableError

log = logging.getLogger("hokm.server.lobby")
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: codes are read aloud and typed
CODE_LENGTH = 8  # 40 bits: unguessable at any rate the HTTP layer allows
MAX_HOSTED = 5  # unfinished tables one player may have created, so nobody can fill the server alone


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_table_id() -> str:
    return secrets.token_urlsafe(12)


@dataclass
class QueueEntry:
    player_id: str
    name: str
    since: float


class Lobby:
    def __init__(self, storage: Storage, bus: Bus, bots: BotPool, config: ServerConfig) -> None:
        self.storage, self.bus, self.bots, self.config = storage, bus, bots, config
        self.actors: dict[str, TableActor] = {}
        self.queues: dict[int, dict[str, QueueEntry]] = {2: {}, 3: {}, 4: {}}
        self.matched: dict[str, tuple[str, float]] = {}
        #: Seeds for the first hand given when queueing (kept by the node that took the request).
        self.queue_seeds: dict[str, str] = {}
        self.default_bot = pick_level(config.default_bot)
        self.hint_bot = pick_level(config.hint_bot or None)
        self._task: asyncio.Task[None] | None = None
        self._loading: dict[str, asyncio.Future[TableActor | None]] = {}

    # ------------------------------------------------------------------ actors
    def _actor(self, row: TableRow) -> TableActor:
        return TableActor(row, storage=self.storage, bus=self.bus, bots=self.bots, config=self.config,
                          on_over=self._over)

    def _over(self, actor: TableActor) -> None:
        """Keep a finished table in memory a while (late joins, record links), then drop it."""
        loop = asyncio.get_running_loop()
        loop.call_later(300, lambda: self.actors.pop(actor.id, None) if self.actors.get(actor.id) is actor else None)

    async def restore(self) -> int:
        """Bring back every unfinished table (start-up); return how many."""
        rows = await self.storage.unfinished_tables()
        for row in rows:
            actor = self._actor(row)
            await actor.restore()
            self.actors[row.id] = actor
        return len(rows)

    async def get(self, table_id: str) -> TableActor | None:
        """The live actor of a table, loading a finished one from storage on demand."""
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

    async def by_code(self, code: str) -> TableActor | None:
        row = await self.storage.table_by_code(code.strip().upper())
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

    async def _new_table(self, *, mode: str, players: int, rules: Rules, timers: Timers, level: str, hints: bool,
                         host: str | None, seats: list[dict[str, Any]], code: str | None) -> TableActor:
        if len(self.actors) >= self.config.max_tables:
            raise TableError("busy", "the server is full; try again later")
        now = time.time()
        row = TableRow(id=new_table_id(), mode=mode, players=players,
                       config={"rules": rules.to_dict(), "timers": timers.model_dump(), "bot": level, "hints": hints},
                       host=host, status="waiting", seats=seats, created_at=now, updated_at=now, code=code)
        await self.storage.create_table(row)
        actor = self._actor(row)
        self.actors[row.id] = actor
        return actor

    @staticmethod
    def _seat(seat: int, kind: str = "empty", player_id: str | None = None, name: str | None = None,
              bot: str | None = None) -> dict[str, Any]:
        return {"seat": seat, "kind": kind, "player_id": player_id, "name": name, "bot": bot, "connected": False,
                "auto": False, "reclaim_until": None}

    async def create(self, player: PlayerRow, req: CreateTable) -> TableActor:
        rules, level = self._options(req.players, req.rules, req.bot)
        hosting = sum(1 for a in self.actors.values() if a.row.host == player.id and a.status != "over")
        if hosting >= MAX_HOSTED:
            raise TableError("too_many_tables", f"you already host {hosting} unfinished tables (at most {MAX_HOSTED})")
        if not 0 <= req.seat < req.players:
            raise TableError("no_such_seat", f"seats are 0 to {req.players - 1}")
        seats = []
        for i in range(req.players):
            if i == req.seat:
                seats.append(self._seat(i, "human", player.id, player.nickname))
            elif req.mode == "computer":
                seats.append(self._seat(i, "bot", name=f"{level} bot", bot=level))
            else:
                seats.append(self._seat(i))
        code = new_code() if req.mode == "private" else None
        actor = await self._new_table(mode=req.mode, players=req.players, rules=rules, timers=req.timers, level=level,
                                      hints=req.hints, host=player.id, seats=seats, code=code)
        await actor.create({req.seat: req.seed} if req.seed else None)
        if req.mode == "computer":
            await actor.start(None)
        return actor

    # ------------------------------------------------------------------ public matchmaking
    async def enqueue(self, player: PlayerRow, players: int) -> dict[str, Any]:
        for tid in await self.storage.tables_of_player(player.id):
            actor = await self.get(tid)
            if actor is not None and actor.row.mode == "public" and actor.status != "over":
                raise TableError("in_game", f"you are already playing at public table {tid}")
        self.leave_queue(player.id)
        self.matched.pop(player.id, None)
        self.queues[players][player.id] = QueueEntry(player.id, player.nickname, time.time())
        return self.queue_status(player.id)

    def leave_queue(self, player_id: str) -> None:
        self.queue_seeds.pop(player_id, None)
        for q in self.queues.values():
            q.pop(player_id, None)

    def queue_status(self, player_id: str) -> dict[str, Any]:
        for n, q in self.queues.items():
            if player_id in q:
                return {"status": "queued", "players": n, "table": None, "waited": time.time() - q[player_id].since,
                        "queued": len(q)}
        if player_id in self.matched:
            tid, _ = self.matched[player_id]
            return {"status": "matched", "players": None, "table": tid, "waited": None, "queued": None}
        return {"status": "idle", "players": None, "table": None, "waited": None, "queued": None}

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
                made.append(await self._start_public(n, group))
        return made

    async def _start_public(self, n: int, group: list[QueueEntry]) -> str:
        order = list(range(n))
        random.shuffle(order)
        seats = [self._seat(i, "bot", name=f"{self.default_bot} bot", bot=self.default_bot) for i in range(n)]
        for e, i in zip(group, order):
            seats[i] = self._seat(i, "human", e.player_id, e.name)
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

    async def _matchmaker(self) -> None:
        while True:
            try:
                await self.match_once()
            except Exception:  # noqa: BLE001 - keep matching whatever one table did
                log.exception("matchmaking failed")
            await asyncio.sleep(0.25)

    def start_matchmaker(self) -> None:
        self._task = asyncio.ensure_future(self._matchmaker())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for actor in self.actors.values():
            actor.close()
