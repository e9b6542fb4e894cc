"""Operations: health and readiness probes (served by :mod:`.routes.ops`), Prometheus metrics, JSON logs.

- ``GET /healthz``: the process answers (liveness; a load balancer restarts it when this fails).
- ``GET /readyz``: the node can take players: the database answers, Redis answers (cluster), and
  it is not shutting down. A load balancer sends new connections only to ready nodes.
- ``GET /metrics``: Prometheus text. Tables by status, open WebSocket connections, accepted
  actions, the time from an ``action`` frame received to the first frame sent back on the same
  connection (the server's share of a player's latency), event appends, table batches sent (at
  once or through a connection's task), HTTP requests and bot think time, plus the process's CPU
  and memory.

Nothing here reads a card: metrics count and time; log lines carry ids and codes, never views.
The instrumentation wraps the services from outside (an ASGI middleware, and thin wrappers of
``storage.append_events`` and ``bots.decide``), so the game code stays unaware of it. Each app gets
its own registry, so tests may build many apps in one process.
"""

from __future__ import annotations

import gc
import json
import logging
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _TablesCollector(Collector):
    """Tables by status, read from the lobby at scrape time (no bookkeeping in the game path), and the
    table batches sent, from the services' tally."""

    def __init__(self, services: Any) -> None:
        self.services = services

    def collect(self) -> Any:
        lobby = self.services.lobby
        g = GaugeMetricFamily("hokm_tables", "Table actors in this process, by status", labels=["status"])
        for status, n in sorted(lobby.table_counts().items()):
            g.add_metric([status], n)
        yield g
        owned = lobby.ownership()
        if owned is not None:
            held, takeovers = owned
            o = GaugeMetricFamily("hokm_tables_owned", "Tables whose lease this node holds")
            o.add_metric([], held)
            yield o
            t = GaugeMetricFamily("hokm_takeovers", "Tables this node took over from the log since start")
            t.add_metric([], takeovers)
            yield t
        sent = self.services.batches_sent
        b = CounterMetricFamily("hokm_table_batches_sent", "Table batches sent to a connection as one message, by "
                                "path: at once from the publishing call, or awaited by the connection's task",
                                labels=["path"])
        b.add_metric(["at_once"], sent.at_once)
        b.add_metric(["awaited"], sent.awaited)
        yield b


class Metrics:
    """The Prometheus metrics of one app."""

    def __init__(self, services: Any) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        ProcessCollector(registry=r)
        r.register(_TablesCollector(services))
        self.connections = Gauge("hokm_connections", "Open WebSocket connections", registry=r)
        self.closed = Counter("hokm_connections_closed", "WebSocket connections closed since start", registry=r)
        self.closed_count = 0  # the same, read by GcPolicy
        self.gc_pause = Histogram("hokm_gc_pause_seconds",
                                  "CPU time of one garbage collection of GcPolicy, the GIL held throughout, by kind",
                                  ["kind"], buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
                                  registry=r)
        self.actions = Counter("hokm_actions", "Game actions accepted and stored, by who decided", ["by"], registry=r)
        self.events = Counter("hokm_events", "Table events stored", registry=r)
        self.action_latency = Histogram(
            "hokm_action_latency_seconds",
            "From an action frame received to its events stored and handed to the table's connections",
            buckets=LATENCY_BUCKETS, registry=r)
        self.append_latency = Histogram("hokm_append_seconds", "Time to store one batch of table events",
                                        buckets=LATENCY_BUCKETS, registry=r)
        self.http_latency = Histogram("hokm_http_request_seconds", "HTTP requests, by method",
                                      ["method"], buckets=LATENCY_BUCKETS, registry=r)
        self.bot_think = Histogram("hokm_bot_think_seconds", "Bot decision time (compute, without the shown pause)",
                                   ["level"], buckets=THINK_BUCKETS, registry=r)

    def render(self) -> bytes:
        return generate_latest(self.registry)


