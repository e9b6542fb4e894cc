"""The public queue's status while a group's table is being made, in process."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from hokm.server.config import ServerConfig
from hokm.server.lobby import Lobby, QueueEntry


def test_a_group_whose_table_is_being_made_is_still_queued_to_a_poll() -> None:
    """The group left its queue before its table was made, so a poll in between found its players neither queued
    nor matched: "idle", as if they had left (a full server's table, made once there is room, takes a while)."""
    async def main() -> None:
        lobby = Lobby(cast(Any, None), cast(Any, None), cast(Any, None), ServerConfig(queue_wait=0))
        release = asyncio.Event()
        made: list[list[str]] = []

        async def start_public(n: int, group: list[QueueEntry]) -> str:
            await release.wait()
            made.append([e.player_id for e in group])
            for e in group:
                lobby.matched[e.player_id] = ("t1", 0.0)
            return "t1"

        lobby._start_public = start_public  # type: ignore[method-assign]
        for pid in ("a", "b"):
            lobby.queues[2][pid] = QueueEntry(pid, pid.upper(), 0.0)
        matching = asyncio.ensure_future(lobby.match_once())
        await asyncio.sleep(0.05)
        assert made == [] and not lobby.queues[2]
        during = [lobby._status(pid) for pid in ("a", "b")]
        assert [s["status"] for s in during] == ["queued", "queued"] and during[0]["fill_in"] == 0.0, during
        release.set()
        assert await matching == ["t1"]
        assert [lobby._status(pid)["status"] for pid in ("a", "b")] == ["matched", "matched"] and not lobby.seating
    asyncio.run(main())
