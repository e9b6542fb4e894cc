"""What the endpoints share: the error wrapper, body parsing, the caller's account, table lookups."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from ..accounts import AccountError
from ..auth import AuthError, authenticate, bearer
from ..errors import ApiError, error_response, validation_message
from ..friends import FriendError
from ..limits import Limited
from ..seams import TableHandle
from ..seats import is_member
from ..services import Services
from ..storage import PlayerRow
from ..table import TableError

M = TypeVar("M", bound=BaseModel)
MAX_BODY = 64 * 1024


def endpoint(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    """A Starlette endpoint from ``fn``: a dict result is sent as JSON, a refusal as the error object."""

    @functools.wraps(fn)
    async def wrapper(request: Request) -> Response:
        try:
            result = await fn(request)
        except ApiError as e:
            return error_response(e.code, e.message, e.status, e.headers)
        except Limited as e:
            return error_response("rate_limited", str(e), headers={"Retry-After": str(e.retry_after)})
        except (AuthError, TableError, AccountError, FriendError) as e:
            return error_response(e.code, e.message)
        except ClientDisconnect:  # gone before its body arrived: nothing to answer, nothing to log
            return error_response("bad_request", "the connection closed before the request's body arrived")
        if isinstance(result, Response):
            return result
        return JSONResponse(result)

    return wrapper


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


def address_of(request: Request) -> str:
    return request.client.host if request.client else "?"


async def raw_body(request: Request, limit: int, code: str = "bad_request", message: str | None = None) -> bytes:
    """The request's body, at most ``limit`` bytes (declared and read); ``code`` with ``message`` otherwise."""
    message = message or f"the body must be JSON of at most {limit} bytes"
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ApiError(code, message)
    # Read as it arrives and stop past the limit: a body sent in chunks declares no length.
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(code, message)
        parts.append(chunk)
    return b"".join(parts)


async def body(request: Request, model: type[M], limit: int = MAX_BODY) -> M:
    """The request's JSON body as ``model`` (an empty body is ``{}``); ``bad_request`` otherwise."""
    raw = await raw_body(request, limit)
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as e:
        raise ApiError("bad_request", validation_message(e)) from None


async def me(request: Request) -> PlayerRow:
    """The player whose bearer token came with the request; ``unauthorized`` otherwise."""
    s = services(request)
    return await authenticate(s.storage, bearer(request.headers.get("authorization")), s.config.token_lifetime)


def limit_of(request: Request, default: int = 20) -> int:
    try:
        n = int(request.query_params.get("limit", default))
    except ValueError:
        raise ApiError("bad_request", "limit must be a whole number") from None
    return max(1, min(100, n))


def table_json(request: Request, table: TableHandle, viewer: str | None = None) -> dict[str, Any]:
    """``TableInfo``; the invite code and link only for members (``viewer`` None: the asker knows the code)."""
    info = table.info()
    if viewer is not None and not is_member(info, viewer):
        info["code"] = None
    if info["code"]:
        info["invite_url"] = str(request.base_url).rstrip("/") + "/?join=" + info["code"]
    return info


async def table_of(request: Request) -> TableHandle:
    """The table named by the path's ``table_id``; ``not_found`` otherwise."""
    table = await services(request).lobby.get(request.path_params["table_id"][:64])
    if table is None:
        raise ApiError("not_found", "no such table")
    return table


@endpoint
async def unknown(request: Request) -> Any:
    raise ApiError("not_found", f"no such endpoint: {request.method} {request.url.path}")
