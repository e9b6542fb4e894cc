"""Limits against a real server: nobody fills it from one address or account, and rooms that wait
for nobody are closed, so a full server comes back by itself (restarts included)."""

from __future__ import annotations

import asyncio
import time

import httpx

from .harness import WAIT, Player, ServerProcess, run


async def _guest(server: ServerProcess, name: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as c:
        return await c.post("/api/guest", json={"nickname": name})


def _limited(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "rate_limited"
    assert int(r.headers["retry-after"]) >= 1


def test_guests_from_one_address_are_limited(make_server) -> None:
    server = make_server(HOKM_GUEST_BURST="5", HOKM_GUEST_RATE="0.01")

    async def main() -> None:
        for i in range(5):
            assert (await _guest(server, f"g{i}")).status_code == 201
        _limited(await _guest(server, "one-too-many"))
    run(main())


def test_table_creation_is_limited_per_account_and_per_address(make_server) -> None:
    server = make_server(HOKM_TABLE_BURST="3", HOKM_TABLE_RATE="0.01", HOKM_ADDRESS_TABLE_BURST="5",
                         HOKM_ADDRESS_TABLE_RATE="0.01", HOKM_MAX_HOSTED="50")

    async def main() -> None:
        a = await Player(server, "a").signup()
        b = await Player(server, "b").signup()
        c = await Player(server, "c").signup()
        for _ in range(3):
            await a.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        _limited(await a.http.post("/api/tables", json={"mode": "private", "players": 2}))
        for _ in range(2):  # another account from the same address: until the address's 5 are used
            await b.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        _limited(await c.http.post("/api/tables", json={"mode": "private", "players": 2}))
        for p in (a, b, c):
            await p.close()
    run(main())


def test_waiting_rooms_per_address_are_bounded(make_server) -> None:
    server = make_server(HOKM_MAX_WAITING_PER_ADDRESS="3")

    async def main() -> None:
        ps = [await Player(server, f"p{i}").signup() for i in range(4)]
        for p in ps[:3]:
            await p.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        r = await ps[3].http.post("/api/tables", json={"mode": "private", "players": 2})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables", r.text
        # the rooms still count after a restart: where each was made from is kept with it
        server.kill9()
        server.start()
        r = await ps[3].http.post("/api/tables", json={"mode": "private", "players": 2})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables", r.text
        # a game against the computer is not a waiting room
        await ps[3].api("POST", "/api/tables", {"mode": "computer", "players": 2}, status=201)
        for p in ps:
            await p.close()
    run(main())


def test_parallel_requests_do_not_pass_the_host_and_address_limits(make_server) -> None:
    server = make_server(HOKM_MAX_HOSTED="2", HOKM_MAX_WAITING_PER_ADDRESS="5")

    async def main() -> None:
        ps = [await Player(server, f"p{i}").signup() for i in range(10)]
        rs = await asyncio.gather(*(p.http.post("/api/tables", json={"mode": "private", "players": 2})
                                    for _ in range(6) for p in ps))
        assert sorted(r.status_code for r in rs) == [201] * 5 + [429] * 55, [r.text for r in rs]
        made: dict[str, int] = {}
        for r in rs:
            if r.status_code == 201:
                made[r.json()["host"]] = made.get(r.json()["host"], 0) + 1
        assert max(made.values()) <= 2
        for p in ps:
            await p.close()
    run(main())


def test_concurrent_creations_never_pass_max_tables(make_server) -> None:
    server = make_server(HOKM_MAX_TABLES="5")

    async def main() -> None:
        ps = [await Player(server, f"p{i}").signup() for i in range(12)]
        rs = await asyncio.gather(*(p.http.post("/api/tables", json={"mode": "private", "players": 2}) for p in ps))
        codes = sorted(r.status_code for r in rs)
        assert codes == [201] * 5 + [503] * 7, [r.text for r in rs]
        assert {r.json()["error"]["code"] for r in rs if r.status_code == 503} == {"full"}
        for p in ps:
            await p.close()
    run(main())
    assert "Traceback" not in server.log()


def test_idle_waiting_rooms_close_and_stay_closed_after_a_restart(make_server) -> None:
    server = make_server(HOKM_MAX_TABLES="2", HOKM_WAITING_ROOM_TTL="1.5")

    async def main() -> None:
        host = await Player(server, "host").signup()
        other = await Player(server, "other").signup()
        rooms = [await host.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
                 for _ in range(2)]
        r = await other.http.post("/api/tables", json={"mode": "private", "players": 2})
        assert r.status_code == 503 and r.json()["error"]["code"] == "full"
        server.kill9()  # the rooms are stored waiting; a restart must not bring the block back for good
        server.start()
        end = time.monotonic() + WAIT
        while (await other.http.post("/api/tables", json={"mode": "private", "players": 2})).status_code != 201:
            assert time.monotonic() < end, "the idle rooms were never closed"
            await asyncio.sleep(0.3)
        for room in rooms:
            info = await other.api("GET", f"/api/tables/{room['table_id']}")
            assert info["status"] == "over" and info["game_id"] is None
        assert (await host.api("GET", "/api/me"))["tables"] == []
        for p in (host, other):
            await p.close()
        server.stop()
        server.start()  # closed rooms are not restored: they would fill both places again
        again = await Player(server, "again").signup()
        await again.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        await again.close()
    run(main())


def test_a_room_in_use_is_not_closed(make_server) -> None:
    server = make_server(HOKM_WAITING_ROOM_TTL="1.5")

    async def main() -> None:
        host = await Player(server, "host").signup()
        room = await host.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        for _ in range(10):  # the host's page polls the room
            assert (await host.api("GET", f"/api/tables/{room['table_id']}"))["status"] == "waiting"
            await asyncio.sleep(0.4)
        await host.close()
    run(main())


def test_a_full_server_keeps_the_public_queue_until_there_is_room(make_server) -> None:
    server = make_server(HOKM_MAX_TABLES="1", HOKM_WAITING_ROOM_TTL="4")

    async def main() -> None:
        host = await Player(server, "host").signup()
        await host.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)  # the only place
        a = await Player(server, "a").signup()
        b = await Player(server, "b").signup()
        for p in (a, b):
            await p.api("POST", "/api/queue", {"players": 2})
        await asyncio.sleep(2.0)  # past the queue wait: a table would be made now, but none may be
        assert [(await p.api("GET", "/api/queue"))["status"] for p in (a, b)] == ["queued", "queued"]
        end = time.monotonic() + WAIT  # the idle room closes, and the pair is matched
        while (st := await a.api("GET", "/api/queue"))["status"] != "matched":
            assert time.monotonic() < end and st["status"] == "queued", st
            await asyncio.sleep(0.3)
        assert (await b.api("GET", "/api/queue"))["table"] == st["table"]
        for p in (host, a, b):
            await p.close()
    run(main())
    assert "Traceback" not in server.log()
