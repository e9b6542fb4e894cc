"""Confidence intervals and rating differences for match results.

Win rates in a match are binomial proportions; the Wilson score interval keeps sensible bounds
even at 0% or 100% (where the plain normal interval collapses to a point), which is exactly where
a strong bot against ``random`` lands. Elo differences are the logistic transform of a two-way
score, and their interval is the transform of the Wilson bounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval ``(low, high)`` for ``successes`` out of ``trials``.

    With no trials nothing is known and the interval is ``(0.0, 1.0)``.
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # At 0% and 100% the bound is exactly 0 or 1; rounding must not turn it into 0.9999999999.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def elo_diff(score: float) -> float:
    """Rating difference implied by an expected score (0..1); infinite at 0 and 1."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be between 0 and 1, not {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_with_ci(wins: int, games: int) -> tuple[float, tuple[float, float]]:
    """Elo difference of a two-way match and its 95% interval (from the Wilson bounds)."""
    if games == 0:
        return (0.0, (-math.inf, math.inf))
    low, high = wilson(wins, games)
    return (elo_diff(wins / games), (elo_diff(low), elo_diff(high)))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation between order statistics; 0.0 if empty."""
    if not values:
        return 0.0
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile must be between 0 and 1, not {q}")
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def finite_or_none(x: float) -> float | None:
    """JSON has no infinity: unbounded values are reported as ``null``."""
    return x if math.isfinite(x) else None
