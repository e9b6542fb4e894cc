"""Accounts in process: passwords hashed with Argon2id, a bounded line of password checks, device
codes that expire."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from hokm.server.accounts import AccountError, Accounts
from hokm.server.auth import create_guest
from hokm.server.storage.social import SqlSocialStore
from hokm.server.storage.sql import SqlStorage

PASSWORD = "a long password"


async def _accounts(tmp_path: Path, **options: Any) -> tuple[SqlStorage, Accounts]:
    storage = SqlStorage(f"sqlite+aiosqlite:///{tmp_path / 'accounts.db'}")
    await storage.init()
    return storage, Accounts(storage, SqlSocialStore(lambda: storage.engine), **options)


def test_passwords_are_stored_as_argon2id_hashes_and_sign_in_with_them(tmp_path: Path) -> None:
    async def go() -> None:
        storage, accounts = await _accounts(tmp_path)
        player, _ = await create_guest(storage, "Sara")
        assert await accounts.claim(player, "sara_t", PASSWORD) == "sara_t"
        row = await accounts.store.account_of(player.id)
        assert row is not None and row.password_hash.startswith("$argon2id$") and PASSWORD not in row.password_hash
        assert (await accounts.sign_in("SARA_T", PASSWORD)).player.id == player.id
        with pytest.raises(AccountError) as wrong:
            await accounts.sign_in("sara_t", "not the password")
        assert wrong.value.code == "bad_credentials"
        await storage.close()

    asyncio.run(go())


class SlowHasher(PasswordHasher):
    """Argon2id, and a fixed wait in each check's thread: the checks overlap for certain."""

    def verify(self, hash: str, password: str) -> bool:  # type: ignore[override]
        time.sleep(0.3)
        return super().verify(hash, password)


def test_password_checks_run_at_most_hash_threads_at_once_and_a_long_line_is_refused_busy(tmp_path: Path) -> None:
    """HOKM_HASH_THREADS bounds the checks running at once; beyond eight waiting per thread, a
    sign-in is answered ``busy`` at once instead of queueing without bound."""
    async def go() -> None:
        storage, accounts = await _accounts(tmp_path, hash_threads=1, hasher=SlowHasher())
        player, _ = await create_guest(storage, "Nima")
        await accounts.claim(player, "nima_t", PASSWORD)
        started = time.monotonic()
        results = await asyncio.gather(*(accounts.sign_in("nima_t", PASSWORD) for _ in range(12)),
                                       return_exceptions=True)
        busy = [r for r in results if isinstance(r, AccountError) and r.code == "busy"]
        signed = [r for r in results if not isinstance(r, BaseException)]
        assert len(signed) == 8 and len(busy) == 4, results
        # one thread: the eight accepted checks ran one after another, not side by side
        assert time.monotonic() - started >= 8 * 0.3
        await storage.close()

    asyncio.run(go())


def test_a_device_code_expires(tmp_path: Path) -> None:
    async def go() -> None:
        storage, accounts = await _accounts(tmp_path, link_lifetime=0.3)
        player, _ = await create_guest(storage, "Omid")
        code, expires = await accounts.new_link(player)
        assert expires - time.time() <= 0.3
        await asyncio.sleep(0.5)
        with pytest.raises(AccountError) as late:
            await accounts.redeem_link(code)
        assert late.value.code == "bad_link"
        fresh, _ = await accounts.new_link(player)  # a code redeemed in time signs the device in
        assert (await accounts.redeem_link(fresh)).player.id == player.id
        await storage.close()

    asyncio.run(go())
