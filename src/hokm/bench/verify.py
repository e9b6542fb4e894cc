"""``hokm bench verify``: how much record verification slows a playing table.

Starts ``hokm serve`` (or uses ``--url``), opens a table against the computer whose seat this
client plays (random legal actions), and sends a WebSocket ``ping`` every 20 ms, timing each
``pong``. First ``--seconds`` of pings alone, then the same time while ``--concurrent`` clients
each post a long valid record to ``POST /api/verify`` again and again. Reports the ping round
trips (median, 99th percentile, max) of both phases and the verify times. The record is a whole
four-player game to 100 points with fair-shuffle data (:func:`long_record`), about 150 KB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import select
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

HELP = "ping round trips of a playing table while records are verified on the server"


def long_record(seed: int = 1, target: int = 100) -> dict[str, Any]:
    """A finished four-player game to ``target`` points with derived decks, as the server writes it
    (unsigned); the seeds come from ``seed``, so the record is always the same."""
    from ..engine import Phase, Rules
    from ..fairness import HandSeeds, derive_deck, new_game
    from ..records import record_from_game

    rules = Rules(players=4, target_points=target)
    rng = random.Random(seed)

    def fresh(hand: int) -> HandSeeds:  # the same seed always gives the same record
        return HandSeeds(hand, rng.getrandbits(256).to_bytes(32, "big").hex(), [None] * 4)

    seeds = [fresh(0)]
    game = new_game(rules, seeds[0])
    while not game.is_over:
        if game.phase is Phase.DEAL:
            h = game.hand_index
            if h >= len(seeds):
                seeds.append(fresh(h))
            game.deal(derive_deck(rules, seeds[h].server_seed, h, seeds[h].seat_seeds))
            continue
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return record_from_game(game, names=["Sima", "Dara", "Nava", "Omid"],
                            fair=[s.record_entry() for s in seeds[:len(game.results)]])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", default=None, help="a running server (default: start one in a temporary folder)")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each phase (default 8)")
    parser.add_argument("--concurrent", type=int, default=8, help="clients verifying at once (default 8)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of text")


def _start_server(data_dir: str) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "HOKM_BOT_DELAY": "0.05,0.1", "HOKM_HAND_PAUSE": "0.05", "HOKM_VERIFY_RATE": "1000",
           "HOKM_VERIFY_BURST": "1000", "HOKM_RATE_PER_SECOND": "1000", "HOKM_RATE_BURST": "2000"}
    proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "serve", "--data-dir", data_dir, "--port", "0",
                             "--log-level", "warning"], stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if select.select([proc.stdout], [], [], 0.2)[0]:
            line = proc.stdout.readline()
            if line.startswith(b"hokm server ready: "):
                return proc, line.split()[3].decode().rstrip("/")
    proc.kill()
    raise RuntimeError("the server did not start")


def _summary(xs: list[float]) -> dict[str, float | int]:
    if not xs:
        return {"n": 0}
    s = sorted(xs)
    return {"n": len(s), "median_ms": round(statistics.median(s) * 1000, 2),
            "p99_ms": round(s[min(len(s) - 1, int(len(s) * 0.99))] * 1000, 2), "max_ms": round(s[-1] * 1000, 2)}


async def _measure(url: str, seconds: float, concurrent: int, body: bytes) -> dict[str, Any]:
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        r = await http.post("/api/guest", json={"nickname": "bench"})
        token = r.json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        r = await http.post("/api/tables", headers=auth,
                            json={"mode": "computer", "players": 4, "rules": {"target_points": 100}})
        table = r.json()["table_id"]
        ws = await websockets.connect(url.replace("http", "ws", 1) + "/ws", max_queue=4096)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.recv()
        await ws.send(json.dumps({"type": "join", "table": table}))
        sent: dict[str, float] = {}
        rtts: list[float] = []
        rng = random.Random(0)

        async def reader() -> None:
            seq = 0
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "pong" and msg.get("id") in sent:
                    rtts.append(time.perf_counter() - sent.pop(msg["id"]))
                elif msg["type"] in ("state", "event"):
                    seq = max(seq, msg["seq"])
                    view = msg.get("view")
                    if view and view["legal"]:
                        action = view["legal"][rng.randrange(len(view["legal"]))]
                        await ws.send(json.dumps({"type": "action", "action": action, "seq": seq}))

        async def pinger(phase_end: float) -> list[float]:
            start = len(rtts)
            n = 0
            while time.perf_counter() < phase_end:
                n += 1
                pid = f"p{phase_end}-{n}"
                sent[pid] = time.perf_counter()
                await ws.send(json.dumps({"type": "ping", "id": pid}))
                await asyncio.sleep(0.02)
            await asyncio.sleep(1.0)  # late pongs still count
            return rtts[start:]

        verifies: list[float] = []
        refused: list[int] = []

        async def verifier(end: float) -> None:
            while time.perf_counter() < end:
                t = time.perf_counter()
                r = await http.post("/api/verify", content=body, headers=auth)
                if r.status_code == 200:
                    verifies.append(time.perf_counter() - t)
                else:
                    refused.append(r.status_code)

        read_task = asyncio.create_task(reader())
        await asyncio.sleep(1.0)
        idle = await pinger(time.perf_counter() + seconds)
        end = time.perf_counter() + seconds
        busy_task = asyncio.gather(*(verifier(end) for _ in range(concurrent)))
        busy = await pinger(end)
        await busy_task
        read_task.cancel()
        await ws.close()
    return {"idle_ping": _summary(idle), "ping_during_verify": _summary(busy), "verify": _summary(verifies),
            "verify_refused": len(refused)}


def run(args: argparse.Namespace) -> int:
    from ..cli.extras import LOADTEST, missing

    problem = missing(LOADTEST)
    if problem:
        print(f"hokm bench verify: {problem}", file=sys.stderr)
        return 2
    from ..records import dumps
    from ..verification import check_record

    body = dumps(long_record()).encode()
    t = time.perf_counter()
    check_record(body)
    inline = time.perf_counter() - t
    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url
        if url is None:
            proc, url = _start_server(tmp)
        try:
            result = asyncio.run(_measure(url.rstrip("/"), args.seconds, args.concurrent, body))
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(30)
    result = {"record_bytes": len(body), "verify_in_this_process_ms": round(inline * 1000, 1),
              "concurrent": args.concurrent} | result
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k}: {v}")
    return 0
