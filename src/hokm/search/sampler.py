"""Deals consistent with what one seat has seen, built only from its :class:`SeatView`.

Search over hidden cards (PIMC) needs hypothetical deals: every seat's hand filled in so that
the deal agrees with everything the seat knows. This module gathers that knowledge from the
view alone (so a sampled deal can never leak a real hidden card) and draws deals from it:

- the seat's own hand, every card played, the hand sizes of the others;
- voids: a seat that did not follow the suit led holds none of it from then on;
- two players: the seat's own discards and the stock cards it looked at are not in the
  opponent's hand (the opponent's discards stay among the unknown cards);
- before trump (4 and 3 players) the hands are filled up to their full size, the caller's own too.

Soft evidence (the Hâkem's trump choice, ...) is not applied here: :mod:`hokm.search.inference`
weights the deals drawn here.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from ..cards import SUIT_MASKS, Card, cards_in, full_deck, mask_of
from ..engine.view import SeatView


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about where the cards are.

    ``known[s]`` are cards certainly in seat ``s``'s hand, ``need[s]`` how many more cards it
    holds among ``unknown``, and ``banned[s]`` a card mask it cannot hold (its void suits).
    Cards of ``unknown`` not given to any seat are elsewhere (the 2-player stock or discards).
    """

    players: int
    seat: int
    unknown: int
    known: tuple[int, ...]
    need: tuple[int, ...]
    banned: tuple[int, ...]

    @property
    def unknown_count(self) -> int:
        return self.unknown.bit_count()

    def deal_count(self) -> int:
        """How many deals agree with the hard constraints, ignoring voids (an upper bound)."""
        rest = self.unknown_count
        total = 1
        for n in self.need:
            total *= math.comb(rest, n)
            rest -= n
        return total


def voids_of(view: SeatView) -> list[int]:
    """Per seat, the mask of suits it has shown it does not hold (failed to follow)."""
    n = view.players
    banned = [0] * n
    tricks = [(t.leader, t.cards) for t in view.completed]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    for leader, cards in tricks:
        led = cards[0] // 13
        for i, c in enumerate(cards[1:], start=1):
            if c // 13 != led:
                banned[(leader + i) % n] |= SUIT_MASKS[led]
    return banned


def knowledge(view: SeatView, *, complete: bool = False) -> Knowledge:
    """Collect the seat's knowledge from its view.

    ``complete=True`` (4 and 3 players, before trump) asks for full hands: each seat, the
    viewer included, is filled up to the hand size from the cards not yet dealt.
    """
    if view.seat is None:
        raise ValueError("a spectator view has no seat to sample deals for")
    n, me = view.players, view.seat
    deck = mask_of(full_deck(view.rules.removed_cards))
    mine = mask_of(view.hand)
    played = mask_of(view.played_cards())
    seen = mine | played
    if n == 2:
        seen |= mask_of(view.discards)
        for first, second, _ in view.draw_log:
            seen |= (1 << first) | (1 << second)
        if view.draw_card is not None:
            seen |= 1 << view.draw_card
    unknown = deck & ~seen
    known = [0] * n
    known[me] = mine
    if complete:
        if n == 2:
            raise ValueError("complete deals are for 3 and 4 players before trump")
        size = view.rules.hand_size
        need = [size - len(view.hand) if s == me else size for s in range(n)]
    else:
        need = [0 if s == me else view.hand_counts[s] for s in range(n)]
    if sum(need) > unknown.bit_count():
        raise ValueError(f"view is inconsistent: {sum(need)} hidden cards to place, "
                         f"only {unknown.bit_count()} unknown")
    banned = voids_of(view)
    banned[me] = 0
    return Knowledge(n, me, unknown, tuple(known), tuple(need), tuple(banned))


