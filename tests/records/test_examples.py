"""The example records of ``docs/record-format.md`` give exactly the documented replay output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hokm.cli.main import main
from hokm.records import RECORD_CODES, load_record, record_from_game, dumps

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
