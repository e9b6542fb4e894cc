"""Commit-reveal shuffles: the algorithm is pinned, unbiased, and verification catches tampering."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hokm.cards import full_deck
from hokm.engine import Phase, Rules
from hokm.fairness import (
    ByteStream,
    FairnessError,
    HandSeeds,
    commit_of,
    derive_deck,
    derive_hakem_draw,
    new_game,
    normalise_seed,
    verify_record,
)
from hokm.records import load_record, record_from_game

ZERO = "00" * 32


def test_known_answers_pin_the_documented_algorithm() -> None:
    # These values are quoted in docs/fairness.md; changing the algorithm must change both.
    assert commit_of(ZERO) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    deck = derive_deck(Rules(players=4), ZERO, 0, [None] * 4)
    assert " ".join(map(str, deck[:8])) == "9C TD QD 8D JD 3C 8C 7C"
    deck = derive_deck(Rules(players=4), ZERO, 1, ["01", None, None, "ff"])
    assert " ".join(map(str, deck[:8])) == "3S 7S QS 4D TS 3D 8H 2D"
    assert derive_hakem_draw(Rules(players=4), ZERO, [None] * 4).to_json() == {
        "start": 2, "cards": ["JD", "JS", "3D", "KD", "AH"]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deck_is_a_permutation_of_the_rules_deck(players: int) -> None:
    rules = Rules(players=players)
    deck = derive_deck(rules, "ab" * 32, 3, [None] * players)
    assert sorted(deck) == full_deck(rules.removed_cards)


def test_every_input_changes_the_deck() -> None:
    rules = Rules(players=2)
    base = derive_deck(rules, "11" * 32, 0, [None, None])
    assert derive_deck(rules, "11" * 32, 0, [None, None]) == base
    assert derive_deck(rules, "12" * 32, 0, [None, None]) != base
    assert derive_deck(rules, "11" * 32, 1, [None, None]) != base
    assert derive_deck(rules, "11" * 32, 0, ["00", None]) != base
    assert derive_deck(rules, "11" * 32, 0, [None, "00"]) != base


def test_rejection_sampling_skips_the_biased_top_range() -> None:
    stream = ByteStream(ZERO, b"x")
    # First word in the rejected range [2**32 - 2**32 % 3, 2**32), then an ordinary one.
    stream._buf = (0xFFFFFFFF).to_bytes(4, "big") + (7).to_bytes(4, "big")
    assert stream.below(3) == 1  # 7 % 3; the top word was thrown away


def test_draws_are_close_to_uniform() -> None:
    stream = ByteStream("5a" * 32, b"uniform")
    counts = Counter(stream.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < c < 1150 for c in counts.values()), counts


def test_first_card_position_is_spread_over_the_deck() -> None:
    rules = Rules(players=4)
    rng = random.Random(5)
    tops = Counter(derive_deck(rules, f"{rng.getrandbits(256):064x}", 0, [None] * 4)[0].suit for _ in range(800))
    assert all(140 < c < 260 for c in tops.values()), tops


def test_bad_seeds_are_refused() -> None:
    for bad in ["", "abc", "zz", "0" * 130, 5]:
        with pytest.raises(FairnessError):
            normalise_seed(bad)  # type: ignore[arg-type]
    assert normalise_seed(" AB ") == "ab"
    with pytest.raises(FairnessError):
        derive_deck(Rules(players=3), ZERO, 0, [None, None])


def _fair_game(players: int, seed: int) -> dict:
    """Play a whole game with derived decks, as the server does, and return its record."""
    rules = Rules(players=players)
    rng = random.Random(seed)
    seeds = [HandSeeds.fresh(0, players)]
    seeds[0].seat_seeds[0] = "c0ffee"
    game = new_game(rules, seeds[0])
    while not game.is_over:
        if game.phase is Phase.DEAL:
            h = game.hand_index
            if h >= len(seeds):
                seeds.append(HandSeeds.fresh(h, players))
            game.deal(derive_deck(rules, seeds[h].server_seed, h, seeds[h].seat_seeds))
            continue
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return record_from_game(game, fair=[s.record_entry() for s in seeds])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_fair_record_verifies_and_replays(players: int) -> None:
    record = _fair_game(players, players)
    load_record(record)
    result = verify_record(record)
    assert result.ok, result.message
    assert result.hakem_draw_ok is True
    assert all(h.ok for h in result.hands)


def test_tampering_is_caught() -> None:
    record = _fair_game(4, 9)
    swapped = dict(record, hands=[dict(h) for h in record["hands"]])
    deck = list(swapped["hands"][0]["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    swapped["hands"][0]["deck"] = deck
    assert not verify_record(swapped).ok

    lied = dict(record, hands=[dict(h) for h in record["hands"]])
    lied["hands"][1] = dict(lied["hands"][1], fair=dict(lied["hands"][1]["fair"], server_seed="ee" * 32))
    res = verify_record(lied)
    assert not res.ok and "commit" in res.hands[1].message

    other_draw = dict(record, hakem_draw={"start": (record["hakem_draw"]["start"] + 1) % 4,
                                          "cards": record["hakem_draw"]["cards"]})
    assert verify_record(other_draw).hakem_draw_ok is False

    bare = dict(record, hands=[{k: v for k, v in h.items() if k != "fair"} for h in record["hands"]])
    assert not verify_record(bare).ok
