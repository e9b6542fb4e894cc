"""Search settings for tuning runs: alternatives that no level uses, kept to compare against.

A level is a :class:`~hokm.search.config.SearchConfig`; these settings sit beside it with the
values every level plays with as defaults. The arena reaches them through the ``pimc:`` spec,
e.g. ``pimc:expert,fallback=heuristic`` or ``pimc:expert,keep_model=factor``
(:func:`hokm.search.levels.tuned_bot`); docs/arena.md records the runs that chose the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .config import EvaluatorKind


@dataclass(frozen=True)
class Tuning:
    """Search alternatives that no level sets (each default is what the levels play)."""

    #: with the "dd" evaluator: the scorer of positions too big for the solver ("rollout",
    #: "heuristic", "playout" or "lookahead": heuristic play to the solver's reach, then the solver)
    fallback: EvaluatorKind = "rollout"
    #: the evaluator of trump, discard and draw decisions
    root_evaluator: EvaluatorKind = "rollout"
    #: the Hâkem's trump as evidence: "choice" (likelihood of naming it as the longest suit of
    #: five, :func:`hokm.search.inference.trump_choice_probability`) or "count" (a factor per trump)
    trump_evidence: Literal["choice", "count"] = "choice"
    #: two players, card play: the opponent's hand as evidence of his draw: "table" (per-card
    #: odds fitted on heuristic play, deals drawn from them, :func:`hokm.search.inference.kept_odds`)
    #: or "factor" (a factor per jack or better in his hand, deals drawn evenly and weighted)
    keep_model: Literal["table", "factor"] = "table"
    #: card play before the solver's reach (more than ``dd_cards`` in hand): deals scored at
    #: most (0: ``max_deals``), as each costs a rollout per card there.
    early_deals: int = 0
