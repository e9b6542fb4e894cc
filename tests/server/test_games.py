"""Whole games through a real server: 4 clients, 3 and 2 players, one client against bots, a room."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from hokm.records import load_record

from .harness import Player, ServerProcess, game_over, run


async def _room(server: ServerProcess, players: int, humans: int, bots: list[int]) -> tuple[list[Player], str]:
    """A private room: the host at seat 0, guests at the next seats, bots at ``bots``; started."""
    ps = [await Player(server, f"p{i}", seed=i).signup() for i in range(humans)]
    host = ps[0]
    table = await host.api("POST", "/api/tables", {"mode": "private", "players": players, "bot": "random",
                                                  "timers": {"trump": 30, "play": 30, "discard": 30, "draw": 30}},
                           status=201)
    assert table["status"] == "waiting" and len(table["code"]) == 8
    assert table["invite_url"].endswith("/?join=" + table["code"])
    tid = table["table_id"]
    free = [s for s in range(1, players) if s not in bots]
    for p, seat in zip(ps[1:], free):
        found = await p.api("GET", f"/api/codes/{table['code'].lower()}")
        assert found["table_id"] == tid
        await p.api("POST", f"/api/tables/{tid}/sit", {"seat": seat, "seed": "ab12", "code": found["code"]})
    for seat in bots:
        await host.api("POST", f"/api/tables/{tid}/bot", {"seat": seat, "level": "random"})
    for p in ps:
        await p.connect()
        state = await p.join(tid)
        assert state["view"] is None and state["table"]["status"] == "waiting"
    started = await host.api("POST", f"/api/tables/{tid}/start", {})
    assert started["status"] == "playing"
    return ps, tid


async def _check_record(ps: list[Player], over: dict, tmp_path) -> dict:
    gid = over["event"]["game_id"]
    record = await ps[0].api("GET", f"/api/games/{gid}/record")
    game = load_record(record)
    assert game.is_over and list(game.scores) == over["event"]["scores"]
    assert all("fair" in h for h in record["hands"])
    verdict = await ps[0].api("POST", "/api/verify", record)
    assert verdict["ok"], verdict
    assert verdict["signature"]["status"] == "signed" and verdict["signature"]["this_server"], verdict
    key = (await ps[0].api("GET", "/api/info"))["signing_key"]
    assert record["meta"]["signature"]["public_key"] == key
    replay = await ps[-1].api("GET", f"/api/games/{gid}/replay")
    assert replay["record"] == record
    assert [h["result"] for h in replay["frames"]["hands"]] == [r.to_json() for r in game.results]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    for cmd in (["replay"], ["verify"], ["verify", "--key", key]):
        done = subprocess.run([sys.executable, "-m", "hokm.cli.main", *cmd, str(path)], capture_output=True,
                              timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
    return record


def test_four_clients_play_a_whole_game(server: ServerProcess, tmp_path) -> None:
    async def main() -> None:
        ps, tid = await _room(server, 4, 4, [])
        overs = await asyncio.gather(*(p.play() for p in ps))
        assert len({json.dumps(o["event"]) for o in overs}) == 1
        record = await _check_record(ps, overs[0], tmp_path)
        assert record["names"] == ["p0", "p1", "p2", "p3"]
        replay = await ps[0].api("GET", f"/api/games/{overs[0]['event']['game_id']}/replay")
        assert replay["bots"] == [False] * 4
        me = await ps[1].api("GET", "/api/me")
        assert me["stats"]["games"] == 1 and me["stats"]["rated_games"] == 1
        board = await ps[0].api("GET", "/api/leaderboard")
        assert {r["player_id"] for r in board["players"]} == {p.id for p in ps}
        mine = await ps[2].api("GET", "/api/me/games")
        assert mine["games"][0]["game_id"] == overs[0]["event"]["game_id"]
        stranger = await Player(server, "stranger").signup()
        await stranger.api("GET", f"/api/games/{overs[0]['event']['game_id']}/record", status=403)
        await stranger.api("GET", f"/api/games/{overs[0]['event']['game_id']}/replay", status=403)
        for p in [*ps, stranger]:
            await p.close()
    run(main())


@pytest.mark.parametrize("players", [2, 3])
def test_small_tables_with_all_humans(server: ServerProcess, tmp_path, players: int) -> None:
    async def main() -> None:
        ps, tid = await _room(server, players, players, [])
        overs = await asyncio.gather(*(p.play() for p in ps))
        await _check_record(ps, overs[0], tmp_path)
        for p in ps:
            await p.close()
    run(main())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_client_against_bots(server: ServerProcess, tmp_path, players: int) -> None:
    async def main() -> None:
        p = await Player(server, "solo").signup()
        table = await p.api("POST", "/api/tables", {"mode": "computer", "players": players, "bot": "random",
                                                   "seat": players - 1, "seed": "00ff"}, status=201)
        assert table["status"] == "playing"
        assert [s["kind"] for s in table["seats"]].count("bot") == players - 1
        await p.connect()
        state = await p.join(table["table_id"])
        assert state["seat"] == players - 1 and state["view"]["seat"] == players - 1
        # the record is not available while the game is on
        await p.api("GET", f"/api/games/{table['game_id']}/record", status=409)
        await p.api("GET", f"/api/games/{table['game_id']}/replay", status=409)
        hint_asked = False
        over = None
        while over is None:
            msg = await p.play(until=lambda m: game_over(m) or bool(m.get("view") and m["view"]["legal"]))
            if game_over(msg):
                over = msg
                break
            if not hint_asked:
                hint_asked = True
                await p.send({"type": "hint"})
                hint = await p.expect(lambda m: m["type"] in ("hint", "error"))
                assert hint["type"] == "hint" and hint["action"] in p.view["legal"]
                await p.send({"type": "action", "action": hint["action"], "seq": p.seq})
                continue
            await p.send({"type": "action", "action": p.choose(msg["view"]), "seq": p.seq})
        record = await _check_record([p], over, tmp_path)
        assert record["hands"][0]["fair"]["seat_seeds"][players - 1] == "00ff"
        replay = await p.api("GET", f"/api/games/{table['game_id']}/replay")
        assert replay["bots"] == [True] * (players - 1) + [False]  # the page names the computer's seats itself
        await p.close()
    run(main())


def test_private_room_seat_choice_and_a_bot(server: ServerProcess, tmp_path) -> None:
    async def main() -> None:
        host = await Player(server, "host").signup()
        guest = await Player(server, "guest", seed=5).signup()
        table = await host.api("POST", "/api/tables", {"mode": "private", "players": 4, "seat": 1}, status=201)
        tid = table["table_id"]
        # seat rules before the start
        await guest.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": table["code"]}, status=409)  # the host's seat
        await guest.api("POST", f"/api/tables/{tid}/sit", {"seat": 3, "code": table["code"]})
        await guest.api("POST", f"/api/tables/{tid}/sit", {"seat": 2}, status=409)  # already seated
        await guest.api("POST", f"/api/tables/{tid}/bot", {"seat": 0}, status=403)  # not the host
        await host.api("POST", f"/api/tables/{tid}/start", {}, status=409)  # seats still empty
        await host.api("POST", f"/api/tables/{tid}/bot", {"seat": 0, "level": "no-such-bot"}, status=400)
        await host.api("POST", f"/api/tables/{tid}/bot", {"seat": 0, "level": "random"})
        await host.api("POST", f"/api/tables/{tid}/bot", {"seat": 2, "level": "random"})
        await guest.api("POST", f"/api/tables/{tid}/free", {"seat": 3})
        await guest.api("POST", f"/api/tables/{tid}/sit", {"seat": 3, "code": table["code"]})
        await guest.api("POST", f"/api/tables/{tid}/start", {}, status=403)
        info = await host.api("POST", f"/api/tables/{tid}/start", {})
        assert [s["kind"] for s in info["seats"]] == ["bot", "human", "bot", "human"]
        await host.api("POST", f"/api/tables/{tid}/sit", {"seat": 0}, status=409)  # started
        for p in (host, guest):
            await p.connect()
            state = await p.join(tid)
        assert state["seat"] == 3
        overs = await asyncio.gather(host.play(), guest.play())
        await _check_record([host, guest], overs[0], tmp_path)
        for p in (host, guest):
            await p.close()
    run(main())


def test_the_example_client_plays_a_game(server: ServerProcess) -> None:
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "client.py"
    done = subprocess.run([sys.executable, str(script), server.url, "--players", "3", "--bot", "random"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fairness check: all" in done.stdout and "hands verified" in done.stdout
