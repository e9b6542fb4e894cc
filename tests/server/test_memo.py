"""What finished games' answers are kept, and one computation shared by everyone who asks meanwhile."""

from __future__ import annotations

import asyncio

import pytest

from hokm.server.memo import Memo


def test_the_least_recently_used_go_first_by_count_and_by_size() -> None:
    memo: Memo[str, bytes] = Memo(3, budget=10, weigh=len)
    memo.put("a", b"1234")
    memo.put("b", b"1234")
    assert memo.get("a") == b"1234"  # now the most recent
    memo.put("c", b"1234")  # 12 units: "b" goes
    assert memo.get("b") is None and memo.get("a") and memo.get("c")
    memo.put("huge", b"x" * 11)  # more than the whole budget: not kept, nothing else lost
    assert memo.get("huge") is None and memo.get("a") and memo.get("c")
    memo.put("d", b"")
    memo.put("e", b"")  # four answers: the count bound takes the oldest
    assert memo.get("a") is None and memo.get("e") == b""


def test_requests_meanwhile_share_one_computation_and_its_failure() -> None:
    async def main() -> None:
        memo: Memo[str, int] = Memo(8)
        calls = 0
        gate = asyncio.Event()

        async def compute() -> int:
            nonlocal calls
            calls += 1
            await gate.wait()
            return 42

        waiting = [asyncio.ensure_future(memo.get_or_compute("k", compute)) for _ in range(5)]
        await asyncio.sleep(0)
        gate.set()
        assert await asyncio.gather(*waiting) == [42] * 5 and calls == 1
        assert await memo.get_or_compute("k", compute) == 42 and calls == 1  # kept

        async def fails() -> int:
            await asyncio.sleep(0.01)
            raise ValueError("no")

        tries = [asyncio.ensure_future(memo.get_or_compute("bad", fails)) for _ in range(3)]
        results = await asyncio.gather(*tries, return_exceptions=True)
        assert all(isinstance(r, ValueError) for r in results)
        assert memo.get("bad") is None  # a failure is not kept: the next request computes again

    asyncio.run(main())


def test_a_computation_whose_asker_left_is_taken_up_by_one_that_waited() -> None:
    async def main() -> None:
        memo: Memo[str, str] = Memo(8)
        started = asyncio.Event()

        async def slow() -> str:
            started.set()
            await asyncio.sleep(10)
            return "never"

        async def quick() -> str:
            return "done"

        first = asyncio.ensure_future(memo.get_or_compute("k", slow))
        await started.wait()
        second = asyncio.ensure_future(memo.get_or_compute("k", quick))
        await asyncio.sleep(0)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        assert await asyncio.wait_for(second, 2) == "done"

    asyncio.run(main())
