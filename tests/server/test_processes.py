"""No process left behind: worker pools end with the command that started them, however it ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from .harness import ServerProcess

pytestmark = pytest.mark.timeout(240)
SEARCH_BOTS = {"HOKM_DEFAULT_BOT": "medium"}  # a search level: the server starts its bot worker processes


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def wait_for_workers(pid: int, count: int, timeout: float = 60.0) -> list[psutil.Process]:
    """The process's descendants once ``count`` of them are multiprocessing workers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kids = descendants(pid)
        workers = [k for k in kids if "spawn_main" in " ".join(_cmdline(k))]
        if len(workers) >= count:
            return kids
        time.sleep(0.2)
    raise AssertionError(f"no {count} worker processes under {pid}: {[_cmdline(k) for k in descendants(pid)]}")


def _cmdline(p: psutil.Process) -> list[str]:
    try:
        return p.cmdline()
    except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
        return []


def assert_all_end(procs: list[psutil.Process], timeout: float = 15.0) -> None:
    """Every process in ``procs`` ends within ``timeout`` (those left are killed, then reported)."""
    _, alive = psutil.wait_procs(procs, timeout=timeout)
    alive = [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    left = [(p.pid, _cmdline(p)) for p in alive]
    for p in alive:
        p.kill()
    assert not left, f"processes outlived their parent: {left}"


def test_a_server_killed_with_9_leaves_no_bot_worker(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, **SEARCH_BOTS).start()
    try:
        assert server.proc is not None
        kids = wait_for_workers(server.proc.pid, 2)
        server.kill9()
        assert_all_end(kids)
    finally:
        server.stop()


def test_a_server_stopped_with_sigterm_exits_cleanly_and_takes_its_workers(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, **SEARCH_BOTS).start()
    try:
        assert server.proc is not None
        kids = wait_for_workers(server.proc.pid, 2)
        server.proc.send_signal(signal.SIGTERM)
        status = server.proc.wait(30)
        assert_all_end(kids)
        log = (tmp_path / "server.log").read_text(errors="replace")
        assert "leaked semaphore" not in log and "Traceback" not in log, log[-3000:]
        # It ended as a program does (its exit handlers ran), not killed by the signal raised again.
        assert status == 0, (status, log[-3000:])
    finally:
        server.stop()


def test_a_server_stopped_with_ctrl_c_stops_gracefully_with_status_130(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path).start()
    try:
        assert server.proc is not None
        server.proc.send_signal(signal.SIGINT)
        status = server.proc.wait(30)
        log = (tmp_path / "server.log").read_text(errors="replace")
        assert status == 130 and "Traceback" not in log, (status, log[-3000:])
    finally:
        server.stop()


def test_hokm_play_killed_with_9_leaves_no_search_helper() -> None:
    env = dict(os.environ, COLUMNS="100", TERM="dumb", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "play", "--bots", "medium", "--workers", "2",
                             "--seed", "1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    try:
        assert proc.stdin is not None
        proc.stdin.write(b"1\n" * 200)  # answers to every prompt, so the bots get to search
        proc.stdin.flush()
        kids = wait_for_workers(proc.pid, 1)
        proc.kill()
        proc.wait(30)
        assert_all_end(kids)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)


def test_hokm_loadtest_spawn_leaves_no_node_and_no_bot_worker() -> None:
    env = dict(os.environ, **SEARCH_BOTS)
    proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "loadtest", "--spawn", "1", "--tables", "1",
                             "--think", "30", "--duration", "1", "--warmup", "0", "--no-echo", "--json"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    seen: dict[int, psutil.Process] = {}
    workers = 0
    try:
        while proc.poll() is None:  # every process the run starts, while it runs
            for p in descendants(proc.pid):
                if p.pid not in seen:
                    seen[p.pid] = p
                    workers += "spawn_main" in " ".join(_cmdline(p))
            time.sleep(0.1)
        assert proc.returncode == 0, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
        assert workers >= 2, "the node started no bot worker"
        assert_all_end(list(seen.values()))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
        if proc.stderr is not None:
            proc.stderr.close()


def test_hokm_loadtest_spawn_killed_with_9_leaves_no_node_and_no_bot_worker(tmp_path: Path) -> None:
    """The nodes it started end with it (and their bot workers with them), though it runs no clean-up."""
    env = dict(os.environ, **SEARCH_BOTS)
    proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "loadtest", "--spawn", "1", "--tables", "1",
                             "--think", "30", "--duration", "600", "--warmup", "0", "--no-echo", "--json",
                             "--logs", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        kids = wait_for_workers(proc.pid, 2)  # the node, and its bot workers under it
        assert any("serve" in _cmdline(k) for k in kids), [_cmdline(k) for k in kids]
        proc.kill()
        proc.wait(30)
        assert_all_end(kids, timeout=40)  # the node gets SIGTERM: it closes down as when stopped
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
