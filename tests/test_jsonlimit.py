"""JSON with a nesting bound: deep text refused before the parser recurses; strings do not count."""

from __future__ import annotations

import json
import time

import pytest

from hokm.jsonlimit import MAX_DEPTH, JsonTooDeep, depth_within, loads_bounded


@pytest.mark.parametrize(("text", "depth"), [
    ("1", 0), ("[]", 1), ('{"a": [1, {"b": []}]}', 4), ('["[[[[", "{{{"]', 1),
    ('["\\"[[[", "\\\\", [["]"]]]', 3), ('{"k\\"[": [{"x": "]]]}"}]}', 3),
])
def test_depth_ignores_brackets_in_strings(text: str, depth: int) -> None:
    assert depth_within(text.encode(), depth)
    assert depth == 0 or not depth_within(text.encode(), depth - 1)


def test_deep_text_is_refused_not_a_recursion_error() -> None:
    deep = b"[" * 990 + b"]" * 990
    with pytest.raises(JsonTooDeep):
        loads_bounded(deep, 32)
    with pytest.raises(JsonTooDeep):
        loads_bounded(b"[" * 200_000, 32)  # unbalanced too: refused on the way down
    assert loads_bounded(b"[" * 32 + b"]" * 32, 32) is not None


def test_ordinary_faults_stay_value_errors() -> None:
    with pytest.raises(json.JSONDecodeError):
        loads_bounded(b"{not json")
    assert loads_bounded('{"name": "سارا"}') == {"name": "سارا"}


@pytest.mark.parametrize("text", [
    b'"' + b'\\"' * 200_000,  # one string never closed, full of escaped quotes
    b'"\\' * 200_000,  # ... ending in a lone backslash
    b'"' * 400_000,
    b'a"' * 200_000,
    b'"[' * 200_000,
])
def test_depth_scan_takes_linear_time_however_quotes_and_backslashes_are_arranged(text: bytes) -> None:
    """A body shaped to make a backtracking scan restart at every quote (quadratic: minutes for
    these 400 KB) is scanned once; a budget generous for a linear pass, far short of a quadratic one."""
    start = time.process_time()
    depth_within(text, MAX_DEPTH)
    assert time.process_time() - start < 2.0
