"""The example records of ``docs/record-format.md`` give exactly the documented replay output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hokm.cli.main import main
from hokm.records import RECORD_CODES, dumps, load_record, record_from_game

DATA = Path(__file__).parent / "data"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example(name: str, capsys) -> None:
    assert main(["replay", "--json", str(DATA / name)]) == (0 if EXPECTED[name]["ok"] else 1)
    assert json.loads(capsys.readouterr().out) == EXPECTED[name]


def test_one_bad_example_per_code() -> None:
    codes = {v["error"]["code"] for v in EXPECTED.values() if not v["ok"]}
    assert codes == set(RECORD_CODES)
    for code in RECORD_CODES:
        assert EXPECTED[code.replace("_", "-") + ".json"]["error"]["code"] == code


@pytest.mark.parametrize("name", [n for n in sorted(EXPECTED) if EXPECTED[n]["ok"]])
def test_valid_examples_are_canonical_text(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    rec = json.loads(text)
    assert dumps(record_from_game(load_record(text), names=rec.get("names"), meta=rec.get("meta"))) + "\n" == text


@pytest.mark.parametrize("name, tricks, winner, length", [
    ("three-7-4-4.json", (4, 7, 4), 1, 15),   # 7-4-3 plays on, 7-4-4 ends it: nobody can pass 6
    ("three-8-2-2.json", (2, 8, 2), 1, 12),   # 8-2-2 ends it with five tricks left
    ("three-7-7-3.json", (7, 3, 7), 1, 17),   # two tied for most: the third player wins
    ("three-6-6-5.json", (6, 5, 6), 1, 17),
])
def test_three_player_worked_examples(name: str, tricks: tuple, winner: int, length: int) -> None:
    """The seeds' three-player examples, in real hands of random play (found by seed, then saved)."""
    game = load_record((DATA / name).read_text(encoding="utf-8"))
    (result,) = game.results
    assert (result.tricks, result.winner, result.points, result.kot) == (tricks, winner, 1, False)
    assert len(game.completed) == length  # the engine stops at the deciding trick, not before or after
    if name == "three-7-4-4.json":
        before = [0, 0, 0]
        for trick in game.completed[:-1]:
            before[trick.winner] += 1
        assert sorted(before, reverse=True) == [7, 4, 3]
