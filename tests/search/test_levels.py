"""Difficulty levels: named specs everywhere, budgets that grow with the level, expert under 1 s."""

from __future__ import annotations

import random

from hokm.bots.base import available_bots, make_bot
from hokm.engine import Game, Phase, Rules
from hokm.search.levels import LEVELS
from hokm.search.pimc import PimcBot

ORDER = ["easy", "medium", "hard", "expert"]


def test_levels_are_public_registered_specs() -> None:
    names = {s.name: s for s in available_bots(public_only=True)}
    for level in ORDER:
        assert level in names and names[level].public
        bot = make_bot(level, seed=1)
        assert isinstance(bot, PimcBot) and bot.name == level


def test_more_search_at_each_level() -> None:
    cfgs = [LEVELS[n] for n in ORDER]
    for lower, higher in zip(cfgs, cfgs[1:]):
        assert higher.budget_s > lower.budget_s
        assert higher.root_deals >= lower.root_deals
        assert higher.noise <= lower.noise
    assert LEVELS["expert"].budget_s < 1.0  # leaves room under the 1 s p95 target
    assert LEVELS["expert"].evaluator == "dd"


def test_easy_level_plays_a_two_player_hand() -> None:
    game = Game.new(Rules(players=2), seed=5)
    bots = [make_bot("easy", seed=s) for s in range(2)]
    rng = random.Random(0)
    while game.hand_index == 0:
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        view = game.view(game.to_move)
        action = bots[game.to_move].act(view)
        assert action in view.legal
        game.apply(action)
