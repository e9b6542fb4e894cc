"""``hokm replay``: one JSON line per file in order, exit status, readable output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hokm.cli.main import main
from hokm.records import dumps


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_json_lines_in_order(tmp_path, capsys, finished_records) -> None:
    files = [write(tmp_path, f"g{n}.json", dumps(finished_records[n])) for n in (4, 2, 3)]
    assert main(["replay", "--json", *files]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["players"] for line in lines] == [4, 2, 3]
    assert all(json.loads(line)["ok"] for line in lines)


def test_one_bad_file_fails_the_run(tmp_path, capsys, finished_records) -> None:
    good = write(tmp_path, "good.json", dumps(finished_records[4]))
    bad = write(tmp_path, "bad.json", dumps(finished_records[4])[:-10])
    missing = str(tmp_path / "absent.json")
    assert main(["replay", "--json", good, bad, missing, good]) == 1
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["ok"] for o in out] == [True, False, False, True]
    assert out[1]["error"]["code"] == out[2]["error"]["code"] == "bad_format"
    assert "cannot read" in out[2]["error"]["message"]


def test_human_summary(tmp_path, capsys, finished_records) -> None:
    rec = dict(finished_records[3])
    good = write(tmp_path, "good.json", dumps(rec))
    rec["players"] = 9
    bad = write(tmp_path, "bad.json", dumps(rec))
    assert main(["replay", good, bad]) == 1
    out = capsys.readouterr().out
    assert "final score" in out and "wins" in out
    assert "invalid" in out and "bad_format" in out


def test_stdin_and_console_script(finished_records) -> None:
    proc = subprocess.run([sys.executable, "-m", "hokm.cli.main", "replay", "--json", "-"],
                          input=dumps(finished_records[2]), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True
