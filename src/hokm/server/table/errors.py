"""The one error a table raises."""

from __future__ import annotations


class TableError(Exception):
    """A request the table refuses; ``code`` is a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
