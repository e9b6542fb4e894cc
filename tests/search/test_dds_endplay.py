"""Four players: "does this side reach 7" must agree with endplay's bridge double-dummy solver.

Hokm stops at seven tricks, but whoever takes 7 of 13 in a full play-out is the side that gets
there first, so the side reaches 7 exactly when its tricks won plus its bridge DD tricks >= 7.
"""

from __future__ import annotations

import random

import pytest

from hokm.rules import Rules
from hokm.search import dds
from hokm.search.position import random_position

endplay = pytest.importorskip("endplay")

from hokm.bench.solver import endplay_reaches7  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def _warm():
    dds.warm_up()


@pytest.mark.parametrize("left, count", [(3, 60), (4, 60), (5, 60), (6, 50), (7, 40), (8, 20)])
def test_reach_seven_agrees_with_endplay(left, count):
    rng = random.Random(1000 + left)
    rules = Rules(players=4)
    for i in range(count):
        pos = random_position(rules, rng, left, in_trick=i % 4)
        side = pos.side_of(pos.to_move)
        assert dds.reaches(pos, side, 7) == endplay_reaches7(pos), pos.describe()
        assert dds.reaches(pos, 1 - side, 7) != endplay_reaches7(pos), pos.describe()


@pytest.mark.parametrize("left", [9, 10, 11, 12, 13])
def test_reach_seven_agrees_with_endplay_early(left):
    """The early tricks, where the table's winning ranks and cut-offs do most of the work."""
    rng = random.Random(2000 + left)
    rules = Rules(players=4)
    for i in range(6):
        pos = random_position(rules, rng, left, in_trick=i % 4)
        side = pos.side_of(pos.to_move)
        expect = endplay_reaches7(pos)
        assert dds.reaches(pos, side, 7) == expect, pos.describe()
        assert dds.reaches(pos, 1 - side, 7) != expect, pos.describe()


def test_move_values_sign_agrees_with_endplay_per_card():
    """Each card's sign (win or lose the hand) matches endplay after that card is played."""
    rng = random.Random(77)
    rules = Rules(players=4)
    for _ in range(15):
        pos = random_position(rules, rng, 5)
        side = pos.side_of(pos.to_move)
        for card, value in dds.move_values(pos).items():
            child = pos.play(card)
            if child.outcome() is not None:
                assert (value > 0) == (child.outcome().winner == side)
                continue
            child_side = child.side_of(child.to_move)
            wins = endplay_reaches7(child) == (child_side == side)
            assert (value > 0) == wins, (str(card), pos.describe())


def test_bench_reports_medians_and_disagreements():
    from hokm.bench.solver import measure

    out = measure(3, seed=4, tricks=(9, 11))
    assert set(out["tricks"]) == {"9", "11"}
    for row in out["tricks"].values():
        assert row["hokm_ms"] >= 0 and row["endplay_ms"] >= 0 and row["disagreements"] == 0
    assert out["disagreements"] == 0

