"""One schema path: every SQLite database, kept or in memory, is made by the Alembic migrations;
the newest migration matches the code's ``metadata``; a database of the previous release (schema
0002), and a single node's database from before migrations (``metadata.create_all``, commit
a14dbca), upgrade in place and keep their rows. PostgreSQL: ``tests/scale/test_redis_pieces.py``."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from hokm.server.auth import authenticate, hash_token
from hokm.server.migrations import current, drift, upgrade
from hokm.server.storage.sql import SqlStorage

HEAD = "0005"

# The previous release's data: one row in every table of schema 0002.
ROWS_0002 = [
    ("INSERT INTO players (id, nickname, token_hash, created_at, games, wins, kots, mu, sigma, rated_games) "
     "VALUES ('p1', 'Darya', :token, 1.0, 3, 2, 1, 27.5, 7.1, 3)", {"token": hash_token("darya-token")}),
    ("INSERT INTO tables (id, code, mode, players, config, host, status, seats, game_id, seq, created_at, updated_at) "
     "VALUES ('t1', 'ABCD2345', 'private', 4, '{}', 'p1', 'playing', '[]', 'g0', 2, 1.0, 2.0)", {}),
    ("INSERT INTO table_members (table_id, player_id, seat) VALUES ('t1', 'p1', 0)", {}),
    ("INSERT INTO table_events (table_id, seq, kind, payload, at) VALUES ('t1', 1, 'seat', '{\"seat\": 0}', 1.5)", {}),
    ("INSERT INTO table_events (table_id, seq, kind, payload, at) VALUES ('t1', 2, 'commit', '{\"hand\": 0}', 1.6)",
     {}),
    ("INSERT INTO games (id, table_id, mode, players, names, player_ids, scores, winner, hands, record, started_at, "
     "ended_at) VALUES ('g1', 't0', 'public', 4, '[]', '[\"p1\"]', '[7, 3]', 0, 5, '{}', 1.0, 9.0)", {}),
    ("INSERT INTO game_players (game_id, seat, player_id) VALUES ('g1', 0, 'p1')", {}),
    ("INSERT INTO table_owners (table_id, fence) VALUES ('t1', 4)", {}),
]
TABLES_0002 = ("players", "tables", "table_members", "table_events", "games", "game_players", "table_owners")


async def _dump(url: str) -> dict[str, list[tuple[object, ...]]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return {t: [tuple(r) for r in (await conn.execute(text(f"SELECT * FROM {t} ORDER BY 1, 2")))]
                    for t in TABLES_0002}
    finally:
        await engine.dispose()


async def upgraded_at_start_up_and_still_whole(url: str, rows: dict[str, list[tuple[object, ...]]] | None = None) -> None:
    """Start the storage on an older database as the server does, then check that every row is as it was
    (``rows``, where given), darya is still signed in, her table and game are there, and the schema is the newest
    with no drift from the metadata."""
    storage = SqlStorage(url)
    await storage.init()
    try:
        assert await current(url) == HEAD
        if rows is not None:
            assert await _dump(url) == rows
        assert (await authenticate(storage, "darya-token", lifetime=3600.0)).id == "p1"  # still signed in
        table = await storage.get_table("t1")
        assert table is not None and table.code == "ABCD2345" and table.status == "playing"
        assert [e.kind for e in await storage.events("t1")] == ["seat", "commit"]
        assert [g.id for g in await storage.recent_games(10, player_id="p1")] == ["g1"]
    finally:
        await storage.close()
    assert await drift(url) == []


def test_a_database_of_the_previous_release_upgrades_in_place_keeping_its_rows(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'hokm.db'}"

    async def go() -> None:
        await upgrade(url, "0002")
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            for sql, params in ROWS_0002:
                await conn.execute(text(sql), params)
        await engine.dispose()
        before = await _dump(url)
        assert all(before[t] for t in TABLES_0002)
        assert await current(url) == "0002"

        await upgraded_at_start_up_and_still_whole(url, rows=before)

    asyncio.run(go())


def test_the_newest_migration_matches_the_metadata_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    asyncio.run(upgrade(url))
    assert asyncio.run(current(url)) == HEAD
    assert asyncio.run(drift(url)) == []


def test_the_comparison_sees_a_schema_the_migrations_did_not_make(tmp_path: Path) -> None:
    """The check above can fail: a column the metadata does not describe is reported."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'changed.db'}"

    async def go() -> list[object]:
        await upgrade(url)
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.execute(text("ALTER TABLE players ADD COLUMN country VARCHAR(2)"))
        await engine.dispose()
        return await drift(url)

    diff = asyncio.run(go())
    assert any(d[0] == "remove_column" and d[3].name == "country" for d in diff), diff


