"""The Starlette application: HTTP routes under ``/api``, the WebSocket at ``/ws``, the web table at ``/``.

This layer only translates: it authenticates, parses bodies with the models of
:mod:`.protocol`, and hands the request to the lobby or a table actor; the WebSocket loop is in
:mod:`.ws`. Every error leaves as ``{"v": 1, "error": {"code", "message"}}``.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import logging
from importlib import resources
from typing import Any, AsyncIterator, Awaitable, Callable, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .. import __version__
from ..fairness import verify_record
from ..records import RecordError, load_record, replay_frames
from ..rules import RULE_KEYS
from .auth import AuthError, authenticate, bearer, create_guest
from .botpool import BotPool, public_levels
from .bus import open_bus
from .config import ServerConfig
from .lobby import Lobby
from .ops import Metrics, MetricsMiddleware, instrument, ops_routes
from .protocol import (
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    BotRequest,
    CreateTable,
    FreeRequest,
    GuestRequest,
    QueueRequest,
    SitRequest,
    Timers,
)
from .ratings import ordinal
from .storage import PlayerRow, open_storage
from .table import TableActor, TableError
from .timers import TokenBucket
from .ws import websocket_endpoint

log = logging.getLogger("hokm.server")
M = TypeVar("M", bound=BaseModel)
MAX_BODY = 64 * 1024
MAX_RECORD_BODY = 2 * 1024 * 1024
STATUS = {"unauthorized": 401, "forbidden": 403, "not_host": 403, "not_found": 404, "game_in_progress": 409,
          "seat_taken": 409, "already_seated": 409, "table_started": 409, "table_not_ready": 409, "in_game": 409,
          "not_seated": 409, "busy": 503, "rate_limited": 429, "too_many_tables": 429}


class ApiError(Exception):
    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status or STATUS.get(code, 400)


def error_response(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"v": PROTOCOL_VERSION, "error": {"code": code, "message": message}},
                        status_code=status or STATUS.get(code, 400))


async def settled(value: Any) -> Any:
    """The value, awaited if it is awaitable: the cluster lobby's queues live in Redis (async)."""
    return await value if inspect.isawaitable(value) else value


def validation_message(e: ValidationError) -> str:
    first = e.errors()[0]
    where = ".".join(str(x) for x in first.get("loc", ())) or "body"
    return f"{where}: {first.get('msg', 'invalid')}"


