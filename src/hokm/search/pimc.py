"""The search bot: Perfect Information Monte Carlo over deals consistent with the seat's view.

For each decision the bot draws deals that agree with everything its seat has seen
(:mod:`hokm.search.sampler`), weights them by the soft evidence of others' choices
(:mod:`hokm.search.inference`), scores every candidate on the *same* deals with an open-hand
evaluator (the double-dummy solver when present, rollouts otherwise) and takes the candidate with
the best expected game value. When so few cards are unknown that all deals can be listed, it
enumerates them instead of sampling.

Scores are in *game value*, not tricks: a hand won, a kot for or against, each mapped through
:func:`game_value`, which looks at the match score (a kot is worth little to a side one point
from the target, and losing the game outright is worse than any single point).

Every phase is a search decision: trump from the first five cards, the two-player discards and
keep/pass draws all sample the cards not yet seen and score each option on the same deals.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Protocol, Sequence

import numpy as np

from ..cards import SUIT_MASKS, Card, cards_in, mask_of
from ..engine.actions import KEEP, PASS, PLAYS, TRUMPS, Action, Discard
from ..engine.view import SeatView
from ..bots.base import Bot
from .inference import Evidence
from .lookahead import LookaheadEvaluator
from .play_model import PlayEvidence
from .rollout import PolicyRolloutEvaluator, Position, RolloutEvaluator
from .sampler import Knowledge, OddsFill, enumerate_deals, knowledge, sample_deal


#: Play-read resampling: candidates whose log weight falls this far below the best one so far
#: are not read further (e^-7 is under a thousandth of the best weight).
PRUNE_LOG = 7.0
#: Compiled work done per call: candidates drawn and read for the play-read, or deals scored by
#: playouts (the clock is read between calls).
CHUNK = 64


def _kernel():
    """The compiled play-read and sampler (:mod:`hokm.search._heuristic_kernel`), or ``None``."""
    global _KERNEL
    if _KERNEL is False:
        try:
            from . import _heuristic_kernel
        except ImportError:  # no Numba: the Python loops do the same work, slower
            _KERNEL = None
        else:
            _KERNEL = _heuristic_kernel
    return _KERNEL


_KERNEL: object = False


class Evaluator(Protocol):
    """Scores open-hand positions in signed points for the side of the seat to move."""

    name: str

    def move_values(self, pos: Position) -> dict[Card, float]: ...

    def hand_value(self, pos: Position) -> float: ...


@dataclass(frozen=True)
class SearchConfig:
    """How hard the bot searches. ``budget_s`` bounds one decision on one core."""

    max_deals: int = 48          # deals scored per card-play decision at most
    min_deals: int = 6           # ... and at least, whatever the clock says
    budget_s: float = 0.5        # wall-clock budget for one decision
    enumerate_limit: int = 48    # list every deal when at most this many exist
    root_deals: int = 24         # deals per option for trump, discard and draw decisions
    evaluator: str = "dd"        # "dd" (double-dummy), "heuristic" or "rollout": see make_evaluator
    #: card play with three players: the evaluator to use instead of ``evaluator`` ("" for the same)
    evaluator3: str = ""
    #: with "dd": the scorer of positions too big for the solver ("rollout", "heuristic", or
    #: "lookahead": heuristic play to the solver's reach, then the solver, :mod:`.lookahead`)
    fallback: str = "rollout"
    #: with "dd": bigger positions still try the solver, stopped after this many nodes (0: never)
    dd_nodes: int = 0
    #: with "dd": the solver scores positions where the mover holds at most this many cards
    #: (index: players - 2); larger ones are rolled out, as exact search there costs seconds.
    dd_cards: tuple[int, int, int] = (13, 9, 8)
    root_evaluator: str = "rollout"
    inference: bool = True       # weight deals by the soft evidence
    #: the Hâkem's trump as evidence: "choice" (likelihood of naming it as the longest suit of
    #: five, :func:`hokm.search.inference.trump_choice_probability`) or "count" (a factor per trump)
    trump_evidence: str = "choice"
    #: two players, card play: the opponent's hand as evidence of his draw: "table" (per-card
    #: odds fitted on heuristic play, deals drawn from them, :func:`hokm.search.inference.kept_odds`)
    #: or "factor" (a factor per jack or better in his hand, deals drawn evenly and weighted)
    keep_model: str = "table"
    #: card play with more cards in hand than ``dd_cards`` allows: "search" rolls sampled deals
    #: out; "heuristic" asks the heuristic bot (the same rules of thumb the rollouts lack).
    early: str = "search"
    #: trump, discards and draws: "search" (sampled deals) or "heuristic".
    root: str = "search"
    #: the trump choice alone, overriding ``root`` for it: "search", "heuristic", or "" (as ``root``).
    trump: str = ""
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
    #: card play before the solver's reach (more than ``dd_cards`` in hand): deals scored at
    #: most (0: ``max_deals``), as each costs a rollout per card there.
    early_deals: int = 0
    #: card play: among the cards of best expected value, prefer the one with the best mean
    #: trick margin (:func:`hokm.search.dds.move_margins`: a safer win, a closer loss) before the
    #: heuristic bot's card and the cheapest card. ``True`` for two and four players, or the
    #: player counts to use it for (``(2,)``; a single number names one).
    margins: bool | int | tuple[int, ...] = False


class DDEvaluator:
    """Scores positions with the double-dummy solver (:mod:`hokm.search.dds`): perfect play."""

    name = "dd"

    def __init__(self) -> None:
        from . import dds
        from .position import DDPosition

        self._dds = dds
        self._pos = DDPosition
        self.limit_error = dds.SearchLimitExceeded

    def _dd(self, pos: Position):
        return self._pos(pos.rules, pos.trump, tuple(pos.hands), pos.leader, tuple(int(c) for c in pos.trick),
                         tuple(pos.seat_tricks), pos.hakem)

    def move_values(self, pos: Position, node_limit: int | None = None) -> dict[Card, float]:
        return self._dds.move_values(self._dd(pos), node_limit=node_limit)

    def move_margins(self, pos: Position, node_limit: int | None = None):
        """Values and trick margins of every legal card (:func:`hokm.search.dds.move_margins`)."""
        return self._dds.move_margins(self._dd(pos), node_limit=node_limit)

    def hand_value(self, pos: Position, node_limit: int | None = None) -> float:
        return float(self.result(pos, node_limit).value)

    def result(self, pos: Position, node_limit: int | None = None):
        """The solver's :class:`~hokm.search.dds.HandValue` (winner, points, kot) of ``pos``."""
        return self._dds.solve(self._dd(pos), node_limit=node_limit)


