"""Bots off the event loop: search levels in a worker process, broken bots replaced by legal moves."""

from __future__ import annotations

import asyncio
import os

from hokm.bots.base import Bot
from hokm.engine import Game, Phase, Rules
from hokm.players import register_bot
from hokm.server.botpool import BotPool


class _Broken(Bot):
    name = "broken-test"

    def act(self, view):
        raise RuntimeError("no idea")


register_bot("broken-test", lambda seed=None, **_: _Broken(), "always fails (tests)", public=False)


def test_search_levels_run_in_a_worker_process_light_bots_in_threads() -> None:
    async def main() -> None:
        pool = BotPool(threads=2, processes=1)
        game = Game.new(Rules(players=4), seed=11)
        for _ in range(3):
            view = game.view(game.to_move)
            action = await pool.decide("t", game.to_move, "random", view)
            assert action in view.legal
            game.apply(action)
        assert pool._workers == [None]  # light bots never start a process
        moves = 0
        while moves < 8:
            if game.phase is Phase.DEAL:
                game.deal()
                continue
            view = game.view(game.to_move)
            action = await pool.decide("t", game.to_move, "easy", view)
            assert action in view.legal
            game.apply(action)
            moves += 1
        worker = pool._workers[0]
        assert worker is not None  # the search level went to the worker process
        assert {p.pid for p in worker._processes.values()} and all(
            p.pid != os.getpid() for p in worker._processes.values())
        pool.release("t")
        pool.close()
    asyncio.run(asyncio.wait_for(main(), 120))


def test_a_failing_bot_is_replaced_by_a_legal_move() -> None:
    async def main() -> None:
        pool = BotPool(threads=1, processes=0)
        game = Game.new(Rules(players=3), seed=2)
        view = game.view(game.to_move)
        assert await pool.decide("t", game.to_move, "broken-test", view) in view.legal
        pool.close()
    asyncio.run(main())
