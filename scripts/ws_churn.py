"""Connection churn against a real ``hokm serve``: how the server's memory follows connections that come and go.

Starts a server (its own data folder, default settings), signs up one guest, then runs ``--loops``
clients that each connect, say hello, wait for the welcome and close, over and over, for
``--seconds`` or until ``--connections`` have been made; with ``--join`` each connection also
joins a table before closing. Prints the server's
resident memory (psutil) before, every few seconds, and after a pause at the end, and the growth
per 1,000 connections.

    PYTHONPATH=src python scripts/ws_churn.py --loops 20 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import subprocess
import sys
import tempfile
import time

import httpx
import psutil
import websockets


def start_server(data_dir: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    args = [sys.executable, "-m", "hokm.cli.main", "serve", "--data-dir", data_dir, "--port", "0",
            "--log-level", "warning"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, env={**os.environ, **env})
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if select.select([proc.stdout], [], [], 0.5)[0]:
            line = proc.stdout.readline()
            if line.startswith(b"hokm server ready: "):
                return proc, line.split()[3].decode().rstrip("/")
        if proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("the server did not start")


async def churn(url: str, loops: int, seconds: float, join: bool, proc: psutil.Process,
                limit: int | None = None) -> int:
    ws_url = url.replace("http", "ws", 1) + "/ws"
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        guest = (await http.post("/api/guest", json={"nickname": "churn"})).json()
        table = None
        if join:
            r = await http.post("/api/tables", json={"mode": "private", "players": 4},
                                headers={"Authorization": f"Bearer {guest['token']}"})
            table = r.json()["table_id"]
    hello = json.dumps({"type": "hello", "token": guest["token"]})
    count = 0
    end = time.monotonic() + seconds
    args_limit = limit

    async def loop() -> None:
        nonlocal count
        while time.monotonic() < end and (limit is None or count < limit):
            async with websockets.connect(ws_url, open_timeout=30, close_timeout=5) as ws:
                await ws.send(hello)
                await ws.recv()
                if table is not None:
                    await ws.send(json.dumps({"type": "join", "table": table}))
                    await ws.recv()
            count += 1

    async def report() -> None:
        t0 = time.monotonic()
        while time.monotonic() < end and (args_limit is None or count < args_limit):
            await asyncio.sleep(5)
            print(f"  {time.monotonic() - t0:5.1f} s  {count:7d} connections  "
                  f"RSS {proc.memory_info().rss / 2**20:7.1f} MB", flush=True)

    await asyncio.gather(report(), *(loop() for _ in range(loops)))
    return count


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loops", type=int, default=20, help="concurrent clients")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--connections", type=int, default=None, help="stop after this many connections")
    ap.add_argument("--join", action="store_true", help="each connection also joins one table")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds idle before the last reading")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as data:
        server, url = start_server(data, {"HOKM_RATE_PER_SECOND": "1000", "HOKM_RATE_BURST": "1000"})
        try:
            proc = psutil.Process(server.pid)
            time.sleep(2)
            before = proc.memory_info().rss
            print(f"RSS before: {before / 2**20:.1f} MB", flush=True)
            t0 = time.monotonic()
            count = asyncio.run(churn(url, args.loops, args.seconds, args.join, proc, args.connections))
            took = time.monotonic() - t0
            time.sleep(args.settle)
            after = proc.memory_info().rss
            print(f"RSS after {args.settle:.0f} s idle: {after / 2**20:.1f} MB; "
                  f"{count} connections in {took:.1f} s; "
                  f"growth {(after - before) / 2**20 / max(count, 1) * 1000:.2f} MB per 1,000 connections")
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
