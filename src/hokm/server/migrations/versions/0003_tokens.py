"""Sign-in tokens that expire and can be revoked: one row per token, the players' tokens copied in.

Revision ID: 0003
Revises: 0002
"""

import time

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "tokens" not in sa.inspect(op.get_bind()).get_table_names():
        op.create_table(
            "tokens",
            sa.Column("token_hash", sa.String(64), primary_key=True),
            sa.Column("player_id", sa.String(32), nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("used_at", sa.Float, nullable=False),
        )
        op.create_index("ix_tokens_player", "tokens", ["player_id"])
    # Every token issued so far stays valid, its lifetime counted from this upgrade.
    op.get_bind().execute(sa.text(
        "INSERT INTO tokens (token_hash, player_id, created_at, used_at) "
        "SELECT p.token_hash, p.id, p.created_at, :now FROM players p "
        "WHERE NOT EXISTS (SELECT 1 FROM tokens t WHERE t.token_hash = p.token_hash)"), {"now": time.time()})


def downgrade() -> None:
    op.drop_index("ix_tokens_player", "tokens")
    op.drop_table("tokens")