class HybridEvaluator:
    """Double-dummy scores for small positions, rollouts for big ones (see ``dd_cards``)."""

    name = "dd"

    def __init__(self, dd: DDEvaluator, fallback: Evaluator, limits: tuple[int, int, int],
                 node_limit: int = 0) -> None:
        self.dd, self.fallback, self.limits, self.node_limit = dd, fallback, limits, node_limit
        self.exact = self.tried = 0  # positions solved exactly / attempted with the node limit

    def _small(self, pos: Position) -> bool:
        return pos.hands[pos.to_move].bit_count() <= self.limits[pos.n - 2]

    def _run(self, pos: Position, method: str, fallback: Callable | None = None):
        if self._small(pos) and not self.node_limit:
            self.exact += 1
            return getattr(self.dd, method)(pos)
        if self.node_limit:
            # Small positions get ten times the nodes: a rare monster deal cannot stall a move.
            limit = self.node_limit * (10 if self._small(pos) else 1)
            self.tried += 1
            try:
                value = getattr(self.dd, method)(pos, node_limit=limit)
                self.exact += 1
                return value
            except self.dd.limit_error:
                pass
        return (fallback or getattr(self.fallback, method))(pos)

    def prepare(self, view: SeatView) -> None:
        for ev in (self.dd, self.fallback):
            prep = getattr(ev, "prepare", None)
            if prep is not None:
                prep(view)

    def move_values(self, pos: Position) -> dict[Card, float]:
        return self._run(pos, "move_values")

    def move_margins(self, pos: Position) -> tuple[dict[Card, float], dict[Card, float]]:
        """Values and trick margins; positions the solver does not finish get margins of 0."""
        def scored_otherwise(p: Position):
            values = self.fallback.move_values(p)
            return values, dict.fromkeys(values, 0.0)

        return self._run(pos, "move_margins", scored_otherwise)

    def hand_value(self, pos: Position) -> float:
        return self._run(pos, "hand_value")


