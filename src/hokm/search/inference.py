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
- **Two-player draws.** After the draw, the cards a seat has not seen are exactly the
  opponent's hand and the opponent's discards, thirteen each, and which half a card lies in is
  far from even: a sensible player keeps trumps and winners. Each unseen card gets the odds
  that it is in the opponent's hand rather than among his discards (:func:`kept_odds`), read
  from a table fitted on two-player hands between heuristic players
  (``scripts/fit_keep_model.py``): an unseen trump is in his hand about 85% of the time, an
  unseen low side card about 25%. A deal is weighted by the product of the odds of the
  cards it gives him; the sampler can also draw his hand from those odds directly
  (:class:`hokm.search.sampler.OddsFill`), which costs nothing in effective deals.
- **Throwing off a suit.** A seat that could not follow and did not trump discarded from a suit
  it values least; deals where it still holds many high cards of that suit are less likely.

Weights are relative (only ratios matter) and never zero, so a wrong belief degrades the search
instead of making a real deal impossible.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from ..cards import SUIT_MASKS
from ..engine.phase import Phase
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
#: Two players, ``keep_model="factor"`` (the earlier, coarser model): weight factor per high
#: card (jack or better) in the opponent's hand.
KEEP_FACTOR = 1.25

# Two players, ``keep_model="table"``: the share of unseen cards of each kind that are in the
# opponent's hand at the start of play, from ``python scripts/fit_keep_model.py 40000 7770000``.
# Index ``[opponent is Hâkem][rank]`` for trumps, ``[opponent is Hâkem][higher][rank]`` for side
# cards, where ``higher`` (0..3, 3 meaning three or more) counts the higher cards of the suit the
# viewer had seen when play began, which are the ones the opponent never saw.
KEPT_TRUMP = (
    (0.843, 0.846, 0.844, 0.843, 0.845, 0.844, 0.848, 0.847, 0.845, 0.843, 0.847, 0.844, 0.84),
    (0.697, 0.727, 0.747, 0.773, 0.792, 0.812, 0.831, 0.843, 0.857, 0.865, 0.871, 0.883, 0.884),
)
KEPT_SIDE = (
    (
        (0.239, 0.252, 0.288, 0.326, 0.339, 0.358, 0.402, 0.464, 0.546, 0.613, 0.711, 0.822, 0.84),
        (0.208, 0.253, 0.215, 0.294, 0.296, 0.33, 0.382, 0.416, 0.468, 0.539, 0.642, 0.832, 0.84),
        (0.257, 0.231, 0.263, 0.266, 0.295, 0.304, 0.327, 0.358, 0.385, 0.403, 0.425, 0.827, 0.84),
        (0.239, 0.243, 0.258, 0.275, 0.296, 0.319, 0.348, 0.374, 0.393, 0.416, 0.603, 0.827, 0.84),
    ),
    (
        (0.259, 0.248, 0.254, 0.271, 0.274, 0.372, 0.395, 0.384, 0.439, 0.475, 0.586, 0.71, 0.727),
        (0.269, 0.394, 0.23, 0.311, 0.305, 0.305, 0.306, 0.341, 0.366, 0.416, 0.509, 0.727, 0.727),
        (0.262, 0.258, 0.247, 0.257, 0.263, 0.257, 0.257, 0.268, 0.268, 0.27, 0.279, 0.718, 0.727),
        (0.255, 0.252, 0.256, 0.259, 0.257, 0.26, 0.261, 0.262, 0.266, 0.27, 0.467, 0.718, 0.727),
    ),
)

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


def kept_odds(view: SeatView) -> list[float]:
    """Two players, in play: per card (index 0..51), the odds that an unseen card is in the
    opponent's hand rather than among his discards (``KEPT_TRUMP``/``KEPT_SIDE`` as odds).

    Cards the viewer has seen get odds 1 (they are never placed). The "higher cards seen"
    feature is taken as it was when play began: cards the opponent has played since were
    unseen by the viewer then.
    """
    from .sampler import knowledge  # the sampler does not import this module back

    if view.players != 2 or view.trump is None or view.seat is None:
        raise ValueError("kept-card odds are for a seat of a two-player hand after trump")
    unknown = knowledge(view).unknown
    opp = 1 - view.seat
    unseen_at_start = unknown | _played_by(view)[opp]
    role = int(view.hakem == opp)
    trump = int(view.trump)
    odds = [1.0] * 52
    m = unknown
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        suit, rank = divmod(c, 13)
        if suit == trump:
            share = KEPT_TRUMP[role][rank]
        else:
            above = SUIT_MASKS[suit] & ~((low << 1) - 1)
            higher = min(3, (above & ~unseen_at_start).bit_count())
            share = KEPT_SIDE[role][higher][rank]
        odds[c] = share / (1.0 - share)
    return odds


