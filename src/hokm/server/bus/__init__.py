"""Event fan-out behind one interface (:class:`Bus`); :class:`MemoryBus` is the in-process default."""

from .base import Bus, Subscription
from .memory import MemoryBus

__all__ = ["Bus", "MemoryBus", "Subscription", "open_bus"]


def open_bus(url: str) -> Bus:
    """The bus for a URL: ``memory://`` (default) or ``redis://host:port/db`` (several nodes)."""
    if url in ("memory://", "memory", ""):
        return MemoryBus()
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis import RedisBus

        return RedisBus(url)
    raise ValueError(f"unsupported bus URL {url!r} (memory:// or redis://...)")
