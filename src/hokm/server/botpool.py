"""Bot decisions off the event loop.

Bots are built once per (table, seat, level) and asked in a thread pool, so a slow search bot
delays only its own table. Each bot is used by one thread at a time (a lock per bot: bots may
keep state between calls). A bot that fails or answers an illegal action is replaced for that
decision by a random legal one and the failure is logged, so a broken bot never stalls a table.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..bots.base import Bot, available_bots, make_bot
from ..engine import Action, SeatView

log = logging.getLogger("hokm.server.bots")
#: Levels preferred for the default and hint bots, strongest first; the first that exists wins.
PREFERRED = ("medium", "heuristic", "easy", "random")


def public_levels() -> list[dict[str, str]]:
    return [{"name": s.name, "description": s.description} for s in available_bots(public_only=True)]


def pick_level(wanted: str | None) -> str:
    names = {s.name for s in available_bots(public_only=True)}
    if wanted:
        if wanted not in names:
            raise ValueError(f"unknown bot level {wanted!r} (known: {', '.join(sorted(names))})")
        return wanted
    for name in PREFERRED:
        if name in names:
            return name
    return sorted(names)[0]


class _Slot:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.lock = threading.Lock()


class BotPool:
    def __init__(self, threads: int = 4) -> None:
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="hokm-bot")
        self._slots: dict[tuple[str, Any, str], _Slot] = {}
        self._fallback = random.Random()

    def _slot(self, key: tuple[str, Any, str]) -> _Slot:
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = _Slot(make_bot(key[2], seed=random.getrandbits(63)))
        return slot

    def _decide_sync(self, key: tuple[str, Any, str], view: SeatView) -> Action:
        slot = self._slot(key)
        with slot.lock:
            try:
                action = slot.bot.act(view)
                if action in view.legal:
                    return action
                log.warning("bot %s answered an illegal action; playing a random legal one", key[2])
            except Exception:  # noqa: BLE001 - any bot failure must not stall the table
                log.exception("bot %s failed; playing a random legal action", key[2])
        return view.legal[self._fallback.randrange(len(view.legal))]

    async def decide(self, table_id: str, seat: Any, level: str, view: SeatView) -> Action:
        """A legal action for ``view`` from the bot of ``level`` that plays ``seat`` at this table."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._decide_sync, (table_id, seat, level), view)

    def release(self, table_id: str) -> None:
        """Close and forget the bots of a table (its game is over)."""
        for key in [k for k in self._slots if k[0] == table_id]:
            slot = self._slots.pop(key)
            try:
                slot.bot.close()
            except Exception:  # noqa: BLE001
                log.exception("closing bot %s failed", key[2])

    def close(self) -> None:
        for key in list(self._slots):
            self._slots.pop(key).bot.close()
        self._executor.shutdown(wait=False, cancel_futures=True)
