"""Public matchmaking, spectators, seeds, hints, info and the static web table."""

from __future__ import annotations

import asyncio
import re
from importlib import resources

import httpx

from .harness import Player, ServerProcess, game_over, run


def test_public_queue_pairs_people_then_fills_with_bots(server: ServerProcess) -> None:
    async def main() -> None:
        a, b, c = [await Player(server, n, seed=i).signup() for i, n in enumerate("abc")]
        await a.connect()
        status = await a.api("POST", "/api/queue", {"players": 2})
        assert status["status"] == "queued" and status["players"] == 2
        await b.api("POST", "/api/queue", {"players": 2, "seed": "b0b0"})
        matched = await a.expect(lambda m: m["type"] == "matched")  # pushed on the WebSocket
        polled = await b.api("GET", "/api/queue")
        assert polled == {"status": "matched", "players": None, "table": matched["table"], "waited": None,
                          "queued": None, "fill_in": None}
        info = await a.api("GET", f"/api/tables/{matched['table']}")
        assert info["mode"] == "public" and {s["player_id"] for s in info["seats"]} == {a.id, b.id}
        await a.api("POST", "/api/queue", {"players": 2}, status=409)  # already at a public table
        b_seat = next(s["seat"] for s in info["seats"] if s["player_id"] == b.id)
        await b.connect()
        state = await b.join(matched["table"])
        assert state["seat"] == b_seat and state["fair"][0]["commit"]
        await b.close()
        # Alone in the 3-player queue: after the wait (1 s here) bots take the empty seats.
        await c.api("POST", "/api/queue", {"players": 3})
        for _ in range(100):
            status = await c.api("GET", "/api/queue")
            if status["status"] == "matched":
                break
            await asyncio.sleep(0.1)
        info = await c.api("GET", f"/api/tables/{status['table']}")
        assert sorted(s["kind"] for s in info["seats"]) == ["bot", "bot", "human"]
        assert info["status"] == "playing"
        left = await c.api("DELETE", "/api/queue")
        assert left["status"] == "idle"
        for p in (a, b, c):
            await p.close()
    run(main())


def test_public_queue_counts_down_and_seats_two_people_as_partners(make_server) -> None:  # type: ignore[no-untyped-def]
    server = make_server(HOKM_QUEUE_WAIT="3")

    async def main() -> None:
        a, b = [await Player(server, n, seed=i).signup() for i, n in enumerate("ab")]
        first = await a.api("POST", "/api/queue", {"players": 4})
        assert first["status"] == "queued" and first["queued"] == 1 and 2.0 < first["fill_in"] <= 3.0
        await asyncio.sleep(0.5)
        second = await b.api("POST", "/api/queue", {"players": 4})
        polled = await a.api("GET", "/api/queue")
        # Both wait for the same table: the bots come when the first player's wait is over.
        assert second["queued"] == polled["queued"] == 2
        assert abs(second["fill_in"] - polled["fill_in"]) < 0.3 and polled["fill_in"] < first["fill_in"] - 0.3
        for _ in range(100):
            status = await a.api("GET", "/api/queue")
            if status["status"] == "matched":
                break
            await asyncio.sleep(0.1)
        assert status["fill_in"] is None
        info = await a.api("GET", f"/api/tables/{status['table']}")
        humans = sorted(s["seat"] for s in info["seats"] if s["kind"] == "human")
        assert humans == [0, 2], info["seats"]  # partners, facing the two bots
        for p in (a, b):
            await p.close()
    run(main())


def test_spectator_seeds_and_hints(server: ServerProcess) -> None:
    async def main() -> None:
        p = await Player(server, "seeder", seed=4).signup()
        table = await p.api("POST", "/api/tables", {"mode": "computer", "players": 3, "bot": "random"},
                            status=201)
        tid = table["table_id"]
        await p.connect()
        state = await p.join(tid)
        # Seeds go to the hand of the latest commit: hand 1 (hand 0 is being played).
        assert [f["hand"] for f in state["fair"]] == [0, 1] and state["fair"][0]["server_seed"] is None
        await p.send({"type": "seed", "seed": "DEADBEEF"})
        ok = await p.expect(lambda m: m["type"] == "seed_ok")
        assert ok["hand"] == 1
        watcher = await Player(server, "watcher").signup()
        await watcher.connect()
        watched = await watcher.join(tid)
        assert watched["seat"] is None and watched["view"]["hand"] == [] and watched["view"]["legal"] == []
        await watcher.send({"type": "hint"})
        assert (await watcher.expect(lambda m: m["type"] == "error"))["code"] == "spectator"
        await watcher.send({"type": "ping", "id": 7})
        assert (await watcher.expect(lambda m: m["type"] == "pong"))["id"] == 7
        over = await p.play()
        fair = (await p.api("GET", f"/api/tables/{tid}/fair"))["hands"]
        assert fair[1]["seat_seeds"] == ["deadbeef", None, None] and fair[0]["server_seed"] is not None
        record = await p.api("GET", f"/api/games/{over['event']['game_id']}/record")
        assert record["hands"][1]["fair"]["seat_seeds"][0] == "deadbeef"
        assert (await p.api("POST", "/api/verify", record))["ok"]
        # The watcher saw the whole game, and the same end.
        end = await watcher.expect(game_over)
        assert end["event"] == over["event"]
        await p.send({"type": "seed", "seed": "00"})
        assert (await p.expect(lambda m: m["type"] == "error"))["code"] == "seed_closed"
        games = await p.api("GET", "/api/games")
        assert games["games"][0]["game_id"] == over["event"]["game_id"]
        for q in (p, watcher):
            await q.close()
    run(main())


def test_info_and_the_web_table(server: ServerProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.url) as http:
            info = (await http.get("/api/info")).json()
            assert info["v"] == 1 and "random" in [b["name"] for b in info["bots"]]
            assert info["timers"] == {"trump": 30.0, "play": 20.0, "discard": 30.0, "draw": 20.0}
            assert (await http.get("/api/health")).json() == {"ok": True}
            static = resources.files("hokm") / "web" / "static" / "index.html"
            page = await http.get("/")
            if static.is_file():
                # The shipped page, with its asset URLs versioned and its modules announced.
                shipped = re.sub(r"/assets/[0-9a-f]{16}/", "", page.text)
                shipped = re.sub(r'\s*<link rel="modulepreload" href="[^"]+">', "", shipped)
                assert page.status_code == 200 and shipped == static.read_text(encoding="utf-8")
            else:
                assert page.status_code == 404
    run(main())
