"""The in-process bus: one bounded queue per subscriber.

A subscriber that falls more than ``maxsize`` messages behind is marked overflowed and its queue
ends; the WebSocket layer then sends a fresh ``state`` rather than a stream with a hole in it.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any, AsyncIterator

from .base import Bus, Subscription

_END: dict[str, Any] = {"_end": True}


class _MemorySubscription(Subscription):
    def __init__(self, bus: "MemoryBus", channel: str, maxsize: int) -> None:
        self._bus = bus
        self._channel = channel
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize + 1)
        self._maxsize = maxsize
        self._overflowed = False
        self._closed = False

    def _put(self, message: dict[str, Any]) -> None:
        if self._closed:
            return
        if self._queue.qsize() >= self._maxsize:
            self._overflowed = True
            self._closed = True
            self._queue.put_nowait(_END)
            self._bus._drop(self._channel, self)
            return
        self._queue.put_nowait(message)

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:  # type: ignore[override]
        while True:
            msg = await self._queue.get()
            if msg is _END:
                return
            yield msg

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._bus._drop(self._channel, self)
            self._queue.put_nowait(_END)

    @property
    def overflowed(self) -> bool:
        return self._overflowed


class MemoryBus(Bus):
    def __init__(self, maxsize: int = 1000) -> None:
        self._subs: dict[str, set[_MemorySubscription]] = defaultdict(set)
        self._maxsize = maxsize

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        for sub in list(self._subs.get(channel, ())):
            sub._put(message)

    async def subscribe(self, channel: str) -> Subscription:
        sub = _MemorySubscription(self, channel, self._maxsize)
        self._subs[channel].add(sub)
        return sub

    def _drop(self, channel: str, sub: _MemorySubscription) -> None:
        subs = self._subs.get(channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[channel]
