"""DDPosition: built from a game, played forward like the engine, and refusing bad input."""

from __future__ import annotations

import random

import pytest

from hokm.engine import Game, Rules
from hokm.engine.phase import Phase
from hokm.search.position import DDPosition, PositionError, random_position


def _in_play(players: int, seed: int) -> Game:
    g = Game.new(Rules(players=players), seed=seed)
    rng = random.Random(seed)
    while g.phase is not Phase.PLAY:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_follows_the_engine_to_the_end_of_the_hand(players):
    for seed in range(5):
        g = _in_play(players, seed)
        rng = random.Random(seed)
        pos = DDPosition.from_game(g)
        while g.phase is Phase.PLAY:
            assert pos == DDPosition.from_game(g)
            assert pos.to_move == g.to_move
            assert pos.legal_cards() == g.legal_cards()
            card = g.legal_cards()[rng.randrange(len(g.legal_cards()))]
            g.apply(card)
            pos = pos.play(card)
        res = g.results[-1]
        out = pos.outcome()
        assert out is not None and (out.winner, out.points, out.kot) == (res.winner, res.points, res.kot)
        assert pos.legal_cards() == []


def test_from_game_needs_the_play_phase():
    g = Game.new(Rules(players=4), seed=1)
    with pytest.raises(PositionError, match="play phase"):
        DDPosition.from_game(g)


def test_bad_positions_are_refused():
    rules = Rules(players=4)
    pos = random_position(rules, random.Random(2), 5)
    h = list(pos.hands)
    with pytest.raises(PositionError, match="disjoint"):
        DDPosition(rules, pos.trump, (h[0], h[0], h[2], h[3]), pos.leader, pos.trick, pos.seat_tricks, pos.hakem)
    with pytest.raises(PositionError, match="trump"):
        DDPosition(rules, 4, pos.hands, pos.leader, pos.trick, pos.seat_tricks, pos.hakem)
    with pytest.raises(PositionError, match="holds"):
        DDPosition(rules, pos.trump, pos.hands, pos.leader, pos.trick, (0, 0, 0, 0), pos.hakem)
    with pytest.raises(PositionError, match="cannot play"):
        pos.play(next(c for c in range(52) if not (pos.legal_mask() >> c) & 1))


def test_three_players_cannot_hold_the_removed_two():
    rules = Rules(players=3)
    pos = random_position(rules, random.Random(4), 2)
    hands = list(pos.hands)
    seat = pos.to_move
    low = hands[seat] & -hands[seat]
    hands[seat] = (hands[seat] ^ low) | (1 << 39)  # 2C is removed by default
    with pytest.raises(PositionError, match="removed two"):
        DDPosition(rules, pos.trump, tuple(hands), pos.leader, pos.trick, pos.seat_tricks, pos.hakem)
