"""The HTTP protocol the server runs: uvicorn's h11 one, with a time limit on each request's head.

uvicorn closes a keep-alive connection that stays silent after a response, but a connection that
sends nothing at all, or the first bytes of a request line and then a byte now and then, is held
open for as long as the client likes, each one a file handle of the node's (a few thousand of them
from one machine leave the node none). Here a request's line and headers must be in within
``head_timeout`` seconds of the connection opening or of the previous request's end, and its body
within three times that of the head; otherwise the connection is closed. A WebSocket's upgrade
request is a head like any other; once it is in, the limit no longer applies. (h11 still waits for
the upgrade request's body when uvicorn hands the connection over, so the hand-over itself ends
the deadline, and a deadline never closes a connection that another protocol has taken.)
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: A request's body (at most 2 MiB, a record to check) gets this many times the head's time.
BODY_TIMES = 3


def protocol_class(head_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request head is not in after ``head_timeout`` s, or
    whose body is not in after ``BODY_TIMES`` times that."""

    class HokmH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _waiting_for: str | None = None  # "head", "body", or None: nothing is owed by the client now

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._watch()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()  # also after a cycle uvicorn began itself (a reply sent before the body was read)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._set(None)
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._set(None)  # the connection is the WebSocket's from here: no body is owed
            super().handle_websocket_upgrade(event)

        def _watch(self) -> None:
            state = self.conn.their_state
            # Done, or an upgrade to a WebSocket: nothing more is owed on this cycle.
            self._set("head" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None)

        def _set(self, waiting_for: str | None) -> None:
            if waiting_for == self._waiting_for:
                return  # a deadline already runs for it: more bytes of the same head or body do not move it
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._waiting_for = waiting_for
            if waiting_for is not None:
                delay = head_timeout if waiting_for == "head" else head_timeout * BODY_TIMES
                self._timer = self.loop.call_later(delay, self._late)

        def _late(self) -> None:
            self._timer = None
            if (self._waiting_for is not None and not self.transport.is_closing()
                    and self.transport.get_protocol() is self):
                self.transport.close()

    return HokmH11Protocol
