"""The WebSocket layer against crafted frames, mixed floods and clients that stop reading.

Each test runs a real ``hokm serve`` and checks the answer on the wire and the server's log: a
clean ``error`` (or a documented close code), the connection still usable, never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .harness import WAIT, Player, ServerProcess, run

DEEP_ARRAY = "[" * 1000
DEEP_OBJECT = '{"a":' * 2000 + "1" + "}" * 2000
CRAFTED: list[tuple[str | bytes, str]] = [
    ('{"type":["ping"]}', "unknown_type"),
    ('{"type":{}}', "unknown_type"),
    ('{"type":null}', "unknown_type"),
    ('{"type":7}', "unknown_type"),
    ('{"type":true}', "unknown_type"),
    (DEEP_ARRAY, "bad_message"),
    (DEEP_OBJECT, "bad_message"),
    ('{"type":"ping","id":' + "[" * 150 + "]" * 150 + "}", "bad_message"),
    ("123", "bad_message"),
    ("null", "bad_message"),
    ('"ping"', "bad_message"),
    ("", "bad_message"),
    ('{"type":"ping","id":' + "9" * 5000 + "}", "bad_message"),
    ('{"type":"ping","id":1e999}', "bad_message"),
    ('{"type":"ping","id":NaN}', "bad_message"),
    ('{"type":"ping","id":"\\ud800"}', "bad_message"),
    (b'{"type":"ping","id":"\xff\xfe"}', "bad_message"),
    ('{"v":"1","type":"ping"}', "bad_version"),
    ('{"v":[1],"type":"ping"}', "bad_version"),
    ('{"type":"join","table":["t"]}', "bad_message"),
    ('{"type":"join","table":"t","last_seq":-1}', "bad_message"),
    ('{"type":"action","action":{"type":["play"]}}', "bad_message"),
    ('{"type":"action","action":[]}', "bad_message"),
    ('{"type":"seed","seed":{"x":1}}', "bad_message"),
    ('{"type":"ping","id":{"a":[1,2,{"b":null}]}}', "bad_message"),
]


async def answer(ws: websockets.ClientConnection) -> dict:  # type: ignore[type-arg]
    return json.loads(await asyncio.wait_for(ws.recv(), WAIT))


def no_traceback(server: ServerProcess) -> None:
    log = (server.data_dir / "server.log").read_text(errors="replace")
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]


def test_crafted_frames_get_a_clean_error_and_the_connection_stays(make_server) -> None:
    server = make_server(HOKM_FLOOD_LIMIT="1000")

    async def main() -> None:
        p = await Player(server, "mallory").signup()
        await p.connect()
        ws = p.ws
        for frame, code in CRAFTED:
            await ws.send(frame)
            m = await answer(ws)
            assert m["type"] == "error" and m["code"] == code, (frame[:60], m)
            await ws.send(json.dumps({"type": "ping", "id": 1}))
            assert await answer(ws) == {"v": 1, "type": "pong", "id": 1}, frame[:60]
        await ws.send(b'{"type":"ping","id":"binary"}')  # a binary frame of UTF-8 JSON is read as text
        assert (await answer(ws))["id"] == "binary"
        # Before hello: a crafted type is refused, then the connection closed as unauthenticated.
        for first in ('{"type":["hello"]}', DEEP_ARRAY, b"\xff"):
            raw = await websockets.connect(server.ws_url, open_timeout=WAIT)
            await raw.send(first)
            codes = []
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(5):
                    codes.append((await answer(raw))["code"])
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001, (first, codes)
            assert codes[-1] == "auth_required"
        # An Origin header that is not a URL is refused like a foreign one.
        with pytest.raises(InvalidStatus) as refused:
            await websockets.connect(server.ws_url, origin="http://[", open_timeout=WAIT)  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        # A text frame that is not UTF-8 is the transport's to refuse: close code 1007.
        raw = await websockets.connect(server.ws_url, open_timeout=WAIT)
        await raw.send(b'{"type":"\xff"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            await answer(raw)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        await p.close()

    run(main())
    no_traceback(server)


def test_a_flood_mixed_with_valid_frames_is_closed(make_server) -> None:
    """Accepted frames do not reset the refusal budget: a steady flood is closed with 4008."""
    server = make_server(HOKM_RATE_PER_SECOND="20", HOKM_RATE_BURST="40", HOKM_FLOOD_LIMIT="100")

    async def main() -> None:
        p = await Player(server, "flooder").signup()
        await p.connect()
        ws = p.ws
        replies: dict[str, int] = {}

        async def read() -> int:
            try:
                while True:
                    m = await answer(ws)
                    key = m.get("code") or m["type"]
                    replies[key] = replies.get(key, 0) + 1
            except ConnectionClosed as e:
                assert e.rcvd is not None
                return e.rcvd.code

        reader = asyncio.ensure_future(read())
        end = time.monotonic() + 15
        while time.monotonic() < end and not reader.done():
            try:
                await ws.send('{"type":"ping"}')
            except ConnectionClosed:
                break
            await asyncio.sleep(0.004)  # about 250 a second: some pass the rate limit, most do not
        code = await asyncio.wait_for(reader, WAIT)
        assert code == 4008, replies
        assert replies.get("pong", 0) > 0 and 0 < replies.get("rate_limited", 0) <= 120, replies
        await p.close()

    run(main())
    no_traceback(server)




def test_open_connections_are_capped_per_player_and_per_address(make_server) -> None:  # type: ignore[no-untyped-def]
    """One token cannot hold hundreds of connections, nor one address thousands: over the cap a
    connection is closed with 4013; a place freed is a place to open again."""
    server = make_server(HOKM_MAX_CONNECTIONS_PER_PLAYER="3", HOKM_MAX_CONNECTIONS_PER_ADDRESS="6")

    async def hello(token: str) -> Any:
        ws = await websockets.connect(server.ws_url)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        return ws, json.loads(await asyncio.wait_for(ws.recv(), WAIT))

    async def closed_with(ws: Any, code: int) -> None:
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), WAIT)
        assert ws.close_code == code, ws.close_code

    async def main() -> None:
        p = await Player(server, "many").signup()
        q = await Player(server, "other").signup()
        mine = []
        for _ in range(3):
            ws, first = await hello(p.token)
            assert first["type"] == "welcome"
            mine.append(ws)
        ws, first = await hello(p.token)
        assert first["type"] == "error" and first["code"] == "too_many_connections"
        await closed_with(ws, 4013)
        await mine.pop().close()
        await asyncio.sleep(0.2)
        ws, first = await hello(p.token)  # the place freed is taken again
        assert first["type"] == "welcome"
        mine.append(ws)
        # the address: 3 of p's and 3 of q's fill its 6 places; a seventh is closed before hello
        for _ in range(3):
            ws, first = await hello(q.token)
            assert first["type"] == "welcome"
            mine.append(ws)
        extra = await websockets.connect(server.ws_url)
        await closed_with(extra, 4013)
        for ws in mine:
            await ws.close()
        await p.close()
        await q.close()
    run(main())
    assert "Traceback" not in server.log()


def test_joins_and_seeds_are_limited_per_player(server: ServerProcess) -> None:
    """Each join builds the table's state and may catch up on its events, each seed is an event stored and sent to
    the table: messages the connection's own rate allowed by the thousand. A player opens tables 30 times at once,
    then twice a second, and sends 6 seeds at once, then one every 2 s; past that, ``rate_limited``, and the
    connection carries on."""
    async def main() -> None:
        p = await Player(server, "rejoiner").signup()
        table = await p.api("POST", "/api/tables", {"mode": "computer", "players": 4, "bot": "random"}, status=201)
        tid = table["table_id"]
        await p.connect()
        codes = []
        for _ in range(60):
            await p.send({"type": "join", "table": tid, "last_seq": 0})
            m = await p.expect(lambda m: m["type"] in ("state", "error"))
            codes.append(m["type"] if m["type"] == "state" else m["code"])
        assert codes[:30] == ["state"] * 30 and "rate_limited" in codes[30:], codes
        seeds = []
        for k in range(12):
            await p.send({"type": "seed", "seed": f"{k:04x}"})
            m = await p.expect(lambda m: m["type"] in ("seed_ok", "error"))
            seeds.append(m["type"] if m["type"] == "seed_ok" else m["code"])
        assert seeds[:6] == ["seed_ok"] * 6 and "rate_limited" in seeds[6:], seeds
        await p.send({"type": "ping", "id": 1})
        assert (await p.expect(lambda m: m["type"] == "pong"))["id"] == 1
        await p.close()
    run(main())
    assert "Traceback" not in server.log()


def test_joining_and_leaving_the_public_queue_is_paced_per_player(server: ServerProcess) -> None:
    """Each join or leave of the public queue wakes the matchmaker: 20 at once, then one a second, per player; a
    poll is free, and another player is not held back."""
    async def main() -> None:
        p = await Player(server, "flapper").signup()
        statuses = []
        for k in range(30):
            r = await (p.http.post("/api/queue", json={"players": 4, "seed": "ab" * 8}) if k % 2 == 0
                       else p.http.delete("/api/queue"))
            statuses.append(r.status_code)
        assert statuses[:20] == [200] * 20 and 429 in statuses[20:], statuses
        assert (await p.http.get("/api/queue")).status_code == 200
        other = await Player(server, "patient").signup()
        assert (await other.http.post("/api/queue", json={"players": 4, "seed": "cd" * 8})).status_code == 200
        await other.http.delete("/api/queue")
        for x in (p, other):
            await x.close()
    run(main())
    assert "Traceback" not in server.log()
