"""What each node measured of itself over the window: its own histograms, read from ``/metrics``.

The latencies the load tool reports are its players': they hold the server's time and the load
tool's own, on the same two cores. Each node also times its part (``hokm_action_latency_seconds``:
an action frame received to its events stored and handed on; ``hokm_append_seconds``: one batch
stored; ``hokm_gc_pause_seconds``: each walk of the garbage collector, the event loop stopped for
as long), so the tool reads them at the window's start and end and reports what happened between:
how many, their mean, and the bucket the median, the 99th percentile and the largest fell in (a
Prometheus histogram keeps counts per bucket, not the values). A node whose ``/metrics`` the tool
may not read (``HOKM_METRICS_ALLOW``) is reported as such.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

#: The histograms read, by the name they have in the report: (metric, labels it must carry).
HISTOGRAMS: dict[str, tuple[str, dict[str, str]]] = {
    "action": ("hokm_action_latency_seconds", {}),
    "append": ("hokm_append_seconds", {}),
    "gc_young": ("hokm_gc_pause_seconds", {"kind": "young"}),
    "gc_full": ("hokm_gc_pause_seconds", {"kind": "full"}),
}


@dataclass
class Histogram:
    """One histogram's cumulative bucket counts (upper bound in seconds, ``inf`` last), count and sum."""

    buckets: dict[float, float] = field(default_factory=dict)
    count: float = 0.0
    total: float = 0.0

    def minus(self, earlier: Histogram) -> Histogram:
        return Histogram({le: n - earlier.buckets.get(le, 0.0) for le, n in self.buckets.items()},
                         self.count - earlier.count, self.total - earlier.total)

    def bucket_of(self, q: float) -> float | None:
        """The upper bound (seconds) of the bucket that holds the ``q`` quantile; None if empty."""
        if self.count <= 0:
            return None
        for le in sorted(self.buckets):
            if self.buckets[le] >= q * self.count:
                return le
        return math.inf

    def summary(self) -> dict[str, Any]:
        finite = [le for le in self.buckets if le != math.inf]

        def ms(le: float | None) -> float | str | None:
            if le is None:
                return None
            return f"over {1000 * max(finite):g}" if le == math.inf else round(1000 * le, 3)

        return {"count": int(self.count), "mean_ms": round(1000 * self.total / self.count, 3) if self.count else None,
                "p50_bucket_ms": ms(self.bucket_of(0.5)), "p99_bucket_ms": ms(self.bucket_of(0.99)),
                "max_bucket_ms": ms(self.bucket_of(1.0))}


def parse(text: str) -> dict[str, Histogram]:
    """The histograms of :data:`HISTOGRAMS` in a ``/metrics`` text (those it lacks left out)."""
    found: dict[str, Histogram] = {}
    for family in text_string_to_metric_families(text):
        for name, (metric, labels) in HISTOGRAMS.items():
            if family.name != metric:
                continue
            h = Histogram()
            for sample in family.samples:
                if any(sample.labels.get(k) != v for k, v in labels.items()):
                    continue
                if sample.name.endswith("_bucket"):
                    h.buckets[float(sample.labels["le"])] = sample.value
                elif sample.name.endswith("_count"):
                    h.count = sample.value
                elif sample.name.endswith("_sum"):
                    h.total = sample.value
            if h.buckets:
                found[name] = h
    return found


async def read(client: httpx.AsyncClient, url: str) -> dict[str, Histogram] | str:
    """The node's histograms now, or why they could not be read."""
    try:
        r = await client.get(url.rstrip("/") + "/metrics")
    except httpx.HTTPError as e:
        return f"/metrics not read: {type(e).__name__}"
    if r.status_code != 200:
        return f"/metrics answered {r.status_code}"
    return parse(r.text)


def window(start: dict[str, Histogram] | str, end: dict[str, Histogram] | str) -> dict[str, Any]:
    """What the node's histograms gained between ``start`` and ``end``, summarised."""
    if isinstance(start, str) or isinstance(end, str):
        return {"error": start if isinstance(start, str) else end}
    return {name: h.minus(start.get(name, Histogram())).summary() for name, h in end.items()}
