"""Bots off the event loop: search levels in a worker process, broken bots replaced by legal moves."""

from __future__ import annotations

import asyncio
import time

from hokm.bots.base import Bot, register_bot
from hokm.engine import Game, Phase, Rules
from hokm.server.botpool import BotPool


class _Broken(Bot):
    name = "broken-test"

    def act(self, view):  # noqa: ANN001, ANN201
        raise RuntimeError("no idea")


register_bot("broken-test", lambda seed=None, **_: _Broken(), "always fails (tests)", public=False)


def test_search_level_runs_in_a_worker_and_the_loop_stays_free() -> None:
    async def main() -> None:
        pool = BotPool(threads=2, processes=1)
        game = Game.new(Rules(players=4), seed=11)
        stalls = []
        running = True

        async def ticker() -> None:
            while running:
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                stalls.append(time.perf_counter() - t - 0.005)

        tick = asyncio.ensure_future(ticker())
        moves = 0
        while moves < 12:
            if game.phase is Phase.DEAL:
                game.deal()
                continue
            view = game.view(game.to_move)
            action = await pool.decide("t", game.to_move, "easy", view)
            assert action in view.legal
            game.apply(action)
            moves += 1
        running = False
        await tick
        assert pool._workers[0] is not None  # the search level went to the worker process
        # the event loop kept turning while the worker searched (generous bound for shared CI cores)
        assert sorted(stalls)[len(stalls) // 2] < 0.05
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
