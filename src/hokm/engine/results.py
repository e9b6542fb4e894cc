"""What play leaves behind: a finished trick (:class:`TrickRecord`) and a hand's outcome
(:class:`HandResult`). Plain immutable values, shared by the game, the seat views and the clients."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card, Suit


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A finished trick: who led, the cards in play order from the leader, who won."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seats(self, players: int) -> tuple[int, ...]:
        return tuple((self.leader + i) % players for i in range(len(self.cards)))


@dataclass(frozen=True, slots=True)
class HandResult:
    """The public outcome of one hand (also used for the hand in progress, ``finished=False``).

    ``tie``: three players only, the hand went to ``winner`` because the other two tied for the
    most tricks after the last one (RULES-NOTES, "End of a hand"): the winner holds the fewest.
    """

    hakem: int
    trump: Suit | None
    tricks: tuple[int, ...]
    winner: int | None
    points: int
    kot: bool
    hakem_koti: bool
    finished: bool
    tie: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "hakem": self.hakem,
            "trump": None if self.trump is None else str(self.trump),
            "tricks": list(self.tricks),
            "winner": self.winner,
            "points": self.points,
            "kot": self.kot,
        }

    def view_json(self) -> dict[str, Any]:
        """As in a view and a ``hand_over`` event: :meth:`to_json` with how the hand was won."""
        return self.to_json() | {"hakem_koti": self.hakem_koti, "tie": self.tie}
