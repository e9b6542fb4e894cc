"""The game server: HTTP and WebSocket API over the engine, with tables, timers, storage and fairness.

Layers, from the outside in: :mod:`.app` (assembles the app), :mod:`.routes` (the HTTP endpoints
by resource) and :mod:`.ws` (the WebSocket loop), written against the Protocols of :mod:`.seams`;
:mod:`.auth` (guest tokens), :mod:`.lobby` (rooms, invite codes, matchmaking; :mod:`.cluster` for
several nodes), :mod:`.table` (one actor per table, the single writer of its events),
:mod:`.timers`, and the injected services (:mod:`.services`): :mod:`.storage` (events, players,
games) and :mod:`.bus` (fan-out of table events).
"""

from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def create_app(config: ServerConfig | None = None):
    """Build the ASGI application (see :func:`hokm.server.app.create_app`)."""
    from .app import create_app as _create

    return _create(config)
