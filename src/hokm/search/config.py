"""How hard the search bot searches: :class:`SearchConfig`, the settings a level is made of.

Settings no level uses, kept for tuning runs, live apart in :mod:`hokm.search.tuning`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: The open-hand evaluators :func:`hokm.search.evaluators.make_evaluator` builds.
EvaluatorKind = Literal["dd", "rollout", "heuristic", "playout", "lookahead"]
#: Who makes a decision: the search over sampled deals, or the heuristic bot.
Decider = Literal["search", "heuristic"]


@dataclass(frozen=True)
class SearchConfig:
    """How hard the bot searches. ``budget_s`` bounds one decision on one core."""

    max_deals: int = 48          # deals scored per card-play decision at most
    min_deals: int = 6           # ... and at least, whatever the clock says
    budget_s: float = 0.5        # wall-clock budget for one decision
    enumerate_limit: int = 48    # list every deal when at most this many exist
    root_deals: int = 24         # deals per option for trump, discard and draw decisions
    evaluator: EvaluatorKind = "dd"  # "dd" (double-dummy), "heuristic", "rollout", ...: see make_evaluator
    #: card play with three players: the evaluator to use instead of ``evaluator`` ("" for the same)
    evaluator3: EvaluatorKind | Literal[""] = ""
    #: with "dd": bigger positions still try the solver, stopped after this many nodes (0: never)
    dd_nodes: int = 0
    #: with "dd": the solver scores positions where the mover holds at most this many cards
    #: (index: players - 2); larger ones are rolled out, as exact search there costs seconds.
    dd_cards: tuple[int, int, int] = (13, 9, 8)
    inference: bool = True       # weight deals by the soft evidence
    #: card play with more cards in hand than ``dd_cards`` allows: "search" rolls sampled deals
    #: out; "heuristic" asks the heuristic bot (the same rules of thumb the rollouts lack).
    early: Decider = "search"
    #: trump, discards and draws: "search" (sampled deals) or "heuristic".
    root: Decider = "search"
    #: the trump choice alone, overriding ``root`` for it: "search", "heuristic", or "" (as ``root``).
    trump: Decider | Literal[""] = ""
    noise: float = 0.0           # easy levels: random jitter added to option values
    #: card play: the heuristic bot's card is kept unless another card scores more than this
    #: much better (in game value); negative: ties go to the cheapest card instead. Sampled
    #: deals are few and double-dummy play is optimistic, so a small edge is often noise.
    anchor: float = -1.0
    #: card play: weight deals by how well the others' plays fit a model player
    #: (:mod:`hokm.search.play_model`); the factor per play the model would not make, 0 = off.
    play_miss: float = 0.0
    #: with ``play_miss``: candidate deals drawn per deal searched; the searched deals are
    #: resampled from them in proportion to their weights. A tuple gives one number per player
    #: count (index: players - 2), as ``dd_cards`` does.
    oversample: int | tuple[int, int, int] = 4
    #: card play: processes that score deals (this one plus ``workers - 1`` helpers,
    #: :mod:`hokm.search.parallel`). Same answer, less wall-clock time; keep 1 where games
    #: already run one per core (the arena, the server's bot pool).
    workers: int = 1
    #: card play: among the cards of best expected value, prefer the one with the best mean
    #: trick margin (:func:`hokm.search.dds.move_margins`: a safer win, a closer loss) before the
    #: heuristic bot's card and the cheapest card. ``True`` for two and four players, or the
    #: player counts to use it for (``(2,)``; a single number names one).
    margins: bool | int | tuple[int, ...] = False


def margins_for(cfg: SearchConfig, players: int) -> bool:
    """Whether ``cfg`` breaks ties by trick margins with this many players."""
    m = cfg.margins
    if isinstance(m, bool):
        return m
    return players in ((m,) if isinstance(m, int) else m)


def oversample_for(cfg: SearchConfig, players: int) -> int:
    """Candidates per searched deal for this player count (``oversample`` may be per count)."""
    o = cfg.oversample
    return o if isinstance(o, int) else o[players - 2]
