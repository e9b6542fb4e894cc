"""How long a bot seems to think before its decision shows at the table.

A person plays a forced card at once and stops to think over a real choice; a bot that answers
every decision after the same random pause looks like a machine. :class:`BotThinking` picks
a pause from the decision itself: short for a forced card (one legal card), longer the more
cards there are to choose from, longest for trump and the two-player discards, with jitter so
no two pauses repeat.

Every pause lies within the server's configured ``bot_delay`` (``min``, ``max``) and is never
shorter than :data:`CARD_ANIMATION`, the time the web table takes to fly a card in (and a lead
never shorter than :data:`TRICK_ANIMATION`, while the last trick is swept away), at the normal
speed setting, so a bot's card never lands on one still in the air. (At the slow setting the web
queues events and plays them in order.) When the configured maximum is itself shorter (tests,
fast demos), the configuration wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..engine import Game, Phase

#: Seconds the web table's card flight lasts: ``settings.dur(260)`` in ``static/js/table.js`` at
#: the normal speed (a test pins the numbers to the web's).
CARD_ANIMATION = 0.260
#: Seconds a full trick stays on the table and is swept to its winner (650 + 420 ms).
TRICK_ANIMATION = 0.650 + 0.420


@dataclass
class BotThinking:
    """Pauses for bot decisions within ``bot_delay``; ``counts`` and ``seconds`` tell what it chose."""

    bot_delay: tuple[float, float]
    rng: random.Random = field(default_factory=random.Random)
    counts: dict[str, int] = field(default_factory=lambda: {"forced": 0, "choice": 0, "trump": 0, "discard": 0,
                                                            "draw": 0})
    seconds: dict[str, float] = field(default_factory=lambda: {"forced": 0.0, "choice": 0.0, "trump": 0.0,
                                                               "discard": 0.0, "draw": 0.0})

    def floor(self, game: Game) -> float:
        """The shortest pause allowed now: the card (and, leading, the last trick) still moving."""
        lo, hi = self.bot_delay
        need = CARD_ANIMATION
        if game.phase is Phase.PLAY and not game.trick and game.completed:
            need = TRICK_ANIMATION  # the trick just won is still being swept to its winner
        return min(hi, max(lo, need))

    def kind(self, game: Game) -> tuple[str, float]:
        """What the decision is and how hard it looks, from 0 (nothing to decide) to 1."""
        if game.phase is Phase.TRUMP:
            return "trump", 0.9
        if game.phase is Phase.DISCARD:
            return "discard", 0.85
        if game.phase is Phase.DRAW:
            return "draw", 0.45
        legal = len(game.legal_cards())
        if legal <= 1:
            return "forced", 0.0
        # More cards to weigh, more to think; the opening lead of a hand a little more again.
        weight = 0.3 + 0.5 * min(1.0, (legal - 1) / 7)
        if not game.trick and not game.completed:
            weight += 0.15
        return "choice", weight

    def delay(self, game: Game) -> float:
        """Seconds to wait before showing the decision of the seat to move in ``game``."""
        hi = self.bot_delay[1]
        low = self.floor(game)
        what, weight = self.kind(game)
        if what == "forced":
            f = self.rng.uniform(0.0, 0.15)
        else:
            f = weight + self.rng.uniform(-0.15, 0.15)
        secs = low + min(1.0, max(0.0, f)) * max(0.0, hi - low)
        self.counts[what] += 1
        self.seconds[what] += secs
        return secs
