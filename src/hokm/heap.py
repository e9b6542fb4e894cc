"""The garbage collector's policy for a long-running process that holds thousands of connections:
``hokm serve`` and the load tool that plays against it (``hokm loadtest``).

Both hold millions of objects once thousands of players are connected, and Python's own
collections, left as they are, stop the process for as long as they walk them: a node's players,
or every player the load tool plays, wait meanwhile. :class:`GcPolicy` keeps every stop short.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable


def peak_resident() -> int:
    """The process's peak resident memory so far, in bytes (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB on Linux


#: Bytes of memory growth each connection more than at the last full collection accounts for: what a
#: node holds per connection, its share of a table included (about 110 KiB at 2,000 and 3,500
#: four-player tables, docs/performance.md), with room for longer games and chat.
PER_CONNECTION = 192 * 2**10


class GcPolicy:
    """Keep Python's garbage collections short and full ones rare in a long-running process, and memory flat.

    A full (generation 2) collection walks every tracked object; a node with a thousand tables holds
    millions of them, and each full collection then stops the event loop for hundreds of
    milliseconds, which is the whole p99 (docs/performance.md, "Server"). So every ``freeze_every``
    seconds (:meth:`tick`) the garbage collector first collects what is not frozen yet (the objects
    made since the last tick: a short walk), then moves the survivors to the permanent generation
    (``gc.freeze()``, constant time), so later collections only walk what is young.

    Python's automatic collections are turned off while the policy runs: every 700 allocations
    they walked the young objects again (a busy node spent far more in them than in the ticks,
    docs/performance.md), while a tick walks each one once. What refcounting frees is freed at
    once as always; what only a collection frees (cycles) waits at most ``freeze_every``.

    Frozen objects are still freed by reference counting; only cycles among them wait for a full
    collection, one step (``gc.unfreeze()``, ``gc.collect()``, ``gc.freeze()``) that stops the node
    for as long as it walks every object: about a second at 6,000 connections, three at 12,000. A
    closed connection leaves no cycle (``tests/server/test_memory.py`` counts them), nor does a
    game played to its end (docs/performance.md, "Connections freed when they close"), so a full
    collection runs only once the process's peak resident memory (``peak``, bytes) has doubled
    since the last one, and grown by at least ``grow`` bytes, or at the latest every
    ``collect_every`` seconds: whatever makes cycles in the frozen heap shows first as memory.
    Memory that more players explain is not counted: each connection above the most the process had
    held at once by its last full collection (``connections()`` is the number held now; like the
    peak, the most never falls) accounts for ``per_connection`` bytes of the growth. A node holds about 110 KiB per connection, its share of
    a table included, so a node filling up with players meets no full collection, where it met one
    at each doubling, two seconds long at 12,000 connections (docs/performance.md, "One node at a
    human pace: 5,000 tables"); memory that grows while the players do not still brings one.

    Walking the young objects is not free even when they are all alive: with thousands of
    connections most of them are the awaits each connection makes again after every message, and
    each points into the frozen heap, so a walk costs 30 to 45 ms of CPU a second at 1,500 tables
    with the GIL held, the event loop stopped for as long (docs/performance.md, "Tables started
    once their players are there, and ticks that find nothing"). So once a walk finds no garbage,
    the next ``young_every - 1`` ticks only freeze, unless a connection has closed meanwhile (under
    connection churn the server's memory stays flat only if the walks go on: measured by the churn
    test there); a walk that finds some makes the next tick walk again. Cycles made during the
    freezing ticks wait for the next full collection, as frozen ones do.

    A walk covers what was made since the tick before it, so the tick's period sets how long one
    walk stops the event loop, and ``young_every`` how much of the work is walked at all. Ticks a
    tenth of a second apart walk a tenth of a second's objects once a second: the same share of
    them as ticks a second apart walking every tenth, in stops a tenth as long (docs/performance.md,
    "Short stops: the young objects walked in tenths of a second, and checkpoints that let appends
    through").
    """

    def __init__(self, freeze_every: float = 0.1, collect_every: float = 4 * 3600.0, *, young_every: int = 10,
                 grow: int = 512 * 2**20, peak: Callable[[], int] = lambda: 0,
                 connections: Callable[[], int] = lambda: 0, per_connection: int = PER_CONNECTION,
                 closed: Callable[[], int] = lambda: 0, clock: Callable[[], float] = time.monotonic,
                 on_pause: Callable[[str, float], None] = lambda kind, seconds: None) -> None:
        """``connections()`` is the number of connections the process holds now, ``closed()`` how many
        have closed since it started; ``on_pause(kind, seconds)`` hears the CPU time of each
        collection: ``young`` (a walk of the young objects) or ``full``."""
        self.freeze_every, self.collect_every, self.young_every = freeze_every, collect_every, young_every
        self.grow, self._peak = grow, peak
        self._connections, self.per_connection = connections, per_connection
        self._peak_at_full = peak()
        # The most connections held at once since start, and that most at the last full collection:
        # like ``peak``, it never falls, so players coming back to memory they had used before are
        # not counted twice.
        self._most_connections = self._most_at_full = connections()
        self._skip = 0  # ticks left that only freeze (the last walk of the young objects found nothing)
        self._closed_at_walk = closed()
        self.young_walks = 0
        self._closed, self._clock, self._on_pause = closed, clock, on_pause
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_full = clock()
        self.full_collections = 0

    def full_collection(self) -> None:
        """Collect everything, frozen or not, then freeze the survivors."""
        t0 = time.thread_time()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._on_pause("full", time.thread_time() - t0)
        self._last_full = self._clock()
        self._peak_at_full = self._peak()
        self._most_connections = max(self._most_connections, self._connections())
        self._most_at_full = self._most_connections
        self.full_collections += 1

    def _full_due(self) -> bool:
        if self._clock() - self._last_full >= self.collect_every:
            return True
        self._most_connections = max(self._most_connections, self._connections())
        players = self.per_connection * (self._most_connections - self._most_at_full)
        grown = self._peak() - self._peak_at_full - players
        return grown >= self.grow and grown >= self._peak_at_full

    def tick(self) -> None:
        """One period: a full collection when due, else collect the young objects (unless the last walk
        found none) and freeze the rest."""
        if self._full_due():
            self.full_collection()
            self._skip = 0
        elif self._skip > 0 and self._closed() == self._closed_at_walk:
            self._skip -= 1
            gc.freeze()
        else:
            self._closed_at_walk = self._closed()
            t0 = time.thread_time()
            found = gc.collect()  # walks only what is not frozen
            gc.freeze()
            self._on_pause("young", time.thread_time() - t0)
            self.young_walks += 1
            self._skip = 0 if found else self.young_every - 1

    def _run(self) -> None:
        while not self._stop.wait(self.freeze_every):
            self.tick()

    def start(self) -> None:
        self.full_collection()
        gc.disable()  # the ticks collect what is young instead of every 700 allocations
        self._thread = threading.Thread(target=self._run, name="hokm-gc", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.freeze_every + 5)
        gc.unfreeze()
        gc.enable()
