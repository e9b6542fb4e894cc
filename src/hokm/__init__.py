"""Hokm (حکم): a rules engine, game records, bots, a game server and a web table.

The public game API lives in :mod:`hokm.engine`; cards in :mod:`hokm.cards`.
"""

from .cards import CARDS, Card, Suit
from .engine import Game, IllegalActionError, Phase, Rules, SeatView

__version__ = "0.1.0"
__all__ = ["CARDS", "Card", "Suit", "Game", "IllegalActionError", "Phase", "Rules", "SeatView", "__version__"]
