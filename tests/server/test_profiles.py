"""Profiles against a real server process: games and wins per mode and player count, the rating
history growing one point per rated game, recent games with their replays, head-to-head against a
friend, and the public page showing nothing its player has not made public."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any, get_args

from hokm.rules import side_of
from hokm.server.protocol import Avatar, ProfileResponse, PublicProfileResponse

from .harness import Player, ServerProcess, game_over, run
from .test_social import befriend, claim

SHORT = {"target_points": 1}  # one hand is a game
AVATARS_JS = Path(__file__).resolve().parents[2] / "src/hokm/web/static/js/avatars.js"


async def profile(p: Player) -> dict[str, Any]:
    data = await p.api("GET", "/api/me/profile")
    ProfileResponse.model_validate(data)
    return data  # type: ignore[no-any-return]


async def vs_computer(p: Player, players: int) -> None:
    table = await p.api("POST", "/api/tables", {"mode": "computer", "players": players, "bot": "random",
                                                "rules": SHORT}, status=201)
    await p.join(table["table_id"])
    await p.play(until=game_over)


async def private_game(host: Player, guest: Player, *, players: int = 2, guest_seat: int = 1) -> None:
    room = await host.api("POST", "/api/tables", {"mode": "private", "players": players, "bot": "random",
                                                  "rules": SHORT}, status=201)
    tid = room["table_id"]
    await guest.api("POST", f"/api/tables/{tid}/sit", {"seat": guest_seat, "code": room["code"]})
    for seat in range(1, players):
        if seat != guest_seat:
            await host.api("POST", f"/api/tables/{tid}/bot", {"seat": seat})
    await host.api("POST", f"/api/tables/{tid}/start", {})
    await host.join(tid)
    await guest.join(tid)
    await asyncio.gather(host.play(until=game_over), guest.play(until=game_over))


def won(game: dict[str, Any], player_id: str) -> bool:
    return side_of(game["player_ids"].index(player_id), game["players"]) == game["winner"]


def test_modes_rating_history_recent_games_and_head_to_head(server: ServerProcess) -> None:
    async def main() -> None:
        a, b = await Player(server, "a", seed=5).signup(), await Player(server, "b", seed=6).signup()
        for p in (a, b):
            await p.connect()
        empty = await profile(a)
        assert empty["shown"]["modes"] == [] and empty["shown"]["rating_history"] == []
        assert empty["recent"] == [] and empty["head_to_head"] == [] and empty["public"] is False

        await vs_computer(a, 2)
        await vs_computer(a, 4)
        after_bots = await profile(a)
        assert after_bots["shown"]["rating_history"] == []  # games against the computer are not rated
        await befriend(a, b)
        history_lengths = []
        for _ in range(2):
            await private_game(a, b)
            history_lengths.append(len((await profile(a))["shown"]["rating_history"]))
        await private_game(a, b, players=4, guest_seat=2)  # partners: seats 0 and 2 are one side
        assert history_lengths == [1, 2]

        mine = await profile(a)
        games = (await a.api("GET", "/api/me/games?limit=50"))["games"]
        assert len(games) == 5
        expected: dict[tuple[str, int], list[int]] = {}
        for g in games:
            t = expected.setdefault((g["mode"], g["players"]), [0, 0])
            t[0] += 1
            t[1] += won(g, a.id)
        assert {(m["mode"], m["players"]): [m["games"], m["wins"]] for m in mine["shown"]["modes"]} == expected
        assert [(m["mode"], m["players"]) for m in mine["shown"]["modes"]] == [
            ("computer", 2), ("private", 2), ("computer", 4), ("private", 4)]
        assert sum(m["wins"] for m in mine["shown"]["modes"]) == mine["shown"]["stats"]["wins"]

        history = mine["shown"]["rating_history"]
        assert len(history) == 3 and [h["at"] for h in history] == sorted(h["at"] for h in history)
        assert history[-1]["rating"] == mine["shown"]["stats"]["rating"]
        rated = [g["game_id"] for g in sorted(games, key=lambda g: g["ended_at"]) if g["mode"] == "private"]
        assert [h["game_id"] for h in history] == rated

        assert [g["game_id"] for g in mine["recent"]] == [g["game_id"] for g in games]
        for g in mine["recent"]:
            assert g["won"] == won(g, a.id) and g["seat"] == g["player_ids"].index(a.id)
            replay = await a.api("GET", g["replay_url"])
            assert replay["record"]["meta"]["game_id"] == g["game_id"]

        [h2h] = mine["head_to_head"]
        assert h2h["friend"]["player_id"] == b.id
        together = [g for g in games if b.id in g["player_ids"]]
        partners = [g for g in together if g["players"] == 4]
        opponents = [g for g in together if g["players"] == 2]
        assert h2h["partners"] == {"games": 1, "wins": sum(won(g, a.id) for g in partners)}
        assert h2h["opponents"] == {"games": 2, "wins": sum(won(g, a.id) for g in opponents)}
        theirs = (await profile(b))["head_to_head"][0]
        assert theirs["partners"] == h2h["partners"]  # partners win and lose together
        assert theirs["opponents"]["games"] == 2 and theirs["opponents"]["wins"] == 2 - h2h["opponents"]["wins"]
        for p in (a, b):
            await p.close()

    run(main(), timeout=300)
    assert "Traceback" not in server.log()


def test_a_private_profile_shows_only_the_name_and_avatar(server: ServerProcess) -> None:
    async def main() -> None:
        a, c = await Player(server, "Darya", seed=1).signup(), await Player(server, "c", seed=2).signup()
        await a.connect()
        await vs_computer(a, 2)
        await claim(a, "darya_k")
        await a.api("PUT", "/api/me/profile", {"avatar": "shirin"})

        async def seen(status: int = 200) -> dict[str, Any]:
            r = await c.http.get("/api/profiles/DARYA_K")  # usernames compare case-blind
            assert r.status_code == status, r.text
            data: dict[str, Any] = r.json()
            if status == 200:
                PublicProfileResponse.model_validate(data)
            return data

        private = await seen()
        assert private == {"username": "darya_k", "nickname": "Darya", "avatar": "shirin", "player_id": a.id,
                           "public": False, "shown": None}

        mine = await a.api("PUT", "/api/me/profile", {"public": True})
        assert mine["public"] is True and mine["avatar"] == "shirin"  # a field left out stays as it was
        shown = await seen()
        assert shown["shown"] == mine["shown"] and shown["shown"]["modes"][0]["games"] == 1
        assert set(shown) == {"username", "nickname", "avatar", "player_id", "public", "shown"}
        assert "recent" not in json.dumps(shown) and "head_to_head" not in json.dumps(shown)

        await a.api("PUT", "/api/me/profile", {"public": False, "avatar": None})
        assert await seen() == private | {"avatar": None}

        refused = await a.api("PUT", "/api/me/profile", {"avatar": "bot_firuze"}, status=400)
        assert refused["error"]["code"] == "bad_request"
        assert (await c.http.get("/api/profiles/nobody_here")).status_code == 404
        assert (await c.http.get("/api/profiles/" + "x" * 65)).status_code == 404
        await a.api("POST", f"/api/blocks/{c.id}", {})
        assert (await seen(404))["error"]["code"] == "not_found"  # blocked: no page for them
        assert (await c.http.get("/api/me/profile", headers={"Authorization": ""})).status_code == 401
        for p in (a, c):
            await p.close()

    run(main())
    assert "Traceback" not in server.log()


def test_the_avatars_on_offer_are_the_web_s_people() -> None:
    js = AVATARS_JS.read_text(encoding="utf-8")
    people = re.search(r"^const PEOPLE = \{\n(.*?)\n\};", js, re.S | re.M)
    motifs = re.search(r"^const MOTIFS = \{(.*?)\};", js, re.M)
    assert people and motifs
    ids = re.findall(r"^\s*(\w+): \{", people.group(1), re.M) + re.findall(r"(\w+): \"", motifs.group(1))
    assert "PEOPLE_IDS = [...Object.keys(PEOPLE), ...Object.keys(MOTIFS)]" in js
    assert list(get_args(Avatar)) == ids and len(ids) == 16
