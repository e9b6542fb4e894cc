"""A soak: hundreds of players at the tables while others churn, flood, craft frames and verify.

One real ``hokm serve`` process at the default per-connection limits. For the whole run:

- ``SOAK_TABLES`` four-player tables of headless players (the load tool's clients) play short
  games at a quick pace, and their action latency is measured;
- leak-checked games (2, 3 and 4 players, with a spectator and a reconnect) run beside them;
- churners open a WebSocket, say hello and close, again and again;
- flooders send valid frames as fast as they can and must be closed for flooding;
- a prober sends malformed frames and must get clean errors or clean closes, never a dropped
  connection;
- verifiers post a finished record to ``/api/verify`` again and again.

It asserts that every game finishes, the leak checker finds nothing, the server's memory levels
off, the playing clients' latency stays within bound, and the server's log holds no traceback.
The figures it prints are in ``docs/performance.md``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from typing import Any

import httpx
import psutil
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from hokm.loadtest.client import Seat, Tally, setup_table
from hokm.loadtest.stats import summary_ms

from .harness import Player, ServerProcess, run
from .test_leaks import one_game

pytestmark = [pytest.mark.slow, pytest.mark.alone]

TABLES = int(os.environ.get("SOAK_TABLES", "50"))  # 4 players each: 200 playing connections
THINK = (0.05, 0.25)  # seconds a player thinks: quick, to finish several games in the run
TARGET = 2  # points to win: short games, many hands
CHURNERS, FLOODERS, VERIFIERS = 4, 2, 2
P99_BOUND_MS = 1500.0  # playing clients' action latency, p99, on two cores, the soak alone on the machine
RSS_GROWTH_BOUND_MB = 40.0  # RSS from the middle to the end of the run
SOAK_ENV = {
    # the server's own defaults for per-connection limits: the soak floods against the real ones
    "HOKM_RATE_PER_SECOND": "20",
    "HOKM_RATE_BURST": "40",
    "HOKM_FLOOD_LIMIT": "200",
    "HOKM_BOT_DELAY": "0.02,0.05",
    # the soak's hundreds of guests and tables all come from 127.0.0.1
    "HOKM_GUEST_RATE": "1000",
    "HOKM_GUEST_BURST": "100000",
    "HOKM_TABLE_RATE": "1000",
    "HOKM_TABLE_BURST": "100000",
    "HOKM_ADDRESS_TABLE_RATE": "1000",
    "HOKM_ADDRESS_TABLE_BURST": "100000",
    "HOKM_MAX_WAITING_PER_ADDRESS": "100000",
    "HOKM_VERIFY_RATE": "1000",
    "HOKM_VERIFY_BURST": "100000",
}
CRAFTED: list[str | bytes] = [
    '{"type":["ping"]}',
    '{"type":{}}',
    '{"type":null}',
    '{"type":7}',
    '{"type":"action","action":[],"seq":"x"}',
    '{"type":"join","table":{"$gt":""}}',
    "[" * 1000 + "]" * 1000,
    '{"a":' * 900 + "1" + "}" * 900,
    '{"type":"ping","n":' + "9" * 4000 + "}",
    "not json",
    "null",
    "[]",
    '"ping"',
    b"\x00\x01binary",
]


async def churn(url: str, token: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Open, hello, close: a phone on a bad network, again and again."""
    while not stop.is_set():
        try:
            async with websockets.connect(url, open_timeout=10, close_timeout=2) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                await asyncio.wait_for(ws.recv(), 10)
            counts["churned"] += 1
        except (TimeoutError, ConnectionClosed, OSError):
            counts["churn_failed"] += 1
            await asyncio.sleep(0.1)


