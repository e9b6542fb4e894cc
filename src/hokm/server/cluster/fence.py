"""Fencing in the database: an append is accepted only from the table's current lease holder.

``table_owners`` keeps, per table, the largest fence any node has claimed. A new owner *claims*
its fence (raising the stored value) before it reads the table's events; every append then reads,
inside the transaction that writes it, the table's stored fence (``SELECT ... FOR UPDATE``, one
statement for all the tables of a group commit). Once a newer owner has claimed, the old owner's
fence no longer matches and its append is refused, so whatever the new owner read from the log
stays the whole truth. On PostgreSQL the read also locks the row until the appends commit, so a
claim waits for an append in flight instead of racing it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import String, any_, bindparam, insert, select, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import IntegrityError

from ..storage import StorageError
from ..storage.metadata import table_owners
from ..storage.sql import SqlStorage

#: The stored fences of a group's tables, locked until the appends commit. Built once: every group
#: commit runs it, and building a statement (and its cache key) each time cost more than running it.
#: On PostgreSQL one statement text serves any number of tables (``= ANY(array)``): an IN list of
#: each length is a new statement for it to prepare.
_FENCES_PG = select(table_owners.c.table_id, table_owners.c.fence).where(
    table_owners.c.table_id == any_(bindparam("ids", type_=ARRAY(String)))).with_for_update()
_FENCES = select(table_owners.c.table_id, table_owners.c.fence).where(
    table_owners.c.table_id.in_(bindparam("ids", expanding=True))).with_for_update()


class FencedError(StorageError):
    """This node's fence is no longer the table's latest: another node owns it now."""


class FencedStorage(SqlStorage):
    """:class:`SqlStorage` whose appends carry this node's fence for the table.

    The schema comes from the Alembic migrations (:mod:`hokm.server.migrations`), run at start-up
    as for every database, so several nodes agree on one versioned schema.
    """

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.fences: dict[str, int] = {}

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

    def _fences(self, table_ids: list[str]) -> tuple[dict[str, BaseException], dict[str, int] | None]:
        refused: dict[str, BaseException] = {t: FencedError(f"table {t}: this node does not own it")
                                              for t in table_ids if t not in self.fences}
        return refused, {t: self.fences[t] for t in table_ids if t in self.fences}

    def _superseded(self, table_id: str, fence: int) -> BaseException:
        self.fences.pop(table_id, None)
        return FencedError(f"table {table_id}: fence {fence} was superseded; another node owns it")

    async def _guard(self, conn: Any, table_ids: list[str]) -> dict[str, BaseException]:
        """Refuse the tables whose stored fence is no longer this node's; lock the others' rows.

        On PostgreSQL ``FOR UPDATE`` holds the fence rows until the appends commit, so a claim
        waits for them instead of racing them (SQLite has one writer at a time anyway). A group of
        appends that only add events is checked in the statement that writes it instead
        (:mod:`hokm.server.storage.pg_appends`).
        """
        refused, mine = self._fences(table_ids)
        if mine:
            q = _FENCES_PG if conn.dialect.name == "postgresql" else _FENCES
            stored = {r.table_id: r.fence for r in (await conn.execute(q, {"ids": sorted(mine)})).all()}
            for t, fence in mine.items():
                if stored.get(t) != fence:
                    refused[t] = self._superseded(t, fence)
        return refused
