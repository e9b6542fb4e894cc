"""Requests to a table's owner node over the bus: ``rpc:<node>`` in, ``rpc-reply:<node>`` back.

A connection may sit on any node while its table lives on one owner; what it asks of the table
(join, act, leave, ...) travels to the owner as a small JSON request and the owner's table actor
answers. Requests carry an id and the asker's reply channel; an answer that never comes (the owner
died) ends in :class:`RpcTimeout`, and the caller looks the owner up again, taking the table over
itself once the dead owner's lease has expired.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..bus import Bus, Subscription

log = logging.getLogger("hokm.server.cluster")
Handler = Callable[[str, str, list[Any], str], Awaitable[Any]]  # table, method, args, the asking node


class RpcTimeout(Exception):
    """The owner did not answer in time."""


class RemoteError(Exception):
    """The owner answered with an error: ``code`` is a protocol code, or ``not_owner``; ``facts`` those of
    a table's refusal (``TableError.facts``)."""

    def __init__(self, code: str, message: str, facts: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.facts = code, message, facts or {}


class Rpc:
    def __init__(self, bus: Bus, node: str, handler: Handler) -> None:
        self.bus, self.node, self.handler = bus, node, handler
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._subs: list[Subscription] = []
        self._running: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        requests = await self.bus.subscribe(f"rpc:{self.node}")
        replies = await self.bus.subscribe(f"rpc-reply:{self.node}")
        self._subs = [requests, replies]
        # Each request and answer is taken from the bus reader's own call (no queue and no task
        # switch on the way); the loops take what that could not.
        requests.deliver_directly(self._request_now)
        replies.deliver_directly(self._reply_now)
        self._tasks = [asyncio.ensure_future(self._serve(requests)), asyncio.ensure_future(self._collect(replies))]

    async def close(self) -> None:
        for sub in self._subs:
            await sub.close()
        if self._running:  # the requests under way are answered while the bus still carries it
            await asyncio.wait(list(self._running), timeout=5)
        for t in self._tasks:
            t.cancel()
        for fut in self._waiting.values():
            if not fut.done():
                fut.set_exception(RpcTimeout("this node is shutting down"))

    async def call(self, node: str, table_id: str, method: str, args: list[Any], timeout: float,
                   still_owner: Callable[[], Awaitable[bool]] | None = None) -> Any:
        """Send one request and wait for its answer.

        Every ``timeout`` seconds without an answer, ``still_owner`` is asked whether ``node`` still
        holds the table; while it does, the same request is waited for (a busy owner is slow, not
        gone, and sending the request again could apply it twice). Otherwise :class:`RpcTimeout`.
        """
        rid = next(self._ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        try:
            await self.bus.publish(f"rpc:{node}", {"id": rid, "from": self.node, "table": table_id,
                                                   "method": method, "args": args})
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(fut), timeout)
                except TimeoutError:
                    if still_owner is None or not await still_owner():
                        raise RpcTimeout(f"node {node} did not answer {method} for table {table_id}") from None
        finally:
            self._waiting.pop(rid, None)
            if not fut.done():
                fut.cancel()

    async def _serve(self, sub: Subscription) -> None:
        async for req in sub:
            self._request_now(req)

    def _request_now(self, req: dict[str, Any]) -> bool:
        task = asyncio.ensure_future(self._answer(req))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return True

    async def _answer(self, req: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"id": req.get("id")}
        try:
            reply["result"] = await self.handler(req["table"], req["method"], list(req.get("args") or []),
                                                 str(req.get("from")))
        except RemoteError as e:
            reply["error"] = {"code": e.code, "message": e.message, "facts": e.facts}
        except ConnectionError as e:  # the bus closed under the request: this node is stopping
            log.warning("table request %s not finished: %s", req.get("method"), e)
            reply["error"] = {"code": "not_owner", "message": str(e)}
        except Exception as e:
            code = getattr(e, "code", None)
            if isinstance(code, str):
                reply["error"] = {"code": code, "message": getattr(e, "message", str(e)),
                                  "facts": getattr(e, "facts", {})}
            else:
                log.exception("table request %s failed", req.get("method"))
                reply["error"] = {"code": "not_owner", "message": str(e)}
        try:
            await self.bus.publish(f"rpc-reply:{req['from']}", reply)
        except Exception as e:  # noqa: BLE001 - the bus closing (this node stopping) or Redis gone:
            # the asking node's wait ends in RpcTimeout, and it looks the owner up again
            log.warning("could not answer table request %s: %s", req.get("method"), e)

    async def _collect(self, sub: Subscription) -> None:
        async for reply in sub:
            self._reply_now(reply)

    def _reply_now(self, reply: dict[str, Any]) -> bool:
        rid = reply.get("id")
        fut = self._waiting.get(rid) if isinstance(rid, int) else None
        if fut is None or fut.done():
            return True
        if "error" in reply:
            err = reply["error"]
            fut.set_exception(RemoteError(err["code"], err["message"], err.get("facts")))
        else:
            fut.set_result(reply.get("result"))
        return True