def test_an_in_memory_database_gets_its_schema_from_the_migrations_too() -> None:
    async def go() -> str | None:
        storage = SqlStorage("sqlite+aiosqlite:///:memory:")
        await storage.init()
        try:
            async with storage._e.connect() as conn:
                return (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
        finally:
            await storage.close()

    assert asyncio.run(go()) == HEAD


# The single-node database of the release before migrations (commit a14dbca): made by
# ``metadata.create_all`` on SQLite, with no ``alembic_version`` and no ``table_owners``. Frozen
# here as the statements SQLite kept for it, so that later changes to the code cannot change it.
SCHEMA_A14DBCA = """
CREATE TABLE players (
    id VARCHAR(32) NOT NULL,
    nickname VARCHAR(64) NOT NULL,
    token_hash VARCHAR(64) NOT NULL,
    created_at FLOAT NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    kots INTEGER NOT NULL,
    mu FLOAT NOT NULL,
    sigma FLOAT NOT NULL,
    rated_games INTEGER NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (token_hash)
);
CREATE TABLE tables (
    id VARCHAR(32) NOT NULL,
    code VARCHAR(16),
    mode VARCHAR(16) NOT NULL,
    players INTEGER NOT NULL,
    config TEXT NOT NULL,
    host VARCHAR(32),
    status VARCHAR(16) NOT NULL,
    seats TEXT NOT NULL,
    game_id VARCHAR(32),
    seq INTEGER NOT NULL,
    created_at FLOAT NOT NULL,
    updated_at FLOAT NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (code)
);
CREATE INDEX ix_tables_status ON tables (status);
CREATE TABLE table_members (
    table_id VARCHAR(32) NOT NULL,
    player_id VARCHAR(32) NOT NULL,
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, player_id)
);
CREATE INDEX ix_table_members_player ON table_members (player_id);
CREATE TABLE table_events (
    table_id VARCHAR(32) NOT NULL,
    seq INTEGER NOT NULL,
    kind VARCHAR(16) NOT NULL,
    payload TEXT NOT NULL,
    at FLOAT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE games (
    id VARCHAR(32) NOT NULL,
    table_id VARCHAR(32) NOT NULL,
    mode VARCHAR(16) NOT NULL,
    players INTEGER NOT NULL,
    names TEXT NOT NULL,
    player_ids TEXT NOT NULL,
    scores TEXT NOT NULL,
    winner INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    record TEXT NOT NULL,
    started_at FLOAT NOT NULL,
    ended_at FLOAT NOT NULL,
    PRIMARY KEY (id)
);
CREATE INDEX ix_games_ended ON games (ended_at);
CREATE TABLE game_players (
    game_id VARCHAR(32) NOT NULL,
    seat INTEGER NOT NULL,
    player_id VARCHAR(32) NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX ix_game_players_player ON game_players (player_id);
"""
TABLES_A14DBCA = ("players", "tables", "table_members", "table_events", "games", "game_players")


def _old_rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the old tables, in the old tables' columns only (later migrations add columns)."""
    import sqlite3

    old = sqlite3.connect(":memory:")
    old.executescript(SCHEMA_A14DBCA)
    columns = {t: ", ".join(r[1] for r in old.execute(f"PRAGMA table_info({t})")) for t in TABLES_A14DBCA}
    old.close()
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f"SELECT {columns[t]} FROM {t} ORDER BY 1, 2").fetchall() for t in TABLES_A14DBCA}
    finally:
        con.close()


def test_a_single_node_database_made_before_migrations_upgrades_in_place(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "hokm.db"
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")  # as that release's server left it
    con.executescript(SCHEMA_A14DBCA)
    for sql, params in ROWS_0002:
        if "table_owners" not in sql:
            con.execute(sql, params)
    con.commit()
    con.close()
    before = _old_rows(path)
    assert all(before[t] for t in TABLES_A14DBCA)
    url = f"sqlite+aiosqlite:///{path}"

    async def go() -> None:
        assert await current(url) is None  # not under migrations
        await upgraded_at_start_up_and_still_whole(url)

    asyncio.run(go())
    assert _old_rows(path) == before  # every row as it was
