"""``hokm bench search``: Python and compiled inner loops of the search, timed and compared."""

from __future__ import annotations

import json

import pytest

from hokm.cli.main import main

pytest.importorskip("numba")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_report_counts_and_agrees(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "search", "--players", str(players), "--positions", "3", "--deals", "20",
                 "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["players"] == players and r["positions"] == 3 and r["candidates"] == 60
    assert r["disagreements"] == 0
    assert r["cards_played_out"] >= 3 * 10 * 2
    for key in ("read_us", "sample_us", "playout_us"):
        assert r[key]["python"] > 0 and r[key]["compiled"] > 0


def test_table_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "search", "--positions", "2", "--deals", "10"]) == 0
    out = capsys.readouterr().out
    assert "play-read, per deal" in out and "disagreements: 0" in out


def test_repeated_compiled_passes_keep_the_fastest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "search", "--players", "4", "--positions", "2", "--deals", "10", "--repeat", "3",
                 "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["repeat"] == 3 and r["disagreements"] == 0
    for key in ("read_us", "sample_us", "playout_us"):
        assert 0 < r[key]["compiled"] < r[key]["python"]
