"""The one error a record check raises, with the stable codes of ``docs/record-format.md``."""

from __future__ import annotations

from typing import Any

#: Every code a record error may carry. ``hand`` and ``action`` locate the fault.
RECORD_CODES = (
    "bad_format",
    "bad_card",
    "bad_deck",
    "bad_trump",
    "bad_discard",
    "bad_draw",
    "not_in_hand",
    "must_follow_suit",
    "hand_over",
    "game_over",
)


class RecordError(ValueError):
    """A ``hokm/1`` record that is malformed or breaks a rule.

    ``hand`` is the 0-based index of the hand at fault (``None`` for the record's header) and
    ``action`` the 0-based index in that hand's ``plays`` (``None`` when the fault is elsewhere),
    so a tool can point at the exact spot. The code is one of :data:`RECORD_CODES`.
    """

    def __init__(self, code: str, message: str, hand: int | None = None, action: int | None = None) -> None:
        if code not in RECORD_CODES:
            raise ValueError(f"unknown record error code {code!r}")
        super().__init__(message)
        self.code = code
        self.hand = hand
        self.action = action

    @property
    def message(self) -> str:
        return str(self.args[0])

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "hand": self.hand, "action": self.action, "message": self.message}

    def __str__(self) -> str:
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.action is not None:
            where.append(f"play {self.action}")
        prefix = f"{self.code}" + (f" ({', '.join(where)})" if where else "")
        return f"{prefix}: {self.message}"
