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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace

import numpy as np

from ..bots.base import Bot
from ..bots.heuristic import HeuristicBot
from ..cards import SUIT_MASKS, Card, cards_in, mask_of
from ..engine.actions import KEEP, PASS, PLAYS, TRUMPS, Action, Discard, Play
from ..engine.phase import Phase
from ..engine.view import SeatView
from .config import SearchConfig, margins_for, oversample_for
from .evaluators import BatchEvaluator, Evaluator, MarginEvaluator, make_evaluator
from .inference import Evidence
from .play_model import PlayEvidence
from .rollout import Position
from .sampler import Knowledge, OddsFill, enumerate_deals, knowledge, sample_deal
from .tuning import Tuning

#: Play-read resampling: candidates whose log weight falls this far below the best one so far
#: are not read further (e^-7 is under a thousandth of the best weight).
PRUNE_LOG = 7.0
#: Compiled work done per call: candidates drawn and read for the play-read, or deals scored by
#: playouts (the clock is read between calls).
CHUNK = 64


def game_value(view: SeatView, points: float) -> float:
    """Value of a hand result worth ``points`` signed points for the viewer's side.

    Points beyond what a side needs to reach the target are worth nothing, and reaching the
    target (ending the match) is worth a bonus of two points, so the search plays for the match
    and not for the hand alone.
    """
    target = view.rules.target_points
    if view.seat is None:
        raise ValueError("a game value is a seat's")
    me = view.side_of(view.seat)
    if points >= 0:
        need = target - view.scores[me]
        return min(points, need) + (2.0 if points >= need else 0.0)
    best_other = max(s for i, s in enumerate(view.scores) if i != me)
    need = target - best_other
    loss = -points
    return -(min(loss, need) + (2.0 if loss >= need else 0.0))


def _position(view: SeatView, hands: list[int], trump: int | None = None) -> Position:
    suit = view.trump if trump is None else trump
    if suit is None:
        raise ValueError("card play needs a trump suit")
    return Position(
        rules=view.rules,
        trump=int(suit),
        hands=hands,
        leader=view.leader,
        trick=[c for _, c in view.trick],
        seat_tricks=list(view.seat_tricks),
        hakem=view.hakem,
    )


def _kernel():
    """The compiled play-read and sampler (:mod:`hokm.search._heuristic_kernel`), loaded on first use."""
    from . import _heuristic_kernel

    return _heuristic_kernel


