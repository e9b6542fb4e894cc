"""Named timers: a drained set waits for a cancelled task to clean up before the server closes its storage."""

from __future__ import annotations

import asyncio

from hokm.server.timers import TimerSet


def test_drain_waits_for_a_cancelled_task_to_finish_its_cleanup() -> None:
    """As SQLAlchemy does when a query is cancelled: it hands its connection back before it ends."""
    cleaned: list[str] = []

    async def main() -> None:
        timers = TimerSet()
        started = asyncio.Event()

        async def hand_back() -> None:
            await asyncio.sleep(0.05)
            cleaned.append("connection returned")

        async def turn() -> None:
            started.set()
            try:
                await asyncio.sleep(10)  # a write in flight
            except asyncio.CancelledError:
                await asyncio.shield(hand_back())
                raise

        timers.spawn(turn)
        await started.wait()
        await timers.drain()
        # Closing the storage here, before the connection came back, is what hung the server's shutdown.
        assert cleaned == ["connection returned"]

    asyncio.run(main())


def test_drain_is_bounded_and_does_not_wait_for_the_calling_task() -> None:
    async def main() -> float:
        timers = TimerSet()
        loop = asyncio.get_running_loop()
        release = asyncio.Event()
        took: list[float] = []

        async def stubborn() -> None:
            while not release.is_set():
                try:
                    await asyncio.sleep(10)
                except asyncio.CancelledError:
                    pass  # keeps running until released

        async def closes_itself() -> None:
            start = loop.time()
            await timers.drain(timeout=0.1)
            took.append(loop.time() - start)

        timers.spawn(stubborn)
        await asyncio.sleep(0)
        timers.spawn(closes_itself)
        while not took:
            await asyncio.sleep(0.01)
        release.set()
        return took[0]

    took = asyncio.run(asyncio.wait_for(main(), 5))
    assert 0.09 < took < 1.0
