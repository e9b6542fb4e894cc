"""One measured load run: set tables up, play them for a while, then time the echo floor.

The report gives the sustained action rate, the latency of actions (p50/p95/p99, from the frame
sent to its event received), errors by code, reconnects, the server processes' CPU and memory
(psutil, sampled every second while measuring), the servers' CPU time per acknowledged action
(each process's own user and system seconds, read at the start and the end of the measured
window, per node and in all), and the same latency measured against a bare echo server with the
same number of connections, pace and frame size, with the ratio.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

from ..heap import GcPolicy
from . import profile, scrape
from .client import Delivery, Seat, Tally, setup_table, start_table
from .stats import summary_ms

#: How long a table waits for its players to join before its host starts it anyway.
JOIN_WAIT_S = 30.0
ECHO_FRAME = 1500  # bytes: about one table event with its view


@dataclass
class Options:
    urls: list[str]
    tables: int = 10
    think_ms: float = 3000.0
    duration: float = 30.0
    players: int = 4
    pids: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # one per pid: how the report names that node
    profile_dir: Path | None = None  # sample the server processes with py-spy over the measured window
    warmup: float = 5.0
    echo: bool = True
    setup_concurrency: int = 32
    connect_rate: float = 200.0  # WebSockets opened per second: players arrive, they do not stampede
    # "spread": a table's players over the nodes in turn; "owner": all on the node that made the table
    # (and owns it), as a load balancer that prefers the owner sends them
    route: str = "spread"
    churn: float = 0.0  # connections a second closed and opened again by their players, from the warm-up on
    delivery: Delivery = Delivery.PATCHED  # how players ask for their table's events (the web table: patched)
    seed: int = 1


def think_range(ms: float) -> tuple[float, float]:
    """A person's pace around ``ms``: uniform from 2/3 to 4/3 of it (3000 ms: 2-4 s)."""
    return (ms / 1000 * 2 / 3, ms / 1000 * 4 / 3)


def cpu_seconds(proc: psutil.Process) -> tuple[float, float]:
    """User plus system CPU seconds of ``proc`` itself, and of its live child processes (bot workers)."""
    t = proc.cpu_times()
    children = 0.0
    for c in proc.children(recursive=True):
        try:
            ct = c.cpu_times()
        except psutil.Error:
            continue
        children += ct.user + ct.system
    return t.user + t.system, children


class Sampler:
    """CPU and memory of the server processes, once a second, and their CPU time over the window."""

    def __init__(self, pids: list[int], names: list[str] | None = None) -> None:
        self.procs = [psutil.Process(p) for p in pids]
        self.names = list(names or []) + [f"pid {p}" for p in pids[len(names or []):]]
        self.cpu: list[float] = []
        self.rss: list[float] = []
        self.machine: list[float] = []
        self._task: asyncio.Task[None] | None = None
        self._t0: float = 0.0
        self._cpu0: list[tuple[float, float]] = []
        self._me = psutil.Process()
        self._me0 = 0.0
        self.window: dict[str, Any] = {}

    def _cpu_now(self) -> list[tuple[float, float]]:
        out = []
        for p in self.procs:
            try:
                out.append(cpu_seconds(p))
            except psutil.Error:
                out.append((float("nan"), float("nan")))
        return out

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
            self._t0 = time.monotonic()
            self._cpu0 = self._cpu_now()
            self._me0 = cpu_seconds(self._me)[0]
            self._task = asyncio.ensure_future(self._loop())

    def stop(self) -> dict[str, Any]:
        if self._task is not None:
            self._task.cancel()
            elapsed = time.monotonic() - self._t0
            nodes = {}
            for name, (own0, kids0), (own1, kids1) in zip(self.names, self._cpu0, self._cpu_now(), strict=True):
                nodes[name] = {"cpu_s": round(own1 - own0, 3), "workers_cpu_s": round(max(0.0, kids1 - kids0), 3),
                               "cpu_percent": round(100 * (own1 - own0) / elapsed, 1) if elapsed > 0 else None}
            # The load generator is this one process on one core: near 100 % it, not the server, sets the pace.
            me = cpu_seconds(self._me)[0] - self._me0
            self.window = {"seconds": round(elapsed, 2), "nodes": nodes,
                           "generator_cpu_percent": round(100 * me / elapsed, 1) if elapsed > 0 else None}
        if not self.cpu:
            return {"processes": len(self.procs), "cpu_percent_mean": None, "cpu_percent_max": None, "rss_mb_max": None}
        return {"processes": len(self.procs), "cpu_percent_mean": round(sum(self.cpu) / len(self.cpu), 1),
                "cpu_percent_max": round(max(self.cpu), 1), "rss_mb_max": round(max(self.rss), 1),
                "machine_cpu_percent_mean": round(sum(self.machine) / len(self.machine), 1),
                "machine_cores": psutil.cpu_count(),
                "generator_cpu_percent": self.window.get("generator_cpu_percent")}


