"""The compiled hot loop of the double-dummy solver (Numba, ``cache=True``).

Everything here works on plain ``int64`` values: a hand is a 52-bit mask (bit ``suit*13+rank``),
the trick in progress is up to three card indices. Two searches share one transposition table:

``ge2``
    Two sides (4 and 2 players): can side ``S`` take at least ``need`` of the next ``horizon``
    tricks? The table stores, per position at the start of a trick, lower and upper bounds on the
    tricks side 0 takes within the horizon, so a bound proved for one target answers others, as in
    bridge double-dummy solvers. "Reaches 7 first" is the full-hand question (Hokm stops at 7, but
    whoever takes 7 of 13 in a full play-out is the side that gets there first); kot is "takes all of
    the next ``7 - t`` tricks", a short horizon.
``ge3``
    Three players, paranoid: seats in ``maxmask`` try to make a question about the hand's end
    true, the others try to make it false. The hand ends by the three-step rule after every
    trick, so the table key includes the seats' trick counts.

Speed comes from: equivalent cards searched once (cards adjacent in rank once the cards gone
from play are removed), quick tricks and a top-trump "later tricks" bound at the start of each
trick, lead and follow move ordering with the table's best lead tried first, and the table itself:
keyed on relative ranks (the hands with the dead cards squeezed out, so positions that differ only
in which low cards are gone share bounds), two slots per bucket and full keys, so it never needs
clearing between positions and survives across calls.

Every function has one explicit signature: Numba then compiles each once, at import, and its
on-disk cache holds exactly that version (lazily typed recursive functions picked up literal-typed
variants that the cache could not load back).
"""

from __future__ import annotations

import numpy as np
from numba import njit

SUIT = np.int64(0x1FFF)
ZERO = np.int64(0)  # an int64, not a literal: recursive calls must match the one compiled signature
# Table layout: one int64 row per slot: 4 hand masks, meta key, packed (lb, ub, best move).
TT_COLS = 6
# Row 0 of the table is not a slot: [0, 0] counts nodes, [0, 1] is the node limit (0: none) and
# [0, 2] is set once a search ran past it (its answers are then meaningless and not stored).
NODES, LIMIT, ABORTED = 0, 1, 2
KIND_GE2 = 1
KIND_GE3 = 2


def new_table(log2_size: int = 18) -> np.ndarray:
    """A zeroed transposition table of ``2**log2_size`` slots (48 bytes each)."""
    return np.zeros((1 << log2_size, TT_COLS), dtype=np.int64)


