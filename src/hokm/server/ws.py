"""The WebSocket loop: authenticate, join a table, forward its events, pass requests to the actor.

One connection plays (or watches) one table at a time. Everything the client sends is checked
here before it reaches a table: frame size, a per-connection token bucket, JSON, the protocol
models; a refusal is an ``error`` message and the connection carries on, except a flood (too many
refusals in a row), which closes it. Table events come from the bus; the connection forwards the
copy made for its player's seat *at that moment* (or the spectator copy), never another's.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .auth import AuthError, authenticate
from .bus import Subscription
from .protocol import CLIENT_MESSAGE, MAX_FRAME_BYTES, PROTOCOL_VERSION, CAction, CBack, CHello, CHint, CJoin, CPing, CSeed
from .storage import PlayerRow
from .table import TableActor, TableError
from .timers import TokenBucket

if TYPE_CHECKING:
    from .app import Services

log = logging.getLogger("hokm.server.ws")
CLIENT_TYPES = frozenset({"hello", "join", "action", "hint", "seed", "back", "ping"})


class Close(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def origin_allowed(ws: WebSocket, allowed: tuple[str, ...]) -> bool:
    """No Origin (not a browser), the server's own host, or an origin listed in the config."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    if origin.rstrip("/") in {a.rstrip("/") for a in allowed} or "*" in allowed:
        return True
    return urlsplit(origin).netloc.lower() == (ws.headers.get("host") or "").lower()


