"""The server's WebSocket protocol (:mod:`hokm.server.wsprotocol`) on a real socket, in process.

Its send that does not wait delivers in order with the awaited sends and says ``False`` once the
client has gone; and a closed connection's protocol objects, deflate contexts included, are freed
by reference counting alone (``hokm.heap.GcPolicy`` runs a full collection only every few hours, so a
cycle left behind by every closed connection would pile up).
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.server import ServerProtocol
from websockets.sync.client import connect

from hokm.server.wsprotocol import SEND_NOW, protocol_class

RESULTS: dict[str, Any] = {}


async def echo_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Answers each text message ``n`` with ``n`` messages, alternating the two sends; after the
    client leaves, records what the send that does not wait said."""
    if scope["type"] == "lifespan":
        while True:
            m = await receive()
            if m["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif m["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    send_now = scope["extensions"][SEND_NOW]
    await receive()
    await send({"type": "websocket.accept"})
    while True:
        m = await receive()
        if m["type"] == "websocket.disconnect":
            RESULTS["after_close"] = send_now("late")
            return
        for i in range(int(m["text"])):
            if i % 2:
                await send({"type": "websocket.send", "text": str(i)})
            else:
                assert send_now(str(i))


@pytest.fixture(params=[True, False], ids=["deflate", "no-deflate"])
def server(request: pytest.FixtureRequest) -> Iterator[str]:
    config = uvicorn.Config(echo_app, host="127.0.0.1", port=0, ws=protocol_class(1024), log_level="warning",
                            lifespan="on", ws_per_message_deflate=request.param)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    port = srv.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}/"
    finally:
        srv.should_exit = True
        thread.join(10)


def _server_protocols() -> int:
    n = 0
    for o in gc.get_objects():
        try:
            n += isinstance(o, ServerProtocol)
        except ReferenceError:  # a weak proxy whose object is gone
            pass
    return n


def test_sends_at_once_and_awaited_arrive_in_order_and_nothing_is_sent_after_the_close(server: str) -> None:
    RESULTS.clear()
    with connect(server) as ws:
        ws.send("40")
        assert [ws.recv(timeout=10) for _ in range(40)] == [str(i) for i in range(40)]
    deadline = time.monotonic() + 10
    while "after_close" not in RESULTS and time.monotonic() < deadline:
        time.sleep(0.02)
    assert RESULTS["after_close"] is False


def test_a_closed_connection_is_freed_without_a_collection(server: str) -> None:
    with connect(server) as ws:  # one connection first, so that everything imported is in place
        ws.send("1")
        ws.recv(timeout=10)
    time.sleep(0.3)
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()  # from here only reference counting frees anything
    try:
        before = _server_protocols()
        for _ in range(5):
            with connect(server) as ws:
                ws.send("3")
                for _ in range(3):
                    ws.recv(timeout=10)
        deadline = time.monotonic() + 10
        while _server_protocols() > before and time.monotonic() < deadline:  # the server's clean-up
            time.sleep(0.05)
        assert _server_protocols() == before
    finally:
        if was_enabled:
            gc.enable()
