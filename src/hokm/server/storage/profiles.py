"""Storage behind player profiles: a player's profile settings, and the finished games and ratings
a profile sums up.

The queries count; they do not decide who won. Each returns games grouped by what decides it (the
number of players, the seats, the winning side), and :mod:`hokm.server.profiles` asks the engine
which seat was on which side, so the rule lives in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import and_, delete, func, insert, select

from .engine import OnServerEngine
from .metadata import game_players, games, profiles, rating_history


@dataclass(frozen=True)
class ProfileSettings:
    avatar: str | None = None
    public: bool = False


@dataclass(frozen=True)
class SeatCount:
    """``count`` finished games of ``mode`` with ``players`` players, where the player sat at ``seat``
    and side ``winner`` won."""

    mode: str
    players: int
    seat: int
    winner: int
    count: int


@dataclass(frozen=True)
class PairCount:
    """``count`` finished games of ``players`` players the player shared with ``other_id``: the
    player at ``seat``, the other at ``other_seat``, side ``winner`` won."""

    other_id: str
    players: int
    seat: int
    other_seat: int
    winner: int
    count: int


@dataclass(frozen=True)
class RatingRow:
    game_id: str
    mu: float
    sigma: float
    at: float


class ProfileStore(Protocol):
    async def settings(self, player_id: str) -> ProfileSettings: ...
    async def set_settings(self, player_id: str, settings: ProfileSettings, at: float) -> None: ...
    async def seat_counts(self, player_id: str) -> list[SeatCount]: ...
    async def pair_counts(self, player_id: str, others: list[str]) -> list[PairCount]: ...
    async def rating_history(self, player_id: str, limit: int) -> list[RatingRow]:
        """The player's last ``limit`` ratings, oldest first."""


class SqlProfileStore(OnServerEngine):
    """:class:`ProfileStore` on the server's own SQLAlchemy engine (SQLite or PostgreSQL)."""

    async def settings(self, player_id: str) -> ProfileSettings:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(profiles.c.avatar, profiles.c.public)
                                    .where(profiles.c.player_id == player_id))).first()
        return ProfileSettings() if r is None else ProfileSettings(r.avatar, bool(r.public))

    async def set_settings(self, player_id: str, settings: ProfileSettings, at: float) -> None:
        async with self._e.begin() as conn:
            await conn.execute(delete(profiles).where(profiles.c.player_id == player_id))
            await conn.execute(insert(profiles).values(player_id=player_id, avatar=settings.avatar,
                                                       public=settings.public, updated_at=at))

    async def seat_counts(self, player_id: str) -> list[SeatCount]:
        q = (select(games.c.mode, games.c.players, game_players.c.seat, games.c.winner, func.count())
             .join(games, games.c.id == game_players.c.game_id)
             .where(game_players.c.player_id == player_id)
             .group_by(games.c.mode, games.c.players, game_players.c.seat, games.c.winner))
        async with self._e.connect() as conn:
            return [SeatCount(str(m), int(n), int(s), int(w), int(c)) for m, n, s, w, c in (await conn.execute(q)).all()]

    async def pair_counts(self, player_id: str, others: list[str]) -> list[PairCount]:
        if not others:
            return []
        mine = game_players.alias("mine")
        theirs = game_players.alias("theirs")
        q = (select(theirs.c.player_id, games.c.players, mine.c.seat, theirs.c.seat, games.c.winner, func.count())
             .select_from(mine.join(theirs, theirs.c.game_id == mine.c.game_id)
                          .join(games, games.c.id == mine.c.game_id))
             .where(and_(mine.c.player_id == player_id, theirs.c.player_id.in_(others)))
             .group_by(theirs.c.player_id, games.c.players, mine.c.seat, theirs.c.seat, games.c.winner))
        async with self._e.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [PairCount(str(o), int(n), int(s), int(t), int(w), int(c)) for o, n, s, t, w, c in rows]

    async def rating_history(self, player_id: str, limit: int) -> list[RatingRow]:
        q = (select(rating_history.c.game_id, rating_history.c.mu, rating_history.c.sigma, rating_history.c.at)
             .where(rating_history.c.player_id == player_id)
             .order_by(rating_history.c.at.desc(), rating_history.c.game_id.desc()).limit(limit))
        async with self._e.connect() as conn:
            rows = (await conn.execute(q)).all()
        return [RatingRow(str(g), float(m), float(s), float(a)) for g, m, s, a in reversed(rows)]
