"""Event fan-out behind one interface (:class:`Bus`); :class:`MemoryBus` is the in-process default."""

from .base import Bus, Subscription
from .memory import MemoryBus

__all__ = ["Bus", "MemoryBus", "Subscription", "open_bus"]


def open_bus(url: str) -> Bus:
    """The bus for a URL: ``memory://`` (default). Redis arrives with the scale-out work."""
    if url in ("memory://", "memory", ""):
        return MemoryBus()
    raise ValueError(f"unsupported bus URL {url!r} (this build supports memory://)")
