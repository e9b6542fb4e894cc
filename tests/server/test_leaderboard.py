"""The leaderboard's order, in the store: the best rating first, and what decides between equal ratings."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hokm.server.storage import PlayerRow
from hokm.server.storage.sql import SqlStorage


def test_the_leaderboard_ranks_equal_ratings_by_wins_then_fewer_games(tmp_path: Path) -> None:
    """No rated game yet (every rating the starting one): a player with a win is above players with none, and of
    two with a win each, the one who needed fewer games; the id decides only what is equal in every way."""
    async def go() -> None:
        s = SqlStorage(f"sqlite+aiosqlite:///{tmp_path / 'hokm.db'}")
        await s.init()
        try:
            rows = {"a": (3, 0), "b": (1, 1), "c": (4, 1), "d": (2, 0)}  # id: (games, wins)
            for pid, (games, wins) in rows.items():
                await s.create_player(PlayerRow(id=pid, nickname=pid, token_hash=f"h{pid}", created_at=0.0,
                                                mu=25.0, sigma=25 / 3, games=games, wins=wins))
            assert [p.id for p in await s.leaderboard(10)] == ["b", "c", "d", "a"]
        finally:
            await s.close()

    asyncio.run(go())


def test_players_rated_against_people_rank_above_those_without_a_rating(tmp_path: Path) -> None:
    """A first rated loss takes the conservative rating below the starting one; a player who has only played the
    computer (no rated game, the starting rating) still ranks below every rated player, however many wins."""
    async def go() -> None:
        s = SqlStorage(f"sqlite+aiosqlite:///{tmp_path / 'hokm.db'}")
        await s.init()
        try:
            await s.create_player(PlayerRow(id="lost", nickname="lost", token_hash="h1", created_at=0.0,
                                            mu=24.0, sigma=8.0, games=1, wins=0, rated_games=1))
            await s.create_player(PlayerRow(id="bots", nickname="bots", token_hash="h2", created_at=0.0,
                                            mu=25.0, sigma=25 / 3, games=9, wins=9))
            await s.create_player(PlayerRow(id="won", nickname="won", token_hash="h3", created_at=0.0,
                                            mu=27.0, sigma=8.0, games=1, wins=1, rated_games=1))
            assert [p.id for p in await s.leaderboard(10)] == ["won", "lost", "bots"]
        finally:
            await s.close()

    asyncio.run(go())
