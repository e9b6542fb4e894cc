"""What a client's WebSocket frame must be before any of it is used: the checks ahead of the protocol models.

A frame is refused, with the protocol error code to answer, when it is larger than
:data:`~.protocol.MAX_FRAME_BYTES`, not UTF-8, not JSON (strict: no ``NaN`` or ``Infinity``, no lone
surrogate escapes), nested deeper than the parser's limit (about 200 levels; a valid message nests
at most 4), not an object, without a known ``type`` string, or of another protocol version. The
JSON parser is pydantic-core's, which bounds nesting itself and reports it as invalid JSON, so no
frame can exhaust the interpreter's stack. What passes is a ``dict`` whose ``type`` is one of
:data:`CLIENT_TYPES`; the pydantic models then check every field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json

from .protocol import MAX_FRAME_BYTES, PROTOCOL_VERSION

CLIENT_TYPES = frozenset({"hello", "join", "action", "hint", "seed", "back", "chat", "ping"})


@dataclass(frozen=True)
class Refusal:
    """A frame refused: the ``error`` message to answer with (``ref``: the message type, when known)."""

    code: str
    message: str
    ref: str | None = None


NOT_JSON = Refusal("bad_message", "a message must be a JSON object in UTF-8 text")
UNKNOWN_TYPE = Refusal("unknown_type", f"unknown message type (expected one of {', '.join(sorted(CLIENT_TYPES))})")
TOO_LARGE = Refusal("too_large", f"messages are limited to {MAX_FRAME_BYTES} bytes")


def parse_frame(raw: str | bytes) -> dict[str, Any] | Refusal:
    """The frame as a message ``dict`` with a known ``type``, or the :class:`Refusal` to answer."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) > MAX_FRAME_BYTES:
        return TOO_LARGE
    try:
        message = from_json(data, allow_inf_nan=False)
    except ValueError:  # invalid JSON or UTF-8, too deep, a number out of range
        return NOT_JSON
    if not isinstance(message, dict):
        return NOT_JSON
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_TYPES:
        return UNKNOWN_TYPE
    if message.get("v", PROTOCOL_VERSION) != PROTOCOL_VERSION:
        return Refusal("bad_version", f"this server speaks protocol version {PROTOCOL_VERSION}", kind)
    return message
