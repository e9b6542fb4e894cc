"""``hokm bench engine``: what it counts, its JSON, and the report without OpenSpiel."""

from __future__ import annotations

import argparse
import json
import random

import pytest

from hokm.bench import engine as bench
from hokm.cli.main import main
from hokm.engine import Rules


@pytest.mark.parametrize("players, low, high", [(4, 28, 52), (3, 27, 51), (2, 14, 26)])
def test_hokm_counts_the_card_plays_of_whole_hands(players: int, low: int, high: int) -> None:
    tally = bench.Tally()
    bench.hokm_round(Rules(players=players), random.Random(3), 0.05, tally)
    assert tally.hands > 0 and tally.seconds > 0 and tally.setup_seconds > 0
    assert low * tally.hands <= tally.plays <= high * tally.hands


def test_bridge_plays_all_52_cards() -> None:
    game = bench.load_bridge()
    if game is None:
        pytest.skip("pyspiel is not installed")
    tally = bench.Tally()
    bench.bridge_round(game, random.Random(3), 0.05, tally)
    assert tally.hands > 0 and tally.plays == 52 * tally.hands


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--seconds", "0.2", "--rounds", "2", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    for key in ("hokm_plays_per_s", "hokm_hands_per_s", "openspiel_plays_per_s", "openspiel_hands_per_s",
                "ratio", "loop_floor_plays_per_s", "hokm_hands_per_s_with_deal"):
        assert key in r
    assert r["hokm_plays_per_s"] > 0 and r["clock"] == "cpu" and r["players"] == 4
    if r["openspiel_missing"]:
        assert r["ratio"] is None
    else:
        assert r["ratio"] == pytest.approx(r["hokm_plays_per_s"] / r["openspiel_plays_per_s"], rel=1e-2)
        assert r["openspiel"]["plays"] == 52 * r["openspiel"]["hands"]


def test_without_pyspiel_hokm_alone(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench, "load_bridge", lambda: None)
    args = argparse.Namespace(players=3, seconds=0.1, seed=2, rounds=1, no_openspiel=False, clock="wall", json=False)
    assert bench.run(args) == 0
    out, err = capsys.readouterr()
    assert "pyspiel is not installed" in err
    assert "hokm, 3 players" in out and "openspiel bridge" not in out
    r = bench.measure(3, 0.1, 2, 1)
    assert r["openspiel_missing"] and r["ratio"] is None and r["openspiel_plays_per_s"] is None


@pytest.mark.parametrize("kwargs, message", [({"players": 5}, "players"), ({"seconds": 0}, "seconds"),
                                             ({"rounds": 0}, "rounds"), ({"clock_name": "sun"}, "clock")])
def test_bad_options(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bench.measure(**{"seconds": 0.1, **kwargs})
