"""The operator's endpoints: ``/healthz``, ``/readyz`` and ``/metrics`` (reached as
:class:`~hokm.server.security.SecurityHeaders` allows)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..ops import Metrics
from .common import services


async def healthz(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def readyz(request: Request) -> Response:
    s = services(request)
    problems: list[str] = []
    if s.lobby.draining:
        problems.append("shutting down")
    try:
        await s.storage.get_table("readyz-probe")
    except Exception as e:  # noqa: BLE001 - report, do not crash the probe
        problems.append(f"database: {type(e).__name__}")
    redis = getattr(s.bus, "redis", None)
    if redis is not None:
        try:
            await redis.ping()
        except Exception as e:  # noqa: BLE001
            problems.append(f"redis: {type(e).__name__}")
    body = {"ready": not problems, "problems": problems, "node": s.node}
    return JSONResponse(body, status_code=200 if not problems else 503)


async def metrics(request: Request) -> Response:
    m: Metrics = request.app.state.metrics
    return Response(m.render(), media_type="text/plain; version=0.0.4; charset=utf-8")


routes = [Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", metrics)]
