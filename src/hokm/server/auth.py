"""Guest players and their tokens.

A guest gets a random player id and a long random token (256 bits). Only the token's SHA-256 is
stored: a token has far too much entropy to guess or brute-force from its hash, so a slow
password hash would buy nothing, and a plain hash keeps every request's lookup one indexed read.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata

from .ratings import DEFAULT_MU, DEFAULT_SIGMA
from .storage import PlayerRow, Storage


class AuthError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def clean_nickname(nickname: str) -> str:
    """Trim, collapse spaces, drop control characters; 1 to 24 characters remain or it is refused."""
    text = "".join(ch for ch in unicodedata.normalize("NFC", nickname)
                   if unicodedata.category(ch)[0] != "C")
    text = " ".join(text.split())
    if not 1 <= len(text) <= 24:
        raise AuthError("bad_request", "nickname must have 1 to 24 visible characters")
    return text


async def create_guest(storage: Storage, nickname: str) -> tuple[PlayerRow, str]:
    """Register a guest; return the row and the token (the only time the token exists in clear)."""
    token = secrets.token_urlsafe(32)
    row = PlayerRow(id=secrets.token_hex(8), nickname=clean_nickname(nickname), token_hash=hash_token(token),
                    created_at=time.time(), mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
    await storage.create_player(row)
    return row, token


async def authenticate(storage: Storage, token: str | None) -> PlayerRow:
    if not token or len(token) > 200:
        raise AuthError("unauthorized", "a player token is required (Authorization: Bearer <token>)")
    row = await storage.player_by_token_hash(hash_token(token))
    if row is None:
        raise AuthError("unauthorized", "unknown player token")
    return row


def bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
