"""Open-hand evaluators: what a sampled deal is worth to the side to move, card by card.

The search bot (:mod:`hokm.search.pimc`) and its helper processes (:mod:`hokm.search.parallel`)
build them by name with :func:`make_evaluator`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from ..cards import Card
from ..engine.view import SeatView
from .lookahead import LookaheadEvaluator
from .rollout import PolicyRolloutEvaluator, Position, RolloutEvaluator

if TYPE_CHECKING:
    from .dds import HandValue
    from .position import DDPosition


class Evaluator(Protocol):
    """Scores open-hand positions in signed points for the side of the seat to move."""

    name: str

    def prepare(self, view: SeatView) -> None:
        """Called with the searching seat's view before a decision's positions are scored
        (evaluators that read the public history take it here; the others do nothing)."""

    def move_values(self, pos: Position) -> dict[Card, float]: ...

    def hand_value(self, pos: Position) -> float: ...


@runtime_checkable
class MarginEvaluator(Evaluator, Protocol):
    """An evaluator that also gives each legal card's trick margin (the ``margins`` tie-break)."""

    def move_margins(self, pos: Position) -> tuple[dict[Card, float], dict[Card, float]]: ...


@runtime_checkable
class BatchEvaluator(Evaluator, Protocol):
    """An evaluator that scores the legal cards of many deals of one decision in one call:
    ``pos`` with its hands replaced by each of ``deals``; returns the legal cards and a row of
    their values per deal."""

    def values_for_deals(self, pos: Position, deals: list[list[int]]) -> tuple[list[Card], list[list[float]]]: ...


class DDEvaluator:
    """Scores positions with the double-dummy solver (:mod:`hokm.search.dds`): perfect play."""

    name = "dd"

    def __init__(self) -> None:
        from . import dds
        from .position import DDPosition

        self._dds = dds
        self._pos = DDPosition
        self.limit_error = dds.SearchLimitExceeded

    def _dd(self, pos: Position) -> DDPosition:
        return self._pos(pos.rules, pos.trump, tuple(pos.hands), pos.leader, tuple(int(c) for c in pos.trick),
                         tuple(pos.seat_tricks), pos.hakem)

    def prepare(self, view: SeatView) -> None:
        """The solver reads nothing but the position."""

    def move_values(self, pos: Position, node_limit: int | None = None) -> dict[Card, float]:
        return dict[Card, float](self._dds.move_values(self._dd(pos), node_limit=node_limit))

    def move_margins(self, pos: Position, node_limit: int | None = None) -> tuple[dict[Card, float], dict[Card, float]]:
        """Values and trick margins of every legal card (:func:`hokm.search.dds.move_margins`)."""
        values, margins = self._dds.move_margins(self._dd(pos), node_limit=node_limit)
        return dict[Card, float](values), dict[Card, float](margins)

    def hand_value(self, pos: Position, node_limit: int | None = None) -> float:
        return float(self.result(pos, node_limit).value)

    def result(self, pos: Position, node_limit: int | None = None) -> HandValue:
        """The solver's :class:`~hokm.search.dds.HandValue` (winner, points, kot) of ``pos``."""
        return self._dds.solve(self._dd(pos), node_limit=node_limit)


_T = TypeVar("_T")


class HybridEvaluator:
    """Double-dummy scores for small positions, rollouts for big ones (see ``dd_cards``)."""

    name = "dd"

    def __init__(self, dd: DDEvaluator, fallback: Evaluator, limits: tuple[int, int, int],
                 node_limit: int = 0) -> None:
        self.dd, self.fallback, self.limits, self.node_limit = dd, fallback, limits, node_limit
        self.exact = self.tried = 0  # positions solved exactly / attempted with the node limit

    def _small(self, pos: Position) -> bool:
        return pos.hands[pos.to_move].bit_count() <= self.limits[pos.n - 2]

    def _run(self, pos: Position, solver: Callable[[Position, int | None], _T],
             fallback: Callable[[Position], _T]) -> _T:
        """``solver`` on ``pos`` where it is small enough or finishes within the node limit,
        else ``fallback``."""
        if self._small(pos) and not self.node_limit:
            self.exact += 1
            return solver(pos, None)
        if self.node_limit:
            # Small positions get ten times the nodes: a rare monster deal cannot stall a move.
            limit = self.node_limit * (10 if self._small(pos) else 1)
            self.tried += 1
            try:
                value = solver(pos, limit)
                self.exact += 1
                return value
            except self.dd.limit_error:
                pass
        return fallback(pos)

    def prepare(self, view: SeatView) -> None:
        self.dd.prepare(view)
        self.fallback.prepare(view)

    def move_values(self, pos: Position) -> dict[Card, float]:
        return self._run(pos, self.dd.move_values, self.fallback.move_values)

    def move_margins(self, pos: Position) -> tuple[dict[Card, float], dict[Card, float]]:
        """Values and trick margins; positions the solver does not finish get margins of 0."""
        def scored_otherwise(p: Position) -> tuple[dict[Card, float], dict[Card, float]]:
            values = self.fallback.move_values(p)
            return values, dict.fromkeys(values, 0.0)

        return self._run(pos, self.dd.move_margins, scored_otherwise)

    def hand_value(self, pos: Position) -> float:
        return self._run(pos, self.dd.hand_value, self.fallback.hand_value)


def make_evaluator(kind: str, dd_cards: tuple[int, int, int] = (13, 13, 13), fallback: str = "rollout",
                   seed: int | None = None, dd_nodes: int = 0) -> Evaluator:
    """The evaluator named ``kind``: ``"rollout"`` (quick policy), ``"heuristic"`` (the heuristic
    bot plays every seat out, driven through the engine), ``"playout"`` (the same play, computed
    directly and many times faster), ``"lookahead"`` (the heuristic bot's play up to
    ``dd_cards``, then the solver) or ``"dd"`` (the solver up to ``dd_cards``, ``fallback``
    above)."""
    if kind == "rollout":
        return RolloutEvaluator()
    if kind == "heuristic":
        return PolicyRolloutEvaluator(seed)
    if kind == "playout":
        return LookaheadEvaluator.playout()
    if kind == "lookahead":
        dd = DDEvaluator()
        limit = 10 * dd_nodes if dd_nodes else None
        return LookaheadEvaluator(lambda pos: dd.result(pos, limit), dd.limit_error, dd_cards).compiled()
    if kind == "dd":
        other = make_evaluator(fallback, dd_cards, seed=seed, dd_nodes=dd_nodes)
        return HybridEvaluator(DDEvaluator(), other, dd_cards, dd_nodes)
    raise ValueError(f"unknown evaluator {kind!r} (expected 'dd', 'rollout', 'heuristic', 'playout' or 'lookahead')")
