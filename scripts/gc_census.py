"""What a node leaves for the garbage collector: the cycles a load run makes, counted by type.

    python scripts/gc_census.py -- --tables 50 --think 30 --duration 60 --churn 5

Starts a node (``hokm serve``, its own data folder, the load tool's lifted limits) that, when told
(``SIGUSR1``), unfreezes its heap and runs a full collection with the collector's
``DEBUG_SAVEALL`` flag, so that every object found unreachable is kept and counted by type, then
freed. It is told once after start-up, to clear what starting left, then the load tool runs
against it (``hokm loadtest --url ... --pid ...`` with the arguments after ``--``), its
connections close, and it is told again: what that census counts is what the run left in cycles,
which only a full collection would have freed. Reference counting frees everything else at once,
so on a node without leaks the second census is (nearly) empty. Prints both, and the frames and
exceptions among the objects, which say where a cycle was made.
"""

from __future__ import annotations

import collections
import gc
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def census(out: Path) -> None:
    """In the node: a full collection that keeps what it finds, counted into ``out``; then freed."""
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = list(gc.garbage)
        gc.garbage.clear()
    finally:
        gc.set_debug(0)
    types = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in found)
    frames = collections.Counter(f"{o.f_code.co_name} ({Path(o.f_code.co_filename).name}:{o.f_lineno})"
                                 for o in found if type(o).__name__ == "frame")
    errors = collections.Counter(type(o).__name__ for o in found if isinstance(o, BaseException))
    del found
    gc.collect()  # what was kept is unreachable again: freed now, not frozen
    gc.freeze()
    out.write_text(json.dumps({"objects": sum(types.values()), "types": types.most_common(25),
                               "frames": frames.most_common(15), "exceptions": errors.most_common(10)}))


def node_main(out: Path, argv: list[str]) -> int:
    signal.signal(signal.SIGUSR1, lambda *_: census(out))
    from hokm.cli.main import main

    return main(argv)


def ask(proc: subprocess.Popen[bytes], out: Path) -> dict[str, Any]:
    out.unlink(missing_ok=True)
    proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 120
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(0.2)
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def show(title: str, c: dict[str, Any]) -> None:
    print(f"{title}: {c['objects']} objects in cycles")
    for key in ("types", "frames", "exceptions"):
        for name, n in c[key]:
            print(f"  {n:7d}  {name}")


def main() -> int:
    if sys.argv[1:2] == ["node"]:
        return node_main(Path(sys.argv[2]), sys.argv[3:])
    load = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else ["--tables", "20", "--duration", "20"]
    from hokm.loadtest.nodes import LOAD_LIMITS

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "census.json"
        proc = subprocess.Popen([sys.executable, __file__, "node", str(out), "serve", "--port", "0", "--data-dir",
                                 str(Path(tmp) / "data"), "--log-level", "warning"],
                                stdout=subprocess.PIPE, env={**os.environ, **LOAD_LIMITS})
        try:
            assert proc.stdout is not None
            url = None
            deadline = time.monotonic() + 300
            while url is None and time.monotonic() < deadline and proc.poll() is None:
                if select.select([proc.stdout], [], [], 0.5)[0]:
                    line = proc.stdout.readline()
                    if line.startswith(b"hokm server ready: "):
                        url = line.split()[3].decode().rstrip("/")
            if url is None:
                print("the node did not start", file=sys.stderr)
                return 1
            time.sleep(2)
            show("after start-up", ask(proc, out))
            run = subprocess.run([sys.executable, "-m", "hokm.cli.main", "loadtest", "--url", url, "--pid",
                                  str(proc.pid), "--no-echo", *load], text=True)
            if run.returncode != 0:
                return run.returncode
            time.sleep(3)  # the connections' clean-up
            show("after the load run", ask(proc, out))
        finally:
            proc.terminate()
            proc.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
