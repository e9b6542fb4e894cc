"""How many nodes the four-player solver visits, and how long it takes, on random positions.

    python scripts/measure_solver_nodes.py [--positions 100] [--tricks 1,3] [--seed 1] [--endplay]
        [--perf-map]

For each trick asked, ``--positions`` random 4-player deals are played out with random legal cards
to the start of that trick (:func:`hokm.search.position.random_position`, the positions of
``hokm bench solver`` with the same seed), the transposition table is cleared, and
``dds.reaches(pos, side to move, 7)`` is timed (thread CPU time) with the nodes it visited
(:func:`hokm.search.dds.last_nodes`). Prints, per trick, the total, median and 90th percentile of
both. Node counts are exact, so two versions of the solver compare free of the machine's noise;
run another tree with ``PYTHONPATH=/path/to/its/src``.

It prints, besides all nodes, those at the start of a trick (:func:`hokm.search.dds.last_trick_nodes`).
``--endplay`` checks every answer against endplay's bridge solver (the ``dev`` extra), counts
disagreements and prints DDS's own node count beside, which counts the starts of a trick only, so
the two solvers' trees compare. ``--perf-map`` writes ``/tmp/perf-<pid>.map`` naming the solver's compiled
functions, so that ``perf record -F 1999 python scripts/measure_solver_nodes.py --perf-map`` and
``perf report --sort symbol`` show where the time goes (Numba writes no map of its own).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from hokm.rules import Rules
from hokm.search import _dds_kernel as K
from hokm.search import dds
from hokm.search.position import random_position


def write_perf_map() -> int:
    """Name every compiled function of the solver's kernel, and Numba's reference counting, for
    ``perf``; returns how many."""
    starts = set()
    for name in dir(K):
        for cres in getattr(getattr(K, name), "overloads", {}).values():
            starts.add((cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name), name))
            # Numba's reference counting, linked into each library (0 where a library has none)
            for helper in ("NRT_incref", "NRT_decref"):
                address = cres.library.get_pointer_to_function(helper)
                if address:
                    starts.add((address, helper))
    starts = sorted(starts)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (address, name) in enumerate(starts):
            # a function's code runs at most to the next one's start (Numba gives no sizes)
            end = starts[i + 1][0] if i + 1 < len(starts) else address + 0x10000
            out.write(f"{address:x} {min(end - address, 0x10000):x} {name}\n")
    return len(starts)


def summary(counts: list[int]) -> str:
    p90 = statistics.quantiles(counts, n=10)[-1] if len(counts) > 1 else counts[0]
    return f"total {sum(counts)} median {statistics.median(counts):.0f} p90 {p90:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--tricks", default="1,3", help="comma-separated tricks to measure at")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--endplay", action="store_true", help="check every answer against endplay")
    parser.add_argument("--perf-map", action="store_true", help="name the kernel's functions for perf")
    args = parser.parse_args()
    rules = Rules(players=4)
    dds.warm_up()
    if args.perf_map:
        print(f"perf map: {write_perf_map()} functions")
    if args.endplay:
        from hokm.bench.solver import endplay_search7
    rng = random.Random(args.seed)
    for trick in (int(t) for t in args.tricks.split(",")):
        nodes: list[int] = []
        starts: list[int] = []  # of them, the starts of a trick
        theirs: list[int] = []  # DDS's count (its nodes are the starts of a trick)
        times: list[float] = []
        their_times: list[float] = []
        bad = 0
        for _ in range(args.positions):
            pos = random_position(rules, rng, 14 - trick)
            dds.clear_table()
            t0 = time.thread_time()
            answer = dds.reaches(pos, pos.side_of(pos.to_move), 7)
            times.append((time.thread_time() - t0) * 1000)
            nodes.append(dds.last_nodes())
            starts.append(dds.last_trick_nodes())
            if args.endplay:
                t0 = time.thread_time()
                expected, counted = endplay_search7(pos)
                their_times.append((time.thread_time() - t0) * 1000)
                bad += answer != expected
                theirs.append(counted)
        p90 = statistics.quantiles(nodes, n=10)[-1] if len(nodes) > 1 else nodes[0]
        t90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
        print(f"trick {trick}: nodes total {sum(nodes)} median {statistics.median(nodes):.0f} p90 {p90:.0f}; "
              f"at a trick's start {summary(starts)}; "
              f"cpu ms total {sum(times):.0f} median {statistics.median(times):.2f} p90 {t90:.2f}"
              + (f"; DDS's nodes (at a trick's start) {summary(theirs)}, cpu ms total {sum(their_times):.0f} "
                 f"median {statistics.median(their_times):.2f}; disagreements with endplay {bad}"
                 if args.endplay else ""))


if __name__ == "__main__":
    main()
