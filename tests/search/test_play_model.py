"""Inference from card play: a deal that explains the others' plays weighs more."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from hokm.bots.heuristic import HeuristicBot
from hokm.cards import mask_of
from hokm.engine import Game, Phase, Rules
from hokm.search.config import SearchConfig
from hokm.search.pimc import PimcBot
from hokm.search.play_model import PlayEvidence, _touching
from hokm.search.sampler import knowledge, sample_deal

from .test_pimc import Recorder


def heuristic_mid_hand(players: int, seed: int, plays: int) -> Game:
    """A hand played by the heuristic bot in every seat, stopped after ``plays`` cards."""
    game = Game.new(Rules(players=players), seed=seed)
    bot = HeuristicBot()
    rng = random.Random(seed)
    count = 0
    while True:
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        if game.phase is Phase.PLAY:
            if count >= plays and len(game.legal_cards()) > 1:
                return game
            count += 1
        game.apply(bot.act(game.view(game.to_move)))


@pytest.mark.parametrize("players", [3, 4])
def test_the_real_deal_explains_model_players_best(players: int) -> None:
    """With heuristic players, the true deal misses no play, and random deals miss some.

    (Two players: the opponent also knows his own face-down discards, which no sampled deal
    places, so even the true deal can miss a play there; see the next test.)
    """
    worse = 0
    for seed in range(6):
        game = heuristic_mid_hand(players, seed, plays=6 * players)
        view = game.view(game.to_move)
        ev = PlayEvidence(view)
        assert ev.active
        truth = ev.log_weight(list(game.hands))
        assert truth == 0.0
        kn = knowledge(view)
        rng = random.Random(seed)
        samples = [ev.log_weight(sample_deal(kn, rng)) for _ in range(20)]
        assert max(samples) <= truth
        worse += sum(1 for s in samples if s < truth)
    assert worse > 20  # most sampled deals contradict some play


def test_two_players_the_real_deal_still_explains_more_than_most() -> None:
    better = total = 0
    for seed in range(6):
        game = heuristic_mid_hand(2, seed, plays=12)
        view = game.view(game.to_move)
        ev = PlayEvidence(view)
        truth = ev.log_weight(list(game.hands))
        kn = knowledge(view)
        rng = random.Random(seed)
        for _ in range(20):
            total += 1
            better += truth >= ev.log_weight(sample_deal(kn, rng))
    assert better > 0.8 * total


def test_a_deal_is_never_ruled_out() -> None:
    game = heuristic_mid_hand(4, 3, plays=30)
    view = game.view(game.to_move)
    ev = PlayEvidence(view, miss=0.1)
    kn = knowledge(view)
    rng = random.Random(0)
    for _ in range(30):
        lw = ev.log_weight(sample_deal(kn, rng))
        assert lw <= 0.0
        assert ev.weight(sample_deal(kn, rng)) > 0.0
        # every penalty is a whole number of misses
        k = lw / math.log(0.1)
        assert abs(k - round(k)) < 1e-9


def test_only_the_others_plays_are_read() -> None:
    game = heuristic_mid_hand(4, 5, plays=20)
    view = game.view(game.to_move)
    ev = PlayEvidence(view)
    assert ev.decisions and all(d.seat != view.seat for d in ev.decisions)
    first = heuristic_mid_hand(4, 5, plays=0)
    assert not PlayEvidence(first.view(first.to_move)).active


def test_touching_cards_are_the_same_card() -> None:
    # spades 0..12: holding 9 and 7 (ranks 7 and 5) with the 8 played, they touch
    nine, eight, seven, two = 7, 6, 5, 0
    assert _touching(nine, seven, hand=(1 << nine) | (1 << seven), played=1 << eight)
    assert not _touching(nine, seven, hand=(1 << nine) | (1 << seven), played=0)  # the 8 is out
    assert _touching(two, seven, hand=mask_of([0, 1, 2, 3, 4, 5]), played=0)
    assert not _touching(seven, 13 + 5, hand=-1, played=0)  # another suit


def test_the_search_bot_resamples_by_play_evidence() -> None:
    game = heuristic_mid_hand(4, 7, plays=18)
    view = game.view(game.to_move)
    rec = Recorder()
    cfg = SearchConfig(max_deals=8, min_deals=8, budget_s=10.0, enumerate_limit=0, evaluator="rollout",
                       play_miss=0.25, oversample=6)
    bot = PimcBot(cfg, seed=1, evaluator=rec)
    action = bot.act(view)
    assert action in view.legal
    assert bot.last_deals == 8
    ev = PlayEvidence(view)
    kept = [ev.log_weight(list(p.hands)) for p, _ in rec.calls]
    kn = knowledge(view)
    rng = random.Random(2)
    plain = [ev.log_weight(sample_deal(kn, rng)) for _ in range(200)]
    assert sum(kept) / len(kept) > sum(plain) / len(plain)


def test_anchor_keeps_the_heuristic_card_unless_search_clearly_beats_it() -> None:
    game = heuristic_mid_hand(4, 9, plays=9)
    view = game.view(game.to_move)
    rule_card = HeuristicBot().act(view).card
    other = next(a.card for a in view.legal if a.card != rule_card)
    base = SearchConfig(max_deals=3, min_deals=3, budget_s=10.0, enumerate_limit=0, evaluator="rollout")
    # the evaluator prefers another card by 2 points on every deal
    loose = PimcBot(replace(base, anchor=5.0), seed=0, evaluator=Recorder(favourite=other))
    assert loose.act(view).card == rule_card
    strict = PimcBot(replace(base, anchor=0.5), seed=0, evaluator=Recorder(favourite=other))
    assert strict.act(view).card == other
    tied = PimcBot(replace(base, anchor=0.0), seed=0, evaluator=Recorder(favourite=None))
    assert tied.act(view).card == rule_card


def card_scores(bot: PimcBot, view) -> dict:
    """The scores ``bot`` gives the cards of ``view`` (it must not settle on the heuristic card
    before comparing them: ``anchor`` below 0)."""
    seen: list[dict] = []
    original = bot._pick

    def spy(scores, trump, key=None):
        seen.append(dict(scores))
        return original(scores, trump, key)

    bot._pick = spy  # type: ignore[method-assign]
    assert bot.act(view) in view.legal
    return seen[0]


@pytest.mark.parametrize("margins", [False, True])
def test_two_workers_give_the_one_worker_answer(margins: bool) -> None:
    """Deals scored in a helper process add up to exactly what one process computes (values,
    and trick margins where they break ties)."""
    game = heuristic_mid_hand(4, 11, plays=28)
    view = game.view(game.to_move)
    cfg = SearchConfig(max_deals=8, min_deals=8, budget_s=30.0, enumerate_limit=0, evaluator="dd",
                       dd_cards=(13, 13, 13), margins=margins)
    one = PimcBot(cfg, seed=5)
    two = PimcBot(replace(cfg, workers=2), seed=5)
    seen = [card_scores(bot, view) for bot in (one, two)]
    assert one.last_deals == two.last_deals == 8
    assert seen[0] == pytest.approx(seen[1])


def test_all_touching_agrees_with_pairwise_touching() -> None:
    from hokm.search.play_model import _all_touching, _cards

    rng = random.Random(5)
    for _ in range(3000):
        legal = sum(1 << c for c in rng.sample(range(52), rng.randint(1, 5)))
        if rng.random() < 0.5:  # often a single suit, where the answer is interesting
            suit = rng.randrange(4)
            legal = sum(1 << (13 * suit + r) for r in rng.sample(range(13), rng.randint(1, 4)))
        played = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 20))) & ~legal
        cards = _cards(legal)
        expected = all(_touching(cards[0], c, legal, played) for c in cards[1:])
        assert _all_touching(legal, played) == expected


def test_a_floor_stops_reading_only_deals_already_below_it() -> None:
    game = heuristic_mid_hand(4, 3, plays=24)
    view = game.view(game.to_move)
    ev = PlayEvidence(view, miss=0.25)
    kn = knowledge(view)
    rng = random.Random(3)
    for _ in range(200):
        deal = sample_deal(kn, rng)
        full = ev.log_weight(deal)
        for floor in (-1.0, -3.0, -6.0):
            cut = ev.log_weight(deal, floor=floor)
            if full >= floor:
                assert cut == full  # nothing above the floor is cut short
            else:
                assert full <= cut < floor  # an upper bound, still below the floor


def test_two_workers_give_the_one_worker_answer_with_playouts_early() -> None:
    """Expert's four-player first tricks (compiled playouts to the end of the hand) scored partly in
    a helper process: the helper prepares its playouts from the same view."""
    from hokm.search.levels import LEVEL_PLAYERS

    game = heuristic_mid_hand(4, 12, plays=4)
    view = game.view(game.to_move)
    assert len(view.hand) > 8
    cfg = replace(LEVEL_PLAYERS["expert"][4], max_deals=8, min_deals=8, budget_s=30.0, play_miss=0.0,
                  anchor=-1.0)
    bots = (PimcBot(cfg, seed=5), PimcBot(replace(cfg, workers=2), seed=5))
    seen = [card_scores(bot, view) for bot in bots]
    assert [bot.last_deals for bot in bots] == [8, 8]
    assert seen[0] == pytest.approx(seen[1])


@pytest.mark.parametrize("players", [3, 4])
def test_playouts_scored_in_batches_give_the_deal_by_deal_scores(players: int) -> None:
    """Expert's playouts, a chunk of deals per compiled call, add up to the same card scores
    as one deal at a time."""
    from hokm.search.levels import LEVEL_PLAYERS

    cfg = replace(LEVEL_PLAYERS["expert"][players], max_deals=100, min_deals=100, budget_s=30.0, anchor=-1.0)
    for plays in (3, 14, 25):
        game = heuristic_mid_hand(players, 21, plays=plays)
        view = game.view(game.to_move)
        seen: list[dict] = []
        for batched in (True, False):
            bot = PimcBot(cfg, seed=8)
            bot._configure(cfg)
            if not batched:
                bot._main_evaluator.values_for_deals = None  # type: ignore[attr-defined]
                if bot._evaluator3 is not None:
                    bot._evaluator3.values_for_deals = None  # type: ignore[attr-defined]
            seen.append(card_scores(bot, view))
            assert bot.last_deals == 100
        assert seen[0] == seen[1]
