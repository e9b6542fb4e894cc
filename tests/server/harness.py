"""A real ``hokm serve`` process for tests, and WebSocket players that check every message.

:class:`ServerProcess` starts the server on a free port (``--port 0``) with its own data folder
and fast settings, and can stop it gently, ``kill -9`` it, and start it again on the same folder.
:class:`Player` is a guest with an HTTP client and one WebSocket; every message it receives is
validated against the protocol models and kept in :attr:`Player.log` for the leak checks. Like the
web table, a player takes each batch of table events as one ``events`` message (``batch=False``:
one ``event`` message each) and reads it as the ``event`` messages it stands for, the seats
carried over from the last message that had them, and its view as a patch of the last view it
received (``patches=False``: whole views), the view it makes checked against the protocol's model;
:attr:`Player.frames` keeps what came as it came.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import httpx
import websockets

from hokm.server.protocol import SERVER_MESSAGE, View

FAST_ENV = {
    "HOKM_BOT_DELAY": "0.002,0.01",
    "HOKM_HAND_PAUSE": "0.02",
    "HOKM_QUEUE_WAIT": "1.0",
    "HOKM_ABSENT_GRACE": "30",
    "HOKM_RATE_PER_SECOND": "2000",
    "HOKM_RATE_BURST": "4000",
    "HOKM_DEFAULT_BOT": "random",
    "HOKM_HINT_BOT": "random",
}
WAIT = 20.0  # the longest any single wait in these tests may take

#: The server closes a connection idle for 5 s (uvicorn's keep-alive), httpx reuses one idle for under 5 s: a request
#: sent on a connection the server was closing just then, its loop late on a busy machine, was lost as a ReadError
#: (seen as one of 60 parallel POSTs failing). Clients here let a connection go after 2 s idle.
KEEP_ALIVE = httpx.Limits(keepalive_expiry=2.0)
START_WAIT = 60.0  # starting a server imports every bot; give a loaded CI machine time


class JoinRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


class ServerProcess:
    def __init__(self, data_dir: Path, *, open_files: int | None = None, **env: str) -> None:
        """``env``: ``HOKM_*`` settings over :data:`FAST_ENV`; ``open_files``: the process's open-file limit."""
        self.data_dir = data_dir
        self.env = {**os.environ, **FAST_ENV, **{k: str(v) for k, v in env.items()}}
        self.open_files = open_files
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.port = 0

    def start(self) -> ServerProcess:
        args = [sys.executable, "-m", "hokm.cli.main", "serve", "--data-dir", str(self.data_dir),
                "--port", str(self.port), "--log-level", "warning"]
        self._err = open(self.data_dir / "server.log", "ab")
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self._err, env=self.env,
                                     preexec_fn=None if self.open_files is None else self._limit_open_files)
        deadline = time.monotonic() + START_WAIT
        line = b""
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if ready:
                line = self.proc.stdout.readline()
                if line.startswith(b"hokm server ready: "):
                    self.url = line.split()[3].decode().rstrip("/")
                    self.port = int(self.url.rsplit(":", 1)[1])
                    return self
            if self.proc.poll() is not None:
                break
        self.stop()  # a server that never said it was ready must not outlive the test
        raise RuntimeError(f"the server did not start: {line!r}\n{self.log()}")

    def _limit_open_files(self) -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def log(self) -> str:
        return (self.data_dir / "server.log").read_text(errors="replace")[-4000:]

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ws"

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(WAIT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(WAIT)
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        if hasattr(self, "_err"):
            self._err.close()


class Player:
    """A guest player: HTTP calls with its token, one WebSocket, a log of all it received."""

    ws_options: dict[str, Any] = {}  # more arguments to ``websockets.connect``

    def __init__(self, server: ServerProcess, name: str, seed: int = 0, batch: bool = True,
                 patches: bool = True) -> None:
        self.server = server
        self.batch = batch
        self.patches = batch and patches
        self._last_view: dict[str, Any] | None = None  # the view of this connection's last message with one
        self.frames: list[dict[str, Any]] = []  # every message as it came, an ``events`` batch as one
        self._expanded: deque[dict[str, Any]] = deque()  # the rest of a batch, read as ``event`` messages
        self.seats: list[dict[str, Any]] | None = None
        self.name = name
        self.rng = random.Random(seed)
        self.token = ""
        self.id = ""
        self.http = httpx.AsyncClient(base_url=server.url, timeout=WAIT, limits=KEEP_ALIVE)
        self.ws: Any = None
        self.log: list[dict[str, Any]] = []
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None
        self.errors: list[dict[str, Any]] = []

    @classmethod
    def holding(cls, server: ServerProcess, name: str, token: str, player_id: str, seed: int = 0,
                batch: bool = True, patches: bool = True) -> Player:
        """A client of a player that already exists: another device, or the same one after a restart."""
        p = cls(server, name, seed, batch, patches)
        p.token, p.id = token, player_id
        p.http.headers["Authorization"] = f"Bearer {token}"
        return p

    async def signup(self) -> Player:
        r = await self.http.post("/api/guest", json={"nickname": self.name})
        assert r.status_code == 201, r.text
        d = r.json()
        self.token, self.id = d["token"], d["player_id"]
        self.http.headers["Authorization"] = f"Bearer {self.token}"
        return self

    async def api(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        r = await self.http.request(method, path, json=body)
        assert r.status_code == status, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.server.ws_url, open_timeout=WAIT, close_timeout=2, max_queue=4096,
                                           **self.ws_options)
        self._expanded.clear()  # what was left of a batch on the last connection is not read
        self._last_view = None
        await self.send({"type": "hello", "token": self.token} | ({"batch": True} if self.batch else {})
                        | ({"view_patches": True} if self.patches else {}))
        welcome = await self.recv()
        assert welcome["type"] == "welcome", welcome

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        if self._expanded:
            msg = self._expanded.popleft()
        else:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
            msg = json.loads(raw)
            SERVER_MESSAGE.validate_python(msg)  # every message matches docs/protocol.md
            self.frames.append(msg)
            msg = self._read(msg)
        self.log.append(msg)
        if msg["type"] in ("state", "event"):
            self.seq = max(self.seq, msg["seq"])
            self.view = msg["view"]
        if msg["type"] == "state":
            self.seat = msg["seat"]
        if msg["type"] == "error":
            self.errors.append(msg)
        return msg

    def _read(self, msg: dict[str, Any]) -> dict[str, Any]:
        """``msg``, an ``events`` batch as its first ``event`` (the rest queued); the seats remembered."""
        kind = msg["type"]
        if kind == "events":
            assert self.batch, "an events message to a client that did not ask for batches"
            if "seats" in msg:
                self.seats = msg["seats"]
            assert self.seats is not None, "an events message without seats before any seats were sent"
            assert msg["events"] and msg["seq"] == msg["events"][-1]["seq"]
            if "view_patch" in msg:
                assert self.patches, "a view patch to a client that did not ask for patches"
                assert self._last_view is not None, "a view patch before any view on this connection"
                view = self._last_view | msg["view_patch"]
                View.model_validate(view)
            else:
                view = msg["view"]
            self._last_view = view
            self._expanded.extend({"v": msg["v"], "type": "event", "seq": e["seq"], "at": e["at"], "event": e["event"],
                                   "view": view, "seats": self.seats, "status": msg["status"],
                                   "deadline": msg["deadline"]} for e in msg["events"])
            return self._expanded.popleft()
        if kind == "state":
            self.seats = msg["table"]["seats"]
            self._last_view = msg["view"]
        elif kind == "event":
            self.seats = msg["seats"]
            self._last_view = msg["view"]
        return msg

    async def join(self, table: str, last_seq: int | None = None, code: str | None = None) -> dict[str, Any]:
        """Open ``table`` (``code``: a private room's invite code, to watch it without a seat)."""
        await self.send({"type": "join", "table": table, "last_seq": last_seq} | ({"code": code} if code else {}))
        while True:
            msg = await self.recv()
            if msg["type"] == "state":
                return msg
            if msg["type"] == "error" and msg.get("ref") == "join":
                raise JoinRefused(msg["code"], msg["message"])

    async def expect(self, pred: Any, timeout: float = WAIT) -> dict[str, Any]:
        """Receive until a message satisfies ``pred`` (bounded by ``timeout`` seconds in all)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("the expected message did not come")
            msg = await self.recv(left)
            if pred(msg):
                return msg

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        return view["legal"][self.rng.randrange(len(view["legal"]))]

    async def play(self, *, until: Any = None, timeout: float = 120.0, act: bool = True) -> dict[str, Any]:
        """Answer every decision with a random legal action until ``until(msg)`` (default: game over)."""
        until = until or (lambda m: m["type"] == "event" and m["event"]["kind"] == "game_over")
        end = time.monotonic() + timeout
        answered = None
        if self.view and self.view["legal"] and act:
            answered = json.dumps(self.view, sort_keys=True)
            await self.send({"type": "action", "action": self.choose(self.view), "seq": self.seq})
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: the game did not reach the goal in {timeout} s")
            msg = await self.recv(left)
            if until(msg):
                return msg
            if msg["type"] == "error":
                answered = None
                if msg["code"] == "rate_limited" and act and self.view and self.view["legal"]:
                    await asyncio.sleep(0.1)  # slow down, then answer the current view again
                    answered = json.dumps(self.view, sort_keys=True)
                    await self.send({"type": "action", "action": self.choose(self.view), "seq": self.seq})
                continue
            view = msg.get("view")
            if act and view and view["legal"]:
                key = json.dumps(view, sort_keys=True)
                if key != answered:
                    answered = key
                    await self.send({"type": "action", "action": self.choose(view), "seq": self.seq})

    async def game_with_computers(self, target_points: int = 1, **body: Any) -> str:
        """A private four-player table of this player (seat 0) and random computers, joined (connecting
        first if need be) and started; ``body``: more of the table's settings. Returns its id."""
        table = await self.api("POST", "/api/tables", {"mode": "private", "players": 4,
                                                       "rules": {"target_points": target_points}} | body, status=201)
        tid = str(table["table_id"])
        for seat in (1, 2, 3):
            await self.api("POST", f"/api/tables/{tid}/bot", {"seat": seat, "level": "random"})
        if self.ws is None:
            await self.connect()
        await self.join(tid)
        await self.api("POST", f"/api/tables/{tid}/start", {})
        return tid

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None
        await self.http.aclose()


def game_over(msg: dict[str, Any]) -> bool:
    return msg["type"] == "event" and msg["event"]["kind"] == "game_over"


def run(coro: Any, timeout: float = 240.0) -> Any:
    """Run a test coroutine with an overall bound."""
    return asyncio.run(asyncio.wait_for(coro, timeout))
