"""Soft evidence: how much more likely a sampled deal is, given the choices others made.

The sampler (:mod:`hokm.search.sampler`) only enforces facts. Choices carry information too, but
not certainty, so they become weights on sampled deals instead of filters:

- **The Hâkem's trump.** He chose it from his first five cards, so deals where he holds more of
  it are likelier. With 4 and 3 players the viewer cannot tell which of his cards came in that
  first packet, so the weight uses his whole holding of the suit (in hand now plus played).
- **Two-player draws.** The opponent kept the better card of each pair he saw and discarded
  low cards, so deals where his hand holds more high cards are likelier.
- **Throwing off a suit.** A seat that could not follow and did not trump discarded from a suit
  it values least; deals where it still holds many high cards of that suit are less likely.

Weights are relative (only ratios matter) and never zero, so a wrong belief degrades the search
instead of making a real deal impossible.
"""

from __future__ import annotations

import math

from ..cards import SUIT_MASKS
from ..engine.view import SeatView

#: Weight factor per trump the Hâkem held (a 5-card choice is weakly but clearly informative).
TRUMP_FACTOR = 1.45
#: Weight factor per high card (queen or better) kept in a suit a seat chose to throw off.
THROW_FACTOR = 0.8
#: Two players: weight factor per high card (jack or better) in the opponent's hand. He kept
#: the better of each pair he saw in the draw and threw away low cards, so his hand is not a
#: random 13 of the unseen cards: the unseen cards left over (his discards) are the weak ones.
KEEP_FACTOR = 1.25
JACK_UP_MASK = sum(0b1111 << (9 + 13 * s) for s in range(4))  # J, Q, K, A of every suit
HIGH_RANKS_MASK = sum(0b111 << (10 + 13 * s) for s in range(4))  # Q, K, A of every suit


def _played_by(view: SeatView) -> list[int]:
    n = view.players
    out = [0] * n
    for t in view.completed:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) % n] |= 1 << c
    for s, c in view.trick:
        out[s] |= 1 << c
    return out


def _throw_offs(view: SeatView) -> list[tuple[int, int]]:
    """``(seat, suit)`` for every card thrown off a suit it could not follow, without trumping."""
    n = view.players
    out = []
    tricks = [(t.leader, t.cards) for t in view.completed]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    trump = view.trump
    for leader, cards in tricks:
        led = cards[0] // 13
        for i, c in enumerate(cards[1:], start=1):
            s = c // 13
            if s != led and s != trump:
                out.append(((leader + i) % n, s))
    return out


class Evidence:
    """Precomputed soft evidence for one view; :meth:`weight` scores a sampled deal."""

    def __init__(self, view: SeatView, *, trump_factor: float = TRUMP_FACTOR,
                 throw_factor: float = THROW_FACTOR, keep_factor: float = KEEP_FACTOR) -> None:
        assert view.seat is not None
        self.seat = view.seat
        self.trump_log = math.log(trump_factor)
        self.throw_log = math.log(throw_factor)
        self.played = _played_by(view)
        self.hakem = view.hakem if view.trump is not None and view.hakem != view.seat else None
        self.trump_mask = SUIT_MASKS[view.trump] if view.trump is not None else 0
        self.throws = [(s, t) for s, t in _throw_offs(view) if s != view.seat]
        self.keeper = 1 - view.seat if view.players == 2 and keep_factor != 1.0 else None
        self.keep_log = math.log(keep_factor)

    @property
    def active(self) -> bool:
        return self.hakem is not None or bool(self.throws) or self.keeper is not None

    def log_weight(self, hands: list[int]) -> float:
        lw = 0.0
        if self.hakem is not None:
            held = (hands[self.hakem] | self.played[self.hakem]) & self.trump_mask
            lw += self.trump_log * held.bit_count()
        if self.keeper is not None:
            lw += self.keep_log * (hands[self.keeper] & JACK_UP_MASK).bit_count()
        for seat, suit in self.throws:
            lw += self.throw_log * (hands[seat] & SUIT_MASKS[suit] & HIGH_RANKS_MASK).bit_count()
        return lw

    def weight(self, hands: list[int]) -> float:
        return math.exp(self.log_weight(hands))
