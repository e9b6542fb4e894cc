"""A subscription fed through a bounded local queue: what every bus hands to its readers.

Both buses fan a channel's messages out to local readers the same way; only where messages come
from differs (a direct call in process, a Redis pub/sub reader task across nodes). A reader that
falls more than ``maxsize`` messages behind is marked overflowed, the messages it has not read are
dropped and its stream ends, so the WebSocket layer sends a fresh ``state`` (and subscribes again)
rather than a stream with a hole in it.

A reader may take messages in the publisher's own call (:meth:`QueuedSubscription.deliver_directly`):
only while it holds none it has not finished with and none waits in its queue, so the order holds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any, Protocol

from .base import Direct, Subscription

log = logging.getLogger("hokm.server.bus")

_END: dict[str, Any] = {"_end": True}


class _Owner(Protocol):
    def _drop(self, channel: str, sub: QueuedSubscription) -> None: ...


class QueuedSubscription(Subscription):
    """Messages of one channel for one local reader, in publish order."""

    def __init__(self, bus: _Owner, channel: str, maxsize: int) -> None:
        self._bus, self._channel, self._maxsize = bus, channel, maxsize
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize + 1)
        self._overflowed = self._closed = False
        self._direct: Direct | None = None
        self._reading = False  # the reader holds a message it has not finished with

    def deliver_directly(self, handler: Direct | None) -> None:
        self._direct = handler

    def _put(self, message: dict[str, Any]) -> None:
        """Deliver one message (called by the bus, never blocks)."""
        if self._closed:
            return
        if self._direct is not None and not self._reading and self._queue.empty():
            try:
                if self._direct(message):
                    return
            except Exception:
                # The publisher (a table's commit) must not fail for one reader: the reader gets
                # the message from its queue instead.
                log.exception("delivering a message directly failed")
        if self._queue.qsize() >= self._maxsize:
            # The reader will resync from a fresh state: what it has not read yet is of no use now.
            self._overflowed = self._closed = True
            while not self._queue.empty():
                self._queue.get_nowait()
            self._queue.put_nowait(_END)
            self._bus._drop(self._channel, self)
            return
        self._queue.put_nowait(message)

    # An async generator: mypy sees ``async def`` against the base's plain ``def`` returning an
    # AsyncIterator, though both give an async iterator when called.
    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:  # type: ignore[override]
        while True:
            msg = await self._queue.get()
            if msg is _END:
                return
            self._reading = True
            try:
                yield msg
            finally:
                self._reading = False

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._bus._drop(self._channel, self)
            self._queue.put_nowait(_END)

    @property
    def overflowed(self) -> bool:
        return self._overflowed
