"""The event bus interface: fan-out of messages on named channels.

Table actors publish each event on ``table:<id>`` (with every seat's redacted copy) and the
WebSocket connections subscribed to it forward their own copy; ``player:<id>`` carries
notifications such as a matchmaking result. In one process the bus is a set of queues
(:mod:`.memory`); with several server nodes it is Redis pub/sub, behind the same interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from typing import Any

#: A reader's way to take a message in the publisher's own call: ``True`` when it took it, ``False``
#: to have it queued as usual (see :meth:`Subscription.deliver_directly`).
Direct = Callable[[dict[str, Any]], bool]


class Subscription(ABC):
    """Messages of one channel, in publish order, until :meth:`close`."""

    @abstractmethod
    def __aiter__(self) -> AsyncIterator[dict[str, Any]]: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def deliver_directly(self, handler: Direct | None) -> None:
        """Offer each message to ``handler`` first, from the publishing call, whenever the reader holds
        no message it has not finished with and none is waiting: a message it takes (``True``) is
        not queued. Any other message is queued, so the reader still sees the channel in publish
        order. ``None``: queue everything."""

    @property
    @abstractmethod
    def overflowed(self) -> bool:
        """True when the reader fell too far behind and messages were dropped (it must resync)."""


class Bus(ABC):
    @abstractmethod
    async def publish(self, channel: str, message: dict[str, Any], *, remote: bool = True) -> None:
        """Hand ``message`` to the channel's readers; ``remote`` False: this node's readers alone
        (the publisher knows no other node has one)."""

    @abstractmethod
    async def subscribe(self, channel: str) -> Subscription: ...

    async def close(self) -> None:  # noqa: B027 - optional: the in-process bus holds nothing
        """Release connections (nothing to do in process)."""
