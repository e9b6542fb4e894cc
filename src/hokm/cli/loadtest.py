"""``hokm loadtest``: play many tables over real WebSockets and report rate, latency and the echo floor.

Either point it at running nodes (``--url``, repeatable: the players of each table are spread over
them, or with ``--route owner`` all sent to the node that made the table and owns it; ``--pid`` names the server processes whose CPU and memory to sample), or let it start
``--spawn N`` local nodes itself (N > 1 needs ``--redis-url``; ``--database-url`` picks the
database, default SQLite in a temporary folder).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import tempfile
from pathlib import Path

HELP = "load-test a game server: headless players over WebSockets, latency percentiles, echo floor"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", action="append", default=[], help="server base URL, e.g. http://127.0.0.1:8000 "
                        "(repeatable: seats are spread over the nodes)")
    parser.add_argument("--tables", type=int, default=10, help="concurrent 4-player tables (default 10)")
    parser.add_argument("--think", type=float, default=3000.0, metavar="MS",
                        help="mean decision time per seat in ms; each decision takes 2/3 to 4/3 of it (default 3000)")
    parser.add_argument("--duration", type=float, default=30.0, metavar="S", help="seconds measured (default 30)")
    parser.add_argument("--warmup", type=float, default=5.0, metavar="S", help="seconds played before measuring")
    parser.add_argument("--pid", type=int, action="append", default=[], help="server process to sample (repeatable)")
    parser.add_argument("--spawn", type=int, default=0, metavar="N", help="start N local nodes for the run")
    parser.add_argument("--database-url", default=None, help="with --spawn: the nodes' database")
    parser.add_argument("--redis-url", default=None, help="with --spawn: Redis for several nodes")
    parser.add_argument("--connect-rate", type=float, default=200.0, metavar="N",
                        help="WebSockets opened per second before measuring (default 200)")
    parser.add_argument("--logs", default=None, metavar="DIR", help="with --spawn: keep the nodes' logs in DIR")
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="sample the server processes with py-spy over the measured window: DIR/<node>.txt "
                             "(collapsed stacks) and a summary of where their time goes (needs py-spy, in the "
                             "dev extra, and permission to trace the processes)")
    parser.add_argument("--route", choices=("spread", "owner"), default="spread",
                        help="with several nodes: spread each table's players over them (default), or send them "
                        "all to the node that made and owns the table, as a balancer that prefers owners does")
    parser.add_argument("--churn", type=float, default=0.0, metavar="N",
                        help="from the warm-up on, N players a second lose their connection and connect again "
                        "(default 0)")
    parser.add_argument("--events", choices=("patched", "batched", "each"), default="patched",
                        help="players take each batch of table events as one message whose view is a patch of "
                        "the last one where it can be, as the web table does (default); as one message with the "
                        "whole view; or one message per event, as a client that asks for neither")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo-server floor")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    from .extras import LOADTEST, missing

    problem = missing(LOADTEST)
    if problem:
        print(f"hokm loadtest: {problem}", file=sys.stderr)
        return 2
    from ..loadtest.client import Delivery
    from ..loadtest.nodes import start_cluster
    from ..loadtest.run import Options, format_report
    from ..loadtest.run import run as run_load

    if args.tables < 1 or args.duration <= 0 or args.think < 0 or args.churn < 0:
        print("hokm loadtest: --tables must be at least 1, --duration positive, --think and --churn not negative",
              file=sys.stderr)
        return 2
    if not args.url and not args.spawn:
        print("hokm loadtest: give --url (running nodes) or --spawn N", file=sys.stderr)
        return 2
    if args.profile and not (args.spawn or args.pid):
        print("hokm loadtest: --profile needs the server processes: --spawn N or --pid", file=sys.stderr)
        return 2
    if args.spawn > 1 and not args.redis_url:
        print("hokm loadtest: several nodes need --redis-url", file=sys.stderr)
        return 2
    cluster = None
    urls, pids = list(args.url), list(args.pid)
    names = [f"pid {p}" for p in pids]
    profile_dir = Path(args.profile) if args.profile else None
    if profile_dir is not None:
        profile_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hokm-load-") as tmp_dir:
        tmp = args.logs or tmp_dir
        if args.spawn:
            env = {"HOKM_REDIS_PREFIX": "load-" + secrets.token_hex(4)}
            if args.database_url:
                env["HOKM_DATABASE_URL"] = args.database_url
            if args.redis_url:
                env["HOKM_REDIS_URL"] = args.redis_url
            try:
                cluster = start_cluster(args.spawn, Path(tmp), env)
            except RuntimeError as e:
                print(f"hokm loadtest: {e}", file=sys.stderr)
                return 1
            urls += cluster.urls
            pids += [n.pid for n in cluster.nodes]
            names += [n.name for n in cluster.nodes]
        opts = Options(urls=urls, tables=args.tables, think_ms=args.think, duration=args.duration, pids=pids,
                       names=names, profile_dir=profile_dir,
                       warmup=args.warmup, echo=not args.no_echo, connect_rate=args.connect_rate,
                       route=args.route, churn=args.churn, delivery=Delivery(args.events))
        try:
            report = asyncio.run(run_load(opts))
        except RuntimeError as e:
            print(f"hokm loadtest: {e}", file=sys.stderr)
            return 1
        finally:
            if cluster is not None:
                cluster.stop()
                if args.redis_url:
                    _forget(args.redis_url, env["HOKM_REDIS_PREFIX"])
    print(json.dumps(report, indent=1) if args.json else format_report(report))
    if profile_dir is not None:
        from ..loadtest.profile import format_profiles

        print(format_profiles(report["game"].get("profiles", {})), file=sys.stderr)
    return 0


def _forget(redis_url: str, prefix: str) -> None:
    """Remove the run's keys (leases, fences, queues) from Redis."""
    import redis

    r = redis.Redis.from_url(redis_url)
    keys = list(r.scan_iter(f"{prefix}:*"))
    if keys:
        r.delete(*keys)
    r.close()
