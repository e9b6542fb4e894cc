"""The room of a table: who sits where (a person, a bot, nobody), who is connected, who lost a seat.

It holds the rules of seat changes before the start (sit, seat a bot, free a seat) and refuses
the wrong ones with a :class:`~.errors.TableError`; the actor turns each change into an event.
"""

from __future__ import annotations

from typing import Any

from ..seats import Seat, SeatKind
from .errors import TableError


class Room:
    def __init__(self, seats: list[Seat], host: str | None) -> None:
        self.seats = seats
        self.n = len(seats)
        self.host = host
        self._conns: dict[str, int] = {}  # open connections per player id (seated or watching)
        self.lost_players: set[str] = set()  # people whose seat a bot took for good

    # ------------------------------------------------------------------ reading
    def seat_of(self, player_id: str) -> int | None:
        for s in self.seats:
            if s.human and s.player_id == player_id:
                return s.seat
        return None

    def player_seat(self, player_id: str) -> int:
        """The seat of ``player_id``; ``spectator`` when they hold none."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise TableError("spectator", "you do not hold a seat at this table")
        return seat

    def connected(self, seat: int) -> bool:
        pid = self.seats[seat].player_id
        return bool(pid and self.seats[seat].human and self._conns.get(pid, 0) > 0)

    def anyone_here(self) -> bool:
        """Whether a person holding a seat has a connection open (watchers do not count)."""
        return any(self.connected(s.seat) for s in self.seats)

    def info(self) -> list[dict[str, Any]]:
        """``SeatInfo`` of every seat."""
        return [s.info(self.connected(s.seat)) for s in self.seats]

    def stored(self) -> list[dict[str, Any]]:
        return [s.stored() for s in self.seats]

    def holders(self) -> list[str | None]:
        """The player id holding each seat (``None``: a bot or nobody)."""
        return [s.player_id if s.human else None for s in self.seats]

    def watched(self, holders: list[str | None]) -> bool:
        """Whether a connection on this node belongs to someone holding none of the seats ``holders``
        (a spectator's)."""
        return any(pid not in holders for pid in self._conns)

    def empty(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind is SeatKind.EMPTY]

    def seat_item(self, seat: int, reason: str) -> tuple[str, dict[str, Any]]:
        """The ``seat`` event for the seat as it is now."""
        return ("seat", {"seat": seat, "reason": reason, "info": self.seats[seat].stored()})

    # ------------------------------------------------------------------ connections
    def connect(self, player_id: str) -> int:
        """One more connection of ``player_id``; how many it has now."""
        self._conns[player_id] = self._conns.get(player_id, 0) + 1
        return self._conns[player_id]

    def disconnect(self, player_id: str) -> int:
        """One connection of ``player_id`` fewer; how many are left."""
        left = self._conns.get(player_id, 0) - 1
        if left > 0:
            self._conns[player_id] = left
        else:
            self._conns.pop(player_id, None)
        return max(0, left)

    # ------------------------------------------------------------------ seat changes before the start
    def _seat(self, seat: int) -> Seat:
        if not 0 <= seat < self.n:
            raise TableError("no_such_seat", f"seats are 0 to {self.n - 1}")
        return self.seats[seat]

    def sit(self, player_id: str, name: str, seat: int) -> None:
        s = self._seat(seat)
        held = self.seat_of(player_id)
        if held is not None:
            raise TableError("already_seated", f"you already hold seat {held}")
        if s.kind is not SeatKind.EMPTY:
            raise TableError("seat_taken", f"seat {seat} is taken")
        self.seats[seat] = Seat(seat, kind=SeatKind.HUMAN, player_id=player_id, name=name)

    def seat_bot(self, player_id: str, seat: int, level: str) -> None:
        if player_id != self.host:
            raise TableError("not_host", "only the host seats bots")
        if self._seat(seat).kind is SeatKind.HUMAN:
            raise TableError("seat_taken", f"seat {seat} is taken by a player")
        self.seats[seat] = Seat(seat, kind=SeatKind.BOT, name=f"{level} bot", bot=level)

    def free(self, player_id: str, seat: int) -> None:
        s = self._seat(seat)
        if s.kind is SeatKind.EMPTY:
            raise TableError("not_seated", f"seat {seat} is already free")
        if s.player_id != player_id and player_id != self.host:
            raise TableError("not_host", "only the host frees another seat")
        self.seats[seat] = Seat(seat)

    def give_to_bot(self, seat: int, level: str) -> str | None:
        """A bot takes the seat for good (the reclaim window passed); the former player's id."""
        s = self.seats[seat]
        self.seats[seat] = Seat(seat, kind=SeatKind.BOT, name=s.name, bot=level)
        if s.player_id:
            self.lost_players.add(s.player_id)
        return s.player_id
