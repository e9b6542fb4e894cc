"""``hokm serve`` refuses bad settings in one line of words, before it starts, never with a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(300)


def serve(*args: str, tmp: Path, env_vars: dict[str, str] | None = None) -> tuple[int, list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOKM_")}
    env["HOKM_DATA_DIR"] = str(tmp / "data")
    env |= env_vars or {}
    out = subprocess.run([sys.executable, "-m", "hokm.cli.main", "serve", "--port", "0", "--log-level", "warning",
                          *args], capture_output=True, text=True, timeout=240, env=env)
    assert "Traceback" not in out.stderr + out.stdout, out.stderr
    assert "hokm server ready" not in out.stdout
    # Leave out the progress lines of a first run (compiling the search kernels): the error is the rest.
    lines = [ln for ln in out.stderr.splitlines()
             if not ln.startswith(("hokm serve: preparing", "hokm serve: the computer players", "  "))]
    return out.returncode, lines


@pytest.mark.parametrize("args, words", [
    (("--data-dir", "/proc/hokm-no-such-folder"), "data folder /proc/hokm-no-such-folder"),
    (("--database-url", "junk"), "--database-url"),
    (("--database-url", "nosuchdb://x"), "--database-url"),
    (("--default-bot", "nosuch"), "unknown bot level 'nosuch'"),
    (("--hand-pause", "-1"), "--hand-pause"),
    (("--absent-grace", "-0.5"), "--absent-grace"),
])
def test_a_bad_setting_is_one_line_and_a_nonzero_exit(args: tuple[str, ...], words: str, tmp_path: Path) -> None:
    rc, lines = serve(*args, tmp=tmp_path)
    assert rc != 0
    assert len(lines) == 1, lines
    assert lines[0].startswith("hokm serve: ") and words in lines[0]


@pytest.mark.parametrize("args, words", [
    # a folder that exists and that root may "access", where no file can be made
    (("--data-dir", "/proc"), "cannot write to the data folder /proc"),
    # a database that can be named but not opened: refused before the server starts, not by its start-up hook
    (("--database-url", "sqlite+aiosqlite:////proc/x/db.sqlite"), "cannot open --database-url"),
    (("--database-url", "postgresql+asyncpg://postgres@127.0.0.1:1/x"), "cannot open --database-url"),
])
def test_storage_that_cannot_be_opened_is_one_line(args: tuple[str, ...], words: str, tmp_path: Path) -> None:
    rc, lines = serve(*args, tmp=tmp_path)
    assert rc != 0
    assert len(lines) == 1, lines
    assert lines[0].startswith("hokm serve: ") and words in lines[0], lines


@pytest.mark.parametrize("value", ["abc", "0", "-3"])
def test_a_bad_bot_timeout_in_the_environment_is_one_line(value: str, tmp_path: Path) -> None:
    rc, lines = serve(tmp=tmp_path, env_vars={"HOKM_BOT_TIMEOUT": value})
    assert rc != 0
    assert lines == [f"hokm serve: HOKM_BOT_TIMEOUT={value!r}: must be a number of seconds more than 0"]


def test_a_cold_cache_shows_progress_at_once_and_before_the_address(tmp_path: Path) -> None:
    """With an empty Numba cache the first stderr line says what is happening, and the address waits."""
    import select
    import signal
    import time

    env = {k: v for k, v in os.environ.items() if not k.startswith("HOKM_")}
    env |= {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "HOKM_DATA_DIR": str(tmp_path / "data")}
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "hokm.cli.main", "serve", "--port", "0", "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stderr is not None and proc.stdout is not None
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        assert ready, "nothing said within 60 s"
        first = proc.stderr.readline().decode()
        took = time.monotonic() - start
        assert first.startswith("hokm serve: preparing the computer players (first run only)"), first
        assert took < 30, took  # about a second on an idle machine (docs/performance.md)
        ready, _, _ = select.select([proc.stdout], [], [], 0)
        assert not ready, "the address came before the kernels were ready"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        proc.stdout.close() if proc.stdout else None
        proc.stderr.close() if proc.stderr else None


def test_a_warm_cache_starts_without_a_word_of_preparation(tmp_path: Path) -> None:
    from .harness import ServerProcess

    server = ServerProcess(tmp_path).start()
    server.stop()
    assert "preparing the computer players" not in server.log()


def test_request_headers_past_the_limit_are_refused_without_a_traceback(tmp_path: Path) -> None:
    """A request whose headers run far past ``MAX_REQUEST_HEAD`` (one huge header, or many) is answered
    400 before it is held whole; an ordinary request on the same server still succeeds. (The bound
    is on what waits unparsed: a head a little over it that arrives in one read may still pass.)"""
    import socket

    from hokm.server.limits import MAX_REQUEST_HEAD

    from .harness import ServerProcess

    def ask(extra: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
            try:
                s.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\n" + extra + b"\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused while it was still being sent; the answer is already waiting
            return s.recv(64)

    server = ServerProcess(tmp_path).start()
    try:
        assert ask(b"X-Small: " + b"a" * 1000 + b"\r\n").startswith(b"HTTP/1.1 200")
        assert ask(b"X-Big: " + b"a" * (4 * 1024 * 1024) + b"\r\n").startswith(b"HTTP/1.1 400")
        many = b"".join(b"X-H%d: %s\r\n" % (i, b"b" * 100) for i in range(16 * MAX_REQUEST_HEAD // 100))
        assert ask(many).startswith(b"HTTP/1.1 400")
        assert ask(b"").startswith(b"HTTP/1.1 200")
    finally:
        server.stop()
    assert "Traceback" not in server.log()


def test_a_connection_without_a_whole_request_head_in_time_is_closed(tmp_path: Path) -> None:
    """A connection that sends nothing, or a request line a byte at a time, held one of the node's file handles
    for as long as its client liked: past ``HOKM_HTTP_HEAD_TIMEOUT`` without a whole head it is closed. A
    request answered in time, a keep-alive connection's next request and a WebSocket are not."""
    import http.client
    import socket
    import time

    import websockets.sync.client

    from .harness import ServerProcess

    server = ServerProcess(tmp_path, HOKM_HTTP_HEAD_TIMEOUT="1").start()

    def closed_within(s: socket.socket, seconds: float) -> bool:
        s.settimeout(seconds)
        try:
            return s.recv(64) == b""
        except TimeoutError:
            return False

    try:
        silent = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        slow = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        slow.sendall(b"GET /api/info HTTP/1.1\r\nHo")
        started = time.monotonic()
        assert closed_within(silent, 10) and closed_within(slow, 10)
        assert time.monotonic() - started < 8
        # A body sent a byte at a time, after the head (and after an answer sent before the body was read): three
        # times the head's time, then closed.
        body = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        body.sendall(b"POST /api/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100000\r\n\r\n")
        started = time.monotonic()
        body.settimeout(0.5)
        gone = False
        while not gone and time.monotonic() - started < 15:
            try:
                body.sendall(b" ")
                gone = body.recv(4096) == b""
            except TimeoutError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                gone = True
        assert gone and time.monotonic() - started < 8, time.monotonic() - started
        # In time: answered, and the same connection's next request too, after a pause shorter than the limit.
        keep = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        for _ in range(2):
            keep.request("GET", "/api/health")
            answer = keep.getresponse()
            assert answer.status == 200 and answer.read()
            time.sleep(0.5)
        keep.close()
        # A WebSocket outlives both limits, the body's too (its upgrade was a whole head, and h11, handing the
        # connection over, still waited for the upgrade request's body: a deadline cut every WebSocket there).
        with websockets.sync.client.connect(server.ws_url) as ws:
            time.sleep(1 * 3 + 1.5)
            ws.send('{"type":"ping","id":1}')
            assert '"error"' in ws.recv(timeout=10)  # before hello: refused in words, so the socket was open
    finally:
        server.stop()
    assert "Traceback" not in server.log()


