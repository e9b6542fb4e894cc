"""The Hokm rules engine: the single source of truth for every rule.

>>> from hokm.engine import Game, Rules
>>> game = Game.new(Rules(players=4), seed=7)
>>> game.phase.value, game.to_move == game.hakem
('trump', True)
"""

from ..rules import Rules, RulesError
from .actions import KEEP, PASS, PLAYS, TRUMPS, Action, ChooseTrump, Discard, Draw, Play, action_from_json, as_action
from .errors import DealError, HokmError, IllegalActionError, SetupError
from .game import (
    Game,
    HakemDraw,
    deal_layout,
    draw_hakem,
    run_hakem_draw,
    shuffled_deck,
)
from .phase import Phase
from .results import HandResult, TrickRecord
from .view import SeatView, make_view

__all__ = [
    "Action", "ChooseTrump", "Discard", "Draw", "Play", "KEEP", "PASS", "PLAYS", "TRUMPS",
    "action_from_json", "as_action", "DealError", "HokmError", "IllegalActionError", "SetupError",
    "Game", "HakemDraw", "HandResult", "Phase", "TrickRecord", "deal_layout", "draw_hakem",
    "run_hakem_draw", "shuffled_deck", "SeatView", "make_view", "Rules", "RulesError",
]
