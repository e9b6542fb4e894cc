"""What waking costs an idle process: on-CPU time of an event loop whose one task sleeps between wake-ups.

    python scripts/measure_wakeups.py [--seconds 10]

For each period (never, every second, every quarter second, every tenth), a fresh process runs
uvloop with one task that sleeps that long again and again, and reports its on-CPU milliseconds a
second over ``--seconds``, read from ``/proc/self/schedstat`` (the scheduler's own count, not the
tick-sampled ``utime``). What a server does on a timer while it has nothing to do costs about this
much, on top of the work itself.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

CHILD = """
import asyncio, sys, time
import uvloop

def on_cpu():
    with open("/proc/self/schedstat") as f:
        return int(f.read().split()[0]) / 1e9

async def main(period, seconds):
    async def tick():
        while True:
            await asyncio.sleep(period)
    if period > 0:
        asyncio.ensure_future(tick())
    await asyncio.sleep(1)
    c0, t0 = on_cpu(), time.monotonic()
    await asyncio.sleep(seconds)
    print((on_cpu() - c0) / (time.monotonic() - t0) * 1000)

uvloop.run(main(float(sys.argv[1]), float(sys.argv[2])))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    for label, period in (("never", 0.0), ("every second", 1.0), ("every 0.25 s", 0.25), ("every 0.1 s", 0.1)):
        out = subprocess.run([sys.executable, "-c", CHILD, str(period), str(args.seconds)],
                             capture_output=True, text=True, check=True).stdout
        print(f"wakes {label:>14}: {float(out):6.2f} ms of CPU a second")


if __name__ == "__main__":
    main()
