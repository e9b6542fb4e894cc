"""The compiled heuristic player and play-read agree with the Python ones, card for card."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

from hokm.bots.heuristic import choose_play
from hokm.bots.memory import Memory
from hokm.cards import cards_in
from hokm.engine import Game, Phase, Rules
from hokm.players import make_bot
from hokm.search import _heuristic_kernel as hk
from hokm.search.play_model import PlayEvidence
from hokm.search.sampler import knowledge, sample_deal, voids_of


def play_positions(players: int, seed: int, bots: tuple[str, ...]):
    """Every card-play view of one whole game, the seats driven by ``bots`` in turn."""
    game = Game.new(Rules(players=players, target_points=3), seed=seed)
    seats = [make_bot(bots[s % len(bots)], seed=seed * 10 + s) for s in range(players)]
    rng = random.Random(seed)
    while not game.is_over:
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        view = game.view(game.to_move)
        if game.phase is Phase.PLAY:
            yield view
        game.apply(seats[game.to_move].act(view))


def kernel_card(view) -> int:
    m = Memory.from_view(view)
    legal = 0
    for a in view.legal:
        legal |= 1 << a.card
    tseats = np.zeros(3, dtype=np.int64)
    tcards = np.zeros(3, dtype=np.int64)
    for j, (s, c) in enumerate(view.trick):
        tseats[j], tcards[j] = s, c
    return int(hk.choose_play(view.players, m.seat, -1 if m.trump is None else m.trump, m.hand, m.unseen,
                              np.array(m.voids, dtype=np.int64), tseats, tcards, len(view.trick), legal))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_heuristic_plays_the_same_card(players: int) -> None:
    """On every play of whole games (heuristic and random players, so odd spots come up too)."""
    compared = 0
    for seed in range(12):
        bots = ("heuristic",) if seed % 3 == 0 else ("random", "heuristic") if seed % 3 == 1 else ("random",)
        for view in play_positions(players, 7000 + seed, bots):
            expected = choose_play(view, Memory.from_view(view))
            assert kernel_card(view) == expected, (players, seed, view.seat, view.trick, view.hand)
            compared += 1
    assert compared > 500


@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_play_read_gives_the_python_weights(players: int) -> None:
    """Same deals, same log weights, pruning included."""
    checked = 0
    for seed in range(8):
        views = [v for v in play_positions(players, 7100 + seed, ("heuristic", "random"))
                 if len(v.completed) >= 3 and len(v.legal) > 1]
        rng = random.Random(seed)
        for view in views[:: max(1, len(views) // 6)]:
            ev = PlayEvidence(view, miss=0.25)
            if not ev.active:
                continue
            kn = knowledge(view)
            deals = [sample_deal(kn, rng) for _ in range(40)]
            base = [rng.uniform(-3.0, 0.0) for _ in deals]
            got = ev.log_weights(np.array(deals, dtype=np.int64), np.array(base), 7.0)
            best = -math.inf
            for d, b, g in zip(deals, base, got):
                want = ev.log_weight(d, floor=best - 7.0 - b)
                assert g == pytest.approx(want, abs=1e-12)
                best = max(best, b + want)
            full = ev.log_weights(np.array(deals, dtype=np.int64), np.zeros(len(deals)), math.inf)
            assert [pytest.approx(ev.log_weight(d), abs=1e-12) for d in deals] == list(full)
            checked += 1
    assert checked >= 20


def test_compiled_sampler_obeys_the_facts_and_draws_like_the_python_one() -> None:
    """Hands of the right sizes, no card twice, voids respected; card-to-seat frequencies match."""
    view = next(v for v in play_positions(4, 7200, ("heuristic",)) if len(v.completed) >= 4 and any(voids_of(v)))
    kn = knowledge(view)
    rows = hk.sample_deals(np.array(cards_in(kn.unknown), dtype=np.int64), np.array(kn.known, dtype=np.int64),
                           np.array(kn.need, dtype=np.int64), np.array(kn.banned, dtype=np.int64), 4000, 11, 200)
    fast, slow = Counter(), Counter()
    for row in rows.tolist():
        assert sum(h.bit_count() for h in row) == sum(kn.need) + kn.known[kn.seat].bit_count()
        union = 0
        for s, h in enumerate(row):
            assert union & h == 0
            union |= h
            assert h & kn.banned[s] == 0
            assert (h & ~kn.unknown) == kn.known[s]
            assert (h & kn.unknown).bit_count() == kn.need[s]
            for c in cards_in(h & kn.unknown):
                fast[(c, s)] += 1
    rng = random.Random(5)
    for _ in range(4000):
        for s, h in enumerate(sample_deal(kn, rng)):
            for c in cards_in(h & kn.unknown):
                slow[(c, s)] += 1
    for key in set(fast) | set(slow):
        # 4,000 draws each: a frequency's standard error is under 0.8 points.
        assert abs(fast[key] - slow[key]) / 4000 < 0.05, key
    # Deterministic for a seed, different for another.
    again = hk.sample_deals(np.array(cards_in(kn.unknown), dtype=np.int64), np.array(kn.known, dtype=np.int64),
                            np.array(kn.need, dtype=np.int64), np.array(kn.banned, dtype=np.int64), 4000, 11, 200)
    assert (again == rows).all()


def test_compiled_sampler_reports_impossible_constraints() -> None:
    # Two seats each need one card, both banned from the only two cards' suit.
    spades = np.array([0, 1], dtype=np.int64)
    rows = hk.sample_deals(spades, np.zeros(2, dtype=np.int64), np.array([1, 1], dtype=np.int64),
                           np.array([0x1FFF, 0x1FFF], dtype=np.int64), 3, 1, 5)
    assert (rows == -1).all()


def compiled_and_python_playouts():
    """Two playout evaluators, one on the compiled heuristic player and one on the Python bot."""
    from hokm.search.lookahead import LookaheadEvaluator

    fast = LookaheadEvaluator.playout()
    assert fast._kernel is not None
    slow = LookaheadEvaluator.playout()
    slow._kernel = None
    return fast, slow


@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_playouts_score_like_the_python_rollout(players: int) -> None:
    """:meth:`LookaheadEvaluator.playout` with and without the compiled player: same values."""
    from hokm.search.rollout import Position

    fast, slow = compiled_and_python_playouts()
    checked = 0
    for seed in range(6):
        for view in play_positions(players, 7300 + seed, ("random", "heuristic")):
            if len(view.legal) < 2 or view.hand_index % 2:
                continue
            kn = knowledge(view)
            hands = sample_deal(kn, random.Random(checked))
            pos = Position(view.rules, int(view.trump), hands, view.leader, [c for _, c in view.trick],
                           list(view.seat_tricks), view.hakem)
            fast.prepare(view)
            slow.prepare(view)
            assert fast.move_values(pos) == slow.move_values(pos)
            assert fast.hand_value(pos) == slow.hand_value(pos)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_batch_of_deals_gets_the_values_of_one_deal_at_a_time(players: int) -> None:
    """``values_for_deals`` (one compiled call for many deals) against ``move_values`` per deal,
    compiled and in Python."""
    from dataclasses import replace

    from hokm.search.rollout import Position

    fast, slow = compiled_and_python_playouts()
    checked = 0
    for seed in range(4):
        for view in play_positions(players, 7500 + seed, ("heuristic", "random")):
            if len(view.legal) < 2 or view.hand_index % 2:
                continue
            rng = random.Random(checked)
            deals = [sample_deal(knowledge(view), rng) for _ in range(5)]
            pos = Position(view.rules, int(view.trump), deals[0], view.leader, [c for _, c in view.trick],
                           list(view.seat_tricks), view.hakem)
            fast.prepare(view)
            slow.prepare(view)
            cards, rows = fast.values_for_deals(pos, deals)
            assert cards == pos.legal() and len(rows) == len(deals)
            for hands, row in zip(deals, rows):
                one = fast.move_values(replace(pos, hands=hands))
                assert row == [one[c] for c in cards]
            assert slow.values_for_deals(pos, deals) == (cards, rows)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_lookahead_hands_the_same_positions_to_the_solver(players: int) -> None:
    """Heuristic play to the solver's reach, then the solver: compiled and Python agree."""
    from hokm.search.evaluators import DDEvaluator
    from hokm.search.lookahead import LookaheadEvaluator
    from hokm.search.rollout import Position

    dd = DDEvaluator()
    reach = (6, 6, 5)
    fast = LookaheadEvaluator(dd.result, dd.limit_error, reach).compiled()
    assert fast._kernel is not None
    slow = LookaheadEvaluator(dd.result, dd.limit_error, reach)
    checked = 0
    for seed in range(3):
        for view in play_positions(players, 7400 + seed, ("heuristic", "random")):
            if len(view.legal) < 2 or view.hand_index % 3 or len(view.hand) < 9:
                continue
            hands = sample_deal(knowledge(view), random.Random(checked))
            pos = Position(view.rules, int(view.trump), hands, view.leader, [c for _, c in view.trick],
                           list(view.seat_tricks), view.hakem)
            fast.prepare(view)
            slow.prepare(view)
            assert fast.move_values(pos) == slow.move_values(pos)
            checked += 1
    assert checked > 20


def test_candidates_per_searched_deal_can_differ_by_player_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """``oversample=(2, 3, 5)``: a four-player decision reads five candidates per searched deal."""
    from dataclasses import replace

    from hokm.search import pimc
    from hokm.search.levels import LEVELS

    seen = []
    original = pimc.PimcBot._resampled

    def spy(self, draw, play, start, cfg, oversample):
        out = original(self, draw, play, start, cfg, oversample)
        seen.append((oversample, len(out)))
        return out

    monkeypatch.setattr(pimc.PimcBot, "_resampled", spy)
    cfg = replace(LEVELS["expert"], max_deals=6, min_deals=6, budget_s=10.0, oversample=(2, 3, 5),
                  enumerate_limit=0)
    for players, want in ((4, 5), (3, 3)):
        view = next(v for v in play_positions(players, 7500, ("heuristic",))
                    if len(v.hand) <= 7 and len(v.legal) > 1)
        seen.clear()
        pimc.PimcBot(cfg, seed=1).act(view)
        assert seen == [(want, 6)]
    bot = make_bot("pimc:expert,oversample=4/4/16", seed=1)
    assert bot.config.oversample == (4, 4, 16)
