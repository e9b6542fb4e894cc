"""The database schema, in one SQLAlchemy Core ``MetaData``: the only place tables are described.

Portable on purpose (SQLite by default, PostgreSQL for scale-out): plain strings, integers,
floats and text holding JSON; no database-specific types. Alembic migrations are generated from
this ``metadata``.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("nickname", String(64), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    Column("games", Integer, nullable=False, default=0),
    Column("wins", Integer, nullable=False, default=0),
    Column("kots", Integer, nullable=False, default=0),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rated_games", Integer, nullable=False, default=0),
)

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("code", String(16), unique=True, nullable=True),
    Column("mode", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("config", Text, nullable=False),  # JSON: rules, timers, bot, hints
    Column("host", String(32), nullable=True),
    Column("status", String(16), nullable=False),  # waiting, playing, over
    Column("seats", Text, nullable=False),  # JSON list of seat objects
    Column("game_id", String(32), nullable=True),
    Column("seq", Integer, nullable=False, default=0),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)
Index("ix_tables_status", tables.c.status)

table_members = Table(
    "table_members", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),
)
Index("ix_table_members_player", table_members.c.player_id)

table_events = Table(
    "table_events", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("payload", Text, nullable=False),  # JSON, full state: never sent to a client as is
    Column("at", Float, nullable=False),
)

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("names", Text, nullable=False),
    Column("player_ids", Text, nullable=False),
    Column("scores", Text, nullable=False),
    Column("winner", Integer, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("record", Text, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("ended_at", Float, nullable=False),
)
Index("ix_games_ended", games.c.ended_at)

game_players = Table(
    "game_players", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), nullable=False),
)
Index("ix_game_players_player", game_players.c.player_id)
