"""The table actor: the single writer of one table's state and events.

Everything that changes a table (a seat taken, a seed, a deal, an action, a timeout, a bot
standing in) goes through one :class:`TableActor` under its lock. Each change becomes one or more
events with consecutive sequence numbers; they are **appended to storage before they are
broadcast** (:class:`~.log.EventLog`), so what a client has seen is always on disk. A restart
rebuilds the actor by replaying its stored events through the engine (:meth:`TableActor.restore`).

The actor holds the game and the fairness seeds and composes the rest: the :class:`~.room.Room`
(seats, host, connections), the :class:`~.log.EventLog`, the :class:`~.absence.Absence` timers
and the :class:`~.turns.Turns` (deals, bot moves, deadlines). Dependencies (storage, bus, bot
pool, clock, settings) are injected, so the same actor runs on one node with SQLite and the
in-process bus, or on many with PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from ...engine import Game, IllegalActionError, Rules, action_from_json, run_hakem_draw
from ...engine.view import HistoryMemo, SeatView
from ...fairness import HandSeeds, derive_deck, new_game, normalise_seed
from ..botpool import BotPool
from ..bus import Bus
from ..config import ServerConfig
from ..keys import load_signer
from ..protocol import PROTOCOL_VERSION
from ..results import finished_game
from ..seats import Seat, SeatKind, code_matches
from ..storage import EventRow, Storage, TableRow, TableUpdate
from ..timers import TimerSet
from ..wire import Views, make_views
from .absence import Absence
from .errors import TableError
from .log import GAME_KINDS, EventLog
from .room import Room
from .turns import Turns

log = logging.getLogger("hokm.server.table")

Item = tuple[str, dict[str, Any]]


class TableActor:
    """One table (a :class:`~hokm.server.seams.TableHandle`), run where its events are written."""

    def __init__(self, row: TableRow, *, storage: Storage, bus: Bus, bots: BotPool, config: ServerConfig,
                 clock: Callable[[], float] = time.time,
                 on_over: Callable[[TableActor], None] | None = None) -> None:
        self.id = row.id
        self.row = row
        self.n = row.players
        self.rules = Rules.from_dict(row.players, row.config.get("rules"))
        self.timer_secs: dict[str, float] = dict(row.config["timers"])
        self.level: str = row.config["bot"]
        self.hints: bool = bool(row.config.get("hints", True))
        self.storage, self.bus, self.bots, self.config, self.clock = storage, bus, bots, config, clock
        self.status = row.status
        self.game_id = row.game_id
        self.game: Game | None = None
        self._history = HistoryMemo()  # the game's finished tricks and hands, as its views list them
        self.fair: list[HandSeeds] = []
        self.started_at: float | None = None
        self.rematch_seats: set[int] = set()  # seats whose player asked for a rematch
        # Other nodes with connections at this table (a cluster): their joins less their leaves, by
        # node. While ``watchers_known`` is false (a table taken over or restored here, whose other
        # nodes' connections joined elsewhere), every event goes to the other nodes.
        self.watchers: dict[str, int] = {}
        self.watchers_known = False
        self.node: str | None = None  # several nodes: this one's id, told to clients (TableInfo.node)
        self.next_table: str | None = None  # the rematch's table, once made
        self._lock = asyncio.Lock()
        self._on_over = on_over
        self._timers = TimerSet(on_error=lambda e: log.error("table %s timer failed", self.id, exc_info=e))
        self.room = Room([Seat.from_info(s) for s in row.seats], row.host)
        self.log = EventLog(row.id, storage, bus)
        self.absence = Absence(self.room, self._timers, config, clock, on_absent=self._absent, on_lost=self._lost,
                               on_empty=self._nobody_came)
        self.turns = Turns(self, self._timers, bots, config, clock)

    # ================================================================== public facts
    @property
    def lock(self) -> asyncio.Lock:
        """Held for every change of the table."""
        return self._lock

    @property
    def channel(self) -> str:
        return self.log.channel

    @property
    def mode(self) -> str:
        return self.row.mode

    @property
    def seats(self) -> list[Seat]:
        return self.room.seats

    @property
    def seq(self) -> int:
        return self.log.seq

    @property
    def deadline(self) -> dict[str, Any] | None:
        return self.turns.deadline

    def last_event_at(self) -> float | None:
        return self.log.last_at()

    def fairness(self) -> list[dict[str, Any]]:
        return [f.public() for f in self.fair]

    def seat_of(self, player_id: str) -> int | None:
        return self.room.seat_of(player_id)

    def watched_from(self, node: str, change: int) -> None:
        """A connection on another ``node`` joined (+1) or left (-1) this table."""
        n = self.watchers.get(node, 0) + change
        if n > 0:
            self.watchers[node] = n
        else:
            self.watchers.pop(node, None)

    def info(self) -> dict[str, Any]:
        """The ``TableInfo`` object (without ``invite_url``, which the HTTP layer adds)."""
        r = self.row
        return {"table_id": self.id, "mode": r.mode, "players": self.n, "rules": self.rules.to_dict(),
                "timers": dict(self.timer_secs), "bot": self.level, "hints": self.hints, "status": self.status,
                "host": r.host, "code": r.code, "seats": self.room.info(),
                "sides": [self.rules.side_of(seat) for seat in range(self.n)], "game_id": self.game_id,
                "created_at": r.created_at, "previous": r.config.get("previous"), "next": self.next_table,
                "rematch": sorted(self.rematch_seats), "node": self.node}

    def view_json(self, seat: int | None) -> dict[str, Any] | None:
        if self.game is None:
            return None
        return (self.game.spectator_view() if seat is None else self.game.view(seat)).to_json()

    def views(self, recipients: list[int | None]) -> Views | None:
        """The views of ``recipients`` (seats, ``None``: spectators) built and encoded in one pass; ``None`` before the start."""
        return None if self.game is None else make_views(self.game, recipients, self._history)

    def state(self, seat: int | None, last_seq: int | None, member: bool | None = None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``None``: spectator), with missed events if asked.

        The invite code goes only to members (``member``; by default: a seated player).
        """
        g = self.game
        last = g.completed[-1] if g is not None and g.completed else None
        info = self.info()
        if not (seat is not None if member is None else member):
            info["code"] = None
        return {"v": PROTOCOL_VERSION, "type": "state", "seq": self.seq, "table": info, "seat": seat,
                "view": self.view_json(seat), "deadline": self.deadline, "fair": self.fairness(),
                "last_trick": None if last is None else {"leader": last.leader, "cards": [str(c) for c in last.cards],
                                                         "winner": last.winner},
                "missed": self.log.missed(last_seq, seat)}

    async def fresh_state(self, player_id: str) -> dict[str, Any]:
        """The ``state`` message for the player's seat (a spectator's without one), under the lock: never
        taken while a change is half made (the game moved, its events not yet stored and numbered)."""
        async with self._lock:
            return self.state(self.seat_of(player_id), None)

    # ================================================================== creation and restore
    async def create(self, seeds: dict[int, str] | None = None) -> None:
        """First events of a new table: hand 0's commit, the seats, any seeds given at creation."""
        async with self._lock:
            self.fair.append(HandSeeds.fresh(0, self.n))
            items: list[Item] = [self._commit_item(0)]
            for s in self.seats:
                if s.kind is not SeatKind.EMPTY:
                    items.append(("seat", {"seat": s.seat, "reason": "bot" if s.kind is SeatKind.BOT else "sit",
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
            self.log.loaded(rows)
            if not self.fair:  # stopped between creating the table and its first event
                self.fair.append(HandSeeds.fresh(0, self.n))
                await self._commit([self._commit_item(0)])
            g = self.game
            if self.status == "playing" and g is not None and g.is_over:
                await self._finish_and_announce()  # the server stopped between the last action and game_over
                return
            if self.status == "playing":
                self.turns.plan(self.seq)
                self.turns.arm()
                self.absence.resume()

    def _replay(self, ev: EventRow) -> None:
        p = ev.payload
        kind = ev.kind
        if kind == "seat":
            self.seats[p["seat"]] = Seat.from_info(p["info"])
            if p.get("former"):
                self.room.lost_players.add(p["former"])
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
        elif kind == "rematch":
            self.rematch_seats.add(p["seat"])
        elif kind == "next_table":
            self.next_table = p["table_id"]
        self.log.replayed(ev)

    # ================================================================== emitting events
    def _commit_item(self, hand: int) -> Item:
        f = self.fair[hand]
        return ("commit", {"hand": hand, "commit": f.commit, "server_seed": f.server_seed})

    def _seed_item(self, seat: int, seed: str) -> Item:
        hand = len(self.fair) - 1
        self.fair[hand].seat_seeds[seat] = normalise_seed(seed)
        return ("seed", {"seat": seat, "hand": hand, "seed": self.fair[hand].seat_seeds[seat]})

    async def _commit(self, items: list[Item], update: TableUpdate | None = None, replan: bool = False) -> None:
        """Persist ``items`` as events, then broadcast them; the state is already changed.

        A game event (or ``replan``: who decides changed) opens a new decision: its deadline is
        set before the broadcast (so the events carry it) and its timer armed after.
        """
        if not items:
            if replan:
                self.turns.plan(self.seq)
                self.turns.arm()
            return
        now = self.clock()
        rows = self.log.rows(items, now)
        if any(r.kind == "start" for r in rows):
            self.started_at = now  # as restore() reads it back from the start event
        replan = replan or any(r.kind in GAME_KINDS for r in rows)
        if replan:
            self.turns.plan(rows[-1].seq)
        if any(r.kind == "seat" for r in rows) or update is not None:
            update = update or TableUpdate()
            update.seats = self.room.stored()
        await self.log.append(rows, update)
        remote = not self.watchers_known or bool(self.watchers)
        holders = self.room.holders()
        await self.log.publish(rows, players=self.n, holders=holders, views=self.views,
                               seats=self.room.info(), status=self.status, deadline=self.deadline,
                               remote=remote, spectators=remote or self.room.watched(holders))
        if replan:
            self.turns.arm()

    # ================================================================== the game moving on (Turns calls these)
    async def deal_next(self) -> None:
        """Deal the next hand (under the lock)."""
        await self._commit(self._deal_items())

    def _deal_items(self) -> list[Item]:
        g = self.game
        assert g is not None
        h = g.hand_index
        seeds = self.fair[h]
        deck = derive_deck(self.rules, seeds.server_seed, h, seeds.seat_seeds)
        g.deal(deck)
        self.fair.append(HandSeeds.fresh(h + 1, self.n))
        return [("deal", {"hand": h, "hakem": g.hakem, "commit": seeds.commit, "deck": [str(c) for c in deck]}),
                self._commit_item(h + 1)]

    async def apply_action(self, seat: int, action: Any, by: str, before: Sequence[Item] = ()) -> None:
        """Apply a checked action and commit its events (trick, hand, game, takeover) in one write, after
        ``before`` (a player's return to a seat the computer held); under the lock."""
        g = self.game
        assert g is not None
        hand = g.hand_index
        tricks = len(g.completed)
        g.apply(action, seat)
        items: list[Item] = [*before, ("action", {"seat": seat, "action": action.to_json(), "by": by})]
        if len(g.completed) > tricks:
            t = g.completed[-1]
            items.append(("trick", {"hand": hand, "leader": t.leader, "cards": [str(c) for c in t.cards],
                                    "winner": t.winner}))
        if len(g.results) > hand:
            self.fair[hand].revealed = True
            res = g.results[hand]
            items.append(("hand_over", {"hand": hand, "result": res.view_json(),
                                        "scores": list(g.scores), "fair": self.fair[hand].public()}))
        if by == "player":
            self.seats[seat].timeouts = 0
        elif by == "timeout" and self.absence.timed_out(seat) and not g.is_over:
            items.append(self.absence.takeover(seat))
        await self._commit(items)
        if g.is_over:
            # The last action is on disk first; a crash from here on is finished by restore().
            await self._finish_and_announce()

    # ================================================================== absence (Absence's timers call these)
    def _moving(self, seat: int) -> bool:
        return self.game is not None and not self.game.is_over and self.game.to_move == seat

    async def _reclaim_now(self, seat: int, woke: bool = False) -> None:
        # When the seat is to move, the human decides again with a fresh deadline and the answer
        # of a bot still thinking for it is dropped (its decision id is no longer current).
        await self._commit([self.absence.reclaim(seat)], replan=woke or self._moving(seat))

    def _wake(self) -> bool:
        """A seated person is at a paused table: it goes on (the caller plans the next decision)."""
        if not self.turns.paused:
            return False
        self.turns.resume()
        self.absence.back_from_empty()
        return True

    async def _absent(self, seat: int) -> None:
        async with self._lock:
            s = self.seats[seat]
            if (self.status == "playing" and not self.turns.paused and s.human and not s.auto
                    and not self.room.connected(seat)):
                await self._commit([self.absence.takeover(seat)], replan=self._moving(seat))

    async def _nobody_came(self) -> None:
        async with self._lock:
            if not self.turns.paused or self.status != "playing":
                return
            self.turns.resume()
            await self._commit([self.absence.takeover(seat) for seat in self.absence.away()], replan=True)

    async def _lost(self, seat: int) -> None:
        async with self._lock:
            if not self.absence.window_passed(seat):
                return
            former = self.room.give_to_bot(seat, self.level)
            kind, payload = self.room.seat_item(seat, "lost")
            # A paused table whose last person's window ran out has nobody left to wait for.
            woke = not any(s.human for s in self.seats) and self._wake()
            await self._commit([(kind, payload | {"former": former})], replan=woke or self._moving(seat))

    # ================================================================== requests
    async def join(self, player_id: str, last_seq: int | None,
                   code: str | None = None) -> tuple[int | None, dict[str, Any], bool]:
        """A connection opens this table: ``(seat, state message, seat_lost)``.

        The player's seat, if any, is reclaimed from a standing-in bot; a player whose reclaim
        window passed watches as a spectator (``seat_lost`` true). A private room is watched only
        by its host, its seated players, those who lost their seat in it, and whoever gives its
        invite ``code``; anyone else gets ``code_required``.
        """
        async with self._lock:
            seat = self.seat_of(player_id)
            r = self.row
            if (r.code and seat is None and player_id != r.host and player_id not in self.room.lost_players
                    and not code_matches(self.info(), code)):
                raise TableError("code_required", "this is a private room: watching it needs its invite code")
            conns = self.room.connect(player_id)
            if seat is not None:
                self.absence.arrived(seat)
                items: list[Item] = []
                moving = self._wake()  # the first one back at a table nobody was at: it goes on
                if self.absence.can_reclaim(seat):
                    items.append(self.absence.reclaim(seat))
                    moving = moving or self._moving(seat)
                if conns == 1 and self.status != "over":
                    items.append(("presence", {"seat": seat, "connected": True}))
                await self._commit(items, replan=moving)
            state = self.state(seat, last_seq, member=seat is not None or player_id == self.row.host)
            return seat, state, seat is None and player_id in self.room.lost_players

    async def disconnect(self, player_id: str) -> None:
        async with self._lock:
            if self.room.disconnect(player_id) > 0:
                return
            seat = self.seat_of(player_id)
            if seat is None or self.status == "over":
                return
            if self.status == "playing" and self.watchers_known and not self.room.anyone_here():
                # The last person left: the table waits for them (the event says so: no deadline). Only
                # where every connection to the table joined through this actor: a cluster node that
                # took the table over does not know who is connected through the others.
                self.turns.pause()
                self.absence.nobody_here()
                await self._commit([("presence", {"seat": seat, "connected": False})])
                return
            await self._commit([("presence", {"seat": seat, "connected": False})])
            if self.status == "playing" and not self.seats[seat].auto:
                self.absence.expect(seat)

    async def act(self, player_id: str, action: Any, seq: int | None) -> None:
        async with self._lock:
            seat = self.room.player_seat(player_id)
            g = self.game
            if g is None or self.status == "waiting":
                raise TableError("wrong_phase", "the game has not started")
            if seq is not None and seq < self.log.last_game_seq:
                raise TableError("stale_seq", f"the game moved on since event {seq} (now at "
                                              f"{self.log.last_game_seq}); act on the latest view")
            try:
                parsed = g.check(action_from_json(action), seat)
            except IllegalActionError as e:
                raise TableError.refusing(e) from None
            except ValueError as e:
                raise TableError("bad_action", str(e)) from None
            self._wake()  # the action's events plan the next decision
            back = [self.absence.reclaim(seat)] if self.seats[seat].auto else []  # acting is being back
            await self.apply_action(seat, parsed, "player", before=back)

    async def back(self, player_id: str) -> None:
        async with self._lock:
            seat = self.room.player_seat(player_id)
            woke = self._wake()
            if self.seats[seat].auto:
                await self._reclaim_now(seat, woke)
            elif woke:
                await self._commit([], replan=True)

    async def add_seed(self, player_id: str, seed: str) -> int:
        async with self._lock:
            seat = self.room.player_seat(player_id)
            if self.status == "over" or not self.fair:
                raise TableError("seed_closed", "the game is over; no hand is waiting for seeds")
            item = self._seed_item(seat, seed)
            await self._commit([item])
            return int(item[1]["hand"])

    async def hint_view(self, player_id: str) -> tuple[int, SeatView]:
        async with self._lock:
            seat = self.room.player_seat(player_id)
            if not self.hints:
                raise TableError("hints_disabled", "hints are turned off at this table")
            if self.game is None or self.game.to_move != seat:
                raise TableError("not_your_turn", "you have no decision to make now")
            return seat, self.game.view(seat)

    # ------------------------------------------------------------------ the room before the start
    def _waiting(self) -> None:
        if self.status != "waiting":
            raise TableError("table_started", "the game has already started")

    async def sit(self, player_id: str, name: str, seat: int, seed: str | None = None) -> None:
        async with self._lock:
            self._waiting()
            self.room.sit(player_id, name, seat)
            items = [self.room.seat_item(seat, "sit")]
            if seed is not None:
                items.append(self._seed_item(seat, seed))
            await self._commit(items)

    async def seat_bot(self, player_id: str, seat: int, level: str) -> None:
        async with self._lock:
            self._waiting()
            self.room.seat_bot(player_id, seat, level)
            await self._commit([self.room.seat_item(seat, "bot")])

    async def free(self, player_id: str, seat: int) -> None:
        async with self._lock:
            self._waiting()
            self.room.free(player_id, seat)
            await self._commit([self.room.seat_item(seat, "leave")])

    async def start(self, player_id: str | None) -> None:
        """Start the game (``player_id`` None: the lobby starting a computer or public table)."""
        async with self._lock:
            self._waiting()
            if player_id is not None and player_id != self.row.host:
                raise TableError("not_host", "only the host starts the game")
            empty = self.room.empty()
            if empty:
                raise TableError("table_not_ready", f"seat(s) {', '.join(map(str, empty))} still empty")
            self.game = new_game(self.rules, self.fair[0])
            self.status = "playing"
            self.game_id = secrets.token_hex(8)
            draw = self.game.hakem_draw
            assert draw is not None
            items = [("start", {"hakem": self.game.hakem, "hakem_draw": draw.to_json(), "game_id": self.game_id})]
            items += self._deal_items()
            await self._commit(items, TableUpdate(status="playing", game_id=self.game_id))
            for s in self.seats:
                if s.human and not self.room.connected(s.seat):
                    self.absence.expect(s.seat)

    async def expire(self, idle_before: float) -> bool:
        """Close this room if it is still waiting and nothing happened since ``idle_before``.

        Stored as over (no game): it is not restored at start-up and no longer counts as open.
        """
        async with self._lock:
            last = self.log.last_at()
            if self.status != "waiting" or (last is not None and last >= idle_before):
                return False
            self.status = "over"
            await self.storage.append_events(self.id, [], TableUpdate(status="over"))
        self._game_ended()
        return True

    # ================================================================== chat
    async def chat(self, player_id: str, phrase: str | None, emote: str | None) -> None:
        """A seated player's quick phrase or emote (ids the wire model checked) joins the table's log."""
        async with self._lock:
            seat = self.room.player_seat(player_id)
            await self._commit([("chat", {"channel": "table", "seat": seat, "player": player_id, "name": None,
                                          "phrase": phrase, "emote": emote, "text": None})])

    async def say(self, player_id: str, name: str, text: str) -> None:
        """Free text (already cleaned, :mod:`~hokm.server.chattext`) joins the table's log.

        In a private room a seated player speaks to the table, anyone else watching to the
        spectators only. At any other table a seated player speaks to their friends there alone
        (channel ``friends``: each connection passes it on only to a friend of the sender).
        """
        async with self._lock:
            seat = self.seat_of(player_id)
            if self.row.mode != "private":
                if seat is None:
                    raise TableError("chat_closed", "at this table free text is for seated players, to their friends; "
                                     "use the quick phrases")
                channel = "friends"
            else:
                channel = "table" if seat is not None else "spectators"
            if seat is not None:
                name = self.seats[seat].name or name
            await self._commit([("chat", {"channel": channel, "seat": seat, "player": player_id, "name": name,
                                          "phrase": None, "emote": None, "text": text})])

    # ================================================================== rematch
    async def rematch(self, player_id: str) -> dict[str, Any] | None:
        """The player of a seat asks to play again; the new table's plan once every person asked.

        The plan (``mode``, ``host``, ``config``, ``seats``) keeps the seats as they are now: the
        people in theirs, the bots (and a bot that took a lost seat for good) in theirs. ``None``
        while a person has not asked yet, or once the rematch's table exists.
        """
        async with self._lock:
            if self.status != "over" or self.game is None or not self.game.is_over:
                raise TableError("not_over", "a rematch is asked for once the game is over")
            seat = self.room.player_seat(player_id)
            if self.next_table is not None:
                return None
            if seat not in self.rematch_seats:
                self.rematch_seats.add(seat)
                await self._commit([("rematch", {"seat": seat})])
            if any(s.human and s.seat not in self.rematch_seats for s in self.seats):
                return None
            return {"mode": self.row.mode, "host": self.row.host, "config": dict(self.row.config),
                    "seats": [Seat(s.seat, kind=s.kind, player_id=s.player_id, name=s.name, bot=s.bot).stored()
                              for s in self.seats]}

    async def link_next(self, table_id: str) -> str:
        """Link the rematch's table; the one linked first wins (returned), a later one is not linked."""
        async with self._lock:
            if self.next_table is None:
                self.next_table = table_id
                await self._commit([("next_table", {"table_id": table_id})])
            return self.next_table

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
            player_ids=self.room.holders(),
            fair=self.fair, started_at=self.started_at or now, ended_at=now,
            signer=load_signer(self.config), server=self.config.server_name)
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
        self.turns.stop()
        self.bots.release(self.id)
        if self._on_over is not None:
            self._on_over(self)

    def close(self) -> None:
        """Stop timers (server shutdown); the stored events keep everything."""
        self._timers.close()

    async def aclose(self) -> None:
        """Stop timers and wait for a bot turn or deadline caught mid-write to finish that write."""
        await self._timers.drain()