def _pext_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lookup tables for squeezing out dead ranks of a 13-bit suit (low 7 bits, high 6 bits)."""
    lo = np.zeros((128, 128), dtype=np.int64)
    hi = np.zeros((64, 64), dtype=np.int64)
    for table, width in ((lo, 7), (hi, 6)):
        for m in range(1 << width):
            for x in range(1 << width):
                out, k = 0, 0
                for b in range(width):
                    if (m >> b) & 1:
                        out |= ((x >> b) & 1) << k
                        k += 1
                table[m, x] = out
    pop7 = np.array([bin(m).count("1") for m in range(128)], dtype=np.int64)
    return lo, hi, pop7


PEXT_LO, PEXT_HI, POP7 = _pext_tables()


# ----------------------------------------------------------------------------- bit helpers
@njit(cache=True, inline="always")
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, inline="always")
def high_bit(x):
    """Index of the highest set bit of a non-zero value below 2**53."""
    n = 0
    if x >> 32:
        x >>= 32
        n += 32
    if x >> 16:
        x >>= 16
        n += 16
    if x >> 8:
        x >>= 8
        n += 8
    if x >> 4:
        x >>= 4
        n += 4
    if x >> 2:
        x >>= 2
        n += 2
    if x >> 1:
        n += 1
    return n


@njit(cache=True, inline="always")
def low_bit(x):
    return high_bit(x & -x)


@njit(cache=True, inline="always")
def squeeze(x, alive):
    """Relative ranks: the bits of ``x`` with the dead ranks of each suit removed (DDS keys).

    Positions that differ only in which low cards are gone squeeze to the same key, so the
    table's bounds carry over between them.
    """
    out = np.int64(0)
    for s in range(4):
        m = (alive >> (13 * s)) & 0x1FFF
        v = (x >> (13 * s)) & 0x1FFF
        ml = m & 127
        part = PEXT_LO[ml, v & 127] | (PEXT_HI[m >> 7, v >> 7] << POP7[ml])
        out |= part << (13 * s)
    return out


@njit(cache=True, inline="always")
def squeeze_card(c, alive):
    """Relative index (suit*13 + rank among the live cards of its suit) of a live card."""
    s = c // 13
    below = (alive >> (13 * s)) & ((np.int64(1) << (c % 13)) - 1)
    return 13 * s + popcount(below)


@njit(cache=True, inline="always")
def unsqueeze_card(rc, alive):
    """Inverse of :func:`squeeze_card`."""
    s = rc // 13
    m = (alive >> (13 * s)) & 0x1FFF
    for _ in range(rc % 13):
        m &= m - 1
    if m == 0:
        return np.int64(-1)
    return 13 * s + low_bit(m)


@njit("UniTuple(i8, 2)(i8[::1], i8, i8)", cache=True)
def current_best(trick, ntrick, trump):
    """Index in the trick and card of the card winning the trick so far."""
    led = trick[0] // 13
    best = 0
    best_card = trick[0]
    best_trump = led == trump
    for i in range(1, ntrick):
        c = trick[i]
        s = c // 13
        if s == trump:
            if not best_trump or c > best_card:
                best = i
                best_card = c
                best_trump = True
        elif not best_trump and s == led and c > best_card:
            best = i
            best_card = c
    return best, best_card


@njit("i8(i8[::1], i8, i8, i8)", cache=True)
def trick_winner(trick, leader, trump, n):
    """Seat winning a full trick (``trick[0..n-1]`` in play order from ``leader``)."""
    best, _ = current_best(trick, n, trump)
    return (leader + best) % n


# ----------------------------------------------------------------------------- moves
@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8[::1])", cache=True)
def gen_moves(hands, trick, ntrick, leader, trump, n, team, moves):
    """Fill ``moves`` with one card per group of equivalent legal cards, best guesses first.

    ``team`` is a bit per seat: seats playing together with the mover share its bit value.
    Returns the number of moves.
    """
    mover = (leader + ntrick) % n
    hand = hands[mover]
    legal = hand
    if ntrick > 0:
        f = hand & (SUIT << (13 * (trick[0] // 13)))
        if f:
            legal = f
    alive = np.int64(0)
    for s in range(n):
        alive |= hands[s]
    for i in range(ntrick):
        alive |= np.int64(1) << trick[i]
    my_team = (team >> mover) & 1

    # who wins the trick so far
    win_card = np.int64(-1)
    win_is_partner = False
    led = np.int64(-1)
    if ntrick > 0:
        led = trick[0] // 13
        bi, win_card = current_best(trick, ntrick, trump)
        win_is_partner = ((team >> ((leader + bi) % n)) & 1) == my_team
    last = ntrick == n - 1
    # can an opponent still to play beat the card now winning?
    threat = False
    if ntrick > 0 and not last:
        for j in range(ntrick + 1, n):
            k = (leader + j) % n
            if ((team >> k) & 1) == my_team:
                continue
            follow = (hands[k] >> (13 * led)) & SUIT
            trumps = (hands[k] >> (13 * trump)) & SUIT
            if win_card // 13 == led and led != trump:
                if follow and 13 * led + high_bit(follow) > win_card:
                    threat = True
                if follow == 0 and trumps:
                    threat = True
            else:  # a trump is winning
                cand = follow if led == trump else (trumps if follow == 0 else np.int64(0))
                if cand and 13 * trump + high_bit(cand) > win_card:
                    threat = True

    # moves[13:26] holds the ordering scores (one allocation per node, by the caller)
    count = 0
    for s in range(4):
        mine = (legal >> (13 * s)) & SUIT
        if mine == 0:
            continue
        al = (alive >> (13 * s)) & SUIT
        top_alive = high_bit(al)
        prev_mine = False
        r = top_alive
        while r >= 0:
            if (al >> r) & 1:
                if (mine >> r) & 1:
                    if not prev_mine:
                        card = 13 * s + r
                        # --- ordering score
                        sc = 0
                        if ntrick == 0:
                            # can a seat void in this suit trump it?
                            opp_ruff = False
                            pard_ruff = False
                            pard_top = False
                            if s != trump:
                                for k in range(n):
                                    if k == mover:
                                        continue
                                    hk = hands[k]
                                    void_trumps = ((hk >> (13 * s)) & SUIT) == 0 and ((hk >> (13 * trump)) & SUIT) != 0
                                    if ((team >> k) & 1) == my_team:
                                        pard_ruff = pard_ruff or void_trumps
                                    else:
                                        opp_ruff = opp_ruff or void_trumps
                            for k in range(n):
                                if k != mover and ((team >> k) & 1) == my_team:
                                    if (hands[k] >> (13 * s + top_alive)) & 1:
                                        pard_top = True
                            if r == top_alive:
                                if s == trump:
                                    sc = 62
                                else:
                                    sc = 15 if opp_ruff else 70
                            elif pard_top and not opp_ruff:
                                sc = 55 - r
                            elif pard_ruff and not opp_ruff:
                                sc = 50 - r
                            else:
                                sc = 25 - r - (6 if s == trump else 0) - (6 if opp_ruff else 0)
                        else:
                            beats = False
                            if s == trump:
                                beats = win_card // 13 != trump or card > win_card
                            elif s == led:
                                beats = win_card // 13 == led and card > win_card
                            if win_is_partner and not threat:
                                sc = 40 - r - (20 if s == trump else 0)
                                if beats:
                                    sc -= 5
                            elif win_is_partner:
                                # partner may be overtaken: try our top card, else low
                                if beats and r == top_alive:
                                    sc = 50
                                else:
                                    sc = 30 - r - (20 if s == trump else 0)
                            elif beats:
                                sc = 60 - r - (8 if s == trump and led != trump else 0)
                                if not last and r != top_alive:
                                    sc -= 10
                            else:
                                sc = 30 - r - (20 if s == trump else 0)
                        # insertion into the ordered list
                        j = count
                        while j > 0 and moves[12 + j] < sc:
                            moves[13 + j] = moves[12 + j]
                            moves[j] = moves[j - 1]
                            j -= 1
                        moves[13 + j] = sc
                        moves[j] = card
                        count += 1
                    prev_mine = True
                else:
                    prev_mine = False
            r -= 1
    return count


@njit("void(i8[::1], i8, i8)", cache=True)
def promote(moves, count, card):
    """Move ``card`` (if present, or the representative of its group) to the front."""
    for i in range(count):
        if moves[i] == card:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = card
            return


# ----------------------------------------------------------------------------- table
def _signed(v: int) -> np.int64:
    """A 64-bit odd multiplier as int64, so Numba keeps the hash in integer arithmetic."""
    return np.int64(v - (1 << 64) if v >= 1 << 63 else v)


_M0, _M1, _M2 = _signed(0x9E3779B97F4A7C15), _signed(0xC2B2AE3D27D4EB4F), _signed(0x165667B19E3779F9)
_M3, _M4, _M5 = _signed(0x27D4EB2F165667C5), _signed(0x94D049BB133111EB), _signed(0xBF58476D1CE4E5B9)


@njit(cache=True, inline="always")
def tt_index(tt, h0, h1, h2, h3, meta):
    x = h0 * _M0 ^ h1 * _M1 ^ h2 * _M2 ^ h3 * _M3 ^ meta * _M4
    x ^= x >> 31
    x *= _M5
    x ^= x >> 29
    i = (x & (tt.shape[0] - 1)) & ~np.int64(1)
    return i if i > 0 else np.int64(2)  # row 0 holds the node counter and limit


@njit(cache=True, inline="always")
def tt_find(tt, i, h0, h1, h2, h3, meta):
    for j in range(i, i + 2):
        if tt[j, 4] == meta and tt[j, 0] == h0 and tt[j, 1] == h1 and tt[j, 2] == h2 and tt[j, 3] == h3:
            return j
    return -1


@njit("void(i8[:, ::1], i8, i8, i8, i8, i8, i8, i8, i8, i8)", cache=True)
def tt_store(tt, h0, h1, h2, h3, meta, lb, ub, best, depth):
    i = tt_index(tt, h0, h1, h2, h3, meta)
    j = tt_find(tt, i, h0, h1, h2, h3, meta)
    if j < 0:
        # slot i keeps the deeper entry, slot i+1 takes whatever is pushed out
        if ((tt[i, 5] >> 24) & 0xFF) <= depth:
            for c in range(TT_COLS):
                tt[i + 1, c] = tt[i, c]
            j = i
        else:
            j = i + 1
    tt[j, 0] = h0
    tt[j, 1] = h1
    tt[j, 2] = h2
    tt[j, 3] = h3
    tt[j, 4] = meta
    tt[j, 5] = lb | (ub << 8) | ((best + 1) << 16) | (depth << 24)


# ----------------------------------------------------------------------------- quick tricks
@njit("i8(i8[::1], i8, i8, i8, i8)", cache=True)
def quick_tricks(hands, leader, trump, n, team):
    """Tricks the leader's team can surely take in a row from the lead (a lower bound).

    The leader cashes its run of top trumps, then its runs of top cards in the other suits for as
    many rounds as every opponent who may still hold a trump must follow suit (an opponent the
    trump run has stripped, or who had none, cannot ruff). The partner never takes the lead in
    these lines because the leader's cards are the highest of their suit.
    """
    alive = np.int64(0)
    for s in range(n):
        alive |= hands[s]
    my_team = (team >> leader) & 1
    hand = hands[leader]
    opp_trumps_max = 0
    for k in range(n):
        if ((team >> k) & 1) != my_team:
            t = popcount((hands[k] >> (13 * trump)) & SUIT)
            if t > opp_trumps_max:
                opp_trumps_max = t
    runs = 0
    trump_run = 0
    for s in range(4):
        al = (alive >> (13 * s)) & SUIT
        mine = (hand >> (13 * s)) & SUIT
        run = 0
        while al:
            r = high_bit(al)
            if (mine >> r) & 1:
                run += 1
                al ^= np.int64(1) << r
            else:
                break
        if s == trump:
            trump_run = run
        else:
            # rounds of this suit that every opponent still holding trumps must follow
            safe = run
            for k in range(n):
                if ((team >> k) & 1) != my_team and trump_run < popcount((hands[k] >> (13 * trump)) & SUIT):
                    length = popcount((hands[k] >> (13 * s)) & SUIT)
                    if length < safe:
                        safe = length
            runs += safe
    q = trump_run + runs
    if n != 4 or q > 0:
        return q
    # Nothing to cash from the leader's hand: lead low to the partner's top card of a suit no
    # opponent can ruff; the partner is then on lead and cashes as above when it is safe.
    p = (leader + 2) & 3
    ph = hands[p]
    entry = False
    p_runs = 0
    for s in range(4):
        al = (alive >> (13 * s)) & SUIT
        pm = (ph >> (13 * s)) & SUIT
        run = 0
        while al:
            r = high_bit(al)
            if (pm >> r) & 1:
                run += 1
                al ^= np.int64(1) << r
            else:
                break
        p_runs += run
        if run > 0 and (hand >> (13 * s)) & SUIT:
            safe = True
            if s != trump:
                for k in ((leader + 1) & 3, (leader + 3) & 3):
                    if ((hands[k] >> (13 * s)) & SUIT) == 0 and ((hands[k] >> (13 * trump)) & SUIT) != 0:
                        safe = False
            if safe:
                entry = True
    if not entry:
        return 0
    if opp_trumps_max == 0:
        return p_runs
    return 1


# ----------------------------------------------------------------------------- two sides
@njit("b1(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, i8[:, ::1])", cache=True)
def ge2(hands, trick, ntrick, leader, trump, n, side, need, horizon, tt):
    """Two sides: can ``side`` take at least ``need`` of the next ``horizon`` tricks?"""
    tt[0, NODES] += 1
    if tt[0, LIMIT] and tt[0, NODES] > tt[0, LIMIT]:
        tt[0, ABORTED] = 1
        return False
    if need <= 0:
        return True
    if need > horizon:
        return False
    team = np.int64(0xA) if side == 1 else np.int64(0x5)
    if n == 2:
        team = np.int64(2) if side == 1 else np.int64(1)
    best_hint = -1
    meta = np.int64(0)
    alive = np.int64(0)
    h0 = np.int64(0)
    h1 = np.int64(0)
    h2 = np.int64(0)
    h3 = np.int64(0)
    if ntrick == 0:
        alive = hands[0] | hands[1]
        if n > 2:
            alive |= hands[2] | hands[3]
        h0 = squeeze(hands[0], alive)
        h1 = squeeze(hands[1], alive)
        if n > 2:
            h2 = squeeze(hands[2], alive)
            h3 = squeeze(hands[3], alive)
        r = popcount(hands[leader])
        if horizon > r:
            horizon = r
            if need > horizon:
                return False
        if r == 1:
            for k in range(n):
                trick[k] = high_bit(hands[(leader + k) % n])
            w = trick_winner(trick, leader, trump, n)
            return (w & 1) == side or need <= 0
        full = horizon == r
        meta = leader | (trump << 2) | (n << 4) | ((15 if full else horizon) << 8) | (KIND_GE2 << 12)
        i = tt_index(tt, h0, h1, h2, h3, meta)
        j = tt_find(tt, i, h0, h1, h2, h3, meta)
        if j >= 0:
            packed = tt[j, 5]
            lb0 = packed & 0xFF
            ub0 = (packed >> 8) & 0xFF
            if side == 0:
                lb = lb0
                ub = ub0
            else:
                lb = horizon - ub0
                ub = horizon - lb0
            if lb >= need:
                return True
            if ub < need:
                return False
            rc = ((packed >> 16) & 0xFF) - 1
            if rc >= 0:
                best_hint = unsqueeze_card(rc, alive)
        q = quick_tricks(hands, leader, trump, n, team)
        if q > horizon:
            q = horizon
        if (leader & 1) == side:
            if q >= need:
                return True
        elif horizon - q < need:
            return False
        if full:
            # later tricks: a seat holding the top k trumps wins k tricks some time before the end
            tr = (alive >> (13 * trump)) & SUIT
            if tr:
                owner = -1
                run = 0
                while tr:
                    top = high_bit(tr)
                    o = -1
                    for k in range(n):
                        if (hands[k] >> (13 * trump + top)) & 1:
                            o = k
                    if owner < 0:
                        owner = o
                    elif o != owner:
                        break
                    run += 1
                    tr ^= np.int64(1) << top
                if (owner & 1) == side:
                    if run >= need:
                        return True
                elif horizon - run < need:
                    return False

    mover = (leader + ntrick) % n
    maximizing = (mover & 1) == side
    moves = np.empty(26, dtype=np.int64)
    count = gen_moves(hands, trick, ntrick, leader, trump, n, team, moves)
    if best_hint >= 0:
        promote(moves, count, best_hint)
    result = not maximizing
    best = moves[0]
    bit_hand = hands[mover]
    for mi in range(count):
        c = moves[mi]
        hands[mover] = bit_hand ^ (np.int64(1) << c)
        trick[ntrick] = c
        if ntrick + 1 == n:
            w = trick_winner(trick, leader, trump, n)
            got = 1 if (w & 1) == side else 0
            s0 = trick[0]
            s1 = trick[1]
            s2 = trick[2]
            v = ge2(hands, trick, ZERO, w, trump, n, side, need - got, horizon - 1, tt)
            trick[0] = s0
            trick[1] = s1
            trick[2] = s2
        else:
            v = ge2(hands, trick, ntrick + 1, leader, trump, n, side, need, horizon, tt)
        hands[mover] = bit_hand
        if v == maximizing:
            result = v
            best = c
            break

    if ntrick == 0 and not tt[0, ABORTED]:
        # record the bound for side 0 within this horizon
        lb0 = 0
        ub0 = horizon
        i = tt_index(tt, h0, h1, h2, h3, meta)
        j = tt_find(tt, i, h0, h1, h2, h3, meta)
        if j >= 0:
            lb0 = tt[j, 5] & 0xFF
            ub0 = (tt[j, 5] >> 8) & 0xFF
        if side == 0:
            if result:
                lb0 = max(lb0, need)
            else:
                ub0 = min(ub0, need - 1)
        else:
            if result:
                ub0 = min(ub0, horizon - need)
            else:
                lb0 = max(lb0, horizon - need + 1)
        tt_store(tt, h0, h1, h2, h3, meta, lb0, ub0, squeeze_card(best, alive) if result == maximizing else -1,
                 popcount(hands[leader]))
    return result


# ----------------------------------------------------------------------------- three players
Q_WIN = 0    # the hand's winner is seat ``m``
Q_REACH = 1  # seat ``m`` has at least ``param`` tricks when the hand ends
Q_KOT = 2    # the hand ends in a kot by a seat in mask ``param``


@njit("Tuple((i8, b1))(i8, i8, i8, i8)", cache=True)
def decided3(t0, t1, t2, total):
    """Winner seat and kot flag once the three-step rule decides the hand, else (-1, False)."""
    left = total - t0 - t1 - t2
    if t0 == 7 and t1 == 0 and t2 == 0:
        return 0, True
    if t1 == 7 and t0 == 0 and t2 == 0:
        return 1, True
    if t2 == 7 and t0 == 0 and t1 == 0:
        return 2, True
    if t0 > t1 + left and t0 > t2 + left:
        return 0, False
    if t1 > t0 + left and t1 > t2 + left:
        return 1, False
    if t2 > t0 + left and t2 > t1 + left:
        return 2, False
    if left == 0:
        if t0 == t1 and t0 > t2:
            return 2, False
        if t0 == t2 and t0 > t1:
            return 1, False
        if t1 == t2 and t1 > t0:
            return 0, False
    return -1, False


@njit("i8(i8[::1], i8, i8, i8, i8)", cache=True)
def question3(t, total, kind, m, param):
    """1 (true), 0 (false) or -1 (not yet known) for the question after a trick."""
    w, kot = decided3(t[0], t[1], t[2], total)
    if kind == Q_REACH and t[m] >= param:
        return 1
    if w >= 0:
        if kind == Q_WIN:
            return 1 if w == m else 0
        if kind == Q_REACH:
            return 0
        return 1 if kot and (param >> w) & 1 else 0
    if kind == Q_KOT:
        nonzero = 0
        who = -1
        for s in range(3):
            if t[s] > 0:
                nonzero += 1
                who = s
        if nonzero > 1 or (nonzero == 1 and not (param >> who) & 1):
            return 0
    return -1


@njit("b1(i8[::1], i8[::1], i8, i8, i8, i8[::1], i8, i8, i8, i8, i8, i8[:, ::1])", cache=True)
def ge3(hands, trick, ntrick, leader, trump, t, total, kind, m, param, maxmask, tt):
    """Three players: can the seats in ``maxmask`` make the question true against the other(s)?"""
    tt[0, NODES] += 1
    if tt[0, LIMIT] and tt[0, NODES] > tt[0, LIMIT]:
        tt[0, ABORTED] = 1
        return False
    n = 3
    meta = np.int64(0)
    h0 = np.int64(0)
    h1 = np.int64(0)
    h2 = np.int64(0)
    if ntrick == 0:
        alive = hands[0] | hands[1] | hands[2]
        h0 = squeeze(hands[0], alive)
        h1 = squeeze(hands[1], alive)
        h2 = squeeze(hands[2], alive)
        meta = (leader | (trump << 2) | (np.int64(3) << 4) | (np.int64(KIND_GE3) << 12) | (kind << 14)
                | (t[0] << 16) | (t[1] << 21) | (t[2] << 26) | (m << 31) | (maxmask << 33)
                | (np.int64(param) << 36))
        i = tt_index(tt, h0, h1, h2, 0, meta)
        j = tt_find(tt, i, h0, h1, h2, 0, meta)
        if j >= 0:
            return (tt[j, 5] & 0xFF) == 1
    mover = (leader + ntrick) % n
    maximizing = ((maxmask >> mover) & 1) == 1
    moves = np.empty(26, dtype=np.int64)
    count = gen_moves(hands, trick, ntrick, leader, trump, n, maxmask, moves)
    result = not maximizing
    bit_hand = hands[mover]
    for mi in range(count):
        c = moves[mi]
        hands[mover] = bit_hand ^ (np.int64(1) << c)
        trick[ntrick] = c
        if ntrick + 1 == n:
            w = trick_winner(trick, leader, trump, n)
            t[w] += 1
            q = question3(t, total, kind, m, param)
            if q >= 0:
                v = q == 1
            else:
                s0 = trick[0]
                s1 = trick[1]
                v = ge3(hands, trick, ZERO, w, trump, t, total, kind, m, param, maxmask, tt)
                trick[0] = s0
                trick[1] = s1
            t[w] -= 1
        else:
            v = ge3(hands, trick, ntrick + 1, leader, trump, t, total, kind, m, param, maxmask, tt)
        hands[mover] = bit_hand
        if v == maximizing:
            result = v
            break
    if ntrick == 0 and not tt[0, ABORTED]:
        tt_store(tt, h0, h1, h2, 0, meta, 1 if result else 0, 0, -1, popcount(hands[leader]))
    return result


# ----------------------------------------------------------------------------- root calls
# These live in this module on purpose: Numba's on-disk cache is invalidated per source file, so a
# caller cached in another file would keep running a stale copy of the search after an edit here.
# :mod:`hokm.search.dds` unpacks a position into plain integers and calls these once per
# question, so a whole ``move_values`` (every legal card, the win and kot questions) costs a
# single crossing from Python into compiled code. Values are scored for the side to move:
# ``+points`` when it wins the hand, ``-points`` when another side does.

BIG = np.int64(99)  # a horizon longer than any hand: "until the end"


@njit("Tuple((i8, b1))(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, i8, i8, i8[:, ::1])", cache=True)
def value2(hands, trick, ntrick, leader, trump, n, ta, tb, a, pts_a, pts_b, tt):
    """Two sides: (value for side ``a``, kot) under perfect play from this position."""
    if ta >= 7:
        return (pts_a, True) if tb == 0 else (1, False)
    if tb >= 7:
        return (-pts_b, True) if ta == 0 else (-1, False)
    b = 1 - a
    if ge2(hands, trick, ntrick, leader, trump, n, a, 7 - ta, BIG, tt):
        if tb == 0 and ge2(hands, trick, ntrick, leader, trump, n, a, 7 - ta, 7 - ta, tt):
            return pts_a, True
        return 1, False
    if ta == 0 and ge2(hands, trick, ntrick, leader, trump, n, b, 7 - tb, 7 - tb, tt):
        return -pts_b, True
    return -1, False


@njit("Tuple((i8, b1, i8))(i8[::1], i8[::1], i8, i8, i8, i8[::1], i8, i8[::1], i8[:, ::1])", cache=True)
def value3(hands, trick, ntrick, leader, trump, t, m, pts, tt):
    """Three players, paranoid for seat ``m``: (value for ``m``, kot, winner or -1 if open).

    ``pts[s]`` is what seat ``s`` scores for a kot. A loss without kot has value -1 whichever
    opponent wins, so the winner is reported as -1 then.
    """
    total = np.int64(17)
    w, kot = decided3(t[0], t[1], t[2], total)
    if w >= 0:
        if kot:
            return (pts[w] if w == m else -pts[w]), True, w
        return (1 if w == m else -1), False, w
    me = np.int64(1) << m
    opp = np.int64(7) ^ me
    if ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_WIN), m, np.int64(0), me, tt):
        others_zero = True
        for s in range(3):
            if s != m and t[s] > 0:
                others_zero = False
        if others_zero and ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_KOT), m, me, me, tt):
            return pts[m], True, m
        return 1, False, m
    if t[m] == 0:
        # try the opponents' kots from the costliest for m down
        o1 = -1
        o2 = -1
        for s in range(3):
            if s != m:
                if o1 < 0:
                    o1 = s
                else:
                    o2 = s
        first = o1 if pts[o1] >= pts[o2] else o2
        second = o2 if first == o1 else o1
        if pts[first] > pts[second]:
            if ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_KOT), m, np.int64(1) << first, opp, tt):
                return -pts[first], True, first
        if ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_KOT), m, opp, opp, tt):
            # the coalition can force a kot, and (after the check above) only the cheaper kind
            if pts[first] > pts[second]:
                return -pts[second], True, second
            return -pts[first], True, -1
    return -1, False, -1


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8, i8, i8, i8, i8[:, ::1])", cache=True)
def most_tricks2(hands, trick, ntrick, leader, trump, n, side, have, played, tt):
    """Two sides: the most tricks ``side`` (holding ``have`` after ``played`` tricks) can make
    sure of before the hand ends at seven, found by halving the range of targets."""
    lo = have  # always reachable
    hi = np.int64(7)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ge2(hands, trick, ntrick, leader, trump, n, side, mid - have, mid + 6 - played, tt):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8[::1], i8, i8[:, ::1])", cache=True)
def most_tricks3(hands, trick, ntrick, leader, trump, t, m, tt):
    """Three players, paranoid: the most tricks seat ``m`` can make sure of by the hand's end
    against the other two together, found by halving the range of targets."""
    total = np.int64(17)
    w, _kot = decided3(t[0], t[1], t[2], total)
    if w >= 0:
        return t[m]  # the hand is over
    lo = t[m]  # always reached
    hi = total - t[(m + 1) % 3] - t[(m + 2) % 3]
    me = np.int64(1) << m
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ge3(hands, trick, ntrick, leader, trump, t, total, np.int64(Q_REACH), m, mid, me, tt):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8, i8[::1], i8, i8, i8, i8[:, ::1], i8[::1], b1, i8[::1])", cache=True)
def move_values_kernel(h, tr, ntrick, leader, trump, n, st, hakem, kot_points, hk_points, tt, out,
                       want_margins, margins):
    """Value (for the mover's side) of every legal card, written to ``out[card]``.

    With ``want_margins`` ``margins[card]`` gets the trick margin the card leads to under
    perfect play. Two and four players: 7 minus the most tricks the losing side can still make
    when the mover's side wins, that count minus 7 when it loses. Three players: the most tricks
    the mover can make sure of against the other two together. It separates cards of equal
    value (a safer win, a closer loss, more tricks kept from the others). Equivalent cards share one search. Returns the number of
    legal cards.
    """
    mover = (leader + ntrick) % n
    moves = np.empty(26, dtype=np.int64)
    team = np.int64(0)
    for s in range(n):
        same = s == mover if n == 3 else (s & 1) == (mover & 1)
        if same:
            team |= np.int64(1) << s
    count = gen_moves(h, tr, ntrick, leader, trump, n, team, moves)
    hands = h.copy()
    trick = tr.copy()
    t = st.copy()
    pts = np.empty(3, dtype=np.int64)
    for s in range(3):
        pts[s] = kot_points if s == hakem else hk_points
    a = mover & 1
    hakem_side = hakem & 1
    for mi in range(count):
        c = moves[mi]
        for k in range(n):
            hands[k] = h[k]
            t[k] = st[k]
        for k in range(4):
            trick[k] = tr[k]
        hands[mover] ^= np.int64(1) << c
        trick[ntrick] = c
        nt = ntrick + 1
        ld = leader
        if nt == n:
            w = trick_winner(trick, leader, trump, n)
            t[w] += 1
            nt = 0
            ld = w
        if n == 3:
            v, _k, _w = value3(hands, trick, nt, ld, trump, t, mover, pts, tt)
            if want_margins:
                margins[c] = most_tricks3(hands, trick, nt, ld, trump, t, mover, tt)
        else:
            ta = t[a] + (t[a + 2] if n == 4 else 0)
            tb = t[1 - a] + (t[3 - a] if n == 4 else 0)
            pa = kot_points if a == hakem_side else hk_points
            pb = kot_points if (1 - a) == hakem_side else hk_points
            v, _k = value2(hands, trick, nt, ld, trump, n, ta, tb, a, pa, pb, tt)
            if want_margins:
                played = np.int64(0)
                for k in range(n):
                    played += t[k]
                if ta >= 7 or tb >= 7:
                    margins[c] = ta - tb  # the card ends the hand
                elif v > 0:
                    margins[c] = 7 - most_tricks2(hands, trick, nt, ld, trump, n, 1 - a, tb, played, tt)
                else:
                    margins[c] = most_tricks2(hands, trick, nt, ld, trump, n, a, ta, played, tt) - 7
        out[c] = v
    # equivalent cards: every legal card below a representative in its run takes its value
    legal = h[mover]
    if ntrick > 0:
        f = legal & (np.int64(0x1FFF) << (13 * (tr[0] // 13)))
        if f:
            legal = f
    alive = np.int64(0)
    for s in range(n):
        alive |= h[s]
    for i in range(ntrick):
        alive |= np.int64(1) << tr[i]
    total = 0
    for s in range(4):
        run_value = np.int64(0)
        run_margin = np.int64(0)
        in_run = False
        for r in range(12, -1, -1):
            c = 13 * s + r
            if (alive >> c) & 1:
                if (legal >> c) & 1:
                    if in_run:
                        out[c] = run_value
                        margins[c] = run_margin
                    else:
                        run_value = out[c]
                        run_margin = margins[c]
                        in_run = True
                    total += 1
                else:
                    in_run = False
    return total
