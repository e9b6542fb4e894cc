"""The rules of card play, compiled (Numba), for every search kernel to share.

The compiled kernels (the double-dummy solver, the heuristic player's twin, the playouts) work on
plain ``int64`` values and cannot call the engine's Python. They call these functions instead, the
compiled twins of :mod:`hokm.engine.tricks`, :func:`hokm.rules.side_of`, :func:`hokm.rules.partner_of`,
:meth:`hokm.rules.Rules.seats_of` and :func:`hokm.engine.scoring.hand_outcome`;
``tests/search/test_rules_kernel.py`` checks each against its Python definition over all of its
inputs (exhaustively where the domain allows).
No kernel writes a rule of its own.

Conventions: a card is ``suit * 13 + rank``, a hand a 52-bit mask, a suit 0..3 and ``-1`` stands
for "none" (no suit led yet, no partner, no winner yet). The trick in progress is an array of
cards in play order from its leader, with its length.

Every rule has one explicit signature, so Numba compiles it once, at import, into the on-disk
cache (see :mod:`hokm.search.prepare`), for calls from Python (the tests); the kernels get each
rule inlined into their own code (``inline="always"``), as fast as if they had written it out.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic

from .prepare import check_kernel_cache

# Before any function is compiled or loaded: the record of the source the cache was compiled from
# (the kernels that inline these functions compare it with their own; hokm.search.prepare).
check_kernel_cache(__name__)

SUIT = np.int64(0x1FFF)
#: Tricks that win a hand outright with 4 and 2 players; also the kot threshold with 3
#: (:data:`hokm.rules.TRICKS_TO_WIN`; the tests check the two agree).
TRICKS_TO_WIN = 7
#: Tricks in a three-player hand: 17 cards each (``Rules(players=3).total_tricks``; the tests check)
THREE_PLAYER_TRICKS = 17


# ----------------------------------------------------------------------------- bit helpers
@intrinsic
def _leading_zeros(typingctx, x):
    """LLVM's ``ctlz`` on an ``int64`` (one instruction where the processor has it)."""
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@intrinsic
def _trailing_zeros(typingctx, x):
    """LLVM's ``cttz`` on an ``int64``."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@intrinsic
def _population(typingctx, x):
    """LLVM's ``ctpop`` on an ``int64``."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@njit("i8(i8)", cache=True, inline="always")
def high_bit(x):
    """Index of the highest set bit of a non-zero value."""
    return 63 - _leading_zeros(x)


@njit("i8(i8)", cache=True, inline="always")
def low_bit(x):
    """Index of the lowest set bit of a non-zero value."""
    return _trailing_zeros(x)


@njit("i8(i8)", cache=True, inline="always")
def popcount(x):
    """Number of set bits of a non-negative value."""
    return _population(x)


# ----------------------------------------------------------------------------- seats
@njit("i8(i8, i8)", cache=True, inline="always")
def side_of(seat, n):
    """The side ``seat`` plays for: team ``seat % 2`` with four players, else the seat itself."""
    return seat % 2 if n == 4 else seat


@njit("i8(i8, i8)", cache=True, inline="always")
def partner_of(seat, n):
    """The seat opposite ``seat`` with four players; -1 with two and three."""
    return (seat + 2) % 4 if n == 4 else -1


@njit("i8(i8, i8)", cache=True, inline="always")
def side_seats(side, n):
    """A bit per seat playing for ``side`` (:meth:`hokm.rules.Rules.seats_of` as a mask)."""
    mask = 0
    for seat in range(n):
        if side_of(seat, n) == side:
            mask |= 1 << seat
    return mask


# ----------------------------------------------------------------------------- play
@njit("i8(i8, i8)", cache=True, inline="always")
def legal_mask(hand, led):
    """The cards of ``hand`` that may be played to a trick led with suit ``led`` (-1: leading).

    Follow suit if you can, otherwise play any card.
    """
    if led < 0:
        return hand
    follow = hand & (SUIT << (13 * led))
    return follow if follow else hand


@njit("b1(i8, i8, i8)", cache=True, inline="always")
def beats(card, best, trump):
    """Whether ``card``, played to a trick, takes it from ``best``, the card now winning it."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


@njit("UniTuple(i8, 2)(i8[::1], i8, i8)", cache=True, inline="always")
def current_best(trick, ntrick, trump):
    """(position, card) of the card taking the first ``ntrick`` cards of ``trick`` so far."""
    best = 0
    best_card = trick[0]
    for i in range(1, ntrick):
        if beats(trick[i], best_card, trump):
            best = i
            best_card = trick[i]
    return best, best_card


@njit("i8(i8[::1], i8, i8, i8)", cache=True, inline="always")
def trick_winner(trick, leader, trump, n):
    """The seat taking a full trick (``trick[0..n-1]`` in play order from ``leader``)."""
    best, _ = current_best(trick, n, trump)
    return (leader + best) % n


# ----------------------------------------------------------------------------- end of a hand
@njit("Tuple((i8, b1))(i8, i8)", cache=True, inline="always")
def decided2(t0, t1):
    """Two sides (4 and 2 players): (winning side, kot) once a side has seven tricks, else (-1, False)."""
    if t0 >= TRICKS_TO_WIN:
        return 0, t1 == 0
    if t1 >= TRICKS_TO_WIN:
        return 1, t0 == 0
    return -1, False


@njit("Tuple((i8, b1))(i8, i8, i8, i8)", cache=True, inline="always")
def decided3(t0, t1, t2, total):
    """Three players: (winning seat, kot) once the three-step rule decides the hand, else (-1, False).

    Seven tricks against none and none is a kot; then a lead no one can catch; after the last
    trick, two tied for most and the third wins.
    """
    left = total - t0 - t1 - t2
    if t0 == TRICKS_TO_WIN and t1 == 0 and t2 == 0:
        return 0, True
    if t1 == TRICKS_TO_WIN and t0 == 0 and t2 == 0:
        return 1, True
    if t2 == TRICKS_TO_WIN and t0 == 0 and t1 == 0:
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


@njit("i8(i8, b1, i8, i8, i8)", cache=True, inline="always")
def hand_points(side, kot, hakem_side, kot_points, hakem_koti_points):
    """Points for the side that won a hand: 1, or for a kot ``kot_points`` when it holds the
    Hâkem and ``hakem_koti_points`` when it does not."""
    if not kot:
        return 1
    return kot_points if side == hakem_side else hakem_koti_points


@njit("Tuple((i8, b1))(i8[::1], i8, i8)", cache=True, inline="always")
def hand_decided(seat_tricks, n, total):
    """(winning side, kot) from the tricks each seat has won, once the hand is decided, else (-1, False)."""
    if n == 3:
        return decided3(seat_tricks[0], seat_tricks[1], seat_tricks[2], total)
    t0 = 0
    t1 = 0
    for seat in range(n):
        if side_of(seat, n) == 0:
            t0 += seat_tricks[seat]
        else:
            t1 += seat_tricks[seat]
    return decided2(t0, t1)
