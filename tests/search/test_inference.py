"""The trump choice as evidence: the longest-suit-of-five likelihood, against brute force."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from hokm.cards import SUIT_MASKS
from hokm.search.inference import TRUMP_FLOOR, Evidence, trump_choice_probability
from hokm.search.sampler import knowledge, sample_deal

from .test_sampler import play_until


def brute_force(counts: tuple[int, ...], suit: int, first: int = 5) -> float:
    """Every ``first``-card packet of a holding with these suit lengths, counted one by one."""
    cards = [s for s, n in enumerate(counts) for _ in range(n)]
    hits = 0.0
    packets = 0
    for packet in itertools.combinations(range(len(cards)), first):
        lengths = [0] * len(counts)
        for i in packet:
            lengths[cards[i]] += 1
        top = max(lengths)
        if lengths[suit] == top:
            hits += 1 / lengths.count(top)
        packets += 1
    return hits / packets


@pytest.mark.parametrize("counts", [(4, 3, 3, 3), (5, 3, 3, 2), (2, 4, 4, 3), (1, 4, 4, 4), (7, 6, 0, 0),
                                    (13, 0, 0, 0), (5, 4, 4, 4), (2, 2, 2, 2)])
def test_matches_brute_force_and_sums_to_one(counts: tuple[int, ...]) -> None:
    for suit in range(4):
        assert trump_choice_probability(counts, suit) == pytest.approx(brute_force(counts, suit), abs=1e-12)
    assert sum(trump_choice_probability(counts, s) for s in range(4)) == pytest.approx(1.0)


def test_a_lone_trump_cannot_be_the_longest_suit_of_five() -> None:
    # Five cards in four suits put two in some suit: a suit held once never leads alone.
    assert trump_choice_probability((1, 4, 4, 4), 0) == 0.0
    assert trump_choice_probability((0, 5, 4, 4), 0) == 0.0
    # ... and more trumps make the choice likelier, step by step.
    chances = [trump_choice_probability((k, 13 - k - 2 * ((13 - k) // 3), (13 - k) // 3, (13 - k) // 3), 0)
               for k in range(2, 8)]
    assert chances == sorted(chances)


def _hakem_view_weights(model: str):
    game = play_until(4, 2, plays=1)
    seat = next(s for s in range(4) if s != game.hakem)
    view = game.view(seat)
    ev = Evidence(view, trump_model=model)
    kn = knowledge(view)
    rng = random.Random(0)
    deals = [sample_deal(kn, rng) for _ in range(400)]
    return game, view, deals, [ev.weight(d) for d in deals]


def test_choice_model_weights_deals_by_the_hakems_holding() -> None:
    game, view, deals, weights = _hakem_view_weights("choice")
    trump = SUIT_MASKS[view.trump]
    held = [(d[game.hakem] & trump).bit_count() + (1 if any(
        c // 13 == view.trump for s, c in view.trick if s == game.hakem) else 0) for d in deals]
    plain = sum(held) / len(held)
    weighted = sum(w * h for w, h in zip(weights, held)) / sum(weights)
    assert weighted > plain + 0.5
    # The floor keeps every deal possible, however unlikely the rule makes it.
    assert min(weights) >= TRUMP_FLOOR - 1e-12
    low = [w for w, h in zip(weights, held) if h <= 1]
    assert not low or max(low) == pytest.approx(TRUMP_FLOOR)


def test_count_model_is_still_available_and_unknown_models_are_refused() -> None:
    game, view, deals, weights = _hakem_view_weights("count")
    assert len(set(round(math.log(w), 9) for w in weights)) > 1
    with pytest.raises(ValueError, match="trump_model"):
        Evidence(view, trump_model="guess")


@pytest.mark.parametrize("players, model", [(4, "choice"), (4, "count"), (3, "choice"), (2, "table")])
def test_many_deals_get_the_weights_of_one_deal_at_a_time(players: int, model: str) -> None:
    """``residual_log_weights`` (an array of deals) is :meth:`Evidence.residual_log_weight`
    per deal, bit for bit: the Hâkem's holding and the high cards of suits thrown off."""
    import numpy as np

    checked = 0
    for seed in range(12):
        for plays in (3, 9, 17):
            game = play_until(players, 300 + seed, plays)
            view = game.view(game.to_move)
            kwargs = {"keep_model": model} if model == "table" else {"trump_model": model}
            ev = Evidence(view, **kwargs)
            if not ev.active:
                continue
            rng = random.Random(seed)
            deals = [sample_deal(knowledge(view), rng) for _ in range(60)]
            assert ev.residual_log_weights(np.array(deals, dtype=np.int64)).tolist() == [
                ev.residual_log_weight(d) for d in deals]
            checked += 1
    assert checked >= 12
