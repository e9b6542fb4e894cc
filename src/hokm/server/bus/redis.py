"""The Redis bus: table events and player notifications reach every node through Redis pub/sub.

Each node keeps **one** pub/sub connection and fans messages out to its local subscribers, so a
node with thousands of WebSocket connections still holds a handful of Redis connections; a Redis
channel is subscribed while at least one local reader wants it. :meth:`RedisBus.subscribe` returns
only once Redis has confirmed the subscription: the WebSocket layer subscribes *then* takes the
table state, and a message published in between must not be missed.

A message published on a node reaches that node's own readers directly (no encoding, no trip
through Redis) and the other nodes' through Redis, wrapped with the publishing bus's origin so that
the publisher's reader skips its own copy.

What a node publishes goes out on a connection of its own, as pipelines: the messages published
while the last pipeline was being written (many tables' events, the requests to other nodes and
their answers) go together in the next, in the order they were published, one write and one read
of the replies for all of them. Each publisher waits for its pipeline's replies, so an error
still reaches the caller, and a node that publishes faster than Redis takes them waits.

Pub/sub is fire-and-forget, which is enough here: every event is in the database before it is
published, and a client that misses messages (a node restart, a slow reader) gets a fresh
``state`` when it joins again.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from typing import Any

import orjson

from .base import Bus, Subscription
from .queued import QueuedSubscription

log = logging.getLogger("hokm.server.bus")
MAX_CONNECTIONS = 128  # per node: commands in flight at once (the pub/sub reader and the publisher hold one more each)


async def _as_it_came(message: Any) -> Any:
    """A pub/sub message as Redis sent it. (redis-py's own handler of a RESP3 push, its protocol by
    default, first makes text of the whole message for a debug line: a table's batch, copies and
    all, on every message.)"""
    return message


class _Outgoing:
    """Messages to publish in one pipeline, and what their publishers wait for."""

    __slots__ = ("done", "items")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.items: list[tuple[str, bytes]] = []
        self.done: asyncio.Future[None] = loop.create_future()


class RedisBus(Bus):
    """:class:`Bus` over Redis pub/sub; channel names get ``<prefix>:`` in front."""

    def __init__(self, url: str, prefix: str = "hokm", maxsize: int = 1000, client: Any = None) -> None:
        import redis.asyncio as aioredis

        self.url, self.prefix, self._maxsize = url, prefix, maxsize
        own = client is None
        if client is None:
            # Bursts (thousands of players joining) wait for a connection rather than fail: redis-py's
            # plain pool refuses the 101st concurrent command with "Too many connections".
            pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=MAX_CONNECTIONS, timeout=30)
            client = aioredis.Redis(connection_pool=pool)
        self.redis = client
        # One connection for publishing, apart from the pool: the pipelines go out one after another
        # on it, so the messages leave in the order they were published.
        self._publisher = aioredis.Redis.from_url(url) if own else client
        self._next: _Outgoing | None = None  # filling while the pipeline before it is written
        self._writing = asyncio.Lock()
        self._flushes: set[asyncio.Task[None]] = set()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=False, push_handler_func=_as_it_came)
        self._subs: dict[str, set[QueuedSubscription]] = defaultdict(set)
        self._confirm: dict[str, asyncio.Future[None]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.published = 0
        self.pipelines = 0  # pipelines written: ``published`` over this is how many went together
        self.origin = secrets.token_hex(8)  # this bus among the nodes: its own messages come back tagged
        self._own = b'{"o":"' + self.origin.encode() + b'"'  # how the envelope of this bus's messages begins

    def _key(self, channel: str) -> str:
        return f"{self.prefix}:{channel}"

    async def publish(self, channel: str, message: dict[str, Any], *, remote: bool = True) -> None:
        # This node's own readers get the message at once, as the in-process bus gives it; the copy
        # through Redis is for the other nodes, and this node's reader skips it (by its origin).
        for sub in list(self._subs.get(channel, ())):
            sub._put(message)
        if not remote:
            return
        payload = orjson.dumps({"o": self.origin, "m": message}, option=orjson.OPT_NON_STR_KEYS)
        batch = self._next
        if batch is None:
            batch = self._next = _Outgoing(asyncio.get_running_loop())
            task = asyncio.ensure_future(self._flush(batch))
            self._flushes.add(task)
            task.add_done_callback(self._flushes.discard)
        batch.items.append((self._key(channel), payload))
        await asyncio.shield(batch.done)
        self.published += 1

    async def _flush(self, batch: _Outgoing) -> None:
        """Write ``batch`` once the one before it is written; what is published meanwhile joins it."""
        try:
            async with self._writing:
                self._next = None  # from here on, publishing starts the next pipeline
                async with self._publisher.pipeline(transaction=False) as pipe:
                    for key, payload in batch.items:
                        pipe.publish(key, payload)
                    await pipe.execute()
                self.pipelines += 1
        except BaseException as e:
            if self._next is batch:
                self._next = None
            if not batch.done.done():
                batch.done.set_exception(e if isinstance(e, Exception) else ConnectionError("the bus closed"))
                batch.done.exception()  # read here: nobody may be waiting any more
            if not isinstance(e, Exception):
                raise
        else:
            batch.done.set_result(None)

    async def subscribe(self, channel: str) -> Subscription:
        sub = QueuedSubscription(self, channel, self._maxsize)
        async with self._lock:
            first = channel not in self._subs
            self._subs[channel].add(sub)
            fut: asyncio.Future[Any] | None
            if first:
                fut = asyncio.get_running_loop().create_future()
                self._confirm[self._key(channel)] = fut
                await self._pubsub.subscribe(self._key(channel))
                if self._reader is None:
                    self._reader = asyncio.ensure_future(self._read())
            else:
                fut = self._confirm.get(self._key(channel))
        if fut is not None:
            await asyncio.wait_for(asyncio.shield(fut), 10)
        return sub

    def _drop(self, channel: str, sub: QueuedSubscription) -> None:
        subs = self._subs.get(channel)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self._subs[channel]
            asyncio.ensure_future(self._unsubscribe(channel))

    async def _unsubscribe(self, channel: str) -> None:
        async with self._lock:
            if channel not in self._subs:
                try:
                    await self._pubsub.unsubscribe(self._key(channel))
                except Exception:
                    log.debug("unsubscribe %s failed", channel, exc_info=True)

    async def _read(self) -> None:
        strip = len(self.prefix) + 1
        while True:
            try:
                # blocks until a message comes: an idle node does not wake for nothing
                msg = await self._pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("redis bus read failed; retrying", exc_info=True)
                await asyncio.sleep(0.2)
                continue
            if msg is None:
                continue
            name = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
            if msg["type"] == "subscribe":
                fut = self._confirm.pop(name, None)
                if fut is not None and not fut.done():
                    fut.set_result(None)
                continue
            if msg["type"] != "message":
                continue
            if isinstance(msg["data"], bytes) and msg["data"].startswith(self._own):
                continue  # published here, and already handed to this node's readers (not parsed again)
            try:
                envelope = orjson.loads(msg["data"])
                origin, data = envelope["o"], envelope["m"]
            except (orjson.JSONDecodeError, TypeError, KeyError):
                log.warning("dropped a message that is not a bus envelope on %s", name)
                continue
            if origin == self.origin:
                continue
            for sub in list(self._subs.get(name[strip:], ())):
                sub._put(data)

    async def close(self) -> None:
        for task in list(self._flushes):
            task.cancel()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):  # noqa: BLE001
                pass
        try:
            await self._pubsub.aclose()
        finally:
            await self.redis.aclose()
            if self._publisher is not self.redis:
                await self._publisher.aclose()
