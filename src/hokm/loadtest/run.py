"""One measured load run: set tables up, play them for a while, then time the echo floor.

The report gives the sustained action rate, the latency of actions (p50/p95/p99, from the frame
sent to its event received), errors by code, reconnects, the server processes' CPU and memory
(psutil, sampled every second while measuring), and the same latency measured against a bare
echo server with the same number of connections, pace and frame size, with the ratio.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import psutil

from .client import Seat, Tally, setup_table
from .stats import summary_ms

ECHO_FRAME = 1500  # bytes: about one table event with its view


@dataclass
class Options:
    urls: list[str]
    tables: int = 10
    think_ms: float = 3000.0
    duration: float = 30.0
    players: int = 4
    pids: list[int] = field(default_factory=list)
    warmup: float = 5.0
    echo: bool = True
    setup_concurrency: int = 32
    connect_rate: float = 200.0  # WebSockets opened per second: players arrive, they do not stampede
    seed: int = 1


def think_range(ms: float) -> tuple[float, float]:
    """A person's pace around ``ms``: uniform from 2/3 to 4/3 of it (3000 ms: 2-4 s)."""
    return (ms / 1000 * 2 / 3, ms / 1000 * 4 / 3)


class Sampler:
    """CPU and memory of the server processes, once a second."""

    def __init__(self, pids: list[int]) -> None:
        self.procs = [psutil.Process(p) for p in pids]
        self.cpu: list[float] = []
        self.rss: list[float] = []
        self.machine: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _loop(self) -> None:
        for p in self.procs:
            p.cpu_percent(None)
        psutil.cpu_percent(None)
        while True:
            await asyncio.sleep(1.0)
            self.machine.append(psutil.cpu_percent(None) * psutil.cpu_count())
            try:
                self.cpu.append(sum(p.cpu_percent(None) for p in self.procs))
                self.rss.append(sum(p.memory_info().rss for p in self.procs) / 2**20)
            except psutil.Error:
                pass

    def start(self) -> None:
        if self.procs:
            self._task = asyncio.ensure_future(self._loop())

    def stop(self) -> dict[str, Any]:
        if self._task is not None:
            self._task.cancel()
        if not self.cpu:
            return {"processes": len(self.procs), "cpu_percent_mean": None, "cpu_percent_max": None, "rss_mb_max": None}
        return {"processes": len(self.procs), "cpu_percent_mean": round(sum(self.cpu) / len(self.cpu), 1),
                "cpu_percent_max": round(max(self.cpu), 1), "rss_mb_max": round(max(self.rss), 1),
                "machine_cpu_percent_mean": round(sum(self.machine) / len(self.machine), 1),
                "machine_cores": psutil.cpu_count()}


async def play_tables(opts: Options, tally: Tally | None = None) -> dict[str, Any]:
    """Set up ``opts.tables`` tables, play them ``warmup + duration`` seconds; the table part of the report."""
    tally = tally or Tally()
    rng = random.Random(opts.seed)
    sem = asyncio.Semaphore(opts.setup_concurrency)
    limits = httpx.Limits(max_connections=opts.setup_concurrency * 2, max_keepalive_connections=opts.setup_concurrency)
    t0 = time.monotonic()
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        async def one(i: int) -> tuple[str, list[str]]:
            async with sem:
                return await setup_table(client, opts.urls, i, opts.players)

        tables = await asyncio.gather(*(one(i) for i in range(opts.tables)))
    setup_s = time.monotonic() - t0
    stop = asyncio.Event()
    seats = [Seat(tid, s, tok, opts.urls, i + s, think_range(opts.think_ms), tally, random.Random(rng.random()))
             for i, (tid, toks) in enumerate(tables) for s, tok in enumerate(toks)]
    tally.measuring = False
    r0 = time.monotonic()
    tasks = []
    for k, s in enumerate(seats):
        tasks.append(asyncio.ensure_future(s.run(stop)))
        await asyncio.sleep(max(0.0, r0 + (k + 1) / opts.connect_rate - time.monotonic()))
    ramp_s = time.monotonic() - r0
    await asyncio.sleep(opts.warmup)
    tally.measuring = True
    sampler = Sampler(opts.pids)
    sampler.start()
    m0 = time.monotonic()
    await asyncio.sleep(opts.duration)
    tally.measuring = False
    elapsed = time.monotonic() - m0
    server = sampler.stop()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"tables": opts.tables, "connections": len(seats), "think_ms": opts.think_ms, "setup_s": round(setup_s, 1),
            "ramp_s": round(ramp_s, 1), "warmup_s": opts.warmup,
            "duration_s": round(elapsed, 1), "actions_sent": tally.sent, "actions_acked": tally.accepted,
            "actions_per_s": round(tally.accepted / elapsed, 1), "latency_ms": summary_ms(tally.latencies),
            "errors": dict(tally.errors), "reconnects": tally.reconnects, "games_over": tally.games_over,
            "server": server}


