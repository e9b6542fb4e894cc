"""Bot decisions off the event loop: light bots in threads, search bots in worker processes.

A bot is built once per (table, seat, level) and keeps its state between decisions. Light bots
(``random``, ``heuristic``: well under a millisecond) run in a thread pool. Search levels spend
tens of milliseconds of pure Python per decision, holding the interpreter lock, so they run in
worker processes instead, where they cannot stall the event loop and with it every other table.
Each (table, seat) always goes to the same worker, so its bot instance lives there between calls.

A bot that fails or answers an illegal action is replaced for that decision by a random legal
one and the failure is logged (never the cards), so a broken bot never stalls a table.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..bots.base import Bot
from ..engine import Action, SeatView
from ..players import available_bots, make_bot
from ..procs import close_pool, process_pool

log = logging.getLogger("hokm.server.bots")
#: Levels preferred for the default and hint bots, strongest first; the first that exists wins.
PREFERRED = ("medium", "easy", "random")
#: Levels cheap enough to run in a thread.
LIGHT = frozenset({"random", "heuristic"})
Key = tuple[str, Any, str]  # (table id, seat or ("hint", seat), level)


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


class _Bots:
    """Bot instances by key, with the decide and release steps (used in threads and in workers)."""

    def __init__(self) -> None:
        self.slots: dict[Key, _Slot] = {}
        self.guard = threading.Lock()

    def decide(self, key: Key, view: SeatView) -> Action | None:
        with self.guard:
            slot = self.slots.get(key)
            if slot is None:
                slot = self.slots[key] = _Slot(make_bot(key[2], seed=random.getrandbits(63)))
        with slot.lock:
            try:
                action = slot.bot.act(view)
            except Exception:
                log.exception("bot %s failed; a random legal action is played instead", key[2])
                return None
        if action not in view.legal:
            log.warning("bot %s answered an illegal action; a random legal one is played instead", key[2])
            return None
        return action

    def release(self, table_id: str) -> None:
        with self.guard:
            keys = [k for k in self.slots if k[0] == table_id]
            slots = [self.slots.pop(k) for k in keys]
        for key, slot in zip(keys, slots):
            try:
                slot.bot.close()
            except Exception:
                log.exception("closing bot %s failed", key[2])


_WORKER = _Bots()  # the bots of one worker process


def _worker_decide(key: Key, view: SeatView) -> Action | None:
    return _WORKER.decide(key, view)


def _worker_release(table_id: str) -> None:
    _WORKER.release(table_id)


def _worker_warm(level: str) -> None:
    """Build a bot and let it decide once, so imports and compiled kernels are ready for play."""
    from ..engine import Game, Rules

    game = Game.new(Rules(players=4), seed=0)
    assert game.to_move is not None
    _WORKER.decide(("warm", 0, level), game.view(game.to_move))
    _WORKER.release("warm")


class BotPool:
    def __init__(self, threads: int = 4, processes: int = 2) -> None:
        self._threads = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="hokm-bot")
        self._local = _Bots()
        self._workers: list[ProcessPoolExecutor | None] = [None] * max(0, processes)
        self._fallback = random.Random()

    def _worker(self, key: Key) -> tuple[int, ProcessPoolExecutor] | None:
        if not self._workers or key[2] in LIGHT:
            return None
        i = hash((key[0], key[1])) % len(self._workers)
        return i, self._ensure(i)

    def _ensure(self, i: int) -> ProcessPoolExecutor:
        w = self._workers[i]
        if w is None:  # started on first use, so servers with light bots only never spawn any
            w = self._workers[i] = process_pool(1)
        return w

    async def decide(self, table_id: str, seat: Any, level: str, view: SeatView) -> Action:
        """A legal action for ``view`` from the bot of ``level`` that plays ``seat`` at this table."""
        loop = asyncio.get_running_loop()
        key: Key = (table_id, seat, level)
        target = self._worker(key)
        action: Action | None
        if target is None:
            action = await loop.run_in_executor(self._threads, self._local.decide, key, view)
        else:
            i, worker = target
            try:
                action = await loop.run_in_executor(worker, _worker_decide, key, view)
            except BrokenProcessPool:
                log.error("a bot worker process died; starting a new one")
                self._workers[i] = None
                action = None
        if action is None:
            action = view.legal[self._fallback.randrange(len(view.legal))]
        return action

    def warm(self, levels: list[str]) -> None:
        """Start the worker processes for search ``levels`` in the background (server start-up)."""
        for level in {lv for lv in levels if lv not in LIGHT}:
            for i in range(len(self._workers)):
                self._ensure(i).submit(_worker_warm, level)

    def release(self, table_id: str) -> None:
        """Close and forget the bots of a table (its game is over)."""
        self._local.release(table_id)
        for w in self._workers:
            if w is not None:
                try:
                    w.submit(_worker_release, table_id)
                except (BrokenProcessPool, RuntimeError):
                    pass

    def close(self) -> None:
        for table_id in {k[0] for k in list(self._local.slots)}:
            self._local.release(table_id)
        self._threads.shutdown(wait=False, cancel_futures=True)
        # Wait for the workers to exit (at most one decision in progress): a process that ends
        # while they still run leaves them behind and its queues' semaphores unreleased.
        for w in self._workers:
            if w is not None:
                close_pool(w)
