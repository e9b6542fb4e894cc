"""Accounts: a guest claims a username and password, signs in on another device, links one.

A guest plays without signing up; claiming adds a username and an Argon2id hash of the password
(``argon2-cffi``, its default, RFC 9106 low-memory parameters) to the same player id, so games,
rating and friends stay. Signing in with them issues one more bearer token of that player
(:mod:`.auth`): every device holds its own token, each can be signed out alone, and signing out
everywhere revokes them all (and every unused device link).

Hashing and verifying run in worker threads (the Argon2 library releases the interpreter lock
while it hashes), at most ``hash_threads`` at once; more are refused with :class:`AccountError`
``busy`` rather than queued without bound. Signing in for an unknown username still verifies a
password against a fixed hash, so the time taken does not tell which usernames exist.

A device link is a one-time code (8 characters from an alphabet without lookalikes, about 40
bits) valid for ``link_lifetime`` seconds; only its SHA-256 is stored, and redeeming it deletes it.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

import segno
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .auth import issue_token
from .codes import is_code, new_code, typed_code
from .storage import PlayerRow, Storage
from .storage.social import AccountRow, SocialStore, Taken
from .usernames import UsernameError, clean_username, username_key

MIN_PASSWORD, MAX_PASSWORD = 8, 256


class AccountError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True)
class SignedIn:
    player: PlayerRow
    username: str | None
    token: str


def check_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError("password_invalid", f"the password needs {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if not password.strip():
        raise AccountError("password_invalid", "the password cannot be only spaces")


def normal_link_code(typed: str) -> str:
    """A typed device code as stored: upper case, without spaces and dashes (``abcd-efgh`` = ``ABCDEFGH``)."""
    return typed_code(typed)


def link_hash(code: str) -> str:
    return hashlib.sha256(normal_link_code(code).encode("ascii", "replace")).hexdigest()


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an SVG document (drawn by ``segno``)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False, dark="#000", light="#fff")
    return out.getvalue().decode("ascii")


class Accounts:
    def __init__(self, storage: Storage, store: SocialStore, *, link_lifetime: float = 600.0,
                 hash_threads: int = 2, hasher: PasswordHasher | None = None) -> None:
        self.storage, self.store, self.link_lifetime = storage, store, link_lifetime
        self.hasher = hasher or PasswordHasher()
        self._slots = asyncio.Semaphore(hash_threads)
        self._waiting = 0
        self._max_waiting = hash_threads * 8
        self._dummy: str | None = None

    async def _hashing(self, fn: Callable[..., object], *args: str) -> object:
        if self._waiting >= self._max_waiting:
            raise AccountError("busy", "the server is checking too many passwords; try again in a moment")
        self._waiting += 1
        try:
            async with self._slots:
                return await asyncio.to_thread(fn, *args)
        finally:
            self._waiting -= 1

    async def _hash(self, password: str) -> str:
        return str(await self._hashing(self.hasher.hash, password))

    async def _verify(self, hashed: str, password: str) -> bool:
        def verify(h: str, p: str) -> bool:
            try:
                return self.hasher.verify(h, p)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False
        return bool(await self._hashing(verify, hashed, password))

    async def username_of(self, player_id: str) -> str | None:
        row = await self.store.account_of(player_id)
        return None if row is None else row.username

    async def claim(self, player: PlayerRow, typed_username: str, password: str) -> str:
        """Give the guest ``player`` a username and password; return the username as shown."""
        try:
            username = clean_username(typed_username)
        except UsernameError as e:
            raise AccountError(e.code, e.message) from None
        check_password(password)
        if await self.store.account_of(player.id) is not None:
            raise AccountError("already_claimed", "this player already has a username")
        key = username_key(username)
        if await self.store.account_by_key(key) is not None:
            raise AccountError("username_taken", "this username (or one that reads the same) is taken")
        hashed = await self._hash(password)
        try:
            await self.store.create_account(AccountRow(player.id, username, key, hashed, time.time()))
        except Taken:
            raise AccountError("username_taken", "this username (or one that reads the same) is taken") from None
        return username

    def sign_in_key(self, typed_username: str) -> str:
        """The key sign-in attempts are counted under (the account's), for any typed text."""
        try:
            return username_key(clean_username(typed_username))
        except UsernameError:
            return "?" + hashlib.sha256(typed_username.encode("utf-8", "replace")).hexdigest()[:16]

    async def sign_in(self, typed_username: str, password: str) -> SignedIn:
        """A new token for the account, or ``AccountError("bad_credentials")``."""
        row = await self.store.account_by_key(self.sign_in_key(typed_username))
        if len(password) > MAX_PASSWORD:
            raise AccountError("bad_credentials", "wrong username or password")
        if row is None:
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_hex(16))
            await self._verify(self._dummy, password)  # the same time as for a real account
            raise AccountError("bad_credentials", "wrong username or password")
        if not await self._verify(row.password_hash, password):
            raise AccountError("bad_credentials", "wrong username or password")
        if self.hasher.check_needs_rehash(row.password_hash):
            await self.store.set_password(row.player_id, await self._hash(password))
        player = await self.storage.get_player(row.player_id)
        if player is None:
            raise AccountError("bad_credentials", "wrong username or password")
        return SignedIn(player, row.username, await issue_token(self.storage, player.id))

    async def new_link(self, player: PlayerRow) -> tuple[str, float]:
        """A one-time device code for ``player`` and when it expires (epoch seconds)."""
        code = new_code()
        expires = time.time() + self.link_lifetime
        await self.store.add_link(link_hash(code), player.id, expires)
        return code[:4] + "-" + code[4:], expires

    async def redeem_link(self, typed_code: str) -> SignedIn:
        code = normal_link_code(typed_code)
        if not is_code(code):
            raise AccountError("bad_link", "a device code has 8 letters and digits, like ABCD-EFGH")
        player_id = await self.store.take_link(link_hash(code), time.time())
        player = None if player_id is None else await self.storage.get_player(player_id)
        if player is None:
            raise AccountError("bad_link", "this device code is unknown, used or expired")
        return SignedIn(player, await self.username_of(player.id), await issue_token(self.storage, player.id))

    async def drop_links(self, player_id: str) -> int:
        return await self.store.drop_links(player_id)
