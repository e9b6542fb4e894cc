""":class:`Storage` over SQLAlchemy Core (async): SQLite through aiosqlite by default, PostgreSQL
through asyncpg for scale-out. Only portable Core constructs are used.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed event survives the server
process being killed at any moment (it is in the log before the commit returns), which is what
restart-without-loss needs; only a power cut could drop the very last commits.
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

import orjson
from sqlalchemy import and_, bindparam, case, delete, event, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from .base import EventRow, GameRow, PlayerRow, PlayerUpdate, Storage, StorageError, TableRow, TableUpdate
from .direct import Compiled, SqliteAppends
from .group import Append, GroupCommit
from .metadata import game_players, games, players, rating_history, table_events, table_members, tables, tokens
from .pg_appends import PgAppends


def _dumps(value: Any) -> str:
    """Compact JSON text, UTF-8 kept as is (orjson: every stored event passes here)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


#: A group's events (executemany), built once as the statement below.
_INSERT_EVENTS = insert(table_events)
_EVENT_KEYS = ["table_id", "seq", "kind", "payload", "at"]
#: A table's latest event, for many tables at once (executemany).
_BUMP = update(tables).where(tables.c.id == bindparam("b_id")).values(seq=bindparam("b_seq"),
                                                                     updated_at=bindparam("b_at"))


def is_integrity_error(e: BaseException) -> bool:
    """A constraint refused the write (as SQLAlchemy, SQLite's driver or asyncpg reports it)."""
    if isinstance(e, (IntegrityError, sqlite3.IntegrityError)):
        return True
    try:
        from asyncpg.exceptions import IntegrityConstraintViolationError
    except ImportError:  # the scale extra is not installed: no PostgreSQL
        return False
    return isinstance(e, IntegrityConstraintViolationError)


def _refusal(a: Append, e: BaseException) -> BaseException:
    """What a single append that failed answers: a taken sequence number is a :class:`StorageError`."""
    if is_integrity_error(e):
        seq = a.events[0].seq if a.events else "?"
        return StorageError(f"table {a.table_id}: event sequence {seq} is already taken")
    return e


def engine_options(url: str) -> dict[str, Any]:
    """Pool settings, per database.

    PostgreSQL: keep 20 connections open. SQLAlchemy's default (5 kept, 10 more opened and closed
    on demand) makes a busy node start a new PostgreSQL backend for many appends.

    SQLite (a file): one connection. SQLite has one writer at a time; with several pooled
    connections, concurrent appends meet its lock and wait in its busy handler, which sleeps in
    steps of up to 100 ms (and gives up with "database is locked" after ``busy_timeout``). One
    connection queues the appends in the process instead, each taking about a millisecond.
    """
    if url.startswith("postgresql"):
        return {"pool_size": 20, "max_overflow": 10}
    if url.startswith("sqlite") and ":memory:" not in url:
        return {"pool_size": 1, "max_overflow": 0, "pool_timeout": 120}
    return {}


def _event_rows(group: list[Append]) -> list[dict[str, Any]]:
    return [{"table_id": a.table_id, "seq": e.seq, "kind": e.kind, "payload": _dumps(e.payload), "at": e.at}
            for a in group for e in a.events]


def _bumps(group: list[Append]) -> list[dict[str, Any]]:
    """The common case, a table's latest seq and time, in one statement for the whole group."""
    return [{"b_id": a.table_id, "b_seq": a.events[-1].seq, "b_at": a.events[-1].at}
            for a in group if a.events and a.update is None]


