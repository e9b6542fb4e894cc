"""The HTTP protocol the server runs: uvicorn's h11 one, with a time limit on each request's head.

uvicorn closes a keep-alive connection that stays silent after a response, but a connection that
sends nothing at all, or the first bytes of a request line and then a byte now and then, is held
open for as long as the client likes, each one a file handle of the node's (a few thousand of them
from one machine leave the node none). Here a request's line and headers must be in within
``head_timeout`` seconds of the connection opening or of the previous response's end; otherwise
the connection is closed without an answer. A WebSocket's upgrade request is a head like any other;
once it is in, the limit no longer applies.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


def protocol_class(head_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request head is not in after ``head_timeout`` s."""

    class HokmH11Protocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._await_head()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._head_timer is not None and self.conn.their_state is not h11.IDLE:
                self._head_timer.cancel()  # the head is in (a body, a response or an upgrade follows)
                self._head_timer = None

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.conn.their_state is h11.IDLE:  # a next request may come on this connection
                self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            super().connection_lost(exc)

        def _await_head(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._head_timer = self.loop.call_later(head_timeout, self._head_late)

        def _head_late(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return HokmH11Protocol
