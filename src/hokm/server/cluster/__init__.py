"""Several server nodes sharing Redis and one database (``HOKM_REDIS_URL`` set).

- :mod:`.lease`: one owner node per table through a renewed Redis lease with a fencing token;
- :mod:`.fence`: the database refuses appends from an owner whose fence was superseded;
- :mod:`.rpc`: table requests travel to the owner node over the bus;
- :mod:`.lobby`: the node's lobby: routing, takeover of a dead node's tables from the event log,
  graceful hand-over on shutdown;
- :mod:`.queues`: public matchmaking queues in Redis.

:func:`attach_cluster` swaps these into the server's services; without Redis none of it loads.
"""

from __future__ import annotations

import os
import secrets
import socket
from typing import Any

__all__ = ["attach_cluster", "node_name"]


def node_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"


def attach_cluster(services: Any) -> None:
    """Replace storage, bus and lobby of ``services`` with their cluster versions."""
    from ..bus.redis import RedisBus
    from .fence import FencedStorage
    from .lobby import ClusterLobby

    cfg = services.config
    if not cfg.redis_url:
        raise ValueError("the cluster needs redis_url (HOKM_REDIS_URL)")
    node = cfg.node_id or node_name()
    storage = FencedStorage(cfg.db_url)
    bus = RedisBus(cfg.redis_url, prefix=cfg.redis_prefix, maxsize=cfg.bus_queue)
    services.storage, services.bus = storage, bus
    # Leases get their own small pool: a renewal must never queue behind a burst of event publishes,
    # or the node loses its tables while it is merely busy.
    import redis.asyncio as aioredis

    control = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
        cfg.redis_url, max_connections=16, timeout=30))
    services.lobby = ClusterLobby(storage, bus, services.bots, cfg, node=node, redis=control)
    services.node = node
