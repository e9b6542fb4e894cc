"""The database schema, in one SQLAlchemy Core ``MetaData``: the only place tables are described.

Portable on purpose (SQLite by default, PostgreSQL for scale-out): plain strings, integers,
floats and text holding JSON; no database-specific types. Every database, SQLite or PostgreSQL, one
process or a cluster, is created and upgraded by the Alembic migrations (:mod:`hokm.server.migrations`),
written from this ``metadata``; a test checks that the newest migration and this ``metadata`` agree.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text

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

# Sign-in tokens, by their SHA-256 (``players.token_hash`` keeps the first one's, as before tokens
# could be revoked; only this table authenticates). A token unused for the configured lifetime
# has expired; signing out deletes its row, signing out everywhere all the player's rows.
tokens = Table(
    "tokens", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=False),
)
Index("ix_tokens_player", tokens.c.player_id)

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

# Per table, the largest fence any node has claimed (several nodes: ``hokm.server.cluster.fence``);
# a single process leaves it empty.
table_owners = Table(
    "table_owners", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("fence", BigInteger, nullable=False),
)

# ---------------------------------------------------------------- social (accounts, friends, invitations)
# A claimed account: the guest's player id with a username and an Argon2id password hash. The
# username is shown as typed (cleaned); ``username_key`` is the form two usernames are compared by.
accounts = Table(
    "accounts", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("username", String(64), nullable=False),
    Column("username_key", String(128), nullable=False, unique=True),
    Column("password_hash", String(256), nullable=False),
    Column("created_at", Float, nullable=False),
)

# One-time device links, by the SHA-256 of the code: redeeming one deletes it.
device_links = Table(
    "device_links", metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("player_id", String(32), nullable=False),
    Column("expires_at", Float, nullable=False),
)
Index("ix_device_links_player", device_links.c.player_id)

# A player's friend code (made on first use): another player adds them by it.
friend_codes = Table(
    "friend_codes", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("code", String(16), nullable=False, unique=True),
)

# One row per direction: (A, B, "requested") A asked B; "friends" rows come in pairs;
# (A, B, "blocked") A blocked B (and no friends rows remain between them).
friend_links = Table(
    "friend_links", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("other_id", String(32), primary_key=True),
    Column("state", String(16), nullable=False),
    Column("at", Float, nullable=False),
)
Index("ix_friend_links_other", friend_links.c.other_id)

# Invitations to a private room; pending until accepted, declined or the room is gone.
invitations = Table(
    "invitations", metadata,
    Column("id", String(32), primary_key=True),
    Column("from_id", String(32), nullable=False),
    Column("to_id", String(32), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("state", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
)
Index("ix_invitations_to", invitations.c.to_id, invitations.c.state)

# ---------------------------------------------------------------- profiles
# What a player chose for their profile: the avatar others see (an id of the web's avatar set; none:
# the one derived from the player id) and whether their stats and rating history are public.
profiles = Table(
    "profiles", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("avatar", String(32), nullable=True),
    Column("public", Boolean, nullable=False),
    Column("updated_at", Float, nullable=False),
)

# One row per rated game and person: the rating it left them with (``finish_game`` writes it with
# the game). Games before this table existed have none.
rating_history = Table(
    "rating_history", metadata,
    Column("player_id", String(32), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", Float, nullable=False),
)
Index("ix_rating_history_player", rating_history.c.player_id, rating_history.c.at)
