"""Group commit: the event appends of many tables written in one transaction.

Every action a player makes is appended to storage before anyone hears of it, so a busy node
makes hundreds of small writes a second. Each on its own costs a transaction (a commit, a trip to
SQLite's thread or to PostgreSQL, the statement's preparation); :class:`GroupCommit` queues them
instead. While one transaction is being written, the appends that arrive wait; when it commits,
the next transaction takes every one of them at once. A quiet node writes each append alone, as
before (no timer, no added wait); a busy one writes as many per transaction as arrived during
the last.

Each append is acknowledged (its ``await`` returns) only once the transaction holding it has
committed, so an event is still on disk before it is published. An append the store refuses
(a fence superseded, a sequence number taken) fails alone: when a group's transaction fails as a
whole, its appends are written again one by one, so each gets its own answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from .base import EventRow, TableUpdate


@dataclass
class Append:
    """One table's events (consecutive ``seq``) and table-row update, written together."""

    table_id: str
    events: list[EventRow]
    update: TableUpdate | None
    done: asyncio.Future[None] = field(repr=False)


#: Writes appends in one transaction; returns the refusals of single appends by their index
#: (the others are committed), or raises when the transaction as a whole failed.
WriteGroup = Callable[[list[Append]], Awaitable[dict[int, BaseException]]]


class GroupCommit:
    def __init__(self, write: WriteGroup,
                 on_error: Callable[[Append, BaseException], BaseException] = lambda a, e: e) -> None:
        """``write`` writes a group; ``on_error`` turns a failed single append's exception into its answer."""
        self._write, self._on_error = write, on_error
        self._queue: list[Append] = []
        self._writer: asyncio.Task[None] | None = None
        self.groups = self.appends = 0  # transactions written, appends in them (for the figures)

    async def append(self, table_id: str, events: list[EventRow], update: TableUpdate | None) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(Append(table_id, events, update, done))
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._drain())
        await done

    async def _drain(self) -> None:
        try:
            while self._queue:
                group, self._queue = self._queue, []
                await self._write_group(group)
        finally:
            self._writer = None

    async def _write_group(self, group: list[Append]) -> None:
        try:
            refused = await self._write(group)
        except Exception as e:  # noqa: BLE001 - the failure is each waiting append's answer
            if len(group) == 1:
                _answer(group[0], self._on_error(group[0], e))
                return
            for one in group:  # find which append the store refused: each alone
                await self._write_group([one])
            return
        self.groups += 1
        self.appends += len(group)
        for i, a in enumerate(group):
            _answer(a, refused.get(i))

    async def drain(self) -> None:
        """Wait until every queued append is written (before the store closes)."""
        while self._writer is not None:
            await asyncio.shield(self._writer)


def _answer(a: Append, error: BaseException | None) -> None:
    if a.done.done():  # the appending task was cancelled meanwhile; the write stands
        return
    if error is None:
        a.done.set_result(None)
    else:
        a.done.set_exception(error)