async def echo_floor(connections: int, interval: tuple[float, float], duration: float, seed: int = 2) -> dict[str, Any]:
    """Time a bare echo server (own process) with ``connections`` clients, each sending every ``interval``."""
    from websockets.asyncio.client import connect

    proc = subprocess.Popen([sys.executable, "-m", "hokm.loadtest.echo", "0"], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        line = (await asyncio.to_thread(proc.stdout.readline)).decode()
        url = line.split("echo ready: ", 1)[1].strip()
        latencies: list[float] = []
        rng = random.Random(seed)
        payload = json.dumps({"type": "event", "pad": "x" * (ECHO_FRAME - 30)})
        stop = asyncio.Event()
        measuring = [False]

        async def client(r: random.Random) -> None:
            async with connect(url, max_size=2**20, ping_interval=None) as ws:
                while not stop.is_set():
                    await asyncio.sleep(r.uniform(*interval))
                    t = time.perf_counter()
                    await ws.send(payload)
                    await ws.recv()
                    if measuring[0]:
                        latencies.append(time.perf_counter() - t)

        sampler = Sampler([proc.pid])
        tasks = [asyncio.ensure_future(client(random.Random(rng.random()))) for _ in range(connections)]
        await asyncio.sleep(min(5.0, duration / 3))
        measuring[0] = True
        sampler.start()
        m0 = time.monotonic()
        await asyncio.sleep(duration)
        measuring[0] = False
        elapsed = time.monotonic() - m0
        server = sampler.stop()
        stop.set()
        await asyncio.wait(tasks, timeout=max(5.0, interval[1] + 2))
        for t in tasks:
            t.cancel()
        return {"connections": connections, "frame_bytes": ECHO_FRAME, "round_trips_per_s": round(len(latencies) / elapsed, 1),
                "latency_ms": summary_ms(latencies), "server": server}
    finally:
        proc.kill()
        proc.wait()


async def run(opts: Options) -> dict[str, Any]:
    report: dict[str, Any] = {"urls": opts.urls, "game": await play_tables(opts)}
    if opts.echo:
        # Same connections and per-connection pace as the players: a seat acts once per round of seats.
        lo, hi = think_range(opts.think_ms)
        per_conn = (lo * opts.players, hi * opts.players)
        floor = await echo_floor(opts.tables * opts.players, per_conn, opts.duration)
        report["echo"] = floor
        g, e = report["game"]["latency_ms"], floor["latency_ms"]
        report["ratio"] = {k: (round(g[k] / e[k], 1) if g.get(k) and e.get(k) else None) for k in ("p50", "p95", "p99")}
    return report


def format_report(r: dict[str, Any]) -> str:
    g = r["game"]
    lat = g["latency_ms"]
    s = g["server"]
    lines = [
        f"tables {g['tables']} ({g['connections']} WebSockets), think {g['think_ms']:.0f} ms, "
        f"measured {g['duration_s']} s after setup ({g['setup_s']} s), connecting ({g['ramp_s']} s) "
        f"and warm-up ({g['warmup_s']} s)",
        f"actions: {g['actions_acked']} acknowledged, {g['actions_per_s']}/s",
        f"latency ms (action sent -> its event received): p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
        f"max {lat['max']}",
        f"errors: {g['errors'] or 'none'}; reconnects {g['reconnects']}; games over {g['games_over']}",
        f"server CPU %: mean {s['cpu_percent_mean']} max {s['cpu_percent_max']}; RSS MB max {s['rss_mb_max']} "
        f"({s['processes']} processes); whole machine {s.get('machine_cpu_percent_mean')} % of "
        f"{s.get('machine_cores')} cores x 100",
    ]
    if "echo" in r:
        e = r["echo"]
        el = e["latency_ms"]
        lines.append(f"echo floor ({e['connections']} WebSockets, {e['frame_bytes']} B frames, "
                     f"{e['round_trips_per_s']}/s): p50 {el['p50']}  p95 {el['p95']}  p99 {el['p99']}; "
                     f"echo CPU % mean {e['server']['cpu_percent_mean']}")
        ra = r["ratio"]
        lines.append(f"game / echo latency: p50 {ra['p50']}x  p95 {ra['p95']}x  p99 {ra['p99']}x")
    return "\n".join(lines)
