"""Typed errors raised by the engine.

Each error carries a stable ``code`` (the same codes the ``hokm/1`` record checker and the server
report), a message written for a person (it names the seat and the reason, never a card the
reader may not see), and the facts behind it as fields, so that a client words the error its own
way without reading the message: ``seat`` (the seat that acted), ``suit`` (the suit it had to
follow), ``card`` (the card it named) and ``count`` (the number of cards it had to discard).
"""

from __future__ import annotations

from ..cards import Card, Suit


class HokmError(ValueError):
    """Base class of every error the engine raises on bad input."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None, seat: int | None = None,
                 suit: Suit | None = None, card: Card | None = None, count: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.seat = seat
        self.suit = suit
        self.card = card
        self.count = count

    @property
    def message(self) -> str:
        return str(self.args[0])


class IllegalActionError(HokmError):
    """An action that the rules do not allow in this state.

    Codes: ``not_your_turn``, ``wrong_phase``, ``not_in_hand`` (with ``card``), ``must_follow_suit``
    (with ``suit`` and ``card``), ``bad_discard`` (with ``count`` when the number of cards is
    wrong), ``hand_over``, ``game_over``, ``bad_action``.
    """

    code = "illegal_action"


class DealError(HokmError):
    """A deck that is not exactly the cards this game deals (codes ``bad_deck``, ``bad_card``)."""

    code = "bad_deck"


class SetupError(HokmError):
    """Bad arguments for starting a game (first Hâkem, ace draw; codes ``bad_format``, ``bad_card``)."""

    code = "bad_format"