class Connection:
    def __init__(self, ws: WebSocket, services: "Services") -> None:
        self.ws = ws
        self.services = services
        cfg = services.config
        self.bucket = TokenBucket(cfg.rate_per_second, cfg.rate_burst)
        self.refusals = 0
        self.player: PlayerRow | None = None
        self.actor: TableActor | None = None
        self.seat: int | None = None
        self._send_lock = asyncio.Lock()
        self._table_task: asyncio.Task[None] | None = None
        self._table_sub: Subscription | None = None
        self._player_task: asyncio.Task[None] | None = None
        self._player_sub: Subscription | None = None

    # ------------------------------------------------------------------ sending
    async def send(self, message: dict[str, Any]) -> None:
        async with self._send_lock:
            if self.ws.application_state is WebSocketState.CONNECTED:
                await self.ws.send_text(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    async def error(self, code: str, message: str, ref: str | None = None) -> None:
        await self.send({"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message, "ref": ref})

    # ------------------------------------------------------------------ the loop
    async def run(self) -> None:
        try:
            await self._hello()
            while True:
                data = await self._receive()
                if data is None:
                    continue
                await self._dispatch(data)
        except Close as c:
            await self.ws.close(code=c.code, reason=c.reason)
        except WebSocketDisconnect:
            pass
        finally:
            await self._leave_table()
            for task, sub in ((self._player_task, self._player_sub),):
                if sub is not None:
                    await sub.close()
                if task is not None:
                    task.cancel()

    async def _receive(self) -> dict[str, Any] | None:
        """The next well-formed message as a dict, or ``None`` after answering a refusal."""
        msg = await self.ws.receive()
        if msg["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(msg.get("code", 1000))
        raw = msg.get("text")
        if raw is None:
            raw = (msg.get("bytes") or b"").decode("utf-8", "replace")
        if not self.bucket.take():
            return await self._refuse("rate_limited", "too many messages; slow down")
        if len(raw) > MAX_FRAME_BYTES:
            return await self._refuse("too_large", f"messages are limited to {MAX_FRAME_BYTES} bytes")
        try:
            data = json.loads(raw)
        except ValueError:
            return await self._refuse("bad_message", "a message must be a JSON object")
        if not isinstance(data, dict):
            return await self._refuse("bad_message", "a message must be a JSON object")
        kind = data.get("type")
        if kind not in CLIENT_TYPES:
            return await self._refuse("unknown_type", f"unknown message type (expected one of {', '.join(sorted(CLIENT_TYPES))})")
        if data.get("v", PROTOCOL_VERSION) != PROTOCOL_VERSION:
            return await self._refuse("bad_version", f"this server speaks protocol version {PROTOCOL_VERSION}", kind)
        return data

    async def _refuse(self, code: str, message: str, ref: str | None = None) -> None:
        self.refusals += 1
        if self.refusals > self.services.config.flood_limit:
            raise Close(4008, "too many refused messages")
        await self.error(code, message, ref)
        return None

    async def _hello(self) -> None:
        try:
            data = await asyncio.wait_for(self._receive(), self.services.config.hello_timeout)
        except asyncio.TimeoutError:
            raise Close(4001, "send hello with your token first") from None
        if data is None or data.get("type") != "hello":
            await self.error("auth_required", "the first message must be hello with your token")
            raise Close(4001, "authentication required")
        try:
            hello = CHello.model_validate(data)
            self.player = await authenticate(self.services.storage, hello.token)
        except (ValidationError, AuthError):
            await self.error("unauthorized", "unknown player token", "hello")
            raise Close(4001, "authentication failed") from None
        await self.send({"v": PROTOCOL_VERSION, "type": "welcome", "player_id": self.player.id,
                         "nickname": self.player.nickname})
        self._player_sub = await self.services.bus.subscribe(f"player:{self.player.id}")
        self._player_task = asyncio.ensure_future(self._forward_player(self._player_sub))

    async def _dispatch(self, data: dict[str, Any]) -> None:
        kind = data["type"]
        try:
            msg = CLIENT_MESSAGE.validate_python(data)
        except ValidationError as e:
            from .app import validation_message

            await self._refuse("bad_message", validation_message(e), kind)
            return
        try:
            if isinstance(msg, CHello):
                raise TableError("bad_message", "already authenticated")
            if isinstance(msg, CPing):
                await self.send({"v": PROTOCOL_VERSION, "type": "pong", "id": msg.id})
            elif isinstance(msg, CJoin):
                await self._join(msg)
            else:
                await self._table_request(msg)
            self.refusals = 0
        except TableError as e:
            await self._refuse(e.code, e.message, kind)
        except (WebSocketDisconnect, Close):
            raise
        except Exception:  # noqa: BLE001 - one bad request must not end the connection
            log.exception("handling a %s message failed", kind)
            await self.error("internal", "the server could not handle this message", kind)

    async def _table_request(self, msg: Any) -> None:
        actor = self.actor
        assert self.player is not None
        if actor is None:
            raise TableError("not_joined", "join a table first")
        pid = self.player.id
        if isinstance(msg, CAction):
            await actor.act(pid, msg.action.model_dump(), msg.seq)
        elif isinstance(msg, CHint):
            seat, view = await actor.hint_view(pid)
            action = await self.services.bots.decide(actor.id, ("hint", seat), self.services.lobby.hint_bot, view)
            await self.send({"v": PROTOCOL_VERSION, "type": "hint", "action": action.to_json(),
                             "level": self.services.lobby.hint_bot})
        elif isinstance(msg, CSeed):
            hand = await actor.add_seed(pid, msg.seed)
            await self.send({"v": PROTOCOL_VERSION, "type": "seed_ok", "hand": hand})
        elif isinstance(msg, CBack):
            await actor.back(pid)

    # ------------------------------------------------------------------ tables
    async def _join(self, msg: CJoin) -> None:
        assert self.player is not None
        actor = await self.services.lobby.get(msg.table)
        if actor is None:
            raise TableError("not_found", "no such table")
        await self._leave_table()
        # Subscribe first, then take the state: no event can fall between the two.
        sub = await self.services.bus.subscribe(actor.channel)
        self.actor, self._table_sub = actor, sub
        seat, state, lost = await actor.join(self.player.id, msg.last_seq)
        self.seat = seat
        await self.send(state)
        if lost:
            await self.error("seat_lost", "the time to take your seat back has passed; you are watching", "join")
        self._table_task = asyncio.ensure_future(self._forward_table(actor, sub, state["seq"]))

    async def _leave_table(self) -> None:
        if self._table_sub is not None:
            await self._table_sub.close()
        if self._table_task is not None:
            self._table_task.cancel()
        if self.actor is not None and self.player is not None:
            actor, self.actor = self.actor, None
            await actor.disconnect(self.player.id)
        self._table_sub = self._table_task = None

    async def _forward_table(self, actor: TableActor, sub: Subscription, after: int) -> None:
        assert self.player is not None
        pid = self.player.id
        try:
            async for batch in sub:
                holders = batch["holders"]
                msgs = batch["per_seat"][holders.index(pid)] if pid in holders else batch["spectator"]
                for m in msgs:
                    if m["seq"] > after:
                        await self.send(m)
                        after = m["seq"]
            if sub.overflowed:  # fell behind: a fresh picture instead of a stream with a hole
                await self.send(actor.state(actor.seat_of(pid), None))
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the client went away; the read loop cleans up
        except Exception:  # noqa: BLE001
            log.exception("forwarding table events failed")

    async def _forward_player(self, sub: Subscription) -> None:
        try:
            async for message in sub:
                await self.send(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass


async def websocket_endpoint(ws: WebSocket, services: "Services") -> None:
    if not origin_allowed(ws, services.config.allowed_origins):
        await ws.close(code=4003)  # before accept: the handshake is refused with HTTP 403
        return
    await ws.accept()
    await Connection(ws, services).run()
