"""Soft evidence: how much more likely a sampled deal is, given the choices others made.

The sampler (:mod:`hokm.search.sampler`) only enforces facts. Choices carry information too, but
not certainty, so they become weights on sampled deals instead of filters:

- **The Hâkem's trump.** He chose it from his first five cards. With 4 and 3 players the viewer
  cannot tell which of his cards came in that first packet, so a deal is weighted by how likely
  a player who names the longest suit of his first five (the usual rule, and the heuristic
  bot's) would have named this trump, had his whole holding (in hand now plus played) been
  dealt: five cards drawn at random from it, length ties split evenly
  (:func:`trump_choice_probability`). A Hâkem with one trump in thirteen cards could not have
  chosen it that way at all, one with six nearly always would; a small floor keeps deals
  possible for a player who chooses by other reasons. With two players he kept only two of
  those five, so the weight is a plain factor per trump held.
- **Two-player draws.** The opponent kept the better card of each pair he saw and discarded
  low cards, so deals where his hand holds more high cards are likelier.
- **Throwing off a suit.** A seat that could not follow and did not trump discarded from a suit
  it values least; deals where it still holds many high cards of that suit are less likely.

Weights are relative (only ratios matter) and never zero, so a wrong belief degrades the search
instead of making a real deal impossible.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ..cards import SUIT_MASKS
from ..engine.view import SeatView

#: Two players: weight factor per trump the Hâkem holds (a 5-card choice is weakly but clearly
#: informative, and he kept the two best of those five).
TRUMP_FACTOR = 1.45
#: 4 and 3 players: the least weight a deal gets from the trump choice, however unlikely the
#: longest-suit rule makes it (players do sometimes name a short suit of high cards).
TRUMP_FLOOR = 0.02
#: Cards the Hâkem sees before naming trump.
FIRST_PACKET = 5
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


@lru_cache(maxsize=8192)
def trump_choice_probability(counts: tuple[int, ...], suit: int, first: int = FIRST_PACKET) -> float:
    """Chance that ``suit`` is the longest suit of ``first`` cards drawn at random from a holding
    with ``counts`` cards per suit (a tie for longest shared evenly among the tied suits).

    Exact over the suit-count compositions of the packet (multivariate hypergeometric), so it
    costs a few dozen products per distinct holding shape, and shapes repeat: it is cached.
    """
    total = math.comb(sum(counts), first)
    if total == 0:
        return 0.0
    acc = 0.0

    def walk(i: int, left: int, ways: int, picked: tuple[int, ...]) -> None:
        nonlocal acc
        if i == len(counts) - 1:
            if left > counts[i]:
                return
            ks = picked + (left,)
            w = ways * math.comb(counts[i], left)
            top = max(ks)
            if ks[suit] == top:
                acc += w / ks.count(top)
            return
        for k in range(min(left, counts[i]) + 1):
            walk(i + 1, left - k, ways * math.comb(counts[i], k), picked + (k,))

    walk(0, first, 1, ())
    return acc / total


class Evidence:
    """Precomputed soft evidence for one view; :meth:`weight` scores a sampled deal."""

    def __init__(self, view: SeatView, *, trump_factor: float = TRUMP_FACTOR,
                 throw_factor: float = THROW_FACTOR, keep_factor: float = KEEP_FACTOR,
                 trump_model: str = "choice") -> None:
        assert view.seat is not None
        if trump_model not in ("choice", "count"):
            raise ValueError(f"trump_model must be 'choice' or 'count', not {trump_model!r}")
        self.seat = view.seat
        self.trump_log = math.log(trump_factor)
        # "count": a factor per trump held; "choice": the longest-suit-of-five likelihood.
        self.trump_choice = trump_model == "choice" and view.players != 2
        self.trump = None if view.trump is None else int(view.trump)
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
            holding = hands[self.hakem] | self.played[self.hakem]
            if self.trump_choice:
                counts = tuple((holding & m).bit_count() for m in SUIT_MASKS)
                lw += math.log(max(trump_choice_probability(counts, self.trump), TRUMP_FLOOR))
            else:
                lw += self.trump_log * (holding & self.trump_mask).bit_count()
        if self.keeper is not None:
            lw += self.keep_log * (hands[self.keeper] & JACK_UP_MASK).bit_count()
        for seat, suit in self.throws:
            lw += self.throw_log * (hands[seat] & SUIT_MASKS[suit] & HIGH_RANKS_MASK).bit_count()
        return lw

    def weight(self, hands: list[int]) -> float:
        return math.exp(self.log_weight(hands))
