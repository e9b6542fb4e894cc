"""Operations: health and readiness probes, Prometheus metrics, JSON logs.

- ``GET /healthz``: the process answers (liveness; a load balancer restarts it when this fails).
- ``GET /readyz``: the node can take players: the database answers, Redis answers (cluster), and
  it is not shutting down. A load balancer sends new connections only to ready nodes.
- ``GET /metrics``: Prometheus text. Tables by status, open WebSocket connections, accepted
  actions, the time from an ``action`` frame received to the first frame sent back on the same
  connection (the server's share of a player's latency), event appends, HTTP requests and bot think
  time, plus the process's CPU and memory.

Nothing here reads a card: metrics count and time; log lines carry ids and codes, never views.
The instrumentation wraps the services from outside (an ASGI middleware, and thin wrappers of
``storage.append_events`` and ``bots.decide``), so the game code stays unaware of it. Each app gets
its own registry, so tests may build many apps in one process.
"""

from __future__ import annotations

import gc
import json
import logging
import threading
import time
from typing import Any, Awaitable, Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import GaugeMetricFamily
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _TablesCollector:
    """Tables by status, read from the lobby at scrape time (no bookkeeping in the game path)."""

    def __init__(self, services: Any) -> None:
        self.services = services

    def collect(self) -> Any:
        lobby = self.services.lobby
        g = GaugeMetricFamily("hokm_tables", "Table actors in this process, by status", labels=["status"])
        counts: dict[str, int] = {"waiting": 0, "playing": 0, "over": 0}
        for actor in list(lobby.actors.values()):
            counts[actor.status] = counts.get(actor.status, 0) + 1
        for status, n in sorted(counts.items()):
            g.add_metric([status], n)
        yield g
        held = getattr(lobby, "held", None)
        if held is not None:
            o = GaugeMetricFamily("hokm_tables_owned", "Tables whose lease this node holds")
            o.add_metric([], len(held))
            yield o
            t = GaugeMetricFamily("hokm_takeovers", "Tables this node took over from the log since start")
            t.add_metric([], getattr(lobby, "takeovers", 0))
            yield t


class Metrics:
    """The Prometheus metrics of one app."""

    def __init__(self, services: Any) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        ProcessCollector(registry=r)
        r.register(_TablesCollector(services))  # type: ignore[arg-type]
        self.connections = Gauge("hokm_connections", "Open WebSocket connections", registry=r)
        self.actions = Counter("hokm_actions", "Game actions accepted and stored, by who decided", ["by"], registry=r)
        self.events = Counter("hokm_events", "Table events stored", registry=r)
        self.action_latency = Histogram(
            "hokm_action_latency_seconds",
            "From an action frame received to the first frame sent back on that connection",
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

    async def append_events(table_id: str, events: list[Any], update_: Any = None) -> None:
        t0 = time.perf_counter()
        await append(table_id, events, update_)
        metrics.append_latency.observe(time.perf_counter() - t0)
        metrics.events.inc(len(events))
        for e in events:
            if e.kind == "action":
                metrics.actions.labels(e.payload.get("by", "player")).inc()

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
    """ASGI middleware: counts WebSocket connections, times HTTP requests and action round trips."""

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
        pending: list[float] = []

        async def timed_receive() -> Any:
            msg = await receive()
            if msg.get("type") == "websocket.receive":
                text = msg.get("text") or ""
                if '"action"' in text:  # cheap test; a false hit only adds one sample
                    pending.append(time.perf_counter())
            return msg

        async def timed_send(msg: Any) -> None:
            await send(msg)
            if pending and msg.get("type") == "websocket.send":
                m.action_latency.observe(time.perf_counter() - pending.pop(0))

        m.connections.inc()
        try:
            await self.app(scope, timed_receive, timed_send)
        finally:
            m.connections.dec()


def ops_routes(services: Any, metrics: Metrics) -> list[Route]:
    """``/healthz``, ``/readyz`` and ``/metrics``."""

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def readyz(request: Request) -> Response:
        problems: list[str] = []
        lobby = services.lobby
        if getattr(lobby, "draining", False):
            problems.append("shutting down")
        try:
            await services.storage.get_table("readyz-probe")
        except Exception as e:  # noqa: BLE001 - report, do not crash the probe
            problems.append(f"database: {type(e).__name__}")
        redis = getattr(services.bus, "redis", None)
        if redis is not None:
            try:
                await redis.ping()
            except Exception as e:  # noqa: BLE001
                problems.append(f"redis: {type(e).__name__}")
        body = {"ready": not problems, "problems": problems, "node": getattr(services, "node", None)}
        return JSONResponse(body, status_code=200 if not problems else 503)

    async def metrics_route(request: Request) -> Response:
        return Response(metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")

    return [Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", metrics_route)]


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


class GcPolicy:
    """Keep Python's full garbage collections short in a long-running server.

    A full (generation 2) collection walks every tracked object; a node with a thousand tables holds
    millions of them, and each full collection then stops the event loop for hundreds of
    milliseconds, which is the whole p99 (docs/performance.md, "Server"). Every
    ``freeze_every`` seconds the objects alive so far are moved to the permanent generation
    (``gc.freeze()``, constant time), so a collection only walks what was allocated since. Frozen
    objects are still freed by reference counting; only cycles among them wait for the next
    ``gc.unfreeze()``, every ``unfreeze_every`` seconds, which costs one full collection then.
    """

    def __init__(self, freeze_every: float = 1.0, unfreeze_every: float = 900.0) -> None:
        self.freeze_every, self.unfreeze_every = freeze_every, unfreeze_every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        last_unfreeze = time.monotonic()
        while not self._stop.wait(self.freeze_every):
            if time.monotonic() - last_unfreeze >= self.unfreeze_every:
                gc.unfreeze()
                last_unfreeze = time.monotonic()
            else:
                gc.freeze()

    def start(self) -> None:
        gc.freeze()
        self._thread = threading.Thread(target=self._run, name="hokm-gc", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        gc.unfreeze()
