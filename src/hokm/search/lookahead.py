"""Scoring the first tricks: the heuristic player's play to the solver's reach, then the solver.

Early in a hand the double-dummy solver needs far too long per deal, and scoring a card by
solving from there measured no better than the heuristic bot's own card. Rolling the whole hand
out with the heuristic bot is cheap but blind at the end, where perfect play matters most. This
evaluator joins the two: after the candidate card, every seat plays like the heuristic bot
(from its own knowledge in the sampled deal: its hand, the public play, the voids shown) until
the hand is small enough for the solver, which scores the rest exactly. Searching over it is a
one-step improvement of "play like heuristic, then like the solver", which is how the search
levels play once the first tricks are over.

The rollouts read a seat's knowledge the way :mod:`hokm.search.play_model` replays the others'
past plays: a :class:`~hokm.bots.memory.Memory` built from the sampled hands and the public
play, never from the searching seat's hidden information beyond the deal being scored.
"""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

from ..bots.heuristic import choose_play
from ..bots.memory import Memory
from ..cards import Card, full_deck, mask_of
from ..engine.actions import PLAYS
from ..engine.scoring import hand_outcome
from ..engine.tricks import legal_mask, trick_winner
from ..engine.view import SeatView
from ..rules import side_of
from .play_model import _ModelView
from .rollout import Position, _cards


class _NoSolver(Exception):
    """Never raised: a playout never reaches a solver."""


def _no_solver(pos: Position):
    raise _NoSolver


