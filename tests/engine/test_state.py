"""Undo, copy and seeded reproducibility: what search and simulations rely on."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from hokm.engine import Game, Phase, Rules

from .helpers import play_out, random_step


def state(game: Game) -> dict[str, Any]:
    """Everything a game holds except undo bookkeeping and the legal mask kept between
    legal_actions() and apply(), for exact comparison."""
    d = {k: v for k, v in vars(game).items() if k not in ("_checkpoints", "_rng", "_legal")}
    d["legal"] = game.legal_actions()
    return copy.deepcopy(d)  # the game mutates some of these lists in place


@pytest.mark.parametrize("players", [2, 3, 4])
def test_undo_every_step_back_to_the_start(players: int) -> None:
    rng = random.Random(players)
    game = Game(Rules(players=players), first_hakem=0)
    states = [state(game)]
    for _ in range(250):
        if game.is_over:
            break
        random_step(game, rng)
        states.append(state(game))
    while len(states) > 1:
        states.pop()
        game.undo()
        assert state(game) == states[-1]
    with pytest.raises(IndexError, match="nothing to undo"):
        game.undo()


def test_undo_across_hands_and_the_end_of_the_game() -> None:
    rng = random.Random(5)
    game = play_out(Game(Rules(players=4, target_points=1), first_hakem=1), rng)
    assert game.is_over
    before_last = game.copy()
    before_last.undo()
    assert before_last.phase is Phase.PLAY and not before_last.results
    before_last.apply(game.history[-1][1])
    assert state(before_last) == state(game)


def test_copy_is_independent() -> None:
    rng = random.Random(6)
    game = Game.new(Rules(players=3), seed=6)
    for _ in range(30):
        random_step(game, rng)
    snapshot = state(game)
    twin = game.copy()
    assert state(twin) == snapshot
    for _ in range(40):
        random_step(twin, rng)
    assert state(game) == snapshot
    bare = game.copy(history=False)
    assert bare.history == [] and state(bare)["hands"] == snapshot["hands"]
    with pytest.raises(IndexError):
        bare.undo()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_are_reproducible(players: int) -> None:
    def run(seed: int) -> list:
        game = Game.new(Rules(players=players), seed=seed)
        rng = random.Random(seed)
        play_out(game, rng)
        return game.history

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_unseeded_games_differ() -> None:
    decks = {tuple(Game.new(Rules()).deck) for _ in range(5)}
    assert len(decks) == 5


def test_copy_does_not_share_the_deal_generator():
    from hokm.engine import Game, Phase, Rules

    a = Game.new(Rules(players=4), seed=11)
    b = Game.new(Rules(players=4), seed=11)
    c = a.copy()
    # play out the first hand in the copy and deal the next one there
    while c.phase is not Phase.DEAL and not c.is_over:
        c.apply(c.legal_actions()[0])
    if c.phase is Phase.DEAL:
        c.deal()
    for g in (a, b):
        while g.phase is not Phase.DEAL and not g.is_over:
            g.apply(g.legal_actions()[0])
        g.deal()
    assert a.deck == b.deck


def test_the_undo_snapshot_holds_every_field_of_a_game() -> None:
    """A deal's snapshot reads the fields by name (not through ``__dict__``): it must name them all."""
    from hokm.engine.game import _state_fields

    for players in (2, 3, 4):
        game = Game.new(Rules(players=players), seed=4)
        random_step(game, random.Random(1))
        assert set(_state_fields()) == set(vars(game)) - {"_history", "_checkpoints", "_rng"}
