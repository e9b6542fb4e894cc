"""``kill -9`` in the middle of a hand, start again on the same data folder: nothing is lost."""

from __future__ import annotations

from typing import Any

from .harness import Player, ServerProcess, game_over, run


def _strip(msg: dict[str, Any]) -> dict[str, Any]:
    return {"seq": msg["seq"], "event": msg["event"]}


def _mid_hand(players: int):
    """Second hand or later, our turn, some tricks done (two players: still in the draw)."""
    def pred(m: dict[str, Any]) -> bool:
        v = m.get("view")
        if not v or v["to_move"] != 0 or v["hand_index"] < 1:
            return False
        if players == 2:
            return v["phase"] == "draw" and v["stock_size"] < 30
        return v["phase"] == "play" and len(v["completed"]) >= 2
    return pred


def test_kill9_mid_hand_and_restart(server: ServerProcess) -> None:
    async def main() -> None:
        players = {}
        tables = {}
        for n in (4, 2):
            p = await Player(server, f"solo{n}", seed=n).signup()
            t = await p.api("POST", "/api/tables", {"mode": "computer", "players": n, "bot": "random"}, status=201)
            await p.connect()
            await p.join(t["table_id"])
            await p.play(until=_mid_hand(n))
            players[n], tables[n] = p, t["table_id"]
        host = await Player(server, "host").signup()
        waiting = await host.api("POST", "/api/tables", {"mode": "private", "players": 3, "seat": 2}, status=201)
        before = {n: (p.seq, p.view, [_strip(m) for m in p.log if m["type"] == "event"]) for n, p in players.items()}

        server.kill9()
        for p in [*players.values(), host]:
            await p.close()
        server.start()

        for n, old in players.items():
            p = Player.holding(server, old.name, old.token, old.id, seed=n)
            await p.connect()
            seq, view, events = before[n]
            state = await p.join(tables[n], last_seq=0)
            # Every event the client had seen is stored, as it saw it.
            stored = {e["seq"]: {"seq": e["seq"], "event": e["event"]} for e in state["missed"]}
            assert events and all(stored[e["seq"]] == e for e in events)
            assert state["seq"] >= seq
            now = state["view"]
            for key in ("hand", "trick", "completed", "scores", "tricks", "hakem", "trump", "hand_index", "legal",
                        "stock_size", "draw_card", "discards", "draw_log"):
                assert now.get(key) == view.get(key), key
            # The deadline starts afresh after the restart.
            assert state["deadline"]["seat"] == 0 and state["deadline"]["seconds"] > 0
            over = await p.play()
            assert game_over(over)
            record = await p.api("GET", f"/api/games/{over['event']['game_id']}/record")
            assert (await p.api("POST", "/api/verify", record))["ok"]
            await p.close()
        # The room that had not started is still there, waiting for its players.
        other = await Player(server, "other").signup()
        info = await other.api("GET", f"/api/tables/{waiting['table_id']}")
        assert info["status"] == "waiting" and info["seats"][2]["player_id"] == host.id
        await other.close()
    run(main())
