"""Fixtures for the scale-out tests: a fresh PostgreSQL database and a Redis key prefix per test.

Redis and PostgreSQL are expected at their standard local ports (CI runs them); where one is
absent the tests that need it are skipped with a message saying which and where.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import Iterator

import pytest

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/0"


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def redis_url() -> str:
    if not _port_open(6379):
        pytest.skip("Redis is not running at 127.0.0.1:6379 (the scale-out tests need it)")
    return REDIS_URL


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """Keys and channels of this test only (tests under ``pytest -n`` share one Redis); removed after."""
    prefix = "test-" + secrets.token_hex(6)
    yield prefix
    if _port_open(6379):
        import redis

        r = redis.Redis.from_url(REDIS_URL)
        keys = list(r.scan_iter(f"{prefix}:*"))
        if keys:
            r.delete(*keys)
        r.close()


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty database, dropped afterwards; skipped when PostgreSQL is absent."""
    if not _port_open(5432):
        pytest.skip("PostgreSQL is not running at 127.0.0.1:5432 (the scale-out tests need it)")
    name = "hokm_test_" + secrets.token_hex(6)
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except Exception as e:  # noqa: BLE001 - say why rather than fail obscurely
        pytest.skip(f"cannot create a PostgreSQL database as user postgres: {e}")
    yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    asyncio.run(_admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"))
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}"'))
