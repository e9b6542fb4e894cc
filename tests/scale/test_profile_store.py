"""The profile queries on PostgreSQL (SQLite runs them in tests/server/test_profiles.py): settings,
the rating history written with a rated game, games per seat and winner, games shared with a friend."""

from __future__ import annotations

import asyncio

import pytest

from hokm.server.storage import GameRow, PlayerRow, PlayerUpdate
from hokm.server.storage.profiles import PairCount, ProfileSettings, SeatCount, SqlProfileStore
from hokm.server.storage.sql import SqlStorage

pytestmark = pytest.mark.scale


def game(gid: str, players: list[str | None], winner: int, at: float, mode: str = "private") -> GameRow:
    return GameRow(id=gid, table_id="t" + gid, mode=mode, players=len(players), names=["x"] * len(players),
                   player_ids=players, scores=[1, 0], winner=winner, hands=1, record="{}", started_at=at - 1,
                   ended_at=at)


def test_profile_queries_on_postgres(pg_url: str) -> None:
    async def go() -> None:
        storage = SqlStorage(pg_url)
        await storage.init()
        store = SqlProfileStore(lambda: storage.engine)
        try:
            for pid in ("a", "b"):
                await storage.create_player(PlayerRow(pid, pid, "hash-" + pid, 1.0, 25.0, 8.3))
            assert await store.settings("a") == ProfileSettings(None, False)
            await store.set_settings("a", ProfileSettings("shah", True), 2.0)
            await store.set_settings("a", ProfileSettings("sarv", True), 3.0)
            assert await store.settings("a") == ProfileSettings("sarv", True)

            await storage.finish_game(game("g1", ["a", "b"], 0, 10.0),
                                      [PlayerUpdate("a", wins=1, rating=(27.0, 8.0)), PlayerUpdate("b", rating=(23.0, 8.0))])
            await storage.finish_game(game("g2", ["a", None, "b", None], 1, 20.0),
                                      [PlayerUpdate("a", rating=(26.0, 7.5)), PlayerUpdate("b", rating=(22.0, 7.5))])
            await storage.finish_game(game("g3", ["a", None], 0, 30.0, mode="computer"), [PlayerUpdate("a", wins=1)])

            history = await store.rating_history("a", 10)
            assert [(r.game_id, r.mu, r.at) for r in history] == [("g1", 27.0, 10.0), ("g2", 26.0, 20.0)]
            assert [r.game_id for r in await store.rating_history("a", 1)] == ["g2"]  # the last ones
            assert sorted(await store.seat_counts("a"), key=lambda c: (c.mode, c.players)) == [
                SeatCount("computer", 2, 0, 0, 1), SeatCount("private", 2, 0, 0, 1), SeatCount("private", 4, 0, 1, 1)]
            assert sorted(await store.pair_counts("a", ["b"]), key=lambda c: c.players) == [
                PairCount("b", 2, 0, 1, 0, 1), PairCount("b", 4, 0, 2, 1, 1)]
            assert await store.pair_counts("a", []) == []
        finally:
            await storage.close()

    asyncio.run(go())
