"""SIGTERM on a node hands its tables over at once: the other node need not wait for leases to expire."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import httpx
import pytest

from hokm.loadtest.client import Seat, Tally, setup_table
from hokm.loadtest.nodes import start_cluster

pytestmark = [pytest.mark.scale, pytest.mark.slow, pytest.mark.timeout(240)]
TABLES = 6
LEASE_TTL = 90.0  # far longer than the test waits: only a hand-over lets the games go on


def test_sigterm_hands_tables_over(tmp_path: Path, pg_url: str, redis_url: str, redis_prefix: str) -> None:
    env = {"HOKM_DATABASE_URL": pg_url, "HOKM_REDIS_URL": redis_url, "HOKM_REDIS_PREFIX": redis_prefix,
           "HOKM_LEASE_TTL": str(LEASE_TTL), "HOKM_HAND_PAUSE": "0.05", "HOKM_ABSENT_GRACE": "600"}
    cluster = start_cluster(2, tmp_path, env)
    leaving, staying = cluster.nodes
    tally = Tally()

    async def play() -> tuple[list[Seat], int]:
        async with httpx.AsyncClient(timeout=30) as client:
            # Seven-point games (several seconds each): none ends while the node is shutting down, which
            # would leave it nothing to hand over (three-point games sometimes did, and the count below failed).
            tables = await asyncio.gather(*(setup_table(client, [leaving.url], i, rules={"target_points": 7})
                                            for i in range(TABLES)))
        stop = asyncio.Event()
        seats = [Seat(tid, s, tok, [staying.url], 0, (0.005, 0.02), tally, random.Random(i * 4 + s))
                 for i, (tid, toks) in enumerate(tables) for s, tok in enumerate(toks)]
        tasks = [asyncio.ensure_future(s.run(stop)) for s in seats]
        await asyncio.sleep(2)
        playing = len({s.table_id for s in seats if not s.over})
        code = await asyncio.to_thread(leaving.terminate, 30)
        # uvicorn shuts down gracefully, then re-raises the signal it caught: -15 is a clean exit here.
        assert code in (0, -15), leaving.log.read_text()[-2000:]
        assert "Traceback" not in leaving.log.read_text()
        deadline = time.monotonic() + 60
        while not all(s.over for s in seats) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        return seats, playing

    try:
        seats, playing = asyncio.run(play())
        metrics = httpx.get(staying.url + "/metrics", timeout=10).text
    finally:
        cluster.stop()
    # Every table was created on (and owned by) the node that left; the players sat on the other.
    assert all(s.over for s in seats), f"{sum(not s.over for s in seats)} seats still playing"
    line = next(x for x in metrics.splitlines() if x.startswith("hokm_takeovers"))
    assert playing > 0, "every game was over before the node left: the test would prove nothing"
    assert float(line.split()[-1]) >= playing
