"""The Starlette application, assembled: the API routes (:mod:`.routes`), the WebSocket at ``/ws``
(:mod:`.ws`), the web table at ``/``, the middleware, and the services' start and stop.

Routes read what they need from ``app.state``: ``services`` (:class:`~.services.Services`) and
``metrics`` (:class:`~.ops.Metrics`). Every error leaves as ``{"v": 1, "error": {"code", "message"}}``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import BaseRoute, Mount, WebSocketRoute

from .config import ServerConfig
from .ops import Metrics, MetricsMiddleware, instrument
from .routes import api_routes
from .routes.analysis import analysis_memo
from .routes.records import replay_memo
from .security import SecurityHeaders
from .services import Services
from .webassets import WebAssets
from .ws import websocket_endpoint


def create_app(config: ServerConfig | None = None) -> Starlette:
    config = config or ServerConfig.from_env()
    services = Services(config)
    metrics = Metrics(services)
    instrument(services, metrics)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await services.start()
        try:
            yield
        finally:
            await services.stop()

    routes: list[BaseRoute] = [*api_routes(), WebSocketRoute("/ws", websocket_endpoint)]
    static = Path(config.web_dir) if config.web_dir else Path(str(resources.files("hokm") / "web" / "static"))
    if static.is_dir():
        routes.append(Mount("/", WebAssets(static), name="web"))
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(SecurityHeaders, allow=config.metrics_allow, token=config.metrics_token),
                                Middleware(MetricsMiddleware, metrics=metrics),
                                # API bodies (/api/info's level texts, records) compressed too; the web
                                # table's files come compressed already and pass through untouched.
                                Middleware(GZipMiddleware, minimum_size=1024)])
    app.state.services = services
    app.state.metrics = metrics
    app.state.social = services.social
    app.state.analysis_memo = analysis_memo()
    app.state.replay_memo = replay_memo()
    return app
