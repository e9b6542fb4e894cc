"""Profile endpoints (see :mod:`hokm.server.profiles` for what each shows and to whom).

- ``GET /api/me/profile``: the caller's own profile, all of it;
- ``PUT /api/me/profile``: change the avatar others see, and whether the profile is public;
- ``GET /api/profiles/{username}``: a claimed player's public page, as the caller may see it.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ..errors import ApiError
from ..protocol import ProfileSettingsRequest
from .social_base import body, endpoint, me, social


@endpoint
async def own(request: Request) -> Any:
    p = await me(request)
    profiles = social(request).profiles
    if request.method == "PUT":
        req = await body(request, ProfileSettingsRequest)
        await profiles.change(p.id, req.avatar, req.public, req.model_fields_set)
    return (await profiles.own(p)).model_dump()


@endpoint
async def public(request: Request) -> Any:
    viewer = await me(request)
    soc = social(request)
    soc.limits["friend"].check(viewer.id)  # usernames cannot be enumerated quickly (as friend look-ups)
    name = request.path_params["username"]
    if not 0 < len(name) <= 64:
        raise ApiError("not_found", "nobody has this username")
    return (await soc.profiles.public(viewer, name)).model_dump()


routes = [
    Route("/api/me/profile", own, methods=["GET", "PUT"]),
    Route("/api/profiles/{username}", public),
]
