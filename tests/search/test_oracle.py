"""The omniscient ``oracle``: hidden from players, legal, double-dummy best, cheapest on ties."""

from __future__ import annotations

import random

import pytest

from hokm.arena.runner import play_game
from hokm.engine import Game, Rules
from hokm.engine.phase import Phase
from hokm.players import available_bots, make_bot
from hokm.search import dds
from hokm.search.oracle import OracleBot
from hokm.search.position import DDPosition


def test_registered_but_never_offered_to_players():
    assert isinstance(make_bot("oracle"), OracleBot)
    assert "oracle" not in {s.name for s in available_bots(public_only=True)}
    assert "oracle" in {s.name for s in available_bots()}


@pytest.mark.parametrize("players", [4, 3, 2])
def test_plays_whole_games_and_beats_random(players):
    rules = Rules(players=players, target_points=2)
    wins = 0
    for seed in range(2):
        bots = [make_bot("oracle") if rules.side_of(s) == 0 else make_bot("random", seed=seed) for s in range(players)]
        out = play_game(rules, bots, seed=seed)
        assert out.forfeit is None
        wins += out.winner == 0
    assert wins == 2


def _mid_hand(seed: int) -> Game:
    g = Game.new(Rules(players=4), seed=seed)
    rng = random.Random(seed)
    while g.phase is not Phase.PLAY or len(g.completed) < 8:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        if g.phase is Phase.DEAL:
            g.deal(rng=rng)
    return g


def test_chooses_a_card_of_the_best_double_dummy_value():
    bot = OracleBot()
    for seed in range(8):
        g = _mid_hand(seed)
        values = dds.move_values(DDPosition.from_game(g))
        action = bot.act_with_state(g.view(g.to_move), g.copy())
        assert values[action.card] == max(values.values())


def test_ties_go_to_the_cheapest_card(monkeypatch):
    g = _mid_hand(3)
    legal = g.legal_cards()
    monkeypatch.setattr(dds, "move_values", lambda pos, **kw: {c: 1 for c in legal})
    card = OracleBot().act_with_state(g.view(g.to_move), g.copy()).card
    trump = int(g.trump)
    assert card == min(legal, key=lambda c: (c % 13, c // 13 == trump, c // 13))
