"""``heuristic``: a rule-based player built from what good Hokm players do.

It sees only its seat's view (plus the card memory :mod:`hokm.bots.memory` infers from it) and
decides in microseconds, so it is both a sparring partner and a cheap playout policy inside
simulations. The rules of thumb, in the order they are tried:

Trump (hokm)
    The suit with the most cards among the first five; ties go to the higher cards.
Two-player discards and draws
    Throw the cards least likely to take a trick (low cards of side suits, preferring short suits);
    keep a drawn card when it is worth more than an average unseen card would be.
Leading
    *Hokm lâzem*: lead the top trump while holding the master trump and enough length, to pull the
    opponents' trumps; then cash side-suit masters nobody can ruff; lead a suit the partner is void
    in so he can trump; lead a singleton to create a ruff; otherwise lead low from a long suit
    that no opponent can ruff.
Following
    Do not overtake a partner whose card already holds the trick; last to play, take the trick with
    the lowest card that wins; a card no later opponent can beat is played (the lowest such);
    second hand plays low, third hand plays high (*bâlâ âmadan*) to force the last player up.
Void in the suit led
    Trump in (*boridan*) with the lowest trump that wins, or overtrump an opponent's trump,
    unless the partner holds the trick (*rad kardan*); otherwise throw the least useful card,
    preferring to empty a short side suit.

With three players everyone plays for himself (no partner); with two, the unseen cards include
the opponent's face-down discards, so void and master inference stays conservative.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..cards import SUIT_MASKS
from ..engine.actions import KEEP, PASS, PLAYS, TRUMPS, Action, Discard, Draw, Play
from ..engine.phase import Phase
from ..engine.tricks import beats, winning_index
from ..engine.view import SeatView
from ..rules import partner_of
from .base import Bot
from .memory import Memory, above, low_card, top_card


def _popcount(mask: int) -> int:
    return mask.bit_count()


def trick_winner(trick: tuple[tuple[int, int], ...], trump: int | None) -> tuple[int, int]:
    """``(seat, card)`` holding the open trick so far (the engine's rule)."""
    return trick[winning_index([c for _, c in trick], trump)]


def choose_trump(hand: tuple[int, ...] | list[int]) -> int:
    """The suit with most cards; ties broken by the sum of ranks, then by the highest card."""
    best_suit, best_key = 0, (-1, -1, -1)
    for s in range(4):
        ranks = [c % 13 for c in hand if c // 13 == s]
        key = (len(ranks), sum(ranks), max(ranks, default=-1))
        if key > best_key:
            best_suit, best_key = s, key
    return best_suit


class HeuristicBot(Bot):
    """A fast rule-based player; deterministic (the seed is accepted for a uniform factory)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action in the {view.phase} phase")
        phase = view.phase
        if phase is Phase.PLAY:
            return PLAYS[choose_play(view, Memory.from_view(view))]
        if phase is Phase.TRUMP:
            return TRUMPS[choose_trump(view.hand)]
        if phase is Phase.DISCARD:
            return choose_discard(view)
        if phase is Phase.DRAW:
            return choose_draw(view)
        raise ValueError(f"seat {view.seat} has nothing to decide in the {phase} phase")


# --------------------------------------------------------------------------- two players
def card_value(card: int, m: Memory) -> float:
    """How likely a card is to take a trick in a two-player hand, on a rough 0..22 scale."""
    rank = card % 13
    if card // 13 == m.trump:
        return 10.0 + rank
    higher = _popcount(m.unseen & above(card))
    return (9.0, 5.0, 2.0)[higher] if higher < 3 else 0.1 * rank


def choose_discard(view: SeatView) -> Discard:
    """Throw the least valuable cards; among equals, cards of short side suits (to make voids)."""
    m = Memory.from_view(view)
    first = view.legal[0] if view.legal else None
    if not isinstance(first, Discard):
        raise ValueError(f"no discard to choose in the {view.phase} phase")
    count = len(first.cards)  # every legal discard has the required size
    hand = list(view.hand)

    def keep_score(c: int) -> tuple[float, int]:
        length = _popcount(m.hand & SUIT_MASKS[c // 13])
        return (card_value(c, m), length)

    hand.sort(key=keep_score)
    return Discard(frozenset(hand[:count]))


#: Keep a drawn card worth at least this share of an average unseen card. Below 1 because the
#: value scale is coarse (a middling side card scores near zero, yet it guards and follows suit);
#: in duplicate self-play 0.7 did slightly better than 1.0 and clearly better than 1.4.
KEEP_BAR = 0.7


def choose_draw(view: SeatView) -> Draw:
    """Keep the shown card when it is worth about what the next, unseen card could be."""
    card = view.draw_card
    if card is None:
        return PASS
    m = Memory.from_view(view)
    pool = m.unseen & ~(1 << card)
    total, n = 0.0, 0
    while pool:
        low = pool & -pool
        total += card_value(low.bit_length() - 1, m)
        n += 1
        pool ^= low
    return KEEP if n == 0 or card_value(card, m) >= KEEP_BAR * total / n else PASS


# --------------------------------------------------------------------------- card play
class PlayView(Protocol):
    """What :func:`choose_play` reads of a view: a :class:`SeatView`, or the few fields of a
    replayed decision (:mod:`hokm.search.play_model`, :mod:`hokm.search.lookahead`)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def players(self) -> int: ...

    @property
    def legal(self) -> Sequence[Action]: ...

    @property
    def trick(self) -> tuple[tuple[int, int], ...]: ...


class _Table:
    """The facts of the current decision, computed once."""

    __slots__ = ("view", "m", "seat", "n", "trump", "partner", "legal", "opps", "after", "opps_after")

    def __init__(self, view: PlayView, m: Memory) -> None:
        self.view = view
        self.m = m
        if view.seat is None:
            raise ValueError("card play needs a seat's view")
        self.seat = seat = view.seat
        self.n = n = view.players
        self.trump = m.trump
        self.partner = partner_of(seat, n)
        legal = 0
        for a in view.legal:
            if isinstance(a, Play):
                legal |= 1 << a.card
        self.legal = legal
        self.opps = [s for s in range(n) if s != seat and s != self.partner]
        played = len(view.trick)
        self.after = [(seat + k) % n for k in range(1, n - played)]
        self.opps_after = [s for s in self.after if s != self.partner]

    def can_beat(self, card: int, led: int, seats: list[int]) -> bool:
        """Whether any of ``seats`` might beat ``card`` in a trick led with suit ``led``."""
        m, trump = self.m, self.trump
        cs = card // 13
        for s in seats:
            if cs == trump:
                # Only a higher trump beats a trump; playing one needs the led suit void (or trump led).
                if (led == trump or m.is_void(s, led)) and m.may_hold_any(s, above(card)):
                    return True
            else:
                if not m.is_void(s, cs):
                    if m.may_hold_any(s, above(card)):
                        return True
                elif trump is not None and not m.is_void(s, trump):
                    return True
        return False


def choose_play(view: PlayView, m: Memory) -> int:
    """The card to play (as an index) for the seat to move."""
    t = _Table(view, m)
    if not view.trick:
        return _lead(t)
    return _follow(t)


def _lowest(mask: int) -> int:
    """Lowest rank across suits (not lowest index): the cheapest card to give away."""
    best, best_rank = -1, 99
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        if c % 13 < best_rank:
            best, best_rank = c, c % 13
        mask ^= low
    return best


def _junk(t: _Table, mask: int) -> int:
    """The least useful card of ``mask`` to throw when not following suit."""
    m, trump = t.m, t.trump
    side = mask & ~(SUIT_MASKS[trump] if trump is not None else 0)
    if not side:
        return low_card(mask)  # only trumps: the smallest
    masters = m.masters()
    have_trump = trump is not None and m.hand & SUIT_MASKS[trump]
    best, best_score = -1, 1e9
    while side:
        low = side & -side
        c = low.bit_length() - 1
        side ^= low
        length = _popcount(m.hand & SUIT_MASKS[c // 13])
        score = float(c % 13)
        if masters >> c & 1:
            score += 20
        elif length == 2 and (m.hand & SUIT_MASKS[c // 13]) & above(c) and \
                _popcount(m.unseen & above(top_card(m.hand & SUIT_MASKS[c // 13]))) == 1:
            score += 6  # the guard of a second-best card (Kx): keep it
        if have_trump and length == 1:
            score -= 4  # emptying a short suit lets us trump it later
        if score < best_score:
            best, best_score = c, score
    return best


def _follow(t: _Table) -> int:
    view, m, trump = t.view, t.m, t.trump
    led = view.trick[0][1] // 13
    win_seat, win_card = trick_winner(view.trick, trump)
    partner_winning = win_seat == t.partner
    last = not t.after
    legal = t.legal
    following = bool(legal & SUIT_MASKS[led])

    if partner_winning and (last or not t.can_beat(win_card, led, t.opps_after)):
        return _lowest(legal) if following else _junk(t, legal)

    winners = [c for c in _iter(legal) if beats(c, win_card, trump)]
    if following:
        if not winners:
            return low_card(legal)
        if last:
            return min(winners)
        sure = [c for c in winners if not t.can_beat(c, led, t.opps_after)]
        if sure:
            return min(sure)
        if partner_winning:
            return low_card(legal)
        # Someone after us may still ruff the suit: no point in spending a high card.
        if any(m.may_ruff(s, led) for s in t.opps_after):
            return low_card(legal)
        if t.partner is not None and t.partner in t.after:
            return low_card(legal)  # second hand low: the partner still has the last word
        # bâlâ âmadan: make the next player pay for the trick, with the cheapest card as good as our best.
        top = m.lowest_equivalent(max(winners))
        return min(c for c in winners if c >= top)

    # Void in the suit led.
    if winners:  # these are trumps (or higher trumps over a ruff)
        if last:
            return min(winners)
        sure = [c for c in winners if not t.can_beat(c, led, t.opps_after)]
        if sure:
            return min(sure)
        # An overruff may come: the cheapest trump still makes the opponent spend a higher one.
        return min(winners)
    return _junk(t, legal)


def _iter(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _lead(t: _Table) -> int:
    m, trump, legal = t.m, t.trump, t.legal
    tmask = SUIT_MASKS[trump] if trump is not None else 0
    my_trumps = legal & tmask
    out_trumps = m.outstanding(trump) if trump is not None else 0
    opp_trumps = trump is not None and any(not m.is_void(o, trump) for o in t.opps)
    masters = m.masters() & legal

    # 1. Hokm lâzem: pull the opponents' trumps with the master trump when long enough.
    if my_trumps and opp_trumps and out_trumps:
        top = top_card(my_trumps)
        if masters >> top & 1:
            mine, theirs = _popcount(my_trumps), _popcount(out_trumps)
            if mine >= 3 or mine >= theirs:
                return top

    # 2. Cash side-suit masters that no opponent can ruff.
    side_masters = masters & ~tmask
    best = -1
    best_len = -1
    for c in _iter(side_masters):
        s = c // 13
        if any(m.may_ruff(o, s) for o in t.opps):
            continue
        if not opp_trumps or m.outstanding(s):
            length = _popcount(m.hand & SUIT_MASKS[s])
            if length > best_len:
                best, best_len = c, length
    if best >= 0:
        return best

    # 3. Give the partner a ruff: a suit he is void in while he may still hold trump.
    p = t.partner
    if p is not None and trump is not None and not m.is_void(p, trump):
        for s in range(4):
            if s != trump and legal & SUIT_MASKS[s] and m.is_void(p, s) and m.outstanding(s):
                return low_card(legal & SUIT_MASKS[s])

    # 4. Once the opponents hold no trump, our trumps are winners too.
    if my_trumps and not opp_trumps:
        return top_card(my_trumps)

    # 5. A singleton side card makes a void we can trump later.
    side = legal & ~tmask
    if my_trumps and side:
        for s in range(4):
            suit = side & SUIT_MASKS[s]
            if suit and _popcount(suit) == 1 and not masters & suit and \
                    not any(m.may_ruff(o, s) for o in t.opps):
                return low_card(suit)

    # 6. Low from the longest side suit that no opponent can ruff, not away from a guarded honour.
    if side:
        best, best_score = -1, -1e9
        for s in range(4):
            suit = side & SUIT_MASKS[s]
            if not suit:
                continue
            score = float(_popcount(suit))
            if any(m.may_ruff(o, s) for o in t.opps):
                score -= 10
            top = top_card(suit)
            if not masters >> top & 1 and _popcount(m.unseen & above(top)) == 1:
                score -= 2  # leading away from a king behind the ace gives it up
            if score > best_score:
                best, best_score = low_card(suit), score
        return best
    return top_card(my_trumps) if masters & my_trumps else low_card(legal)

