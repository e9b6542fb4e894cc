"""Persistence behind one interface (:class:`Storage`); SQL via SQLAlchemy Core is the implementation."""

from .base import EventRow, GameRow, PlayerRow, PlayerUpdate, Storage, StorageError, TableRow, TableUpdate

__all__ = ["EventRow", "GameRow", "PlayerRow", "PlayerUpdate", "Storage", "StorageError", "TableRow", "TableUpdate",
           "open_storage"]


def open_storage(url: str) -> Storage:
    """The storage for a database URL (``sqlite+aiosqlite://...``, ``postgresql+asyncpg://...``)."""
    from .sql import SqlStorage

    return SqlStorage(url)
