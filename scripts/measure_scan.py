"""What a cluster node's takeover scan costs it, by the number of live tables, before and after.

    python scripts/measure_scan.py [--tables 100,2500] [--rounds 50]

Makes ``--tables`` live tables with a lease each in Redis (standard local port, a throwaway key
prefix, removed after), then times ``--rounds`` scans of each kind in this process (thread CPU time,
which is the node's cost; Redis's own is not counted): the old scan, which read the live set and
every table's lease (``SMEMBERS`` then ``MGET``, each lease parsed), and :meth:`Leases.unowned`,
one script whose answer holds only the tables without a lease (none here: every lease is held).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import time

from hokm.server.cluster.lease import Leases, parse_lease

REDIS = "redis://127.0.0.1:6379/0"


async def measure(tables: int, rounds: int) -> tuple[float, float]:
    import redis.asyncio as aioredis

    r = aioredis.from_url(REDIS)
    prefix = "measure-scan-" + secrets.token_hex(4)
    leases = Leases(r, prefix, "node0", 60.0)
    try:
        for i in range(0, tables, 500):
            ids = [f"t{k:05d}" for k in range(i, min(tables, i + 500))]
            async with r.pipeline(transaction=False) as p:
                for t in ids:
                    p.set(leases.key(t), f"node0|{i + 1}", px=60_000)
                p.sadd(leases.live_key, *ids)
                await p.execute()

        async def old() -> None:
            live = await leases.live()
            raws = await r.mget([leases.key(t) for t in live]) if live else []
            [parse_lease(t, raw) for t, raw in zip(live, raws)]

        out = []
        for scan in (old, leases.unowned):
            await scan()  # warm: the script loaded, the connection made
            t0 = time.thread_time()
            for _ in range(rounds):
                await scan()
            out.append((time.thread_time() - t0) / rounds * 1000)
        return out[0], out[1]
    finally:
        keys = [k async for k in r.scan_iter(f"{prefix}:*")]
        if keys:
            await r.delete(*keys)
        await r.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="100,2500")
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    for n in (int(x) for x in args.tables.split(",")):
        before, after = asyncio.run(measure(n, args.rounds))
        print(f"{n:>6} live tables: every lease read {before:7.3f} ms, only those without one {after:7.3f} ms "
              "of this process's CPU a scan")


if __name__ == "__main__":
    main()
