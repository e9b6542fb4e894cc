"""Difficulty levels: named specs everywhere, budgets that grow with the level, expert under 1 s."""

from __future__ import annotations

import random

import pytest

from hokm.engine import Game, Phase, Rules
from hokm.players import available_bots, make_bot
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


def test_tuning_specs_change_settings_and_reject_bad_input() -> None:
    import pytest

    bot = make_bot("pimc:expert,max_deals=5,dd_cards=13/8/6,early=search", seed=1)
    assert isinstance(bot, PimcBot)
    assert (bot.config.max_deals, bot.config.dd_cards, bot.config.early) == (5, (13, 8, 6), "search")
    assert bot.config.budget_s == LEVELS["expert"].budget_s
    with pytest.raises(ValueError, match="unknown level"):
        make_bot("pimc:grandmaster")
    with pytest.raises(ValueError, match="key=value"):
        make_bot("pimc:hard,speed=9")
    with pytest.raises(ValueError, match="early: Input should be 'search' or 'heuristic'"):
        make_bot("pimc:hard,early=fast")
    with pytest.raises(ValueError, match="keep_model"):
        make_bot("pimc:hard,keep_model=guess")
    with pytest.raises(ValueError, match="dd_cards"):
        make_bot("pimc:hard,dd_cards=13/9")
    with pytest.raises(ValueError, match="max_deals"):
        make_bot("pimc:hard,max_deals=many")


def test_hard_hands_early_tricks_to_the_heuristic_and_searches_later() -> None:
    """Before the solver's reach hard plays the heuristic's card; after it, it samples deals."""
    from hokm.players import make_bot as mk

    game = Game.new(Rules(players=4), seed=3)
    hard, heuristic = mk("hard", seed=1), mk("heuristic", seed=1)
    rng = random.Random(0)
    searched = early = 0
    while game.hand_index == 0:
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        view = game.view(game.to_move)
        if game.phase is Phase.PLAY and len(view.legal) > 1:
            action = hard.act(view)
            if len(view.hand) > LEVELS["hard"].dd_cards[2]:
                assert action == heuristic.act(view) and hard.last_deals == 0
                early += 1
            else:
                assert hard.last_deals >= 1
                searched += 1
        game.apply(heuristic.act(view))
    assert early and searched


@pytest.mark.parametrize("players", [2, 3, 4])
def test_expert_searches_with_the_settings_of_the_player_count(players: int) -> None:
    """Four players: every card by playouts, over up to 320 deals of 5,120 candidates; three:
    every card by playouts, over up to 160 deals; two: the level's own settings."""
    from hokm.search.levels import LEVEL_PLAYERS

    expert = make_bot("expert", seed=1)
    want = LEVEL_PLAYERS["expert"].get(players, LEVELS["expert"])
    game = Game.new(Rules(players=players), seed=4)
    heuristic = make_bot("heuristic")
    rng = random.Random(1)
    first_trick = None
    while game.hand_index == 0:
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        view = game.view(game.to_move)
        if game.phase is Phase.PLAY and len(view.legal) > 1:
            assert expert.act(view) in view.legal
            assert expert.config == want
            if first_trick is None:
                first_trick = expert.last_deals
        game.apply(heuristic.act(view))
    if players == 4:
        assert want.early == "search" and want.evaluator == "playout" and want.oversample == 16
        assert want.max_deals == 320 and first_trick >= 1
    if players == 3:
        assert want.dd_cards[1] == 17 and want.max_deals == 160 and first_trick >= 1
    if players == 2:
        assert want is LEVELS["expert"]


def test_easy_names_trump_by_the_heuristic_with_three_players_only() -> None:
    """With three players ``easy`` names trump as the heuristic player does (its own search of the first
    five cards lost too many hands to random play there); with two and four it keeps its own search."""
    from hokm.search.levels import LEVEL_PLAYERS

    assert LEVEL_PLAYERS["easy"][3].root == "heuristic" and LEVEL_PLAYERS["easy"][3].noise == 0.4
    heuristic = make_bot("heuristic")
    for players in (3, 4):
        easy = make_bot("easy", seed=1)
        for seed in range(4):
            game = Game.new(Rules(players=players), seed=seed)
            rng = random.Random(seed)
            while game.phase is not Phase.TRUMP:
                if game.phase is Phase.DEAL:
                    game.deal(rng=rng)
                    continue
                game.apply(heuristic.act(game.view(game.to_move)))
            view = game.view(game.to_move)
            choice = easy.act(view)
            assert choice in view.legal
            assert easy.config.root == ("heuristic" if players == 3 else "search")
            if players == 3:
                assert choice == heuristic.act(view)


def test_expert_2026_is_a_frozen_reference_not_offered_to_players() -> None:
    """The reference a new ``expert`` is measured against: built by name for the arena, never offered, with the
    settings the 2026 strength report measured for each player count, whatever ``expert`` becomes."""
    from hokm.search.levels import REFERENCES

    assert "expert-2026" not in {s.name for s in available_bots(public_only=True)}
    assert "expert-2026" in {s.name for s in available_bots()}
    bot = make_bot("expert-2026", seed=1)
    assert isinstance(bot, PimcBot) and bot.name == "expert-2026"
    measured = {4: (320, 16, "playout", "search"), 3: (160, 4, "dd", "heuristic"), 2: (64, 4, "dd", "heuristic")}
    for players, (deals, oversample, evaluator, early) in measured.items():
        config = bot.config_for(players)
        assert (config.max_deals, config.oversample, config.evaluator, config.early) == (deals, oversample, evaluator, early)
        assert config.budget_s == 0.75 and config.anchor == 0.0 and config.play_miss == 0.25
    assert bot.config_for(3).dd_cards == (13, 17, 8) and bot.config_for(2).margins == (2,)
    assert REFERENCES["expert-2026"] is not LEVELS["expert"]
    # It plays: a few legal cards of a four-player hand.
    game = Game.new(Rules(players=4), seed=3)
    rng = random.Random(1)
    played = 0
    while played < 6:
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        view = game.view(game.to_move)
        action = bot.act(view)
        assert action in view.legal
        game.apply(action)
        played += 1
