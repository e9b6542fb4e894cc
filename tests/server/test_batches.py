"""A batch of table events as one ``events`` message, for clients that ask for it in ``hello``.

Two players at one table, one taking batches and one taking each event alone: the first reads, from
fewer messages, exactly the events, seats and statuses the second reads; the seats come only when
they changed; a chat message still comes alone; a reconnection carries on with batches.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .harness import Player, ServerProcess, run


def _events(p: Player) -> list[tuple[int, dict[str, Any], Any, str]]:
    return [(m["seq"], m["event"], m["seats"], m["status"]) for m in p.log if m["type"] == "event"]


def test_batches_carry_every_event_with_the_seats_only_when_they_change(server: ServerProcess) -> None:
    async def main() -> None:
        batched = await Player(server, "batched", seed=1).signup()
        each = await Player(server, "each", seed=2, batch=False).signup()
        table = await batched.api("POST", "/api/tables", {"mode": "private", "players": 4, "bot": "random",
                                                          "rules": {"target_points": 1}}, status=201)
        tid = table["table_id"]
        await each.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": table["code"]})
        for seat in (2, 3):
            await batched.api("POST", f"/api/tables/{tid}/bot", {"seat": seat, "level": "random"})
        for p in (batched, each):
            await p.connect()
            await p.join(tid)
        await batched.api("POST", f"/api/tables/{tid}/start", {})

        async def batched_plays() -> dict[str, Any]:
            # Half way through the hand it drops and comes back with its last seq.
            await batched.play(until=lambda m: bool(m.get("view") and len(m["view"]["completed"]) == 3))
            await batched.ws.close()
            await batched.connect()
            state = await batched.join(tid, last_seq=batched.seq)
            assert state["missed"] is not None
            await batched.send({"type": "chat", "phrase": "well_played"})
            return await batched.play()

        overs = await asyncio.gather(batched_plays(), each.play())
        assert all(o["event"]["kind"] == "game_over" for o in overs)
        state = [m for m in batched.frames if m["type"] == "state"][-1]

        # Everything the one-by-one player read after it joined, the batched one read too, the same
        # (or, for what happened while it was away, found in its state's ``missed``).
        since = next(m["seq"] for m in each.frames if m["type"] == "state")
        mine = {seq: rest for seq, *rest in _events(batched) if seq > since}
        theirs = {seq: rest for seq, *rest in _events(each) if seq > since}
        missed = {e["seq"]: e["event"] for e in state["missed"]}
        assert set(mine) <= set(theirs) and set(theirs) <= set(mine) | set(missed)
        assert all(mine[s] == theirs[s] if s in mine else missed[s] == theirs[s][0] for s in theirs)

        # From fewer messages: a trick's last card and the trick came together, the view once.
        events_frames = [m for m in batched.frames if m["type"] == "events"]
        assert len(events_frames) < len(mine)
        assert any([e["event"]["kind"] for e in m["events"]][:2] == ["action", "trick"] for m in events_frames)
        # The seats only when they changed since the last message that had them.
        last = None
        for m in batched.frames:
            if m["type"] == "state":
                last = m["table"]["seats"]
            elif m["type"] == "event":
                last = m["seats"]
            elif m["type"] == "events" and "seats" in m:
                assert m["seats"] != last or m is _first_after_state(batched.frames, m)
                last = m["seats"]
        assert any("seats" not in m for m in events_frames)
        # The chat message came alone, as an ``event``.
        said = [m for m in batched.frames if m["type"] == "event" and m["event"]["kind"] == "chat"]
        assert [m["event"]["phrase"] for m in said] == ["well_played"]
        assert not any(m["type"] == "events" for m in each.frames)
        for p in (batched, each):
            await p.close()

    run(main())


def _first_after_state(frames: list[dict[str, Any]], target: dict[str, Any]) -> dict[str, Any] | None:
    """The first table message after the latest ``state`` before ``target``: it may repeat the seats."""
    first = None
    for m in frames:
        if m["type"] == "state":
            first = None
        elif m["type"] in ("event", "events") and first is None:
            first = m
        if m is target:
            return first
    return None
