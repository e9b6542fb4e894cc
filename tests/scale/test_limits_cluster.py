"""The lobby's limits on a cluster node (PostgreSQL and Redis): the table count holds under
concurrent creations, idle rooms close and free their places, private seats need the code, and
tokens are revoked in PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from hokm.loadtest.nodes import start_cluster

pytestmark = [pytest.mark.scale, pytest.mark.timeout(180)]


def test_cluster_node_limits_rooms_and_tokens(tmp_path: Path, pg_url: str, redis_url: str, redis_prefix: str) -> None:
    env = {"HOKM_DATABASE_URL": pg_url, "HOKM_REDIS_URL": redis_url, "HOKM_REDIS_PREFIX": redis_prefix,
           "HOKM_MAX_TABLES": "3", "HOKM_WAITING_ROOM_TTL": "2"}
    cluster = start_cluster(1, tmp_path, env)
    url = cluster.urls[0]

    async def main() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            tokens = [(await c.post("/api/guest", json={"nickname": f"p{i}"})).json()["token"] for i in range(8)]
            auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
            rs = await asyncio.gather(*(c.post("/api/tables", json={"mode": "private", "players": 2}, headers=h)
                                        for h in auth))
            assert sorted(r.status_code for r in rs) == [201] * 3 + [503] * 5, [r.text for r in rs]
            room = next(r.json() for r in rs if r.status_code == 201)
            outsider = auth[[r.status_code for r in rs].index(503)]
            seen = (await c.get(f"/api/tables/{room['table_id']}", headers=outsider)).json()
            assert seen["code"] is None
            sit = await c.post(f"/api/tables/{room['table_id']}/sit", json={"seat": 1}, headers=outsider)
            assert sit.status_code == 403 and sit.json()["error"]["code"] == "code_required"
            end = time.monotonic() + 30
            while (await c.post("/api/tables", json={"mode": "private", "players": 2},
                                headers=outsider)).status_code != 201:
                assert time.monotonic() < end, "idle rooms were not closed on the cluster node"
                await asyncio.sleep(0.3)
            assert (await c.get(f"/api/tables/{room['table_id']}", headers=outsider)).json()["status"] == "over"
            assert (await c.post("/api/signout", json={"everywhere": True}, headers=auth[0])).json() == {"revoked": 1}
            assert (await c.get("/api/me", headers=auth[0])).status_code == 401

    try:
        asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        cluster.stop()
    assert "Traceback" not in cluster.nodes[0].log.read_text()
