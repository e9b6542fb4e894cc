"""The search's fast simulators agree with the engine, move by move.

The search plays hands out on its own light structures (``DDPosition`` for the solver,
``rollout.Position`` and :func:`rollout.playout` for quick scoring) instead of the engine's
``Game``, for speed. These tests play the same cards through both and compare every fact the
engine decides: legal cards, trick winners, tricks per seat, and the hand's outcome.
"""

from __future__ import annotations

import random

import pytest

from hokm.engine import Game, Phase, Rules
from hokm.search.position import DDPosition
from hokm.search.rollout import Position, playout, policy_card


def _in_play(players: int, seed: int) -> Game:
    """A game at the start of trick play (2 players: after random discards and draws)."""
    rng = random.Random(seed)
    game = Game.new(Rules(players=players), rng=rng)
    while game.phase is not Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _outcome(game: Game) -> tuple[int, int]:
    result = game.results[-1]
    assert result.winner is not None
    return result.winner, result.points


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dd_position_follows_the_engine(players: int) -> None:
    rng = random.Random(players)
    for seed in range(25):
        game = _in_play(players, seed)
        pos = DDPosition.from_game(game)
        while game.phase is Phase.PLAY:
            assert sorted(pos.legal_cards()) == sorted(game.legal_cards())
            assert pos.to_move == game.to_move
            card = rng.choice(game.legal_cards())
            game.apply(card)
            pos = pos.play(card)
            if game.phase is Phase.PLAY:
                assert pos.seat_tricks == tuple(game.seat_tricks) and pos.leader == game.leader
        out = pos.outcome()
        assert out is not None and (out.winner, out.points) == _outcome(game)
        assert pos.legal_cards() == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rollout_playout_is_the_engine_playing_the_same_policy(players: int) -> None:
    for seed in range(25):
        game = _in_play(players, 100 + seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 3 * players)):  # start anywhere in the hand, mid-trick too
            if game.phase is Phase.PLAY:
                game.apply(rng.choice(game.legal_cards()))
        if game.phase is not Phase.PLAY:
            continue
        pos = Position(game.rules, int(game.trump), list(game.hands), game.leader, list(game.trick),
                       list(game.seat_tricks), game.hakem)
        assert sorted(pos.legal()) == sorted(game.legal_cards())
        predicted = playout(pos)
        while game.phase is Phase.PLAY:
            card = policy_card(game.n, int(game.trump), list(game.hands), game.leader, [int(c) for c in game.trick])
            assert card in game.legal_cards()
            game.apply(game.legal_cards()[[int(c) for c in game.legal_cards()].index(card)])
        assert predicted == _outcome(game)
