"""The hand-end rules, including every worked example in the seeds."""

import pytest

from hokm.engine.scoring import hand_outcome, next_hakem
from hokm.rules import Rules

R3, R4, R2 = Rules(players=3), Rules(players=4), Rules(players=2)


@pytest.mark.parametrize(
    "tricks, played, expected",
    [
        ((7, 4, 4), 15, 0),      # seeds: 7-4-4 wins, nobody can pass 6
        ((7, 4, 3), 14, None),   # seeds: 7-4-3 plays on
        ((8, 2, 2), 12, 0),      # seeds: 8-2-2 wins
        ((8, 3, 1), 12, None),   # seeds: 8-3-1 is not yet a win
        ((3, 7, 7), 17, 0),      # seeds: 7-7-3 goes to the 3
        ((6, 6, 5), 17, 2),      # seeds: 6-6-5 goes to the 5
        ((8, 8, 1), 17, 2),      # seeds: 8-8-1 goes to the 1
        ((9, 5, 3), 17, 0),      # at the end a unique leader wins
        ((6, 5, 5), 16, None),
    ],
)
def test_three_player_examples(tricks, played, expected):
    out = hand_outcome(R3, tricks, hakem_side=1, tricks_played=played)
    assert (out.winner if out else None) == expected
    if out:
        assert out.points == 1 and not out.kot
        # Won because the other two tied for the most: the winner holds the fewest tricks.
        assert out.tie == (tricks[out.winner] < max(tricks))


@pytest.mark.parametrize("hakem, points", [(0, 2), (1, 3), (2, 3)])
def test_three_player_kot(hakem, points):
    out = hand_outcome(R3, (7, 0, 0), hakem_side=hakem, tricks_played=7)
    assert out == (0, True, points, False)


def test_three_player_seven_with_others_scoring_is_not_kot():
    assert hand_outcome(R3, (7, 1, 0), hakem_side=0, tricks_played=8) is None


@pytest.mark.parametrize("rules", [R4, R2])
def test_two_sides_first_to_seven(rules):
    assert hand_outcome(rules, (6, 6), 0, 12) is None
    assert hand_outcome(rules, (7, 3), 0, 10) == (0, False, 1, False)
    assert hand_outcome(rules, (5, 7), 0, 12) == (1, False, 1, False)
    assert hand_outcome(rules, (7, 0), 0, 7) == (0, True, 2, False)      # kot by the Hâkem's side
    assert hand_outcome(rules, (0, 7), 0, 7) == (1, True, 3, False)      # Hâkem-koti


def test_kot_points_are_rule_options():
    r = Rules(players=4, kot_points=4, hakem_koti_points=5)
    assert hand_outcome(r, (7, 0), 0, 7).points == 4
    assert hand_outcome(r, (0, 7), 0, 7).points == 5


def test_next_hakem():
    assert next_hakem(4, 2, True) == 2
    assert next_hakem(4, 3, False) == 0
    assert next_hakem(3, 2, False) == 0
    assert next_hakem(2, 1, False) == 0
