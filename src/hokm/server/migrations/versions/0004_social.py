"""Accounts (username and password hash), device links, friend codes, friend links, invitations.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "accounts" in sa.inspect(op.get_bind()).get_table_names():
        return  # made by ``metadata.create_all`` of this version already
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("username_key", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "device_links",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_device_links_player", "device_links", ["player_id"])
    op.create_table(
        "friend_codes",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
    )
    op.create_table(
        "friend_links",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("other_id", sa.String(32), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_friend_links_other", "friend_links", ["other_id"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_id", sa.String(32), nullable=False),
        sa.Column("to_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_invitations_to", "invitations", ["to_id", "state"])


def downgrade() -> None:
    op.drop_index("ix_invitations_to", "invitations")
    op.drop_table("invitations")
    op.drop_index("ix_friend_links_other", "friend_links")
    op.drop_table("friend_links")
    op.drop_table("friend_codes")
    op.drop_index("ix_device_links_player", "device_links")
    op.drop_table("device_links")
    op.drop_table("accounts")
