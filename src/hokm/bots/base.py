"""The bot interface.

A bot is asked for one decision at a time and is given only the :class:`~hokm.engine.SeatView`
of its seat, so it cannot see hidden cards by construction. The only exception is
:class:`OmniscientBot` (the ``oracle`` reference): drivers hand it the full game explicitly, and
the player list (:mod:`hokm.players`, which builds bots by name) marks it as not for players.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from ..engine.actions import Action
from ..engine.view import SeatView

if TYPE_CHECKING:
    from ..engine.game import Game


class BotFailure(RuntimeError):
    """A bot could not produce a legal decision: it crashed, timed out or answered illegally.

    Drivers (the arena, the server) catch it and forfeit that game for the bot's side, reporting
    the message, so one broken bot never takes the whole run down with it.
    """

    def __init__(self, message: str, *, bot: str | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.bot = bot
        self.seat = seat


class Bot(ABC):
    """A player. ``act`` must return one of ``view.legal``."""

    name: str = "bot"

    @abstractmethod
    def act(self, view: SeatView) -> Action:
        """Choose an action for ``view.seat``; called only when it is that seat's turn."""

    def close(self) -> None:  # noqa: B027 - optional: most bots hold nothing to release
        """Release resources (processes, pools). Called once by the driver at the end."""


class OmniscientBot(Bot):
    """A reference bot that plays with every card visible; never offered to players."""

    @abstractmethod
    def act_with_state(self, view: SeatView, game: Game) -> Action:
        """Choose with the full game; drivers call this instead of :meth:`act`."""

    def act(self, view: SeatView) -> Action:  # pragma: no cover - drivers never call it
        raise TypeError(f"{self.name} needs the full game: call act_with_state")
