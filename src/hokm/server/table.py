"""The table actor: the single writer of one table's state and events.

Everything that changes a table (a seat taken, a seed, a deal, an action, a timeout, a bot
standing in) goes through one :class:`TableActor` under its lock. Each change becomes one or more
events with consecutive sequence numbers; they are **appended to storage before they are
broadcast**, so what a client has seen is always on disk. A restart rebuilds the actor by
replaying its stored events through the engine (:meth:`TableActor.restore`).

Dependencies (storage, bus, bot pool, clock, settings) are injected, so the same actor runs on
one node with SQLite and the in-process bus, or on many with PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from typing import Any, Callable

from ..engine import Game, IllegalActionError, Phase, Rules, action_from_json, run_hakem_draw
from ..fairness import HandSeeds, derive_deck, new_game, normalise_seed
from .botpool import BotPool
from .bus import Bus
from .config import ServerConfig
from .protocol import PROTOCOL_VERSION
from .redact import public_event
from .results import finished_game
from .seats import Seat
from .storage import EventRow, Storage, TableRow, TableUpdate
from .timers import TimerSet

log = logging.getLogger("hokm.server.table")
GAME_KINDS = frozenset({"start", "deal", "action", "trick", "hand_over", "game_over"})


class TableError(Exception):
    """A request the table refuses; ``code`` is a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TableActor:
    def __init__(self, row: TableRow, *, storage: Storage, bus: Bus, bots: BotPool, config: ServerConfig,
                 clock: Callable[[], float] = time.time,
                 on_over: Callable[["TableActor"], None] | None = None) -> None:
        self.id = row.id
        self.row = row
        self.n = row.players
        self.rules = Rules.from_dict(row.players, row.config.get("rules"))
        self.timer_secs: dict[str, float] = dict(row.config["timers"])
        self.level: str = row.config["bot"]
        self.hints: bool = bool(row.config.get("hints", True))
        self.storage, self.bus, self.bots, self.config, self.clock = storage, bus, bots, config, clock
        self.seats = [Seat.from_info(s) for s in row.seats]
        self.status = row.status
        self.game_id = row.game_id
        self.game: Game | None = None
        self.fair: list[HandSeeds] = []
        self.seq = 0
        self.backlog: list[EventRow] = []
        self.last_game_seq = 0
        self.deadline: dict[str, Any] | None = None
        self._decision = -1  # seq of the event that opened the current decision
        self._plan: tuple[str, int | None, float] | None = None
        self._lock = asyncio.Lock()
        self._timers = TimerSet(on_error=lambda e: log.error("table %s timer failed", self.id, exc_info=e))
        self._on_over = on_over
        self.started_at: float | None = None
        self._conns: dict[str, int] = {}  # open connections per player id (seated or watching)
        self._lost_players: set[str] = set()

    # ================================================================== public facts
    @property
    def channel(self) -> str:
        return f"table:{self.id}"

    def seat_of(self, player_id: str) -> int | None:
        for s in self.seats:
            if s.human and s.player_id == player_id:
                return s.seat
        return None

    def connected(self, seat: int) -> bool:
        pid = self.seats[seat].player_id
        return bool(pid and self.seats[seat].human and self._conns.get(pid, 0) > 0)

    def seats_info(self) -> list[dict[str, Any]]:
        return [s.info(self.connected(s.seat)) for s in self.seats]

    def info(self) -> dict[str, Any]:
        """The ``TableInfo`` object (without ``invite_url``, which the HTTP layer adds)."""
        r = self.row
        return {"table_id": self.id, "mode": r.mode, "players": self.n, "rules": self.rules.to_dict(),
                "timers": dict(self.timer_secs), "bot": self.level, "hints": self.hints, "status": self.status,
                "host": r.host, "code": r.code, "seats": self.seats_info(), "game_id": self.game_id,
                "created_at": r.created_at}

    def view_json(self, seat: int | None) -> dict[str, Any] | None:
        if self.game is None:
            return None
        return (self.game.spectator_view() if seat is None else self.game.view(seat)).to_json()

    def state(self, seat: int | None, last_seq: int | None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: spectator), with missed events if asked."""
        missed = None
        if last_seq is not None and last_seq <= self.seq and (not self.backlog or self.backlog[0].seq <= last_seq + 1):
            missed = [{"seq": e.seq, "at": e.at, "event": public_event(e.kind, e.payload, seat)}
                      for e in self.backlog if e.seq > last_seq]
        g = self.game
        last = g.completed[-1] if g is not None and g.completed else None
        return {"v": PROTOCOL_VERSION, "type": "state", "seq": self.seq, "table": self.info(), "seat": seat,
                "view": self.view_json(seat), "deadline": self.deadline, "fair": [f.public() for f in self.fair],
                "last_trick": None if last is None else {"leader": last.leader, "cards": [str(c) for c in last.cards],
                                                         "winner": last.winner},
                "missed": missed}

    # ================================================================== creation and restore
    async def create(self, seeds: dict[int, str] | None = None) -> None:
        """First events of a new table: hand 0's commit, the seats, any seeds given at creation."""
        async with self._lock:
            self.fair.append(HandSeeds.fresh(0, self.n))
            items: list[tuple[str, dict[str, Any]]] = [self._commit_item(0)]
            for s in self.seats:
                if s.kind != "empty":
                    items.append(("seat", {"seat": s.seat, "reason": "bot" if s.kind == "bot" else "sit",
                                           "info": s.stored()}))
            for seat, seed in (seeds or {}).items():
                items.append(self._seed_item(seat, seed))
            await self._commit(items)

    async def restore(self) -> None:
        """Rebuild from the stored events (after a restart), then resume timers and bots."""
        async with self._lock:
            rows = await self.storage.events(self.id)
            for ev in rows:
                self._replay(ev)
            self.backlog = rows
            self.seq = rows[-1].seq if rows else 0
            if not self.fair:  # stopped between creating the table and its first event
                self.fair.append(HandSeeds.fresh(0, self.n))
                await self._commit([self._commit_item(0)])
            g = self.game
            if self.status == "playing" and g is not None and g.is_over:
                await self._finish_and_announce()  # the server stopped between the last action and game_over
                return
            if self.status == "playing":
                self._decision = self.seq
                self._plan_next()
                self._arm()
                for s in self.seats:
                    if s.human and not s.auto:
                        self._timers.schedule(f"absent:{s.seat}", self.config.absent_grace,
                                              lambda i=s.seat: self._absent(i))
                    elif s.human and s.auto and s.reclaim_until is not None:
                        self._timers.schedule(f"lost:{s.seat}", s.reclaim_until - self.clock(),
                                              lambda i=s.seat: self._lost(i))

    def _replay(self, ev: EventRow) -> None:
        p = ev.payload
        kind = ev.kind
        if kind == "seat":
            self.seats[p["seat"]] = Seat.from_info(p["info"])
            if p.get("former"):
                self._lost_players.add(p["former"])
        elif kind == "commit":
            assert p["hand"] == len(self.fair), "commits are stored in hand order"
            self.fair.append(HandSeeds(p["hand"], p["server_seed"], [None] * self.n))
        elif kind == "seed":
            self.fair[p["hand"]].seat_seeds[p["seat"]] = p["seed"]
        elif kind == "start":
            d = p["hakem_draw"]
            self.game = Game(self.rules, hakem_draw=run_hakem_draw(self.rules, d["start"], d["cards"]))
            self.status = "playing"
            self.game_id = p["game_id"]
            self.started_at = ev.at
        elif kind == "deal":
            assert self.game is not None
            self.game.deal(p["deck"])
        elif kind == "action":
            assert self.game is not None
            self.game.apply(action_from_json(p["action"]), p["seat"])
        elif kind == "hand_over":
            self.fair[p["hand"]].revealed = True
        elif kind == "game_over":
            self.status = "over"
        if kind in GAME_KINDS:
            self.last_game_seq = ev.seq

    # ================================================================== emitting events
    def _commit_item(self, hand: int) -> tuple[str, dict[str, Any]]:
        f = self.fair[hand]
        return ("commit", {"hand": hand, "commit": f.commit, "server_seed": f.server_seed})

    def _seed_item(self, seat: int, seed: str) -> tuple[str, dict[str, Any]]:
        hand = len(self.fair) - 1
        self.fair[hand].seat_seeds[seat] = normalise_seed(seed)
        return ("seed", {"seat": seat, "hand": hand, "seed": self.fair[hand].seat_seeds[seat]})

    def _seat_item(self, seat: int, reason: str) -> tuple[str, dict[str, Any]]:
        return ("seat", {"seat": seat, "reason": reason, "info": self.seats[seat].stored()})

    async def _commit(self, items: list[tuple[str, dict[str, Any]]], update: TableUpdate | None = None,
                      replan: bool = False) -> None:
        """Persist ``items`` as events, then broadcast them; the state is already changed.

        A game event (or ``replan``: who decides changed) opens a new decision: its deadline is
        set before the broadcast (so the events carry it) and its timer armed after.
        """
        if not items:
            return
        now = self.clock()
        rows = [EventRow(self.id, self.seq + i + 1, kind, payload, now) for i, (kind, payload) in enumerate(items)]
        if any(r.kind == "start" for r in rows):
            self.started_at = now  # as restore() reads it back from the start event
        replan = replan or any(r.kind in GAME_KINDS for r in rows)
        if replan:
            self._decision = rows[-1].seq
            self._plan_next()
        seats_changed = any(r.kind == "seat" for r in rows)
        if seats_changed or update is not None:
            update = update or TableUpdate()
            update.seats = [s.stored() for s in self.seats]
        await self.storage.append_events(self.id, rows, update)
        self.seq = rows[-1].seq
        if any(r.kind in GAME_KINDS for r in rows):
            # Every message of a batch carries the view after the whole batch, so an action sent
            # after any of them was decided on the current position.
            self.last_game_seq = rows[0].seq
        self.backlog.extend(rows)
        await self._broadcast(rows)
        if replan:
            self._arm()

    async def _broadcast(self, rows: list[EventRow]) -> None:
        seats = self.seats_info()
        recipients: list[int | None] = [*range(self.n), None]
        # Connections pick their copy by their player id's seat *now*, so a seat that changed hands
        # can never send its view to the former occupant.
        out: dict[str, Any] = {"seq": rows[-1].seq, "per_seat": [], "spectator": [],
                               "holders": [s.player_id if s.human else None for s in self.seats]}
        for r in recipients:
            view = self.view_json(r)
            msgs = [{"v": PROTOCOL_VERSION, "type": "event", "seq": e.seq, "at": e.at,
                     "event": public_event(e.kind, e.payload, r), "view": view, "seats": seats,
                     "status": self.status, "deadline": self.deadline} for e in rows]
            if r is None:
                out["spectator"] = msgs
            else:
                out["per_seat"].append(msgs)
        await self.bus.publish(self.channel, out)

    # ================================================================== decisions and timers
    def _plan_next(self) -> None:
        """Decide who acts next and set the public deadline; :meth:`_arm` starts the timers."""
        self.deadline = None
        self._plan = None
        g = self.game
        if g is None or self.status != "playing" or g.is_over:
            return
        if g.phase is Phase.DEAL:
            self._plan = ("deal", None, self.config.hand_pause)
            return
        seat = g.to_move
        assert seat is not None
        s = self.seats[seat]
        if s.kind == "bot" or s.auto:
            self._plan = ("bot" if s.kind == "bot" else "auto", seat, random.uniform(*self.config.bot_delay))
            return
        secs = float(self.timer_secs[g.phase.value])
        self.deadline = {"seat": seat, "kind": g.phase.value, "at": self.clock() + secs, "seconds": secs}
        self._plan = ("timeout", seat, secs)

    def _arm(self) -> None:
        self._timers.cancel("decision")
        if self._plan is None:
            return
        what, seat, delay = self._plan
        dec = self._decision
        if what == "deal":
            self._timers.schedule("decision", delay, lambda: self._deal_next(dec))
        elif what == "timeout":
            self._timers.schedule("decision", delay, lambda: self._bot_move(dec, seat, "timeout", 0.0))
        else:
            self._timers.schedule("decision", 0.0, lambda: self._bot_move(dec, seat, what, delay))

    async def _bot_move(self, dec: int, seat: int | None, by: str, delay: float) -> None:
        assert seat is not None
        started = time.monotonic()
        async with self._lock:
            if dec != self._decision or self.game is None or self.game.to_move != seat:
                return
            view = self.game.view(seat)
            level = self.seats[seat].bot if self.seats[seat].kind == "bot" else self.level
        action = await self.bots.decide(self.id, seat, level or self.level, view)
        rest = delay - (time.monotonic() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        async with self._lock:
            if dec != self._decision:
                return
            await self._apply(seat, action, by)

    async def _deal_next(self, dec: int) -> None:
        async with self._lock:
            if dec != self._decision or self.game is None or self.game.phase is not Phase.DEAL:
                return
            await self._commit(self._deal_items())

    def _deal_items(self) -> list[tuple[str, dict[str, Any]]]:
        g = self.game
        assert g is not None
        h = g.hand_index
        seeds = self.fair[h]
        deck = derive_deck(self.rules, seeds.server_seed, h, seeds.seat_seeds)
        g.deal(deck)
        self.fair.append(HandSeeds.fresh(h + 1, self.n))
        return [("deal", {"hand": h, "hakem": g.hakem, "commit": seeds.commit, "deck": [str(c) for c in deck]}),
                self._commit_item(h + 1)]

    async def _apply(self, seat: int, action: Any, by: str) -> None:
        """Apply a checked action and commit its events (trick, hand, game, takeover)."""
        g = self.game
        assert g is not None
        hand = g.hand_index
        tricks = len(g.completed)
        g.apply(action, seat)
        items: list[tuple[str, dict[str, Any]]] = [("action", {"seat": seat, "action": action.to_json(), "by": by})]
        if len(g.completed) > tricks:
            t = g.completed[-1]
            items.append(("trick", {"hand": hand, "leader": t.leader, "cards": [str(c) for c in t.cards],
                                    "winner": t.winner}))
        if len(g.results) > hand:
            self.fair[hand].revealed = True
            res = g.results[hand]
            items.append(("hand_over", {"hand": hand, "result": res.to_json() | {"hakem_koti": res.hakem_koti},
                                        "scores": list(g.scores), "fair": self.fair[hand].public()}))
        s = self.seats[seat]
        if by == "player":
            s.timeouts = 0
        elif by == "timeout":
            s.timeouts += 1
            if s.timeouts >= self.config.timeouts_to_takeover and not g.is_over:
                items.append(self._takeover(seat))
        await self._commit(items)
        if g.is_over:
            # The last action is on disk first; a crash from here on is finished by restore().
            await self._finish_and_announce()

    # ================================================================== absence
    def _takeover(self, seat: int) -> tuple[str, dict[str, Any]]:
        s = self.seats[seat]
        s.auto = True
        s.timeouts = 0
        s.reclaim_until = self.clock() + self.config.reclaim_window
        self._timers.cancel(f"absent:{seat}")
        self._timers.schedule(f"lost:{seat}", self.config.reclaim_window, lambda: self._lost(seat))
        return self._seat_item(seat, "takeover")

    def _moving(self, seat: int) -> bool:
        return self.game is not None and not self.game.is_over and self.game.to_move == seat

    async def _take_over_now(self, seat: int) -> None:
        moving = self._moving(seat)
        await self._commit([self._takeover(seat)], replan=moving)

    def _reclaim(self, seat: int) -> tuple[str, dict[str, Any]]:
        s = self.seats[seat]
        s.auto = False
        s.timeouts = 0
        s.reclaim_until = None
        self._timers.cancel(f"lost:{seat}")
        return self._seat_item(seat, "reclaim")

    async def _reclaim_now(self, seat: int) -> None:
        # When the seat is to move, the human decides again with a fresh deadline and the answer
        # of a bot still thinking for it is dropped (its decision id is no longer current).
        await self._commit([self._reclaim(seat)], replan=self._moving(seat))

    async def _absent(self, seat: int) -> None:
        async with self._lock:
            s = self.seats[seat]
            if self.status == "playing" and s.human and not s.auto and not self.connected(seat):
                await self._take_over_now(seat)

    async def _lost(self, seat: int) -> None:
        async with self._lock:
            s = self.seats[seat]
            if not (s.human and s.auto and s.reclaim_until is not None and s.reclaim_until <= self.clock() + 0.01):
                return
            self.seats[seat] = Seat(seat, kind="bot", name=s.name, bot=self.level)
            if s.player_id:
                self._lost_players.add(s.player_id)
            kind, payload = self._seat_item(seat, "lost")
            await self._commit([(kind, payload | {"former": s.player_id})], replan=self._moving(seat))

    # ================================================================== requests
    async def join(self, player_id: str, last_seq: int | None) -> tuple[int | None, dict[str, Any], bool]:
        """A connection opens this table: ``(seat, state message, seat_lost)``.

        The player's seat, if any, is reclaimed from a standing-in bot; a player whose reclaim
        window passed watches as a spectator (``seat_lost`` true).
        """
        async with self._lock:
            seat = self.seat_of(player_id)
            self._conns[player_id] = self._conns.get(player_id, 0) + 1
            if seat is not None:
                s = self.seats[seat]
                self._timers.cancel(f"absent:{seat}")
                items: list[tuple[str, dict[str, Any]]] = []
                moving = False
                if s.auto and s.reclaim_until is not None and s.reclaim_until > self.clock():
                    items.append(self._reclaim(seat))
                    moving = self._moving(seat)
                if self._conns[player_id] == 1 and self.status != "over":
                    items.append(("presence", {"seat": seat, "connected": True}))
                await self._commit(items, replan=moving)
            return seat, self.state(seat, last_seq), seat is None and player_id in self._lost_players

    async def disconnect(self, player_id: str) -> None:
        async with self._lock:
            left = self._conns.get(player_id, 0) - 1
            if left > 0:
                self._conns[player_id] = left
                return
            self._conns.pop(player_id, None)
            seat = self.seat_of(player_id)
            if seat is None or self.status == "over":
                return
            await self._commit([("presence", {"seat": seat, "connected": False})])
            if self.status == "playing" and not self.seats[seat].auto:
                self._timers.schedule(f"absent:{seat}", self.config.absent_grace, lambda: self._absent(seat))

    def _player_seat(self, player_id: str) -> int:
        seat = self.seat_of(player_id)
        if seat is None:
            raise TableError("spectator", "you do not hold a seat at this table")
        return seat

    async def act(self, player_id: str, action: Any, seq: int | None) -> None:
        async with self._lock:
            seat = self._player_seat(player_id)
            g = self.game
            if g is None or self.status == "waiting":
                raise TableError("wrong_phase", "the game has not started")
            if seq is not None and seq < self.last_game_seq:
                raise TableError("stale_seq", f"the game moved on since event {seq} (now at {self.last_game_seq}); "
                                              "act on the latest view")
            try:
                parsed = g.check(action_from_json(action), seat)
            except IllegalActionError as e:
                raise TableError(e.code, str(e)) from None
            except ValueError as e:
                raise TableError("bad_action", str(e)) from None
            if self.seats[seat].auto:
                await self._commit([self._reclaim(seat)])  # acting is being back
            await self._apply(seat, parsed, "player")

    async def back(self, player_id: str) -> None:
        async with self._lock:
            seat = self._player_seat(player_id)
            if self.seats[seat].auto:
                await self._reclaim_now(seat)

    async def add_seed(self, player_id: str, seed: str) -> int:
        async with self._lock:
            seat = self._player_seat(player_id)
            if self.status == "over" or not self.fair:
                raise TableError("seed_closed", "the game is over; no hand is waiting for seeds")
            item = self._seed_item(seat, seed)
            await self._commit([item])
            return item[1]["hand"]

    async def hint_view(self, player_id: str) -> Any:
        async with self._lock:
            seat = self._player_seat(player_id)
            if not self.hints:
                raise TableError("hints_disabled", "hints are turned off at this table")
            if self.game is None or self.game.to_move != seat:
                raise TableError("not_your_turn", "you have no decision to make now")
            return seat, self.game.view(seat)

    # ------------------------------------------------------------------ the room before the start
    def _waiting(self) -> None:
        if self.status != "waiting":
            raise TableError("table_started", "the game has already started")

    def _seat_index(self, seat: int) -> Seat:
        if not 0 <= seat < self.n:
            raise TableError("no_such_seat", f"seats are 0 to {self.n - 1}")
        return self.seats[seat]

    async def sit(self, player_id: str, name: str, seat: int, seed: str | None = None) -> None:
        async with self._lock:
            self._waiting()
            s = self._seat_index(seat)
            if self.seat_of(player_id) is not None:
                raise TableError("already_seated", f"you already hold seat {self.seat_of(player_id)}")
            if s.kind != "empty":
                raise TableError("seat_taken", f"seat {seat} is taken")
            self.seats[seat] = Seat(seat, kind="human", player_id=player_id, name=name)
            items = [self._seat_item(seat, "sit")]
            if seed is not None:
                items.append(self._seed_item(seat, seed))
            await self._commit(items)

    async def seat_bot(self, player_id: str, seat: int, level: str) -> None:
        async with self._lock:
            self._waiting()
            if player_id != self.row.host:
                raise TableError("not_host", "only the host seats bots")
            s = self._seat_index(seat)
            if s.kind == "human":
                raise TableError("seat_taken", f"seat {seat} is taken by a player")
            self.seats[seat] = Seat(seat, kind="bot", name=f"{level} bot", bot=level)
            await self._commit([self._seat_item(seat, "bot")])

    async def free(self, player_id: str, seat: int) -> None:
        async with self._lock:
            self._waiting()
            s = self._seat_index(seat)
            if s.kind == "empty":
                raise TableError("not_seated", f"seat {seat} is already free")
            if s.player_id != player_id and player_id != self.row.host:
                raise TableError("not_host", "only the host frees another seat")
            self.seats[seat] = Seat(seat)
            await self._commit([self._seat_item(seat, "leave")])

    async def start(self, player_id: str | None) -> None:
        """Start the game (``player_id`` None: the lobby starting a computer or public table)."""
        async with self._lock:
            self._waiting()
            if player_id is not None and player_id != self.row.host:
                raise TableError("not_host", "only the host starts the game")
            empty = [s.seat for s in self.seats if s.kind == "empty"]
            if empty:
                raise TableError("table_not_ready", f"seat(s) {', '.join(map(str, empty))} still empty")
            self.game = new_game(self.rules, self.fair[0])
            self.status = "playing"
            self.game_id = secrets.token_hex(8)
            items = [("start", {"hakem": self.game.hakem, "hakem_draw": self.game.hakem_draw.to_json(),
                                "game_id": self.game_id})]
            items += self._deal_items()
            await self._commit(items, TableUpdate(status="playing", game_id=self.game_id))
            for s in self.seats:
                if s.human and not self.connected(s.seat):
                    self._timers.schedule(f"absent:{s.seat}", self.config.absent_grace,
                                          lambda i=s.seat: self._absent(i))

    # ================================================================== the end
    async def _store_game(self) -> None:
        """Write the finished game (record, stats, ratings) before its ``game_over`` event."""
        g = self.game
        assert g is not None and g.is_over and self.game_id is not None
        if await self.storage.get_game(self.game_id) is not None:
            return  # written before a restart
        now = self.clock()
        row, updates = await finished_game(
            self.storage, g, game_id=self.game_id, table_id=self.id, mode=self.row.mode,
            names=[s.name or f"seat {s.seat}" for s in self.seats],
            player_ids=[s.player_id if s.human else None for s in self.seats],
            fair=self.fair, started_at=self.started_at or now, ended_at=now)
        await self.storage.finish_game(row, updates)

    async def _finish_and_announce(self) -> None:
        g = self.game
        assert g is not None
        await self._store_game()
        self.status = "over"
        await self._commit([("game_over", {"scores": list(g.scores), "winner": g.winner, "game_id": self.game_id})],
                           TableUpdate(status="over"))
        self._game_ended()

    def _game_ended(self) -> None:
        self._timers.close()
        self.deadline = None
        self.bots.release(self.id)
        if self._on_over is not None:
            self._on_over(self)

    def close(self) -> None:
        """Stop timers (server shutdown); the stored events keep everything."""
        self._timers.close()
