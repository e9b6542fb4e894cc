"""Timers and absence: a bot decides on timeout, takes the seat, gives it back; reconnecting."""

from __future__ import annotations

import asyncio

from .harness import Player, ServerProcess, game_over, run

SHORT = {"trump": 0.4, "play": 0.4, "discard": 0.4, "draw": 0.4}


def _kind(kind: str, **fields):
    def pred(m):
        return m["type"] == "event" and m["event"]["kind"] == kind and all(
            m["event"].get(k) == v for k, v in fields.items())
    return pred


def test_timeouts_then_takeover_then_reclaim(server: ServerProcess) -> None:
    async def main() -> None:
        p = await Player(server, "sleepy").signup()
        table = await p.api("POST", "/api/tables", {"mode": "computer", "players": 4, "bot": "random",
                                                   "timers": SHORT}, status=201)
        await p.connect()
        state = await p.join(table["table_id"])
        assert state["seat"] == 0
        # We never answer: the first timeout is decided by a bot for us, the second hands the seat over.
        first = await p.expect(_kind("action", seat=0, by="timeout"))
        assert first["event"]["action"]["type"] in ("trump", "play")
        await p.expect(_kind("action", seat=0, by="timeout"))
        takeover = await p.expect(_kind("seat", seat=0, reason="takeover"))
        info = takeover["event"]["info"]
        assert info["auto"] and info["reclaim_until"] > takeover["at"] + 500
        assert takeover["seats"][0]["connected"]  # present, but asleep
        await p.expect(_kind("action", seat=0, by="auto"))
        # Back: the seat is ours again and the next decision waits for us.
        await p.send({"type": "back"})
        back = await p.expect(_kind("seat", seat=0, reason="reclaim"))
        assert not back["event"]["info"]["auto"]
        # Answer our next decisions in time (retrying if a loaded machine made us miss the 0.4 s).
        for _ in range(6):
            msg = await p.expect(lambda m: m["type"] == "event" and (
                (m["deadline"] is not None and m["deadline"]["seat"] == 0)
                or (m["event"]["kind"] == "seat" and m["event"]["seat"] == 0)))
            if msg["event"]["kind"] == "seat" and msg["event"]["info"]["auto"]:
                await p.send({"type": "back"})
                continue
            if msg["deadline"] is None or msg["deadline"]["seat"] != 0:
                continue
            assert msg["deadline"]["seconds"] == 0.4
            await p.send({"type": "action", "action": p.view["legal"][0], "seq": p.seq})
            mine = await p.expect(_kind("action", seat=0))
            if mine["event"]["by"] == "player":
                break
        else:
            raise AssertionError("our own action was never accepted after taking the seat back")
        await p.close()
    run(main())


def test_disconnect_takeover_reconnect_and_lost_seat(make_server) -> None:
    server = make_server(HOKM_ABSENT_GRACE="0.5", HOKM_RECLAIM_WINDOW="6")  # room to reconnect on a busy machine

    async def main() -> None:
        host = await Player(server, "host").signup()
        guest = await Player(server, "guest").signup()
        table = await host.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        tid = table["table_id"]
        await guest.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": table["code"]})
        for p in (host, guest):
            await p.connect()
            await p.join(tid)
        await host.api("POST", f"/api/tables/{tid}/start", {})
        await guest.ws.close()  # the guest drops
        await host.expect(_kind("presence", seat=1, connected=False))
        takeover = await host.expect(_kind("seat", seat=1, reason="takeover"))
        assert takeover["event"]["info"]["auto"]
        # The guest comes back within the window with the last seq it saw: the seat returns.
        await guest.connect()
        state = await guest.join(tid, last_seq=guest.seq)
        assert state["seat"] == 1 and state["missed"] is not None
        assert [e["seq"] for e in state["missed"]] == list(range(guest.seq - len(state["missed"]) + 1,
                                                                  state["seq"] + 1)) or state["missed"] == []
        await host.expect(_kind("seat", seat=1, reason="reclaim"))
        # It drops again and stays away past the reclaim window: the seat is lost for good.
        await guest.ws.close()
        await host.expect(_kind("seat", seat=1, reason="takeover"))
        # The host does not answer meanwhile (20 s to play), so the game waits while the window runs out.
        lost = await host.expect(_kind("seat", seat=1, reason="lost"), timeout=30)
        assert lost["event"]["info"]["kind"] == "bot" and lost["event"]["info"]["player_id"] is None
        await guest.connect()
        state = await guest.join(tid)
        assert state["seat"] is None and state["view"]["hand"] == []
        err = await guest.expect(lambda m: m["type"] == "error")
        assert err["code"] == "seat_lost"
        await host.play()
        for p in (host, guest):
            await p.close()
    run(main())