class Services:
    """What every route needs, built at start-up from the config."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.storage = open_storage(config.db_url)
        self.bus = open_bus(config.bus_url)
        self.bots = BotPool(config.bot_threads, config.bot_processes)
        self.lobby = Lobby(self.storage, self.bus, self.bots, config)
        self.node: str | None = None
        if config.redis_url:  # several nodes: leases, routing and takeover (hokm.server.cluster)
            from .cluster import attach_cluster

            attach_cluster(self)

    async def start(self) -> None:
        await self.storage.init()
        self.bots.warm([self.lobby.default_bot, self.lobby.hint_bot])
        restored = await self.lobby.restore()
        if restored:
            log.info("restored %d unfinished tables", restored)
        self.lobby.start_matchmaker()

    async def stop(self) -> None:
        await self.lobby.close()
        self.bots.close()
        await self.bus.close()
        await self.storage.close()


def create_app(config: ServerConfig | None = None) -> Starlette:
    config = config or ServerConfig.from_env()
    services = Services(config)
    metrics = Metrics(services)
    instrument(services, metrics)

    def route(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapper(request: Request) -> Response:
            try:
                result = await fn(request)
            except ApiError as e:
                return error_response(e.code, e.message, e.status)
            except AuthError as e:
                return error_response(e.code, e.message)
            except TableError as e:
                return error_response(e.code, e.message)
            if isinstance(result, Response):
                return result
            return JSONResponse(result)
        return wrapper

    async def body(request: Request, model: type[M], limit: int = MAX_BODY) -> M:
        declared = request.headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > limit:
            raise ApiError("bad_request", f"the body must be JSON of at most {limit} bytes")
        raw = await request.body()
        if len(raw) > limit:
            raise ApiError("bad_request", f"the body is larger than {limit} bytes")
        try:
            return model.model_validate_json(raw or b"{}")
        except ValidationError as e:
            raise ApiError("bad_request", validation_message(e)) from None

    async def me(request: Request) -> PlayerRow:
        return await authenticate(services.storage, bearer(request.headers.get("authorization")))

    def table_json(request: Request, actor: TableActor) -> dict[str, Any]:
        info = actor.info()
        if info["code"]:
            info["invite_url"] = str(request.base_url).rstrip("/") + "/?join=" + info["code"]
        return info

    async def table_of(request: Request) -> TableActor:
        actor = await services.lobby.get(request.path_params["table_id"][:64])
        if actor is None:
            raise ApiError("not_found", "no such table")
        return actor

    def limit_of(request: Request, default: int = 20) -> int:
        try:
            n = int(request.query_params.get("limit", default))
        except ValueError:
            raise ApiError("bad_request", "limit must be a whole number") from None
        return max(1, min(100, n))

    # ------------------------------------------------------------------ routes
    async def health(request: Request) -> Any:
        return {"ok": True}

    async def info(request: Request) -> Any:
        lobby = services.lobby
        return {"v": PROTOCOL_VERSION, "version": __version__, "bots": public_levels(),
                "default_bot": lobby.default_bot, "hint_bot": lobby.hint_bot, "timers": Timers().model_dump(),
                "rule_keys": [k for k in RULE_KEYS if k != "partner_draw"], "max_frame_bytes": MAX_FRAME_BYTES}

    async def guest(request: Request) -> Any:
        req = await body(request, GuestRequest)
        row, token = await create_guest(services.storage, req.nickname)
        return JSONResponse({"player_id": row.id, "nickname": row.nickname, "token": token}, status_code=201)

    def stats(p: PlayerRow) -> dict[str, Any]:
        return {"games": p.games, "wins": p.wins, "kots": p.kots, "rating": round(ordinal(p.mu, p.sigma), 3),
                "rated_games": p.rated_games}

    async def me_route(request: Request) -> Any:
        p = await me(request)
        return {"player_id": p.id, "nickname": p.nickname, "stats": stats(p),
                "tables": await services.storage.tables_of_player(p.id)}

    async def create_table(request: Request) -> Any:
        p = await me(request)
        req = await body(request, CreateTable)
        actor = await services.lobby.create(p, req)
        return JSONResponse(table_json(request, actor), status_code=201)

    async def get_table(request: Request) -> Any:
        await me(request)
        return table_json(request, await table_of(request))

    code_lookups: dict[str, TokenBucket] = {}

    async def by_code(request: Request) -> Any:
        await me(request)
        # Per address, so invite codes cannot be enumerated quickly from one machine.
        ip = request.client.host if request.client else "?"
        if len(code_lookups) > 10_000:
            code_lookups.clear()
        bucket = code_lookups.setdefault(ip, TokenBucket(rate=2.0, burst=20.0))
        if not bucket.take():
            raise ApiError("rate_limited", "too many invite code lookups; wait a little")
        actor = await services.lobby.by_code(request.path_params["code"][:16])
        if actor is None:
            raise ApiError("not_found", "no room has this invite code")
        return table_json(request, actor)

    async def sit(request: Request) -> Any:
        p = await me(request)
        req = await body(request, SitRequest)
        actor = await table_of(request)
        await actor.sit(p.id, p.nickname, req.seat, req.seed)
        return table_json(request, actor)

    async def seat_bot(request: Request) -> Any:
        p = await me(request)
        req = await body(request, BotRequest)
        actor = await table_of(request)
        level = services.lobby.bot_level(req.level) if req.level else actor.level
        await actor.seat_bot(p.id, req.seat, level)
        return table_json(request, actor)

    async def free(request: Request) -> Any:
        p = await me(request)
        req = await body(request, FreeRequest)
        actor = await table_of(request)
        await actor.free(p.id, req.seat)
        return table_json(request, actor)

    async def start(request: Request) -> Any:
        p = await me(request)
        actor = await table_of(request)
        await actor.start(p.id)
        return table_json(request, actor)

    async def fair(request: Request) -> Any:
        await me(request)
        actor = await table_of(request)
        return {"hands": [f.public() for f in actor.fair]}

    async def queue(request: Request) -> Any:
        p = await me(request)
        if request.method == "POST":
            req = await body(request, QueueRequest)
            status = await services.lobby.enqueue(p, req.players)
            if req.seed:
                services.lobby.queue_seeds[p.id] = req.seed.lower()
            return status
        if request.method == "DELETE":
            await settled(services.lobby.leave_queue(p.id))
            services.lobby.matched.pop(p.id, None)
        return await settled(services.lobby.queue_status(p.id))

    async def games(request: Request) -> Any:
        await me(request)
        rows = await services.storage.recent_games(limit_of(request))
        return {"games": [g.summary() for g in rows]}

    async def my_games(request: Request) -> Any:
        p = await me(request)
        rows = await services.storage.recent_games(limit_of(request), player_id=p.id)
        return {"games": [g.summary() for g in rows]}

    async def game(request: Request) -> Any:
        await me(request)
        row = await services.storage.get_game(request.path_params["game_id"][:64])
        if row is None:
            raise ApiError("not_found", "no such game (a game in progress has no summary yet)")
        return row.summary()

    async def finished_game(request: Request) -> Any:
        """The stored game behind a record or replay request, for one of its players only."""
        p = await me(request)
        gid = request.path_params["game_id"][:64]
        row = await services.storage.get_game(gid)
        if row is None:
            if any(a.game_id == gid and a.status != "over" for a in services.lobby.actors.values()):
                raise ApiError("game_in_progress", "the record is available once the game is over")
            raise ApiError("not_found", "no finished game has this id")
        if p.id not in row.player_ids:
            raise ApiError("forbidden", "only the players of a game may download its record")
        return row

    async def record(request: Request) -> Any:
        row = await finished_game(request)
        gid = request.path_params["game_id"][:64]
        return Response(row.record, media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="hokm-{gid}.json"'})

    async def replay(request: Request) -> Any:
        row = await finished_game(request)
        return {"record": json.loads(row.record), "frames": replay_frames(row.record)}

    async def verify(request: Request) -> Any:
        await me(request)
        declared = request.headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > MAX_RECORD_BODY:
            raise ApiError("bad_record", f"a record larger than {MAX_RECORD_BODY} bytes is refused")
        raw = await request.body()
        if len(raw) > MAX_RECORD_BODY:
            raise ApiError("bad_record", f"a record larger than {MAX_RECORD_BODY} bytes is refused")
        try:
            data = json.loads(raw)
            load_record(data)
        except (ValueError, RecordError) as e:
            message = e.message if isinstance(e, RecordError) else f"not JSON: {e}"
            raise ApiError("bad_record", message) from None
        return verify_record(data).to_json()

    async def leaderboard(request: Request) -> Any:
        await me(request)
        rows = await services.storage.leaderboard(limit_of(request, 50))
        return {"players": [{"rank": i + 1, "player_id": p.id, "nickname": p.nickname} | stats(p)
                            for i, p in enumerate(rows)]}

    async def unknown(request: Request) -> Any:
        raise ApiError("not_found", f"no such endpoint: {request.method} {request.url.path}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await services.start()
        try:
            yield
        finally:
            await services.stop()

    routes: list[Any] = [
        *ops_routes(services, metrics),
        Route("/api/health", route(health)),
        Route("/api/info", route(info)),
        Route("/api/guest", route(guest), methods=["POST"]),
        Route("/api/me", route(me_route)),
        Route("/api/me/games", route(my_games)),
        Route("/api/tables", route(create_table), methods=["POST"]),
        Route("/api/tables/{table_id}", route(get_table)),
        Route("/api/tables/{table_id}/sit", route(sit), methods=["POST"]),
        Route("/api/tables/{table_id}/bot", route(seat_bot), methods=["POST"]),
        Route("/api/tables/{table_id}/free", route(free), methods=["POST"]),
        Route("/api/tables/{table_id}/start", route(start), methods=["POST"]),
        Route("/api/tables/{table_id}/fair", route(fair)),
        Route("/api/codes/{code}", route(by_code)),
        Route("/api/queue", route(queue), methods=["GET", "POST", "DELETE"]),
        Route("/api/games", route(games)),
        Route("/api/games/{game_id}", route(game)),
        Route("/api/games/{game_id}/record", route(record)),
        Route("/api/games/{game_id}/replay", route(replay)),
        Route("/api/verify", route(verify), methods=["POST"]),
        Route("/api/leaderboard", route(leaderboard)),
        Route("/api/{rest:path}", route(unknown), methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        WebSocketRoute("/ws", lambda ws: websocket_endpoint(ws, services)),
    ]
    static = resources.files("hokm") / "web" / "static"
    if static.is_dir():
        routes.append(Mount("/", StaticFiles(directory=str(static), html=True), name="web"))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(MetricsMiddleware, metrics=metrics)])
    app.state.services = services
    return app
