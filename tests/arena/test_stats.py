"""Interval and rating helpers, checked against values worked out by hand."""

import math

import pytest

from hokm.arena.stats import elo_diff, elo_with_ci, finite_or_none, percentile, wilson


@pytest.mark.parametrize("k, n, low, high", [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (95, 100, 0.8882, 0.9785),
    (999, 1000, 0.99436, 0.99982),
])
def test_wilson_matches_the_textbook_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_edge_cases():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(1, 2)
    assert lo < 0.5 < hi and lo == pytest.approx(1 - hi)
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(-1, 2)


def test_elo():
    assert elo_diff(0.5) == 0.0
    assert elo_diff(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_diff(0.25) == pytest.approx(-400 * math.log10(3))
    assert elo_diff(1.0) == math.inf and elo_diff(0.0) == -math.inf
    point, (lo, hi) = elo_with_ci(75, 100)
    assert lo < point < hi
    point, (lo, hi) = elo_with_ci(10, 10)
    assert point == math.inf and math.isfinite(lo) and hi == math.inf
    with pytest.raises(ValueError):
        elo_diff(1.5)


def test_percentile_and_json_safety():
    assert percentile([], 0.95) == 0.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile(list(range(101)), 0.95) == pytest.approx(95.0)
    assert finite_or_none(math.inf) is None and finite_or_none(2.0) == 2.0
