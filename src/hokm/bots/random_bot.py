"""``random``: a uniformly random legal action. The floor every other bot must beat."""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.view import SeatView
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action in the {view.phase} phase")
        return view.legal[self.rng.randrange(len(view.legal))]

