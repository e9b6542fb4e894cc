"""How a refusal leaves the server: ``{"v": 1, "error": {"code", "message"}}`` with its HTTP status.

Shared by the HTTP routes (:mod:`.routes`) and the WebSocket loop (:mod:`.ws`), which words a
message that fails its model the same way.
"""

from __future__ import annotations

from pydantic import ValidationError
from starlette.responses import JSONResponse

from .protocol import PROTOCOL_VERSION

#: HTTP status of each error code; any other code is a 400.
STATUS = {"unauthorized": 401, "forbidden": 403, "not_host": 403, "not_found": 404, "game_in_progress": 409,
          "seat_taken": 409, "already_seated": 409, "table_started": 409, "table_not_ready": 409, "in_game": 409,
          "not_seated": 409, "not_over": 409, "busy": 503, "full": 503, "rate_limited": 429, "too_many_tables": 429,
          "code_required": 403, "bad_credentials": 401, "blocked": 403, "not_friends": 403, "bad_link": 404,
          "already_claimed": 409, "username_taken": 409, "table_not_open": 409}


class ApiError(Exception):
    """A request the HTTP layer refuses; ``status`` defaults to the code's (:data:`STATUS`)."""

    def __init__(self, code: str, message: str, status: int | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status or STATUS.get(code, 400)
        self.headers = headers


def error_response(code: str, message: str, status: int | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"v": PROTOCOL_VERSION, "error": {"code": code, "message": message}},
                        status_code=status or STATUS.get(code, 400), headers=headers)


def validation_message(e: ValidationError) -> str:
    """The first problem of a body or message that fails its model, in one line."""
    first = e.errors()[0]
    where = ".".join(str(x) for x in first.get("loc", ())) or "body"
    return f"{where}: {first.get('msg', 'invalid')}"
