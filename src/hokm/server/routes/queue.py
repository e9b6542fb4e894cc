"""``/api/queue``: public matchmaking (join with POST, leave with DELETE, poll with GET)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from ..protocol import QueueRequest
from .common import body, endpoint, me, services


@endpoint
async def queue(request: Request) -> Any:
    p = await me(request)
    s = services(request)
    lobby = s.lobby
    if request.method in ("POST", "DELETE"):
        s.limits["queue"].check(p.id)  # polling is free; joining and leaving are paced
    if request.method == "POST":
        req = await body(request, QueueRequest)
        return await lobby.enqueue(p, req.players, req.seed)
    if request.method == "DELETE":
        await lobby.leave_queue(p.id)
    return await lobby.queue_status(p.id)


routes = [Route("/api/queue", queue, methods=["GET", "POST", "DELETE"])]