def test_a_node_past_the_most_connections_it_holds_answers_503_and_keeps_its_own(tmp_path: Path) -> None:
    """A node that ran out of file handles could no longer open its database files, and the players
    past it hung unanswered. It now holds at most its open-file limit less a reserve (256, or a quarter of
    a smaller limit: here 400 - 100 = 300 connections); a connection past that is answered 503 at once and closed, the connections it
    holds go on working, and once the flood is gone new ones are served."""
    import http.client
    import select
    import socket

    import websockets.sync.client

    from hokm.cli.serve import connections_for

    from .harness import ServerProcess

    most = connections_for(400)
    server = ServerProcess(tmp_path, open_files=400).start()
    flood: list[socket.socket] = []
    try:
        keep = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        keep.request("POST", "/api/guest", body=b'{"nickname": "Sara"}', headers={"Content-Type": "application/json"})
        answer = keep.getresponse()
        assert answer.status == 201, answer.read()
        token = json.loads(answer.read())["token"]
        with websockets.sync.client.connect(server.ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            flood = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(450)]
            answered: dict[int, bytes] = {}
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and len(answered) < 450 - most:
                ready, _, _ = select.select([s for s in flood if s.fileno() not in answered], [], [], 0.2)
                for s in ready:
                    answered[s.fileno()] = s.recv(4096)
            assert 450 - most <= len(answered) <= 450 - most + 5, len(answered)  # the two above count among its most
            assert all(a.startswith(b"HTTP/1.1 503 ") and b"the server is full" in a for a in answered.values())
            # What the node holds goes on: a request on a kept connection writes to the database, and the WebSocket.
            keep.request("POST", "/api/guest", body=b'{"nickname": "Reza"}', headers={"Content-Type": "application/json"})
            answer = keep.getresponse()
            assert answer.status == 201, answer.read()
            answer.read()
            ws.send(json.dumps({"type": "ping", "id": 7}))
            assert json.loads(ws.recv(timeout=10))["type"] == "pong"
        for s in flood:
            s.close()
        flood = []
        time.sleep(0.5)
        fresh = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        fresh.request("GET", "/api/health")
        assert fresh.getresponse().status == 200
        fresh.close()
        keep.close()
    finally:
        for s in flood:
            s.close()
        server.stop()
    log = server.log()
    assert "Traceback" not in log and "unable to open" not in log, log
    assert log.count("answered 503") == 1, log  # one line, not one per connection


