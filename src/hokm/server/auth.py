"""Guest players and their tokens.

A guest gets a random player id and a long random token (256 bits). Only the token's SHA-256 is
stored: a token has far too much entropy to guess or brute-force from its hash, so a slow
password hash would buy nothing, and a plain hash keeps every request's lookup one indexed read.

A token expires when unused for ``token_lifetime`` seconds; each use renews it (the stored time is
rewritten at most every tenth of the lifetime, and at most hourly, so a busy player does not write
on every request). Signing out deletes the token, signing out everywhere every token of the player.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from ..names import NameError_, clean_name
from .bus import Bus
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
    """The display form of a typed nickname (:func:`hokm.names.clean_name`), or ``AuthError`` with its code."""
    try:
        return clean_name(nickname)
    except NameError_ as e:
        raise AuthError(e.code, f"nickname: {e.message}") from None


async def create_guest(storage: Storage, nickname: str) -> tuple[PlayerRow, str]:
    """Register a guest; return the row and the token (the only time the token exists in clear)."""
    token = secrets.token_urlsafe(32)
    row = PlayerRow(id=secrets.token_hex(8), nickname=clean_nickname(nickname), token_hash=hash_token(token),
                    created_at=time.time(), mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
    await storage.create_player(row)
    return row, token


async def authenticate(storage: Storage, token: str | None, lifetime: float) -> PlayerRow:
    """The player of a valid token, renewing it; :class:`AuthError` for a missing, unknown, revoked or expired one."""
    if not token or len(token) > 200:
        raise AuthError("unauthorized", "a player token is required (Authorization: Bearer <token>)")
    digest = hash_token(token)
    found = await storage.player_by_token_hash(digest)
    if found is None:
        raise AuthError("unauthorized", "unknown or signed-out player token")
    row, used_at = found
    now = time.time()
    if now - used_at > lifetime:
        await storage.revoke_token(digest)
        raise AuthError("unauthorized", "this player token has expired; sign in again")
    if now - used_at > min(3600.0, lifetime / 10):
        await storage.renew_token(digest, now)
    return row


async def issue_token(storage: Storage, player_id: str) -> str:
    """A further token for an existing player (returned in clear this once)."""
    token = secrets.token_urlsafe(32)
    await storage.add_token(hash_token(token), player_id, time.time())
    return token


#: The key of the note on ``player:<id>`` that tells the player's open connections a token was
#: revoked (its hash; ``None``: every token). Connections close on it and never send it on.
SIGNED_OUT = "_signed_out"


async def sign_out(storage: Storage, token: str, everywhere: bool, player_id: str, bus: Bus | None = None) -> int:
    """Revoke this token, or every token of its player; return how many went.

    With ``bus``, the connections already open with a revoked token (on any node) are closed too.
    """
    digest = hash_token(token)
    revoked = await storage.revoke_tokens(player_id) if everywhere else await storage.revoke_token(digest)
    if bus is not None:
        await bus.publish(f"player:{player_id}", {SIGNED_OUT: None if everywhere else digest})
    return revoked


def bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
