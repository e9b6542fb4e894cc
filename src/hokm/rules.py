"""Rule options of a game and the facts that follow from them (deal packets, sides, trick targets).

Everything here is decided by ``shared/RULES-NOTES.md``; the engine reads these helpers rather than
repeating the numbers, so a rule is written down in exactly one place.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .cards import Card

#: Keys accepted in a ``rules`` object (records, server tables, CLI).
RULE_KEYS = ("target_points", "kot_points", "hakem_koti_points", "partner_draw", "removed_two")


def side_of(seat: int, players: int) -> int:
    """The side a seat plays for: team ``seat % 2`` with four players (partners sit opposite),
    the seat itself with two and three."""
    return seat % 2 if players == 4 else seat


def partner_of(seat: int, players: int) -> int | None:
    """The seat opposite ``seat`` with four players; ``None`` with two and three (no partners)."""
    return (seat + 2) % 4 if players == 4 else None


class RulesError(ValueError):
    """A rules object that cannot describe a game."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one game.

    ``kot_points`` is what a side scores for taking the first seven tricks while holding the
    Hâkem; ``hakem_koti_points`` when it does so against the Hâkem. ``removed_two`` is the card
    taken out for three players. ``partner_draw`` (4 players) lets the ace draw pick the Hâkem's
    partner, who then moves opposite him.
    """

    players: int = 4
    target_points: int = 7
    kot_points: int = 2
    hakem_koti_points: int = 3
    partner_draw: bool = False
    removed_two: str = field(default="2C")

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in (2, 3, 4):
            raise RulesError(f"players must be 2, 3 or 4, not {self.players!r}")
        for name in ("target_points", "kot_points", "hakem_koti_points"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 100:
                raise RulesError(f"{name} must be a whole number from 1 to 100, not {v!r}")
        if not isinstance(self.partner_draw, bool):
            raise RulesError(f"partner_draw must be true or false, not {self.partner_draw!r}")
        if self.partner_draw and self.players != 4:
            raise RulesError("partner_draw is a 4-player option")
        try:
            two = Card.parse(self.removed_two)
        except ValueError:
            two = None
        if two is None or two.rank != 0:
            raise RulesError(f"removed_two must be one of 2S, 2H, 2D, 2C, not {self.removed_two!r}")
        object.__setattr__(self, "removed_two", str(two))

    # ----- derived facts -------------------------------------------------------------------
    @property
    def sides(self) -> int:
        """Number of sides: two teams with 4 players, else one side per seat."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    def seats_of(self, side: int) -> tuple[int, ...]:
        return (side, side + 2) if self.players == 4 else (side,)

    @property
    def deck_size(self) -> int:
        return 51 if self.players == 3 else 52

    @property
    def removed_cards(self) -> tuple[Card, ...]:
        return (Card.parse(self.removed_two),) if self.players == 3 else ()

    @property
    def hand_size(self) -> int:
        """Cards each seat holds when play begins."""
        return 17 if self.players == 3 else 13

    @property
    def packets(self) -> tuple[int, ...]:
        """Deal packets per round (4 and 3 players)."""
        return (5, 4, 4, 4) if self.players == 3 else (5, 4, 4)

    @property
    def total_tricks(self) -> int:
        return self.hand_size

    # ----- (de)serialisation ---------------------------------------------------------------
    def to_dict(self, include_defaults: bool = True) -> dict[str, Any]:
        d = asdict(self)
        d.pop("players")
        if not include_defaults:
            base = Rules(players=self.players)
            d = {k: v for k, v in d.items() if getattr(base, k) != v}
        return d

    @classmethod
    def from_dict(cls, players: int, data: dict[str, Any] | None) -> Rules:
        """Build from a ``rules`` object; unknown keys are an error."""
        data = data or {}
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        unknown = sorted(set(data) - set(RULE_KEYS))
        if unknown:
            raise RulesError(f"unknown rules key(s): {', '.join(unknown)} (known: {', '.join(RULE_KEYS)})")
        return cls(players=players, **data)


#: Two-player draw phase: the stock is emptied by this many keep/pass turns (Hâkem 11, other 10).
TWO_PLAYER_DRAW_TURNS = 21
#: Two-player discards after trump: the Hâkem discards 3 of his 5, the other player 2.
TWO_PLAYER_DISCARDS = (3, 2)
#: Tricks that win a hand outright with 4 and 2 players; also the kot threshold with 3.
TRICKS_TO_WIN = 7
