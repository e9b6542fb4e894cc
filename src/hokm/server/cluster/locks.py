"""One asyncio lock per key, created on first use and forgotten when nobody holds or awaits it.

A node restores a table at most once at a time, so table takeovers serialise on a lock per
table id. Over a long-running node those ids are unbounded, so a lock lives only while a
coroutine holds it or waits for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class KeyedLocks:
    """``async with locks(key):`` serialises the bodies that use the same ``key``."""

    def __init__(self) -> None:
        self._entries: dict[str, list] = {}  # key -> [lock, users holding or waiting]

    def __len__(self) -> int:
        return len(self._entries)

    @asynccontextmanager
    async def __call__(self, key: str) -> AsyncIterator[None]:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0 and self._entries.get(key) is entry:
                del self._entries[key]