def sample_deal(kn: Knowledge, rng: random.Random, *, tries: int = 200) -> list[int]:
    """One deal (a mask per seat) drawn at random under the constraints.

    Cards are placed most-constrained first, each to an allowed seat chosen in proportion to
    the room it has left, which keeps dead ends rare; a dead end restarts the draw. Raises
    ``ValueError`` when no deal is found (the constraints contradict each other).
    """
    n = kn.players
    cards = cards_in(kn.unknown)
    for _ in range(tries):
        room = list(kn.need)
        hands = list(kn.known)
        spare = len(cards) - sum(room)  # cards that go to no seat (2-player stock/discards)
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=lambda c: sum(1 for s in range(n) if room[s] and not (kn.banned[s] >> c) & 1))
        ok = True
        for c in order:
            weights = [room[s] if not (kn.banned[s] >> c) & 1 else 0 for s in range(n)]
            total = sum(weights) + spare
            if total == 0:
                ok = False
                break
            r = rng.randrange(total)
            if r >= total - spare:
                spare -= 1
                continue
            for s in range(n):
                r -= weights[s]
                if r < 0:
                    hands[s] |= 1 << c
                    room[s] -= 1
                    break
        if ok and not any(room):
            return hands
    raise ValueError("no deal agrees with this view (contradictory voids?)")


class OddsFill:
    """Deals for a view with one hidden hand (two players), the hand drawn from per-card odds.

    The hidden seat gets ``need`` of the cards it may hold, a set ``S`` with probability
    proportional to the product of ``odds[c]`` over ``S`` (the rest stay with its discards).
    This is exact, not rejection or importance sampling: a table of elementary symmetric sums
    over the cards, built once per view, gives each card's chance of being taken given the
    cards still to place, so every draw costs one pass over the cards. With odds from
    :func:`hokm.search.inference.kept_odds`, the deals come out already weighted by what the
    opponent's draw says, and none is wasted on hands he would not have kept.
    """

    def __init__(self, kn: Knowledge, odds: list[float]) -> None:
        seats = [s for s in range(kn.players) if kn.need[s]]
        if len(seats) > 1:
            raise ValueError("odds fills need a view with one hidden hand")
        self.kn = kn
        self.seat: int | None = None
        self.need = 0
        self.cards: list[Card] = []
        if seats:
            seat = self.seat = seats[0]
            self.need = kn.need[seat]
            self.cards = cards_in(kn.unknown & ~kn.banned[seat])
        if len(self.cards) < self.need:
            raise ValueError("no deal agrees with this view (contradictory voids?)")
        w = [odds[c] for c in self.cards]
        n, k = len(w), self.need
        # sums[i][j]: sum over j-card subsets of cards i.. of the product of their odds (at most
        # C(26, 13) products of 13 odds below 10: far inside floating point range).
        sums = [[0.0] * (k + 1) for _ in range(n + 1)]
        sums[n][0] = 1.0
        for i in range(n - 1, -1, -1):
            row, nxt = sums[i], sums[i + 1]
            row[0] = nxt[0]
            for j in range(1, k + 1):
                row[j] = nxt[j] + w[i] * nxt[j - 1]
        # take[i][j]: chance that card i is taken when j cards are still to place from i on.
        self.take = [[w[i] * sums[i + 1][j - 1] / sums[i][j] if j and sums[i][j] else 0.0
                      for j in range(k + 1)] for i in range(n)]

    def sample(self, rng: random.Random) -> list[int]:
        hands = list(self.kn.known)
        if self.seat is None:
            return hands
        j, m, take = self.need, 0, self.take
        for i, c in enumerate(self.cards):
            if j == 0:
                break
            if rng.random() < take[i][j]:
                m |= 1 << c
                j -= 1
        hands[self.seat] |= m
        return hands


def enumerate_deals(kn: Knowledge, limit: int) -> list[list[int]] | None:
    """Every deal that agrees with the constraints, or ``None`` when there are more than ``limit``.

    Used near the end of a hand, where a handful of unknown cards leave few possible deals and
    exact enumeration beats sampling.
    """
    if kn.deal_count() > limit:
        return None
    out: list[list[int]] = []
    seats = [s for s in range(kn.players) if kn.need[s]]

    def place(i: int, free: int, hands: list[int]) -> Iterator[list[int]]:
        if i == len(seats):
            yield hands[:]
            return
        s = seats[i]
        allowed = cards_in(free & ~kn.banned[s])
        for combo in combinations(allowed, kn.need[s]):
            m = mask_of(combo)
            hands[s] |= m
            yield from place(i + 1, free & ~m, hands)
            hands[s] &= ~m

    for deal in place(0, kn.unknown, list(kn.known)):
        out.append(deal)
    return out