def _cheapness(card: Card, trump: int | None) -> tuple[int, int]:
    """Tie-break key: prefer side-suit cards to trumps, then lower ranks."""
    return (1 if trump is not None and card // 13 == trump else 0, card % 13)


class PimcBot(Bot):
    """Search bot over sampled deals; see the module docstring."""

    def __init__(self, config: SearchConfig | None = None, *, seed: int | None = None,
                 name: str = "pimc", evaluator: Evaluator | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 by_players: Mapping[int, SearchConfig] | None = None, tuning: Tuning | None = None) -> None:
        """``by_players`` replaces ``config`` at tables of some player counts: a level can
        search differently with 2, 3 and 4 players (the best settings differ) and still be one
        bot. It is ignored when ``evaluator`` is given. ``tuning`` holds the settings no level
        changes (:mod:`hokm.search.tuning`)."""
        self.config = config or SearchConfig()
        self.tuning = tuning or Tuning()
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

    def adjust(self, *, workers: int) -> None:
        """Change the processes that score deals for every player count at once (at a terminal)."""
        self._base = replace(self._base, workers=workers)
        self._by_players = {p: replace(c, workers=workers) for p, c in self._by_players.items()}
        cfg = replace(self.config, workers=workers)
        if self._fixed:
            self._install(cfg, self._setups[self.config])
        else:
            self._configure(cfg)

    def _configure(self, cfg: SearchConfig) -> None:
        """Search with ``cfg`` from now on (its evaluators are built once and kept)."""
        if cfg not in self._setups:
            seed, tuning = self._seed, self.tuning
            main = make_evaluator(cfg.evaluator, cfg.dd_cards, tuning.fallback, seed, cfg.dd_nodes)
            root = (main if tuning.root_evaluator == cfg.evaluator
                    else make_evaluator(tuning.root_evaluator, cfg.dd_cards, tuning.fallback, seed))
            three = (None if not cfg.evaluator3 or cfg.evaluator3 == cfg.evaluator
                     else make_evaluator(cfg.evaluator3, cfg.dd_cards, tuning.fallback, seed, cfg.dd_nodes))
            self._setups[cfg] = (main, root, three)
        self._install(cfg, self._setups[cfg])

    def _install(self, cfg: SearchConfig, setup: tuple) -> None:
        self._setups[cfg] = setup
        self.config = cfg
        self._main_evaluator, self.root_evaluator, self._evaluator3 = setup
        self.evaluator = self._main_evaluator

    # ------------------------------------------------------------------ entry point
    def config_for(self, players: int) -> SearchConfig:
        """The settings this bot searches with at a table of ``players`` players."""
        return self._by_players.get(players, self._base)

    def act(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action in the {view.phase} phase")
        if len(view.legal) == 1:
            self.last_deals = 0
            return view.legal[0]
        if self._by_players:
            self._configure(self.config_for(view.players))
        if self._delegate(view):
            self.last_deals = 0
            return self._heuristic().act(view)
        self.evaluator = (self._evaluator3 if view.players == 3 and self._evaluator3 is not None
                          else self._main_evaluator)
        for ev in (self.evaluator, self.root_evaluator):
            ev.prepare(view)
        if view.phase is Phase.PLAY:
            return self._play(view)
        if view.phase is Phase.TRUMP:
            return self._trump(view)
        if view.phase is Phase.DISCARD:
            return self._discard(view)
        if view.phase is Phase.DRAW:
            return self._draw(view)
        raise ValueError(f"no decision to make in the {view.phase} phase")

    def _delegate(self, view: SeatView) -> bool:
        cfg = self.config
        if view.phase is Phase.TRUMP:
            return (cfg.trump or cfg.root) == "heuristic"
        if view.phase is not Phase.PLAY:
            return cfg.root == "heuristic"
        return cfg.early == "heuristic" and len(view.hand) > cfg.dd_cards[view.players - 2]

    def _heuristic(self) -> Bot:
        if self._rules_bot is None:
            self._rules_bot = HeuristicBot(seed=self.rng.randrange(2**31))
        return self._rules_bot

    # ------------------------------------------------------------------ deals
    def _deals(self, view: SeatView, kn: Knowledge, start: float) -> Iterable[tuple[list[int], float]]:
        """Deals with weights: all of them when few exist, else sampled within the budget."""
        cfg = self.config
        tuning = self.tuning
        if tuning.early_deals and len(view.hand) > cfg.dd_cards[view.players - 2]:
            cfg = replace(cfg, max_deals=tuning.early_deals)
        ev = Evidence(view, trump_model=tuning.trump_evidence, keep_model=tuning.keep_model) if cfg.inference else None
        if ev is not None and not ev.active:
            ev = None
        draw = _Draw(kn, ev, self.rng)
        play = None
        if cfg.play_miss > 0 and view.phase is Phase.PLAY:
            play = PlayEvidence(view, miss=cfg.play_miss)
            if not play.active:
                play = None
        listed = enumerate_deals(kn, cfg.enumerate_limit)
        if listed is not None:
            return [(d, _weight(d, ev, play)) for d in listed]
        if play is not None and oversample_for(cfg, view.players) > 1:
            return self._resampled(draw, play, start, cfg, oversample_for(cfg, view.players))
        return _LazyDeals(draw, cfg, start, self.clock)

    def _resampled(self, draw: _Draw, play: PlayEvidence,
                   start: float, cfg: SearchConfig, oversample: int) -> list[tuple[list[int], float]]:
        """Draw ``oversample`` candidates per searched deal (within half the budget), then keep
        ``max_deals`` of them drawn in proportion to their weights (systematic resampling)."""
        want = cfg.max_deals * oversample
        floor_count = cfg.min_deals * oversample
        logs: list[float] = []
        best = -math.inf
        # Candidates drawn and read a chunk at a time (compiled), the clock checked between
        # chunks; only the candidates kept become lists.
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
        evaluator = self.evaluator
        with_margins = margins_for(cfg, view.players) and isinstance(evaluator, MarginEvaluator)
        if cfg.workers > 1:
            deals = list(deals)
            cut = len(deals) * (cfg.workers - 1) // cfg.workers
            if cut >= 2:
                from . import parallel

                remote, deals = deals[:cut], deals[cut:]
                future = parallel.submit(cfg, self.tuning, self._seed, view, [_position(view, h) for h, _ in remote])

        worth: dict[float, float] = {}  # game value by hand points (a handful of distinct values)

        def add(values: dict[Card, float], margin: dict[Card, float], w: float) -> None:
            for c, v in values.items():
                g = worth.get(v)
                if g is None:
                    g = worth[v] = game_value(view, v)
                totals[c] = totals.get(c, 0.0) + w * g
            for c, m in margin.items():
                margins[c] = margins.get(c, 0.0) + w * m

        if isinstance(evaluator, BatchEvaluator) and future is None and not with_margins:
            # Compiled playouts score a chunk of deals per call; the lazy deals check the clock.
            for chunk in _chunks(deals, CHUNK):
                cards_, rows = evaluator.values_for_deals(_position(view, chunk[0][0]), [h for h, _ in chunk])
                for (_, w), row in zip(chunk, rows):
                    add(dict(zip(cards_, row)), {}, w)
                    weight_sum += w
                    count += 1
        else:
            for hands, w in deals:
                if future is not None and count and self.clock() - start > cfg.budget_s:
                    break  # the helpers' share still counts; the lazy deals check the clock themselves
                pos = _position(view, hands)
                if with_margins and isinstance(evaluator, MarginEvaluator):
                    add(*evaluator.move_margins(pos), w)
                else:
                    add(evaluator.move_values(pos), {}, w)
                weight_sum += w
                count += 1
        if future is not None:
            from .parallel import as_cards

            for (_, w), (values, margin) in zip(remote, future.result()):
                add(as_cards(values), as_cards(margin) if with_margins else {}, w)
                weight_sum += w
                count += 1
        self.last_deals = count
        cards = [a.card for a in view.legal if isinstance(a, Play)]
        scores = {c: totals.get(c, float("-inf")) / max(weight_sum, 1e-300) for c in cards}
        if with_margins and not cfg.noise:
            best = max(scores.values())
            tied = {c: margins.get(c, 0.0) for c in cards if scores[c] >= best - 1e-9}
            top = max(tied.values())
            # Equal expected value: the safer win or the closer loss, then as below.
            scores = {c: (scores[c] if tied.get(c, -math.inf) >= top - 1e-9 else -math.inf) for c in cards}
        if cfg.anchor >= 0 and not cfg.noise:
            rule = self._heuristic().act(view)
            if isinstance(rule, Play) and scores[rule.card] >= max(scores.values()) - cfg.anchor - 1e-9:
                return PLAYS[rule.card]
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
        deal: Callable[[], list[int]]
        if view.players == 2:
            fill, own = _TwoPlayerFill(view, self.rng), mask_of(view.hand)
            def deal() -> list[int]:
                return fill.deal(own)
        else:
            kn = knowledge(view, complete=True)

            def deal() -> list[int]:
                return sample_deal(kn, self.rng)
        done = 0
        # Every suit is scored on the same deals, so their differences are not sampling noise;
        # the clock is read after each deal, so the budget covers the scoring too.
        while done < cfg.root_deals and not (done >= cfg.min_deals and self.clock() - start > cfg.budget_s):
            hands = deal()
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
        options = [a for a in view.legal if isinstance(a, Discard)]
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
        if view.trump is None:
            raise ValueError("two-player draws come after the trump is named")
        pos = Position(view.rules, int(view.trump), hands, view.hakem, [], [0, 0], view.hakem)
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


def _weight(deal: list[int], ev: Evidence | None, play: PlayEvidence | None) -> float:
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
        rows = _kernel().sample_deals(*self._arrays, count, self.rng.getrandbits(32), 200)
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

    def __iter__(self) -> Iterator[tuple[list[int], float]]:
        cfg = self.cfg
        for i in range(cfg.max_deals):
            if i >= cfg.min_deals and self.clock() - self.start > cfg.budget_s:
                return
            d = self.draw.deal()
            yield d, math.exp(self.draw.log_weight(d))


__all__ = ["PimcBot", "game_value"]
