"""The base of the stores that share the server's SQLAlchemy engine (social links, profiles)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncEngine


class OnServerEngine:
    """A store on the server's own engine, which exists only once the storage is initialised."""

    def __init__(self, engine: Callable[[], AsyncEngine]) -> None:
        self._engine_of = engine

    @property
    def _e(self) -> AsyncEngine:
        return self._engine_of()