def test_reconnect_mid_trick_gets_the_missed_events(server: ServerProcess) -> None:
    async def main() -> None:
        p = await Player(server, "flaky", seed=3).signup()
        table = await p.api("POST", "/api/tables", {"mode": "computer", "players": 4, "bot": "random"}, status=201)
        tid = table["table_id"]
        await p.connect()
        await p.join(tid)
        # Play until a trick is under way and it is not our turn; then drop.
        await p.play(until=lambda m: bool(m.get("view") and m["view"]["phase"] == "play"
                                          and 0 < len(m["view"]["trick"]) and m["view"]["to_move"] == 1))
        seen = p.seq
        before = [m for m in p.log if m["type"] == "event"]
        # Another tab of ours stays at the table (a table nobody is at waits), so the bots play on
        # while this connection is gone, until it is our turn again.
        tab = Player.holding(server, "flaky", p.token, p.id)
        await tab.connect()
        await tab.join(tid)
        await p.ws.close()
        await asyncio.sleep(0.5)
        await p.connect()
        state = await p.join(tid, last_seq=seen)
        missed = state["missed"]
        assert missed, "bots played while we were away"
        assert [e["seq"] for e in missed] == list(range(seen + 1, state["seq"] + 1))
        kinds = {e["event"]["kind"] for e in missed}
        assert "action" in kinds
        # The missed plays bring the trick we left to the position the fresh view shows.
        view = state["view"]
        assert view["to_move"] == 0 and view["legal"]
        played = [e["event"]["action"]["card"] for e in missed if e["event"]["kind"] == "action"]
        on_table = [t["card"] for t in view["trick"]]
        assert all(c in played for c in on_table[len(on_table) - min(len(on_table), len(played)):])
        # A spectator-free full rebuild: without last_seq, no missed list but the same view.
        other = await Player(server, "watcher").signup()
        await other.connect()
        watch = await other.join(tid)
        assert watch["missed"] is None and watch["seat"] is None and watch["view"]["hand"] == []
        assert watch["view"]["trick"] == view["trick"]
        # And the reconnected player carries on to the end.
        over = await p.play()
        assert game_over(over)
        assert before  # we had seen events before dropping
        for q in (p, other, tab):
            await q.close()
    run(main())


def test_a_table_nobody_is_at_waits_for_them_then_the_computer_plays(make_server) -> None:
    """The last person leaving a playing table stops it (no bot stands in, no clock runs) for up to
    the reclaim window; the first one back sets it going; nobody back in time, bots stand in."""
    server = make_server(HOKM_ABSENT_GRACE="0.2", HOKM_RECLAIM_WINDOW="4", HOKM_BOT_DELAY="0.05,0.1",
                         HOKM_HAND_PAUSE="0.1")

    def bot_moved(m):
        return m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] != 0

    async def main() -> None:
        p = await Player(server, "away", seed=5).signup()
        tid = await p.game_with_computers(target_points=3)
        code = (await p.api("GET", f"/api/tables/{tid}"))["code"]
        watcher = await Player(server, "watcher").signup()  # watching is not being at the table
        await watcher.connect()
        await watcher.join(tid, code=code)
        await p.play(until=bot_moved)
        hand = p.view["hand"]
        await p.ws.close()
        gone = await watcher.expect(_kind("presence", seat=0, connected=False))
        assert gone["deadline"] is None
        # Well past the grace period and many bot delays: nothing happens.
        try:
            moved = await watcher.expect(lambda m: m["type"] == "event", timeout=1.5)
        except TimeoutError:
            moved = None
        assert moved is None, f"the table went on with nobody at it: {moved['event']}"
        # Back: the same position, and the table goes on.
        await p.connect()
        state = await p.join(tid, last_seq=p.seq)
        assert {e["event"]["kind"] for e in state["missed"]} <= {"action", "trick", "hand_over", "presence"}
        assert state["view"]["trick"] == gone["view"]["trick"] and state["view"]["hand"] == hand
        assert not state["table"]["seats"][0]["auto"]
        await p.play(until=bot_moved)
        # Away again, longer than the table waits: a bot stands in and plays, and the seat can be taken back.
        await p.ws.close()
        gone = await watcher.expect(_kind("presence", seat=0, connected=False))
        takeover = await watcher.expect(_kind("seat", seat=0, reason="takeover"), timeout=20)
        assert takeover["at"] - gone["at"] >= 3.9
        await watcher.expect(_kind("action", seat=0, by="auto"), timeout=20)
        await p.connect()
        await p.join(tid)
        await watcher.expect(_kind("seat", seat=0, reason="reclaim"))
        for q in (p, watcher):
            await q.close()
    run(main())