async def flood(url: str, token: str, stop: asyncio.Event, closes: list[int]) -> None:
    """Valid frames as fast as they go (a ping, now and then a join): the server must close it."""
    while not stop.is_set():
        try:
            async with websockets.connect(url, open_timeout=10, close_timeout=2, max_queue=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))

                async def drain() -> None:
                    async for _ in ws:
                        pass

                reader = asyncio.ensure_future(drain())
                try:
                    end = time.monotonic() + 20
                    k = 0
                    while time.monotonic() < end and not stop.is_set():
                        k += 1
                        await ws.send(json.dumps({"type": "ping"} if k % 7 else {"type": "join", "table": "nosuch"}))
                        if k % 50 == 0:
                            await asyncio.sleep(0)
                    if not stop.is_set():
                        closes.append(-1)  # never closed within 20 s
                finally:
                    reader.cancel()
        except ConnectionClosed as e:
            closes.append(e.rcvd.code if e.rcvd is not None else 1006)
        except (TimeoutError, OSError):
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)


async def probe(url: str, token: str, stop: asyncio.Event, outcomes: dict[str, int]) -> None:
    """Malformed frames, one at a time: each gets an error reply or a clean close with a code."""
    while not stop.is_set():
        for frame in CRAFTED:
            if stop.is_set():
                return
            try:
                async with websockets.connect(url, open_timeout=10, close_timeout=2, max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    await asyncio.wait_for(ws.recv(), 10)
                    await ws.send(frame)
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    key = f"error:{reply.get('code')}" if reply.get("type") == "error" else f"reply:{reply.get('type')}"
                    outcomes[key] = outcomes.get(key, 0) + 1
                    await ws.send(json.dumps({"type": "ping"}))  # the connection still answers
                    pong = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    assert pong["type"] == "pong", pong
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else 1006
                outcomes[f"close:{code}"] = outcomes.get(f"close:{code}", 0) + 1
            except (TimeoutError, OSError) as e:
                outcomes[type(e).__name__] = outcomes.get(type(e).__name__, 0) + 1
            await asyncio.sleep(0.05)


async def verify(http: httpx.AsyncClient, token: str, record: dict[str, Any], stop: asyncio.Event,
                 outcomes: dict[str, int]) -> None:
    body = json.dumps(record)
    while not stop.is_set():
        try:
            r = await http.post("/api/verify", content=body, headers={"authorization": f"Bearer {token}",
                                                                       "content-type": "application/json"})
            ok = r.status_code == 200 and r.json().get("ok")
            key = "ok" if ok else str(r.status_code)
        except httpx.TransportError as e:
            key = type(e).__name__
        outcomes[key] = outcomes.get(key, 0) + 1
        await asyncio.sleep(0.2)


async def a_record(server: ServerProcess) -> dict[str, Any]:
    """One short finished game against the computer, and its record."""
    p = await Player(server, "recorder").signup()
    t = await p.api("POST", "/api/tables", {"mode": "computer", "players": 4, "bot": "random",
                                            "rules": {"target_points": 1}}, status=201)
    await p.connect()
    await p.join(t["table_id"])
    over = await p.play()
    record = await p.api("GET", f"/api/games/{over['event']['game_id']}/record")
    await p.close()
    return record


async def memory(pid: int, stop: asyncio.Event, samples: list[tuple[float, float]]) -> None:
    proc = psutil.Process(pid)
    t0 = time.monotonic()
    while not stop.is_set():
        samples.append((time.monotonic() - t0, proc.memory_info().rss / 2**20))
        await asyncio.sleep(1.0)


def test_soak(tmp_path) -> None:
    server = ServerProcess(tmp_path, **SOAK_ENV).start()
    report: dict[str, Any] = {}
    try:
        run(_soak(server, report), timeout=540)
    finally:
        server.stop()
        print("soak:", json.dumps(report))
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-6000:]


