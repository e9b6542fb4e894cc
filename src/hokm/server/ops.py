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

import json
import logging
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
        self.open_count = 0  # open WebSocket connections, read by GcPolicy
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
        m.open_count += 1
        try:
            await self.app(scope, receive, send)
        finally:
            m.connections.dec()
            m.open_count -= 1
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