def cpu_per_action(window: dict[str, Any], actions: int) -> dict[str, Any]:
    """The servers' CPU milliseconds per acknowledged action, in all and node by node.

    A node's figure is its own CPU time over the window divided by every action acknowledged in it
    (in a cluster a node also works for actions that arrive through the others), so the nodes'
    figures add up to the whole. Bot worker processes are counted apart (a load run's players are
    all people; they stay near zero).
    """
    nodes = window.get("nodes", {})
    if not nodes or actions <= 0:
        return {"actions": actions, "ms_per_action": None, "nodes": {}}
    total = sum(n["cpu_s"] for n in nodes.values())
    workers = sum(n["workers_cpu_s"] for n in nodes.values())
    return {"actions": actions, "window_s": window["seconds"], "cpu_s": round(total, 3),
            "ms_per_action": round(1000 * total / actions, 4),
            "workers_ms_per_action": round(1000 * workers / actions, 4),
            "nodes": {name: n | {"ms_per_action": round(1000 * n["cpu_s"] / actions, 4)} for name, n in nodes.items()}}


async def play_tables(opts: Options, tally: Tally | None = None) -> dict[str, Any]:
    """Set up ``opts.tables`` tables, play them ``warmup + duration`` seconds; the table part of the report.

    The load tool's own garbage collections, left as they are, take much of its core with thousands
    of players, and each one stops every player it plays for as long as it walks their objects (a
    walk of up to 50,000 objects took 110 ms on average here, one 513 ms), which the latencies would
    count: the tool keeps them short as a node does, with :class:`~hokm.heap.GcPolicy`. A run lasts
    minutes and its memory grows with its players, so it never runs a full collection for memory (no
    ``peak``): with thousands of players one stops them all for seconds."""
    collector = GcPolicy()
    collector.start()
    try:
        return await _play_tables(opts, tally or Tally())
    finally:
        collector.stop()


