"""The random bot: the floor of every comparison, so it must be legal and reproducible."""

import pytest

from hokm.engine import Game, Phase, Rules
from hokm.players import make_bot


def _actions(players: int, game_seed: int, bot_seed: int, steps: int = 300) -> list[str]:
    game = Game.new(Rules(players=players), seed=game_seed)
    bot = make_bot("random", seed=bot_seed)
    out = []
    while not game.is_over and len(out) < steps:
        if game.phase is Phase.DEAL:
            game.deal()
            continue
        view = game.view(game.to_move)
        action = bot.act(view)
        assert action in view.legal
        game.apply(action, seat=view.seat)
        out.append(str(action))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bot_plays_legal_moves_and_repeats_with_its_seed(players):
    first = _actions(players, game_seed=5, bot_seed=9)
    assert first == _actions(players, game_seed=5, bot_seed=9)
    assert first != _actions(players, game_seed=5, bot_seed=10)


def test_random_bot_refuses_a_view_without_a_decision():
    game = Game.new(Rules(players=4), seed=1)
    waiting = next(s for s in range(4) if s != game.to_move)
    with pytest.raises(ValueError, match="no legal action"):
        make_bot("random", seed=0).act(game.view(waiting))