class Evidence:
    """Precomputed soft evidence for one view; :meth:`weight` scores a sampled deal."""

    def __init__(self, view: SeatView, *, trump_factor: float = TRUMP_FACTOR,
                 throw_factor: float = THROW_FACTOR, keep_factor: float = KEEP_FACTOR,
                 trump_model: str = "choice", keep_model: str = "table") -> None:
        assert view.seat is not None
        if trump_model not in ("choice", "count"):
            raise ValueError(f"trump_model must be 'choice' or 'count', not {trump_model!r}")
        if keep_model not in ("table", "factor"):
            raise ValueError(f"keep_model must be 'table' or 'factor', not {keep_model!r}")
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
        #: two players, "table": per-card odds of being in the opponent's hand (:func:`kept_odds`);
        #: the table already reflects the Hâkem's trump choice, so no per-trump factor on top
        self.odds: list[float] | None = None
        if view.players == 2 and keep_model == "table" and view.phase is Phase.PLAY:
            self.keeper = 1 - view.seat
            self.odds = kept_odds(view)
            self._log_odds = [math.log(x) for x in self.odds]
            self.hakem = None

    @property
    def active(self) -> bool:
        return self.hakem is not None or bool(self.throws) or self.keeper is not None

    def log_weight(self, hands: list[int]) -> float:
        return self.keep_log_weight(hands) + self.residual_log_weight(hands)

    def keep_log_weight(self, hands: list[int]) -> float:
        """The two-player kept-card part of :meth:`log_weight` (0 with three or four players)."""
        if self.keeper is None:
            return 0.0
        if self.odds is None:
            return self.keep_log * (hands[self.keeper] & JACK_UP_MASK).bit_count()
        lw, m, logs = 0.0, hands[self.keeper], self._log_odds
        while m:
            low = m & -m
            lw += logs[low.bit_length() - 1]
            m ^= low
        return lw

    def residual_log_weight(self, hands: list[int]) -> float:
        """:meth:`log_weight` without the kept-card odds: the weight of a deal whose opponent
        hand was drawn from :attr:`odds` already (:class:`hokm.search.sampler.OddsFill`)."""
        lw = 0.0
        if self.hakem is not None:
            holding = hands[self.hakem] | self.played[self.hakem]
            if self.trump_choice:
                counts = tuple((holding & m).bit_count() for m in SUIT_MASKS)
                lw += math.log(max(trump_choice_probability(counts, self.trump), TRUMP_FLOOR))
            else:
                lw += self.trump_log * (holding & self.trump_mask).bit_count()
        for seat, suit in self.throws:
            lw += self.throw_log * (hands[seat] & SUIT_MASKS[suit] & HIGH_RANKS_MASK).bit_count()
        return lw

    def residual_log_weights(self, rows):
        """:meth:`residual_log_weight` of many deals at once, bit for bit: ``rows`` is an
        ``int64`` array with a deal (the hands by seat) per row; returns a float array."""
        import numpy as np

        bits = _suit_bit_counts()
        lw = np.zeros(len(rows))
        if self.hakem is not None:
            holding = rows[:, self.hakem] | self.played[self.hakem]
            counts = np.stack([bits[(holding >> (13 * s)) & 0x1FFF] for s in range(4)], axis=1)
            if self.trump_choice:
                # The likelihood depends on the four suit lengths alone: computed once per shape.
                keys = counts @ np.array([1, 14, 196, 2744], dtype=np.int64)
                shapes, which = np.unique(keys, return_inverse=True)
                logs = np.array([_trump_choice_log(k, self.trump) for k in shapes.tolist()])
                lw += logs[which.reshape(-1)]
            else:
                lw += self.trump_log * counts[:, self.trump]
        for seat, suit in self.throws:
            lw += self.throw_log * bits[(rows[:, seat] & (SUIT_MASKS[suit] & HIGH_RANKS_MASK)) >> (13 * suit)]
        return lw

    def weight(self, hands: list[int]) -> float:
        return math.exp(self.log_weight(hands))


@cache
def _trump_choice_log(key: int, trump: int) -> float:
    """The log term of :meth:`Evidence.residual_log_weight` for suit lengths packed in base 14."""
    counts = (key % 14, key // 14 % 14, key // 196 % 14, key // 2744)
    return math.log(max(trump_choice_probability(counts, trump), TRUMP_FLOOR))


@lru_cache(maxsize=1)
def _suit_bit_counts():
    """Cards in each 13-bit suit holding, as an array indexed by the holding."""
    import numpy as np

    return np.array([m.bit_count() for m in range(1 << 13)], dtype=np.int64)
