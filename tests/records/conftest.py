"""Shared helpers for record tests: seeded random games and their records."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from hokm.engine import Game, Phase, Rules
from hokm.records import record_from_game


def play_random(game: Game, rng: random.Random, max_steps: int | None = None) -> Game:
    """Drive ``game`` with uniformly random legal actions (and seeded deals)."""
    steps = 0
    while not game.is_over and (max_steps is None or steps < max_steps):
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
        else:
            game.apply(rng.choice(game.legal_actions()))
        steps += 1
    return game


def random_game(players: int, seed: int, max_steps: int | None = None, **rules: Any) -> Game:
    rng = random.Random(seed)
    return play_random(Game.new(Rules(players=players, **rules), rng=rng), rng, max_steps)


@pytest.fixture(scope="session")
def finished_records() -> dict[int, dict[str, Any]]:
    """One finished game's record per player count (seeded, so always the same games)."""
    return {n: record_from_game(random_game(n, seed=100 + n)) for n in (2, 3, 4)}


@pytest.fixture
def records(finished_records: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Fresh deep copies that a test may mutate."""
    return copy.deepcopy(finished_records)
