"""``/api/health`` and ``/api/info``: what a client learns before signing in."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ... import __version__
from ...rules import RULE_KEYS
from ..levels import offered_levels
from ..protocol import MAX_FRAME_BYTES, PROTOCOL_VERSION, Timers
from .common import endpoint, services


@endpoint
async def health(request: Request) -> Any:
    return {"ok": True}


@endpoint
async def info(request: Request) -> Any:
    s = services(request)
    return {"v": PROTOCOL_VERSION, "version": __version__, "bots": [lv.model_dump() for lv in offered_levels()],
            "default_bot": s.lobby.default_bot, "hint_bot": s.lobby.hint_bot, "timers": Timers().model_dump(),
            "rule_keys": [k for k in RULE_KEYS if k != "partner_draw"], "max_frame_bytes": MAX_FRAME_BYTES,
            "server_name": s.config.server_name, "signing_key": s.signer.public_key,
            "signing_key_fingerprint": s.signer.fingerprint}


routes = [Route("/api/health", health), Route("/api/info", info)]
