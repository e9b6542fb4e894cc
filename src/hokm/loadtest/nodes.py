"""Start and stop game server nodes (``hokm serve`` processes) for load runs and failure tests.

Each node is a real process on a free port, logging to a file in its own folder, that ends when
the process that started it ends (:func:`hokm.procs.child_dies_with_parent`); with several
nodes they share the database URL and Redis (``HOKM_REDIS_URL``) under one key prefix, so
concurrent runs on one Redis do not meet.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..procs import child_dies_with_parent

READY = re.compile(r"hokm server ready: (http://\S+?)/?\s")


@dataclass
class Node:
    name: str
    proc: subprocess.Popen[bytes]
    url: str
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def kill(self) -> None:
        """``kill -9``: no shutdown, no hand-over, leases left to expire."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def terminate(self, timeout: float = 20) -> int | None:
        """SIGTERM (graceful: hand the tables over), then wait."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode


@dataclass
class Cluster:
    nodes: list[Node] = field(default_factory=list)

    @property
    def urls(self) -> list[str]:
        return [n.url for n in self.nodes]

    def stop(self) -> None:
        for n in self.nodes:
            n.terminate()


#: A load test makes every guest and table from one address, at many times a real player's pace:
#: the per-address and per-account limits are lifted for it (the table count limit stays).
LOAD_LIMITS = {"HOKM_GUEST_RATE": "100000", "HOKM_GUEST_BURST": "100000", "HOKM_TABLE_RATE": "100000",
               "HOKM_TABLE_BURST": "100000", "HOKM_ADDRESS_TABLE_RATE": "100000",
               "HOKM_ADDRESS_TABLE_BURST": "100000", "HOKM_MAX_WAITING_PER_ADDRESS": "100000",
               "HOKM_MAX_CONNECTIONS_PER_ADDRESS": "1000000"}


def start_node(name: str, folder: Path, env: dict[str, str], timeout: float = 60) -> Node:
    """Start one node on a free port and wait until it prints its address."""
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"{name}.log"
    full = dict(os.environ) | {"HOKM_DATA_DIR": str(folder / "data"), "HOKM_NODE_ID": name} | LOAD_LIMITS | env
    with open(log, "wb") as out:
        # A node ends with the run that started it, even one killed with -9 (its bot workers end with it).
        proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "serve", "--port", "0", "--host", "127.0.0.1",
                                 "--log-level", "warning"], stdout=out, stderr=subprocess.STDOUT, env=full,
                                preexec_fn=child_dies_with_parent())
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = READY.search(log.read_text(errors="replace"))
        if m:
            return Node(name, proc, m.group(1), log)
        if proc.poll() is not None:
            raise RuntimeError(f"node {name} exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"node {name} did not start in {timeout} s:\n{log.read_text(errors='replace')[-3000:]}")


def start_cluster(count: int, folder: Path, env: dict[str, str]) -> Cluster:
    """Start ``count`` nodes with the same settings (``env``: ``HOKM_*`` variables)."""
    cluster = Cluster()
    try:
        for i in range(count):
            cluster.nodes.append(start_node(f"node{i}", folder, env))
    except BaseException:
        cluster.stop()
        raise
    return cluster
