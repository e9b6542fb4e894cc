"""Who holds a seat at a table: a person, a bot, or nobody; and whether a bot stands in for the person.

The stored form (:meth:`Seat.stored`) goes into ``seat`` events and the ``tables`` row; whether
the person is connected is live state the actor adds when it shows the seat (``SeatInfo``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Seat:
    seat: int
    kind: str = "empty"  # empty, human, bot
    player_id: str | None = None
    name: str | None = None
    bot: str | None = None
    auto: bool = False
    reclaim_until: float | None = None
    timeouts: int = 0  # runtime only: timeouts in a row

    def info(self, connected: bool = False) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "player_id": self.player_id, "name": self.name,
                "bot": self.bot, "connected": connected, "auto": self.auto, "reclaim_until": self.reclaim_until}

    def stored(self) -> dict[str, Any]:
        return self.info()

    @classmethod
    def from_info(cls, d: dict[str, Any]) -> "Seat":
        return cls(seat=d["seat"], kind=d["kind"], player_id=d.get("player_id"), name=d.get("name"),
                   bot=d.get("bot"), auto=bool(d.get("auto")), reclaim_until=d.get("reclaim_until"))

    @property
    def human(self) -> bool:
        return self.kind == "human"
