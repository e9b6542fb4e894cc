"""Signed records: round trip, tampering, other keys, unsigned records, key files."""

from __future__ import annotations

import copy
import json
import os
import stat

import pytest

from hokm.bench.verify import long_record
from hokm.records import dumps, load_record
from hokm.signing import KEY_FILE, Signer, SigningError, canonical_bytes, check_signature, parse_public_key
from hokm.verification import check_record


@pytest.fixture(scope="module")
def record() -> dict:
    return long_record(seed=3, target=7)


@pytest.fixture(scope="module")
def server() -> Signer:
    return Signer.generate()


def test_a_signed_record_verifies_and_names_its_server(record, server) -> None:
    signed = server.sign(record | {"meta": {"server": "hokm.example", "game_id": "g1"}})
    load_record(signed)  # still a valid hokm/1 record for every reader
    check = check_signature(signed)
    assert check.status == "signed" and check.ok
    assert check.public_key == server.public_key and check.fingerprint == server.fingerprint
    assert check.server == "hokm.example" and server.fingerprint in check.message
    assert check_signature(signed, server.public_key).status == "signed"
    result = check_record(dumps(signed).encode(), server.public_key)
    assert result["ok"] and result["signature"]["status"] == "signed", result


def test_the_signature_does_not_depend_on_layout(record, server) -> None:
    signed = server.sign(record)
    pretty = json.dumps(signed, indent=2, sort_keys=True, ensure_ascii=True)
    assert check_signature(json.loads(pretty)).status == "signed"


def _tampered(signed: dict, where: str) -> dict:
    t = copy.deepcopy(signed)
    if where == "name":
        t["names"][1] = "Mallory"
    elif where == "meta":
        t["meta"]["ended_at"] = 1.0
    elif where == "card":  # two cards of the last hand's deck swapped
        deck = t["hands"][-1]["deck"]
        deck[0], deck[1] = deck[1], deck[0]
    elif where == "seed":
        t["hands"][0]["fair"]["seat_seeds"][0] = "ab"
    elif where == "rules":
        t["rules"]["kot_points"] = 3
    elif where == "key":  # someone else's key put in place of the server's
        t["meta"]["signature"]["public_key"] = Signer.generate().public_key
    return t


@pytest.mark.parametrize("where", ["name", "meta", "card", "seed", "rules", "key"])
def test_any_change_breaks_the_signature(record, server, where) -> None:
    signed = server.sign(record | {"meta": {"server": "hokm", "ended_at": 2.5}})
    check = check_signature(_tampered(signed, where))
    assert check.status == "bad_signature" and not check.ok, check


def test_a_bad_signature_fails_verification_with_a_clear_message(record, server) -> None:
    signed = server.sign(record)
    bad = _tampered(signed, "name")
    result = check_record(bad)
    assert not result["ok"] and result["stage"] == "signature" and result["code"] == "bad_signature"
    assert "changed after signing" in result["message"]


def test_a_record_fabricated_with_ones_own_seeds_is_not_this_servers(record, server) -> None:
    """Anyone can make up seeds and a deck that verify; only the server's key makes its signature."""
    forger = Signer.generate()
    fake = long_record(seed=99, target=7)
    assert check_record(fake)["hakem_draw_ok"] is True  # the shuffle checks out...
    unsigned = check_record(fake, server.public_key)
    assert not unsigned["ok"] and unsigned["signature"]["status"] == "other_key"
    assert "not signed" in unsigned["signature"]["message"]
    signed_by_forger = check_record(forger.sign(fake), server.public_key)
    assert not signed_by_forger["ok"] and signed_by_forger["signature"]["status"] == "other_key"
    assert forger.fingerprint in signed_by_forger["message"] and server.fingerprint in signed_by_forger["message"]
    # Without a key to require, the forger's record is intact, but the name it gives its server is
    # reported as its own claim, never as who dealt it.
    alone = check_record(forger.sign(fake | {"meta": {"server": "hokm"}}))["signature"]
    assert alone["status"] == "signed" and forger.fingerprint in alone["message"]
    assert "only the key can confirm" in alone["message"] and "--key" in alone["message"]
    assert "signed by server" not in alone["message"]


def test_old_unsigned_records_verify_as_unsigned(record) -> None:
    result = check_record(dumps(record).encode())
    assert result["ok"], result
    assert result["signature"]["status"] == "unsigned" and "not signed" in result["message"]


def test_malformed_signatures_are_bad_not_errors(record, server) -> None:
    signed = server.sign(record)
    for sig in ("x", {"alg": "RSA"}, {"alg": "Ed25519", "public_key": "zz", "value": "00"},
                {"alg": "Ed25519", "public_key": server.public_key, "value": "nothex"},
                {"alg": "Ed25519", "public_key": server.public_key, "value": "00" * 64}):
        t = copy.deepcopy(signed)
        t["meta"]["signature"] = sig
        assert check_signature(t).status == "bad_signature"


def test_canonical_bytes_leave_out_only_the_signature(record, server) -> None:
    signed = server.sign(record)
    assert canonical_bytes(signed) == canonical_bytes(server.sign(signed)) == canonical_bytes(record | {"meta": {}})
    assert canonical_bytes(signed).startswith(b"hokm-record-signature/1\n{")


def test_the_key_file_is_made_once_with_mode_0600(tmp_path) -> None:
    path = tmp_path / "data" / KEY_FILE
    first = Signer.from_file(path, create=True)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert Signer.from_file(path, create=True).public_key == first.public_key
    assert Signer.from_file(path).public_key == first.public_key
    with pytest.raises(SigningError):
        Signer.from_file(tmp_path / "absent.pem")
    (tmp_path / "junk.pem").write_text("not a key")
    with pytest.raises(SigningError):
        Signer.from_file(tmp_path / "junk.pem")


def test_keys_from_hex_and_pem() -> None:
    s = Signer.from_hex("11" * 32)
    assert Signer.from_hex("11" * 32).public_key == s.public_key
    with pytest.raises(SigningError):
        Signer.from_hex("11" * 31)
    assert parse_public_key(s.public_key.upper()) == s.public_key
    with pytest.raises(SigningError):
        parse_public_key("12345")
