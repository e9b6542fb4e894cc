"""The game server's first schema: players, tables, their members and events, finished games.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("nickname", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("kots", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rated_games", sa.Integer, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("code", sa.String(16), unique=True, nullable=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("host", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "table_members",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
    )
    op.create_index("ix_table_members_player", "table_members", ["player_id"])
    op.create_table(
        "table_events",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("names", sa.Text, nullable=False),
        sa.Column("player_ids", sa.Text, nullable=False),
        sa.Column("scores", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
    )
    op.create_index("ix_games_ended", "games", ["ended_at"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
    )
    op.create_index("ix_game_players_player", "game_players", ["player_id"])


def downgrade() -> None:
    for name in ("game_players", "games", "table_events", "table_members", "tables", "players"):
        op.drop_table(name)
