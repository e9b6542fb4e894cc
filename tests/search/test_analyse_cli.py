"""``hokm analyse``: JSON and table output, hands in progress refused, bad input in one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hokm.cli.main import main
from hokm.records import dumps, record_from_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "records"))
from records.conftest import random_game

DATA = Path(__file__).resolve().parents[1] / "records" / "data"


def test_json_has_a_mark_for_every_card(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(dumps(record_from_game(random_game(4, seed=104))), encoding="utf-8")
    assert main(["analyse", str(path), "--json", "--hand", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    (hand,) = out["hands"]
    assert hand["hand"] == 0 and len(hand["plays"]) == 4 * sum(hand["tricks"])
    assert {p["mark"] for p in hand["plays"]} <= {"fine", "inaccuracy", "mistake", "blunder"}
    assert out["paranoid"] is False


def test_table_lists_costly_cards(capsys):
    assert main(["analyse", str(DATA / "kot-4p.json"), "--all"]) == 0
    text = capsys.readouterr().out
    assert "hand 0" in text and "fine" in text and "cards that cost something" in text


def test_a_hand_in_progress_is_refused(capsys):
    assert main(["analyse", str(DATA / "in-progress-4p.json"), "--hand", "0"]) == 1
    err = capsys.readouterr().err
    assert "still being played" in err and "Traceback" not in err


def test_unfinished_last_hand_is_named_not_analysed(capsys):
    assert main(["analyse", str(DATA / "in-progress-4p.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == [] and out["in_progress"] == 0


def test_bad_input_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["analyse", str(bad)]) == 1
    assert main(["analyse", str(tmp_path / "absent.json")]) == 2
    assert main(["analyse", str(DATA / "kot-4p.json"), "--hand", "5"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("hokm analyse:") for line in err)


def test_trump_choice_on_request(capsys):
    assert main(["analyse", str(DATA / "kot-4p.json"), "--json", "--trump"]) == 0
    (hand,) = json.loads(capsys.readouterr().out)["hands"]
    t = hand["trump_choice"]
    assert set(t["by_suit"]) == {"S", "H", "D", "C"} and t["chosen"] == hand["trump"]
    assert t["mark"] in {"fine", "inaccuracy", "mistake", "blunder"}
    assert main(["analyse", str(DATA / "kot-4p.json"), "--trump"]) == 0
    assert "trump ♠:" in capsys.readouterr().out


def test_two_players_show_the_last_draw(tmp_path, capsys):
    path = tmp_path / "g2.json"
    path.write_text(dumps(record_from_game(random_game(2, seed=102))), encoding="utf-8")
    assert main(["analyse", str(path), "--hand", "0"]) == 0
    out = capsys.readouterr().out
    assert "last draw, seat" in out and "discards and the draws before the last are not judged" in out.replace("\n", " ")
