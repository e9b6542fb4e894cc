"""The WebSocket loop: authenticate, join a table, forward its events, pass requests to the actor.

One connection plays (or watches) one table at a time. Everything the client sends is checked
here before it reaches a table: a per-connection token bucket, then the frame's size, encoding,
JSON nesting and type (:mod:`.frames`), then the protocol models; a refusal is an ``error`` message
and the connection carries on, except a flood: more than ``flood_limit`` refused frames (over the
rate, malformed, invalid) within ``flood_window`` seconds (a budget that refills slowly, not reset
by accepted messages) close it with code 4008. A table's refusals of well-formed requests
(``stale_seq``, ``not_your_turn``, ...) do not count. Table events come from the bus; the
connection forwards the copy made for its player's seat *at that moment* (or the spectator copy),
never another's: one ``event`` message per event, or, where the client asked for it in ``hello``,
one ``events`` message per batch (the seats' list in it only when it changed since the last one
this connection sent; where the client asked for view patches too, the view as a patch of the
view the connection sent last, when the batch's patch was made against that view). A connection
that falls ``bus_queue`` batches behind gets a fresh ``state`` and goes on receiving from there
(or, where this node has no fresh state of the table, is closed with 4009 to join again with its
last seq).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .auth import SIGNED_OUT, AuthError, authenticate, hash_token
from .bus import Subscription
from .chattext import TextRefused, clean_text
from .errors import validation_message
from .frames import Refusal, parse_frame
from .limits import Limited, check_all
from .protocol import CLIENT_MESSAGE, PROTOCOL_VERSION, CAction, CBack, CChat, CHello, CHint, CJoin, CPing, CSeed
from .seams import TableHandle
from .services import Services
from .storage import PlayerRow
from .table import TableError
from .timers import TokenBucket
from .wire import Copy, dumps, with_seats
from .wsprotocol import SEND_NOW, SendNow

log = logging.getLogger("hokm.server.ws")


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
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # not a URL (e.g. "http://[" is an unclosed IPv6 address)
        return False
    return netloc.lower() == (ws.headers.get("host") or "").lower()


class Connection:
    def __init__(self, ws: WebSocket, services: Services,
                 timed: Callable[[float], None] = lambda seconds: None) -> None:
        self.ws = ws
        self.services = services
        self.timed = timed  # seconds an action took from its frame to its events handed on (metrics)
        cfg = services.config
        self.bucket = TokenBucket(cfg.rate_per_second, cfg.rate_burst)
        # Refused frames spend a budget of flood_limit that refills over flood_window seconds.
        self.refusals = TokenBucket(cfg.flood_limit / cfg.flood_window, cfg.flood_limit)
        self.player: PlayerRow | None = None
        self.token_hash: str | None = None
        self.counted = False  # holds one of its player's open places (services.open_by_player)
        self.actor: TableHandle | None = None
        self.seat: int | None = None
        self._send_lock = asyncio.Lock()
        self._sending = 0  # sends waiting for the lock or holding it
        self._table_task: asyncio.Task[None] | None = None
        self._table_sub: Subscription | None = None
        self._player_task: asyncio.Task[None] | None = None
        self._player_sub: Subscription | None = None
        self.conn_id = secrets.token_hex(8)  # this connection in the presence entries
        self.batched = False  # the client takes a batch of table events as one ``events`` message
        self._seats_sent: str | None = None  # the seats' list (as text) the client has last been sent
        self.patched = False  # with ``batched``: the client takes a view patch in place of a whole view
        # Whose view (seat; None: a spectator's) after which seq the client was last sent: a batch's
        # view patch is sent only when it was made against that view.
        self._view_at: tuple[int | None, int] | None = None
        self._after = 0  # the seq of the last table event the client was sent (or had before joining)
        # A send that does not wait, where the server offers one (.wsprotocol): a table's batch goes
        # out from the publisher's call instead of through the forwarding task.
        self._send_now: SendNow | None = ws.scope.get("extensions", {}).get(SEND_NOW)
        self.address = ws.client.host if ws.client else "?"

    # ------------------------------------------------------------------ sending
    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(dumps(message))

    async def send_text(self, text: str) -> None:
        """Send a message already encoded (a table event's text is made once for every connection)."""
        self._sending += 1  # from here, waiting or sending: a batch must not pass it (_deliver_now)
        try:
            async with self._send_lock:
                if self.ws.application_state is WebSocketState.CONNECTED:
                    await self.ws.send_text(text)
        finally:
            self._sending -= 1

    async def _close(self, code: int, reason: str) -> None:
        # Not under the send lock: a send stuck on a client that stopped reading must not hold it up.
        try:
            await self.ws.close(code=code, reason=reason)
        except (RuntimeError, OSError, WebSocketDisconnect):
            pass  # the client went away first

    async def error(self, code: str, message: str, ref: str | None = None,
                    facts: dict[str, str | int] | None = None) -> None:
        await self.send({"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message, "ref": ref}
                        | (facts or {}))

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
            await self._close(c.code, c.reason)
        except WebSocketDisconnect:
            pass
        finally:
            if self.counted and self.player is not None:
                self.services.open_by_player.close(self.player.id)
            try:
                await self._leave_table()
            except Exception:  # noqa: BLE001 - the table's owner unreachable or busy: the rest of the clean-up still runs
                log.warning("leaving the table at close failed", exc_info=False)
            if self.player is not None and self._player_sub is not None:
                await self.services.social.presence.gone(self.player.id, self.conn_id)
            task, sub = self._player_task, self._player_sub
            # The cancelled task keeps its CancelledError, whose traceback holds the task's frames and
            # so this connection: holding the task here too would make a cycle that only a full
            # garbage collection frees (the whole connection, its compression buffers included).
            self._player_task = self._player_sub = None
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
            raw = msg.get("bytes") or b""
        if not self.bucket.take():
            await self._refuse("rate_limited", "too many messages; slow down")
            return None
        data = parse_frame(raw)
        if isinstance(data, Refusal):
            await self._refuse(data.code, data.message, data.ref)
            return None
        return data

    async def _refuse(self, code: str, message: str, ref: str | None = None, counted: bool = True,
                      facts: dict[str, str | int] | None = None) -> None:
        """Answer a refusal; ``counted`` ones (frames an honest client never sends) spend the flood budget."""
        if counted and not self.refusals.take():
            raise Close(4008, "too many refused messages")
        await self.error(code, message, ref, facts)

    async def _hello(self) -> None:
        try:
            data = await asyncio.wait_for(self._receive(), self.services.config.hello_timeout)
        except TimeoutError:
            raise Close(4001, "send hello with your token first") from None
        if data is None or data.get("type") != "hello":
            await self.error("auth_required", "the first message must be hello with your token")
            raise Close(4001, "authentication required")
        try:
            hello = CHello.model_validate(data)
            self.player = await authenticate(self.services.storage, hello.token, self.services.config.token_lifetime)
            self.token_hash = hash_token(hello.token)
            self.batched = hello.batch
            self.patched = hello.batch and hello.view_patches
        except (ValidationError, AuthError) as e:
            await self.error("unauthorized", e.message if isinstance(e, AuthError) else "unknown player token", "hello")
            raise Close(4001, "authentication failed") from None
        if not self.services.open_by_player.open(self.player.id):
            await self.error("too_many_connections",
                             f"at most {self.services.config.max_connections_per_player} connections per player",
                             "hello")
            self.player = None  # counted nowhere: the close below is this connection's end
            raise Close(4013, "too many connections for this player")
        self.counted = True
        await self.send({"v": PROTOCOL_VERSION, "type": "welcome", "player_id": self.player.id,
                         "nickname": self.player.nickname})
        self._player_sub = await self.services.bus.subscribe(f"player:{self.player.id}")
        self._player_task = asyncio.ensure_future(self._forward_player(self._player_sub))
        await self.services.social.presence.connected(self.player.id, self.conn_id)

    async def _dispatch(self, data: dict[str, Any]) -> None:
        kind = data["type"]
        try:
            msg = CLIENT_MESSAGE.validate_python(data)
        except ValidationError as e:
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
        except TableError as e:
            # A table's refusals (stale_seq, not_your_turn, ...) are races an honest client meets
            # when bots move fast; they are answered without spending the flood budget (the rate
            # limit still bounds them).
            await self._refuse(e.code, e.message, kind, counted=e.code == "bad_message", facts=e.facts)
        except Limited as e:  # a per-player limit (joins, seeds, chat): answered like a table's refusal
            await self._refuse("rate_limited", str(e), kind, counted=False)
        except (WebSocketDisconnect, Close):
            raise
        except Exception:
            log.exception("handling a %s message failed", kind)
            await self.error("internal", "the server could not handle this message", kind)

    async def _table_request(self, msg: Any) -> None:
        actor = self.actor
        assert self.player is not None
        if actor is None:
            raise TableError("not_joined", "join a table first")
        pid = self.player.id
        if isinstance(msg, CAction):
            t0 = time.perf_counter()
            await actor.act(pid, msg.action.model_dump(), msg.seq)
            self.timed(time.perf_counter() - t0)
        elif isinstance(msg, CHint):
            seat, view = await actor.hint_view(pid)
            action = await self.services.bots.decide(actor.id, ("hint", seat), self.services.lobby.hint_bot, view)
            await self.send({"v": PROTOCOL_VERSION, "type": "hint", "action": action.to_json(),
                             "level": self.services.lobby.hint_bot})
        elif isinstance(msg, CSeed):
            self.services.limits["seed"].check(pid)
            hand = await actor.add_seed(pid, msg.seed)
            await self.send({"v": PROTOCOL_VERSION, "type": "seed_ok", "hand": hand})
        elif isinstance(msg, CBack):
            await actor.back(pid)
        elif isinstance(msg, CChat) and msg.text is not None:
            try:
                text = clean_text(msg.text)
            except TextRefused as e:
                raise TableError(e.code, str(e)) from None
            self.services.limits["text"].check(pid)
            await actor.say(pid, self.player.nickname, text)
        elif isinstance(msg, CChat):
            if actor.seat_of(pid) is None:
                raise TableError("spectator", "only seated players send quick phrases")
            self.services.limits["chat"].check(pid)
            await actor.chat(pid, msg.phrase, msg.emote)

    # ------------------------------------------------------------------ tables
    async def _join(self, msg: CJoin) -> None:
        assert self.player is not None
        self.services.limits["join"].check(self.player.id)
        actor = await self.services.lobby.get(msg.table)
        if actor is None:
            raise TableError("not_found", "no such table")
        await self._leave_table()
        # Subscribe first, then take the state: no event can fall between the two.
        sub = await self.services.bus.subscribe(actor.channel)
        try:
            seat, state, lost = await actor.join(self.player.id, msg.last_seq, msg.code)
        except TableError as e:
            await sub.close()
            if e.code == "code_required" and msg.code:
                # A wrong code counts as a code lookup: guessing here is no faster than elsewhere.
                try:
                    check_all((self.services.limits["address_code"], self.address),
                              (self.services.limits["code"], self.player.id))
                except Limited as limited:
                    raise TableError("rate_limited", str(limited)) from None
            raise
        self.actor, self._table_sub = actor, sub
        self.seat = seat
        self._seats_sent = None
        self._view_at = (state["seat"], state["seq"])
        if state.get("missed"):
            asked: dict[str, str | None] = {}  # one look-up per sender, however long the history
            state["missed"] = [e for e in state["missed"] if not await self._hidden(e["event"], asked)]
        await self.send(state)
        if lost:
            await self.error("seat_lost", "the time to take your seat back has passed; you are watching", "join")
        self._table_task = asyncio.ensure_future(self._forward_table(actor, sub, state["seq"]))
        # Friends see which table: a public one or a game against the computer, not a private room
        # (watching that needs its code).
        shown = None if state["table"]["mode"] == "private" else actor.id
        await self.services.social.presence.at_table(self.player.id, self.conn_id, shown)

    async def _leave_table(self) -> None:
        if self._table_sub is not None:
            await self._table_sub.close()
        if self._table_task is not None:
            self._table_task.cancel()
        if self.actor is not None and self.player is not None:
            actor, self.actor = self.actor, None
            await actor.disconnect(self.player.id)
        self._table_sub = self._table_task = None

    def _copy(self, batch: dict[str, Any]) -> tuple[int | None, Copy]:
        """The seat this connection's player holds in ``batch`` (``None``: watching) and its copy."""
        assert self.player is not None
        holders = batch["holders"]
        seat = holders.index(self.player.id) if self.player.id in holders else None
        return seat, batch["spectator"] if seat is None else batch["per_seat"][seat]

    def _one_message(self, batch: dict[str, Any], seat: int | None, copy: Copy) -> str | None:
        """The batch as the one ``events`` message this connection sends (its view patched where
        the patch was made against the view it sent last); ``None``: it goes event by event."""
        if not self.batched or copy["frames"][0][0] <= self._after:
            return None
        patch = copy["patch"]  # where there is one, there is a whole ``batch`` too
        whole: str | None
        if self.patched and patch is not None and self._view_at == (seat, batch["base"]):
            whole = patch
        else:
            whole = copy["batch"]  # the whole view's text, made here if no connection made it before
            if whole is None:
                return None
        seats = batch["seats"]
        return whole if seats == self._seats_sent else with_seats(whole, seats)

    def _sent(self, batch: dict[str, Any], seat: int | None, copy: Copy) -> None:
        self._seats_sent, self._after, self._view_at = batch["seats"], copy["frames"][-1][0], (seat, batch["seq"])

    def _deliver_now(self, batch: dict[str, Any]) -> bool:
        """Send a table's batch from the publisher's own call (the bus's direct delivery), when it is
        one message and the socket takes it at once; ``False``: the forwarding task sends it."""
        if (self._send_now is None or not self.batched or self._sending
                or self.ws.application_state is not WebSocketState.CONNECTED):
            return False
        seat, copy = self._copy(batch)
        if not copy["frames"]:
            return True  # nothing of the batch is this connection's
        text = self._one_message(batch, seat, copy)
        if text is None or not self._send_now(text):
            return False
        self._sent(batch, seat, copy)
        self.services.batches_sent.at_once += 1
        return True

    async def _forward_table(self, actor: TableHandle, sub: Subscription, after: int) -> None:
        assert self.player is not None
        pid = self.player.id
        self._after = after
        try:
            while True:
                sub.deliver_directly(self._deliver_now)  # taken back below when this task ends
                async for batch in sub:
                    seat, copy = self._copy(batch)
                    if not copy["frames"]:
                        continue
                    text = self._one_message(batch, seat, copy)
                    if text is not None:
                        await self.send_text(text)
                        self._sent(batch, seat, copy)
                        self.services.batches_sent.awaited += 1
                        continue
                    for seq, sender, head, friends_only in copy["frames"]:
                        if seq > self._after:
                            if sender is None or not await self._withheld(sender, friends_only):
                                await self.send_text(head + copy["tail"])
                                self._seats_sent, self._view_at = batch["seats"], (seat, batch["seq"])
                            self._after = seq
                if not sub.overflowed or self._table_sub is not sub:
                    return  # closed: the connection left the table or ended
                # Fell behind: subscribe again, then a fresh picture (no event can fall between the
                # two), then carry on from it rather than a stream with a hole.
                old, sub = sub, await self.services.bus.subscribe(actor.channel)
                if self._table_sub is not old:
                    await sub.close()  # left the table meanwhile
                    return
                self._table_sub = sub
                try:
                    state: dict[str, Any] | None = await actor.fresh_state(pid)
                except TableError:
                    state = None
                if state is None or state["seq"] <= self._after:
                    # No fresh picture on this node (the table lives on another): the client
                    # reconnects and joins again with its last seq, which fills the hole.
                    await self._close(4009, "fell behind; join again")
                    return
                await self.send(state)
                self._after, self._seats_sent, self._view_at = state["seq"], None, (state["seat"], state["seq"])
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the client went away; the read loop cleans up
        except Exception:
            log.exception("forwarding table events failed")
        finally:
            # No batch may go out at once with nobody reading the rest: the stream just stops.
            sub.deliver_directly(None)

    async def _hidden(self, event: dict[str, Any], asked: dict[str, str | None] | None = None) -> bool:
        """Whether this connection holds back a chat event (text, quick phrase or emote): one from a
        player its player blocked, or words for the sender's friends when its player is not one.
        Read at each message, so a block or a friendship counts from the next one; ``asked``
        keeps answers within one resync."""
        sender = event.get("player")
        if event["kind"] != "chat" or sender is None:
            return False
        return await self._withheld(sender, event.get("channel") == "friends", asked)

    async def _withheld(self, sender: str, friends_only: bool, asked: dict[str, str | None] | None = None) -> bool:
        if self.player is None or sender == self.player.id:
            return False
        if asked is not None and sender in asked:
            link = asked[sender]
        else:
            link = await self.services.social.store.link(self.player.id, sender)
            if asked is not None:
                asked[sender] = link
        return link == "blocked" or (friends_only and link != "friends")

    async def _forward_player(self, sub: Subscription) -> None:
        try:
            async for message in sub:
                if SIGNED_OUT in message:  # a note between nodes, never sent on: this token revoked?
                    if message[SIGNED_OUT] in (None, self.token_hash):
                        await self._close(4001, "signed out")
                        return
                    continue
                await self.send(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass


async def websocket_endpoint(ws: WebSocket) -> None:
    """``/ws``: the services come from the app's state, like the HTTP routes'."""
    services: Services = ws.app.state.services
    if not origin_allowed(ws, services.config.allowed_origins):
        await ws.close(code=4003)  # before accept: the handshake is refused with HTTP 403
        return
    await ws.accept()
    address = ws.client.host if ws.client else "?"
    if not services.open_by_address.open(address):
        await ws.close(code=4013, reason="too many connections from this address")
        return
    try:
        await Connection(ws, services, ws.app.state.metrics.action_latency.observe).run()
    finally:
        services.open_by_address.close(address)