async def _soak(server: ServerProcess, report: dict[str, Any]) -> None:
    assert server.proc is not None
    record = await a_record(server)
    stop = asyncio.Event()
    rss: list[tuple[float, float]] = []
    sampler = asyncio.ensure_future(memory(server.proc.pid, stop, rss))
    tally = Tally()
    rng = random.Random(7)
    limits = httpx.Limits(max_connections=40)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        sem = asyncio.Semaphore(16)

        async def table(i: int) -> tuple[str, list[str]]:
            async with sem:
                return await setup_table(http, [server.url], i, 4, timers=60, rules={"target_points": TARGET})

        t0 = time.monotonic()
        tables = await asyncio.gather(*(table(i) for i in range(TABLES)))
        report["setup_s"] = round(time.monotonic() - t0, 1)
        guest = (await http.post("/api/guest", json={"nickname": "soaker"})).json()["token"]
        url = server.ws_url
        seats = [Seat(tid, s, tok, [server.url], 0, THINK, tally, random.Random(rng.random()))
                 for tid, toks in tables for s, tok in enumerate(toks)]
        done = asyncio.Event()  # the players' own stop: set only if the bound runs out
        players = [asyncio.ensure_future(s.run(done)) for s in seats]
        counts = {"churned": 0, "churn_failed": 0}
        closes: list[int] = []
        probes: dict[str, int] = {}
        verdicts: dict[str, int] = {}
        noise = ([asyncio.ensure_future(churn(url, guest, stop, counts)) for _ in range(CHURNERS)]
                 + [asyncio.ensure_future(flood(url, guest, stop, closes)) for _ in range(FLOODERS)]
                 + [asyncio.ensure_future(probe(url, guest, stop, probes))]
                 + [asyncio.ensure_future(verify(http, guest, record, stop, verdicts)) for _ in range(VERIFIERS)])

        async def progress() -> None:
            t = time.monotonic()
            while not stop.is_set():
                await asyncio.sleep(10)
                print(f"soak {time.monotonic() - t:5.0f}s: games {tally.games_over}/{TABLES}, "
                      f"actions {len(tally.latencies)}, p99 {summary_ms(tally.latencies[-2000:])['p99']} ms, "
                      f"churned {counts}, floods {len(closes)}, probes {probes}, verify {verdicts}, "
                      f"rss {rss[-1][1] if rss else 0:.0f} MB", flush=True)

        noise.append(asyncio.ensure_future(progress()))
        leak_games = asyncio.gather(*(one_game(server, n, 90 + n, drop=(n == 4)) for n in (2, 3, 4)))
        checked = await leak_games
        try:
            await asyncio.wait_for(asyncio.gather(*players), timeout=360)
        finally:
            done.set()
            stop.set()
            await asyncio.gather(*noise, sampler, return_exceptions=True)
        report.update({
            "tables": TABLES, "playing_connections": len(seats), "games_over": tally.games_over,
            "actions": len(tally.latencies), "latency_ms": summary_ms(tally.latencies),
            "errors": tally.errors, "reconnects": tally.reconnects, "leak_cards_checked": checked,
            "churned": counts, "flood_closes": sorted(set(closes)), "floods": len(closes),
            "probes": probes, "verify": verdicts,
            "rss_mb": [round(r, 1) for _, r in rss[:: max(1, len(rss) // 12)]],
            "seconds": round(rss[-1][0], 1) if rss else 0,
        })
    assert tally.games_over == TABLES, report
    assert all(c > 100 for c in checked), checked
    assert closes and all(c == 4008 for c in closes), closes
    assert not any(k.startswith("close:1006") or k.startswith("close:1011") or k in ("TimeoutError", "OSError")
                   for k in probes), probes
    assert verdicts.get("ok", 0) > 0 and set(verdicts) <= {"ok", "429"}, verdicts
    assert counts["churned"] > 1000, counts
    p99 = report["latency_ms"]["p99"]
    assert p99 is not None and p99 < P99_BOUND_MS, report["latency_ms"]
    half = len(rss) // 2
    mid_peak = max(r for _, r in rss[: half + 1])
    end_peak = max(r for _, r in rss[half:])
    report["rss_mid_mb"], report["rss_end_mb"] = round(mid_peak, 1), round(end_peak, 1)
    assert end_peak - mid_peak < RSS_GROWTH_BOUND_MB, report
