"""``hokm bench analyse``: per-hand analysis times for bot games, with a node limit."""

from __future__ import annotations

import json

import pytest

from hokm.cli.main import main


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "analyse", "--hands", "1", "--node-limit", "50000", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["players"] == 4 and r["hands"] == 1 and r["games"] == 1
    assert r["cards"] >= 28 and 0 <= r["unsolved"] <= r["cards"]
    assert 0 < r["median_s"] <= r["max_s"] and r["node_limit"] == 50000


def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "analyse", "--hands", "0"]) == 2
