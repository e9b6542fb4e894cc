"""Server CPU per action and one node's capacity, this tree against an older one, in one sitting.

    python scripts/measure_server.py cpu --before-src /tmp/base/src --out /tmp/cpu
    python scripts/measure_server.py sqlite --before-src /tmp/base/src --out /tmp/sqlite
    python scripts/measure_server.py cluster --before-src /tmp/base/src --out /tmp/cluster
    python scripts/measure_server.py capacity --tables 1000,1500 --before-src /tmp/base/src --out /tmp/cap
    python scripts/measure_server.py capacity --tables 2000 --out /tmp/cap          # this tree only
    python scripts/measure_server.py churn --tables 1000 --before-src /tmp/base/src --out /tmp/churn
    python scripts/measure_server.py batches --before-src /tmp/base/src --out /tmp/batches

``--before-src`` is the ``src`` folder of the older tree (``git archive <commit> src | tar -x -C DIR``);
its nodes run with it first on ``PYTHONPATH`` (and so with their own Numba cache: import its
search kernels once before, or the first node start compiles them). The load tool is always this
tree's ``hokm loadtest``, pointed at nodes started here with ``--url`` and ``--pid``; for an older
server that refuses the room code in ``sit`` (an unknown field to it) the tool runs with that
field left out. Each PostgreSQL run gets a fresh database; the cluster runs use Redis on its
standard port. One line per run is printed and each run's JSON report is kept in ``--out``.

``--before-without hiredis`` runs the older tree's nodes as if a package were not installed (one
that this tree's extras added since).

``cpu``: two rounds, alternating, of a saturating load (200 tables, players deciding in 20 ms on
average, 30 s measured after 5 s): before and after on SQLite, after without permessage-deflate
and after compressing every message (``HOKM_WS_COMPRESS_MIN=0``), before and after on
PostgreSQL, before with two nodes, after with two nodes spread and with ``--route owner``. ``cluster``: one PostgreSQL node against two nodes with Redis (players spread
over both, and each table's players on its owner), two rounds, at a steady load of about 100
actions a second (100 tables, players deciding in 1 s on average) that leaves the machine's cores
part idle, so that the CPU per action compares the work and not the contention. ``sqlite``: one SQLite node before and after, two rounds, alternating, at the saturating load and at
the steady one. ``capacity``:
4-player tables at a human pace (3 s a decision on average), 60 s measured after 10 s, on SQLite,
for each ``--tables`` count. ``churn``: the same human pace with 20 players a second losing their
connection and connecting again (``hokm loadtest --churn 20``), two rounds, alternating, for each
``--tables`` count. ``batches``: the saturating load on one SQLite node and one PostgreSQL node,
two rounds, alternating: before, then after with players taking one message per event (``--events
each``), one message per batch with the whole view (``--events batched``) and one message per batch
with the view as a patch (``--events patched``, as the web table); ``--load steady``: at the steady
load instead. A server is driven with the most its ``hello`` takes when the arguments do not say.
``--rounds N``: N rounds where these say two (the machine's own speed can swing by a fifth from
one minute to the next; a change of a tenth needs more than two rounds to show).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"
SATURATING = ["--tables", "200", "--think", "20", "--duration", "30", "--warmup", "5", "--no-echo"]
#: A steady load well below what one node sustains (about 100 actions a second), so that neither one
#: node nor two, beside the load tool, PostgreSQL and Redis, use up the machine's cores.
STEADY = ["--tables", "100", "--think", "1000", "--duration", "30", "--warmup", "5", "--no-echo"]


def fresh_database() -> str:
    import asyncpg

    name = "measure_" + uuid.uuid4().hex[:10]

    async def make() -> None:
        conn = await asyncpg.connect(PG_ADMIN)
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()

    asyncio.run(make())
    return f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"


def run(label: str, out: Path, *, before_src: str | None, nodes: int = 1, pg: bool = False,
        env: dict[str, str] | None = None, args: list[str]) -> dict[str, Any]:
    from hokm.loadtest.nodes import start_node

    folder = out / f"nodes-{label}"
    shutil.rmtree(folder, ignore_errors=True)
    node_env = dict(env or {})
    if before_src:
        node_env["PYTHONPATH"] = before_src
        if BEFORE_WITHOUT:
            node_env["PYTHONPATH"] += os.pathsep + str(without(out, BEFORE_WITHOUT))
    if pg or nodes > 1:
        node_env["HOKM_DATABASE_URL"] = fresh_database()
    if nodes > 1:
        node_env |= {"HOKM_REDIS_URL": REDIS, "HOKM_REDIS_PREFIX": "measure" + uuid.uuid4().hex[:8]}
    started = []
    try:
        for i in range(nodes):
            started.append(start_node(f"node{i}", folder, node_env, timeout=600))
        tool = ([sys.executable, __file__, "tool-without-room-code"] if before_src and not takes_room_code(before_src)
                else [sys.executable, "-m", "hokm.cli.main"])
        if PROFILE:
            args = [*args, "--profile", str(out / f"profile-{label}")]
        if before_src and "--events" not in args and events_taken(before_src) != "patched":
            args = [*args, "--events", events_taken(before_src)]  # its hello refuses the fields it predates
        cmd = [*tool, "loadtest", *[x for n in started for x in ("--url", n.url)],
               *[x for n in started for x in ("--pid", str(n.pid))], *args, "--json"]
        t0 = time.gmtime()
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        whole = [full_collections(n.url) for n in started]
    finally:
        for n in started:
            n.terminate()
    if done.returncode != 0:
        print(f"{label}: the load tool failed: {done.stderr[-2000:]}", flush=True)
        return {}
    report: dict[str, Any] = json.loads(done.stdout)
    report |= {"label": label, "started_utc": time.strftime("%H:%M:%S", t0), "before_src": before_src,
               "full_collections_whole_run": whole}
    (out / f"{label}.json").write_text(json.dumps(report, indent=1))
    g = report["game"]
    s = g["server"]
    cpa = s.get("cpu_per_action") or {}
    load = open("/proc/loadavg").read().split()[:3]
    print(f"{report['started_utc']} {label}: {g['actions_per_s']} actions/s, {g.get('messages_per_action')} table "
          f"messages ({g.get('message_bytes_per_action')} bytes) per action, server CPU per action "
          f"{cpa.get('ms_per_action')} ms (by node {[n.get('ms_per_action') for n in (cpa.get('nodes') or {}).values()]}), "
          f"latency p50 {g['latency_ms']['p50']} p99 {g['latency_ms']['p99']} max {g['latency_ms']['max']} ms, "
          f"server CPU {s['cpu_percent_mean']} %, load generator {s.get('generator_cpu_percent')} %, "
          f"errors {g['errors'] or 'none'}, reconnects {g['reconnects']}, dropped {g.get('dropped', 0)}, "
          f"load average {' '.join(load)}; full collections over the whole run, set-up included, by node "
          f"{[(w['count'], w['seconds']) for w in whole]} (count, seconds)", flush=True)
    return report


def full_collections(url: str) -> dict[str, float]:
    """How many full garbage collections a node made since it started, and their seconds in all (its
    ``/metrics``, read after the load tool is done: the set-up included, which the tool's own window leaves out)."""
    import re

    import httpx

    text = httpx.get(url.rstrip("/") + "/metrics", timeout=30).text
    found = dict(re.findall(r'^hokm_gc_pause_seconds_(count|sum)\{kind="full"\} (\S+)$', text, re.M))
    return {"count": int(float(found.get("count", 0))), "seconds": round(float(found.get("sum", 0)), 3)}


#: Modules the older tree's nodes run without (``--before-without``): packages this tree's extras
#: added since, which its nodes would otherwise find installed and use.
BEFORE_WITHOUT: list[str] = []
#: ``--profile``: each run samples its nodes with py-spy into ``<out>/profile-<label>`` (``scripts/profile_share.py``).
PROFILE: list[bool] = []


def without(out: Path, modules: list[str]) -> Path:
    """A folder that, first on ``PYTHONPATH``, makes importing each of ``modules`` fail as if it
    were not installed."""
    folder = out / "without"
    folder.mkdir(parents=True, exist_ok=True)
    for name in modules:
        (folder / f"{name}.py").write_text(f'raise ImportError("{name}: left out for the older tree")\n')
    return folder


def takes_room_code(src: str) -> bool:
    """Whether the server in ``src`` accepts the room code in ``sit`` (later trees do)."""
    protocol = Path(src) / "hokm" / "server" / "protocol.py"
    text = protocol.read_text(encoding="utf-8")
    sit = text[text.index("class SitRequest"):]
    return "code:" in sit[:sit.index("\nclass ")]


def events_taken(src: str) -> str:
    """The most the server in ``src`` lets ``hello`` ask for: ``patched`` (a batch of events as one
    message with a view patch), ``batched`` (one message, the whole view) or ``each`` (older trees)."""
    text = (Path(src) / "hokm" / "server" / "protocol.py").read_text(encoding="utf-8")
    hello = text[text.index("class CHello"):]
    hello = hello[:hello.index("\nclass ")]
    return "patched" if "view_patches:" in hello else "batched" if "batch:" in hello else "each"


def tool_without_room_code(argv: list[str]) -> int:
    """``hokm`` with the load tool's ``sit`` leaving out the room code, for servers that predate it."""
    import hokm.loadtest.client as client
    from hokm.cli.main import main

    post = client._post

    async def post_without_code(http: Any, url: str, body: dict[str, Any], token: str | None = None) -> Any:
        if url.endswith("/sit"):
            body = {k: v for k, v in body.items() if k != "code"}
        return await post(http, url, body, token)

    client._post = post_without_code  # type: ignore[assignment]
    return main(argv)


def main() -> int:
    if sys.argv[1:2] == ["tool-without-room-code"]:
        return tool_without_room_code(sys.argv[2:])
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("cpu", "sqlite", "cluster", "capacity", "churn", "batches"))
    p.add_argument("--before-src", default=None, help="the older tree's src folder (leave out: this tree only)")
    p.add_argument("--tables", default="1000", help="capacity, churn: table counts, comma-separated")
    p.add_argument("--load", choices=("saturating", "steady"), default="saturating", help="batches: the load")
    p.add_argument("--out", type=Path, required=True, help="folder for the reports and the nodes' logs")
    p.add_argument("--before-without", default="", help="modules the older tree's nodes run without, comma-separated "
                   "(packages added to the extras since, e.g. hiredis)")
    p.add_argument("--rounds", type=int, default=2, help="rounds of each comparison (default 2); on a noisy machine "
                   "more rounds, alternating, separate a small change from the machine's own swings")
    p.add_argument("--profile", action="store_true", help="sample each run's nodes with py-spy (hokm loadtest --profile)")
    a = p.parse_args()
    BEFORE_WITHOUT[:] = [m for m in a.before_without.split(",") if m]
    PROFILE[:] = [True] if a.profile else []
    a.out.mkdir(parents=True, exist_ok=True)
    before = a.before_src
    if a.what == "cpu":
        for r in range(1, a.rounds + 1):
            if before:
                run(f"r{r}-before-sqlite", a.out, before_src=before, args=SATURATING)
            run(f"r{r}-after-sqlite", a.out, before_src=None, args=SATURATING)
            run(f"r{r}-after-sqlite-no-deflate", a.out, before_src=None, env={"HOKM_WS_COMPRESSION": "false"},
                args=SATURATING)
            run(f"r{r}-after-sqlite-deflate-all", a.out, before_src=None, env={"HOKM_WS_COMPRESS_MIN": "0"},
                args=SATURATING)
            if before:
                run(f"r{r}-before-pg", a.out, before_src=before, pg=True, args=SATURATING)
            run(f"r{r}-after-pg", a.out, before_src=None, pg=True, args=SATURATING)
            if before:
                run(f"r{r}-before-2nodes", a.out, before_src=before, nodes=2, args=SATURATING)
            run(f"r{r}-after-2nodes-spread", a.out, before_src=None, nodes=2, args=SATURATING)
            run(f"r{r}-after-2nodes-owner", a.out, before_src=None, nodes=2, args=[*SATURATING, "--route", "owner"])
    elif a.what == "sqlite":
        for r in range(1, a.rounds + 1):
            for label, src in (("before", before), ("after", None)):
                if label == "before" and not before:
                    continue
                run(f"r{r}-{label}-sqlite-saturating", a.out, before_src=src, args=SATURATING)
                run(f"r{r}-{label}-sqlite-steady", a.out, before_src=src, args=STEADY)
    elif a.what == "cluster":
        for r in range(1, a.rounds + 1):
            for label, src in (("before", before), ("after", None)):
                if label == "before" and not before:
                    continue
                run(f"r{r}-{label}-pg", a.out, before_src=src, pg=True, args=STEADY)
                run(f"r{r}-{label}-2nodes-spread", a.out, before_src=src, nodes=2, args=STEADY)
                run(f"r{r}-{label}-2nodes-owner", a.out, before_src=src, nodes=2, args=[*STEADY, "--route", "owner"])
    elif a.what == "batches":
        load = SATURATING if a.load == "saturating" else STEADY
        for r in range(1, a.rounds + 1):
            for pg, store in ((False, "sqlite"), (True, "pg")):
                if before:
                    run(f"r{r}-before-{store}", a.out, before_src=before, pg=pg, args=load)
                for events in ("each", "batched", "patched"):
                    run(f"r{r}-after-{store}-{events}", a.out, before_src=None, pg=pg, args=[*load, "--events", events])
    elif a.what == "churn":
        for tables in [int(x) for x in a.tables.split(",")]:
            human = ["--tables", str(tables), "--think", "3000", "--duration", "60", "--warmup", "10", "--no-echo",
                     "--churn", "20"]
            for r in range(1, a.rounds + 1):
                if before:
                    run(f"r{r}-churn-{tables}-before", a.out, before_src=before, args=human)
                run(f"r{r}-churn-{tables}-after", a.out, before_src=None, args=human)
    else:
        for tables in [int(x) for x in a.tables.split(",")]:
            human = ["--tables", str(tables), "--think", "3000", "--duration", "60", "--warmup", "10", "--no-echo"]
            if before:
                run(f"capacity-{tables}-before", a.out, before_src=before, args=human)
            run(f"capacity-{tables}-after", a.out, before_src=None, args=human)
    return 0


if __name__ == "__main__":
    sys.exit(main())
