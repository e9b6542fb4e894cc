"""What every route and connection needs, built once at start-up from the config.

The app keeps one :class:`Services` in ``app.state.services``; the routes (:mod:`.routes`) and the
WebSocket loop (:mod:`.ws`) read it from there. With ``redis_url`` set the storage, bus and lobby
are swapped for their cluster versions (:func:`hokm.server.cluster.attach_cluster`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from .botpool import BotPool
from .bus import Bus, open_bus
from .config import ServerConfig
from .cpu import CpuPool
from .keys import load_signer
from .limits import KeyedLimit, OpenCount
from .lobby import Lobby
from .phrases import CHAT_BURST, CHAT_RATE, TEXT_BURST, TEXT_RATE
from .seams import LobbyProtocol
from .social import Social
from .storage import Storage, open_storage

log = logging.getLogger("hokm.server")


@dataclass
class BatchesSent:
    """Table batches the node's connections sent as one message each: from the publisher's call
    (``at_once``, :mod:`.wsprotocol`) or through a connection's forwarding task (``awaited``)."""

    at_once: int = 0
    awaited: int = 0


class Services:
    """What every route needs, built at start-up from the config."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.storage: Storage = open_storage(config.db_url)
        self.bus: Bus = open_bus(config.bus_url, config.bus_queue)
        self.bots = BotPool(config.bot_threads, config.bot_processes)
        self.lobby: LobbyProtocol = Lobby(self.storage, self.bus, self.bots, config)
        self.signer = load_signer(config)  # signs finished records (results.py); public key in /api/info
        if config.redis_url and not (config.signing_key or config.signing_key_file):
            log.warning("several nodes, but no shared signing key (HOKM_SIGNING_KEY or HOKM_SIGNING_KEY_FILE): "
                        "this node signs records with its own key %s", self.signer.fingerprint)
        self.cpu = CpuPool(config.cpu_processes)  # record verification and replays, off the event loop
        # Hand analyses (seconds each) in a pool of their own: a crowd of them must not shut record checks out.
        self.analysis_cpu = CpuPool(1, capacity=4)
        c = config
        self.limits = {
            "guest": KeyedLimit("new guests from your address", c.guest_rate, c.guest_burst),
            "table": KeyedLimit("new tables", c.table_rate, c.table_burst),
            "address_table": KeyedLimit("new tables from your address", c.address_table_rate, c.address_table_burst),
            "code": KeyedLimit("invite code lookups", c.code_rate, c.code_burst),
            "address_code": KeyedLimit("invite code lookups from your address", c.address_code_rate,
                                       c.address_code_burst),
            "verify": KeyedLimit("records checked", c.verify_rate, c.verify_burst),
            "address_verify": KeyedLimit("records checked from your address", c.verify_rate, c.verify_burst),
            # hand analyses a player may start: a burst of 6, then one every 10 seconds; from one address twice that
            "analysis": KeyedLimit("hand analyses", 0.1, 6),
            "address_analysis": KeyedLimit("hand analyses from your address", 0.2, 12),
            "chat": KeyedLimit("quick phrases and emotes", CHAT_RATE, CHAT_BURST),
            "text": KeyedLimit("chat messages", TEXT_RATE, TEXT_BURST),
            # A player opens a table (joins it, or joins it again) 30 times at once, then twice a second: each
            # join builds the table's state and may catch up on its events.
            "join": KeyedLimit("tables opened", 2.0, 30),
            # joining and leaving the public queue: 20 at once, then one a second (each one wakes the matchmaker)
            "queue": KeyedLimit("public queue joins and leaves", 1.0, 20),
            # Seeds (one a hand is what a client needs): each is an event stored and sent to the table.
            "seed": KeyedLimit("seeds", 0.5, 6),
        }
        self.open_by_address = OpenCount(c.max_connections_per_address)
        self.open_by_player = OpenCount(c.max_connections_per_player)
        self.batches_sent = BatchesSent()
        self._purge: asyncio.Task[None] | None = None
        self.node: str | None = None
        if config.redis_url:  # several nodes: leases, routing and takeover (hokm.server.cluster)
            from .cluster import attach_cluster

            attach_cluster(self)
        self.social = Social(self)  # accounts, presence, friends: on this node's storage and bus

    async def start(self) -> None:
        await self.storage.init()
        self.bots.warm([self.lobby.default_bot, self.lobby.hint_bot])
        self.cpu.warm()
        restored = await self.lobby.restore()
        if restored:
            log.info("restored %d unfinished tables", restored)
        self.lobby.start_matchmaker()
        self.social.start()
        self._purge = asyncio.ensure_future(self._purge_tokens())

    async def _purge_tokens(self) -> None:
        """Delete expired tokens now and then (they are refused anyway; this keeps the table small)."""
        while True:
            try:
                await self.storage.purge_tokens(time.time() - self.config.token_lifetime)
            except Exception:
                log.warning("purging expired tokens failed", exc_info=True)
            await asyncio.sleep(min(3600.0, max(1.0, self.config.token_lifetime / 10)))

    async def stop(self) -> None:
        if self._purge is not None:
            self._purge.cancel()
        await self.social.stop()
        await self.lobby.close()
        self.bots.close()
        self.cpu.close()
        self.analysis_cpu.close()
        await self.bus.close()
        await self.storage.close()
