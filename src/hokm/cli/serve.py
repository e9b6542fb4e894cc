"""``hokm serve``: run the game server (HTTP API, WebSocket, and the web table when it is built).

Settings come from flags, then ``HOKM_*`` environment variables (``HOKM_DATABASE_URL``,
``HOKM_DATA_DIR``, ...), then defaults: SQLite in the data folder and the in-process bus, so the
command needs nothing else installed.
"""

from __future__ import annotations

import argparse
import sys

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


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..server.app import create_app
    from ..server.config import ServerConfig

    try:
        config = ServerConfig.from_env(
            host=args.host, port=args.port, data_dir=args.data_dir, database_url=args.database_url,
            allowed_origins=tuple(args.allow_origin) if args.allow_origin else None,
            bot_delay=tuple(args.bot_delay) if args.bot_delay else None, hand_pause=args.hand_pause,
            queue_wait=args.queue_wait, absent_grace=args.absent_grace, reclaim_window=args.reclaim_window,
            default_bot=args.default_bot, redis_url=args.redis_url, redis_prefix=args.redis_prefix,
            node_id=args.node_id, lease_ttl=args.lease_ttl, log_json=args.log_json)
    except (TypeError, ValueError) as e:
        print(f"hokm serve: {e}", file=sys.stderr)
        return 2
    from ..server.ops import setup_logging

    setup_logging(args.log_level, json_lines=config.log_json)
    app = create_app(config)
    server = uvicorn.Server(uvicorn.Config(app, host=config.host, port=config.port, ws_max_size=64 * 1024,
                                           log_level=args.log_level, lifespan="on", log_config=None,
                                           timeout_graceful_shutdown=10))

    original_startup = server.startup

    async def startup(sockets=None) -> None:  # type: ignore[no-untyped-def]
        await original_startup(sockets)
        for s in server.servers:
            for sock in s.sockets:
                host, port = sock.getsockname()[:2]
                shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
                print(f"hokm server ready: http://{shown}:{port}/  (data: {config.db_url})", flush=True)
                return

    server.startup = startup  # type: ignore[method-assign]
    from ..server.ops import GcPolicy

    gc_policy = GcPolicy()  # short garbage-collection pauses with thousands of tables (docs/performance.md)
    gc_policy.start()
    try:
        server.run()
    finally:
        gc_policy.stop()
    return 0
