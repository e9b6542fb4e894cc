"""A hostile client tries every bad input; each gets an error, and the table plays on unharmed."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .harness import WAIT, Player, ServerProcess, run


async def _closed_with(ws, code: int) -> None:
    with pytest.raises(ConnectionClosed) as info:
        for _ in range(50):
            await asyncio.wait_for(ws.recv(), WAIT)
    assert info.value.rcvd is not None and info.value.rcvd.code == code


def test_bad_connections_are_refused(make_server) -> None:
    server = make_server(HOKM_HELLO_TIMEOUT="0.5", HOKM_ALLOWED_ORIGINS="http://friend.example")

    async def main() -> None:
        # A browser page on another site may not open the socket.
        with pytest.raises(InvalidStatus) as info:
            await websockets.connect(server.ws_url, origin="http://evil.example", open_timeout=WAIT)
        assert info.value.response.status_code == 403
        for origin in (server.url, "http://friend.example"):  # its own pages, and a listed origin
            ok = await websockets.connect(server.ws_url, origin=origin, open_timeout=WAIT)
            await ok.close()
        # Something else than hello first.
        ws = await websockets.connect(server.ws_url)
        await ws.send(json.dumps({"type": "join", "table": "x"}))
        assert json.loads(await ws.recv())["code"] == "auth_required"
        await _closed_with(ws, 4001)
        # A wrong token.
        ws = await websockets.connect(server.ws_url)
        await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        assert json.loads(await ws.recv())["code"] == "unauthorized"
        await _closed_with(ws, 4001)
        # Silence.
        ws = await websockets.connect(server.ws_url)
        await _closed_with(ws, 4001)
        # HTTP without or with a bad token, bad bodies, unknown paths.
        async with httpx.AsyncClient(base_url=server.url) as http:
            r = await http.post("/api/tables", json={"mode": "computer"})
            assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
            r = await http.get("/api/me", headers={"Authorization": "Bearer nope"})
            assert r.status_code == 401
            r = await http.post("/api/guest", content=b"{not json")
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
            r = await http.post("/api/guest", json={"nickname": "\u0000\u0001"})
            assert r.status_code == 400
            r = await http.post("/api/guest", json={"nickname": "x" * 500})
            assert r.status_code == 400
            r = await http.get("/api/nothing/here")
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
            r = await http.post("/api/verify", content=b"[1, 2]")
            assert r.status_code == 401
            token = (await http.post("/api/guest", json={"nickname": "eve"})).json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            r = await http.post("/api/verify", content=b"[1, 2]", headers=auth)
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_record"
            r = await http.get("/api/tables/nope", headers=auth)
            assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
            for body, code in [({"mode": "computer", "players": 5}, "bad_request"),
                               ({"mode": "computer", "rules": {"target_points": 0}}, "bad_rules"),
                               ({"mode": "computer", "rules": {"partner_draw": True}}, "bad_rules"),
                               ({"mode": "computer", "rules": {"surprise": 1}}, "bad_rules"),
                               ({"mode": "computer", "bot": "oracle"}, "unknown_bot"),
                               ({"mode": "computer", "players": 2, "seat": 3}, "no_such_seat"),
                               ({"mode": "computer", "timers": {"play": 0}}, "bad_request"),
                               ({"mode": "computer", "seed": "xyz"}, "bad_request"),
                               ({"mode": "tournament"}, "bad_request")]:
                r = await http.post("/api/tables", json=body, headers=auth)
                assert r.status_code == 400 and r.json()["error"]["code"] == code, (body, r.text)
            r = await http.get("/api/codes/AAAAAAAA", headers=auth)
            assert r.status_code == 404
    run(main())


def test_hostile_messages_never_harm_the_table(make_server) -> None:
    # The test's players answer as fast as the other side moves, at times faster than 20 a second:
    # a short flood window refills their few rate refusals, while a burst of pings still empties it.
    server = make_server(HOKM_RATE_PER_SECOND="20", HOKM_RATE_BURST="40", HOKM_FLOOD_LIMIT="60",
                         HOKM_FLOOD_WINDOW="5")

    async def main() -> None:
        honest = await Player(server, "honest", seed=1).signup()
        eve = await Player(server, "eve", seed=2).signup()
        table = await honest.api("POST", "/api/tables", {"mode": "private", "players": 2, "hints": False},
                                 status=201)
        tid = table["table_id"]
        await eve.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": table["code"]})
        for p in (honest, eve):
            await p.connect()
            await p.join(tid)
        await honest.api("POST", f"/api/tables/{tid}/start", {})
        for p in (honest, eve):
            await p.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "deal")

        async def refused(message, code: str) -> dict:  # type: ignore[type-arg]
            await eve.ws.send(message if isinstance(message, str) else json.dumps(message))
            err = await eve.expect(lambda m: m["type"] == "error")
            assert err["code"] == code, (message, err)
            return err  # type: ignore[no-any-return]

        if eve.view["to_move"] == eve.seat:  # the hostile one is whoever is not to move
            honest, eve = eve, honest
        view = eve.view
        assert view is not None and view["to_move"] == honest.seat
        others = [c for c in ("AS", "KH", "2C", "QD", "7S") if c not in view["hand"]]
        await refused("not json at all", "bad_message")
        await refused("[1, 2, 3]", "bad_message")
        await refused({"type": "teleport"}, "unknown_type")
        await refused({"no": "type"}, "unknown_type")
        await refused({"type": "action", "v": 99, "action": {"type": "play", "card": "AS"}}, "bad_version")
        await refused({"type": "action"}, "bad_message")
        await refused({"type": "action", "action": {"type": "play", "card": "ZZ"}}, "bad_action")
        await refused({"type": "action", "action": {"type": "play"}}, "bad_message")
        await refused({"type": "action", "action": {"type": "trump", "suit": "S"}}, "not_your_turn")
        await refused({"type": "action", "action": {"type": "play", "card": others[0]}}, "not_your_turn")
        await refused({"type": "action", "action": {"type": "trump", "suit": "S"}, "seq": 1}, "stale_seq")
        await refused({"type": "hint"}, "hints_disabled")
        await refused({"type": "seed", "seed": "not hex"}, "bad_message")
        # Ids a pong could not carry back exactly (past 64 bits the server could not even write them).
        await refused('{"type":"ping","id":18446744073709551616}', "bad_message")
        await refused('{"type":"ping","id":-9223372036854775809}', "bad_message")
        await refused({"type": "ping", "id": 2**53}, "bad_message")
        await refused({"type": "hello", "token": eve.token}, "bad_message")
        await refused({"type": "join", "table": "no-such-table"}, "not_found")
        await refused("x" * 20_000, "too_large")
        # A frame over the transport limit closes the connection.
        big = await Player(server, "big").signup()
        await big.connect()
        await big.ws.send("y" * 70_000)
        await _closed_with(big.ws, 1009)
        # Eve's first decision: the wrong kind of action, cards she does not hold, the wrong count.
        me = eve.seat
        await honest.play(until=lambda m: bool(m.get("view") and m["view"]["to_move"] == me
                                               and m["view"]["phase"] != "trump"), timeout=60)
        await eve.expect(lambda m: m["type"] == "event" and m["seq"] == honest.seq)
        hand = eve.view["hand"]
        foreign = [c for c in ("AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC") if c not in hand]
        if eve.view["phase"] == "discard":
            await refused({"type": "action", "action": {"type": "play", "card": hand[0]}, "seq": eve.seq},
                          "wrong_phase")
            await refused({"type": "action", "action": {"type": "discard", "cards": foreign[:2]}, "seq": eve.seq},
                          "bad_discard")
            err = await refused({"type": "action", "action": {"type": "discard", "cards": hand[:4]},
                                 "seq": eve.seq}, "bad_discard")
            assert err["count"] == 2, err  # the engine's facts come with the refusal: how many to lay down
        # Then in trick play: a card she does not hold.
        in_play = lambda m: bool(m.get("view") and m["view"]["to_move"] == me  # noqa: E731
                                 and m["view"]["phase"] == "play")
        if not in_play({"view": eve.view}):
            await asyncio.gather(honest.play(until=in_play, timeout=60), eve.play(until=in_play, timeout=60))
        hand = eve.view["hand"]
        foreign = [c for c in ("AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC") if c not in hand]
        err = await refused({"type": "action", "action": {"type": "play", "card": foreign[0]}, "seq": eve.seq},
                            "not_in_hand")
        assert err["card"] == foreign[0] and "suit" not in err, err
        trick = eve.view["trick"]
        if trick:
            led = trick[0]["card"][-1]
            off = [c for c in hand if c[-1] != led]
            if off and any(c[-1] == led for c in hand):
                err = await refused({"type": "action", "action": {"type": "play", "card": off[0]},
                                      "seq": eve.seq}, "must_follow_suit")
                assert (err["suit"], err["card"]) == (led, off[0]), err  # the client words it in its language
        # A spectator cannot act, even knowing the table.
        watcher = await Player(server, "watcher").signup()
        await watcher.connect()
        await watcher.join(tid, code=table["code"])
        await watcher.send({"type": "action", "action": {"type": "play", "card": hand[0]}})
        assert (await watcher.expect(lambda m: m["type"] == "error"))["code"] == "spectator"
        await watcher.close()
        # A flood is rate limited, then the connection is closed.
        for _ in range(200):
            try:
                await eve.ws.send(json.dumps({"type": "ping"}))
            except ConnectionClosed:
                break
        codes = set()
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(400):
                m = json.loads(await asyncio.wait_for(eve.ws.recv(), WAIT))
                if m["type"] == "error":
                    codes.add(m["code"])
        assert "rate_limited" in codes and closed.value.rcvd.code == 4008
        # Eve comes back (a bot stood in meanwhile or not) and the game finishes normally.
        eve.ws = None
        await eve.connect()
        await eve.join(tid)
        overs = await asyncio.gather(honest.play(), eve.play())
        record = await honest.api("GET", f"/api/games/{overs[0]['event']['game_id']}/record")
        assert (await honest.api("POST", "/api/verify", record))["ok"]
        for p in (honest, eve, big):
            await p.close()
    run(main())
    assert "Traceback" not in server.log(), server.log()[-3000:]


def test_invite_codes_cannot_be_enumerated_quickly(server) -> None:
    async def main() -> None:
        p = await Player(server, "guesser").signup()
        statuses = [(await p.http.get(f"/api/codes/AAAA{i:04d}")).status_code for i in range(30)]
        assert statuses[:20] == [404] * 20 and 429 in statuses[20:]
        await p.close()
    run(main())


def test_one_player_cannot_fill_the_server(server) -> None:
    async def main() -> None:
        p = await Player(server, "hoarder").signup()
        for _ in range(5):
            await p.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        r = await p.http.post("/api/tables", json={"mode": "private", "players": 2})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"
        other = await Player(server, "someone-else").signup()
        await other.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        for q in (p, other):
            await q.close()
    run(main())


def test_a_client_gone_before_its_body_arrived_leaves_no_traceback(server: ServerProcess) -> None:
    """A request whose body never arrives whole (a phone that lost its signal, a page closed mid-upload): the
    server reads what came, answers no one, logs nothing, and goes on serving."""
    import socket

    host, port = "127.0.0.1", server.port
    for path in ("/api/verify", "/api/guest"):
        for declared in ("content-length: 5000", "transfer-encoding: chunked"):
            with socket.create_connection((host, port), timeout=10) as s:
                s.sendall(f"POST {path} HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\n"
                          f"{declared}\r\n\r\n".encode() + (b"400\r\n" if "chunked" in declared else b"") + b'{"a": "')
                time.sleep(0.2)  # the server is reading the body when the client goes
    time.sleep(0.5)
    assert httpx.post(server.url + "/api/guest", json={"nickname": "after"}, timeout=20).status_code == 201
    assert "Traceback" not in server.log(), server.log()[-3000:]


def test_a_body_sent_in_chunks_is_refused_past_the_limit_without_being_held(make_server) -> None:
    """A body with no declared length (chunked) is read only up to the limit: 64 MB sent to an
    endpoint that takes 64 KB leave the server's memory where it was."""
    import psutil

    server = make_server()

    async def main() -> None:
        proc = psutil.Process(server.proc.pid)
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            assert (await http.get("/api/health")).status_code == 200
            before = proc.memory_info().rss
            peak = before
            chunk = b"[" + b" " * (1 << 20)

            async def chunks():  # type: ignore[no-untyped-def]
                nonlocal peak
                for _ in range(64):
                    peak = max(peak, proc.memory_info().rss)  # while the body arrives, not after it
                    yield chunk
                    await asyncio.sleep(0.005)

            for path in ("/api/guest", "/api/verify"):
                try:
                    r = await http.post(path, content=chunks(), headers={"content-type": "application/json"})
                except httpx.HTTPError:
                    continue  # the server answered and closed before the client finished sending
                assert r.status_code in (400, 401), r.text
            grown = (peak - before) / 2**20
            assert grown < 24, f"the server grew {grown:.0f} MB on 64 MB bodies it refuses"
            r = await http.post("/api/guest", json={"nickname": "after"})
            assert r.status_code == 201
    run(main())
