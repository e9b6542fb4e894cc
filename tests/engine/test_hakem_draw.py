"""The ace draw for the first Hâkem, the partner draw and its seat swap, and game setup errors."""

from __future__ import annotations

import random

import pytest

from hokm.engine import Game, Rules, SetupError, draw_hakem, run_hakem_draw

R4, R3, R2 = Rules(players=4), Rules(players=3), Rules(players=2)
PARTNER = Rules(players=4, partner_draw=True)


@pytest.mark.parametrize("rules, start, cards, hakem", [
    (R4, 2, ["5H", "KD", "AS"], 0),     # third card, turned to seat 2 + 2
    (R4, 3, ["AC"], 3),
    (R3, 1, ["2S", "3S", "4S", "AD"], 1),  # wraps round the table
    (R2, 0, ["KH", "AH"], 1),
])
def test_first_ace_is_hakem(rules: Rules, start: int, cards: list[str], hakem: int) -> None:
    draw = run_hakem_draw(rules, start, cards)
    assert draw.hakem == hakem and draw.partner is None and draw.swap is None
    assert Game(rules, hakem_draw=draw).hakem == hakem


def test_partner_draw_skips_the_hakem_and_swaps_seats() -> None:
    draw = run_hakem_draw(PARTNER, 0, ["5H", "AD", "KD", "3S", "AC"])
    assert (draw.hakem, draw.partner) == (1, 0)   # seats 0, 1 (ace), 2, 3, then 0 (ace)
    assert draw.swap == (0, 3)                    # seat 0 moves opposite seat 1
    game = Game(PARTNER, hakem_draw=draw)
    assert game.hakem == game.first_hakem == 1


def test_partner_draw_round_the_table_without_the_hakem() -> None:
    draw = run_hakem_draw(PARTNER, 0, ["AD", "2S", "3S", "4S", "5S", "AH"])
    assert (draw.hakem, draw.partner) == (0, 2)   # 0 (ace), 1, 2, 3, 1 (skips 0), 2 (ace)
    assert draw.swap is None                      # already opposite


@pytest.mark.parametrize("rules, start, cards, code, match", [
    (R4, 0, ["5H", "AS", "KD"], "bad_format", "after the deciding ace"),
    (R4, 0, ["5H", "KD"], "bad_format", "before the deciding ace"),
    (R4, 0, [], "bad_format", "before the deciding ace"),
    (PARTNER, 0, ["AS"], "bad_format", "before the deciding ace"),
    (PARTNER, 0, ["AS", "AH", "2C"], "bad_format", "after the deciding ace"),
    (R4, 4, ["AS"], "bad_format", "start must be a seat"),
    (R4, -1, ["AS"], "bad_format", "start must be a seat"),
    (R4, 0, ["5H", "5H", "AS"], "bad_format", "twice"),
    (R4, 0, ["5X", "AS"], "bad_card", "not a card"),
    (R3, 0, ["2C", "AS"], "bad_format", "not in the 3-player deck"),
])
def test_bad_draws(rules: Rules, start: int, cards: list[str], code: str, match: str) -> None:
    with pytest.raises(SetupError, match=match) as info:
        run_hakem_draw(rules, start, cards)
    assert info.value.code == code


@pytest.mark.parametrize("rules", [R2, R3, R4, PARTNER])
def test_random_draw_stops_at_the_deciding_ace(rules: Rules) -> None:
    for seed in range(30):
        draw = draw_hakem(rules, random.Random(seed))
        aces = [c for c in draw.cards if c.rank == 12]
        assert len(aces) == (2 if rules.partner_draw else 1) and draw.cards[-1].rank == 12
        assert draw == run_hakem_draw(rules, draw.start, draw.cards)
        assert draw_hakem(rules, random.Random(seed)) == draw   # seeded: reproducible


def test_game_setup_errors() -> None:
    with pytest.raises(SetupError, match="exactly one"):
        Game(R4)
    with pytest.raises(SetupError, match="exactly one"):
        Game(R4, first_hakem=0, hakem_draw=run_hakem_draw(R4, 0, ["AS"]))
    for bad in (4, -1, True, "0"):
        with pytest.raises(SetupError, match="first Hâkem must be a seat"):
            Game(R4, first_hakem=bad)


def test_views_show_the_draw() -> None:
    game = Game.new(R4, seed=11)
    assert game.view(0).hakem_draw == game.hakem_draw.to_json()
    assert game.view(0).first_hakem == game.hakem_draw.hakem