def test_the_connections_a_node_holds_leave_it_file_handles_of_its_own() -> None:
    """256 handles are kept, or a quarter of a smaller limit: macOS starts a process at 256 and a node
    there would otherwise hold one connection."""
    from hokm.cli.serve import connections_for

    assert [connections_for(n) for n in (20_000, 1024, 400, 256, 8)] == [19_744, 768, 300, 192, 6]


def test_a_node_raises_its_open_file_limit_as_far_as_it_may(monkeypatch: pytest.MonkeyPatch) -> None:
    """To the hard limit; where that is "unlimited" (macOS), to the first of 65,536 and 10,240 the system takes."""
    import resource

    from hokm.cli import serve

    limits = {"now": (256, resource.RLIM_INFINITY), "most": 10_240}

    def setrlimit(_which: int, value: tuple[int, int]) -> None:
        if value[0] > limits["most"]:
            raise ValueError("over kern.maxfilesperproc")
        limits["now"] = value

    monkeypatch.setattr(resource, "getrlimit", lambda _which: limits["now"])
    monkeypatch.setattr(resource, "setrlimit", setrlimit)
    assert serve.open_files() == 10_240
    limits["now"], limits["most"] = (1024, 20_000), 20_000
    assert serve.open_files() == 20_000 and limits["now"] == (20_000, 20_000)
    assert serve.most_connections(None) == 19_744 and serve.most_connections(50) == 50


def test_work_cancelled_once_the_server_is_stopping_ends_without_a_traceback() -> None:
    """On SIGTERM uvicorn gives the requests and connections ``HOKM_SHUTDOWN_GRACE`` seconds to end,
    then cancels what they still do and says so in one line. A node stopped under 8,000 players was
    still telling their friends they had left, and logged a traceback for each of 2,400 cancelled
    connections. Once the server is stopping, a cancelled one ends quietly, and a request not yet
    answered gets a 503; any other cancellation is raised."""
    import asyncio

    from hokm.cli.serve import quiet_when_stopping

    async def cancelled(scope: object, receive: object, send: object) -> None:
        raise asyncio.CancelledError("Task cancelled, timeout graceful shutdown exceeded")

    async def call(app: object, kind: str) -> list[dict[str, object]]:
        sent: list[dict[str, object]] = []

        async def send(message: dict[str, object]) -> None:
            sent.append(message)

        async def receive() -> dict[str, object]:
            return {}

        await app({"type": kind}, receive, send)  # type: ignore[operator]
        return sent

    stopping = [False]
    app = quiet_when_stopping(cancelled, lambda: stopping[0])
    for kind in ("http", "websocket"):
        with pytest.raises(asyncio.CancelledError):
            asyncio.run(call(app, kind))
    stopping[0] = True
    assert asyncio.run(call(app, "websocket")) == []
    answer = asyncio.run(call(app, "http"))
    assert [m["type"] for m in answer] == ["http.response.start", "http.response.body"] and answer[0]["status"] == 503
