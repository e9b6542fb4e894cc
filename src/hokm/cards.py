"""Cards, suits and ranks.

A card is one of 52 interned :class:`Card` objects. ``Card`` subclasses ``int`` (its index
``suit * 13 + rank``) so that sets of cards can be held as 52-bit masks and compared cheaply,
while ``str(card)`` is the two-character notation used everywhere else: rank
``23456789TJQKA`` followed by suit ``SHDC`` (``"AS"``, ``"TD"``; ``"10D"`` is accepted on input).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"


class Suit(IntEnum):
    """The four suits, in the order of ``SHDC``."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``"S"``/``"H"``/``"D"``/``"C"`` (any case) or a symbol; raise ``ValueError``."""
        if isinstance(text, str):
            t = text.strip().upper()
            if len(t) == 1 and t in SUIT_CHARS:
                return cls(SUIT_CHARS.index(t))
            if len(t) == 1 and t in "♠♥♦♣":
                return cls("♠♥♦♣".index(t))
            names = {s.name: s for s in cls}
            if t in names:
                return names[t]
        raise ValueError(f"not a suit: {text!r} (expected one of S, H, D, C)")

    def __str__(self) -> str:
        return SUIT_CHARS[self]


class Card(int):
    """One playing card; an interned ``int`` from 0 to 51 (``suit * 13 + rank``).

    Rank 0 is the two and rank 12 the ace, so comparing ranks within a suit is comparing ints.
    Build cards with :meth:`Card.parse` or :data:`CARDS`; ``Card(i)`` returns the interned object.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if isinstance(index, int) and not 0 <= index < 52:  # CARDS[-1] would be the ace of clubs
            raise ValueError(f"card index out of range: {index!r}")
        try:
            return CARDS[index]
        except (IndexError, TypeError, NameError):
            if isinstance(index, int) and 0 <= index < 52:
                return int.__new__(cls, index)
            raise ValueError(f"card index out of range: {index!r}") from None

    @property
    def suit(self) -> Suit:
        return SUITS[self // 13]

    @property
    def rank(self) -> int:
        """0 (two) .. 12 (ace)."""
        return self % 13

    @property
    def mask(self) -> int:
        return 1 << self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"AS"``, ``"td"``, ``"10H"``; raise ``ValueError`` with the reason otherwise."""
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r} (expected a string such as 'AS')")
        t = text.strip().upper()
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
            raise ValueError(f"not a card: {text!r} (rank 23456789TJQKA then suit SHDC, e.g. 'AS')")
        return CARDS[SUIT_CHARS.index(t[1]) * 13 + RANK_CHARS.index(t[0])]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:  # pickles as an index so interning survives
        return (Card, (int(self),))


SUITS: tuple[Suit, ...] = tuple(Suit)
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
#: Each card's name ("AS"), made once: views and records name cards on every event.
_NAMES: tuple[str, ...] = tuple(RANK_CHARS[i % 13] + SUIT_CHARS[i // 13] for i in range(52))
FULL_DECK_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def card_of(value: Card | str | int) -> Card:
    """Coerce a card given as ``Card``, notation string or index."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Card(value)
    raise ValueError(f"not a card: {value!r}")


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Parse a list of card strings, or a space separated string."""
    if isinstance(texts, str):
        texts = texts.split()
    return [card_of(t) for t in texts]


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: int) -> list[Card]:
    """The cards of a mask, lowest index first (spades two .. clubs ace)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


#: Per suit, the names of the cards of each 13-bit holding, made on first use (``card_names``).
_SUIT_NAMES: tuple[dict[int, tuple[str, ...]], ...] = ({}, {}, {}, {})


def card_names(mask: int) -> list[str]:
    """The names of a mask's cards in :func:`cards_in`'s order: ``[str(c) for c in cards_in(mask)]``.

    A view lists every hand by name after every action; each suit's holding is looked up whole.
    """
    out: list[str] = []
    for s in range(4):
        bits = (mask >> (13 * s)) & 0x1FFF
        if bits:
            names = _SUIT_NAMES[s].get(bits)
            if names is None:
                names = _SUIT_NAMES[s][bits] = tuple(_NAMES[c] for c in cards_in(bits << (13 * s)))
            out += names
    return out


def iter_cards(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def full_deck(removed: Iterable[Card] = ()) -> list[Card]:
    """A fresh deck in index order, without the ``removed`` cards."""
    gone = mask_of(removed)
    return [c for c in CARDS if not (gone >> c) & 1]


def sort_hand(cards: Iterable[Card], trump: Suit | None = None) -> list[Card]:
    """Sort for display: by suit (trump first when known), high ranks first within a suit."""
    def key(c: Card) -> tuple[int, int]:
        s = c // 13
        return (0 if trump is not None and s == trump else 1 + s, -(c % 13))

    return sorted(cards, key=key)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)
