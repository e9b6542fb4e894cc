"""Typed errors raised by the engine.

Each error carries a stable ``code`` (the same codes the ``hokm/1`` record checker and the server
report) and a message written for a person: it names the seat and the reason, never a card the
reader may not see.
"""

from __future__ import annotations


class HokmError(ValueError):
    """Base class of every error the engine raises on bad input."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.seat = seat

    @property
    def message(self) -> str:
        return str(self.args[0])


class IllegalActionError(HokmError):
    """An action that the rules do not allow in this state.

    Codes: ``not_your_turn``, ``wrong_phase``, ``not_in_hand``, ``must_follow_suit``,
    ``bad_trump``, ``bad_discard``, ``bad_draw``, ``hand_over``, ``game_over``, ``bad_action``.
    """

    code = "illegal_action"


class DealError(HokmError):
    """A deck that is not exactly the cards this game deals (code ``bad_deck``)."""

    code = "bad_deck"


class SetupError(HokmError):
    """Bad arguments for starting a game (first Hâkem, ace draw)."""

    code = "bad_format"
