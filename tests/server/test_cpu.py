"""The worker pool for CPU-heavy requests: another process, a bounded line, clean shutdown."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from hokm.server.cpu import Busy, CpuPool


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_work_runs_in_another_process_and_the_line_is_bounded() -> None:
    async def main() -> None:
        pool = CpuPool(processes=1, capacity=2)
        try:
            assert await pool.run(_pid_after, 0) != os.getpid()
            slow = [asyncio.create_task(pool.run(_pid_after, 0.5)) for _ in range(2)]
            await asyncio.sleep(0.05)
            with pytest.raises(Busy):
                await pool.run(_pid_after, 0)
            await asyncio.gather(*slow)
            assert await pool.run(_pid_after, 0) != os.getpid()  # room again
        finally:
            pool.close()

    asyncio.run(asyncio.wait_for(main(), 120))


def test_workers_end_when_the_server_is_killed(tmp_path) -> None:
    """A worker outlives a SIGKILLed server only until it notices (about a second)."""
    import signal
    import subprocess
    import sys

    code = ("import asyncio, os, sys\n"
            "from hokm.server.cpu import CpuPool\n"
            "async def main():\n"
            "    pool = CpuPool(1)\n"
            "    print(await pool.run(os.getpid), flush=True)\n"
            "    await asyncio.sleep(60)\n"
            "asyncio.run(main())\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        assert proc.stdout is not None
        worker = int(proc.stdout.readline())
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and _alive(worker):
            time.sleep(0.2)
        assert not _alive(worker)
    finally:
        proc.kill()
        if worker and _alive(worker):
            os.kill(worker, signal.SIGKILL)  # leave nothing behind, even when the test fails


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return "State:\tZ" not in f.read()
    except FileNotFoundError:
        return False
