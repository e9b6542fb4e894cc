"""A subscription's messages taken in the publisher's call (``deliver_directly``), and the order kept.

The handler is offered a message only while the reader holds none it has not finished with and
none waits in the queue; what it does not take (``False``, or an exception) is queued, and from then
on everything is queued until the reader has caught up. So the reader and the handler together see
every message once, in publish order, whatever the handler says.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hokm.server.bus import MemoryBus


def test_the_handler_takes_what_it_can_and_the_reader_the_rest_in_order(caplog: pytest.LogCaptureFixture) -> None:
    async def go() -> tuple[list[tuple[str, int]], list[int]]:
        bus = MemoryBus(maxsize=100)
        sub = await bus.subscribe("t")
        seen: list[tuple[str, int]] = []
        offered: list[int] = []
        refuse = {3, 7}

        def handler(message: dict[str, Any]) -> bool:
            n = message["n"]
            offered.append(n)
            if n == 11:
                raise ValueError("a broken handler")
            if n in refuse:
                return False
            seen.append(("direct", n))
            return True

        sub.deliver_directly(handler)
        reader_may_go = asyncio.Event()

        async def read() -> None:
            async for message in sub:
                await reader_may_go.wait()  # holds the message: the publisher must queue behind it
                seen.append(("reader", message["n"]))
                if message["n"] == 14:
                    return

        task = asyncio.ensure_future(read())
        await asyncio.sleep(0)
        for n in range(3):  # taken at once
            await bus.publish("t", {"n": n})
        await bus.publish("t", {"n": 3})  # refused: queued, and the reader takes it and waits
        await asyncio.sleep(0)
        for n in (4, 5):  # the reader holds 3: queued, not offered
            await bus.publish("t", {"n": n})
        reader_may_go.set()
        await asyncio.sleep(0.01)  # the reader catches up
        for n in range(6, 11):  # at once again, 7 refused and read
            await bus.publish("t", {"n": n})
            await asyncio.sleep(0.01)
        for n in range(11, 15):  # 11 breaks the handler: queued; the rest queued behind it, or read
            await bus.publish("t", {"n": n})
        await asyncio.wait_for(task, 5)
        await sub.close()
        return seen, offered

    seen, offered = asyncio.run(go())
    assert [n for _, n in seen] == list(range(15)), seen
    assert [n for how, n in seen if how == "direct"] == [0, 1, 2, 6, 8, 9, 10]
    assert 4 not in offered and 5 not in offered and 12 not in offered  # never offered past a queued one
    assert "delivering a message directly failed" in caplog.text


def test_without_a_handler_everything_is_queued() -> None:
    async def go() -> list[int]:
        bus = MemoryBus(maxsize=100)
        sub = await bus.subscribe("t")
        sub.deliver_directly(lambda message: True)
        sub.deliver_directly(None)
        for n in range(3):
            await bus.publish("t", {"n": n})
        queued = sub._queue  # type: ignore[attr-defined]
        waiting = [queued.get_nowait()["n"] for _ in range(queued.qsize())]
        await sub.close()
        return waiting

    assert asyncio.run(go()) == [0, 1, 2]
