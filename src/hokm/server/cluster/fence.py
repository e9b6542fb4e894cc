"""Fencing in the database: an append is accepted only from the table's current lease holder.

``table_owners`` keeps, per table, the largest fence any node has claimed. A new owner *claims*
its fence (raising the stored value) before it reads the table's events; every append then runs,
inside its own transaction, an ``UPDATE ... WHERE fence = <mine>``. Once a newer owner has claimed,
the old owner's update matches no row and its append is refused, so whatever the new owner read
from the log stays the whole truth. On PostgreSQL the update also locks the row until the append
commits, so a claim waits for an append in flight instead of racing it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Column, String, Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..storage import StorageError
from ..storage.metadata import metadata
from ..storage.sql import SqlStorage

table_owners = Table(
    "table_owners", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("fence", BigInteger, nullable=False),
)


class FencedError(StorageError):
    """This node's fence is no longer the table's latest: another node owns it now."""


class FencedStorage(SqlStorage):
    """:class:`SqlStorage` whose appends carry this node's fence for the table.

    The schema comes from the Alembic migrations (:mod:`hokm.server.migrations`), run at start-up,
    so several nodes agree on one versioned schema.
    """

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.fences: dict[str, int] = {}

    async def init(self) -> None:
        from ..migrations import upgrade

        await upgrade(self.url)
        await super().init()

    async def claim(self, table_id: str, fence: int) -> None:
        """Record ``fence`` as the table's owner fence; :class:`FencedError` if a newer one exists."""
        async with self._e.begin() as conn:
            r = await conn.execute(update(table_owners).where(table_owners.c.table_id == table_id,
                                                              table_owners.c.fence < fence).values(fence=fence))
            if r.rowcount == 0:
                cur = (await conn.execute(select(table_owners.c.fence).where(
                    table_owners.c.table_id == table_id))).scalar()
                if cur is not None:
                    raise FencedError(f"table {table_id}: fence {fence} is older than {cur}")
                try:
                    async with conn.begin_nested():
                        await conn.execute(insert(table_owners).values(table_id=table_id, fence=fence))
                except IntegrityError:
                    raise FencedError(f"table {table_id}: another node claimed it at the same time") from None
        self.fences[table_id] = fence

    def forget(self, table_id: str) -> None:
        self.fences.pop(table_id, None)

    async def _guard(self, conn: Any, table_id: str) -> None:
        fence = self.fences.get(table_id)
        if fence is None:
            raise FencedError(f"table {table_id}: this node does not own it")
        r = await conn.execute(update(table_owners).where(table_owners.c.table_id == table_id,
                                                          table_owners.c.fence == fence).values(fence=fence))
        if r.rowcount != 1:
            self.fences.pop(table_id, None)
            raise FencedError(f"table {table_id}: fence {fence} was superseded; another node owns it")
