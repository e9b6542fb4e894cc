"""``hokm serve``: run the game server (HTTP API, WebSocket, and the web table when it is built).

Settings come from flags, then ``HOKM_*`` environment variables (``HOKM_DATABASE_URL``,
``HOKM_DATA_DIR``, ...), then defaults: SQLite in the data folder and the in-process bus, so the
command needs nothing else installed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..server.config import ServerConfig

HELP = "run the game server (HTTP + WebSocket API, web table)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--data-dir", default=None, help="folder for the SQLite database (default ~/.local/share/hokm)")
    parser.add_argument("--database-url", default=None, help="SQLAlchemy async URL (default sqlite in --data-dir)")
    parser.add_argument("--allow-origin", action="append", default=None, metavar="ORIGIN",
                        help="also accept WebSocket connections from this browser origin (repeatable)")
    parser.add_argument("--bot-delay", type=float, nargs=2, default=None, metavar=("MIN", "MAX"),
                        help="seconds a bot seems to think (default 0.6 1.4)")
    parser.add_argument("--hand-pause", type=float, default=None, help="seconds between hands (default 2.5)")
    parser.add_argument("--queue-wait", type=float, default=None,
                        help="public queues: seconds before bots fill the empty seats (default 20)")
    parser.add_argument("--absent-grace", type=float, default=None,
                        help="seconds disconnected before a bot takes the seat (default 30)")
    parser.add_argument("--reclaim-window", type=float, default=None,
                        help="seconds a player may take the seat back (default 600)")
    parser.add_argument("--default-bot", default=None, help="bot level for public tables and standing in")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    parser.add_argument("--redis-url", default=None,
                        help="Redis for several nodes (leases, routing, bus); absent: one process (HOKM_REDIS_URL)")
    parser.add_argument("--redis-prefix", default=None, help="prefix of Redis keys and channels (default hokm)")
    parser.add_argument("--node-id", default=None, help="this node's name in the cluster (default host-pid-random)")
    parser.add_argument("--lease-ttl", type=float, default=None,
                        help="seconds before a dead node's tables may be taken over (default 5)")
    parser.add_argument("--log-json", action="store_true", default=None, help="one JSON object per log line")
    parser.add_argument("--signing-key-file", default=None, metavar="PEM",
                        help="Ed25519 private key that signs records (default <data-dir>/signing-key.pem, made once)")


def run(args: argparse.Namespace) -> int:
    from ..bots.external import default_timeout
    from ..server.config import ServerConfig

    try:
        config = ServerConfig.from_env(
            host=args.host, port=args.port, data_dir=args.data_dir, database_url=args.database_url,
            allowed_origins=tuple(args.allow_origin) if args.allow_origin else None,
            bot_delay=tuple(args.bot_delay) if args.bot_delay else None, hand_pause=args.hand_pause,
            queue_wait=args.queue_wait, absent_grace=args.absent_grace, reclaim_window=args.reclaim_window,
            default_bot=args.default_bot, redis_url=args.redis_url, redis_prefix=args.redis_prefix,
            node_id=args.node_id, lease_ttl=args.lease_ttl, log_json=args.log_json,
            signing_key_file=args.signing_key_file)
        # The players' own setting, in the same environment: refused like the server's, not ignored.
        default_timeout()
    except (TypeError, ValueError) as e:
        print(f"hokm serve: {e}", file=sys.stderr)
        return 2
    problem = check_storage(config)
    if problem:
        print(f"hokm serve: {problem}", file=sys.stderr)
        return 2
    from ..search.prepare import cache_is_warm, prepare

    # Before the address is printed: the first game must not wait on compiling the search kernels. With the compiled
    # kernels already on disk nothing is loaded here: this process never runs them (the search levels play in worker
    # processes, which load them from the cache), and loading them took 1.2 s of every start.
    if not cache_is_warm():
        prepare(lambda line: print(f"hokm serve: {line}", file=sys.stderr, flush=True))
    import uvicorn

    from ..server import httpprotocol, wsprotocol
    from ..server.app import create_app
    from ..server.limits import MAX_REQUEST_HEAD
    from ..server.ops import setup_logging

    setup_logging(args.log_level, json_lines=config.log_json)
    from ..signing import SigningError

    try:
        app = create_app(config)
    except SigningError as e:
        print(f"hokm serve: signing key: {e}", file=sys.stderr)
        return 2
    except ValueError as e:  # an unknown --default-bot
        print(f"hokm serve: {e}", file=sys.stderr)
        return 2

    class Server(uvicorn.Server):
        """uvicorn's server, printing the address it listens on once it does."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            for s in self.servers:
                for sock in s.sockets:
                    host, port = sock.getsockname()[:2]
                    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
                    print(f"hokm server ready: http://{shown}:{port}/  (data: {config.db_url})", flush=True)
                    return

        stopping = False
        stopped_by: int | None = None

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            self.stopping = True
            await super().shutdown(sockets)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            """SIGINT and SIGTERM start a graceful stop, as in uvicorn, but are not raised again once it is
            over: the process then ends as a program does, its exit handlers run (log lines flushed, the
            worker pools' semaphores released; a process killed by the raised signal left them to the
            resource tracker, which warned of leaked semaphores), and the command returns a status."""
            if threading.current_thread() is not threading.main_thread():
                yield
                return

            def stop(sig: int, frame: Any) -> None:
                self.stopped_by = self.stopped_by or sig
                self.handle_exit(sig, frame)

            previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    # h11 parses the request line and headers with a bound (httptools, uvicorn's default where it is
    # installed, holds headers of any size in memory); the WebSocket frames are parsed apart.
    server = Server(uvicorn.Config(quiet_when_stopping(app, lambda: server.stopping), host=config.host, port=config.port,
                                   http=httpprotocol.protocol_class(config.http_head_timeout,
                                                                   most_connections(config.max_connections)),
                                   h11_max_incomplete_event_size=MAX_REQUEST_HEAD, ws_max_size=64 * 1024,
                                   ws_per_message_deflate=config.ws_compression,
                                   ws=wsprotocol.protocol_class(config.ws_compress_min),
                                   log_level=args.log_level, lifespan="on", log_config=None,
                                   timeout_graceful_shutdown=config.shutdown_grace, backlog=listen_backlog()))
    from ..heap import GcPolicy, peak_resident

    # Short garbage-collection pauses with thousands of tables (docs/performance.md).
    metrics = app.state.metrics
    gc_policy = GcPolicy(closed=lambda: metrics.closed_count, peak=peak_resident, connections=lambda: metrics.open_count,
                         on_pause=lambda kind, seconds: metrics.gc_pause.labels(kind).observe(seconds))
    gc_policy.start()
    try:
        server.run()
    finally:
        gc_policy.stop()
    # Stopped by SIGTERM (a supervisor, a deploy): a clean stop, status 0. By Ctrl-C: 130, as a shell
    # expects of a command interrupted, so a script running the server stops there too.
    return 130 if server.stopped_by == signal.SIGINT else 0


