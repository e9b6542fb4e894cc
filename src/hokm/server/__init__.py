"""The game server: HTTP and WebSocket API over the engine, with tables, timers, storage and fairness.

Layers, from the outside in: :mod:`.app` (Starlette routes and the WebSocket loop), :mod:`.auth`
(guest tokens), :mod:`.lobby` (rooms, invite codes, matchmaking), :mod:`.table` (one actor per
table, the single writer of its events), :mod:`.timers`, and the injected services
:mod:`.storage` (events, players, games) and :mod:`.bus` (fan-out of table events).
"""

from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def create_app(config: ServerConfig | None = None):  # noqa: ANN201 - avoids importing Starlette eagerly
    """Build the ASGI application (see :func:`hokm.server.app.create_app`)."""
    from .app import create_app as _create

    return _create(config)
