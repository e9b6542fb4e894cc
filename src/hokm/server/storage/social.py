"""Storage of the social layer: accounts, device links, friend codes, friend links, invitations.

:class:`SocialStore` is the interface :mod:`hokm.server.accounts` and :mod:`hokm.server.friends`
are written against; :class:`SqlSocialStore` keeps it in the same database as the rest, through the
engine of :class:`~.sql.SqlStorage` (SQLite or PostgreSQL, portable Core only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from .engine import OnServerEngine
from .metadata import accounts, device_links, friend_codes, friend_links, game_players, games, invitations, players


class Taken(Exception):
    """A unique value (username, friend code) is already in use."""


@dataclass(frozen=True)
class AccountRow:
    player_id: str
    username: str
    username_key: str
    password_hash: str
    created_at: float


@dataclass(frozen=True)
class InvitationRow:
    id: str
    from_id: str
    to_id: str
    table_id: str
    state: str
    created_at: float


class SocialStore(Protocol):
    async def create_account(self, row: AccountRow) -> None:
        """Store a claimed account; :class:`Taken` when the username key or the player has one already."""

    async def account_by_key(self, username_key: str) -> AccountRow | None: ...
    async def account_of(self, player_id: str) -> AccountRow | None: ...
    async def set_password(self, player_id: str, password_hash: str) -> None: ...

    async def add_link(self, code_hash: str, player_id: str, expires_at: float) -> None: ...
    async def take_link(self, code_hash: str, now: float) -> str | None:
        """Delete a device link and return its player, if it existed and had not expired."""

    async def drop_links(self, player_id: str) -> int:
        """Delete every device link of a player (signing out everywhere); return how many."""

    async def friend_code(self, player_id: str) -> str | None: ...
    async def set_friend_code(self, player_id: str, code: str) -> None:
        """Store a friend code; :class:`Taken` when another player has it."""

    async def player_by_friend_code(self, code: str) -> str | None: ...

    async def link(self, player_id: str, other_id: str) -> str | None:
        """The state of the row (player_id, other_id): ``requested``, ``friends``, ``blocked`` or None."""

    async def set_link(self, player_id: str, other_id: str, state: str | None, at: float) -> None:
        """Write (or with ``None`` delete) the row (player_id, other_id)."""

    async def links_of(self, player_id: str) -> list[tuple[str, str, str, float]]:
        """Every row touching ``player_id``: ``(player_id, other_id, state, at)``."""

    async def friends_of(self, player_id: str) -> list[str]: ...

    async def recent_companions(self, player_id: str, games_back: int) -> list[tuple[str, float]]:
        """Players who shared one of the last ``games_back`` finished games, with the last time."""

    async def add_invitation(self, row: InvitationRow) -> None: ...
    async def invitation(self, invitation_id: str) -> InvitationRow | None: ...
    async def pending_invitations(self, to_id: str, limit: int) -> list[InvitationRow]: ...
    async def set_invitation_state(self, invitation_id: str, state: str) -> None: ...
    async def nicknames(self, ids: list[str]) -> dict[str, str]: ...
    async def usernames(self, ids: list[str]) -> dict[str, str]:
        """The usernames of those of ``ids`` who claimed one."""


class SqlSocialStore(OnServerEngine):
    """:class:`SocialStore` on a SQLAlchemy async engine (the server's own, shared)."""

    # accounts
    async def create_account(self, row: AccountRow) -> None:
        try:
            async with self._e.begin() as conn:
                await conn.execute(insert(accounts).values(**row.__dict__))
        except IntegrityError:
            raise Taken("username") from None

    async def _account(self, where: Any) -> AccountRow | None:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(accounts).where(where))).first()
        return None if r is None else AccountRow(**dict(r._mapping))

    async def account_by_key(self, username_key: str) -> AccountRow | None:
        return await self._account(accounts.c.username_key == username_key)

    async def account_of(self, player_id: str) -> AccountRow | None:
        return await self._account(accounts.c.player_id == player_id)

    async def set_password(self, player_id: str, password_hash: str) -> None:
        async with self._e.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.player_id == player_id)
                               .values(password_hash=password_hash))

    # device links
    async def add_link(self, code_hash: str, player_id: str, expires_at: float) -> None:
        async with self._e.begin() as conn:
            await conn.execute(insert(device_links).values(code_hash=code_hash, player_id=player_id,
                                                           expires_at=expires_at))

    async def take_link(self, code_hash: str, now: float) -> str | None:
        async with self._e.begin() as conn:
            r = (await conn.execute(select(device_links).where(device_links.c.code_hash == code_hash))).first()
            if r is None:
                return None
            # Only the transaction whose delete removed the row redeems it (two devices racing: one wins).
            gone = (await conn.execute(delete(device_links).where(device_links.c.code_hash == code_hash))).rowcount
            await conn.execute(delete(device_links).where(device_links.c.expires_at < now))
        return r.player_id if gone == 1 and r.expires_at >= now else None

    async def drop_links(self, player_id: str) -> int:
        async with self._e.begin() as conn:
            return int((await conn.execute(delete(device_links).where(device_links.c.player_id == player_id))).rowcount)

    # friend codes
    async def friend_code(self, player_id: str) -> str | None:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(friend_codes.c.code).where(friend_codes.c.player_id == player_id))).first()
        return None if r is None else str(r[0])

    async def set_friend_code(self, player_id: str, code: str) -> None:
        try:
            async with self._e.begin() as conn:
                await conn.execute(insert(friend_codes).values(player_id=player_id, code=code))
        except IntegrityError:
            raise Taken("friend code") from None

    async def player_by_friend_code(self, code: str) -> str | None:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(friend_codes.c.player_id).where(friend_codes.c.code == code))).first()
        return None if r is None else str(r[0])

    # friend links
    async def link(self, player_id: str, other_id: str) -> str | None:
        q = select(friend_links.c.state).where(and_(friend_links.c.player_id == player_id,
                                                    friend_links.c.other_id == other_id))
        async with self._e.connect() as conn:
            r = (await conn.execute(q)).first()
        return None if r is None else str(r[0])

    async def set_link(self, player_id: str, other_id: str, state: str | None, at: float) -> None:
        key = and_(friend_links.c.player_id == player_id, friend_links.c.other_id == other_id)
        async with self._e.begin() as conn:
            await conn.execute(delete(friend_links).where(key))
            if state is not None:
                await conn.execute(insert(friend_links).values(player_id=player_id, other_id=other_id, state=state,
                                                               at=at))

    async def links_of(self, player_id: str) -> list[tuple[str, str, str, float]]:
        q = select(friend_links).where(or_(friend_links.c.player_id == player_id,
                                           friend_links.c.other_id == player_id))
        async with self._e.connect() as conn:
            return [(r.player_id, r.other_id, r.state, r.at) for r in (await conn.execute(q)).all()]

    async def friends_of(self, player_id: str) -> list[str]:
        q = select(friend_links.c.other_id).where(and_(friend_links.c.player_id == player_id,
                                                       friend_links.c.state == "friends"))
        async with self._e.connect() as conn:
            return [str(r[0]) for r in (await conn.execute(q)).all()]

    async def recent_companions(self, player_id: str, games_back: int) -> list[tuple[str, float]]:
        mine = (select(game_players.c.game_id).join(games, games.c.id == game_players.c.game_id)
                .where(game_players.c.player_id == player_id).order_by(games.c.ended_at.desc())
                .limit(games_back).subquery())
        q = (select(game_players.c.player_id, games.c.ended_at).join(games, games.c.id == game_players.c.game_id)
             .where(and_(game_players.c.game_id.in_(select(mine.c.game_id)),
                         game_players.c.player_id != player_id)))
        async with self._e.connect() as conn:
            rows = (await conn.execute(q)).all()
        last: dict[str, float] = {}
        for pid, at in rows:
            last[pid] = max(at, last.get(pid, 0.0))
        return sorted(last.items(), key=lambda kv: -kv[1])

    # invitations
    async def add_invitation(self, row: InvitationRow) -> None:
        async with self._e.begin() as conn:
            await conn.execute(insert(invitations).values(**row.__dict__))

    async def invitation(self, invitation_id: str) -> InvitationRow | None:
        async with self._e.connect() as conn:
            r = (await conn.execute(select(invitations).where(invitations.c.id == invitation_id))).first()
        return None if r is None else InvitationRow(**dict(r._mapping))

    async def pending_invitations(self, to_id: str, limit: int) -> list[InvitationRow]:
        q = (select(invitations).where(and_(invitations.c.to_id == to_id, invitations.c.state == "pending"))
             .order_by(invitations.c.created_at.desc()).limit(limit))
        async with self._e.connect() as conn:
            return [InvitationRow(**dict(r._mapping)) for r in (await conn.execute(q)).all()]

    async def set_invitation_state(self, invitation_id: str, state: str) -> None:
        async with self._e.begin() as conn:
            await conn.execute(update(invitations).where(invitations.c.id == invitation_id).values(state=state))

    async def nicknames(self, ids: list[str]) -> dict[str, str]:
        if not ids:
            return {}
        async with self._e.connect() as conn:
            rows = (await conn.execute(select(players.c.id, players.c.nickname).where(players.c.id.in_(ids)))).all()
        return {str(r[0]): str(r[1]) for r in rows}

    async def usernames(self, ids: list[str]) -> dict[str, str]:
        if not ids:
            return {}
        async with self._e.connect() as conn:
            rows = (await conn.execute(select(accounts.c.player_id, accounts.c.username)
                                       .where(accounts.c.player_id.in_(ids)))).all()
        return {str(r[0]): str(r[1]) for r in rows}
