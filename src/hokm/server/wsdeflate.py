"""permessage-deflate that sends short messages as they are (RFC 7692 lets each message choose).

Every message a connection compresses goes through that connection's own deflate context: tens of
kilobytes of window, hash chains and trees, cold in the processor's cache when a node holds
thousands of connections. For a message of a few hundred bytes (most ``events`` messages once the
view is a patch) that costs more than the bytes it saves are worth: the message fits in one
packet either way. Messages of ``min_bytes`` or more (a whole view on joining, a finished hand) are
compressed as before, through the same context, so the context keeps its history of them.

A frame sent uncompressed has its RSV1 bit clear and the peer reads it as it is; the context on
both sides simply does not see it, which RFC 7692 allows with context takeover (section 6). The
WebSocket protocol is uvicorn's websockets-sansio one with only the extension changed; its
settings (a 4 KiB window each way, ``memLevel`` 5) are uvicorn's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

#: Messages shorter than this (bytes of UTF-8) go uncompressed unless a setting says otherwise.
MIN_BYTES = 1024
_DATA = (Opcode.TEXT, Opcode.BINARY)


class DeflateLongMessages(PerMessageDeflate):
    """:class:`PerMessageDeflate` that compresses only messages of ``min_bytes`` or more."""

    def __init__(self, *args: Any, min_bytes: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.min_bytes = min_bytes

    def encode(self, frame: Frame) -> Frame:
        # A whole message in one frame, under the threshold: as it is. (The server never fragments
        # what it sends; a fragmented message would be compressed whole, as the extension does.)
        if frame.fin and frame.opcode in _DATA and len(frame.data) < self.min_bytes:
            return frame
        return super().encode(frame)


class LongMessagesFactory(ServerPerMessageDeflateFactory):
    """The server's side of the negotiation, unchanged, handing out :class:`DeflateLongMessages`."""

    def __init__(self, *, min_bytes: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.min_bytes = min_bytes

    def process_request_params(self, params: Sequence[ExtensionParameter],
                               accepted_extensions: Sequence[Extension]) -> tuple[list[ExtensionParameter],
                                                                                   PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, DeflateLongMessages(agreed.remote_no_context_takeover, agreed.local_no_context_takeover,
                                             agreed.remote_max_window_bits, agreed.local_max_window_bits,
                                             agreed.compress_settings, min_bytes=self.min_bytes)


def protocol_class(min_bytes: int) -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol with permessage-deflate for messages of ``min_bytes`` or more
    (``0``: every message, as uvicorn does by itself). For ``uvicorn.Config(ws=...)``."""

    class HokmWebSocketProtocol(WebSocketsSansIOProtocol):
        def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
            super().__init__(config, *args, **kwargs)
            if config.ws_per_message_deflate:
                self.conn = ServerProtocol(
                    extensions=[LongMessagesFactory(min_bytes=min_bytes, server_max_window_bits=12,
                                                    client_max_window_bits=12, compress_settings={"memLevel": 5})],
                    max_size=config.ws_max_size, logger=logging.getLogger("uvicorn.error"))

    return HokmWebSocketProtocol
