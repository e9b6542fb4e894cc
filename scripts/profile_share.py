"""Where a node's profile samples go, by the code they were in: the collapsed stacks of ``hokm loadtest
--profile`` (one file per node) bucketed by the first of these a stack passes through.

    python scripts/profile_share.py DIR/node0.txt [DIR/node1.txt ...] [--leaves N]

Buckets, in the order a stack is tested: redis-py (its client and parsers), the Redis bus's own
code, the requests to a table's owner node (``cluster/rpc.py``, ``cluster/lobby.py``), storage
(``storage/``, asyncpg), views and frames (``wire.py``, the engine), the WebSocket protocol (uvicorn,
websockets, Starlette), the event loop alone, and the rest. Prints each file's samples per bucket.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

BUCKETS: list[tuple[str, tuple[str, ...]]] = [
    ("redis-py", ("redis/asyncio", "redis/_parsers", "redis/client", "redis/connection")),
    ("Redis bus", ("bus/redis.py",)),
    ("owner requests", ("cluster/rpc.py", "cluster/lobby.py")),
    ("storage", ("storage/", "asyncpg")),
    ("views and frames", ("wire.py", "engine/")),
    ("WebSocket protocol", ("websockets", "starlette")),
]


def bucket(stack: str) -> str:
    for name, marks in BUCKETS:
        if any(m in stack for m in marks):
            return name
    return "event loop" if stack.count(";") < 10 and "runners.py" in stack else "other"


def shares(path: Path) -> tuple[int, Counter[str]]:
    total, out = 0, Counter[str]()
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        total += int(n)
        out[bucket(stack)] += int(n)
    return total, out


def leaves(paths: list[Path]) -> tuple[int, Counter[str]]:
    """The samples of all ``paths`` by their innermost frame (function and line)."""
    total, out = 0, Counter[str]()
    for path in paths:
        for line in path.read_text().splitlines():
            stack, _, n = line.rpartition(" ")
            if not stack or not n.isdigit():
                continue
            total += int(n)
            out[stack.rsplit(";", 1)[-1]] += int(n)
    return total, out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--leaves", type=int, default=0, metavar="N",
                   help="also the N innermost frames with the most samples, over all the files together")
    args = p.parse_args()
    for path in args.files:
        total, out = shares(path)
        print(f"{path}: {total} samples; " + ", ".join(f"{k} {v}" for k, v in out.most_common()))
    if args.leaves:
        total, out = leaves(args.files)
        for frame, n in out.most_common(args.leaves):
            print(f"{100 * n / total:5.1f} %  {n:5d}  {frame}")


if __name__ == "__main__":
    main()