def make_evaluator(kind: str, dd_cards: tuple[int, int, int] = (13, 13, 13), fallback: str = "rollout",
                   seed: int | None = None, dd_nodes: int = 0) -> Evaluator:
    """The evaluator named ``kind``: ``"rollout"`` (quick policy), ``"heuristic"`` (the heuristic
    bot plays every seat out, driven through the engine), ``"playout"`` (the same play, computed
    directly and many times faster), ``"lookahead"`` (the heuristic bot's play up to
    ``dd_cards``, then the solver) or ``"dd"`` (the solver up to ``dd_cards``, ``fallback``
    above; the fallback alone when the solver is missing)."""
    if kind == "rollout":
        return RolloutEvaluator()
    if kind == "heuristic":
        return PolicyRolloutEvaluator(seed)
    if kind == "playout":
        return LookaheadEvaluator.playout()
    if kind == "lookahead":
        try:
            dd = DDEvaluator()
        except ImportError:
            return PolicyRolloutEvaluator(seed)
        limit = 10 * dd_nodes if dd_nodes else None
        return LookaheadEvaluator(lambda pos: dd.result(pos, limit), dd.limit_error, dd_cards).compiled()
    if kind == "dd":
        other = make_evaluator(fallback, dd_cards, seed=seed, dd_nodes=dd_nodes)
        try:
            dd = DDEvaluator()
        except ImportError:
            return other
        return HybridEvaluator(dd, other, dd_cards, dd_nodes)
    raise ValueError(f"unknown evaluator {kind!r} (expected 'dd', 'rollout', 'heuristic', 'playout' or 'lookahead')")


def game_value(view: SeatView, points: float) -> float:
    """Value of a hand result worth ``points`` signed points for the viewer's side.

    Points beyond what a side needs to reach the target are worth nothing, and reaching the
    target (ending the match) is worth a bonus of two points, so the search plays for the match
    and not for the hand alone.
    """
    target = view.rules.target_points
    me = view.side_of(view.seat)  # type: ignore[arg-type]
    if points >= 0:
        need = target - view.scores[me]
        return min(points, need) + (2.0 if points >= need else 0.0)
    best_other = max(s for i, s in enumerate(view.scores) if i != me)
    need = target - best_other
    loss = -points
    return -(min(loss, need) + (2.0 if loss >= need else 0.0))


def _position(view: SeatView, hands: list[int], trump: int | None = None) -> Position:
    return Position(
        rules=view.rules,
        trump=int(view.trump if trump is None else trump),
        hands=hands,
        leader=view.leader,
        trick=[c for _, c in view.trick],
        seat_tricks=list(view.seat_tricks),
        hakem=view.hakem,
    )


def _margins_for(cfg: SearchConfig, players: int) -> bool:
    """Whether ``cfg`` breaks ties by trick margins with this many players."""
    m = cfg.margins
    if isinstance(m, bool):
        return m
    return players in ((m,) if isinstance(m, int) else m)


def _oversample(cfg: SearchConfig, players: int) -> int:
    """Candidates per searched deal for this player count (``oversample`` may be per count)."""
    o = cfg.oversample
    return o if isinstance(o, int) else o[players - 2]