def instrument(services: Any, metrics: Metrics) -> None:
    """Wrap the storage append and the bot pool of ``services`` to feed ``metrics``."""
    storage = services.storage
    append = storage.append_events

    actions_by: dict[str, Any] = {}  # the counter's child per label, looked up once

    async def append_events(table_id: str, events: list[Any], update_: Any = None) -> None:
        t0 = time.perf_counter()
        await append(table_id, events, update_)
        metrics.append_latency.observe(time.perf_counter() - t0)
        metrics.events.inc(len(events))
        for e in events:
            if e.kind == "action":
                by = e.payload.get("by", "player")
                child = actions_by.get(by)
                if child is None:
                    child = actions_by[by] = metrics.actions.labels(by)
                child.inc()

    storage.append_events = append_events
    bots = services.bots
    decide = bots.decide

    async def timed_decide(table_id: str, seat: Any, level: str, view: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return await decide(table_id, seat, level, view)
        finally:
            metrics.bot_think.labels(level).observe(time.perf_counter() - t0)

    bots.decide = timed_decide


class MetricsMiddleware:
    """ASGI middleware: counts WebSocket connections and times HTTP requests (a connection times its actions:
    wrapping every frame sent and received here cost more than the timing is worth)."""

    def __init__(self, app: Any, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        kind = scope["type"]
        if kind == "http":
            t0 = time.perf_counter()
            try:
                await self.app(scope, receive, send)
            finally:
                self.metrics.http_latency.labels(scope.get("method", "GET")).observe(time.perf_counter() - t0)
            return
        if kind != "websocket":
            await self.app(scope, receive, send)
            return
        m = self.metrics
        m.connections.inc()
        try:
            await self.app(scope, receive, send)
        finally:
            m.connections.dec()
            m.closed.inc()
            m.closed_count += 1


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and any ``extra`` fields."""

    _SKIP = frozenset(vars(logging.makeLogRecord({})).keys()) | {"message", "asctime", "color_message"}

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"ts": round(record.created, 3), "level": record.levelname.lower(),
                               "logger": record.name, "msg": record.getMessage()}
        for k, v in vars(record).items():
            if k not in self._SKIP and not k.startswith("_"):
                out[k] = v if isinstance(v, (str, int, float, bool, type(None))) else repr(v)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class ClientFaultFilter(logging.Filter):
    """A frame the transport refuses (a text frame that is not UTF-8, closed with 1007) is the
    client's fault: uvicorn logs it with a traceback, which a client could repeat to flood the log.
    This keeps it as one warning line without the traceback."""

    MESSAGES = frozenset({"Invalid UTF-8 sequence received from client."})

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in self.MESSAGES:
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def setup_logging(level: str = "info", json_lines: bool = False) -> None:
    """Configure the root logger (and uvicorn's) for human-readable or JSON lines on stderr."""
    handler = logging.StreamHandler()
    if json_lines:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True
    client_faults = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ClientFaultFilter) for f in client_faults.filters):
        client_faults.addFilter(ClientFaultFilter())


def peak_resident() -> int:
    """The process's peak resident memory so far, in bytes (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB on Linux


class GcPolicy:
    """Keep Python's full garbage collections short and rare in a long-running server, and memory flat.

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
    ``collect_every`` seconds: whatever makes cycles in the frozen heap shows first as memory. A
    node growing with its players meets one at each doubling (docs/performance.md).

    Walking the young objects is not free even when they are all alive: with thousands of
    connections most of them are the awaits each connection makes again after every message, and
    each points into the frozen heap, so a walk costs 30 to 45 ms of CPU a second at 1,500 tables
    with the GIL held, the event loop stopped for as long (docs/performance.md, "Tables started
    once their players are there, and ticks that find nothing"). So once a walk finds no garbage,
    the next ``young_every - 1`` ticks only freeze, unless a connection has closed meanwhile (under
    connection churn the server's memory stays flat only if the walks go on: measured by the churn
    test there); a walk that finds some makes the next tick walk again. Cycles made during the
    freezing ticks wait for the next full collection, as frozen ones do.
    """

    def __init__(self, freeze_every: float = 1.0, collect_every: float = 4 * 3600.0, *, young_every: int = 10,
                 grow: int = 512 * 2**20, peak: Callable[[], int] = lambda: 0,
                 closed: Callable[[], int] = lambda: 0, clock: Callable[[], float] = time.monotonic,
                 on_pause: Callable[[str, float], None] = lambda kind, seconds: None) -> None:
        """``on_pause(kind, seconds)`` hears the CPU time of each collection: ``young`` (a walk of the
        young objects) or ``full``."""
        self.freeze_every, self.collect_every, self.young_every = freeze_every, collect_every, young_every
        self.grow, self._peak = grow, peak
        self._peak_at_full = peak()
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
        self.full_collections += 1

    def _full_due(self) -> bool:
        if self._clock() - self._last_full >= self.collect_every:
            return True
        grown = self._peak() - self._peak_at_full
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
        gc.disable()  # the ticks collect what is young, once a second, instead of every 700 allocations
        self._thread = threading.Thread(target=self._run, name="hokm-gc", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.freeze_every + 5)
        gc.unfreeze()
        gc.enable()
