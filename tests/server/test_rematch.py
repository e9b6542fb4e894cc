"""Rematch: after the game, every person asks to play again; a new table keeps the seats and bots,
has fresh fairness seeds, and both tables link to each other (also after a kill -9)."""

from __future__ import annotations

import asyncio

from .harness import Player, ServerProcess, game_over, run

SHORT = {"target_points": 1}  # one hand is a game


async def play_out(*players: Player) -> None:
    await asyncio.gather(*(p.play(until=game_over) for p in players))


def test_rematch_keeps_seats_and_bots_with_a_new_seed(server: ServerProcess) -> None:
    async def main() -> None:
        a, b, c = [await Player(server, n, seed=i).signup() for i, n in enumerate(("ali", "bita", "cyrus"))]
        room = await a.api("POST", "/api/tables", {"mode": "private", "players": 3, "rules": SHORT,
                                                   "bot": "random", "seat": 0}, status=201)
        tid = room["table_id"]
        await b.api("POST", f"/api/tables/{tid}/sit", {"seat": 2, "code": room["code"]})
        await a.api("POST", f"/api/tables/{tid}/bot", {"seat": 1})
        await a.api("POST", f"/api/tables/{tid}/rematch", {}, status=409)  # not started yet: not_over
        started = await a.api("POST", f"/api/tables/{tid}/start", {})
        await a.api("POST", f"/api/tables/{tid}/rematch", {}, status=409)  # playing: not_over
        for p in (a, b, c):
            await p.connect()
        await a.join(tid)
        await b.join(tid)
        await c.join(tid, code=room["code"])  # a spectator
        await play_out(a, b)
        refused = await c.api("POST", f"/api/tables/{tid}/rematch", {}, status=400)
        assert refused["error"]["code"] == "spectator"

        first = await a.api("POST", f"/api/tables/{tid}/rematch", {})
        assert first["rematch"] == [0] and first["next"] is None
        again = await a.api("POST", f"/api/tables/{tid}/rematch", {})  # asking twice counts once
        assert again["rematch"] == [0] and again["next"] is None
        asked = await b.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "rematch")
        assert asked["event"] == {"kind": "rematch", "seat": 0}

        done = await b.api("POST", f"/api/tables/{tid}/rematch", {})
        nxt = done["next"]
        assert nxt and nxt != tid and done["rematch"] == [0, 2]
        for p in (a, b, c):  # everyone watching the old table hears where the rematch is
            linked = await p.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "next_table")
            assert linked["event"] == {"kind": "next_table", "table_id": nxt}
        new = await a.api("GET", f"/api/tables/{nxt}")
        assert new["previous"] == tid and new["next"] is None and new["status"] == "playing"
        assert new["game_id"] != started["game_id"]
        assert [(s["kind"], s["player_id"], s["bot"]) for s in new["seats"]] == \
            [(s["kind"], s["player_id"], s["bot"]) for s in started["seats"]]
        assert new["host"] == a.id and new["mode"] == "private" and new["code"] and new["code"] != room["code"]
        assert new["rules"] == started["rules"] and new["timers"] == started["timers"]
        old_fair = (await a.api("GET", f"/api/tables/{tid}/fair"))["hands"]
        new_fair = (await a.api("GET", f"/api/tables/{nxt}/fair"))["hands"]
        assert new_fair[0]["commit"] != old_fair[0]["commit"]
        # Once linked, a late ask changes nothing.
        late = await b.api("POST", f"/api/tables/{tid}/rematch", {})
        assert late["next"] == nxt
        state = await b.join(nxt)
        assert state["seat"] == 2 and state["view"]["seat"] == 2
        for p in (a, b, c):
            await p.close()
    run(main())


def test_rematch_against_the_computer_starts_at_once_and_survives_kill9(make_server) -> None:  # type: ignore[no-untyped-def]
    server = make_server()

    async def main() -> tuple[str, str, Player]:
        p = await Player(server, "solo").signup()
        table = await p.api("POST", "/api/tables", {"mode": "computer", "players": 2, "bot": "random",
                                                   "rules": SHORT, "seat": 1}, status=201)
        await p.connect()
        await p.join(table["table_id"])
        await play_out(p)
        done = await p.api("POST", f"/api/tables/{table['table_id']}/rematch", {})
        assert done["next"] and done["rematch"] == [1]  # the only person asked: the bot stays and plays
        new = await p.api("GET", f"/api/tables/{done['next']}")
        assert [s["kind"] for s in new["seats"]] == ["bot", "human"] and new["status"] == "playing"
        await p.close()
        return table["table_id"], done["next"], p

    old, nxt, p = run(main())
    server.kill9()
    server.start()

    async def after() -> None:
        q = Player.holding(server, "solo", p.token, p.id)
        before = await q.api("GET", f"/api/tables/{old}")
        assert before["next"] == nxt and before["rematch"] == [1]
        new = await q.api("GET", f"/api/tables/{nxt}")
        assert new["previous"] == old and new["status"] == "playing"
        await q.close()
    run(after())
