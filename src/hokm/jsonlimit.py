"""JSON text from outside, parsed with a bound on its nesting depth.

Python's ``json`` recurses once per nested array or object, so a small body of a thousand ``[``
exhausts the interpreter's recursion limit and raises ``RecursionError`` instead of a parse
error. :func:`loads_bounded` measures the depth first (brackets outside strings, one linear pass
with a regular expression) and refuses deeper text with :class:`JsonTooDeep` before ``json`` sees it.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32
# A string token always matches once it starts, to its closing quote or the end of the text (an
# unclosed string, which the parser refuses later): the scan never restarts inside a string, so it
# takes time in proportion to the text, however the quotes and backslashes are arranged.
_TOKENS = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)|[\[\]{}]', re.DOTALL)


class JsonTooDeep(ValueError):
    """JSON nested deeper than allowed."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"JSON nested deeper than {limit} levels is refused")
        self.limit = limit


def depth_within(raw: bytes, limit: int) -> bool:
    """Whether the arrays and objects in ``raw`` nest at most ``limit`` deep (strings ignored)."""
    depth = 0
    for m in _TOKENS.finditer(raw):
        c = m.group()[0]
        if c == 0x5B or c == 0x7B:  # [ {
            depth += 1
            if depth > limit:
                return False
        elif c == 0x5D or c == 0x7D:  # ] }
            depth -= 1
    return True


def loads_bounded(raw: bytes | str, limit: int = MAX_DEPTH) -> Any:
    """``json.loads`` that raises :class:`JsonTooDeep` for text nested deeper than ``limit``.

    Other faults raise ``json.JSONDecodeError`` or ``UnicodeDecodeError`` (both ``ValueError``).
    """
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else bytes(raw)
    if not depth_within(data, limit):
        raise JsonTooDeep(limit)
    return json.loads(data)
