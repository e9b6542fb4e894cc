"""Who decides next at a playing table, and when: the next deal, a bot's move, or a person's deadline.

After each game event the actor asks :meth:`Turns.plan`: a deal after ``hand_pause``; a bot move
for a bot seat or a seat a bot stands in for (decided off the event loop by the bot pool, shown
after the bot delay); or a public deadline for a person, on which a bot of the table's level plays
for them. :meth:`Turns.arm` starts the one ``decision`` timer. Each decision is known by the
sequence number of the event that opened it: an answer that arrives after the decision moved on
is dropped. A table nobody is at is *paused* (:meth:`Turns.pause`): no deal, no bot move and no
deadline until someone comes back.
"""

from __future__ import annotations

import asyncio
import time
from enum import Enum
from typing import Any, Protocol

from ...engine import Game, Phase
from ..botpool import BotPool
from ..config import ServerConfig
from ..seats import SeatKind
from ..thinking import BotThinking
from ..timers import TimerSet
from .room import Room


class Next(str, Enum):
    """What the next decision timer does. The values of the three moves are the ``by`` of the action
    event they make (a bot's seat, a bot standing in for a person, a person's deadline passed)."""

    DEAL = "deal"
    BOT = "bot"
    AUTO = "auto"
    TIMEOUT = "timeout"


class TurnHost(Protocol):
    """What the turns need of their table (the actor)."""

    id: str
    level: str
    status: str
    game: Game | None
    room: Room
    timer_secs: dict[str, float]

    @property
    def lock(self) -> asyncio.Lock: ...

    async def apply_action(self, seat: int, action: Any, by: str) -> None: ...

    async def deal_next(self) -> None: ...


class Turns:
    def __init__(self, host: TurnHost, timers: TimerSet, bots: BotPool, config: ServerConfig,
                 clock: Any = time.time) -> None:
        self.host, self.timers, self.bots, self.config, self.clock = host, timers, bots, config, clock
        self.deadline: dict[str, Any] | None = None  # public: {"seat", "kind", "at", "seconds"}
        self.decision = -1  # seq of the event that opened the current decision
        self._plan: tuple[Next, int | None, float] | None = None
        self.paused = False
        self.thinking = BotThinking(config.bot_delay)  # how long each bot decision seems to take

    def plan(self, decision: int) -> None:
        """Decide who acts next and set the public deadline; :meth:`arm` starts the timer."""
        self.decision = decision
        self.deadline = None
        self._plan = None
        h = self.host
        g = h.game
        if self.paused or g is None or h.status != "playing" or g.is_over:
            return
        if g.phase is Phase.DEAL:
            self._plan = (Next.DEAL, None, self.config.hand_pause)
            return
        seat = g.to_move
        assert seat is not None
        s = h.room.seats[seat]
        if s.kind is SeatKind.BOT or s.auto:
            self._plan = (Next.BOT if s.kind is SeatKind.BOT else Next.AUTO, seat, self.thinking.delay(g))
            return
        secs = float(h.timer_secs[g.phase.value])
        self.deadline = {"seat": seat, "kind": g.phase.value, "at": self.clock() + secs, "seconds": secs}
        self._plan = (Next.TIMEOUT, seat, secs)

    def arm(self) -> None:
        self.timers.cancel("decision")
        if self._plan is None:
            return
        what, seat, delay = self._plan
        dec = self.decision
        if what is Next.DEAL:
            self.timers.schedule("decision", delay, lambda: self._deal(dec))
        elif what is Next.TIMEOUT:
            self.timers.schedule("decision", delay, lambda: self._bot_move(dec, seat, Next.TIMEOUT.value, 0.0))
        else:
            self.timers.schedule("decision", 0.0, lambda: self._bot_move(dec, seat, what.value, delay))

    def stop(self) -> None:
        self.deadline = None

    def pause(self) -> None:
        """Nobody is at the table: nothing moves (an answer a bot is still thinking out is dropped) and
        no clock runs until :meth:`resume`, then a new :meth:`plan`."""
        self.paused = True
        self.decision = -1
        self.deadline = None
        self._plan = None
        self.timers.cancel("decision")

    def resume(self) -> None:
        self.paused = False

    async def _bot_move(self, dec: int, seat: int | None, by: str, delay: float) -> None:
        assert seat is not None
        h = self.host
        started = time.monotonic()
        async with h.lock:
            if dec != self.decision or h.game is None or h.game.to_move != seat:
                return
            view = h.game.view(seat)
            s = h.room.seats[seat]
            level = s.bot if s.kind is SeatKind.BOT else h.level
        action = await self.bots.decide(h.id, seat, level or h.level, view)
        rest = delay - (time.monotonic() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        async with h.lock:
            if dec != self.decision:
                return
            await h.apply_action(seat, action, by)

    async def _deal(self, dec: int) -> None:
        h = self.host
        async with h.lock:
            if dec != self.decision or h.game is None or h.game.phase is not Phase.DEAL:
                return
            await h.deal_next()
