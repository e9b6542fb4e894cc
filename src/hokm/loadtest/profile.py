"""Where a server node's time goes during a load run: py-spy samples over the measured window.

py-spy (a sampling profiler in its own process, in the ``dev`` extra) attaches to each server
process for the measured seconds, without pausing it (``--nonblocking``), and writes collapsed
stacks: one line per distinct stack, ``frame;frame;...;frame count``. :func:`summarise` reads
them into the functions that hold the most samples themselves (self) and with what they call
(total), so a run says where a node's CPU goes beside what it costs per action.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RATE = 100  # samples a second: enough over a 30 s window, cheap for the sampled process
TOP = 15


@dataclass
class Recording:
    name: str
    path: Path
    proc: asyncio.subprocess.Process


def py_spy() -> str | None:
    """The py-spy program: beside this Python (a virtual environment's bin) or on PATH."""
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


async def start(pids: list[int], names: list[str], folder: Path, seconds: float) -> list[Recording]:
    """Start one py-spy per process, recording ``seconds``; raises RuntimeError without py-spy."""
    program = py_spy()
    if program is None:
        raise RuntimeError("--profile needs py-spy: pip install -e '.[dev]' (or pip install py-spy)")
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for pid, name in zip(pids, names, strict=True):
        path = folder / f"{name.replace(' ', '-')}.txt"
        proc = await asyncio.create_subprocess_exec(
            program, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))), "--rate", str(RATE),
            "--format", "raw", "--gil", "--nonblocking", "--output", str(path),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        out.append(Recording(name, path, proc))
    return out


async def finish(recordings: list[Recording], timeout: float = 30.0) -> dict[str, Any]:
    """Wait for each py-spy to write its file; the summary of each node (or why it has none)."""
    result: dict[str, Any] = {}
    for r in recordings:
        try:
            _, err = await asyncio.wait_for(r.proc.communicate(), timeout)
        except TimeoutError:
            r.proc.kill()
            await r.proc.wait()
            result[r.name] = {"error": "py-spy did not finish"}
            continue
        if r.proc.returncode != 0 or not r.path.exists():
            last = (err or b"").decode(errors="replace").strip().splitlines()[-1:] or [f"exit {r.proc.returncode}"]
            result[r.name] = {"error": f"py-spy: {last[0]}"}
            continue
        result[r.name] = {"file": str(r.path)} | summarise(r.path.read_text(errors="replace"))
    return result


def _function(frame: str) -> str:
    """``name (path/to/module.py:123)`` -> ``name (module.py)``: one entry per function, not per line."""
    name, _, where = frame.partition(" (")
    file = where.rsplit(":", 1)[0].rstrip(")")
    return f"{name} ({Path(file).name})" if file else name


def _ours(frame: str) -> bool:
    """A frame in this project's code, not its command-line entry (``hokm serve`` holds every sample)."""
    where = frame.rpartition(" (")[2].replace("\\", "/")
    return (where.startswith("hokm/") or "/hokm/" in where) and "hokm/cli/" not in where


def summarise(collapsed: str, top: int = TOP) -> dict[str, Any]:
    """Samples in all; the ``top`` functions by self samples, and this project's by total samples.

    Total time is listed for the project's own functions only: the frames above them (the event
    loop, uvicorn, Starlette's routing) hold nearly every sample and say nothing.
    """
    self_counts: Counter[str] = Counter()
    total_counts: Counter[str] = Counter()
    samples = 0
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        samples += n
        frames = [f for f in stack.split(";") if f]
        if frames:
            self_counts[_function(frames[-1])] += n
        for f in {_function(f) for f in frames if _ours(f)}:
            total_counts[f] += n

    def share(counts: Counter[str]) -> list[dict[str, Any]]:
        return [{"function": f, "samples": c, "percent": round(100 * c / samples, 1)}
                for f, c in counts.most_common(top)] if samples else []

    return {"samples": samples, "self": share(self_counts), "total": share(total_counts)}


def format_profiles(profiles: dict[str, Any]) -> str:
    lines = []
    for name, p in profiles.items():
        if "error" in p:
            lines.append(f"{name}: no profile ({p['error']})")
            continue
        lines.append(f"{name}: {p['samples']} samples, collapsed stacks in {p['file']}")
        lines.append("  self time (the function itself):")
        lines += [f"    {e['percent']:5.1f} %  {e['function']}" for e in p["self"]]
        lines.append("  total time (with what it calls), this project's functions:")
        lines += [f"    {e['percent']:5.1f} %  {e['function']}" for e in p["total"]]
    return "\n".join(lines)
