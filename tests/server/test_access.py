"""Who may do what, against a real server: private seats, invite codes, tokens, headers, metrics."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from .harness import WAIT, JoinRefused, Player, ServerProcess, run


def test_a_private_seat_needs_the_code_and_only_members_see_it(server: ServerProcess) -> None:
    async def main() -> None:
        host = await Player(server, "host").signup()
        stranger = await Player(server, "stranger").signup()
        room = await host.api("POST", "/api/tables", {"mode": "private", "players": 4}, status=201)
        tid, code = room["table_id"], room["code"]
        assert room["invite_url"].endswith("/?join=" + code)
        # the table id alone shows neither the code nor the link ...
        seen = await stranger.api("GET", f"/api/tables/{tid}")
        assert seen["code"] is None and seen.get("invite_url") is None
        # ... and does not give a seat
        for body in ({"seat": 1}, {"seat": 1, "code": "AAAAAAAA"}):
            r = await stranger.http.post(f"/api/tables/{tid}/sit", json=body)
            assert r.status_code == 403 and r.json()["error"]["code"] == "code_required", r.text
        # guessing codes through the seat costs code lookups like GET /api/codes
        statuses = [(await stranger.http.post(f"/api/tables/{tid}/sit", json={"seat": 1, "code": f"AB{i:06d}"}))
                    .status_code for i in range(25)]
        assert set(statuses[:15]) == {403} and statuses[-1] == 429
        # nor can the table id alone watch the room (its free text is for those invited) ...
        await stranger.connect()
        for given in (None, "AAAAAAAA"):
            with pytest.raises(JoinRefused) as refused:
                await stranger.join(tid, code=given)
            assert refused.value.code in ("code_required", "rate_limited")
        await stranger.send({"type": "ping", "id": "still"})  # ... and the connection carries on
        await stranger.expect(lambda m: m["type"] == "pong")
        # with the code it watches, and watching does not show the code
        state = await stranger.join(tid, code=f" {code.lower()} ")
        assert state["seat"] is None and state["table"]["code"] is None
        await stranger.ws.close()
        stranger.ws = None
        # with the code (any case) the seat is given, and a member sees the code
        info = await stranger.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": code.lower()})
        assert info["code"] == code and info["invite_url"].endswith(code)
        assert (await stranger.api("GET", f"/api/tables/{tid}"))["code"] == code
        await host.connect()
        assert (await host.join(tid))["table"]["code"] == code
        for p in (host, stranger):
            await p.close()
    run(main())


def test_code_lookups_are_limited_per_account_not_per_shared_address(server: ServerProcess) -> None:
    async def main() -> None:
        guesser = await Player(server, "guesser").signup()
        statuses = [(await guesser.http.get(f"/api/codes/AAAA{i:04d}")).status_code for i in range(30)]
        assert statuses[:20] == [404] * 20 and statuses[-1] == 429
        # someone else behind the same address is not blocked by the guesser
        neighbour = await Player(server, "neighbour").signup()
        room = await neighbour.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        friend = await Player(server, "friend").signup()
        for i in range(10):  # a few mistyped codes first: still the friend's own allowance
            assert (await friend.http.get(f"/api/codes/BBBB{i:04d}")).status_code == 404
        found = await friend.api("GET", f"/api/codes/{room['code']}")
        assert found["table_id"] == room["table_id"]
        for p in (guesser, neighbour, friend):
            await p.close()
    run(main())


async def _hello_refused(server: ServerProcess, token: str) -> str:
    ws = await websockets.connect(server.ws_url, open_timeout=WAIT)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    msg = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    assert msg["type"] == "error" and msg["code"] == "unauthorized", msg
    with pytest.raises(ConnectionClosed) as info:
        await asyncio.wait_for(ws.recv(), WAIT)
    assert info.value.rcvd is not None and info.value.rcvd.code == 4001
    return str(msg["message"])


async def _signed_in_socket(server: ServerProcess, token: str) -> websockets.ClientConnection:
    ws = await websockets.connect(server.ws_url)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] == "welcome"
    return ws


async def _still_answers(ws: websockets.ClientConnection) -> None:
    await ws.send(json.dumps({"type": "ping", "id": 7}))
    while (m := json.loads(await asyncio.wait_for(ws.recv(), WAIT)))["type"] != "pong":
        pass
    assert m["id"] == 7


async def _closed_signed_out(ws: websockets.ClientConnection) -> None:
    """A connection opened before its token was revoked is closed with 4001 and accepts nothing more."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), WAIT)
    except ConnectionClosed:
        pass
    assert ws.close_code == 4001, ws.close_code


