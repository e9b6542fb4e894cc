"""The social layer put together: accounts, presence, friends, profiles and their rate limits.

Built once in :func:`hokm.server.app.create_app` after the services (so it uses the cluster's
storage and bus when there is one) and kept on ``app.state.social``; the WebSocket loop tells
:attr:`Social.presence` about connections, the routes in :mod:`hokm.server.routes.accounts` and
:mod:`hokm.server.routes.friends` call the rest.
"""

from __future__ import annotations

from typing import Any

from .accounts import Accounts
from .friends import Friends
from .limits import KeyedLimit
from .presence import LocalPresence, PresenceHub, PresenceStore, RedisPresence
from .profiles import Profiles
from .storage.profiles import SqlProfileStore
from .storage.social import SqlSocialStore


class Social:
    def __init__(self, services: Any) -> None:
        cfg = services.config
        self.services = services
        self.store = SqlSocialStore(lambda: services.storage.engine)
        store: PresenceStore
        if cfg.redis_url:  # several nodes: presence is shared through Redis
            store = RedisPresence(services.bus.redis, cfg.redis_prefix)
        else:
            store = LocalPresence()
        self.presence = PresenceHub(store, self.store, services.bus)
        self.accounts = Accounts(services.storage, self.store, link_lifetime=cfg.link_lifetime,
                                 hash_threads=cfg.hash_threads)
        self.friends = Friends(services.storage, self.store, services.bus, self.presence)
        self.profiles = Profiles(services.storage, self.store, SqlProfileStore(lambda: services.storage.engine))
        self.limits = {
            "signin": KeyedLimit("sign-in attempts for this account from your address", cfg.signin_rate,
                                 cfg.signin_burst),
            "account_signin": KeyedLimit("sign-in attempts for this account", cfg.account_signin_rate,
                                         cfg.account_signin_burst),
            "address_signin": KeyedLimit("sign-in attempts from your address", cfg.address_signin_rate,
                                         cfg.address_signin_burst),
            "link": KeyedLimit("device codes", cfg.friend_rate, cfg.friend_burst),
            "friend": KeyedLimit("friend look-ups and requests", cfg.friend_rate, cfg.friend_burst),
            "invite": KeyedLimit("invitations", cfg.invite_rate, cfg.invite_burst),
        }

    def start(self) -> None:
        self.presence.start()

    async def stop(self) -> None:
        await self.presence.close()
