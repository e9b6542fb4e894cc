"""Response headers that confine the web table, and who may read ``/metrics``.

:class:`SecurityHeaders` is an ASGI middleware: every HTTP response (pages, static files, the API)
gets a Content-Security-Policy that allows only the table's own scripts, styles, font and
WebSocket plus the ``data:``/``blob:`` images the cards are drawn as, and refuses framing
(``frame-ancestors 'none'``, ``X-Frame-Options: DENY``), MIME sniffing and cross-site referrers.
``/metrics`` is answered only to an allowed address (``metrics_allow``: addresses or networks,
loopback by default) or to ``Authorization: Bearer <metrics_token>`` when that is set; anyone
else gets 404, as if there were nothing there.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable
from typing import Any

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self' data: blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def _networks(allow: tuple[str, ...]) -> list[Any]:
    nets = []
    for item in allow:
        try:
            nets.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            raise ValueError(f"metrics_allow: {item!r} is not an address or network") from None
    return nets


class SecurityHeaders:
    def __init__(self, app: Any, allow: tuple[str, ...] = ("127.0.0.1", "::1"), token: str | None = None) -> None:
        self.app = app
        self.allow = _networks(allow)
        self.token = token

    def metrics_allowed(self, scope: dict[str, Any]) -> bool:
        client = scope.get("client")
        if client:
            try:
                addr = ipaddress.ip_address(client[0])
            except ValueError:
                addr = None
            if addr is not None and any(addr in net for net in self.allow):
                return True
        if self.token:
            for name, value in scope.get("headers", []):
                if name == b"authorization":
                    scheme, _, given = value.decode("latin-1").partition(" ")
                    if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), self.token.encode()):
                        return True
        return False

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [h for h in HEADERS if h[0] not in names]
            await send(message)

        if scope.get("path") == "/metrics" and not self.metrics_allowed(scope):
            body = json.dumps({"v": 1, "error": {"code": "not_found", "message": "no such endpoint"}}).encode()
            await send_with_headers({"type": "http.response.start", "status": 404,
                                     "headers": [(b"content-type", b"application/json"),
                                                 (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send_with_headers)
