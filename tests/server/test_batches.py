"""A batch of table events as one ``events`` message, for clients that ask for it in ``hello``.

Two players at one table, one taking batches and one taking each event alone: the first reads, from
fewer messages, exactly the events, seats and statuses the second reads; the seats come only when
they changed; a chat message still comes alone; a reconnection carries on with batches. A client
that takes view patches builds, from them, exactly the views another connection of the same seat
(or another spectator) receives whole, the batches sent from the table's own call.
"""

from __future__ import annotations

import asyncio
import json
import re
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


def _views(p: Player) -> dict[int, Any]:
    """The view each event came with, by seq (a patch already applied by the harness)."""
    return {m["seq"]: m["view"] for m in p.log if m["type"] == "event"}


def test_view_patches_give_the_same_views_as_whole_ones_through_a_drop_a_chat_and_for_spectators(
        server: ServerProcess) -> None:
    async def main() -> None:
        patched = await Player(server, "patched", seed=1).signup()
        whole = Player.holding(server, "whole", patched.token, patched.id, seed=2, patches=False)
        table = await patched.api("POST", "/api/tables", {"mode": "private", "players": 4, "bot": "random",
                                                          "rules": {"target_points": 1}}, status=201)
        tid = table["table_id"]
        for seat in (1, 2, 3):
            await patched.api("POST", f"/api/tables/{tid}/bot", {"seat": seat, "level": "random"})
        watcher = await Player(server, "watcher", seed=3).signup()
        watcher_whole = await Player(server, "watcher-whole", seed=4, patches=False).signup()
        for p in (patched, whole, watcher, watcher_whole):
            await p.connect()
            await p.join(tid, code=table["code"] if p in (watcher, watcher_whole) else None)
        await patched.api("POST", f"/api/tables/{tid}/start", {})

        async def patched_plays() -> dict[str, Any]:
            await patched.play(until=lambda m: bool(m.get("view") and len(m["view"]["completed"]) == 4))
            await patched.ws.close()
            await patched.connect()
            await patched.join(tid, last_seq=patched.seq)
            await patched.send({"type": "chat", "phrase": "well_played"})
            return await patched.play()

        def over(m: dict[str, Any]) -> bool:
            return m["type"] == "event" and m["event"]["kind"] == "game_over"

        await asyncio.gather(patched_plays(), *(p.expect(over, timeout=120) for p in (whole, watcher, watcher_whole)))
        for p, q in ((patched, whole), (watcher, watcher_whole)):
            mine, theirs = _views(p), _views(q)
            both = set(mine) & set(theirs)
            assert len(both) > 20 and all(mine[s] == theirs[s] for s in both)
            patches = [m for m in p.frames if m["type"] == "events" and "view_patch" in m]
            wholes = [m for m in q.frames if m["type"] == "events"]
            assert len(patches) > 10 and not any("view_patch" in m for m in wholes)
            # A patch is much shorter than the view it stands for.
            size = sum(len(json.dumps(m["view_patch"])) for m in patches) / len(patches)
            assert size < 0.4 * sum(len(json.dumps(m["view"])) for m in wholes) / len(wholes)
        # After the drop, patches carry on against the view the join's state brought.
        states = [i for i, m in enumerate(patched.frames) if m["type"] == "state"]
        after = [m for m in patched.frames[states[-1] + 1:] if m["type"] == "events"]
        assert after and any("view_patch" in m for m in after)
        # The batches above went out from the table's own call (hokm.server.wsprotocol), not only
        # through the connections' tasks.
        metrics = (await patched.http.get("/metrics")).text
        sent = {path: float(n) for path, n in re.findall(r'^hokm_table_batches_sent_total\{path="(\w+)"\} (\S+)$',
                                                          metrics, re.M)}
        assert sent["at_once"] > 20 and sent["at_once"] > sent["awaited"], sent
        for p in (patched, whole, watcher, watcher_whole):
            await p.close()

    run(main())
