"""Worker processes and child commands that end with the process that started them.

Every pool of worker processes in the project (the search helpers of ``hokm play --workers``, the
server's bot workers, ``hokm arena --jobs``) is made here. Each worker asks the kernel, as it
starts, to be killed when its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``), so a parent
killed by ``SIGKILL``, which runs no clean-up at all, leaves no worker behind. A worker that
finds its parent already gone by then exits at once. Elsewhere than Linux the request is skipped
and workers rely on the pool's own shutdown.

Commands started with ``subprocess.Popen`` (the ``hokm serve`` nodes of ``hokm loadtest
--spawn``) make the same request between fork and exec: :func:`child_dies_with_parent` gives the
``preexec_fn`` that does it.

The kernel sends the signal when the *thread* that started the worker ends, so a pool must be
used (its first ``submit``) from a thread that lives as long as the pool: the main thread, the
event loop's thread, or a long-lived pool thread; likewise a command must be started from a
thread that lives as long as it should.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """In a worker: be killed when the process ``parent`` dies (Linux), or exit now if it is gone."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no usable libc: keep the pool's own shutdown only
            pass
    if os.getppid() != parent:
        os._exit(1)


def child_dies_with_parent(sig: int = signal.SIGTERM) -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``subprocess.Popen``: the command gets ``sig`` when this process dies.

    ``None`` where the request cannot be made (not Linux, no usable libc). The C library is
    loaded here, in the parent, so that the child between fork and exec only makes two calls.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def request() -> None:
        prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the request: no signal will come
            os._exit(1)

    return request


def process_pool(workers: int, start_method: str | None = "spawn") -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that die with this one (``start_method=None``: the platform's)."""
    context = multiprocessing.get_context(start_method)
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=die_with_parent,
                               initargs=(os.getpid(),))


def close_pool(pool: ProcessPoolExecutor, timeout: float = 5.0) -> None:
    """Shut ``pool`` down and wait up to ``timeout`` seconds for its workers to exit, then kill the rest.

    Waiting lets a worker finish its job and release its queues' semaphores (a process that exits
    while its workers run leaves them behind and warns of leaked semaphores); the bound keeps a
    worker that is still starting, or stuck, from holding up the caller (often the event loop).
    """
    workers = list((getattr(pool, "_processes", None) or {}).values())  # the executor's own table of workers
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + timeout
    for w in workers:
        w.join(max(0.0, deadline - time.monotonic()))
    for w in workers:
        if w.is_alive():
            w.kill()
            w.join(1.0)


__all__ = ["child_dies_with_parent", "close_pool", "die_with_parent", "process_pool"]
