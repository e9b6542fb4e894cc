"""Small statistics for the load report: percentiles over recorded latencies."""

from __future__ import annotations

import math


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1) by the nearest-rank method; ``None`` for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def summary_ms(values: list[float]) -> dict[str, float | int | None]:
    """Count and p50/p95/p99/max in milliseconds of latencies given in seconds."""
    def ms(x: float | None) -> float | None:
        return None if x is None else round(x * 1000, 2)

    return {"count": len(values), "p50": ms(percentile(values, 0.50)), "p95": ms(percentile(values, 0.95)),
            "p99": ms(percentile(values, 0.99)), "max": ms(max(values) if values else None)}
