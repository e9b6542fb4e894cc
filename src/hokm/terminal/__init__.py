"""Playing Hokm at the terminal: input parsing (:mod:`.parse`), rich rendering of one seat's view
(:mod:`.render`) and the game loop against bots (:mod:`.session`), used by ``hokm play``."""

from .parse import Command, InputError
from .render import seat_names
from .session import PlaySession, QuitGame, SessionError

__all__ = ["Command", "InputError", "PlaySession", "QuitGame", "SessionError", "seat_names"]
