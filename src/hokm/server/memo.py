"""Answers derived from finished games (a hand's analysis, a replay): kept, and shared while computed.

A finished game never changes, so what is computed from it once answers every later request. A
:class:`Memo` keeps the most recently used answers up to a count and a total size, and while one is
being computed every other request for it waits for that computation instead of starting its own:
a crowd asking for the same long game costs one computation, and only the request that computes
spends the rate limit's token.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Abandoned(Exception):
    """The request computing an answer went away before it was done: a waiting request computes it itself."""


class Memo(Generic[K, V]):
    """Up to ``size`` answers and ``budget`` units of ``weigh`` (bytes, say) in all; the least recently used go
    first. An answer weighing more than the whole budget is returned but not kept."""

    def __init__(self, size: int, budget: int | None = None, weigh: Callable[[V], int] = lambda _: 0) -> None:
        self.size, self.budget, self.weigh = size, budget, weigh
        self._items: OrderedDict[K, V] = OrderedDict()
        self._weight = 0
        self._running: dict[K, asyncio.Future[V]] = {}

    def get(self, key: K) -> V | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: K, value: V) -> None:
        w = self.weigh(value)
        if self.budget is not None and w > self.budget:
            return
        old = self._items.pop(key, None)
        if old is not None:
            self._weight -= self.weigh(old)
        self._items[key] = value
        self._weight += w
        while len(self._items) > self.size or (self.budget is not None and self._weight > self.budget):
            _, gone = self._items.popitem(last=False)
            self._weight -= self.weigh(gone)

    async def get_or_compute(self, key: K, compute: Callable[[], Awaitable[V]]) -> V:
        """The kept answer; else the one being computed for another request; else ``compute()``'s, kept. A
        failure reaches every request that waited for it, and nothing is kept."""
        while True:
            found = self.get(key)
            if found is not None:
                return found
            running = self._running.get(key)
            if running is None:
                break
            try:
                return await asyncio.shield(running)
            except _Abandoned:
                continue
        done: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        self._running[key] = done
        try:
            value = await compute()
        except Exception as e:
            done.set_exception(e)
            raise
        except BaseException:  # cancelled (the asker left): one of those waiting computes it
            done.set_exception(_Abandoned())
            raise
        finally:
            del self._running[key]
            if done.done() and not done.cancelled():
                done.exception()  # retrieved: no "exception was never retrieved" when nobody waited
        self.put(key, value)
        done.set_result(value)
        return value
