"""Event fan-out behind one interface (:class:`Bus`); :class:`MemoryBus` is the in-process default."""

from .base import Bus, Subscription
from .memory import MemoryBus

__all__ = ["Bus", "MemoryBus", "Subscription", "open_bus"]


def open_bus(url: str, queue: int = 1000) -> Bus:
    """The bus for a URL: ``memory://`` (default) or ``redis://host:port/db`` (several nodes).

    ``queue``: how many messages a subscriber may fall behind before it is marked overflowed.
    """
    if url in ("memory://", "memory", ""):
        return MemoryBus(queue)
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis import RedisBus

        return RedisBus(url, maxsize=queue)
    raise ValueError(f"unsupported bus URL {url!r} (memory:// or redis://...)")
