"""Pieces of the scale-out work that need no running servers: migrations and fencing on SQLite,
percentiles, JSON log lines, and the probes and metrics of a single-process app."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from hokm.loadtest.stats import percentile, summary_ms
from hokm.server.app import create_app
from hokm.server.cluster.fence import FencedError, FencedStorage
from hokm.server.config import ServerConfig
from hokm.server.migrations import current, head, upgrade
from hokm.server.ops import JsonFormatter
from hokm.server.storage import EventRow, TableRow
from hokm.server.storage.sql import SqlStorage


def _row(table_id: str) -> TableRow:
    return TableRow(id=table_id, mode="private", players=4, config={}, host=None, status="waiting", seats=[],
                    created_at=1.0, updated_at=1.0)


def test_migrations_create_a_fresh_sqlite_database(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    assert asyncio.run(current(url)) is None
    asyncio.run(upgrade(url))
    assert asyncio.run(current(url)) == head()
    asyncio.run(upgrade(url))  # a second run changes nothing
    assert asyncio.run(current(url)) == head()


def test_migrations_adopt_a_database_made_before_them(tmp_path: Path) -> None:
    """A single-process database (``create_all``) keeps its rows and gains the cluster's table."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"

    async def go() -> None:
        old = SqlStorage(url)
        await old.init()
        await old.create_table(_row("t1"))
        await old.close()
        await upgrade(url)
        s = FencedStorage(url)
        await s.init()
        assert (await s.get_table("t1")) is not None
        await s.claim("t1", 1)
        await s.close()

    asyncio.run(go())
    assert asyncio.run(current(url)) == head()


def test_tokens_issued_before_the_tokens_table_stay_valid(tmp_path: Path) -> None:
    """A database at 0002 (tokens only in ``players.token_hash``) upgraded to the newest keeps every player signed in."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from hokm.server.auth import authenticate, hash_token

    url = f"sqlite+aiosqlite:///{tmp_path / 'before-tokens.db'}"

    async def go() -> None:
        await upgrade(url, "0002")
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO players (id, nickname, token_hash, created_at, games, wins, kots, mu, sigma, rated_games) "
                "VALUES ('p1', 'old', :h, 1.0, 0, 0, 0, 25.0, 8.3, 0)"), {"h": hash_token("old-token")})
        await engine.dispose()
        s = SqlStorage(url)
        await s.init()  # migrates to the newest schema
        assert (await authenticate(s, "old-token", lifetime=3600.0)).id == "p1"
        assert await s.revoke_tokens("p1") == 1
        await s.close()

    asyncio.run(go())
    assert asyncio.run(current(url)) == head()


def test_a_superseded_owner_cannot_append(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'fence.db'}"

    async def go() -> None:
        old, new = FencedStorage(url), FencedStorage(url)
        await old.init()
        await new.init()
        await old.create_table(_row("t"))
        with pytest.raises(FencedError):  # no claim yet: this node does not own the table
            await old.append_events("t", [EventRow("t", 1, "seat", {}, 1.0)])
        await old.claim("t", 5)
        await old.append_events("t", [EventRow("t", 1, "seat", {}, 1.0)])
        await new.claim("t", 6)
        with pytest.raises(FencedError):
            await old.append_events("t", [EventRow("t", 2, "seat", {"stale": True}, 2.0)])
        await new.append_events("t", [EventRow("t", 2, "seat", {}, 2.0)])
        with pytest.raises(FencedError):  # an older fence can never claim back
            await old.claim("t", 5)
        assert [e.payload for e in await new.events("t")] == [{}, {}]
        await old.close()
        await new.close()

    asyncio.run(go())


def test_percentiles_by_nearest_rank() -> None:
    values = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    assert percentile(values, 0.5) == 0.05
    assert percentile(values, 0.99) == 0.099
    assert percentile([], 0.5) is None
    s = summary_ms(values)
    assert s["count"] == 100 and s["p95"] == 95.0 and s["max"] == 100.0


def test_json_log_lines_are_objects() -> None:
    record = logging.makeLogRecord({"name": "hokm.server.cluster", "levelno": logging.INFO, "levelname": "INFO",
                                    "msg": "table %s taken", "args": ("abc",), "table_id": "abc"})
    line = json.loads(JsonFormatter().format(record))
    assert line["msg"] == "table abc taken" and line["level"] == "info" and line["table_id"] == "abc"


def test_probes_and_metrics_of_one_process(tmp_path: Path) -> None:
    app = create_app(ServerConfig(data_dir=str(tmp_path), bot_delay=(0.0, 0.0), metrics_token="operator"))
    with TestClient(app) as client:
        assert client.get("/healthz").json() == {"ok": True}
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["ready"] is True
        token = client.post("/api/guest", json={"nickname": "m"}).json()["token"]
        r = client.post("/api/tables", json={"mode": "computer", "players": 4, "seat": 0},
                        headers={"authorization": f"Bearer {token}"})
        assert r.status_code == 201
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "token": token})
            ws.receive_json()
            ws.send_json({"type": "join", "table": r.json()["table_id"]})
            for _ in range(200):  # play one action of ours once the game asks for it
                msg = ws.receive_json()
                view = msg.get("view") or {}
                if view.get("legal"):
                    ws.send_json({"type": "action", "action": view["legal"][0], "seq": msg["seq"]})
                    break
            while not (msg.get("type") == "event" and msg["event"]["kind"] == "action" and msg["event"]["seat"] == 0):
                msg = ws.receive_json()  # our action's event: the action is timed by now
            assert client.get("/metrics").status_code == 404  # the test client is no allowed address
            text = client.get("/metrics", headers={"authorization": "Bearer operator"}).text
        assert 'hokm_tables{status="playing"} 1.0' in text
        assert "hokm_connections 1.0" in text
        assert "hokm_action_latency_seconds_count 1.0" in text
        assert "hokm_http_request_seconds_count" in text and "process_resident_memory_bytes" in text


def test_keyed_locks_serialise_one_key_and_forget_idle_keys() -> None:
    from hokm.server.cluster.locks import KeyedLocks

    locks = KeyedLocks()
    order: list[str] = []

    async def worker(key: str, name: str) -> None:
        async with locks(key):
            order.append(f"{name}+")
            await asyncio.sleep(0.01)
            order.append(f"{name}-")

    async def main() -> None:
        await asyncio.gather(worker("t1", "a"), worker("t1", "b"), worker("t2", "c"))
        assert len(locks) == 0  # nothing held or awaited: every lock forgotten
        with pytest.raises(RuntimeError):
            async with locks("t3"):
                assert len(locks) == 1
                raise RuntimeError("boom")
        assert len(locks) == 0

    asyncio.run(main())
    a, b = order.index("a+"), order.index("b+")
    first, second = ("a", "b") if a < b else ("b", "a")
    assert order.index(f"{first}-") < order.index(f"{second}+")  # same key: one at a time
    assert order.index("c+") < order.index(f"{second}+")  # another key does not wait
