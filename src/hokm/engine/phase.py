"""Where a game stands: the :class:`Phase` a game and a seat's view are in.

A str-valued enum: ``Phase.PLAY == "play"`` and it serialises to JSON as its value, so the wire
format is the same string the protocol has always carried.
"""

from __future__ import annotations

from enum import Enum


class Phase(str, Enum):
    """Where a game stands. ``DEAL`` is the chance step before each hand (no seat to move)."""

    DEAL = "deal"
    TRUMP = "trump"
    DISCARD = "discard"
    DRAW = "draw"
    PLAY = "play"
    OVER = "over"

    def __str__(self) -> str:
        return self.value
