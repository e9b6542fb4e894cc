"""``hokm bench startup``: seconds from launching ``hokm serve`` or ``hokm play`` to a playable game.

Each run starts the real command as a subprocess with its own Numba cache folder
(``NUMBA_CACHE_DIR``) and records when the first line reached stderr (the progress of a first
run) and when the game could start: the server's "hokm server ready" line, or ``hokm play``'s
first prompt to the person. ``--cache cold`` gives every run an empty cache (the first run after
an install: the search kernels are compiled); ``--cache warm`` uses the usual cache (Numba's
default place, or ``NUMBA_CACHE_DIR`` when set), fills it first if needed, untimed, and starts
every run from it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HELP = "seconds from launching hokm serve or hokm play to a playable game, cold or warm Numba cache"
READY = {"serve": re.compile(rb"hokm server ready: "), "play": re.compile(rb"> $")}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("command", choices=("serve", "play"), help="the command to start")
    parser.add_argument("--cache", choices=("cold", "warm"), default="warm", help="Numba cache state (default warm)")
    parser.add_argument("--runs", type=int, default=3, help="launches to time (default 3)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds one launch may take (default 600)")
    parser.add_argument("--first-line-only", action="store_true",
                        help="stop each launch at its first stderr line (cold: time to the first progress)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _argv(command: str, folder: Path) -> list[str]:
    base = [sys.executable, "-m", "hokm.cli.main", command]
    if command == "serve":
        return base + ["--port", "0", "--data-dir", str(folder / "data"), "--log-level", "warning"]
    return base + ["--bots", "expert", "--seed", "1", "--workers", "1"]


def launch(command: str, cache: Path | None, timeout: float, first_line_only: bool = False) -> dict[str, float | None]:
    """One timed launch: seconds to the first stderr line and to the game being playable."""
    with tempfile.TemporaryDirectory(prefix="hokm-startup-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("HOKM_")}
        env |= {"PYTHONUNBUFFERED": "1", "TERM": "dumb", "COLUMNS": "100"}
        if cache is not None:
            env["NUMBA_CACHE_DIR"] = str(cache)
        start = time.monotonic()
        proc = subprocess.Popen(_argv(command, Path(tmp)), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env)
        assert proc.stdout is not None and proc.stderr is not None
        first_err: float | None = None
        ready: float | None = None
        out = b""
        try:
            while ready is None and time.monotonic() - start < timeout:
                if first_line_only and first_err is not None:
                    break
                readable, _, _ = select.select([proc.stdout, proc.stderr], [], [], 0.05)
                for stream in readable:
                    chunk = os.read(stream.fileno(), 65536)
                    if stream is proc.stderr and chunk and first_err is None:
                        first_err = time.monotonic() - start
                    if stream is proc.stdout:
                        out = (out + chunk)[-4096:]
                        if READY[command].search(out):
                            ready = time.monotonic() - start
                if proc.poll() is not None and not readable:
                    break
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM if command == "serve" else signal.SIGKILL)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            for pipe in (proc.stdin, proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
        return {"first_stderr_s": first_err, "ready_s": ready}


def run(args: argparse.Namespace) -> int:
    results = []
    if args.cache == "warm":  # fill the usual cache, untimed
        subprocess.run([sys.executable, "-c", "from hokm.search.prepare import prepare; prepare(print)"],
                       check=True, stdout=subprocess.DEVNULL)
    for _ in range(args.runs):
        if args.cache == "cold":
            with tempfile.TemporaryDirectory(prefix="hokm-numba-") as empty:
                results.append(launch(args.command, Path(empty), args.timeout, args.first_line_only))
        else:
            results.append(launch(args.command, None, args.timeout, args.first_line_only))
    ready = [r["ready_s"] for r in results if r["ready_s"] is not None]
    if args.first_line_only:
        ready = [r["first_stderr_s"] for r in results if r["first_stderr_s"] is not None]
    report = {"command": args.command, "cache": args.cache, "runs": results,
              ("median_first_stderr_s" if args.first_line_only else "median_ready_s"):
                  statistics.median(ready) if ready else None,
              "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None}
    if args.json:
        print(json.dumps(report))
    else:
        for r in results:
            first = "-" if r["first_stderr_s"] is None else f"{r['first_stderr_s']:.2f} s"
            done = "not ready" if r["ready_s"] is None else f"{r['ready_s']:.2f} s"
            print(f"hokm {args.command}, {args.cache} cache: first stderr line {first}, playable {done}")
        what = "the first stderr line" if args.first_line_only else "playable"
        median = report.get("median_first_stderr_s", report.get("median_ready_s"))
        print(f"median to {what}: " + ("-" if median is None else f"{median:.2f} s"))
    return 0 if len(ready) == len(results) else 1
