"""Two nodes over Redis and PostgreSQL, dozens of tables, one node killed with SIGKILL mid-game.

Headless players (four WebSockets per table, spread over both nodes) play whole games quickly.
A few seconds in, node 0 (the owner of half the tables) is killed without warning. Its players
reconnect to node 1, which takes the orphaned tables over from the event log once their leases
expire. Then: every game finishes, every stored record replays valid with ``hokm replay``, and
every action a player saw accepted is in the log, at the same sequence number.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from hokm.loadtest.client import Seat, Tally, setup_table
from hokm.loadtest.nodes import start_cluster

pytestmark = [pytest.mark.scale, pytest.mark.slow, pytest.mark.timeout(300)]
TABLES = 24
RULES = {"target_points": 3}  # short games: the test is about failover, not long play


async def _play(urls: list[str], kill: callable, tally: Tally) -> list[Seat]:  # type: ignore[valid-type]
    async with httpx.AsyncClient(timeout=30) as client:
        tables = await asyncio.gather(*(setup_table(client, urls, i, rules=RULES) for i in range(TABLES)))
    stop = asyncio.Event()
    rng = random.Random(7)
    seats = [Seat(tid, s, tok, urls, i + s, (0.005, 0.02), tally, random.Random(rng.random()))
             for i, (tid, toks) in enumerate(tables) for s, tok in enumerate(toks)]
    tasks = [asyncio.ensure_future(s.run(stop)) for s in seats]
    await asyncio.sleep(4)
    actions_before = tally.accepted
    kill()
    deadline = time.monotonic() + 150
    while not all(s.over for s in seats) and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert actions_before > 0, "no action was played before the kill: the test would prove nothing"
    return seats


async def _stored(db_url: str) -> tuple[dict[str, list[tuple[int, str, dict]]], dict[str, str]]:
    engine = create_async_engine(db_url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(text("SELECT table_id, seq, kind, payload FROM table_events "
                                            "ORDER BY table_id, seq"))).all()
            games = (await conn.execute(text("SELECT table_id, record FROM games"))).all()
    finally:
        await engine.dispose()
    events: dict[str, list[tuple[int, str, dict]]] = {}
    for tid, seq, kind, payload in rows:
        events.setdefault(tid, []).append((seq, kind, json.loads(payload)))
    return events, {tid: rec for tid, rec in games}


def test_kill_one_node_loses_nothing(tmp_path: Path, pg_url: str, redis_url: str, redis_prefix: str) -> None:
    env = {"HOKM_DATABASE_URL": pg_url, "HOKM_REDIS_URL": redis_url, "HOKM_REDIS_PREFIX": redis_prefix,
           "HOKM_LEASE_TTL": "1.5", "HOKM_HAND_PAUSE": "0.05", "HOKM_ABSENT_GRACE": "600",
           "HOKM_RATE_PER_SECOND": "200", "HOKM_RATE_BURST": "400"}
    cluster = start_cluster(2, tmp_path, env)
    tally = Tally(keep_events=True)
    try:
        seats = asyncio.run(_play(cluster.urls, cluster.nodes[0].kill, tally))
        survivor = httpx.get(cluster.nodes[1].url + "/metrics", timeout=10).text
    finally:
        cluster.stop()
    assert cluster.nodes[0].proc.returncode == -9
    unfinished = sorted({s.table_id for s in seats if not s.over})
    assert not unfinished, f"{len(unfinished)} games did not finish: {unfinished[:5]}"
    assert tally.reconnects > 0, "nobody was connected to the killed node"
    takeovers = [line for line in survivor.splitlines() if line.startswith("hokm_takeovers")]
    assert takeovers and float(takeovers[0].split()[-1]) > 0, "the surviving node took no table over"

    events, records = asyncio.run(_stored(pg_url))
    table_ids = {s.table_id for s in seats}
    assert set(records) == table_ids, "a finished game has no stored record"
    for tid in table_ids:
        log = events[tid]
        assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1)), f"table {tid}: gap in the event log"
        assert log[-1][1] == "game_over"
        by_seq = {seq: (kind, payload) for seq, kind, payload in log}
        for seq, (kind, seen) in tally.seen[tid].items():
            stored_kind, payload = by_seq.get(seq, (None, None))
            assert stored_kind == kind, f"table {tid}: event {seq} seen as {kind}, stored as {stored_kind}"
            if kind == "action":
                assert payload["seat"] == seen["seat"] and payload["by"] == seen["by"]
                if seen["action"].get("card"):
                    assert payload["action"]["card"] == seen["action"]["card"]
    files = []
    for tid, record in records.items():
        path = tmp_path / f"{tid}.json"
        path.write_text(record)
        files.append(str(path))
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "replay", "--json", *files],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    summaries = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    assert len(summaries) == TABLES
