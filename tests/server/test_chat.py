"""Quick phrases and emotes: ids from the fixed lists, seated players only, rate limited, kept in the
table's log (a reconnect and a kill -9 restart replay them)."""

from __future__ import annotations

from .harness import Player, run


def chat_event(m: dict) -> bool:  # type: ignore[type-arg]
    return m["type"] == "event" and m["event"]["kind"] == "chat"


def phrase_event(player: str, phrase: str | None = None, emote: str | None = None) -> dict:  # type: ignore[type-arg]
    return {"kind": "chat", "channel": "table", "seat": 1, "player": player, "name": None, "phrase": phrase,
            "emote": emote, "text": None}


def test_quick_phrases_reach_the_table_and_survive_a_restart(make_server) -> None:  # type: ignore[no-untyped-def]
    server = make_server()

    async def main() -> tuple[Player, str, int]:
        a, w = await Player(server, "ali").signup(), await Player(server, "watcher").signup()
        table = await a.api("POST", "/api/tables", {"mode": "private", "players": 2, "seat": 1}, status=201)
        tid = table["table_id"]
        for p in (a, w):
            await p.connect()
            await p.join(tid, code=table["code"])
        await a.send({"type": "chat", "phrase": "well_played"})
        said = await w.expect(chat_event)  # the spectator sees it
        assert said["event"] == phrase_event(a.id, phrase="well_played")
        await a.send({"type": "chat", "emote": "clap"})
        shown = await a.expect(chat_event)
        shown = await a.expect(chat_event) if shown["event"]["phrase"] else shown
        assert shown["event"] == phrase_event(a.id, emote="clap")
        seq = shown["seq"]
        # Text, unknown ids, both or neither: refused with a clear error, nothing logged.
        for bad in ({"type": "chat", "phrase": "<b>hi</b>"}, {"type": "chat", "phrase": "hokm", "text": "hi"},
                    {"type": "chat", "phrase": "hokm", "emote": "wow"}, {"type": "chat"}):
            await a.send(bad)
            err = await a.expect(lambda m: m["type"] == "error")
            assert err["code"] == "bad_message" and err["ref"] == "chat", err
        await w.send({"type": "chat", "phrase": "hurry"})
        err = await w.expect(lambda m: m["type"] == "error")
        assert err["code"] == "spectator"
        # A flood is cut by the rate limit (a burst of 5, two already spent).
        codes = []
        for _ in range(6):
            await a.send({"type": "chat", "phrase": "hokm"})
        for _ in range(6):
            m = await a.expect(lambda m: m["type"] == "error" or chat_event(m))
            codes.append(m["code"] if m["type"] == "error" else "ok")
        assert codes.count("ok") == 3 and codes.count("rate_limited") == 3, codes
        for p in (a, w):
            await p.close()
        return a, tid, seq

    a, tid, seq = run(main())
    server.kill9()
    server.start()

    async def after() -> None:
        q = Player.holding(server, "ali", a.token, a.id)
        await q.connect()
        state = await q.join(tid, last_seq=0)
        chats = [e["event"] for e in state["missed"] if e["event"]["kind"] == "chat"]
        assert chats[:2] == [phrase_event(a.id, phrase="well_played"), phrase_event(a.id, emote="clap")]
        assert len(chats) == 5 and max(e["seq"] for e in state["missed"]) >= seq
        await q.close()
    run(after())
