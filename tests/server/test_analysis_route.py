"""``GET /api/games/{id}/analysis``: players only, never while the game is on, every card marked."""

from __future__ import annotations

import asyncio

from hokm.server.protocol import AnalysisResponse

from .harness import Player, ServerProcess, game_over, run


def test_analysis_of_a_finished_hand_for_its_players_only(server: ServerProcess) -> None:
    async def main() -> None:
        p = await Player(server, "solo").signup()
        table = await p.api("POST", "/api/tables", {"mode": "computer", "players": 4, "bot": "random", "seat": 0},
                            status=201)
        gid = table["game_id"]
        await p.connect()
        await p.join(table["table_id"])
        # while the game is on, not even its finished hands are analysed
        err = await p.api("GET", f"/api/games/{gid}/analysis?hand=0", status=409)
        assert err["error"]["code"] == "game_in_progress"
        over = None
        while over is None:
            msg = await p.play(until=lambda m: game_over(m) or bool(m.get("view") and m["view"]["legal"]))
            if game_over(msg):
                over = msg
                break
            await p.send({"type": "action", "action": p.choose(msg["view"]), "seq": p.seq})
        body = await p.api("GET", f"/api/games/{gid}/analysis?hand=0")
        AnalysisResponse.model_validate(body)
        (hand,) = body["hands"]
        assert body["in_progress"] is None and not body["paranoid"]
        assert len(hand["plays"]) == 4 * sum(hand["tricks"])
        assert all(x["mark"] in ("fine", "inaccuracy", "mistake", "blunder", "unsolved") for x in hand["plays"])
        assert await p.api("GET", f"/api/games/{gid}/analysis?hand=0") == body  # cached
        # Eight requests at once for a hand not analysed yet: one analysis, which all of them wait for (eight
        # analyses would pass the player's burst of six and the pool's room for four).
        answers = await asyncio.gather(*(p.http.get(f"/api/games/{gid}/analysis?hand=1") for _ in range(8)))
        assert [r.status_code for r in answers] == [200] * 8, [r.text[:200] for r in answers]
        assert len({r.text for r in answers}) == 1
        for bad, status in (("?hand=x", 400), ("", 400), ("?hand=999", 404), ("?hand=²", 400), ("?hand=①", 400),
                            ("?hand=١", 400), ("?hand=-1", 400), ("?hand=12345", 400)):
            r = await p.http.get(f"/api/games/{gid}/analysis{bad}")
            assert r.status_code == status and "error" in r.json(), r.text
        stranger = await Player(server, "stranger").signup()
        err = await stranger.api("GET", f"/api/games/{gid}/analysis?hand=0", status=403)
        assert err["error"]["code"] == "forbidden"
        anonymous = await p.http.get(f"/api/games/{gid}/analysis?hand=0", headers={"authorization": ""})
        assert anonymous.status_code == 401
        await stranger.api("GET", "/api/games/nosuchgame/analysis?hand=0", status=404)
        await p.close()
        await stranger.close()
    run(main())


def test_the_cache_keeps_the_most_recent_hands_and_the_limit_allows_a_burst() -> None:
    import pytest

    from hokm.server.config import ServerConfig
    from hokm.server.limits import Limited
    from hokm.server.memo import Memo
    from hokm.server.services import Services

    cache: Memo[tuple[str, int], dict[str, int]] = Memo(2)
    cache.put(("g", 0), {"h": 0})
    cache.put(("g", 1), {"h": 1})
    assert cache.get(("g", 0)) == {"h": 0}  # now the most recent
    cache.put(("g", 2), {"h": 2})
    assert cache.get(("g", 1)) is None and cache.get(("g", 0)) == {"h": 0} and cache.get(("g", 2)) == {"h": 2}
    limit = Services(ServerConfig(bot_processes=0)).limits["analysis"]
    for _ in range(6):
        limit.check("player")
    with pytest.raises(Limited):
        limit.check("player")
    limit.check("someone else")
