"""The heuristic player's card play, compiled (Numba), for the search's inner loops.

The search reads the others' past plays by asking, for every candidate deal, what the heuristic
player would have played at each of their turns (:mod:`hokm.search.play_model`). That question
is asked hundreds of thousands of times per game, and in Python it is most of what a search
decision costs. This module answers it on plain ``int64`` values, card for card the same as
:func:`hokm.bots.heuristic.choose_play` (the tests in ``tests/search/test_heuristic_kernel.py``
compare the two on positions from many random games): the Python bot stays the readable
definition of the player; this is its fast twin, used only inside the search.

It also draws candidate deals (:func:`sample_deals`) with the algorithm of
:func:`hokm.search.sampler.sample_deal`, so that a decision can draw and read a thousand
candidates in a few milliseconds.

Conventions: a hand is a 52-bit mask (bit ``suit * 13 + rank``), ``trump`` is -1 when none is
set, ``voids[s]`` is a 4-bit mask of the suits seat ``s`` has shown it lacks, and the trick in
progress is given as parallel arrays of seats and cards with its length.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._rules_kernel import (
    beats,
    current_best,
    hand_decided,
    hand_points,
    high_bit,
    legal_mask,
    low_bit,
    partner_of,
    side_of,
    trick_winner,
)
from .prepare import check_kernel_cache

# Before any function is compiled or loaded from the cache: entries compiled with other rules go.
check_kernel_cache(__name__)

SUIT = np.int64(0x1FFF)

# A plain compiled call, not the solver's inlined ``popcount``: Numba 0.68 mis-evaluated a
# comparison of its inlined result here (tests/search/test_heuristic_kernel.py caught it).


@njit("i8(i8)", cache=True)
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def suit_mask(s):
    return SUIT << (13 * s)


@njit(cache=True)
def above(card):
    """The cards of ``card``'s suit that outrank it."""
    return suit_mask(card // 13) & ~((np.int64(2) << card) - 1)


@njit(cache=True)
def is_void(me, hand, unseen, voids, seat, suit):
    if seat == me:
        return (hand & suit_mask(suit)) == 0
    return ((voids[seat] >> suit) & 1) != 0 or (unseen & suit_mask(suit)) == 0


@njit(cache=True)
def may_hold_any(unseen, voids, seat, mask):
    cards = unseen & mask
    if cards == 0:
        return False
    return ((voids[seat] >> (low_bit(cards) // 13)) & 1) == 0


@njit(cache=True)
def may_ruff(me, hand, unseen, voids, trump, seat, suit):
    if trump < 0 or suit == trump:
        return False
    return is_void(me, hand, unseen, voids, seat, suit) and not is_void(me, hand, unseen, voids, seat, trump)


@njit("i8(i8, i8)", cache=True)
def masters(hand, unseen):
    """The cards of ``hand`` that no unseen card of their suit outranks."""
    out = np.int64(0)
    for s in range(4):
        mine = hand & suit_mask(s)
        while mine:
            top = high_bit(mine)
            if unseen & above(top):
                break
            out |= np.int64(1) << top
            mine &= ~(np.int64(1) << top)
    return out


@njit("i8(i8, i8, i8)", cache=True)
def lowest_equivalent(hand, unseen, card):
    base = card - card % 13
    best = card
    c = card - 1
    while c >= base:
        if (hand >> c) & 1:
            best = c
        elif (unseen >> c) & 1:
            break
        c -= 1
    return best


@njit("b1(i8, i8, i8, i8[::1], i8, i8, i8, i8)", cache=True)
def can_beat(me, hand, unseen, voids, trump, card, led, seats):
    """Whether any seat of the seat mask ``seats`` might beat ``card`` in a trick led ``led``."""
    cs = card // 13
    s = 0
    while seats >> s:
        if (seats >> s) & 1:
            if cs == trump:
                if (led == trump or is_void(me, hand, unseen, voids, s, led)) and \
                        may_hold_any(unseen, voids, s, above(card)):
                    return True
            else:
                if not is_void(me, hand, unseen, voids, s, cs):
                    if may_hold_any(unseen, voids, s, above(card)):
                        return True
                elif trump >= 0 and not is_void(me, hand, unseen, voids, s, trump):
                    return True
        s += 1
    return False


@njit("i8(i8)", cache=True)
def lowest_rank(mask):
    """The card of lowest rank across suits (ties: the lower suit): the cheapest to give away."""
    best, best_rank = -1, 99
    while mask:
        c = low_bit(mask)
        if c % 13 < best_rank:
            best, best_rank = c, c % 13
        mask &= mask - 1
    return best


@njit("i8(i8, i8, i8, i8)", cache=True)
def junk(hand, unseen, trump, mask):
    """The least useful card of ``mask`` to throw when not following suit."""
    tmask = suit_mask(trump) if trump >= 0 else np.int64(0)
    side = mask & ~tmask
    if side == 0:
        return low_bit(mask)
    mast = masters(hand, unseen)
    have_trump = trump >= 0 and (hand & tmask) != 0
    best, best_score = -1, 1e9
    while side:
        c = low_bit(side)
        side &= side - 1
        suit = hand & suit_mask(c // 13)
        length = popcount(suit)
        score = float(c % 13)
        if (mast >> c) & 1:
            score += 20.0
        elif length == 2 and (suit & above(c)) != 0 and popcount(unseen & above(high_bit(suit))) == 1:
            score += 6.0
        if have_trump and length == 1:
            score -= 4.0
        if score < best_score:
            best, best_score = c, score
    return best


@njit("i8(i8, i8, i8, i8[::1], i8, i8, i8, i8)", cache=True)
def _first_sure(me, hand, unseen, voids, trump, winners, led, opps_after):
    """The lowest of ``winners`` that no later opponent can beat, or -1."""
    rest = winners
    while rest:
        c = low_bit(rest)
        rest &= rest - 1
        if not can_beat(me, hand, unseen, voids, trump, c, led, opps_after):
            return c
    return -1


@njit("i8(i8, i8, i8, i8, i8[::1], i8[::1], i8[::1], i8, i8, i8, i8, i8)", cache=True)
def _follow(me, trump, hand, unseen, voids, tseats, tcards, ntrick, legal, partner, after, opps_after):
    led = tcards[0] // 13
    win, win_card = current_best(tcards, ntrick, trump)
    win_seat = tseats[win]
    partner_winning = partner >= 0 and win_seat == partner
    last = after == 0
    following = (legal & suit_mask(led)) != 0

    if partner_winning and (last or not can_beat(me, hand, unseen, voids, trump, win_card, led, opps_after)):
        return lowest_rank(legal) if following else junk(hand, unseen, trump, legal)

    winners = np.int64(0)
    rest = legal
    while rest:
        c = low_bit(rest)
        rest &= rest - 1
        if beats(c, win_card, trump):
            winners |= np.int64(1) << c
    if following:
        if winners == 0:
            return low_bit(legal)
        if last:
            return low_bit(winners)
        c = _first_sure(me, hand, unseen, voids, trump, winners, led, opps_after)
        if c >= 0:
            return c
        if partner_winning:
            return low_bit(legal)
        s = 0
        while opps_after >> s:
            if (opps_after >> s) & 1 and may_ruff(me, hand, unseen, voids, trump, s, led):
                return low_bit(legal)
            s += 1
        if partner >= 0 and (after >> partner) & 1:
            return low_bit(legal)
        top = lowest_equivalent(hand, unseen, high_bit(winners))
        return low_bit(winners & ~((np.int64(1) << top) - 1))  # the cheapest winner as good as the best

    if winners:
        if last:
            return low_bit(winners)
        c = _first_sure(me, hand, unseen, voids, trump, winners, led, opps_after)
        return c if c >= 0 else low_bit(winners)
    return junk(hand, unseen, trump, legal)


@njit(cache=True)
def _any_may_ruff(me, hand, unseen, voids, trump, seats, suit):
    s = 0
    while seats >> s:
        if (seats >> s) & 1 and may_ruff(me, hand, unseen, voids, trump, s, suit):
            return True
        s += 1
    return False


@njit("i8(i8, i8, i8, i8, i8, i8[::1], i8, i8, i8)", cache=True)
def _lead(n, me, trump, hand, unseen, voids, legal, partner, opps):
    tmask = suit_mask(trump) if trump >= 0 else np.int64(0)
    my_trumps = legal & tmask
    out_trumps = unseen & tmask if trump >= 0 else np.int64(0)
    opp_trumps = False
    if trump >= 0:
        for o in range(n):
            if (opps >> o) & 1 and not is_void(me, hand, unseen, voids, o, trump):
                opp_trumps = True
    mast = masters(hand, unseen) & legal

    # 1. Hokm lâzem.
    if my_trumps and opp_trumps and out_trumps:
        top = high_bit(my_trumps)
        if (mast >> top) & 1:
            mine, theirs = popcount(my_trumps), popcount(out_trumps)
            if mine >= 3 or mine >= theirs:
                return top

    # 2. Side-suit masters that no opponent can ruff.
    side_masters = mast & ~tmask
    best, best_len = -1, -1
    rest = side_masters
    while rest:
        c = low_bit(rest)
        rest &= rest - 1
        s = c // 13
        if _any_may_ruff(me, hand, unseen, voids, trump, opps, s):
            continue
        if not opp_trumps or (unseen & suit_mask(s)) != 0:
            length = popcount(hand & suit_mask(s))
            if length > best_len:
                best, best_len = c, length
    if best >= 0:
        return best

    # 3. A suit the partner is void in while he may still hold trump.
    if partner >= 0 and trump >= 0 and not is_void(me, hand, unseen, voids, partner, trump):
        for s in range(4):
            if s != trump and (legal & suit_mask(s)) != 0 and is_void(me, hand, unseen, voids, partner, s) \
                    and (unseen & suit_mask(s)) != 0:
                return low_bit(legal & suit_mask(s))

    # 4. The opponents hold no trump: ours are winners.
    if my_trumps and not opp_trumps:
        return high_bit(my_trumps)

    # 5. A singleton side card makes a void to trump later.
    side = legal & ~tmask
    if my_trumps and side:
        for s in range(4):
            suit = side & suit_mask(s)
            if suit and popcount(suit) == 1 and (mast & suit) == 0 and \
                    not _any_may_ruff(me, hand, unseen, voids, trump, opps, s):
                return low_bit(suit)

    # 6. Low from the longest side suit no opponent can ruff, not away from a guarded honour.
    if side:
        best, best_score = -1, -1e9
        for s in range(4):
            suit = side & suit_mask(s)
            if suit == 0:
                continue
            score = float(popcount(suit))
            if _any_may_ruff(me, hand, unseen, voids, trump, opps, s):
                score -= 10.0
            top = high_bit(suit)
            if ((mast >> top) & 1) == 0 and popcount(unseen & above(top)) == 1:
                score -= 2.0
            if score > best_score:
                best, best_score = low_bit(suit), score
        return best
    if mast & my_trumps:
        return high_bit(my_trumps)
    return low_bit(legal)


@njit("i8(i8, i8, i8, i8, i8, i8[::1], i8[::1], i8[::1], i8, i8)", cache=True)
def choose_play(n, me, trump, hand, unseen, voids, tseats, tcards, ntrick, legal):
    """The heuristic player's card (:func:`hokm.bots.heuristic.choose_play`) for seat ``me``.

    ``hand`` is the seat's hand, ``unseen`` the cards it has not seen, ``legal`` its legal cards,
    and the first ``ntrick`` entries of ``tseats``/``tcards`` the trick so far.
    """
    partner = partner_of(me, n)
    opps = np.int64(0)
    for s in range(n):
        if s != me and s != partner:
            opps |= np.int64(1) << s
    after = np.int64(0)
    for k in range(1, n - ntrick):
        after |= np.int64(1) << ((me + k) % n)
    opps_after = after & ~(np.int64(1) << partner) if partner >= 0 else after
    if ntrick == 0:
        return _lead(n, me, trump, hand, unseen, voids, legal, partner, opps)
    return _follow(me, trump, hand, unseen, voids, tseats, tcards, ntrick, legal, partner, after, opps_after)


# ----------------------------------------------------------------------------- play-read
@njit(cache=True)
def _touching(a, b, hand, played):
    if a // 13 != b // 13:
        return False
    lo, hi = (a, b) if a < b else (b, a)
    between = ((np.int64(1) << hi) - 1) & ~((np.int64(1) << (lo + 1)) - 1)
    return (between & ~(hand | played)) == 0


@njit(cache=True)
def _all_touching(legal, played):
    lo = low_bit(legal)
    if legal & ~suit_mask(lo // 13):
        return False
    hi = high_bit(legal)
    between = ((np.int64(1) << hi) - 1) & ~((np.int64(1) << (lo + 1)) - 1)
    return (between & ~(legal | played)) == 0


@njit("f8[::1](i8, i8, i8, i8[:, ::1], i8[:, ::1], i8[:, ::1], i8[:, ::1], i8[:, ::1], f8[::1], f8, f8, f8)",
      cache=True)
def play_log_weights(n, trump, deck, deals, dec, dvoids, dtseats, dtcards, base, miss_log, prune, best):
    """Play-read log weights of candidate deals (:meth:`hokm.search.play_model.PlayEvidence.log_weight`).

    ``dec[k]`` is decision ``k``: seat, card played, cards that seat played later (mask), suit
    led (-1 when leading), cards played before it (mask), trick length; ``dvoids[k]`` the voids
    known then and ``dtseats[k]``/``dtcards[k]`` the trick so far. Candidates are read in order;
    as in the search's resampling loop, a candidate whose weight falls ``prune`` below the best
    total (``base`` + play weight) so far (``best`` before the first) stops being read, its
    value then an upper bound.
    """
    count = deals.shape[0]
    out = np.empty(count, dtype=np.float64)
    for i in range(count):
        floor = best - prune - base[i]
        lw = 0.0
        for k in range(dec.shape[0]):
            seat, card, later, led, played, ntrick = dec[k, 0], dec[k, 1], dec[k, 2], dec[k, 3], dec[k, 4], dec[k, 5]
            hand = deals[i, seat] | later
            legal = legal_mask(hand, led)
            if (legal & (legal - 1)) == 0:
                continue
            if _all_touching(legal, played):
                continue
            unseen = deck & ~hand & ~played
            guess = choose_play(n, seat, trump, hand, unseen, dvoids[k], dtseats[k], dtcards[k], ntrick, legal)
            if guess != card and not _touching(guess, card, hand, played):
                lw += miss_log
                if lw < floor:
                    break
        out[i] = lw
        total = base[i] + lw
        if total > best:
            best = total
    return out


# ----------------------------------------------------------------------------- deals
@njit("i8[:, ::1](i8[::1], i8[::1], i8[::1], i8[::1], i8, i8, i8)", cache=True)
def sample_deals(cards, known, need, banned, count, seed, tries):
    """``count`` deals drawn as :func:`hokm.search.sampler.sample_deal` draws one.

    ``cards`` are the unknown cards, ``known``/``need``/``banned`` per seat as in
    :class:`~hokm.search.sampler.Knowledge`. A row of -1 marks a draw that found no deal in
    ``tries`` attempts (the constraints contradict each other).
    """
    np.random.seed(seed)
    n = known.shape[0]
    m = cards.shape[0]
    out = np.empty((count, n), dtype=np.int64)
    order = cards.copy()
    keys = np.empty(m, dtype=np.int64)
    sorted_ = np.empty(m, dtype=np.int64)
    room = np.empty(n, dtype=np.int64)
    weights = np.empty(n, dtype=np.int64)
    total_need = 0
    for s in range(n):
        total_need += need[s]
    for row in range(count):
        found = False
        for _ in range(tries):
            for s in range(n):
                room[s] = need[s]
                out[row, s] = known[s]
            spare = m - total_need
            # shuffle, then a stable sort by how many seats may take the card (most constrained first)
            for i in range(m - 1, 0, -1):
                j = np.random.randint(0, i + 1)
                order[i], order[j] = order[j], order[i]
            for i in range(m):
                k = 0
                for s in range(n):
                    if room[s] and not (banned[s] >> order[i]) & 1:
                        k += 1
                keys[i] = k
            pos = 0
            for k in range(n + 1):
                for i in range(m):
                    if keys[i] == k:
                        sorted_[pos] = order[i]
                        pos += 1
            ok = True
            for i in range(m):
                c = sorted_[i]
                total = spare
                for s in range(n):
                    weights[s] = room[s] if not (banned[s] >> c) & 1 else 0
                    total += weights[s]
                if total == 0:
                    ok = False
                    break
                r = np.random.randint(0, total)
                if r >= total - spare:
                    spare -= 1
                    continue
                for s in range(n):
                    r -= weights[s]
                    if r < 0:
                        out[row, s] |= np.int64(1) << c
                        room[s] -= 1
                        break
            if ok:
                left = 0
                for s in range(n):
                    left += room[s]
                if left == 0:
                    found = True
                    break
        if not found:
            for s in range(n):
                out[row, s] = -1
    return out


# ----------------------------------------------------------------------------- playouts
@njit("f8(i8, i8, i8[::1], i8, i8[::1], i8, i8[::1], i8, i8, i8, i8, i8[::1], i8, i8, i8, i8, i8, i8, i8, "
      "i8[::1])", cache=True)
def playout(n, trump, hands, leader, trick, ntrick, seat_tricks, hakem, me, first, played, voids, deck,
            own_discards, total_tricks, kot_points, hakem_koti_points, view_seat, reach, state):
    """Every seat plays like the heuristic player to the end of the hand; the signed points for
    ``me``'s side (:meth:`hokm.search.lookahead.LookaheadEvaluator.playout`).

    ``first`` (-1 for none) is the card ``me``, the seat to move, plays first. ``played`` and
    ``voids`` are the public history before the trick in progress, plus its cards;
    ``own_discards`` are cards that only ``view_seat`` knows to be out of play. The arrays
    ``hands``, ``trick``, ``seat_tricks`` and ``voids`` are changed in place: pass copies.

    With ``reach`` above 0 the playout stops, returning NaN, once the seat to move holds at most
    ``reach`` cards (after ``first``): the position is then in the arrays, and ``state`` holds
    its leader, the length of its trick and the cards played, for the solver to take over.
    """
    tseats = np.zeros(3, dtype=np.int64)
    my_side = side_of(me, n)
    hakem_side = side_of(hakem, n)
    while True:
        seat = (leader + ntrick) % n
        hand = hands[seat]
        if first < 0 and reach > 0 and popcount(hand) <= reach:
            state[0], state[1], state[2] = leader, ntrick, played
            return np.nan
        if first >= 0:
            c = first
            first = -1
        else:
            legal = legal_mask(hand, trick[0] // 13 if ntrick else -1)
            if (legal & (legal - 1)) == 0:
                c = low_bit(legal)
            else:
                unseen = deck & ~hand & ~played
                if seat == view_seat:
                    unseen &= ~own_discards
                for j in range(ntrick):
                    tseats[j] = (leader + j) % n
                c = choose_play(n, seat, trump, hand, unseen, voids, tseats, trick, ntrick, legal)
        hands[seat] = hand & ~(np.int64(1) << c)
        played |= np.int64(1) << c
        if ntrick and c // 13 != trick[0] // 13:
            voids[seat] |= np.int64(1) << (trick[0] // 13)
        trick[ntrick] = c
        ntrick += 1
        if ntrick < n:
            continue
        winner = trick_winner(trick, leader, trump, n)
        seat_tricks[winner] += 1
        ntrick = 0
        leader = winner
        side, kot = hand_decided(seat_tricks, n, total_tricks)
        if side < 0:
            continue
        points = hand_points(side, kot, hakem_side, kot_points, hakem_koti_points)
        return float(points) if side == my_side else -float(points)


@njit("f8[:, ::1](i8, i8, i8[:, ::1], i8, i8[::1], i8, i8[::1], i8, i8, i8[::1], i8, i8[::1], i8, i8, i8, i8, "
      "i8, i8)", cache=True)
def playout_values(n, trump, deals, leader, trick, ntrick, seat_tricks, hakem, me, cards, played, voids,
                   deck, own_discards, total_tricks, kot_points, hakem_koti_points, view_seat):
    """:func:`playout` to the end of the hand of every card of ``cards`` on every deal (a row of
    ``deals`` holds the ``n`` hands): the signed points for ``me``'s side, a row per deal and a
    column per card. One call scores a whole batch of deals, so the caller's per-playout
    overhead (arrays built, a call into compiled code) is paid once."""
    k = deals.shape[0]
    m = cards.shape[0]
    out = np.empty((k, m))
    hands = np.empty(n, dtype=np.int64)
    tr = np.empty(4, dtype=np.int64)
    st = np.empty(n, dtype=np.int64)
    vd = np.empty(n, dtype=np.int64)
    state = np.zeros(3, dtype=np.int64)
    for i in range(k):
        for j in range(m):
            for s in range(n):
                hands[s] = deals[i, s]
                st[s] = seat_tricks[s]
                vd[s] = voids[s]
            for s in range(4):
                tr[s] = trick[s]
            out[i, j] = playout(n, trump, hands, leader, tr, ntrick, st, hakem, me, cards[j], played, vd, deck,
                                own_discards, total_tricks, kot_points, hakem_koti_points, view_seat, 0, state)
    return out
