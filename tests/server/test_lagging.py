"""A connection that stops reading falls behind the table; it is resynced and keeps receiving.

In process, so that "stops reading" is exact: the connection's socket is a stand-in whose sends
block while the client is paused (on a real socket the kernel's buffers would absorb a whole game
first). The table is an all-bot game; the watcher joins, pauses until its subscription overflows,
then reads again and must receive a fresh ``state`` and every event after it through ``game_over``;
where no fresh state is at hand (a table on another node), it is closed with 4009 to join again.
A watcher taking batches gets them from the publisher's call while it reads (the stand-in offers the
server's send that does not wait, :mod:`hokm.server.wsprotocol`, refusing it while paused) and
through its forwarding task while it does not, in order either way.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketState

from hokm.engine import Rules
from hokm.server.auth import create_guest
from hokm.server.config import ServerConfig
from hokm.server.protocol import SERVER_MESSAGE, Timers
from hokm.server.seats import SeatKind
from hokm.server.services import Services
from hokm.server.ws import Connection
from hokm.server.wsprotocol import SEND_NOW


class PausableSocket:
    """The part of Starlette's WebSocket a :class:`Connection` uses; sends block while paused."""

    application_state = WebSocketState.CONNECTED
    client = None  # no peer address: the connection counts itself under "?"

    def __init__(self, send_now: bool = False) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self.reading = asyncio.Event()
        self.reading.set()
        self.closed_with: int | None = None
        self.scope: dict[str, Any] = {"extensions": {SEND_NOW: self.send_text_now} if send_now else {}}
        self.sent_at_once = 0

    def client_sends(self, message: dict[str, Any]) -> None:
        self.incoming.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send_text(self, text: str) -> None:
        await self.reading.wait()
        message = json.loads(text)
        SERVER_MESSAGE.validate_python(message)
        self.sent.append(message)

    def send_text_now(self, text: str) -> bool:
        if not self.reading.is_set():
            return False
        message = json.loads(text)
        SERVER_MESSAGE.validate_python(message)
        self.sent.append(message)
        self.sent_at_once += 1
        return True

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": code})


async def until(pred: Any, timeout: float = 60.0) -> None:
    async def poll() -> None:
        while not pred():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), timeout)


async def watch_and_stall(tmp_path: Path, stale_state: bool, batched: bool = False) -> tuple[PausableSocket, Any]:
    """A watcher joins an all-bot game, stops reading until it falls behind, then reads again.

    ``stale_state``: the table's ``state`` answers with the picture taken at the join, as a table
    living on another node does (its proxy here only has the state of the join). ``batched``: the
    watcher takes batches with view patches, and its socket offers the send that does not wait.
    """
    config = ServerConfig(data_dir=str(tmp_path), bus_queue=4, bot_delay=(0.0, 0.002), hand_pause=0.0,
                          bot_processes=0, default_bot="random", hint_bot="random")
    services = Services(config)
    await services.start()
    try:
        lobby = services.lobby
        seats = [lobby._seat(i, SeatKind.BOT, name="random bot", bot="random") for i in range(4)]
        actor = await lobby._new_table(mode="computer", players=4, rules=Rules.from_dict(4, {"target_points": 3}),
                                       timers=Timers(), level="random", hints=False, host=None, seats=seats, code=None)
        await actor.create()
        _, token = await create_guest(services.storage, "watcher")
        ws = PausableSocket(send_now=batched)
        conn = Connection(ws, services)  # type: ignore[arg-type]
        task = asyncio.ensure_future(conn.run())
        ws.client_sends({"type": "hello", "token": token} | ({"batch": True, "view_patches": True} if batched else {}))
        ws.client_sends({"type": "join", "table": actor.id})
        await until(lambda: any(m["type"] == "state" for m in ws.sent))
        if stale_state:
            joined = actor.state(None, None)
            actor.state = lambda seat, last_seq: joined  # type: ignore[method-assign]
        ws.reading.clear()  # the client stops reading
        await actor.start(None)
        await until(lambda: conn._table_sub is not None and conn._table_sub.overflowed)
        assert actor.status == "playing", "the game ended before the watcher fell behind"
        ws.reading.set()  # and reads again
        await until(lambda: actor.status == "over")
        await until(lambda: ws.closed_with is not None
                    or any(e["event"]["kind"] == "game_over" for e in events(ws.sent)), timeout=20)
        ws.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 10)
        return ws, actor
    finally:
        await services.stop()


def events(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table events of ``event`` and ``events`` messages, in the order they came."""
    out: list[dict[str, Any]] = []
    for m in sent:
        if m["type"] == "event":
            out.append(m)
        elif m["type"] == "events":
            out.extend(m["events"])
    return out


@pytest.mark.parametrize("batched", [False, True], ids=["event-by-event", "batches"])
def test_a_watcher_that_stops_reading_is_resynced_and_receives_to_game_over(tmp_path: Path, batched: bool) -> None:
    ws, actor = asyncio.run(asyncio.wait_for(watch_and_stall(tmp_path, stale_state=False, batched=batched), 120))
    assert ws.closed_with is None
    states = [i for i, m in enumerate(ws.sent) if m["type"] == "state"]
    assert len(states) == 2, "one fresh state after falling behind"
    resync = ws.sent[states[1]]
    after = [e["seq"] for e in events(ws.sent[states[1] + 1:])]
    assert after == list(range(resync["seq"] + 1, actor.seq + 1)), "every event after the fresh state"
    assert events(ws.sent)[-1]["event"]["kind"] == "game_over"
    if batched:
        # Sent at once while it read, and through its task after the resync (until its queue emptied).
        assert ws.sent_at_once > 0
        assert any(m["type"] == "events" for m in ws.sent[states[1] + 1:])


def test_without_a_fresh_state_a_lagging_watcher_is_told_to_join_again(tmp_path: Path) -> None:
    ws, _ = asyncio.run(asyncio.wait_for(watch_and_stall(tmp_path, stale_state=True), 120))
    assert ws.closed_with == 4009
    assert [m["type"] for m in ws.sent].count("state") == 1, "no stale picture sent"
