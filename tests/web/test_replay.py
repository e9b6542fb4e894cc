"""The replay viewer's reading of a record agrees with the engine, for 2, 3 and 4 players.

The viewer works out, for display, who held which card, who took each trick and who was Hâkem
(a record stores only decks and choices). These tests play random games with the engine, write
their records, and check every hand's Hâkem, every trick's winner and the cards left in each hand
against what the engine itself decided.
"""

from __future__ import annotations

import random

import pytest

from hokm.engine import Game, Phase
from hokm.records import record_from_game
from hokm.rules import Rules

pytestmark = pytest.mark.browser


def play_random_game(players: int, seed: int) -> tuple[dict, list[dict]]:
    rng = random.Random(seed)
    game = Game.new(Rules(players=players, target_points=4), rng=rng)
    hands: list[dict] = []

    def close_hand() -> None:
        hands.append({"winners": [t.winner for t in game.completed],
                      "left": [sorted(str(c) for c in game.hand_of(s)) for s in range(players)]})

    while game.phase is not Phase.OVER:
        if game.phase is Phase.DEAL:
            close_hand()
            game.deal(rng=rng)
            continue
        game.apply(rng.choice(game.legal_actions()))
    close_hand()
    for i, h in enumerate(hands):
        h["hakem"] = game.results[i].hakem
    return record_from_game(game), hands


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_frames_match_the_engine(server, open_page, players):
    page = open_page(server + "/")
    page.wait_for_selector("#nickname")
    for seed in range(3):
        record, expected = play_random_game(players, seed)
        frames = page.evaluate("async (rec) => (await import('./js/replay.js')).framesOf(rec)", record)
        assert len(expected) == len(record["hands"])
        for hand, exp in enumerate(expected):
            mine = [f for f in frames if f["hand"] == hand]
            assert mine[0]["hakem"] == exp["hakem"], f"hand {hand}: Hâkem"
            assert [f["trick"]["winner"] for f in mine[1:]] == exp["winners"], f"hand {hand}: trick winners"
            assert [sorted(cs) for cs in mine[-1]["hands"]] == exp["left"], f"hand {hand}: cards left"
