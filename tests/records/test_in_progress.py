"""Records of games in progress: the last hand may stop at any decision."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from hokm.records import load_record, replay_summary


def cut(rec: dict[str, Any], hands: int) -> dict[str, Any]:
    out = copy.deepcopy(rec)
    out["hands"] = out["hands"][:hands]
    return out


def assert_unstarted(h: dict[str, Any]) -> None:
    assert h["trump"] is None and h["winner"] is None and h["points"] == 0 and h["kot"] is False
    assert set(h["tricks"]) == {0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_hands_yet(players: int) -> None:
    rec = {"format": "hokm/1", "players": players, "first_hakem": players - 1, "hands": []}
    s = replay_summary(rec)
    assert s == {"ok": True, "players": players, "scores": [0] * (2 if players == 4 else players),
                 "game_over": False, "winner": None, "to_move": players - 1, "phase": "trump", "hands": []}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dealt_but_no_trump(records, players: int) -> None:
    rec = cut(records[players], 3)
    rec["hands"][-1] = {"deck": rec["hands"][-1]["deck"]}
    s = replay_summary(rec)
    hakem = s["hands"][-1]["hakem"]
    assert (s["phase"], s["to_move"]) == ("trump", hakem)
    assert_unstarted(s["hands"][-1])
    assert len(s["hands"]) == 3
    rec["hands"][-1]["trump"] = None  # null is the same as absent
    assert replay_summary(rec) == s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_between_hands_the_new_hakem_chooses_trump(records, players: int) -> None:
    full = replay_summary(records[players])
    for k in (1, 2, 4):
        s = replay_summary(cut(records[players], k))
        assert s["ok"] and not s["game_over"] and s["winner"] is None
        assert s["phase"] == "trump"
        assert s["to_move"] == full["hands"][k]["hakem"]
        assert s["hands"] == full["hands"][:k]


def test_two_player_discard_and_draw_phases(records) -> None:
    rec = cut(records[2], 2)
    last = rec["hands"][-1]
    hakem = replay_summary(rec)["hands"][-1]["hakem"]
    other = 1 - hakem

    last.update(discards=[[], []], draws=[], plays=[])
    s = replay_summary(rec)
    assert (s["phase"], s["to_move"]) == ("discard", hakem)
    assert s["hands"][-1]["trump"] == last["trump"]

    del last["discards"], last["draws"], last["plays"]
    assert replay_summary(rec) == s  # absent lists mean the same

    full = copy.deepcopy(records[2]["hands"][1])
    last["discards"] = [None, None]
    last["discards"][hakem] = full["discards"][hakem]
    s = replay_summary(rec)
    assert (s["phase"], s["to_move"]) == ("discard", other)

    last["discards"] = full["discards"]
    s = replay_summary(rec)
    assert (s["phase"], s["to_move"]) == ("draw", hakem)

    for k in range(1, 21):
        last["draws"] = full["draws"][:k]
        s = replay_summary(rec)
        assert (s["phase"], s["to_move"]) == ("draw", hakem if k % 2 == 0 else other)

    last["draws"] = full["draws"]
    s = replay_summary(rec)
    assert (s["phase"], s["to_move"]) == ("play", hakem)
    game = load_record(rec)
    assert [bin(h).count("1") for h in game.hands] == [13, 13]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plays_cut_short(records, players: int) -> None:
    rec = cut(records[players], 2)
    plays = rec["hands"][-1]["plays"]
    hakem = replay_summary(rec)["hands"][-1]["hakem"]
    rec["hands"][-1]["plays"] = []
    s = replay_summary(rec)
    assert (s["phase"], s["to_move"]) == ("play", hakem)
    rec["hands"][-1]["plays"] = plays[: players + 1]
    s = replay_summary(rec)
    assert s["phase"] == "play" and s["to_move"] == (load_record(rec).leader + 1) % players
    assert sum(s["hands"][-1]["tricks"]) == 1
    assert s["hands"][-1]["winner"] is None and s["hands"][-1]["points"] == 0
