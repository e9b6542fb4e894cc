"""The one error a table raises."""

from __future__ import annotations

from ...engine import HokmError


class TableError(Exception):
    """A request the table refuses; ``code`` is a protocol error code. ``facts`` are the facts behind an
    illegal action (``suit``, ``card``, ``count``: the engine's), sent with the refusal so that a client
    words it in its own language."""

    def __init__(self, code: str, message: str, facts: dict[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.facts = facts or {}

    @classmethod
    def refusing(cls, error: HokmError) -> TableError:
        """The engine's refusal of an action, its facts kept (the acting seat's own: what it had to
        follow, the card it named, how many cards it had to lay down)."""
        facts: dict[str, str | int] = {}
        if error.suit is not None:
            facts["suit"] = str(error.suit)
        if error.card is not None:
            facts["card"] = str(error.card)
        if error.count is not None:
            facts["count"] = error.count
        return cls(error.code, str(error), facts)