def _cheapness(card: Card, trump: int | None) -> tuple[int, int]:
    """Tie-break key: prefer side-suit cards to trumps, then lower ranks."""
    return (1 if trump is not None and card // 13 == trump else 0, card % 13)


class PimcBot(Bot):
    """Search bot over sampled deals; see the module docstring."""

    def __init__(self, config: SearchConfig | None = None, *, seed: int | None = None,
                 name: str = "pimc", evaluator: Evaluator | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 by_players: Mapping[int, SearchConfig] | None = None) -> None:
        """``by_players`` replaces ``config`` at tables of some player counts: a level can
        search differently with 2, 3 and 4 players (the best settings differ) and still be one
        bot. It is ignored when ``evaluator`` is given."""
        self.config = config or SearchConfig()
        self.rng = random.Random(seed)
        self._seed = 0 if seed is None else seed
        self.name = name
        self._by_players = {} if evaluator is not None else dict(by_players or {})
        self._base = self.config
        self._setups: dict[SearchConfig, tuple] = {}
        self._fixed = evaluator is not None
        if evaluator is not None:
            self._install(self.config, (evaluator, evaluator, None))
        else:
            self._configure(self.config)
        self.clock = clock
        self.last_deals = 0  # deals scored for the last decision (for tests and reports)
        self._rules_bot: Bot | None = None

    def adjust(self, **changes: object) -> None:
        """Change settings for every player count at once (``workers=2`` at a terminal)."""
        self._base = replace(self._base, **changes)  # type: ignore[arg-type]
        self._by_players = {p: replace(c, **changes) for p, c in self._by_players.items()}  # type: ignore[arg-type]
        cfg = replace(self.config, **changes)  # type: ignore[arg-type]
        if self._fixed:
            self._install(cfg, self._setups[self.config])
        else:
            self._configure(cfg)

    def _configure(self, cfg: SearchConfig) -> None:
        """Search with ``cfg`` from now on (its evaluators are built once and kept)."""
        if cfg not in self._setups:
            seed = self._seed
            main = make_evaluator(cfg.evaluator, cfg.dd_cards, cfg.fallback, seed, cfg.dd_nodes)
            root = (main if cfg.root_evaluator == cfg.evaluator
                    else make_evaluator(cfg.root_evaluator, cfg.dd_cards, cfg.fallback, seed))
            three = (None if not cfg.evaluator3 or cfg.evaluator3 == cfg.evaluator
                     else make_evaluator(cfg.evaluator3, cfg.dd_cards, cfg.fallback, seed, cfg.dd_nodes))
            self._setups[cfg] = (main, root, three)
        self._install(cfg, self._setups[cfg])

    def _install(self, cfg: SearchConfig, setup: tuple) -> None:
        self._setups[cfg] = setup
        self.config = cfg
        self._main_evaluator, self.root_evaluator, self._evaluator3 = setup
        self.evaluator = self._main_evaluator

    # ------------------------------------------------------------------ entry point
    def act(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action in the {view.phase} phase")
        if len(view.legal) == 1:
            self.last_deals = 0
            return view.legal[0]
        if self._by_players:
            self._configure(self._by_players.get(view.players, self._base))
        if self._delegate(view):
            self.last_deals = 0
            return self._heuristic().act(view)
        self.evaluator = (self._evaluator3 if view.players == 3 and self._evaluator3 is not None
                          else self._main_evaluator)
        for ev in (self.evaluator, self.root_evaluator):
            prep = getattr(ev, "prepare", None)
            if prep is not None:
                prep(view)
        if view.phase == "play":
            return self._play(view)
        if view.phase == "trump":
            return self._trump(view)
        if view.phase == "discard":
            return self._discard(view)
        if view.phase == "draw":
            return self._draw(view)
        raise ValueError(f"no decision to make in the {view.phase} phase")

    def _delegate(self, view: SeatView) -> bool:
        cfg = self.config
        if view.phase == "trump":
            return (cfg.trump or cfg.root) == "heuristic"
        if view.phase != "play":
            return cfg.root == "heuristic"
        return cfg.early == "heuristic" and len(view.hand) > cfg.dd_cards[view.players - 2]

    def _heuristic(self) -> Bot:
        if self._rules_bot is None:
            from ..bots.base import make_bot

            self._rules_bot = make_bot("heuristic", seed=self.rng.randrange(2**31))
        return self._rules_bot

    # ------------------------------------------------------------------ deals
    def _deals(self, view: SeatView, kn: Knowledge, start: float) -> Sequence[tuple[list[int], float]]:
        """Deals with weights: all of them when few exist, else sampled within the budget."""
        cfg = self.config
        if cfg.early_deals and len(view.hand) > cfg.dd_cards[view.players - 2]:
            cfg = replace(cfg, max_deals=cfg.early_deals)
        ev = Evidence(view, trump_model=cfg.trump_evidence, keep_model=cfg.keep_model) if cfg.inference else None
        if ev is not None and not ev.active:
            ev = None
        draw = _Draw(kn, ev, self.rng)
        play = None
        if cfg.play_miss > 0 and view.phase == "play":
            play = PlayEvidence(view, miss=cfg.play_miss)
            if not play.active:
                play = None
        listed = enumerate_deals(kn, cfg.enumerate_limit)
        if listed is not None:
            return [(d, _weight(d, ev, play)) for d in listed]
        if play is not None and _oversample(cfg, view.players) > 1:
            return self._resampled(draw, play, start, replace(cfg, oversample=_oversample(cfg, view.players)))
        return _LazyDeals(draw, cfg, start, self.clock)

    def _resampled(self, draw: "_Draw", play: "PlayEvidence",
                   start: float, cfg: SearchConfig) -> list[tuple[list[int], float]]:
        """Draw ``oversample`` candidates per searched deal (within half the budget), then keep
        ``max_deals`` of them drawn in proportion to their weights (systematic resampling)."""
        want = cfg.max_deals * cfg.oversample
        floor_count = cfg.min_deals * cfg.oversample
        cands: "list[list[int]] | _RowList" = []
        logs: list[float] = []
        best = -math.inf
        if _kernel() is not None:
            # Compiled: candidates drawn and read a chunk at a time, the clock checked between chunks;
            # only the candidates kept become lists.
            chunks: list = []
            drawn = 0
            while drawn < want:
                if drawn >= floor_count and self.clock() - start > cfg.budget_s / 2:
                    break
                rows = draw.batch(min(CHUNK, want - drawn))
                base = draw.log_weights(rows)
                totals = base + play.log_weights(rows, base, PRUNE_LOG, best)
                chunks.append(rows)
                logs += totals.tolist()
                drawn += len(rows)
                best = max(best, float(totals.max()))
            cands = _RowList(np.concatenate(chunks))
        else:
            for i in range(want):
                if i >= floor_count and self.clock() - start > cfg.budget_s / 2:
                    break
                d = draw.deal()
                base = draw.log_weight(d)
                # A candidate far below the best so far would almost never be resampled: stop
                # reading its plays early (PRUNE_LOG is about a thousandth of the best weight).
                lw = base + play.log_weight(d, floor=best - PRUNE_LOG - base)
                best = max(best, lw)
                cands.append(d)
                logs.append(lw)
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        total = sum(weights)
        last = len(cands) - 1
        k = min(cfg.max_deals, last + 1)
        step = total / k
        u = self.rng.random() * step
        out, acc, j = [], weights[0], 0
        for _ in range(k):
            while acc < u and j < last:
                j += 1
                acc += weights[j]
            out.append((cands[j], 1.0))
            u += step
        return out

    # ------------------------------------------------------------------ card play
    def _play(self, view: SeatView) -> Action:
        cfg = self.config
        start = self.clock()
        kn = knowledge(view)
        totals: dict[Card, float] = {}
        margins: dict[Card, float] = {}
        weight_sum = 0.0
        count = 0
        deals = self._deals(view, kn, start)
        remote: list[tuple[list[int], float]] = []
        future = None
        with_margins = _margins_for(cfg, view.players) and hasattr(self.evaluator, "move_margins")
        if cfg.workers > 1:
            deals = list(deals)
            cut = len(deals) * (cfg.workers - 1) // cfg.workers
            if cut >= 2:
                from . import parallel

                remote, deals = deals[:cut], deals[cut:]
                future = parallel.submit(cfg, self._seed, view, [_position(view, h) for h, _ in remote])

        worth: dict[float, float] = {}  # game value by hand points (a handful of distinct values)

        def add(values: dict[Card, float], margin: dict[Card, float], w: float) -> None:
            for c, v in values.items():
                g = worth.get(v)
                if g is None:
                    g = worth[v] = game_value(view, v)
                totals[c] = totals.get(c, 0.0) + w * g
            for c, m in margin.items():
                margins[c] = margins.get(c, 0.0) + w * m

        batch = getattr(self.evaluator, "values_for_deals", None)
        if batch is not None and future is None and not with_margins:
            # Compiled playouts score a chunk of deals per call; the lazy deals check the clock.
            for chunk in _chunks(deals, CHUNK):
                cards_, rows = batch(_position(view, chunk[0][0]), [h for h, _ in chunk])
                for (_, w), row in zip(chunk, rows):
                    add(dict(zip(cards_, row)), {}, w)
                    weight_sum += w
                    count += 1
        else:
            for hands, w in deals:
                if future is not None and count and self.clock() - start > cfg.budget_s:
                    break  # the helpers' share still counts; the lazy deals check the clock themselves
                pos = _position(view, hands)
                if with_margins:
                    add(*self.evaluator.move_margins(pos), w)  # type: ignore[attr-defined]
                else:
                    add(self.evaluator.move_values(pos), {}, w)
                weight_sum += w
                count += 1
        if future is not None:
            from .parallel import as_cards

            for (_, w), (values, margin) in zip(remote, future.result()):
                add(as_cards(values), as_cards(margin) if with_margins else {}, w)
                weight_sum += w
                count += 1
        self.last_deals = count
        cards = [a.card for a in view.legal]  # type: ignore[union-attr]
        scores = {c: totals.get(c, float("-inf")) / max(weight_sum, 1e-300) for c in cards}
        if with_margins and not cfg.noise:
            best = max(scores.values())
            tied = {c: margins.get(c, 0.0) for c in cards if scores[c] >= best - 1e-9}
            top = max(tied.values())
            # Equal expected value: the safer win or the closer loss, then as below.
            scores = {c: (scores[c] if tied.get(c, -math.inf) >= top - 1e-9 else -math.inf) for c in cards}
        if cfg.anchor >= 0 and not cfg.noise:
            rule_card = self._heuristic().act(view).card  # type: ignore[union-attr]
            if scores[rule_card] >= max(scores.values()) - cfg.anchor - 1e-9:
                return PLAYS[rule_card]
        return PLAYS[self._pick(scores, view.trump)]

    def _pick(self, scores: dict, trump: int | None, key=None):
        """The best-scoring option; near-ties go to the cheaper option."""
        if self.config.noise:
            scores = {k: v + self.rng.gauss(0.0, self.config.noise) for k, v in scores.items()}
        best = max(scores.values())
        tied = [k for k, v in scores.items() if v >= best - 1e-9]
        return min(tied, key=key or (lambda c: _cheapness(c, trump)))

    # ------------------------------------------------------------------ trump
    def _trump(self, view: SeatView) -> Action:
        cfg = self.config
        start = self.clock()
        totals = [0.0] * 4
        fill = _TwoPlayerFill(view, self.rng) if view.players == 2 else None
        kn = None if fill else knowledge(view, complete=True)
        done = 0
        # Every suit is scored on the same deals, so their differences are not sampling noise;
        # the clock is read after each deal, so the budget covers the scoring too.
        while done < cfg.root_deals and not (done >= cfg.min_deals and self.clock() - start > cfg.budget_s):
            hands = fill.deal(mask_of(view.hand)) if fill else sample_deal(kn, self.rng)
            for suit in range(4):
                pos = Position(view.rules, suit, hands[:], view.hakem, [], [0] * view.players, view.hakem)
                totals[suit] += game_value(view, self.root_evaluator.hand_value(pos))
            done += 1
        self.last_deals = done
        scores = {TRUMPS[s]: totals[s] / done for s in range(4)}
        # Ties: the suit with most cards in hand, then the higher cards.
        hand = mask_of(view.hand)
        return self._pick(scores, None, key=lambda a: (-(hand & SUIT_MASKS[a.suit]).bit_count(),
                                                       -(hand & SUIT_MASKS[a.suit])))

    # ------------------------------------------------------------------ two players
    def _discard(self, view: SeatView) -> Action:
        fill = _TwoPlayerFill(view, self.rng)
        hand = mask_of(view.hand)
        options: list[Discard] = list(view.legal)  # type: ignore[arg-type]
        totals = {a: 0.0 for a in options}
        start, done = self.clock(), 0
        while done < self.config.root_deals and not (done >= 2 and self.clock() - start > self.config.budget_s):
            seq = fill.sequence()
            for a in options:
                hands = fill.deal(hand & ~mask_of(a.cards), seq)
                totals[a] += self._two_player_value(view, hands)
            done += 1
        self.last_deals = done
        scores = {a: v / done for a, v in totals.items()}
        # Ties: throw away the lowest cards.
        return self._pick(scores, None, key=lambda a: sorted(c % 13 for c in a.cards))

    def _draw(self, view: SeatView) -> Action:
        assert view.draw_card is not None
        fill = _TwoPlayerFill(view, self.rng)
        hand = mask_of(view.hand)
        top = 1 << view.draw_card
        keep = passed = 0.0
        start, done = self.clock(), 0
        while done < self.config.root_deals and not (done >= 2 and self.clock() - start > self.config.budget_s):
            done += 1
            seq = fill.sequence()
            # keep: the top card, the next (seq[0]) is thrown; pass: the top is thrown, seq[0] kept.
            keep += self._two_player_value(view, fill.deal(hand | top, seq[1:]))
            passed += self._two_player_value(view, fill.deal(hand | (1 << seq[0]), seq[1:]))
        self.last_deals = done
        scores = {KEEP: keep, PASS: passed}
        return self._pick(scores, None, key=lambda a: 0 if a.keep else 1)

    def _two_player_value(self, view: SeatView, hands: list[int]) -> float:
        pos = Position(view.rules, int(view.trump), hands, view.hakem, [], [0, 0], view.hakem)  # type: ignore[arg-type]
        v = self.root_evaluator.hand_value(pos)  # for the Hâkem's side
        return game_value(view, v if view.seat == view.hakem else -v)


class _TwoPlayerFill:
    """Two players before play: complete a partial hand to 13 cards from the unseen cards.

    The rest of the draw is modelled as random cards (the same for every option compared, so
    the comparison is fair), and the opponent gets 13 of the cards left.
    """

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        self.unknown = cards_in(knowledge(view).unknown)
        self.size = view.rules.hand_size

    def sequence(self) -> list[Card]:
        seq = self.unknown[:]
        self.rng.shuffle(seq)
        return seq

    def deal(self, mine: int, seq: list[Card] | None = None) -> list[int]:
        seq = self.sequence() if seq is None else seq
        me = self.view.seat
        assert me is not None
        need = self.size - mine.bit_count()
        full = mine | mask_of(seq[:need])
        opp = mask_of(seq[need:need + self.size])
        hands = [0, 0]
        hands[me], hands[1 - me] = full, opp
        return hands


def _chunks(items, size: int):
    """Lists of up to ``size`` consecutive items (the items may be drawn lazily)."""
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _weight(deal: list[int], ev: Evidence | None, play: "PlayEvidence | None") -> float:
    lw = (ev.log_weight(deal) if ev else 0.0) + (play.log_weight(deal) if play else 0.0)
    return math.exp(lw)


class _Draw:
    """One sampled deal at a time, with its log weight under the soft evidence.

    With two players and kept-card odds the opponent's hand is drawn from the odds
    (:class:`OddsFill`), so only the rest of the evidence is left to weigh; otherwise deals are
    drawn evenly under the facts and weighed by all of it.
    """

    def __init__(self, kn: Knowledge, ev: Evidence | None, rng: random.Random) -> None:
        self.kn, self.ev, self.rng = kn, ev, rng
        self.fill = OddsFill(kn, ev.odds) if ev is not None and ev.odds is not None else None
        self._arrays: tuple | None = None  # the knowledge as arrays, for batch

    def deal(self) -> list[int]:
        return self.fill.sample(self.rng) if self.fill else sample_deal(self.kn, self.rng)

    def batch(self, count: int):
        """``count`` deals as an ``int64`` array (a row per deal), compiled where it can be."""
        if self.fill is not None:
            return np.array([self.fill.sample(self.rng) for _ in range(count)], dtype=np.int64)
        kn = self.kn
        if self._arrays is None:
            self._arrays = tuple(np.array(x, dtype=np.int64)
                                 for x in (cards_in(kn.unknown), kn.known, kn.need, kn.banned))
        rows = _kernel().sample_deals(*self._arrays, count, self.rng.getrandbits(32), 200)  # type: ignore[union-attr]
        if count and rows[0, 0] < 0:
            raise ValueError("no deal agrees with this view (contradictory voids?)")
        return rows

    def log_weight(self, deal: list[int]) -> float:
        if self.ev is None:
            return 0.0
        return self.ev.residual_log_weight(deal) if self.fill else self.ev.log_weight(deal)

    def log_weights(self, rows):
        """:meth:`log_weight` of every row of a :meth:`batch`, as a float array."""
        if self.ev is None:
            return np.zeros(len(rows))
        if self.fill is not None or self.ev.keeper is None:  # no kept-card part left to weigh
            return self.ev.residual_log_weights(rows)
        return np.array([self.log_weight(d) for d in rows.tolist()])


class _RowList:
    """Rows of a deal array read as lists of hands, converted only when read."""

    def __init__(self, rows) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> list[int]:
        return self.rows[i].tolist()


class _LazyDeals:
    """Sampled weighted deals, drawn until the deal count or the time budget runs out."""

    def __init__(self, draw: _Draw, cfg: SearchConfig, start: float, clock: Callable[[], float]) -> None:
        self.draw, self.cfg, self.start, self.clock = draw, cfg, start, clock

    def __iter__(self):
        cfg = self.cfg
        for i in range(cfg.max_deals):
            if i >= cfg.min_deals and self.clock() - self.start > cfg.budget_s:
                return
            d = self.draw.deal()
            yield d, math.exp(self.draw.log_weight(d))


def pimc_bot(config: SearchConfig | None = None, by_players: Mapping[int, SearchConfig] | None = None,
             **overrides) -> Callable[..., PimcBot]:
    """A registry factory for a search bot with ``config`` (plus field ``overrides``), and
    ``by_players`` for the player counts that search otherwise."""
    cfg = replace(config or SearchConfig(), **overrides)
    per = {p: replace(c, **overrides) for p, c in (by_players or {}).items()}

    def factory(seed: int | None = None, name: str = "pimc", **_: object) -> PimcBot:
        return PimcBot(cfg, seed=seed, name=name, by_players=per)

    return factory


__all__ = ["PimcBot", "SearchConfig", "Evaluator", "DDEvaluator", "HybridEvaluator", "game_value",
           "make_evaluator", "pimc_bot"]
