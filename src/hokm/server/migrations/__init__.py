"""Versioned schema migrations (Alembic) for SQLite and PostgreSQL, run programmatically.

:func:`upgrade` brings a database to the newest version; the server runs it at start-up and
``python -m hokm.server.migrations URL`` runs it by hand. Every database
is made this way, the single process's SQLite as well as the cluster's PostgreSQL. A database created
before migrations existed (by ``metadata.create_all``, as single processes once did) already holds the
first version's tables: it is stamped at that version and then upgraded, rather than created twice.
:func:`drift` compares a database with the schema the code describes.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

HERE = Path(__file__).resolve().parent
BASELINE = "0001"
LOCK_KEY = 0x686F6B6D  # "hokm": the advisory lock that serialises migrations on PostgreSQL


def _config(connection: Any) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def _upgrade_sync(connection: Any, revision: str) -> None:
    from alembic import command

    if connection.dialect.name == "postgresql":
        # Nodes starting together: the first migrates, the others wait here and then find nothing to do.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    cfg = _config(connection)
    names = set(inspect(connection).get_table_names())
    if "alembic_version" not in names and "table_events" in names:
        command.stamp(cfg, BASELINE)
    command.upgrade(cfg, revision)


def upgrade_on(connection: Any, revision: str = "head") -> None:
    """Migrate through an open (synchronous) connection: ``await conn.run_sync(upgrade_on)``."""
    _upgrade_sync(connection, revision)


def _current_sync(connection: Any) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def make_sqlite_folder(url: str) -> None:
    """For a SQLite file database, make the folder it lives in (SQLite makes only the file)."""
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[-1]
        if path and path != ":memory:":
            Path(path).resolve().parent.mkdir(parents=True, exist_ok=True)


async def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database at ``url`` (an async SQLAlchemy URL) to ``revision``."""
    make_sqlite_folder(url)
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_upgrade_sync, revision)
    finally:
        await engine.dispose()


def head() -> str:
    """The newest schema version the code ships (the revision :func:`upgrade` brings a database to)."""
    from alembic.script import ScriptDirectory

    cfg = _config(None)
    revision = ScriptDirectory.from_config(cfg).get_current_head()
    assert revision is not None, "no migration scripts"
    return revision


async def current(url: str) -> str | None:
    """The database's schema version (``None``: not under migrations yet)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_current_sync)
    finally:
        await engine.dispose()


def _drift_sync(connection: Any) -> list[Any]:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from ..storage.metadata import metadata

    context = MigrationContext.configure(connection, opts={"compare_type": True, "compare_server_default": True})
    return list(compare_metadata(context, metadata))


async def drift(url: str) -> list[Any]:
    """How the database at ``url`` differs from :data:`~hokm.server.storage.metadata.metadata`
    (Alembic's autogenerate comparison; empty: the schema is exactly the one the code describes)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_drift_sync)
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m hokm.server.migrations DATABASE_URL", file=sys.stderr)
        return 2
    asyncio.run(upgrade(args[0]))
    print(f"schema at {asyncio.run(current(args[0]))}")
    return 0
