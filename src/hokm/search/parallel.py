"""Scoring sampled deals on more than one core.

A card-play decision scores every legal card on each of its sampled deals, and the deals are
independent, so a bot with ``workers > 1`` hands a share of them to helper processes and scores
the rest itself while they run. The answer is the same as on one core (the same deals, the same
evaluator, summed in the same order); only the wall-clock time changes.

One pool of ``workers - 1`` processes is shared by every bot in the process (``hokm play`` seats
several), created on first use and shut down at exit. Helpers are started with ``spawn``: the
solver's compiled kernels load from Numba's cache in each, and no state of the parent's threads
or locks is inherited, and each dies with the process that started it (:mod:`hokm.procs`). Each helper keeps one evaluator per search configuration, so the solver's
transposition table stays warm between decisions, as it does in the parent.

Positions and values cross the process boundary as plain data (masks, ints, dicts); nothing of
the game state beyond the searching seat's own view and the sampled deals is ever sent.
"""

from __future__ import annotations

import atexit
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING

from ..cards import CARDS, Card
from ..procs import process_pool
from .config import SearchConfig, margins_for
from .evaluators import Evaluator, MarginEvaluator, make_evaluator
from .tuning import Tuning

if TYPE_CHECKING:
    from ..engine.view import SeatView
    from .rollout import Position

_pool: ProcessPoolExecutor | None = None
_pool_size = 0
#: in a helper: (config, tuning, seed, evaluator kind) -> evaluator
_evaluators: dict[tuple[SearchConfig, Tuning, int, str], Evaluator] = {}


def _shutdown() -> None:
    global _pool, _pool_size
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool, _pool_size = None, 0


atexit.register(_shutdown)


def pool(workers: int) -> ProcessPoolExecutor:
    """The shared pool with ``workers - 1`` helper processes (resized if asked for more)."""
    global _pool, _pool_size
    if workers < 2:
        raise ValueError(f"a helper pool needs workers >= 2, not {workers}")
    if _pool is None or _pool_size < workers - 1:
        _shutdown()
        _pool = process_pool(workers - 1)
        _pool_size = workers - 1
    return _pool


def _score(config: SearchConfig, tuning: Tuning, seed: int, view: SeatView,
           positions: list[Position]) -> list[tuple[dict[int, float], dict[int, float]]]:
    """In a helper: every legal card's value (and, with ``config.margins``, its trick margin)
    on each position, with card indices as keys."""
    kind = config.evaluator3 if view.players == 3 and config.evaluator3 else config.evaluator
    key = (config, tuning, seed, kind)
    ev = _evaluators.get(key)
    if ev is None:
        ev = _evaluators[key] = make_evaluator(kind, config.dd_cards, tuning.fallback, seed, config.dd_nodes)
    ev.prepare(view)
    out = []
    for p in positions:
        if margins_for(config, view.players) and isinstance(ev, MarginEvaluator):
            values, margins = ev.move_margins(p)
        else:
            values, margins = ev.move_values(p), {}
        out.append(({int(c): v for c, v in values.items()}, {int(c): m for c, m in margins.items()}))
    return out


def submit(config: SearchConfig, tuning: Tuning, seed: int, view: SeatView, positions: list[Position]) -> Future:
    """Score ``positions`` in a helper; the future's result is :func:`as_cards`-ready."""
    return pool(config.workers).submit(_score, config, tuning, seed, view, positions)


def as_cards(values: dict[int, float]) -> dict[Card, float]:
    return {CARDS[c]: v for c, v in values.items()}


__all__ = ["pool", "submit", "as_cards"]
