"""Two players: the opponent's hand drawn from kept-card odds, exactly, and closer to the truth."""

from __future__ import annotations

import collections
import itertools
import math
import random

import pytest

from hokm.cards import SUIT_MASKS, cards_in, mask_of
from hokm.engine import Game, Phase, Rules
from hokm.players import make_bot
from hokm.search.inference import Evidence, kept_odds
from hokm.search.sampler import Knowledge, OddsFill, knowledge, sample_deal

from .test_sampler import check_deal, play_until


def _small_knowledge(cards: list[int], need: int, banned: int = 0) -> Knowledge:
    return Knowledge(2, 0, mask_of(cards), (mask_of([40, 41]), 0), (0, need), (0, banned))


def test_odds_fill_draws_each_hand_in_proportion_to_its_odds() -> None:
    cards = [0, 3, 7, 13, 20, 26]
    odds = [1.0] * 52
    for c, w in zip(cards, [0.3, 5.0, 1.0, 2.0, 0.5, 8.0]):
        odds[c] = w
    kn = _small_knowledge(cards, 3)
    fill = OddsFill(kn, odds)
    rng = random.Random(7)
    draws = 40_000
    seen = collections.Counter(fill.sample(rng)[1] for _ in range(draws))
    subsets = [mask_of(s) for s in itertools.combinations(cards, 3)]
    total = sum(math.prod(odds[c] for c in cards_in(m)) for m in subsets)
    assert set(seen) <= set(subsets)
    for m in subsets:
        p = math.prod(odds[c] for c in cards_in(m)) / total
        sd = math.sqrt(p * (1 - p) / draws)
        assert abs(seen[m] / draws - p) < 5 * sd + 1e-4, (cards_in(m), seen[m] / draws, p)


def test_odds_fill_keeps_the_facts() -> None:
    cards = [0, 3, 7, 13, 20, 26]
    kn = _small_knowledge(cards, 3, banned=SUIT_MASKS[0])  # void in the first suit
    fill = OddsFill(kn, [2.0] * 52)
    rng = random.Random(1)
    for _ in range(200):
        hands = fill.sample(rng)
        assert hands[0] == mask_of([40, 41])
        assert hands[1] == mask_of([13, 20, 26])  # the only three cards it may hold
    with pytest.raises(ValueError, match="no deal agrees"):
        OddsFill(_small_knowledge(cards, 4, banned=SUIT_MASKS[0]), [1.0] * 52)
    with pytest.raises(ValueError, match="one hidden hand"):
        OddsFill(knowledge(play_until(4, 3, plays=2).view(0)), [1.0] * 52)


def test_odds_fill_deals_agree_with_a_real_view() -> None:
    game = play_until(2, 11, plays=5)
    seat = game.to_move
    view = game.view(seat)
    fill = OddsFill(knowledge(view), kept_odds(view))
    rng = random.Random(3)
    for _ in range(50):
        check_deal(game, seat, fill.sample(rng))


def _heuristic_play_start(seed: int) -> Game:
    game = Game.new(Rules(players=2, target_points=1), seed=seed)
    bots = [make_bot("heuristic", seed=seed * 2 + s) for s in range(2)]
    while game.phase is not Phase.PLAY:
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    return game


def test_kept_odds_favour_trumps_and_winners() -> None:
    game = _heuristic_play_start(91)
    view = game.view(0)
    odds = kept_odds(view)
    unknown = knowledge(view).unknown
    for c in range(52):
        if not (unknown >> c) & 1:
            assert odds[c] == 1.0
    trumps = [odds[c] for c in cards_in(unknown & SUIT_MASKS[game.trump])]
    low_side = [odds[c] for c in cards_in(unknown & ~SUIT_MASKS[game.trump]) if c % 13 < 5]
    assert trumps and low_side
    assert min(trumps) > 2.0  # kept more than two times in three
    assert max(low_side) < 0.7  # kept less than two times in five
    with pytest.raises(ValueError, match="two-player"):
        kept_odds(play_until(4, 3, plays=2).view(0))


def test_kept_odds_place_the_real_opponent_hand_better_than_even_draws() -> None:
    """The point of the model: on hands between heuristic players, the sampled opponent hand
    shares clearly more cards with his real one than an even draw from the unseen cards."""
    rng = random.Random(5)
    even = odds_based = 0.0
    hands = 40
    for i in range(hands):
        game = _heuristic_play_start(500 + i)
        seat = i % 2
        view = game.view(seat)
        kn = knowledge(view)
        real = game.hands[1 - seat]
        fill = OddsFill(kn, kept_odds(view))
        for _ in range(20):
            even += (sample_deal(kn, rng)[1 - seat] & real).bit_count()
            odds_based += (fill.sample(rng)[1 - seat] & real).bit_count()
    even /= hands * 20
    odds_based /= hands * 20
    assert 6.0 < even < 7.0  # 13 of 26 unseen cards: 6.5 in common on average
    assert odds_based > even + 1.0


def test_evidence_splits_into_kept_odds_and_the_rest() -> None:
    game = play_until(2, 4, plays=3)
    view = game.view(game.to_move)
    kn = knowledge(view)
    rng = random.Random(2)
    table = Evidence(view)
    factor = Evidence(view, keep_model="factor")
    assert table.odds is not None and factor.odds is None
    for _ in range(20):
        d = sample_deal(kn, rng)
        assert table.log_weight(d) == pytest.approx(table.keep_log_weight(d) + table.residual_log_weight(d))
        assert factor.log_weight(d) == pytest.approx(factor.keep_log_weight(d) + factor.residual_log_weight(d))
    with pytest.raises(ValueError, match="keep_model"):
        Evidence(view, keep_model="guess")
