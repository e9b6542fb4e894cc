"""People away from a playing table: a bot stands in, the person may come back, or loses the seat.

A seated person disconnected for ``absent_grace`` seconds, or timing out ``timeouts_to_takeover``
decisions in a row, is *taken over*: a bot of the table's level plays for them, and they may take
the seat back (``back``, an action, or joining again) within ``reclaim_window`` seconds; after that
a bot holds the seat for good. The timers are named per seat (``absent:<seat>``, ``lost:<seat>``)
in the table's :class:`~hokm.server.timers.TimerSet`; what fires is the actor's (it takes the lock
and commits the events).

When the last person at a playing table leaves, nobody is taken over: the table waits (``empty``,
at most ``reclaim_window`` seconds) with its clocks stopped, so a player who steps away from a
game against the computer finds it as they left it. Whoever comes back first sets it going again,
and the grace period of each person still away starts then. Nobody back in time: bots stand in for
every person, who may still take their seat back within the usual window. A reclaim window that
was already running runs on. A table restored at start-up does not start paused (everyone's grace
starts again), and a cluster node that took a table over from another never pauses it: it does not
know who is connected through the other nodes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from ..config import ServerConfig
from ..timers import TimerSet
from .room import Room

SeatTask = Callable[[int], Awaitable[None]]


class Absence:
    def __init__(self, room: Room, timers: TimerSet, config: ServerConfig, clock: Callable[[], float], *,
                 on_absent: SeatTask, on_lost: SeatTask, on_empty: Callable[[], Awaitable[None]]) -> None:
        self.room, self.timers, self.config, self.clock = room, timers, config, clock
        self._on_absent, self._on_lost, self._on_empty = on_absent, on_lost, on_empty

    def expect(self, seat: int) -> None:
        """The person of ``seat`` is not connected: a bot takes over unless they come within the grace."""
        self.timers.schedule(f"absent:{seat}", self.config.absent_grace, lambda: self._on_absent(seat))

    def arrived(self, seat: int) -> None:
        self.timers.cancel(f"absent:{seat}")

    def nobody_here(self) -> None:
        """Every person left: no grace period runs while the table waits, for ``reclaim_window`` at most."""
        for s in self.room.seats:
            self.timers.cancel(f"absent:{s.seat}")
        self.timers.schedule("empty", self.config.reclaim_window, self._on_empty)

    def back_from_empty(self) -> None:
        """Someone came back to the waiting table: whoever is still away has their grace period from now."""
        self.timers.cancel("empty")
        for seat in self.away():
            self.expect(seat)

    def away(self) -> list[int]:
        """The seats of the people not connected that no bot stands in for yet."""
        return [s.seat for s in self.room.seats if s.human and not s.auto and not self.room.connected(s.seat)]

    def resume(self) -> None:
        """After a restore: every person is away until they connect; stand-ins keep their window."""
        for s in self.room.seats:
            if s.human and not s.auto:
                self.expect(s.seat)
            elif s.human and s.auto and s.reclaim_until is not None:
                self.timers.schedule(f"lost:{s.seat}", s.reclaim_until - self.clock(), partial(self._on_lost, s.seat))

    def timed_out(self, seat: int) -> bool:
        """Count a timeout of ``seat``; whether it is the one that makes a bot take over."""
        s = self.room.seats[seat]
        s.timeouts += 1
        return s.timeouts >= self.config.timeouts_to_takeover

    def takeover(self, seat: int) -> tuple[str, dict[str, Any]]:
        """A bot stands in for the person of ``seat`` (the seat event)."""
        s = self.room.seats[seat]
        s.auto = True
        s.timeouts = 0
        s.reclaim_until = self.clock() + self.config.reclaim_window
        self.timers.cancel(f"absent:{seat}")
        self.timers.schedule(f"lost:{seat}", self.config.reclaim_window, lambda: self._on_lost(seat))
        return self.room.seat_item(seat, "takeover")

    def can_reclaim(self, seat: int) -> bool:
        s = self.room.seats[seat]
        return s.auto and s.reclaim_until is not None and s.reclaim_until > self.clock()

    def reclaim(self, seat: int) -> tuple[str, dict[str, Any]]:
        """The person of ``seat`` is back (the seat event)."""
        s = self.room.seats[seat]
        s.auto = False
        s.timeouts = 0
        s.reclaim_until = None
        self.timers.cancel(f"lost:{seat}")
        return self.room.seat_item(seat, "reclaim")

    def window_passed(self, seat: int) -> bool:
        s = self.room.seats[seat]
        return s.human and s.auto and s.reclaim_until is not None and s.reclaim_until <= self.clock() + 0.01
