"""What the account and friend endpoints add to :mod:`.common`: the social layer, smaller bodies, player ids.

Refusals are :class:`~hokm.server.errors.ApiError` and the social layer's own errors
(``AccountError``, ``FriendError``), which :func:`.common.endpoint` turns into the error object.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel
from starlette.requests import Request

from ..errors import ApiError
from ..social import Social
from .common import address_of as address
from .common import body as _body
from .common import endpoint, me

M = TypeVar("M", bound=BaseModel)
MAX_BODY = 16 * 1024

def social(request: Request) -> Social:
    found: Social = request.app.state.social
    return found


async def body(request: Request, model: type[M]) -> M:
    """The request's JSON body as ``model``, at most 16 KiB."""
    return await _body(request, model, MAX_BODY)


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def player_param(request: Request) -> str:
    value = request.path_params["player_id"]
    if not (0 < len(value) <= 32 and value.isalnum()):
        raise ApiError("not_found", "no such player")
    return str(value)


__all__ = ["address", "base_url", "body", "endpoint", "me", "player_param", "social"]
