"""Ed25519 signatures on game records: which server dealt a game, and that nothing was changed.

Commit-reveal (:mod:`hokm.fairness`) proves that each deck was fixed before the players added
their seeds; it cannot say *who* dealt it, since anyone can make up seeds and write a record that
verifies. A server therefore signs every finished record with its own Ed25519 key
(``cryptography``) and puts the signature and its public key in ``meta.signature``:

    {"alg": "Ed25519", "public_key": <64 hex digits>, "value": <128 hex digits>}

The signature covers the whole record except ``meta.signature`` itself (names, rules, meta, every
hand and its fairness data), over its canonical text (:func:`canonical_bytes`). ``meta`` is
free-form in ``hokm/1``, so signed records stay valid ``hokm/1`` for every reader.
``docs/record-format.md`` states the canonical form in words.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ALG = "Ed25519"
CONTEXT = b"hokm-record-signature/1\n"
KEY_FILE = "signing-key.pem"
SignatureStatus = Literal["signed", "unsigned", "bad_signature", "other_key"]


class SigningError(ValueError):
    """A key that cannot be read or used."""


def canonical_bytes(record: dict[str, Any]) -> bytes:
    """The signed bytes: ``CONTEXT`` then the record without ``meta.signature`` as canonical JSON.

    Canonical JSON: keys sorted by code point at every level, no white space, strings as UTF-8
    (only ``"``, ``\\`` and control characters escaped), numbers as Python's ``json`` writes them.
    """
    rec = dict(record)
    meta = rec.get("meta")
    if isinstance(meta, dict) and "signature" in meta:
        meta = dict(meta)
        del meta["signature"]
        rec["meta"] = meta
    text = json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return CONTEXT + text.encode("utf-8")


def public_hex(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def fingerprint(public_key_hex: str) -> str:
    """A short name for a public key: the first 16 hex digits of the SHA-256 of its 32 bytes."""
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


def parse_public_key(text: str) -> str:
    """A public key given as 64 hex digits, or as PEM text; returns its 64 hex digits."""
    s = text.strip()
    if s.startswith("-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(s.encode())
        except ValueError as e:
            raise SigningError(f"not a PEM public key: {e}") from None
        if not isinstance(key, Ed25519PublicKey):
            raise SigningError("the PEM key is not an Ed25519 public key")
        return public_hex(key)
    s = s.lower()
    if len(s) != 64 or any(c not in "0123456789abcdef" for c in s):
        raise SigningError("a public key is 64 hex digits (32 bytes) or a PEM public key")
    return s


class Signer:
    """A server's signing key."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public_key = public_hex(key.public_key())
        self.fingerprint = fingerprint(self.public_key)

    @classmethod
    def generate(cls) -> Signer:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_hex(cls, seed_hex: str) -> Signer:
        """From the 32-byte private key as 64 hex digits (``HOKM_SIGNING_KEY``)."""
        try:
            raw = bytes.fromhex(seed_hex.strip())
        except ValueError:
            raise SigningError("the signing key must be 64 hex digits") from None
        if len(raw) != 32:
            raise SigningError("the signing key must be 64 hex digits (32 bytes)")
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    @classmethod
    def from_file(cls, path: str | Path, create: bool = False) -> Signer:
        """Read a PEM (PKCS #8) private key; with ``create``, write a new one first if there is none.

        A new file is created with mode 0600 in one step (``O_CREAT | O_EXCL``), so the key is
        never readable by others and two processes starting at once cannot both write one.
        """
        p = Path(path)
        if create and not p.exists():
            new = Ed25519PrivateKey.generate()
            pem = new.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
            p.parent.mkdir(parents=True, exist_ok=True)
            try:
                fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                pass  # another process made it first: read theirs
            else:
                with os.fdopen(fd, "wb") as f:
                    f.write(pem)
        try:
            key = serialization.load_pem_private_key(p.read_bytes(), password=None)
        except OSError as e:
            raise SigningError(f"cannot read the signing key {p}: {e.strerror or e}") from None
        except ValueError as e:
            raise SigningError(f"{p} is not a PEM private key: {e}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise SigningError(f"{p} is not an Ed25519 private key")
        return cls(key)

    def sign(self, record: dict[str, Any]) -> dict[str, Any]:
        """A copy of ``record`` with ``meta.signature`` set (any old signature replaced)."""
        rec = copy.deepcopy(record)
        meta = rec.get("meta")
        rec["meta"] = meta = dict(meta) if isinstance(meta, dict) else {}
        meta.pop("signature", None)
        value = self._key.sign(canonical_bytes(rec)).hex()
        meta["signature"] = {"alg": ALG, "public_key": self.public_key, "value": value}
        return rec


@dataclass(frozen=True)
class SignatureCheck:
    """The signature status of a record: who signed it, if anyone, and whether it is intact."""

    status: SignatureStatus
    message: str
    public_key: str | None = None
    fingerprint: str | None = None
    server: str | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("signed", "unsigned")

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "message": self.message, "public_key": self.public_key,
                "fingerprint": self.fingerprint, "server": self.server}


def check_signature(record: dict[str, Any], expected_key: str | None = None) -> SignatureCheck:
    """Check ``meta.signature``; with ``expected_key`` (64 hex digits) require that signer.

    ``unsigned``: there is no signature (an expected key then makes it ``other_key``);
    ``bad_signature``: there is one, but it does not match the record (changed after signing) or
    is malformed; ``other_key``: intact, but made by a key other than the expected one.
    """
    meta = record.get("meta")
    server = meta.get("server") if isinstance(meta, dict) and isinstance(meta.get("server"), str) else None
    sig = meta.get("signature") if isinstance(meta, dict) else None
    if sig is None:
        if expected_key is not None:
            return SignatureCheck("other_key", f"the record is not signed, so not by the server {fingerprint(expected_key)}",
                                  server=server)
        return SignatureCheck("unsigned", "the record is not signed: the shuffles are checked, but not which "
                              "server dealt them", server=server)
    if not isinstance(sig, dict) or sig.get("alg") != ALG or not isinstance(sig.get("public_key"), str) \
            or not isinstance(sig.get("value"), str):
        return SignatureCheck("bad_signature", "meta.signature must be {\"alg\": \"Ed25519\", \"public_key\", "
                              "\"value\"}", server=server)
    try:
        key_hex = parse_public_key(sig["public_key"])
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex))
        value = bytes.fromhex(sig["value"])
        key.verify(value, canonical_bytes(record))
    except (SigningError, ValueError, InvalidSignature):
        pk = sig["public_key"] if len(sig["public_key"]) <= 128 else None
        return SignatureCheck("bad_signature", "the signature does not match the record: it was changed after "
                              "signing, or the signature is not the server's", pk, None, server)
    fp = fingerprint(key_hex)
    if expected_key is not None and key_hex != expected_key:
        return SignatureCheck("other_key", f"signed by the key {fp}, not by the expected server "
                              f"{fingerprint(expected_key)}", key_hex, fp, server)
    if expected_key is not None:
        return SignatureCheck("signed", f"signed by the expected server {fp}" + (f" ({server})" if server else ""),
                              key_hex, fp, server)
    # Without an expected key, anyone's key fits: the name in the record is only what it says of itself.
    named = f"; the record names its server {server!r}, which only the key can confirm" if server else ""
    return SignatureCheck("signed", f"signed by the key {fp}{named} (compare the key with the server's /api/info, "
                          "or pass --key to require it)", key_hex, fp, server)
