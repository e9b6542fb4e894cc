"""Inference from the others' card play: how well a sampled deal explains what they played.

The sampler (:mod:`hokm.search.sampler`) keeps only deals that obey the facts, and
:mod:`hokm.search.inference` weighs the few choices that are easy to read. Most of what a
player reveals, though, is in *how* he played: second hand low, third hand high, the lowest card
that wins, a master cashed, no trump wasted on a trick the partner holds. Those are the common
conventions of Hokm play, and the heuristic bot (:mod:`hokm.bots.heuristic`) plays by them.

For a sampled deal this module replays the hand so far from each other seat's side: what it
held at each of its plays (its sampled hand plus the cards it played since), what was on the
table and what it could have known. Where the model player would have played the card it
actually played (or one touching it in rank, which is the same card for the play), the deal
keeps its weight; where it would have played something else, the weight is multiplied by
``miss`` (default 0.25). A deal that explains every play is therefore ``miss**k`` times likelier
than one that misses ``k`` of them. Forced plays (one legal card, or only equivalent ones)
carry no information and are skipped.

The weight never drops to zero, so a player who does not follow the conventions only blurs the
picture instead of making the real deal impossible.

Only public facts and the viewer's own cards go in: the replayed "views" are built from the
played cards and the *sampled* hands, never from anything hidden.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..bots.heuristic import choose_play
from ..bots.memory import Memory
from ..cards import SUIT_MASKS, full_deck, mask_of
from ..engine.actions import PLAYS
from ..engine.phase import Phase
from ..engine.tricks import legal_mask
from ..engine.view import SeatView

if TYPE_CHECKING:
    import numpy as np

#: Weight factor for each play of another seat that the model player would not have made.
MISS = 0.25


class _ModelView:
    """The few view fields the heuristic player reads, for a replayed decision."""

    __slots__ = ("seat", "players", "legal", "trick", "hand", "phase")

    def __init__(self, seat: int, players: int, legal: tuple, trick: tuple, hand: tuple) -> None:
        self.seat, self.players, self.legal, self.trick, self.hand = seat, players, legal, trick, hand
        self.phase = Phase.PLAY


class _Decision:
    """One past play by another seat, with every fact about it that does not depend on the deal."""

    __slots__ = ("seat", "card", "later", "led", "trick", "played", "voids")

    def __init__(self, seat: int, card: int, later: int, led: int | None, trick: tuple,
                 played: int, voids: list[int]) -> None:
        self.seat, self.card, self.later, self.led = seat, card, later, led
        self.trick, self.played, self.voids = trick, played, voids


class PlayEvidence:
    """Precomputed play history of one view; :meth:`log_weight` scores a sampled deal."""

    def __init__(self, view: SeatView, *, miss: float = MISS) -> None:
        if view.seat is None:
            raise ValueError("play evidence needs a seat's view")
        self.seat = me = view.seat
        self.n = n = view.players
        self.trump = None if view.trump is None else int(view.trump)
        self.miss_log = math.log(miss)
        self.deck = mask_of(full_deck(view.rules.removed_cards))
        plays: list[tuple[int, int, int, tuple]] = []  # (seat, card, trick index, trick so far)
        tricks = [(t.leader, t.cards) for t in view.completed]
        if view.trick:
            tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
        for leader, cards in tricks:
            for i, card in enumerate(cards):
                s = (leader + i) % n
                plays.append((s, card, i, tuple(((leader + j) % n, cards[j]) for j in range(i))))
        # cards each seat played from each point on (its hand at a play = sampled hand | later)
        later_from = [0] * len(plays)
        acc = [0] * n
        for k in range(len(plays) - 1, -1, -1):
            s, c, _, _ = plays[k]
            acc[s] |= 1 << c
            later_from[k] = acc[s]
        self.decisions: list[_Decision] = []
        self._arrays: tuple | None = None  # the decisions as arrays, for log_weights
        played = 0
        voids = [0] * n
        for k, (s, c, _i, so_far) in enumerate(plays):
            led = so_far[0][1] // 13 if so_far else None
            if s != me:
                self.decisions.append(_Decision(s, c, later_from[k], led, so_far, played, voids[:]))
            played |= 1 << c
            if led is not None and c // 13 != led:
                voids[s] |= 1 << led

    @property
    def active(self) -> bool:
        return bool(self.decisions)

    def log_weight(self, hands: list[int], floor: float = -math.inf) -> float:
        """Log weight of a deal; once it falls below ``floor`` the rest of the plays are skipped
        (the deal is already too unlikely to matter next to one at ``floor`` or above, and the
        value returned is still an upper bound of its log weight, below ``floor``)."""
        lw = 0.0
        n, trump, deck = self.n, self.trump, self.deck
        for d in self.decisions:
            hand = hands[d.seat] | d.later
            legal = legal_mask(hand, d.led)
            if legal & (legal - 1) == 0:
                continue  # a single legal card: nothing to learn
            if _all_touching(legal, d.played):
                continue
            unseen = deck & ~hand & ~d.played
            m = Memory(n, d.seat, trump, hand, d.played, unseen, d.voids)
            view = _ModelView(d.seat, n, tuple(PLAYS[c] for c in _cards(legal)), d.trick, ())
            guess = choose_play(view, m)
            if guess != d.card and not _touching(guess, d.card, hand, d.played):
                lw += self.miss_log
                if lw < floor:
                    return lw
        return lw

    def weight(self, hands: list[int]) -> float:
        return math.exp(self.log_weight(hands))

    def log_weights(self, deals: np.ndarray, base: np.ndarray, prune: float,
                    best: float = -math.inf) -> np.ndarray:
        """:meth:`log_weight` of many candidate deals at once, compiled
        (:func:`hokm.search._heuristic_kernel.play_log_weights`).

        ``deals`` has one row per candidate (a hand mask per seat) and ``base`` its log weight
        from other evidence. Candidates are read in order, and one whose total falls ``prune``
        below the best total so far (``best`` before the first) stops being read, exactly as a
        loop calling :meth:`log_weight` with ``floor=best - prune - base`` would.
        """
        import numpy as np

        from ._heuristic_kernel import play_log_weights

        if self._arrays is None:
            k, n = len(self.decisions), self.n
            dec = np.zeros((k, 6), dtype=np.int64)
            voids = np.zeros((k, n), dtype=np.int64)
            tseats = np.zeros((k, 3), dtype=np.int64)
            tcards = np.zeros((k, 3), dtype=np.int64)
            for i, d in enumerate(self.decisions):
                dec[i] = (d.seat, d.card, d.later, -1 if d.led is None else d.led, d.played, len(d.trick))
                voids[i] = d.voids
                for j, (s, c) in enumerate(d.trick):
                    tseats[i, j], tcards[i, j] = s, c
            self._arrays = (dec, voids, tseats, tcards)
        dec, voids, tseats, tcards = self._arrays
        return play_log_weights(self.n, -1 if self.trump is None else self.trump, self.deck,
                                np.ascontiguousarray(deals, dtype=np.int64), dec, voids, tseats, tcards,
                                np.ascontiguousarray(base, dtype=np.float64), self.miss_log, float(prune), float(best))


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _touching(a: int, b: int, hand: int, played: int) -> bool:
    """Same suit, and every card between them is in ``hand`` or already played: equal cards."""
    if a // 13 != b // 13:
        return False
    lo, hi = (a, b) if a < b else (b, a)
    between = ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)
    return between & ~(hand | played) == 0


def _all_touching(legal: int, played: int) -> bool:
    """Whether every legal card is equivalent to every other: one suit, and every card between
    the lowest and the highest of them is legal too or already played (no gap held elsewhere)."""
    lo = (legal & -legal).bit_length() - 1
    if legal & ~SUIT_MASKS[lo // 13]:
        return False
    hi = legal.bit_length() - 1
    between = ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)
    return between & ~(legal | played) == 0


__all__ = ["PlayEvidence", "MISS"]
