"""Fencing tokens of table owners, for several server nodes (``hokm.server.cluster.fence``).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "table_owners" in sa.inspect(op.get_bind()).get_table_names():
        return  # made by create_all in a process that had loaded the cluster code
    op.create_table(
        "table_owners",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("fence", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_owners")
