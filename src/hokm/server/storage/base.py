"""The storage interface the server is written against, and the rows it exchanges.

The table actor appends events and the app reads players, tables and games only through
:class:`Storage`, so SQLite (default), PostgreSQL, or an in-memory fake for tests are
interchangeable. Event appends are keyed by ``(table_id, seq)``: a second writer for the same
sequence number fails, which is what table-ownership fencing builds on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from ...rules import side_of


class StorageError(RuntimeError):
    """The store refused a write (e.g. a sequence number already taken)."""


@dataclass
class PlayerRow:
    id: str
    nickname: str
    token_hash: str
    created_at: float
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    kots: int = 0
    rated_games: int = 0


@dataclass
class TableRow:
    id: str
    mode: str
    players: int
    config: dict[str, Any]
    host: str | None
    status: str
    seats: list[dict[str, Any]]
    created_at: float
    updated_at: float
    code: str | None = None
    game_id: str | None = None
    seq: int = 0


@dataclass(frozen=True)
class EventRow:
    table_id: str
    seq: int
    kind: str
    payload: dict[str, Any]
    at: float


@dataclass
class GameRow:
    id: str
    table_id: str
    mode: str
    players: int
    names: list[str]
    player_ids: list[str | None]
    scores: list[int]
    winner: int
    hands: int
    record: str
    started_at: float
    ended_at: float

    def summary(self) -> dict[str, Any]:
        return {"game_id": self.id, "table_id": self.table_id, "mode": self.mode, "players": self.players,
                "names": self.names, "player_ids": self.player_ids,
                "sides": [side_of(seat, self.players) for seat in range(self.players)],
                "scores": self.scores, "winner": self.winner,
                "hands": self.hands, "started_at": self.started_at, "ended_at": self.ended_at}


@dataclass
class PlayerUpdate:
    """What a finished game changes for one player."""

    player_id: str
    games: int = 1
    wins: int = 0
    kots: int = 0
    rating: tuple[float, float] | None = None  # new (mu, sigma) when the game was rated


@dataclass
class TableUpdate:
    status: str | None = None
    seats: list[dict[str, Any]] | None = None
    game_id: str | None = None


class Storage(ABC):
    """Async persistence for players, tables, table events and finished games."""

    @abstractmethod
    async def init(self) -> None:
        """Create what is missing (tables); called once at start-up."""

    @abstractmethod
    async def close(self) -> None: ...

    # players
    @abstractmethod
    async def create_player(self, row: PlayerRow) -> None:
        """Store a new player and its first token (``row.token_hash``) together."""

    @abstractmethod
    async def player_by_token_hash(self, token_hash: str) -> tuple[PlayerRow, float] | None:
        """The player a token belongs to and when the token was last renewed; ``None``: unknown or revoked."""

    @abstractmethod
    async def add_token(self, token_hash: str, player_id: str, at: float) -> None: ...

    @abstractmethod
    async def renew_token(self, token_hash: str, at: float) -> None: ...

    @abstractmethod
    async def revoke_token(self, token_hash: str) -> int:
        """Delete one token; return how many rows went (0 or 1)."""

    @abstractmethod
    async def revoke_tokens(self, player_id: str) -> int:
        """Delete every token of a player; return how many."""

    @abstractmethod
    async def purge_tokens(self, used_before: float) -> int:
        """Delete the tokens last renewed before ``used_before`` (expired); return how many."""

    @abstractmethod
    async def get_player(self, player_id: str) -> PlayerRow | None: ...

    @abstractmethod
    async def get_players(self, ids: list[str]) -> dict[str, PlayerRow]: ...

    @abstractmethod
    async def leaderboard(self, limit: int) -> list[PlayerRow]:
        """Players with at least one game: those with rated games first, best rating first; on equal ratings more
        wins, then fewer games."""

    # tables
    @abstractmethod
    async def create_table(self, row: TableRow) -> None: ...

    @abstractmethod
    async def get_table(self, table_id: str) -> TableRow | None: ...

    @abstractmethod
    async def table_by_code(self, code: str) -> TableRow | None: ...

    @abstractmethod
    async def unfinished_tables(self) -> list[TableRow]: ...

    @abstractmethod
    async def tables_of_player(self, player_id: str, unfinished: bool = True) -> list[str]: ...

    @abstractmethod
    async def append_events(self, table_id: str, events: list[EventRow], update_: TableUpdate | None = None) -> None:
        """Append events (consecutive ``seq``) and apply ``update_`` in one transaction.

        Raises :class:`StorageError` when a sequence number is already taken.
        """

    @abstractmethod
    async def events(self, table_id: str, after: int = 0, limit: int | None = None) -> list[EventRow]: ...

    # games
    @abstractmethod
    async def finish_game(self, game: GameRow, updates: list[PlayerUpdate]) -> None:
        """Store a finished game, the players' new stats and (rated games) their rating history, in one transaction."""

    @abstractmethod
    async def get_game(self, game_id: str) -> GameRow | None: ...

    @abstractmethod
    async def recent_games(self, limit: int, player_id: str | None = None) -> list[GameRow]: ...
