"""The checks on a client frame before any of it is used (``hokm.server.frames``), in process."""

from __future__ import annotations

import pytest

from hokm.server.frames import CLIENT_TYPES, Refusal, parse_frame
from hokm.server.protocol import MAX_FRAME_BYTES


@pytest.mark.parametrize(("frame", "code"), [
    ('{"type":["ping"]}', "unknown_type"),
    ('{"type":{}}', "unknown_type"),
    ('{"type":null}', "unknown_type"),
    ('{"type":1.5}', "unknown_type"),
    ("[" * 1000, "bad_message"),
    ("[" * 300 + "]" * 300, "bad_message"),
    ('{"a":' * 1000 + "1" + "}" * 1000, "bad_message"),
    ("123", "bad_message"),
    ("null", "bad_message"),
    ("", "bad_message"),
    ('{"type":"ping","id":NaN}', "bad_message"),
    ('{"type":"ping","id":-Infinity}', "bad_message"),
    ('{"type":"ping","id":' + "9" * 5000 + "}", "bad_message"),
    ('{"type":"ping","id":"\\udc00"}', "bad_message"),
    (b'{"type":"ping","id":"\xc3"}', "bad_message"),
    ('{"type":"ping"', "bad_message"),
    ('{"v":2,"type":"ping"}', "bad_version"),
    ('{"v":null,"type":"ping"}', "bad_version"),
    ('{"type":"ping","id":"' + "\u0627" * (MAX_FRAME_BYTES // 2) + '"}', "too_large"),  # bytes, not characters
])
def test_crafted_frames_are_refused_with_a_code(frame: str | bytes, code: str) -> None:
    result = parse_frame(frame)
    assert isinstance(result, Refusal) and result.code == code, result


def test_well_formed_frames_pass_as_dicts() -> None:
    for kind in sorted(CLIENT_TYPES):
        assert parse_frame('{"type":"%s","v":1}' % kind) == {"type": kind, "v": 1}
    assert parse_frame(b'{"type":"ping","id":"\xd8\xb3\xd9\x84\xd8\xa7\xd9\x85"}') == {"type": "ping", "id": "سلام"}
    nested = parse_frame('{"type":"ping","id":' + "[" * 100 + "]" * 100 + "}")  # deep, but within the bound
    assert isinstance(nested, dict) and isinstance(nested["id"], list)
