"""The Hokm double-dummy solver: exact hand values when every card is visible.

Three questions, all under perfect play by every seat and scored by the engine's hand-end rule
(:func:`hokm.engine.scoring.hand_outcome`):

- :func:`move_values`: every legal card of the seat to move -> the hand's value for the mover's
  side (``+points`` if it wins the hand, ``-points`` if another side does; kot points from the
  rules). This is what the search bot calls on each sampled deal.
- :func:`solve`: the value of the position itself, as a :class:`HandValue`.
- :func:`reaches`: can a side end the hand with at least so many tricks?

With three players the search is *paranoid*: the two other seats play together against the
seat to move (or against the side asked about), which is the usual safe reduction of a
three-handed game to two sides.

The search itself is compiled (:mod:`hokm.search._dds_kernel`).
Its transposition table is kept between calls; entries carry their full key, so positions from
unrelated deals never mix, and a table that fills up simply overwrites older entries. Call
:func:`warm_up` once at start-up to pay the compile (or cache load) cost up front.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import CARDS, Card
from ..engine.scoring import hand_points
from ..rules import TRICKS_TO_WIN
from . import _dds_kernel as K
from .position import DDPosition, PositionError

_TABLE_BITS = 19
_table: np.ndarray | None = None


def table() -> np.ndarray:
    """The shared transposition table, created on first use."""
    global _table
    if _table is None:
        _table = K.new_table(_TABLE_BITS)
    return _table


def set_table_bits(bits: int) -> None:
    """Resize (and clear) the transposition table to ``2**bits`` entries of 64 bytes."""
    global _TABLE_BITS, _table
    if not isinstance(bits, int) or not 10 <= bits <= 26:
        raise ValueError(f"table bits must be a whole number from 10 to 26, not {bits!r}")
    _TABLE_BITS = bits
    _table = None


def clear_table() -> None:
    """Forget every stored bound (only needed to time searches from a cold table)."""
    table()[:] = 0


class SearchLimitExceeded(RuntimeError):
    """The search visited more nodes than the ``node_limit`` it was given; no answer."""


def _start(limit: int | None) -> np.ndarray:
    tt = table()
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise ValueError(f"node_limit must be a positive whole number or None, not {limit!r}")
    tt[K.NODES, 0] = 0
    tt[K.TRICK_NODES, 0] = 0
    tt[K.LIMIT, 0] = limit or 0
    tt[K.ABORTED, 0] = 0
    return tt


def _finish(tt: np.ndarray) -> None:
    if tt[K.ABORTED, 0]:
        tt[K.ABORTED, 0] = 0
        raise SearchLimitExceeded(f"search stopped after {int(tt[K.LIMIT, 0])} nodes")


def last_nodes() -> int:
    """Nodes visited by the last call (for benchmarks)."""
    return int(table()[0, K.NODES])


def last_trick_nodes() -> int:
    """Nodes at the start of a trick visited by the last two-side call (four and two players): the
    count DDS reports as its ``nodes`` (for benchmarks)."""
    return int(table()[K.TRICK_NODES, 0])


@dataclass(frozen=True)
class HandValue:
    """The result of a hand under perfect play, seen from the side to move.

    ``value`` is ``+points`` when the mover's side wins and ``-points`` otherwise. ``winner`` is
    the winning side, or ``None`` with three players when the mover loses a one-point hand: the
    paranoid search proves that *an* opponent wins, not which.
    """

    winner: int | None
    points: int
    kot: bool
    value: int


def _unpack(pos: DDPosition) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    hands = np.zeros(4, dtype=np.int64)
    hands[: len(pos.hands)] = pos.hands
    trick = np.zeros(4, dtype=np.int64)
    trick[: len(pos.trick)] = pos.trick
    st = np.zeros(4, dtype=np.int64)
    st[: len(pos.seat_tricks)] = pos.seat_tricks
    return hands, trick, st


def _check(pos: DDPosition) -> None:
    if not isinstance(pos, DDPosition):
        raise TypeError(f"expected a DDPosition, not {type(pos).__name__}")
    if pos.outcome() is not None:
        raise PositionError("the hand is already decided; there is nothing to play")


def move_values(pos: DDPosition, *, node_limit: int | None = None) -> dict[Card, int]:
    """Every legal card of the seat to move -> the hand's value for the mover's side.

    Raises :class:`PositionError` when the hand is already decided, and
    :class:`SearchLimitExceeded` when ``node_limit`` is given and the search needs more nodes
    (callers with a time budget fall back to something cheaper then).
    """
    values, _ = _move_values(pos, node_limit, False)
    return values


def move_margins(pos: DDPosition, *, node_limit: int | None = None) -> tuple[dict[Card, int], dict[Card, int]]:
    """:func:`move_values` and, per legal card, the trick margin it leads to.

    Two and four players: 7 minus the most tricks the losing side can still make when the
    mover's side wins, and that count minus 7 when it loses: a tie-break between cards of equal
    value that prefers the safer win and the closer loss. Three players: the most tricks the
    mover can make sure of against the other two together (the paranoid value alone says "lost"
    in most positions, whichever card is played; this tells those cards apart).
    """
    return _move_values(pos, node_limit, True)


def _move_values(pos: DDPosition, node_limit: int | None, want_margins: bool):
    _check(pos)
    hands, trick, st = _unpack(pos)
    out = np.zeros(52, dtype=np.int64)
    margins = np.zeros(52, dtype=np.int64)
    r = pos.rules
    tt = _start(node_limit)
    K.move_values_kernel(hands, trick, len(pos.trick), pos.leader, pos.trump, r.players, st, pos.hakem,
                         r.kot_points, r.hakem_koti_points, tt, out, want_margins, margins)
    _finish(tt)
    legal = pos.legal_mask()
    cards = [c for c in range(52) if (legal >> c) & 1]
    return ({CARDS[c]: int(out[c]) for c in cards}, {CARDS[c]: int(margins[c]) for c in cards})


def solve(pos: DDPosition, *, node_limit: int | None = None) -> HandValue:
    """The hand's result under perfect play (paranoid for the mover with three players).

    An already decided position returns its actual result.
    """
    if not isinstance(pos, DDPosition):
        raise TypeError(f"expected a DDPosition, not {type(pos).__name__}")
    r = pos.rules
    mover_side = r.side_of(pos.to_move)
    done = pos.outcome()
    if done is not None:
        sign = 1 if done.winner == mover_side else -1
        return HandValue(done.winner, done.points, done.kot, sign * done.points)
    hands, trick, st = _unpack(pos)
    hakem_side = r.side_of(pos.hakem)
    if r.players == 3:
        pts = np.array([hand_points(r, s, True, hakem_side) for s in range(3)], dtype=np.int64)
        tt = _start(node_limit)
        v, kot, w = K.value3(hands, trick, len(pos.trick), pos.leader, pos.trump, st, mover_side, pts, tt)
        _finish(tt)
        return HandValue(None if w < 0 else int(w), abs(int(v)), bool(kot), int(v))
    ta, tb = pos.side_tricks[mover_side], pos.side_tricks[1 - mover_side]
    pa = hand_points(r, mover_side, True, hakem_side)
    pb = hand_points(r, 1 - mover_side, True, hakem_side)
    tt = _start(node_limit)
    v, kot = K.value2(hands, trick, len(pos.trick), pos.leader, pos.trump, r.players, ta, tb, mover_side,
                      pa, pb, tt)
    _finish(tt)
    v = int(v)
    return HandValue(mover_side if v > 0 else 1 - mover_side, abs(v), bool(kot), v)


def reaches(pos: DDPosition, side: int, tricks: int, *, node_limit: int | None = None) -> bool:
    """Can ``side`` (with its partner; alone against the other two with three players) end the
    hand with at least ``tricks`` tricks, the hand ending by the engine's rule?

    With four or two players the hand stops when a side takes its seventh trick, so asking for
    more than seven is always ``False`` unless already true; ``reaches(pos, side, 7)`` is "does
    ``side`` win the hand".
    """
    if not isinstance(pos, DDPosition):
        raise TypeError(f"expected a DDPosition, not {type(pos).__name__}")
    r = pos.rules
    if not isinstance(side, int) or not 0 <= side < r.sides:
        raise ValueError(f"side must be 0..{r.sides - 1}, not {side!r}")
    if not isinstance(tricks, int) or tricks < 0:
        raise ValueError(f"tricks must be a whole number >= 0, not {tricks!r}")
    have = pos.side_tricks[side]
    if have >= tricks:
        return True
    if pos.outcome() is not None:
        return False
    hands, trick, st = _unpack(pos)
    if r.players != 3 and tricks > TRICKS_TO_WIN:
        return False
    tt = _start(node_limit)
    if r.players == 3:
        ok = K.ge3(hands, trick, len(pos.trick), pos.leader, pos.trump, st, r.total_tricks, K.Q_REACH,
                   side, tricks, np.int64(1 << side), tt)
    else:
        # ``side`` gets ``tricks`` before the others get 7 iff it takes that many of the first
        # ``tricks + 6`` tricks of the hand.
        horizon = tricks + TRICKS_TO_WIN - 1 - pos.tricks_played
        ok = K.ge2(hands, trick, len(pos.trick), pos.leader, pos.trump, r.players, side, tricks - have,
                   horizon, tt)
    _finish(tt)
    return bool(ok)


def warm_up() -> float:
    """Compile (or load from the cache) every kernel by solving small positions; returns seconds."""
    import time

    from ..rules import Rules

    start = time.perf_counter()
    for players, won in ((4, (3, 3, 3, 2)), (3, (5, 5, 5)), (2, (6, 5))):
        rules = Rules(players=players)
        cards = [c for c in (12, 25, 38, 51, 11, 24, 37, 50)]  # aces and kings: two per seat
        hands = tuple((1 << cards[2 * k]) | (1 << cards[2 * k + 1]) for k in range(players))
        pos = DDPosition(rules, 0, hands, 0, (), won, 0)
        move_values(pos)
        solve(pos)
        reaches(pos, 0, won[0] + 1)
    return time.perf_counter() - start
