"""Rate limits keyed by address or account: token buckets in a bounded map.

Each key (an IP address, a player id) gets its own :class:`~.timers.TokenBucket`. The map keeps at
most ``max_keys`` buckets: the least recently used one goes first, so a flood of fresh keys costs
bounded memory (and a key evicted that way had been idle the longest). Limits live in the process:
with several nodes each node counts its own requests.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from .timers import TokenBucket

#: The most bytes of an HTTP request's line and headers a node reads before refusing it (400); a
#: browser's request, cookies included, stays well under it.
MAX_REQUEST_HEAD = 16 * 1024


class Limited(Exception):
    """A limit was reached; ``retry_after`` is the whole number of seconds until one more passes."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(f"too many {what}; try again in {retry_after} s")
        self.what, self.retry_after = what, retry_after


class KeyedLimit:
    """``rate`` per second per key, bursts up to ``burst``."""

    def __init__(self, what: str, rate: float, burst: float, *, max_keys: int = 50_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.rate, self.burst, self.max_keys, self._clock = what, rate, burst, max_keys, clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self._clock)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def retry_after(self, key: str) -> int:
        bucket = self._bucket(key)
        return max(1, math.ceil((1 - bucket.tokens) / self.rate))

    def check(self, key: str) -> None:
        """Take one from ``key``'s bucket, or raise :class:`Limited`."""
        if not self._bucket(key).take():
            raise Limited(self.what, self.retry_after(key))

    def refund(self, key: str) -> None:
        """Give back one taken by :meth:`check` (the request failed for another reason)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.tokens = min(self.burst, bucket.tokens + 1)


def check_all(*pairs: tuple[KeyedLimit, str]) -> None:
    """Take one from each ``(limit, key)``; if one refuses, give back what the others took and raise."""
    taken: list[tuple[KeyedLimit, str]] = []
    try:
        for limit, key in pairs:
            limit.check(key)
            taken.append((limit, key))
    except Limited:
        for limit, key in taken:
            limit.refund(key)
        raise


class OpenCount:
    """How many of something are open per key (connections per address, per player), with a cap.

    Unlike a rate, a count goes down again: :meth:`open` takes a place (False when the key is at
    ``cap``), :meth:`close` gives it back; a key with nothing open is forgotten.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open: dict[str, int] = {}

    def open(self, key: str) -> bool:
        n = self._open.get(key, 0)
        if n >= self.cap:
            return False
        self._open[key] = n + 1
        return True

    def close(self, key: str) -> None:
        n = self._open.get(key, 0) - 1
        if n > 0:
            self._open[key] = n
        else:
            self._open.pop(key, None)

    def __getitem__(self, key: str) -> int:
        return self._open.get(key, 0)
