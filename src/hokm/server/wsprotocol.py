"""The WebSocket protocol the server runs: uvicorn's websockets-sansio one with two changes.

- **permessage-deflate for long messages only** (:mod:`.wsdeflate`), from ``min_bytes`` up.
- **A send that does not wait**, offered to the application in the ASGI scope's extensions under
  :data:`SEND_NOW`: a callable that frames a text message and hands it to the socket at once,
  returning ``True``, or returns ``False`` without sending when it cannot do so at once (the
  transport paused by a client that stopped reading, the handshake not done, a close begun, the
  connection gone). An ASGI ``websocket.send`` crosses Starlette's and uvicorn's wrappers as a
  chain of coroutines and, from a connection's forwarding task, a queue and a task switch; a table's
  action reaches four or five connections, so the WebSocket layer (:mod:`.ws`) sends a batch it can
  send at once from the publisher's own call instead, and falls back to the awaited send, in order,
  whenever this one says ``False``.

A server without the extension (another ASGI server, Starlette's test client) leaves the scope
without it, and every message takes the awaited send.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.server import ServerProtocol

from .wsdeflate import LongMessagesFactory

log = logging.getLogger("hokm.server.ws")
#: The key of the send that does not wait in ``scope["extensions"]``.
SEND_NOW = "hokm.send_text_now"


class SendNow(Protocol):
    """Send ``text`` as one text message at once (``True``), or nothing (``False``): see the module."""

    def __call__(self, text: str) -> bool: ...


def _end_parser(conn: ServerProtocol) -> None:
    """Close the generator that parses ``conn``'s incoming bytes. It holds ``conn`` and ``conn``
    holds it, and it never ends by itself (it parks at a last ``yield`` even after the end of the
    stream), so without this a closed connection's protocol and deflate contexts wait for a full
    collection."""
    parser = getattr(conn, "parser", None)
    if parser is not None:
        parser.close()


def protocol_class(min_bytes: int) -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol with permessage-deflate for messages of ``min_bytes`` or more
    (``0``: every message, as uvicorn does by itself) and :data:`SEND_NOW` in each connection's
    scope. For ``uvicorn.Config(ws=...)``."""

    class HokmWebSocketProtocol(WebSocketsSansIOProtocol):
        def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
            super().__init__(config, *args, **kwargs)
            if config.ws_per_message_deflate:
                _end_parser(self.conn)  # uvicorn's own, replaced before it read anything
                self.conn = ServerProtocol(
                    extensions=[LongMessagesFactory(min_bytes=min_bytes, server_max_window_bits=12,
                                                    client_max_window_bits=12, compress_settings={"memLevel": 5})],
                    max_size=config.ws_max_size, logger=logging.getLogger("uvicorn.error"))

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)  # none where the handshake was refused
            if scope is not None:
                scope["extensions"][SEND_NOW] = self.send_text_now

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            # Two reference cycles would keep a closed connection, its deflate contexts with it,
            # until a full collection (``hokm.heap.GcPolicy`` runs one every few hours): the scope's send
            # (a method of this protocol) and websockets' parser (see :func:`_end_parser`).
            scope = getattr(self, "scope", None)
            if scope is not None:
                scope["extensions"].pop(SEND_NOW, None)
            _end_parser(self.conn)

        def send_text_now(self, text: str) -> bool:
            # The conditions under which uvicorn's ``send`` would write a ``websocket.send`` at
            # once, without waiting and without raising.
            if (not self.writable.is_set() or self.disconnected or not self.handshake_complete
                    or self.close_sent or self.initial_response is not None or self.transport.is_closing()):
                return False
            try:
                self.conn.send_text(text.encode())
            except InvalidState:
                return False  # the client's close is in: the awaited send reports it
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True

    return HokmWebSocketProtocol
