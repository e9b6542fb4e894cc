"""Friends: requests, acceptance, removal, blocking, the list with presence, and invitations.

The relation between two players is kept as directed rows (:mod:`.storage.social`): A asked B
(``requested``), A and B are friends (a pair of ``friends`` rows), A blocked B (``blocked``, and no
friends or request rows remain between them). A player finds another by username or by friend
code (a short code of their own, shareable as a link), or by id from a recent game.

A blocked player is not told: their requests are answered as if sent, and nothing reaches the
player who blocked them. Only friends can be invited, so a block also stops invitations (and
declines the ones still pending from that player).

An invitation names a private room that the inviter belongs to (host or seated) and that is still
waiting for players. It is stored, so it shows as pending on the invitee's home page, and it is
published on their ``player:<id>`` channel, so a connected invitee gets it at once, on any node.
Accepting it returns the room with its invite code; the invitee then sits as anyone with the code.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from .bus import Bus
from .codes import new_code, typed_code
from .limits import KeyedLimit, Limited, check_all
from .presence import OFFLINE, PresenceHub
from .protocol import PROTOCOL_VERSION, Invitation, Person, SFriendAccepted, SFriendRequest, SInvitation
from .storage import PlayerRow, Storage, TableRow
from .storage.social import InvitationRow, SocialStore, Taken
from .usernames import UsernameError, clean_username, username_key

RECENT_GAMES = 20  # recent opponents and partners: from this many of the player's last games
MAX_PENDING = 50  # invitations listed


class FriendError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def normal_friend_code(typed: str) -> str:
    return typed_code(typed)


#: A request asked again after a withdrawal is told to its player at most this often per pair (seconds) ...
TELL_PAIR_EVERY = 600.0
#: ... and a player is told of at most this many requests at once, then one each ``TELL_PLAYER_EVERY`` seconds,
#: whoever sends them. A request past either bound is stored as usual and shows in the player's list.
TELL_PLAYER_BURST, TELL_PLAYER_EVERY = 20.0, 5.0


class Friends:
    def __init__(self, storage: Storage, store: SocialStore, bus: Bus, presence: PresenceHub) -> None:
        self.storage, self.store, self.bus, self.presence = storage, store, bus, presence
        # Many accounts asking, withdrawing and asking again must not flood one player's socket.
        self._told_pair = KeyedLimit("friend request notices", 1 / TELL_PAIR_EVERY, 2.0)
        self._told_player = KeyedLimit("friend request notices", 1 / TELL_PLAYER_EVERY, TELL_PLAYER_BURST)

    def _may_tell(self, sender: str, other: str) -> bool:
        try:
            check_all((self._told_pair, f"{sender}>{other}"), (self._told_player, other))
        except Limited:
            return False
        return True

    async def _notify(self, player_id: str, message: dict[str, Any]) -> None:
        await self.bus.publish(f"player:{player_id}", message)

    async def person(self, player_id: str) -> Person:
        names = await self.store.nicknames([player_id])
        acc = await self.store.account_of(player_id)
        return Person(player_id=player_id, nickname=names.get(player_id, "?"),
                      username=None if acc is None else acc.username)

    async def friend_code(self, player_id: str) -> str:
        code = await self.store.friend_code(player_id)
        while code is None:
            fresh = new_code()
            try:
                await self.store.set_friend_code(player_id, fresh)
                code = fresh
            except Taken:  # another player has it (or this one raced itself): look again
                code = await self.store.friend_code(player_id)
        return code

    async def find(self, username: str | None, code: str | None, player_id: str | None = None) -> str:
        """The player id named by a username, a friend code or a player id."""
        if player_id:
            if await self.storage.get_player(player_id) is None:
                raise FriendError("not_found", "no such player")
            return player_id
        if code:
            found = await self.store.player_by_friend_code(normal_friend_code(code)[:16])
            if found is None:
                raise FriendError("not_found", "no player has this friend code")
            return found
        if username:
            try:
                key = username_key(clean_username(username))
            except UsernameError:
                raise FriendError("not_found", "no player has this username") from None
            acc = await self.store.account_by_key(key)
            if acc is None:
                raise FriendError("not_found", "no player has this username")
            return acc.player_id
        raise FriendError("bad_request", "give a username, a friend code or a player id")

    async def request(self, me: PlayerRow, other: str) -> str:
        """Ask ``other`` to be friends; returns the new state as ``me`` sees it (``requested``/``friends``)."""
        if other == me.id:
            raise FriendError("bad_request", "you cannot add yourself")
        mine, theirs = await self.store.link(me.id, other), await self.store.link(other, me.id)
        if mine == "blocked":
            raise FriendError("blocked", "you blocked this player; unblock them first")
        if mine == "friends":
            return "friends"
        if theirs == "blocked":
            return "requested"  # a blocked player is not told: nothing is stored or delivered
        now = time.time()
        if theirs == "requested":  # they asked first: this is a yes
            await self._befriend(me.id, other, now)
            await self._notify(other, SFriendAccepted(v=PROTOCOL_VERSION, type="friend_accepted",
                                                      friend=await self.person(me.id)).model_dump())
            return "friends"
        if mine != "requested":
            await self.store.set_link(me.id, other, "requested", now)
            if self._may_tell(me.id, other):
                await self._notify(other, SFriendRequest(v=PROTOCOL_VERSION, type="friend_request",
                                                         sender=await self.person(me.id)).model_dump())
        return "requested"

    async def _befriend(self, a: str, b: str, now: float) -> None:
        await self.store.set_link(a, b, "friends", now)
        await self.store.set_link(b, a, "friends", now)
        self.presence.forget_friends(a, b)

    async def accept(self, me: PlayerRow, other: str) -> None:
        if await self.store.link(other, me.id) != "requested":
            raise FriendError("not_found", "this player has not asked to be your friend")
        await self._befriend(me.id, other, time.time())
        await self._notify(other, SFriendAccepted(v=PROTOCOL_VERSION, type="friend_accepted",
                                                  friend=await self.person(me.id)).model_dump())

    async def decline(self, me: PlayerRow, other: str) -> None:
        if await self.store.link(other, me.id) != "requested":
            raise FriendError("not_found", "this player has not asked to be your friend")
        await self.store.set_link(other, me.id, None, time.time())

    async def remove(self, me: PlayerRow, other: str) -> None:
        """End a friendship, or withdraw a request ``me`` sent."""
        mine = await self.store.link(me.id, other)
        if mine not in ("friends", "requested"):
            raise FriendError("not_found", "this player is not your friend")
        now = time.time()
        await self.store.set_link(me.id, other, None, now)
        if mine == "friends":
            await self.store.set_link(other, me.id, None, now)
        self.presence.forget_friends(me.id, other)

    async def block(self, me: PlayerRow, other: str) -> None:
        if other == me.id:
            raise FriendError("bad_request", "you cannot block yourself")
        if await self.storage.get_player(other) is None:
            raise FriendError("not_found", "no such player")
        now = time.time()
        if await self.store.link(other, me.id) != "blocked":
            await self.store.set_link(other, me.id, None, now)
        await self.store.set_link(me.id, other, "blocked", now)
        self.presence.forget_friends(me.id, other)
        for inv in await self.store.pending_invitations(me.id, MAX_PENDING * 4):
            if inv.from_id == other:
                await self.store.set_invitation_state(inv.id, "declined")

    async def unblock(self, me: PlayerRow, other: str) -> None:
        if await self.store.link(me.id, other) != "blocked":
            raise FriendError("not_found", "this player is not blocked")
        await self.store.set_link(me.id, other, None, time.time())

    async def overview(self, me: PlayerRow) -> dict[str, Any]:
        """Friends (with presence), requests both ways, blocked players, recent companions to befriend."""
        groups: dict[str, list[str]] = {"friends": [], "incoming": [], "outgoing": [], "blocked": []}
        related: set[str] = set()
        for a, b, state, _ in await self.store.links_of(me.id):
            other = b if a == me.id else a
            related.add(other)
            if state == "friends" and a == me.id:
                groups["friends"].append(other)
            elif state == "requested":
                groups["outgoing" if a == me.id else "incoming"].append(other)
            elif state == "blocked" and a == me.id:
                groups["blocked"].append(other)
        recent = [pid for pid, _ in await self.store.recent_companions(me.id, RECENT_GAMES)
                  if pid not in related][:20]
        ids = sorted(related | set(recent))
        names = await self.store.nicknames(ids)
        usernames = await self.store.usernames(ids)  # one query for the whole list
        status = await self.presence.statuses(groups["friends"])

        def person(pid: str) -> dict[str, Any]:
            return {"player_id": pid, "nickname": names.get(pid, "?"), "username": usernames.get(pid)}

        friends = [person(pid) | {"online": status.get(pid, OFFLINE).online, "table": status.get(pid, OFFLINE).table}
                   for pid in groups["friends"]]
        friends.sort(key=lambda f: (not f["online"], f["nickname"].casefold()))
        return {"code": await self.friend_code(me.id), "friends": friends,
                "incoming": [person(p) for p in groups["incoming"]],
                "outgoing": [person(p) for p in groups["outgoing"]],
                "blocked": [person(p) for p in groups["blocked"]],
                "recent": [person(p) for p in recent]}

    # ------------------------------------------------------------------ invitations
    @staticmethod
    def _member(table: TableRow, player_id: str) -> bool:
        return table.host == player_id or any(s.get("player_id") == player_id for s in table.seats)

    async def _invitation(self, row: InvitationRow, table: TableRow, *, accepted: bool = False) -> Invitation:
        """The invitation as its people see it: the room's code only once it is accepted (a friend who
        declines, or blocks the sender, never held it)."""
        return Invitation(id=row.id, sender=await self.person(row.from_id), table_id=table.id,
                          code=table.code if accepted else None, mode=table.mode, players=table.players,
                          created_at=row.created_at)

    async def invite(self, me: PlayerRow, friend: str, table_id: str) -> Invitation:
        if await self.store.link(me.id, friend) != "friends" or await self.store.link(friend, me.id) != "friends":
            raise FriendError("not_friends", "only friends can be invited")
        table = await self.storage.get_table(table_id)
        if table is None or not self._member(table, me.id):
            raise FriendError("not_found", "no such table of yours")
        if not table.code or table.status != "waiting":
            raise FriendError("table_not_open", "invitations are for private rooms still waiting for players")
        row = InvitationRow(id=secrets.token_hex(8), from_id=me.id, to_id=friend, table_id=table.id,
                            state="pending", created_at=time.time())
        await self.store.add_invitation(row)
        inv = await self._invitation(row, table)
        await self._notify(friend, SInvitation(v=PROTOCOL_VERSION, type="invitation", invitation=inv).model_dump())
        return inv

    async def pending(self, me: PlayerRow) -> list[Invitation]:
        """Pending invitations to rooms still waiting; those whose room started or closed are dropped."""
        out: list[Invitation] = []
        for row in await self.store.pending_invitations(me.id, MAX_PENDING):
            table = await self.storage.get_table(row.table_id)
            if table is None or table.status != "waiting" or not table.code:
                await self.store.set_invitation_state(row.id, "expired")
                continue
            if await self.store.link(me.id, row.from_id) == "blocked":
                continue
            out.append(await self._invitation(row, table))
        return out

    async def answer(self, me: PlayerRow, invitation_id: str, accept: bool) -> Invitation | None:
        row = await self.store.invitation(invitation_id)
        if row is None or row.to_id != me.id or row.state != "pending":
            raise FriendError("not_found", "no such pending invitation")
        if not accept:
            await self.store.set_invitation_state(row.id, "declined")
            return None
        table = await self.storage.get_table(row.table_id)
        if table is None or table.status != "waiting" or not table.code:
            await self.store.set_invitation_state(row.id, "expired")
            raise FriendError("table_not_open", "this room has started or closed")
        await self.store.set_invitation_state(row.id, "accepted")
        return await self._invitation(row, table, accepted=True)
