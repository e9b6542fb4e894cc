"""The in-process bus: publishing hands each message straight to the local subscribers' queues.

A subscriber that falls more than ``maxsize`` messages behind is marked overflowed and its queue
ends; the WebSocket layer then sends a fresh ``state`` rather than a stream with a hole in it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .base import Bus, Subscription
from .queued import QueuedSubscription


class MemoryBus(Bus):
    def __init__(self, maxsize: int = 1000) -> None:
        self._subs: dict[str, set[QueuedSubscription]] = defaultdict(set)
        self._maxsize = maxsize

    async def publish(self, channel: str, message: dict[str, Any], *, remote: bool = True) -> None:
        for sub in list(self._subs.get(channel, ())):
            sub._put(message)

    async def subscribe(self, channel: str) -> Subscription:
        sub = QueuedSubscription(self, channel, self._maxsize)
        self._subs[channel].add(sub)
        return sub

    def _drop(self, channel: str, sub: QueuedSubscription) -> None:
        subs = self._subs.get(channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[channel]
