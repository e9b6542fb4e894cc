"""permessage-deflate that sends short messages as they are (RFC 7692 lets each message choose).

Every message a connection compresses goes through that connection's own deflate context: tens of
kilobytes of window, hash chains and trees, cold in the processor's cache when a node holds
thousands of connections. For a message of a few hundred bytes (most ``events`` messages once the
view is a patch) that costs more than the bytes it saves are worth: the message fits in one
packet either way. Messages of ``min_bytes`` or more (a whole view on joining, a finished hand) are
compressed as before, through the same context, so the context keeps its history of them.

A frame sent uncompressed has its RSV1 bit clear and the peer reads it as it is; the context on
both sides simply does not see it, which RFC 7692 allows with context takeover (section 6). The
server's protocol (:mod:`.wsprotocol`) negotiates it with uvicorn's settings (a 4 KiB window each
way, ``memLevel`` 5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
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
