"""CPU-heavy request work (record verification) in worker processes, off the event loop.

Verifying a long record is tens to hundreds of milliseconds of pure Python. Run inline it stalls
the event loop, and with it every table's messages; run in a thread it still holds the
interpreter lock for most of that time. So it runs in worker processes
(:func:`hokm.procs.process_pool`: started on first use, ended with the server). At most
``capacity`` jobs run or wait at once; one more is refused with :class:`Busy` straight away
rather than queued without bound (the per-player and per-address rate limit of
``POST /api/verify`` keeps one client from taking them all).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..procs import close_pool, process_pool

log = logging.getLogger("hokm.server.cpu")
T = TypeVar("T")


def _warm() -> None:
    import hokm.verification  # noqa: F401


class Busy(Exception):
    """Every worker is taken and the waiting line is full."""


class CpuPool:
    def __init__(self, processes: int = 1, capacity: int = 16) -> None:
        self.processes = max(1, processes)
        self.capacity = capacity
        self._pool: ProcessPoolExecutor | None = None
        self._in_flight = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = process_pool(self.processes)  # its workers die with the server
        return self._pool

    def warm(self) -> None:
        """Start the workers and import the verification code there (server start-up), in the background."""
        for _ in range(self.processes):
            self._executor().submit(_warm)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process; ``fn`` must be a module-level function."""
        if self._in_flight >= self.capacity:
            raise Busy("the server is verifying too many records; try again in a moment")
        self._in_flight += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor(), fn, *args)
        except BrokenProcessPool:
            log.error("a worker process died; starting a new one")
            self._pool = None
            raise Busy("a worker process failed; try again") from None
        finally:
            self._in_flight -= 1

    def close(self) -> None:
        if self._pool is not None:
            # Wait for the workers to exit: a process that ends while they run leaves them behind
            # and its queues' semaphores unreleased.
            close_pool(self._pool)
            self._pool = None
