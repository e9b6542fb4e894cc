"""``hokm verify``: each kind of failure named for what it is; signatures and ``--key``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hokm.bench.verify import long_record
from hokm.cli.main import main
from hokm.records import dumps
from hokm.signing import Signer

DATA = Path(__file__).parent / "data"


def _one(capsys, *args: str) -> tuple[int, dict]:
    code = main(["verify", "--json", *args])
    return code, json.loads(capsys.readouterr().out.splitlines()[-1])


def test_a_replay_failure_is_not_called_json(capsys) -> None:
    code, out = _one(capsys, str(DATA / "not-in-hand.json"))
    assert code == 1 and out["stage"] == "record" and out["code"] == "not_in_hand"
    assert "not JSON" not in out["message"] and "does not replay" in out["message"]
    assert main(["verify", str(DATA / "not-in-hand.json")]) == 1
    text = capsys.readouterr().out
    assert "NOT A VALID RECORD" in text and "not JSON" not in text


def test_json_faults_and_deep_nesting(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert _one(capsys, str(bad))[1]["code"] == "bad_json"
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 990 + "]" * 990)
    code, out = _one(capsys, str(deep))
    assert code == 1 and out["code"] == "too_deep"
    code, out = _one(capsys, str(tmp_path / "absent.json"))
    assert out["stage"] == "read"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict:
    d = tmp_path_factory.mktemp("signed")
    server, other = Signer.generate(), Signer.generate()
    rec = long_record(seed=5, target=3) | {"meta": {"server": "hokm.example"}}
    out = {"server": server, "other": other}
    for name, r in {"signed": server.sign(rec), "unsigned": rec, "other": other.sign(rec)}.items():
        p = d / f"{name}.json"
        p.write_text(dumps(r))
        out[name] = str(p)
    tampered = server.sign(rec)
    tampered["names"][0] = "Mallory"
    (d / "tampered.json").write_text(dumps(tampered))
    out["tampered"] = str(d / "tampered.json")
    (d / "key.txt").write_text(server.public_key + "\n")
    out["keyfile"] = str(d / "key.txt")
    return out


def test_signed_unsigned_and_tampered(files, capsys) -> None:
    assert main(["verify", files["signed"]]) == 0
    text = capsys.readouterr().out
    assert "fair, signed" in text and files["server"].fingerprint in text and "hokm.example" in text
    assert main(["verify", files["unsigned"]]) == 0
    assert "fair, UNSIGNED" in capsys.readouterr().out
    assert main(["verify", files["tampered"]]) == 1
    text = capsys.readouterr().out
    assert "SIGNATURE REFUSED" in text and "changed after signing" in text


def test_key_requires_that_server(files, capsys) -> None:
    key = files["server"].public_key
    assert _one(capsys, "--key", key, files["signed"])[0] == 0
    assert _one(capsys, "--key", files["keyfile"], files["signed"])[0] == 0
    code, out = _one(capsys, "--key", key, files["other"])
    assert code == 1 and out["signature"]["status"] == "other_key"
    code, out = _one(capsys, "--key", key, files["unsigned"])
    assert code == 1 and out["signature"]["status"] == "other_key"
    assert main(["verify", "--key", "nonsense", files["signed"]]) == 2
