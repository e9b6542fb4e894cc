"""Replay frames follow the engine: hands dealt, trick winners, cards left, Hâkem of each hand."""

from __future__ import annotations

import random

import pytest

from hokm.engine import Game, Phase
from hokm.records import RecordError, record_from_game, replay_frames
from hokm.rules import Rules


def play(players: int, seed: int) -> tuple[Game, list[dict]]:
    rng = random.Random(seed)
    game = Game.new(Rules(players=players, target_points=3), rng=rng)
    seen: list[dict] = []
    start: dict | None = None
    while True:
        if game.phase is Phase.PLAY and start is None:
            start = {"hakem": game.hakem, "trump": str(game.trump),
                     "hands": [sorted(str(c) for c in game.hand_of(s)) for s in range(players)]}
        if game.phase in (Phase.DEAL, Phase.OVER) and start is not None:
            start["winners"] = [t.winner for t in game.completed]
            start["left"] = [sorted(str(c) for c in game.hand_of(s)) for s in range(players)]
            start["tricks"] = list(game.tricks)
            start["seat_tricks"] = list(game.seat_tricks)
            seen.append(start)
            start = None
        if game.phase is Phase.OVER:
            return game, seen
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_frames_agree_with_the_engine(players, seed):
    game, seen = play(players, seed)
    out = replay_frames(record_from_game(game))
    assert out["players"] == players and out["scores"] == game.scores and out["winner"] == game.winner
    assert len(out["hands"]) == len(seen) == len(game.results)
    for hand, exp, result in zip(out["hands"], seen, game.results):
        frames = hand["frames"]
        assert hand["hakem"] == exp["hakem"] and hand["trump"] == exp["trump"]
        assert [sorted(h) for h in frames[0]["hands"]] == exp["hands"]
        assert frames[0]["trick"] is None and frames[0]["trick_no"] == 0
        assert [f["trick"]["winner"] for f in frames[1:]] == exp["winners"]
        assert [sorted(h) for h in frames[-1]["hands"]] == exp["left"]
        assert frames[-1]["tricks"] == exp["tricks"] and frames[-1]["seat_tricks"] == exp["seat_tricks"]
        assert all(sum(f["seat_tricks"]) == f["trick_no"] for f in frames)
        assert hand["result"] == result.to_json()
        assert (hand["discards"] is not None) == (players == 2)
        if players == 2:  # the Hâkem puts down 3 and rejects 11 draws, the other 2 and 10
            size = {hand["hakem"]: 14, 1 - hand["hakem"]: 12}
            assert [len(d) for d in hand["discards"]] == [size[0], size[1]]


def test_frames_of_a_bad_record_raise_record_error():
    with pytest.raises(RecordError):
        replay_frames({"format": "hokm/1", "players": 4, "first_hakem": 0, "hands": [{"deck": ["AS"]}]})
