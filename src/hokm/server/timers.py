"""Deadlines and rates: named one-shot timers on the event loop, and a token bucket.

A table keeps its timers here by name ("decision", "deal", "absent:2", ...): scheduling a name
again replaces the old timer, so a table can never have two pending deadlines for one decision.
Timers are not persisted: after a restart every table schedules its current deadline afresh,
which is how deadlines get extended across a restart.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable


def _current_task() -> asyncio.Task[object] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no running loop: closed from plain code
        return None


class TimerSet:
    """Named one-shot timers that run a coroutine function when they fire."""

    def __init__(self, on_error: Callable[[BaseException], None] | None = None) -> None:
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._on_error = on_error
        self._closed = False

    def schedule(self, name: str, delay: float, fn: Callable[[], Awaitable[None]]) -> None:
        """Run ``fn()`` in ``delay`` seconds, replacing any timer of the same name."""
        if self._closed:
            return
        self.cancel(name)
        loop = asyncio.get_running_loop()
        self._handles[name] = loop.call_later(max(0.0, delay), self._fire, name, fn)

    def _fire(self, name: str, fn: Callable[[], Awaitable[None]]) -> None:
        self._handles.pop(name, None)
        task = asyncio.ensure_future(fn())
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or self._on_error is None:
            return
        exc = task.exception()
        if exc is not None:
            self._on_error(exc)

    def spawn(self, fn: Callable[[], Awaitable[None]]) -> None:
        """Run ``fn()`` now as a tracked task (cancelled by :meth:`close`)."""
        self._fire("", fn)

    def cancel(self, name: str) -> None:
        handle = self._handles.pop(name, None)
        if handle is not None:
            handle.cancel()

    def pending(self, name: str) -> bool:
        return name in self._handles

    def close(self) -> None:
        """Cancel every pending timer and running task, except the task that is closing the set."""
        self._closed = True
        for h in self._handles.values():
            h.cancel()
        self._handles.clear()
        current = _current_task()
        for t in list(self._tasks):
            if t is not current:
                t.cancel()

    async def drain(self, timeout: float = 5.0) -> None:
        """Close, then wait (at most ``timeout`` seconds) for the cancelled tasks to end.

        A task cancelled in the middle of a storage write still hands its database connection back
        (SQLAlchemy does that in a shielded step); the server waits for it before it closes its
        storage, or that step would wait for a connection the closed storage no longer serves.
        """
        self.close()
        current = _current_task()
        tasks = [t for t in self._tasks if t is not current]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)


class TokenBucket:
    """``rate`` messages per second with bursts up to ``burst``; :meth:`take` says whether one may pass."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._clock = clock
        self._last = clock()

    def take(self) -> bool:
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
