"""The four kinds of decision a seat makes, as small immutable values.

``Play`` objects are interned per card so that listing legal moves allocates nothing; compare
actions with ``==``. Every action converts to and from a JSON object (``to_json``/``action_from_json``),
which is what bots speaking the external protocol and web clients send.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..cards import CARDS, Card, Suit, card_of


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The Hâkem names the trump suit (hokm)."""

    suit: Suit

    def to_json(self) -> dict[str, Any]:
        return {"type": "trump", "suit": str(self.suit)}

    def __str__(self) -> str:
        return f"trump {self.suit}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Two players only: put cards face down before the draw (3 for the Hâkem, then 2)."""

    cards: frozenset[Card]

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "cards": [str(c) for c in sorted(self.cards)]}

    def __str__(self) -> str:
        return "discard " + " ".join(str(c) for c in sorted(self.cards))


@dataclass(frozen=True, slots=True)
class Draw:
    """Two players only: keep the top card of the stock (and discard the next), or pass it."""

    keep: bool

    @property
    def choice(self) -> str:
        return "keep" if self.keep else "pass"

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw", "choice": self.choice}

    def __str__(self) -> str:
        return self.choice


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "card": str(self.card)}

    def __str__(self) -> str:
        return str(self.card)


Action = ChooseTrump | Discard | Draw | Play

PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
TRUMPS: tuple[ChooseTrump, ...] = tuple(ChooseTrump(s) for s in Suit)
KEEP = Draw(True)
PASS = Draw(False)


def discard_options(hand: Iterable[Card], count: int) -> list[Discard]:
    return [Discard(frozenset(c)) for c in combinations(sorted(hand), count)]


def action_from_json(data: Any) -> Action:
    """Parse an action object; raise ``ValueError`` with the reason when it is malformed."""
    if not isinstance(data, dict):
        raise ValueError("an action must be a JSON object with a 'type'")
    kind = data.get("type")
    try:
        if kind == "play":
            return PLAYS[card_of(data["card"])]
        if kind == "trump":
            return TRUMPS[Suit.parse(data["suit"])]
        if kind == "draw":
            choice = data["choice"]
            if choice not in ("keep", "pass"):
                raise ValueError(f"draw choice must be 'keep' or 'pass', not {choice!r}")
            return KEEP if choice == "keep" else PASS
        if kind == "discard":
            cards = data["cards"]
            if not isinstance(cards, list):
                raise ValueError("discard cards must be a list")
            parsed = [card_of(c) for c in cards]
            if len(set(parsed)) != len(parsed):
                raise ValueError("discard lists a card twice")
            return Discard(frozenset(parsed))
    except KeyError as e:
        raise ValueError(f"action of type {kind!r} is missing {e.args[0]!r}") from None
    raise ValueError(f"unknown action type {kind!r} (expected play, trump, discard or draw)")


def as_action(value: Any) -> Action:
    """Accept an action, a ``Card`` or card string (a play), a ``Suit`` (trump), or JSON."""
    if isinstance(value, (ChooseTrump, Discard, Draw, Play)):
        return value
    if isinstance(value, Card):
        return PLAYS[value]
    if isinstance(value, Suit):
        return TRUMPS[value]
    if isinstance(value, dict):
        return action_from_json(value)
    if isinstance(value, str):
        if value in ("keep", "pass"):
            return KEEP if value == "keep" else PASS
        return PLAYS[card_of(value)]
    raise ValueError(f"not an action: {value!r}")
