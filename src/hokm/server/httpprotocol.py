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

A node also holds at most ``max_connections`` connections at once, HTTP and WebSocket together
(``hokm serve`` sets it below the process's open-file limit). Past it, a new connection is answered
at once with ``503`` and a few words, before reading anything of it, and closed: its file handle is
free again at once, and the connections the node holds, its database files and its workers keep
theirs. Without it, a node that ran out of file handles (20,000 on this project's machines, five
thousand four-player tables) could no longer open its database files: its log checkpoints failed,
and the new players' connections were cut without a word. A load balancer's readiness probe is
refused too, so it sends new players to other nodes meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

#: A request's body (at most 2 MiB, a record to check) gets this many times the head's time.
BODY_TIMES = 3
_FULL_WORDS = b"the server is full; try again in a moment\n"
#: The answer to a connection past the most a node holds.
FULL = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 10\r\n"
        b"Connection: close\r\nContent-Length: " + str(len(_FULL_WORDS)).encode() + b"\r\n\r\n" + _FULL_WORDS)
#: Seconds between two log lines about connections refused (a flood of them writes one a minute).
FULL_LOG_EVERY = 60.0


def protocol_class(head_timeout: float, max_connections: int | None = None) -> type[H11Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request head is not in after ``head_timeout`` s, or
    whose body is not in after ``BODY_TIMES`` times that, and answering ``503`` to one past ``max_connections``."""
    refused = [0, float("-inf")]  # connections refused since the last log line, and that line's time

    class HokmH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _waiting_for: str | None = None  # "head", "body", or None: nothing is owed by the client now

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if max_connections is not None and len(self.connections) > max_connections:
                self._refuse()
                return
            self._watch()

        def _refuse(self) -> None:
            self.transport.write(FULL)
            self.transport.close()
            refused[0] += 1
            now = time.monotonic()
            if now - refused[1] >= FULL_LOG_EVERY:
                log.warning("the node holds %d connections, its most (HOKM_MAX_CONNECTIONS): %d new ones "
                            "answered 503 since the last line like this", max_connections, refused[0])
                refused[0], refused[1] = 0, now

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
