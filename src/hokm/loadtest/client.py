"""Headless players: four WebSockets per table, each deciding like a person at a chosen pace.

A table is set up over HTTP the way people would (four guests; one creates a private room, three
sit, the host starts), and each seat opens its own WebSocket, possibly to a different node (the
URLs are used in turn, so a table's players are spread over the nodes: no sticky routing). A
measured run starts each table once its four players have joined (:func:`start_table`), as a host
starts a room whose players are there; a table started before they connect is played by the
stand-in bots until each arrives. A seat
whose view has legal actions waits its think time and sends a random legal action with the ``seq``
it saw; the latency of that action is the time until the event of that action arrives back on the
same connection. A dropped connection is opened again (to the next URL) with ``last_seq``, like
the web client does, so a node dying mid-game is survived.
"""

from __future__ import annotations

import asyncio
import enum
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus


@dataclass
class Tally:
    """What all the clients of a run observed."""

    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    accepted: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    dropped: int = 0  # connections the run closed on purpose (``--churn``), each followed by a reconnect
    games_over: int = 0
    stand_ins: int = 0  # measured actions a stand-in bot played for a player (not a person's pace)
    started_early: int = 0  # seats whose table was under way when they joined it first
    messages: int = 0  # table messages (``event`` or ``events``) received while measuring
    message_bytes: int = 0  # their length as JSON text (before the WebSocket's compression)
    measuring: bool = True
    seen: dict[str, dict[int, tuple[str, Any]]] = field(default_factory=dict)  # table -> seq -> (kind, event)
    keep_events: bool = False

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def http_url(url: str) -> str:
    return url.rstrip("/").replace("ws://", "http://").replace("wss://", "https://")


def ws_url(url: str) -> str:
    return http_url(url).replace("http://", "ws://").replace("https://", "wss://") + "/ws"


