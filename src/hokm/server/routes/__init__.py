"""The HTTP API under ``/api`` (and the operator's ``/healthz``, ``/readyz``, ``/metrics``), by resource.

Every endpoint is a module-level Starlette endpoint wrapped in :func:`.common.endpoint`, which
turns refusals into the error object; it reads what it needs from ``request.app.state``
(``services``: :class:`~hokm.server.services.Services`, ``metrics``: :class:`~hokm.server.ops.Metrics`)
through the helpers of :mod:`.common`. Each module holds one resource and lists its routes in
``routes``; :func:`api_routes` puts them together, the catch-all for unknown ``/api`` paths last.
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Route

from . import accounts, analysis, friends, meta, ops, players, profiles, queue, records, tables
from .common import unknown

#: The resource modules, in the order their routes are tried.
MODULES = (ops, meta, players, tables, queue, records, analysis, accounts, friends, profiles)


def api_routes() -> list[BaseRoute]:
    out: list[BaseRoute] = []
    for module in MODULES:
        out.extend(module.routes)
    out.append(Route("/api/{rest:path}", unknown, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]))
    return out


__all__ = ["api_routes"]