#: File handles a node keeps for itself, out of its open-file limit: its database files and their
#: connections (PostgreSQL's pool too), its logs, its workers' pipes, the Redis bus. A quarter of a
#: smaller limit (macOS starts a process at 256).
OPEN_FILES_RESERVE = 256
#: The open-file limit asked for where the hard limit is "unlimited" (macOS), which the soft one cannot be.
UNLIMITED_ASK = (65536, 10240)


def open_files() -> int | None:
    """The process's open-file limit, first raised to the most it may be (many systems start a process
    at 1,024, a few hundred players; macOS at 256); ``None`` where it has none."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    asks = UNLIMITED_ASK if hard == resource.RLIM_INFINITY else (hard,)
    for ask in asks:
        if soft != resource.RLIM_INFINITY and soft < ask:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (ask, hard))
            except (ValueError, OSError):
                continue
            soft = ask
            break
    return None if soft == resource.RLIM_INFINITY else soft


def connections_for(open_files: int) -> int:
    """The most connections a node holds with ``open_files`` file handles: the rest are its own."""
    return max(1, open_files - min(OPEN_FILES_RESERVE, open_files // 4))


def most_connections(setting: int | None) -> int | None:
    """The most connections a node holds at once: ``setting`` (``HOKM_MAX_CONNECTIONS``) where given, else
    :func:`connections_for` its open-file limit (:func:`open_files`); ``None``: no limit."""
    limit = open_files()
    if setting is not None:
        return setting
    return None if limit is None else connections_for(limit)


#: Connections plain asyncio accepts at once when the listening socket wakes it (its ``backlog``, 2,048
#: by default), before any of them is counted: more than the file handles a node keeps for itself.
#: uvloop, which ``uvicorn[standard]`` brings where it builds, accepts them one by one.
ASYNCIO_BACKLOG = 32


def listen_backlog() -> int:
    """The listening socket's backlog: uvicorn's own (2,048) with uvloop, :data:`ASYNCIO_BACKLOG` without it."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return ASYNCIO_BACKLOG
    return 2048