class LookaheadEvaluator:
    """Heuristic play for every seat until the solver's reach, then the solver's exact value.

    ``solve(pos)`` returns the solver's :class:`~hokm.search.dds.HandValue` of a position small
    enough for it and may raise ``limit_error``, in which case the rollout plays on to the end of
    the hand. ``limits`` is the solver's reach by player count (cards in the mover's hand,
    index ``players - 2``), as in :class:`hokm.search.pimc.HybridEvaluator`.
    """

    name = "lookahead"

    def __init__(self, solve, limit_error: type[Exception], limits: tuple[int, int, int]) -> None:
        self.solve, self.limit_error, self.limits = solve, limit_error, limits
        self._played = 0
        self._voids: list[int] = []
        self._deck = 0
        self._own_discards = 0
        self._seat: int | None = None
        self._kernel: ModuleType | None = None  # playouts: the compiled heuristic player (same cards, many times faster)

    @classmethod
    def playout(cls) -> LookaheadEvaluator:
        """Heuristic play for every seat to the end of the hand, never the solver.

        With three players this is the better judge of a card late in the hand: the solver's
        three-player search is paranoid (the two others play together against the mover), so
        it calls most positions lost whatever the mover plays, while the others in fact each
        play for themselves.
        """
        ev = cls(_no_solver, _NoSolver, (0, 0, 0))
        ev.name = "playout"
        return ev.compiled()

    def compiled(self) -> LookaheadEvaluator:
        """Play the heuristic part with the compiled twin of the heuristic player
        (:mod:`hokm.search._heuristic_kernel`): the same cards, many times faster. One
        difference: where the solver gives up (its node limit), the rest of the hand is played
        out without asking it again."""
        from . import _heuristic_kernel

        self._kernel = _heuristic_kernel
        return self

    def prepare(self, view: SeatView) -> None:
        """Take the public history (cards played, voids shown) from the searching seat's view."""
        m = Memory.from_view(view)
        self._played, self._voids = m.played, m.voids
        self._deck = mask_of(full_deck(view.rules.removed_cards))
        self._own_discards = mask_of(view.discards)
        self._seat = view.seat

    # ------------------------------------------------------------------ evaluator protocol
    def move_values(self, pos: Position) -> dict[Card, float]:
        me = pos.to_move
        out: dict[Card, float] = {}
        for c in pos.legal():
            out[c] = self._rollout(pos, me, int(c))
        return out

    def hand_value(self, pos: Position) -> float:
        return self._rollout(pos, pos.to_move, None)

    def values_for_deals(self, pos: Position, deals: list[list[int]]) -> tuple[list[Card], list[list[float]]]:
        """:meth:`move_values` on many deals of one decision at once: ``pos`` with its hands
        replaced by each of ``deals`` in turn. Returns the legal cards (the same in every deal:
        the mover's hand and the trick are known) and a row of their values per deal.

        Pure playouts (:meth:`playout`) run as one compiled call for the whole batch; otherwise
        each deal is scored by :meth:`move_values`."""
        cards = pos.legal()
        n = pos.n
        if self._kernel is None or self.limits[n - 2] > 0:
            rows = []
            for hands in deals:
                values = self.move_values(replace(pos, hands=list(hands)))
                rows.append([values[c] for c in cards])
            return cards, rows
        import numpy as np

        trick = np.zeros(4, dtype=np.int64)
        for i, c in enumerate(pos.trick):
            trick[i] = int(c)
        voids = self._voids if len(self._voids) == n else [0] * n
        rules = pos.rules
        table = self._kernel.playout_values(
            n, pos.trump, np.array(deals, dtype=np.int64).reshape(len(deals), n), pos.leader, trick,
            len(pos.trick), np.array(pos.seat_tricks, dtype=np.int64), pos.hakem, pos.to_move,
            np.array([int(c) for c in cards], dtype=np.int64), self._played, np.array(voids, dtype=np.int64),
            self._deck, self._own_discards, rules.total_tricks, rules.kot_points, rules.hakem_koti_points,
            -1 if self._seat is None else self._seat)
        return cards, table.tolist()

    # ------------------------------------------------------------------ the rollout
    def _rollout(self, pos: Position, me: int, first: int | None) -> float:
        if self._kernel is not None:
            return self._compiled_rollout(self._kernel, pos, me, first)
        rules = pos.rules
        n, trump = pos.n, pos.trump
        hands = list(pos.hands)
        trick = [int(c) for c in pos.trick]
        leader = pos.leader
        seat_tricks = list(pos.seat_tricks)
        played = self._played
        voids = self._voids[:] if len(self._voids) == n else [0] * n
        reach = self.limits[n - 2]
        my_side = side_of(me, n)
        hakem_side = side_of(pos.hakem, n)
        while True:
            seat = (leader + len(trick)) % n
            if first is None and hands[seat].bit_count() <= reach:
                tail = Position(rules, trump, hands, leader, trick, seat_tricks, pos.hakem)
                try:
                    result = self.solve(tail)
                except self.limit_error:
                    pass
                else:
                    if result.winner is None:  # three players: the mover loses, to one of two
                        return 0.0 if seat != me else float(result.value)
                    return float(result.points if result.winner == my_side else -result.points)
            hand = hands[seat]
            if first is not None:
                c, first = first, None
            else:
                legal = legal_mask(hand, trick[0] // 13 if trick else None)
                if legal & (legal - 1) == 0:
                    c = legal.bit_length() - 1
                else:
                    unseen = self._deck & ~hand & ~played
                    if seat == self._seat:
                        unseen &= ~self._own_discards
                    m = Memory(n, seat, trump, hand, played, unseen, voids)
                    view = _ModelView(seat, n, tuple(PLAYS[x] for x in _cards(legal)),
                                      tuple(((leader + j) % n, trick[j]) for j in range(len(trick))), ())
                    c = choose_play(view, m)
            hands[seat] = hand & ~(1 << c)
            played |= 1 << c
            if trick and c // 13 != trick[0] // 13:
                voids[seat] |= 1 << (trick[0] // 13)
            trick.append(c)
            if len(trick) < n:
                continue
            winner = trick_winner(trick, leader, trump, n)
            seat_tricks[winner] += 1
            trick = []
            leader = winner
            side_tricks = [0] * rules.sides
            for s, k in enumerate(seat_tricks):
                side_tricks[side_of(s, n)] += k
            out = hand_outcome(rules, side_tricks, hakem_side, sum(seat_tricks))
            if out is not None:
                return float(out.points if out.winner == my_side else -out.points)

    def _compiled_rollout(self, kernel: ModuleType, pos: Position, me: int, first: int | None) -> float:
        """:meth:`_rollout` with the compiled heuristic player (see :meth:`compiled`)."""
        import numpy as np

        n = pos.n
        trick = np.zeros(4, dtype=np.int64)
        for i, c in enumerate(pos.trick):
            trick[i] = int(c)
        voids = self._voids if len(self._voids) == n else [0] * n
        rules = pos.rules
        hands = np.array(pos.hands, dtype=np.int64)
        seat_tricks = np.array(pos.seat_tricks, dtype=np.int64)
        void_arr = np.array(voids, dtype=np.int64)
        state = np.zeros(3, dtype=np.int64)
        reach = self.limits[n - 2]
        args = (n, pos.trump, hands, pos.leader, trick, len(pos.trick), seat_tricks, pos.hakem, me,
                -1 if first is None else first, self._played, void_arr, self._deck, self._own_discards,
                rules.total_tricks, rules.kot_points, rules.hakem_koti_points,
                -1 if self._seat is None else self._seat)
        value = kernel.playout(*args, reach, state)
        if value == value:  # not NaN: the hand ended before the solver's reach
            return value
        leader, ntrick, played = (int(x) for x in state)
        tail = Position(rules, pos.trump, [int(h) for h in hands], leader, [int(c) for c in trick[:ntrick]],
                        [int(t) for t in seat_tricks], pos.hakem)
        try:
            result = self.solve(tail)
        except self.limit_error:
            return kernel.playout(
                n, pos.trump, hands, leader, trick, ntrick, seat_tricks, pos.hakem, me, -1, played,
                void_arr, self._deck, self._own_discards, rules.total_tricks, rules.kot_points,
                rules.hakem_koti_points, args[-1], 0, state)
        if result.winner is None:  # three players: the mover loses, to one of two
            return 0.0 if tail.to_move != me else float(result.value)
        my_side = side_of(me, n)
        return float(result.points if result.winner == my_side else -result.points)


__all__ = ["LookaheadEvaluator"]
