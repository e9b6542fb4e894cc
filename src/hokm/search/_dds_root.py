"""Compiled root calls of the double-dummy solver: hand values and per-card values.

:mod:`hokm.search.dds` unpacks a :class:`~hokm.search.position.DDPosition` into plain integers and
calls these once per question, so a whole ``move_values`` (every legal card, the win question and
the kot questions) costs a single crossing from Python into compiled code.

A hand value is scored for side ``a`` (the side to move): ``+points`` when it wins the hand,
``-points`` when another side does, with kot points from the rules. Values are searched as
thresholds: first "does ``a`` win", then "can the winner kot", each a zero-window search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._dds_kernel import Q_KOT, Q_WIN, decided3, ge2, ge3, gen_moves, trick_winner

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


@njit("i8(i8[::1], i8[::1], i8, i8, i8, i8, i8[::1], i8, i8, i8, i8[:, ::1], i8[::1])", cache=True)
def move_values_kernel(h, tr, ntrick, leader, trump, n, st, hakem, kot_points, hk_points, tt, out):
    """Value (for the mover's side) of every legal card, written to ``out[card]``.

    Equivalent cards share one search. Returns the number of legal cards.
    """
    mover = (leader + ntrick) % n
    moves = np.empty(13, dtype=np.int64)
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
        else:
            ta = t[a] + (t[a + 2] if n == 4 else 0)
            tb = t[1 - a] + (t[3 - a] if n == 4 else 0)
            pa = kot_points if a == hakem_side else hk_points
            pb = kot_points if (1 - a) == hakem_side else hk_points
            v, _k = value2(hands, trick, nt, ld, trump, n, ta, tb, a, pa, pb, tt)
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
        in_run = False
        for r in range(12, -1, -1):
            c = 13 * s + r
            if (alive >> c) & 1:
                if (legal >> c) & 1:
                    if in_run:
                        out[c] = run_value
                    else:
                        run_value = out[c]
                        in_run = True
                    total += 1
                else:
                    in_run = False
    return total