async def _post(client: httpx.AsyncClient, url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    for attempt in range(20):
        try:
            r = await client.post(url, json=body, headers=headers)
        except httpx.TransportError:
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        if r.status_code in (200, 201):
            return r.json()
        if r.status_code == 409 and attempt > 0:
            return None  # a retry of a request that had gone through (seated, started): done
        if r.status_code >= 500 or r.status_code == 429:
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        raise RuntimeError(f"POST {url}: {r.status_code} {r.text[:200]}")
    raise RuntimeError(f"POST {url}: no answer after retries")


async def setup_table(client: httpx.AsyncClient, urls: list[str], index: int, players: int = 4,
                      timers: float = 120.0, rules: dict[str, Any] | None = None,
                      start: bool = True) -> tuple[str, list[str]]:
    """Create one table of ``players`` guests, and start it unless ``start`` is false; its id and the seats' tokens."""
    base = [http_url(u) for u in urls]
    at = lambda k: base[(index + k) % len(base)]  # noqa: E731 - spread the requests over the nodes
    tokens = []
    for s in range(players):
        g = await _post(client, at(s) + "/api/guest", {"nickname": f"load{index}s{s}"})
        tokens.append(g["token"])
    t = {"trump": timers, "play": timers, "discard": timers, "draw": timers}
    info = await _post(client, at(0) + "/api/tables", {"mode": "private", "players": players, "seat": 0,
                                                       "timers": t, "hints": False, "rules": rules or {}},
                       tokens[0])
    tid = info["table_id"]
    for s in range(1, players):
        await _post(client, at(s) + f"/api/tables/{tid}/sit", {"seat": s, "code": info["code"]}, tokens[s])
    if start:
        await start_table(client, urls, index, tid, tokens[0])
    return tid, tokens


async def start_table(client: httpx.AsyncClient, urls: list[str], index: int, table_id: str, host_token: str) -> None:
    """The host starts the table made by :func:`setup_table` with ``start`` false."""
    await _post(client, http_url(urls[index % len(urls)]) + f"/api/tables/{table_id}/start", {}, host_token)


class Delivery(enum.Enum):
    """How a player asks for its table's events in ``hello``."""

    PATCHED = "patched"  # a batch as one ``events`` message, its view as a patch where it can be (the web table)
    BATCHED = "batched"  # a batch as one ``events`` message with the whole view
    EACH = "each"  # one ``event`` message per event (a client that asks for neither)

    def hello(self) -> dict[str, bool]:
        """What ``hello`` says for it."""
        return {"batch": True, "view_patches": True} if self is Delivery.PATCHED else \
            {"batch": True} if self is Delivery.BATCHED else {}


class Seat:
    """One player's connection: decides when its view has legal actions, reconnects when dropped."""

    def __init__(self, table_id: str, seat: int, token: str, urls: list[str], first: int, think: tuple[float, float],
                 tally: Tally, rng: random.Random, delivery: Delivery = Delivery.PATCHED) -> None:
        self.table_id, self.seat, self.token = table_id, seat, token
        self.delivery = delivery
        self.urls, self.next_url = [ws_url(u) for u in urls], first
        self.think, self.tally, self.rng = think, tally, rng
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.pending: float | None = None  # when the outstanding action was sent
        self.joined = asyncio.Event()  # set at the first state message: the player is at the table
        self.deciding = False
        self.over = False
        self.dropping = False  # the run is closing this connection on purpose (``--churn``)
        self.ws: Any = None

    def drop(self) -> bool:
        """Close the connection, as a phone that loses its network does; the player comes back at once
        (with ``last_seq``, as the web table does). ``False``: not connected now."""
        if self.ws is None or self.dropping or self.over:
            return False
        self.dropping = True
        self.tally.dropped += 1
        asyncio.ensure_future(self.ws.close())
        return True

    async def run(self, stop: asyncio.Event) -> None:
        while not self.over and not stop.is_set():
            url = self.urls[self.next_url % len(self.urls)]
            self.next_url += 1
            try:
                async with connect(url, max_size=2**20, open_timeout=10, ping_interval=None) as ws:
                    self.ws = ws
                    await ws.send(json.dumps({"type": "hello", "token": self.token} | self.delivery.hello()))
                    await ws.send(json.dumps({"type": "join", "table": self.table_id,
                                              "last_seq": self.seq or None}))
                    await self._listen(ws, stop)
            except (TimeoutError, ConnectionClosed, OSError, InvalidHandshake, InvalidStatus):
                pass
            finally:
                self.ws = None
                self.pending = None
            if not self.over and not stop.is_set():
                if self.dropping:
                    self.dropping = False
                else:
                    self.tally.reconnects += 1
                await asyncio.sleep(0.2)

    async def _listen(self, ws: Any, stop: asyncio.Event) -> None:
        stopper = asyncio.ensure_future(stop.wait())
        try:
            while not self.over:
                recv = asyncio.ensure_future(ws.recv())
                done, _ = await asyncio.wait({recv, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if recv not in done:
                    recv.cancel()
                    return
                raw = recv.result()
                self._on(json.loads(raw), len(raw))
        finally:
            stopper.cancel()

    def _on(self, msg: dict[str, Any], size: int = 0) -> None:
        kind = msg.get("type")
        now = time.perf_counter()
        if kind == "error":
            self.tally.error(msg.get("code", "?"))
            if msg.get("ref") == "action":
                self.pending = None
                asyncio.ensure_future(self._send({"type": "join", "table": self.table_id, "last_seq": self.seq}))
            return
        if kind == "state":
            for m in msg.get("missed") or []:
                self._keep(m["seq"], m["event"])
            self._update(msg["seq"], msg["view"], msg["table"]["status"])
            if not self.joined.is_set():
                self.joined.set()
                if msg["table"]["status"] != "waiting":
                    self.tally.started_early += 1
            return
        if kind == "event":
            events = [msg]
        elif kind == "events":
            events = msg["events"]
        else:
            return
        if self.tally.measuring:
            self.tally.messages += 1
            self.tally.message_bytes += size
        for e in events:
            ev = e["event"]
            self._keep(e["seq"], ev)
            if ev.get("kind") == "action" and ev.get("seat") == self.seat and ev.get("by") != "player" and \
                    self.tally.measuring:
                self.tally.stand_ins += 1
            if ev.get("kind") == "action" and ev.get("seat") == self.seat and self.pending is not None:
                if self.tally.measuring:
                    self.tally.latencies.append(now - self.pending)
                    self.tally.accepted += 1
                self.pending = None
        view = msg["view"] if "view_patch" not in msg else \
            None if self.view is None else self.view | msg["view_patch"]
        self._update(msg["seq"], view, msg["status"])

    def _keep(self, seq: int, ev: dict[str, Any]) -> None:
        if self.tally.keep_events and ev.get("kind") in ("action", "game_over"):
            self.tally.seen.setdefault(self.table_id, {})[seq] = (ev["kind"], ev)

    def _update(self, seq: int, view: dict[str, Any] | None, status: str) -> None:
        if seq < self.seq:
            return
        self.seq, self.view = seq, view
        if status == "over":
            if not self.over and self.seat == 0:
                self.tally.games_over += 1
            self.over = True
            return
        if view and view.get("legal") and view.get("to_move") == self.seat and not self.deciding and self.pending is None:
            self.deciding = True
            asyncio.ensure_future(self._decide())

    async def _decide(self) -> None:
        try:
            await asyncio.sleep(self.rng.uniform(*self.think))
            view = self.view
            if self.pending is not None or not view or not view.get("legal") or view.get("to_move") != self.seat:
                return
            action = self.rng.choice(view["legal"])
            self.pending = time.perf_counter()
            if await self._send({"type": "action", "action": action, "seq": self.seq}):
                if self.tally.measuring:
                    self.tally.sent += 1
            else:
                self.pending = None
        finally:
            self.deciding = False

    async def _send(self, msg: dict[str, Any]) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(msg))
            return True
        except ConnectionClosed:
            return False