def test_sign_out_and_sign_out_everywhere(server: ServerProcess) -> None:
    async def main() -> None:
        p = await Player(server, "phone").signup()
        second = (await p.api("POST", "/api/tokens", {}, status=201))["token"]
        third = (await p.api("POST", "/api/tokens", {}, status=201))["token"]
        open_with = {t: await _signed_in_socket(server, t) for t in (p.token, second, third)}
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as c:
            me = await c.get("/api/me", headers={"Authorization": f"Bearer {second}"})
            assert me.json()["player_id"] == p.id
            # this token only: its open connection closes too, the others' stay
            assert (await p.api("POST", "/api/signout", {}))["revoked"] == 1
            r = await p.http.get("/api/me")
            assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
            await _hello_refused(server, p.token)
            await _closed_signed_out(open_with[p.token])
            assert (await c.get("/api/me", headers={"Authorization": f"Bearer {second}"})).status_code == 200
            for t in (second, third):
                await _still_answers(open_with[t])
            # every token of the player
            r = await c.post("/api/signout", json={"everywhere": True}, headers={"Authorization": f"Bearer {second}"})
            assert r.json() == {"revoked": 2}
            for t in (second, third):
                assert (await c.get("/api/me", headers={"Authorization": f"Bearer {t}"})).status_code == 401
                await _hello_refused(server, t)
                await _closed_signed_out(open_with[t])
        await p.close()
    run(main())


def test_tokens_expire_when_unused_and_each_use_renews_them(make_server) -> None:
    server = make_server(HOKM_TOKEN_LIFETIME="3")

    async def main() -> None:
        p = await Player(server, "sleepy").signup()
        for _ in range(5):  # used every second for five seconds: still valid
            await asyncio.sleep(1.0)
            await p.api("GET", "/api/me")
        await asyncio.sleep(4.0)
        r = await p.http.get("/api/me")
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"  # expired (or purged as such)
        await _hello_refused(server, p.token)
        await p.close()
    run(main())


def test_security_headers_on_pages_assets_and_the_api(server: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as c:
            for path, status in (("/", 200), ("/js/app.js", 200), ("/api/info", 200), ("/api/me", 401),
                                 ("/api/nothing", 404)):
                r = await c.get(path)
                assert r.status_code == status, path
                h = r.headers
                csp = h["content-security-policy"]
                assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
                assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
                assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff", path
                assert h["referrer-policy"] == "no-referrer", path
    run(main())


def test_metrics_only_for_allowed_addresses_or_the_operator_token(make_server) -> None:
    async def scrape(server: ServerProcess, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as c:
            return await c.get("/metrics", headers=headers)

    default = make_server()  # loopback is allowed by default
    assert run(scrape(default)).status_code == 200
    assert "hokm_tables" in run(scrape(default)).text
    default.stop()
    # an allow list without loopback: refused, unless the operator's token comes with the request
    guarded = make_server(HOKM_METRICS_ALLOW="10.0.0.0/8", HOKM_METRICS_TOKEN="s3cret-operator-token")
    refused = run(scrape(guarded))
    assert refused.status_code == 404 and "hokm_tables" not in refused.text
    assert run(scrape(guarded, "wrong")).status_code == 404
    allowed = run(scrape(guarded, "s3cret-operator-token"))
    assert allowed.status_code == 200 and "hokm_tables" in allowed.text