def quiet_when_stopping(app: Any, stopping: Callable[[], bool]) -> Any:
    """``app`` as uvicorn runs it. Once the process has begun to stop (``stopping()``) and
    ``shutdown_grace`` is over, uvicorn cancels what the requests and connections still do and says
    so in one line; each cancelled one then ends without a traceback of its own (a node stopped under
    8,000 players was still telling their friends they had left, and logged 2,400 of them), and a
    request not yet answered is answered 503. Any other cancellation is raised as before."""

    async def served(scope: Any, receive: Any, send: Any) -> None:
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await app(scope, receive, sending if scope["type"] == "http" else send)
        except asyncio.CancelledError:
            if not stopping():
                raise
            if scope["type"] == "http" and not started:
                await send({"type": "http.response.start", "status": 503,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]})
                await send({"type": "http.response.body", "body": b"the server is stopping\n"})

    return served


def check_storage(config: ServerConfig, timeout: float = 20.0) -> str | None:
    """Why the database cannot be used, in one line, or ``None``: checked before the server starts.

    The data folder is tried by making a file in it (``os.access`` answers yes to root even where
    nothing can be written, as in ``/proc``), and the database by opening a connection to it, as
    the server's storage would at start-up: a failure there would otherwise end the server with
    a traceback from its start-up hook.
    """
    if not config.database_url:
        folder = Path(config.data_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
        except OSError as e:
            return f"cannot write to the data folder {folder}: {e.strerror or e}"
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.ext.asyncio import create_async_engine

    # The URL may hold a password: it is never repeated in a message.
    named = "--database-url" if config.database_url else "the database"
    try:  # parses the URL and loads its driver; connects to nothing
        create_async_engine(config.db_url).sync_engine.dispose()
    except (SQLAlchemyError, ImportError, ValueError) as e:
        return f"cannot use {named} (it may hold a password, so it is not repeated here): {_first_line(e)}"
    try:
        asyncio.run(asyncio.wait_for(_open_database(config.db_url), timeout))
    except TimeoutError:
        return f"cannot open {named}: no answer within {timeout:.0f} s"
    except Exception as e:  # noqa: BLE001 - whatever the driver raises, said in one line
        return f"cannot open {named}: {_first_line(e)}"
    return None


async def _open_database(url: str) -> None:
    """Connect to the database at ``url`` once and ask it for nothing (its folder made first for
    SQLite, as the storage makes it)."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from ..server.migrations import make_sqlite_folder

    make_sqlite_folder(url)
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    finally:
        await engine.dispose()


def _first_line(e: BaseException) -> str:
    """The first line of an error's message (SQLAlchemy adds the statement and a link below it)."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
