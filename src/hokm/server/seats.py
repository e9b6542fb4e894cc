"""Who holds a seat at a table: a person, a bot, or nobody; and whether a bot stands in for the person.

The stored form (:meth:`Seat.stored`) goes into ``seat`` events and the ``tables`` row; whether
the person is connected is live state the actor adds when it shows the seat (``SeatInfo``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .codes import typed_code


class SeatKind(str, Enum):
    """Who holds a seat; the value is what seat events and the ``tables`` row store."""

    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"

    def __str__(self) -> str:
        return self.value


@dataclass
class Seat:
    seat: int
    kind: SeatKind = SeatKind.EMPTY
    player_id: str | None = None
    name: str | None = None
    bot: str | None = None
    auto: bool = False
    reclaim_until: float | None = None
    timeouts: int = 0  # runtime only: timeouts in a row

    def info(self, connected: bool = False) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind.value, "player_id": self.player_id, "name": self.name,
                "bot": self.bot, "connected": connected, "auto": self.auto, "reclaim_until": self.reclaim_until}

    def stored(self) -> dict[str, Any]:
        return self.info()

    @classmethod
    def from_info(cls, d: dict[str, Any]) -> Seat:
        return cls(seat=d["seat"], kind=SeatKind(d["kind"]), player_id=d.get("player_id"), name=d.get("name"),
                   bot=d.get("bot"), auto=bool(d.get("auto")), reclaim_until=d.get("reclaim_until"))

    @property
    def human(self) -> bool:
        return self.kind is SeatKind.HUMAN


def is_member(info: dict[str, Any], player_id: str) -> bool:
    """Whether the player hosts or holds a seat of the table whose ``TableInfo`` is ``info``."""
    return info["host"] == player_id or any(s["player_id"] == player_id for s in info["seats"])


def code_matches(info: dict[str, Any], typed: str | None) -> bool:
    """Whether ``typed`` is the table's invite code (as people type it: :func:`~.codes.typed_code`)."""
    return bool(info["code"]) and typed_code(typed or "") == info["code"]
