"""Player profiles: the avatar, games and wins per kind of game, the rating history, recent games,
and head-to-head against each friend; and the public page of a claimed player.

Privacy: a profile is private until its player makes it public (``PUT /api/me/profile``
``{"public": true}``). The public page (by username) of a private profile gives the username,
nickname, avatar and player id only; a public one adds the stats, the per-mode table and the rating
history. Recent games and head-to-head never appear there: they name other players, and a game's
record is for its own players. A player who blocked the caller has no public page for them.

Who won a game is the engine's rule (:func:`hokm.rules.side_of`); the storage only counts.
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import get_args

from ..rules import side_of
from .errors import ApiError
from .protocol import (
    Avatar,
    HeadToHead,
    ModeStats,
    Person,
    ProfileGame,
    ProfileResponse,
    PublicProfileResponse,
    PublicStats,
    RatingPoint,
    Stats,
    Tally,
)
from .ratings import DEFAULT_MU, DEFAULT_SIGMA, ordinal
from .storage import PlayerRow, Storage
from .storage.profiles import ProfileSettings, ProfileStore
from .storage.social import SocialStore
from .usernames import UsernameError, clean_username, username_key

RECENT = 10
HISTORY = 100
MODE_ORDER = {"computer": 0, "private": 1, "public": 2}
AVATARS = frozenset(get_args(Avatar))


def stats_of(p: PlayerRow) -> Stats:
    return Stats(games=p.games, wins=p.wins, kots=p.kots, rating=round(ordinal(p.mu, p.sigma), 3),
                 rated_games=p.rated_games)


class Profiles:
    def __init__(self, storage: Storage, social: SocialStore, store: ProfileStore) -> None:
        self.storage = storage
        self.social = social
        self.store = store

    async def settings(self, player_id: str) -> ProfileSettings:
        """The stored settings; an avatar no longer on offer reads as none (the derived one)."""
        s = await self.store.settings(player_id)
        return s if s.avatar is None or s.avatar in AVATARS else ProfileSettings(None, s.public)

    async def change(self, player_id: str, avatar: str | None, public: bool | None, fields: set[str]) -> None:
        """Apply the fields sent (``fields``: the names present in the request); the rest stay."""
        now = await self.settings(player_id)
        new = ProfileSettings(avatar=avatar if "avatar" in fields else now.avatar,
                              public=bool(public) if "public" in fields and public is not None else now.public)
        await self.store.set_settings(player_id, new, time.time())

    async def _shown(self, p: PlayerRow) -> PublicStats:
        totals: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
        for c in await self.store.seat_counts(p.id):
            t = totals[(c.mode, c.players)]
            t[0] += c.count
            if side_of(c.seat, c.players) == c.winner:
                t[1] += c.count
        modes = [ModeStats(mode=m, players=n, games=g, wins=w)
                 for (m, n), (g, w) in sorted(totals.items(), key=lambda kv: (kv[0][1], MODE_ORDER.get(kv[0][0], 9)))]
        history = [RatingPoint(game_id=r.game_id, rating=round(ordinal(r.mu, r.sigma), 3), at=r.at)
                   for r in await self.store.rating_history(p.id, HISTORY)]
        return PublicStats(stats=stats_of(p), modes=modes, rating_start=round(ordinal(DEFAULT_MU, DEFAULT_SIGMA), 3),
                           rating_history=history)

    async def _people(self, ids: list[str]) -> dict[str, Person]:
        names, usernames = await self.social.nicknames(ids), await self.social.usernames(ids)
        return {pid: Person(player_id=pid, nickname=names.get(pid, "?"), username=usernames.get(pid)) for pid in ids}

    async def own(self, p: PlayerRow) -> ProfileResponse:
        """The caller's own profile, all of it."""
        settings = await self.settings(p.id)
        acc = await self.social.account_of(p.id)
        recent = []
        for g in await self.storage.recent_games(RECENT, player_id=p.id):
            seat = g.player_ids.index(p.id)
            recent.append(ProfileGame(**g.summary(), seat=seat, won=side_of(seat, g.players) == g.winner,
                                      record_url=f"/api/games/{g.id}/record", replay_url=f"/api/games/{g.id}/replay"))
        friends = await self.social.friends_of(p.id)
        pairs: dict[str, dict[str, list[int]]] = {f: {"partners": [0, 0], "opponents": [0, 0]} for f in friends}
        for c in await self.store.pair_counts(p.id, friends):
            mine = side_of(c.seat, c.players)
            t = pairs[c.other_id]["partners" if mine == side_of(c.other_seat, c.players) else "opponents"]
            t[0] += c.count
            if mine == c.winner:
                t[1] += c.count
        people = await self._people(friends)
        h2h = [HeadToHead(friend=people[f], partners=Tally(games=v["partners"][0], wins=v["partners"][1]),
                          opponents=Tally(games=v["opponents"][0], wins=v["opponents"][1]))
               for f, v in pairs.items()]
        h2h.sort(key=lambda x: (-(x.partners.games + x.opponents.games), x.friend.nickname.casefold()))
        return ProfileResponse(player_id=p.id, nickname=p.nickname, username=None if acc is None else acc.username,
                               avatar=settings.avatar, public=settings.public, shown=await self._shown(p),
                               recent=recent, head_to_head=h2h)

    async def public(self, viewer: PlayerRow, typed_username: str) -> PublicProfileResponse:
        """The public page of the player with this username, as ``viewer`` may see it."""
        try:
            key = username_key(clean_username(typed_username))
        except UsernameError:
            raise ApiError("not_found", "nobody has this username") from None
        acc = await self.social.account_by_key(key)
        if acc is None or await self.social.link(acc.player_id, viewer.id) == "blocked":
            raise ApiError("not_found", "nobody has this username")
        p = await self.storage.get_player(acc.player_id)
        if p is None:
            raise ApiError("not_found", "nobody has this username")
        settings = await self.settings(p.id)
        return PublicProfileResponse(username=acc.username, nickname=p.nickname, avatar=settings.avatar,
                                     player_id=p.id, public=settings.public,
                                     shown=await self._shown(p) if settings.public else None)