async def _play_tables(opts: Options, tally: Tally) -> dict[str, Any]:
    rng = random.Random(opts.seed)
    sem = asyncio.Semaphore(opts.setup_concurrency)
    limits = httpx.Limits(max_connections=opts.setup_concurrency * 2, max_keepalive_connections=opts.setup_concurrency)
    t0 = time.monotonic()
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        async def one(i: int) -> tuple[str, list[str]]:
            async with sem:
                return await setup_table(client, opts.urls, i, opts.players, start=False)

        tables = await asyncio.gather(*(one(i) for i in range(opts.tables)))
        setup_s = time.monotonic() - t0
        stop = asyncio.Event()

        def urls_of(i: int) -> list[str]:  # the table was made on opts.urls[i % n] (setup_table), which owns it
            return [opts.urls[i % len(opts.urls)]] if opts.route == "owner" else opts.urls

        seats = [Seat(tid, s, tok, urls_of(i), 0 if opts.route == "owner" else i + s, think_range(opts.think_ms),
                      tally, random.Random(rng.random()), opts.delivery)
                 for i, (tid, toks) in enumerate(tables) for s, tok in enumerate(toks)]
        tally.measuring = False

        async def start_when_seated(i: int) -> None:
            # The host starts the table once its players have joined (or after a while without one
            # of them): started before, the stand-in bots would play the seats not yet connected.
            tid, toks = tables[i]
            mine = seats[i * opts.players:(i + 1) * opts.players]
            try:
                await asyncio.wait_for(asyncio.gather(*(s.joined.wait() for s in mine)), JOIN_WAIT_S)
            except TimeoutError:
                pass
            async with sem:
                await start_table(client, opts.urls, i, tid, toks[0])

        r0 = time.monotonic()
        tasks = []
        starts = []
        for k, s in enumerate(seats):
            tasks.append(asyncio.ensure_future(s.run(stop)))
            if (k + 1) % opts.players == 0:  # the table's players are on their way: its host waits for them
                starts.append(asyncio.ensure_future(start_when_seated(k // opts.players)))
            await asyncio.sleep(max(0.0, r0 + (k + 1) / opts.connect_rate - time.monotonic()))
        await asyncio.gather(*starts)
    ramp_s = time.monotonic() - r0
    churner = asyncio.ensure_future(churn(seats, opts.churn, stop, random.Random(rng.random()))) if opts.churn else None
    await asyncio.sleep(opts.warmup)
    sampler = Sampler(opts.pids, opts.names)
    recordings = []
    if opts.profile_dir is not None:
        recordings = await profile.start(opts.pids, sampler.names, opts.profile_dir, opts.duration)
    # The window opens here, for the counts, the latencies and the servers' CPU alike (not before the
    # profilers have started: actions acknowledged meanwhile would count without their CPU).
    async with httpx.AsyncClient(timeout=30) as metrics_client:
        at_start = await asyncio.gather(*(scrape.read(metrics_client, u) for u in opts.urls))
        tally.measuring = True
        sampler.start()
        m0 = time.monotonic()
        await asyncio.sleep(opts.duration)
        tally.measuring = False
        elapsed = time.monotonic() - m0
        server = sampler.stop()
        at_end = await asyncio.gather(*(scrape.read(metrics_client, u) for u in opts.urls))
    server["cpu_per_action"] = cpu_per_action(sampler.window, tally.accepted)
    server["own_metrics"] = {u: scrape.window(a, b) for u, a, b in zip(opts.urls, at_start, at_end, strict=True)}
    stop.set()
    await asyncio.gather(*tasks, *([churner] if churner else []), return_exceptions=True)
    profiles = await profile.finish(recordings) if recordings else {}
    return {"tables": opts.tables, "connections": len(seats), "think_ms": opts.think_ms, "route": opts.route,
            "setup_s": round(setup_s, 1),
            "ramp_s": round(ramp_s, 1), "warmup_s": opts.warmup,
            "duration_s": round(elapsed, 1), "actions_sent": tally.sent, "actions_acked": tally.accepted,
            "actions_per_s": round(tally.accepted / elapsed, 1),
            "events": opts.delivery.value,
            "messages_per_action": round(tally.messages / tally.accepted, 2) if tally.accepted else None,
            "message_bytes_per_action": round(tally.message_bytes / tally.accepted) if tally.accepted else None,
            "latency_ms": summary_ms(tally.latencies),
            "errors": dict(tally.errors), "reconnects": tally.reconnects, "churn_per_s": opts.churn,
            "dropped": tally.dropped, "games_over": tally.games_over,
            "stand_in_actions": tally.stand_ins, "seats_joined_after_start": tally.started_early,
            "server": server} | ({"profiles": profiles} if profiles else {})


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


async def churn(seats: list[Seat], rate: float, stop: asyncio.Event, rng: random.Random) -> None:
    """Players coming and going: ``rate`` times a second a random player's connection closes and the
    player connects again (:meth:`Seat.drop`), so the server opens and closes connections under load."""
    t0 = time.monotonic()
    k = 0
    while not stop.is_set():
        k += 1
        await asyncio.sleep(max(0.0, t0 + k / rate - time.monotonic()))
        for _ in range(10):  # a few tries: a player may be between connections
            if rng.choice(seats).drop():
                break


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


def _bound(bucket: float | str) -> str:
    """A bucket's upper bound as words: ``<= 25 ms``, or ``over 5000 ms`` past the last bound."""
    return f"{bucket} ms" if isinstance(bucket, str) else f"<= {bucket:g} ms"


def format_report(r: dict[str, Any]) -> str:
    g = r["game"]
    lat = g["latency_ms"]
    s = g["server"]
    lines = [
        f"tables {g['tables']} ({g['connections']} WebSockets), think {g['think_ms']:.0f} ms, "
        f"measured {g['duration_s']} s after setup ({g['setup_s']} s), connecting ({g['ramp_s']} s) "
        f"and warm-up ({g['warmup_s']} s)",
        f"actions: {g['actions_acked']} acknowledged, {g['actions_per_s']}/s; table messages per action "
        f"{g.get('messages_per_action')}, {g.get('message_bytes_per_action')} bytes of JSON (events {g.get('events')})",
        f"latency ms (action sent -> its event received): p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
        f"max {lat['max']}",
        f"errors: {g['errors'] or 'none'}; reconnects {g['reconnects']}; "
        f"{'connections dropped and reopened ' + str(g['dropped']) + '; ' if g.get('churn_per_s') else ''}"
        f"games over {g['games_over']}; "
        f"actions by stand-in bots {g.get('stand_in_actions')}; seats that joined a started table "
        f"{g.get('seats_joined_after_start')}",
        f"server CPU %: mean {s['cpu_percent_mean']} max {s['cpu_percent_max']}; RSS MB max {s['rss_mb_max']} "
        f"({s['processes']} processes); whole machine {s.get('machine_cpu_percent_mean')} % of "
        f"{s.get('machine_cores')} cores x 100; load generator {s.get('generator_cpu_percent')} % of one core",
    ]
    cpa = s.get("cpu_per_action") or {}
    if cpa.get("ms_per_action") is not None:
        per_node = ", ".join(f"{name} {n['ms_per_action']} ms ({n['cpu_s']} s)" for name, n in cpa["nodes"].items())
        lines.append(f"server CPU per acknowledged action: {cpa['ms_per_action']} ms ({cpa['cpu_s']} s over "
                     f"{cpa['actions']} actions); by node: {per_node}; bot workers {cpa['workers_ms_per_action']} ms")
    for url, own in (s.get("own_metrics") or {}).items():
        if "error" in own:
            lines.append(f"{url} measured of itself: {own['error']}")
            continue
        parts = []
        for name, words in (("action", "actions handled"), ("append", "appends"), ("gc_young", "young-object walks"),
                            ("gc_full", "full collections")):
            h = own.get(name)
            if h and h["count"]:
                parts.append(f"{words} {h['count']}, mean {h['mean_ms']} ms, p99 {_bound(h['p99_bucket_ms'])}, "
                             f"max {_bound(h['max_bucket_ms'])}")
        lines.append(f"{url} measured of itself: {'; '.join(parts) or 'nothing'}")
    if "echo" in r:
        e = r["echo"]
        el = e["latency_ms"]
        lines.append(f"echo floor ({e['connections']} WebSockets, {e['frame_bytes']} B frames, "
                     f"{e['round_trips_per_s']}/s): p50 {el['p50']}  p95 {el['p95']}  p99 {el['p99']}; "
                     f"echo CPU % mean {e['server']['cpu_percent_mean']}")
        ra = r["ratio"]
        lines.append(f"game / echo latency: p50 {ra['p50']}x  p95 {ra['p95']}x  p99 {ra['p99']}x")
    return "\n".join(lines)