class SqlStorage(Storage):
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine | None = None
        self._appends = GroupCommit(self._write_appends, _refusal)
        self._direct: SqliteAppends | None = None
        self._pg: PgAppends | None = None

    async def init(self) -> None:
        if self.url.startswith("sqlite"):
            path = self.url.split(":///", 1)[-1]
            if path and path != ":memory:":
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.engine = create_async_engine(self.url, **engine_options(self.url))
        if self.engine.dialect.name == "sqlite":
            @event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()
        from ..migrations import upgrade_on

        async with self.engine.begin() as conn:
            # Kept or throw-away, new or from an older release: the versioned migrations make the schema.
            await conn.run_sync(upgrade_on)
        file = self.engine.url.database
        fenced = self._fences([])[1] is not None  # a cluster node: its appends are checked in the transaction
        if self.engine.dialect.name == "sqlite" and file and file != ":memory:" and not fenced:
            self._direct = SqliteAppends(file, Compiled(_INSERT_EVENTS, _EVENT_KEYS), Compiled(_BUMP))
            self._direct.open()
        if self.engine.dialect.name == "postgresql":
            self._pg = PgAppends(self.engine.url)

    async def close(self) -> None:
        if self.engine is not None:
            await self._appends.drain()
            if self._direct is not None:
                self._direct.close()
                self._direct = None
            if self._pg is not None:
                await self._pg.close()
                self._pg = None
            await self.engine.dispose()

    @property
    def _e(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("storage used before init()")
        return self.engine

    # ------------------------------------------------------------------ players
    async def create_player(self, row: PlayerRow) -> None:
        async with self._e.begin() as conn:
            await conn.execute(insert(players).values(**row.__dict__))
            await conn.execute(insert(tokens).values(token_hash=row.token_hash, player_id=row.id,
                                                     created_at=row.created_at, used_at=row.created_at))

    @staticmethod
    def _player(r: Any) -> PlayerRow:
        return PlayerRow(**dict(r._mapping))

    async def player_by_token_hash(self, token_hash: str) -> tuple[PlayerRow, float] | None:
        q = select(players, tokens.c.used_at).join(tokens, tokens.c.player_id == players.c.id).where(
            tokens.c.token_hash == token_hash)
        async with self._e.connect() as conn:
            r = (await conn.execute(q)).first()
        if r is None:
            return None
        d = dict(r._mapping)
        used = d.pop("used_at")
        return PlayerRow(**d), used

    async def add_token(self, token_hash: str, player_id: str, at: float) -> None:
        async with self._e.begin() as conn:
            await conn.execute(insert(tokens).values(token_hash=token_hash, player_id=player_id, created_at=at,
                                                     used_at=at))

    async def renew_token(self, token_hash: str, at: float) -> None:
        async with self._e.begin() as conn:
            await conn.execute(update(tokens).where(tokens.c.token_hash == token_hash).values(used_at=at))

    async def revoke_token(self, token_hash: str) -> int:
        async with self._e.begin() as conn:
            return (await conn.execute(delete(tokens).where(tokens.c.token_hash == token_hash))).rowcount

    async def revoke_tokens(self, player_id: str) -> int:
        async with self._e.begin() as conn:
            return (await conn.execute(delete(tokens).where(tokens.c.player_id == player_id))).rowcount

    async def purge_tokens(self, used_before: float) -> int:
        async with self._e.begin() as conn:
            return (await conn.execute(delete(tokens).where(tokens.c.used_at < used_before))).rowcount

    async def get_player(self, player_id: str) -> PlayerRow | None:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(players).where(players.c.id == player_id))).first()
        return None if r is None else self._player(r)

    async def get_players(self, ids: list[str]) -> dict[str, PlayerRow]:
        if not ids:
            return {}
        async with self._e.connect() as conn:
            rows = (await conn.execute(select(players).where(players.c.id.in_(ids)))).all()
        return {r.id: self._player(r) for r in rows}

    async def leaderboard(self, limit: int) -> list[PlayerRow]:
        ordinal = players.c.mu - 3 * players.c.sigma
        # Players with a rating from games against people first (the starting rating of one who has none would
        # rank above a rated player's first loss); equal ratings (none yet, or the same record) rank by wins,
        # then by fewer games for them.
        rated = case((players.c.rated_games > 0, 1), else_=0)
        q = (select(players).where(players.c.games > 0)
             .order_by(rated.desc(), ordinal.desc(), players.c.wins.desc(), players.c.games, players.c.id).limit(limit))
        async with self._e.connect() as conn:
            return [self._player(r) for r in (await conn.execute(q)).all()]

    # ------------------------------------------------------------------ tables
    @staticmethod
    def _table(r: Any) -> TableRow:
        d = dict(r._mapping)
        d["config"] = json.loads(d["config"])
        d["seats"] = json.loads(d["seats"])
        return TableRow(**d)

    async def create_table(self, row: TableRow) -> None:
        values = dict(row.__dict__, config=_dumps(row.config), seats=_dumps(row.seats))
        async with self._e.begin() as conn:
            await conn.execute(insert(tables).values(**values))
            await self._set_members(conn, row.id, row.seats)

    async def _set_members(self, conn: Any, table_id: str, seats: list[dict[str, Any]]) -> None:
        await conn.execute(delete(table_members).where(table_members.c.table_id == table_id))
        rows = [{"table_id": table_id, "player_id": s["player_id"], "seat": s["seat"]}
                for s in seats if s.get("player_id")]
        if rows:
            await conn.execute(insert(table_members), rows)

    async def get_table(self, table_id: str) -> TableRow | None:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
        return None if r is None else self._table(r)

    async def table_by_code(self, code: str) -> TableRow | None:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(tables).where(tables.c.code == code))).first()
        return None if r is None else self._table(r)

    async def unfinished_tables(self) -> list[TableRow]:
        async with self._e.connect() as conn:
            rows = (await conn.execute(select(tables).where(tables.c.status != "over"))).all()
        return [self._table(r) for r in rows]

    async def tables_of_player(self, player_id: str, unfinished: bool = True) -> list[str]:
        q = select(table_members.c.table_id).join(tables, tables.c.id == table_members.c.table_id).where(
            table_members.c.player_id == player_id)
        if unfinished:
            q = q.where(tables.c.status != "over")
        async with self._e.connect() as conn:
            return [r[0] for r in (await conn.execute(q.order_by(tables.c.created_at))).all()]

    async def append_events(self, table_id: str, events: list[EventRow], update_: TableUpdate | None = None) -> None:
        if not events and update_ is None:
            return
        await self._appends.append(table_id, events, update_)

    async def _write_appends(self, group: list[Append]) -> dict[int, BaseException]:
        """One transaction for a group of appends (:class:`~.group.GroupCommit`); the refused ones by index.

        A group that only adds events (no table row changed but its sequence number) is written
        without SQLAlchemy: on a SQLite file by :class:`~.direct.SqliteAppends`, on this thread; on
        PostgreSQL in one statement on a connection of its own (:mod:`.pg_appends`), the fence
        check included.
        """
        if all(a.update is None for a in group) and (self._direct is not None or self._pg is not None):
            return await self._write_events_only(group)
        async with self._e.begin() as conn:
            refused = await self._guard(conn, sorted({a.table_id for a in group}))
            kept = [a for a in group if a.table_id not in refused]
            rows, bumps = _event_rows(kept), _bumps(kept)
            if rows:
                await conn.execute(_INSERT_EVENTS, rows)
            if bumps:
                await conn.execute(_BUMP, bumps)
            for a in kept:
                if a.update is not None:
                    await self._update_table(conn, a)
        return {i: refused[a.table_id] for i, a in enumerate(group) if a.table_id in refused}

    async def _write_events_only(self, group: list[Append]) -> dict[int, BaseException]:
        refused, fences = self._fences(sorted({a.table_id for a in group}))
        kept = [a for a in group if a.table_id not in refused]
        if kept:
            rows, bumps = _event_rows(kept), _bumps(kept)
            if self._direct is not None:
                await self._direct.write(rows, bumps)
            else:
                assert self._pg is not None
                held = await self._pg.write(rows, bumps, fences)
                for t, fence in (fences or {}).items():
                    if held is not None and t not in held:
                        refused[t] = self._superseded(t, fence)
        return {i: refused[a.table_id] for i, a in enumerate(group) if a.table_id in refused}

    async def _update_table(self, conn: Any, a: Append) -> None:
        values: dict[str, Any] = {}
        if a.events:
            values["seq"] = a.events[-1].seq
            values["updated_at"] = a.events[-1].at
        u = a.update
        assert u is not None
        if u.status is not None:
            values["status"] = u.status
        if u.game_id is not None:
            values["game_id"] = u.game_id
        if u.seats is not None:
            values["seats"] = _dumps(u.seats)
            await self._set_members(conn, a.table_id, u.seats)
        if values:
            await conn.execute(update(tables).where(tables.c.id == a.table_id).values(**values))

    async def _guard(self, conn: Any, table_ids: list[str]) -> dict[str, BaseException]:
        """Hook inside the append transaction: table-ownership fencing (``hokm.server.cluster``) refuses
        there the writes of a node that no longer owns a table (by table id). One process owns every table."""
        return {}

    def _fences(self, table_ids: list[str]) -> tuple[dict[str, BaseException], dict[str, int] | None]:
        """The appends of ``table_ids`` refused before any is written, and the fence this node holds
        for each of the others (``None``: appends are not fenced; one process owns every table)."""
        return {}, None

    def _superseded(self, table_id: str, fence: int) -> BaseException:
        """What an append answers when the table's stored fence is no longer ``fence``."""
        return StorageError(f"table {table_id}: fence {fence} was superseded")

    async def events(self, table_id: str, after: int = 0, limit: int | None = None) -> list[EventRow]:
        q = select(table_events).where(and_(table_events.c.table_id == table_id, table_events.c.seq > after)
                                       ).order_by(table_events.c.seq)
        if limit is not None:
            q = q.limit(limit)
        async with self._e.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [EventRow(r.table_id, r.seq, r.kind, json.loads(r.payload), r.at) for r in rows]

    # ------------------------------------------------------------------ games
    @staticmethod
    def _game(r: Any) -> GameRow:
        d = dict(r._mapping)
        for k in ("names", "player_ids", "scores"):
            d[k] = json.loads(d[k])
        return GameRow(**d)

    async def finish_game(self, game: GameRow, updates: list[PlayerUpdate]) -> None:
        values = dict(game.__dict__, names=_dumps(game.names), player_ids=_dumps(game.player_ids),
                      scores=_dumps(game.scores))
        async with self._e.begin() as conn:
            await conn.execute(insert(games).values(**values))
            rows = [{"game_id": game.id, "seat": s, "player_id": p} for s, p in enumerate(game.player_ids) if p]
            if rows:
                await conn.execute(insert(game_players), rows)
            for u in updates:
                vals: dict[str, Any] = {"games": players.c.games + u.games, "wins": players.c.wins + u.wins,
                                        "kots": players.c.kots + u.kots}
                if u.rating is not None:
                    vals.update(mu=u.rating[0], sigma=u.rating[1], rated_games=players.c.rated_games + 1)
                await conn.execute(update(players).where(players.c.id == u.player_id).values(**vals))
            history = [{"player_id": u.player_id, "game_id": game.id, "mu": u.rating[0], "sigma": u.rating[1],
                        "at": game.ended_at} for u in updates if u.rating is not None]
            if history:
                await conn.execute(insert(rating_history), history)

    async def get_game(self, game_id: str) -> GameRow | None:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(games).where(games.c.id == game_id))).first()
        return None if r is None else self._game(r)

    async def recent_games(self, limit: int, player_id: str | None = None) -> list[GameRow]:
        q = select(games)
        if player_id is not None:
            q = q.where(games.c.id.in_(select(game_players.c.game_id).where(game_players.c.player_id == player_id)))
        async with self._e.connect() as conn:
            rows = (await conn.execute(q.order_by(games.c.ended_at.desc()).limit(limit))).all()
        return [self._game(r) for r in rows]
