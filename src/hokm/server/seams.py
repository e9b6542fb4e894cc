"""The two seams between the HTTP/WebSocket layer and the tables: a lobby and a table handle.

The routes (:mod:`.routes`) and the WebSocket loop (:mod:`.ws`) see only these Protocols. One
process implements them with :class:`~hokm.server.lobby.Lobby` and
:class:`~hokm.server.table.TableActor`; a node of a cluster with
:class:`~hokm.server.cluster.lobby.ClusterLobby` and :class:`~hokm.server.cluster.lobby.RoutedTable`,
which sends each request to the node owning the table. ``tests/server/test_seams.py`` has mypy
check both pairs against them.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..engine.view import SeatView
from .protocol import CreateTable
from .storage import PlayerRow


class TableHandle(Protocol):
    """One table, wherever its actor runs. Reads are synchronous; requests are awaited."""

    @property
    def id(self) -> str: ...

    @property
    def channel(self) -> str:
        """The bus channel carrying the table's event batches."""
        ...

    @property
    def mode(self) -> str: ...

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``over``."""
        ...

    @property
    def game_id(self) -> str | None: ...

    @property
    def level(self) -> str:
        """The table's bot level."""
        ...

    def info(self) -> dict[str, Any]:
        """The ``TableInfo`` object (without ``invite_url``, which the HTTP layer adds)."""
        ...

    def fairness(self) -> list[dict[str, Any]]:
        """Each hand's public fairness facts (commit; seeds once revealed)."""
        ...

    def seat_of(self, player_id: str) -> int | None: ...

    async def fresh_state(self, player_id: str) -> dict[str, Any]:
        """A fresh ``state`` message for the player's seat (a spectator's without one), taken between two
        changes of the table; ``TableError("busy")`` where this node has none."""
        ...

    async def join(self, player_id: str, last_seq: int | None,
                   code: str | None = None) -> tuple[int | None, dict[str, Any], bool]: ...

    async def disconnect(self, player_id: str) -> None: ...

    async def act(self, player_id: str, action: Any, seq: int | None) -> None: ...

    async def back(self, player_id: str) -> None: ...

    async def add_seed(self, player_id: str, seed: str) -> int: ...

    async def hint_view(self, player_id: str) -> tuple[int, SeatView]: ...

    async def sit(self, player_id: str, name: str, seat: int, seed: str | None = None) -> None: ...

    async def seat_bot(self, player_id: str, seat: int, level: str) -> None: ...

    async def free(self, player_id: str, seat: int) -> None: ...

    async def start(self, player_id: str | None) -> None: ...

    async def chat(self, player_id: str, phrase: str | None, emote: str | None) -> None:
        """A seated player's quick phrase or emote, into the table's log."""
        ...

    async def say(self, player_id: str, name: str, text: str) -> None:
        """Free text in a private room: a seated player's to the table, a spectator's to the spectators."""
        ...

    async def rematch(self, player_id: str) -> dict[str, Any] | None:
        """The player asks to play again; the new table's plan once every person asked."""
        ...

    async def link_next(self, table_id: str) -> str:
        """Link the rematch's table; the one linked first (returned) wins."""
        ...


class LobbyProtocol(Protocol):
    """Where tables are made, found and matched; owns the table actors of its process."""

    @property
    def default_bot(self) -> str: ...

    @property
    def hint_bot(self) -> str: ...

    @property
    def draining(self) -> bool:
        """True while the node hands its tables over before stopping."""
        ...

    def bot_level(self, name: str) -> str:
        """The bot level ``name`` resolves to; ``TableError("unknown_bot")`` otherwise."""
        ...

    async def get(self, table_id: str) -> TableHandle | None: ...

    async def by_code(self, code: str) -> TableHandle | None: ...

    async def create(self, player: PlayerRow, req: CreateTable, address: str | None = None) -> TableHandle: ...

    async def rematch(self, player: PlayerRow, table: TableHandle) -> TableHandle | None:
        """``player`` asks to play ``table`` again; the rematch's table once every person asked."""
        ...

    def touch(self, table_id: str) -> None:
        """A member looked at a waiting room: it is not idle."""
        ...

    def in_progress(self, game_id: str) -> bool:
        """Whether a table of this process is still playing the game ``game_id``."""
        ...

    async def enqueue(self, player: PlayerRow, players: int, seed: str | None = None) -> dict[str, Any]:
        """Queue for a public table of ``players``; ``seed`` joins the first hand's seeds. ``QueueStatus``."""
        ...

    async def leave_queue(self, player_id: str) -> None:
        """Leave every queue and forget a match not yet taken up."""
        ...

    async def queue_status(self, player_id: str) -> dict[str, Any]: ...

    def table_counts(self) -> dict[str, int]:
        """Table actors of this process by status (metrics)."""
        ...

    def ownership(self) -> tuple[int, int] | None:
        """Tables whose lease this node holds and takeovers since start; ``None`` on a single node."""
        ...

    async def restore(self) -> int: ...

    def start_matchmaker(self) -> None: ...

    async def close(self) -> None: ...
