"""Free text chat at private tables, against a real server process.

Who sees what: a seated player's text reaches every seat and every spectator; a spectator's reaches
the spectators only; a player who blocked another receives none of that player's text (live or in a
resync). The text is cleaned (bidi controls and invisible characters out, the ZWNJ kept), length
and rate limited, refused at public and computer tables, kept in the table's log across a
``kill -9`` and restart, and a chat frame too large is refused without losing the connection.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from hokm.server.chattext import MAX_CHARS, TextRefused, clean_text

from .harness import Player, ServerProcess, run

Msg = dict[str, Any]


def text_event(m: Msg) -> bool:
    return m["type"] == "event" and m["event"]["kind"] == "chat" and m["event"]["text"] is not None


def texts(p: Player) -> list[tuple[str, int | None, str]]:
    return [(m["event"]["channel"], m["event"]["seat"], m["event"]["text"]) for m in p.log if text_event(m)]


def error(code: str) -> Any:
    return lambda m: m["type"] == "error" and m["code"] == code


# ----------------------------------------------------------------------------- the cleaning, as a unit
@pytest.mark.parametrize(("raw", "kept"), [
    ("می\u200cخواهم", "می\u200cخواهم"),  # the ZWNJ is Persian spelling
    ("\u202eevil\u202c \u2066x\u2069", "evil x"),  # bidi overrides and isolates go
    ("a\u200b\u2060\ufeffb\u00ad", "ab"),  # zero-width and invisible characters go
    ("  hi \n\t there  ", "hi there"),  # line breaks and runs of spaces become one space
    ("a\u200c\u200c\u200cb\u200c", "a\u200cb"),  # a run of joiners is one; none at the end
    ("\U0001F468\u200d\U0001F469", "\U0001F468\u200d\U0001F469"),  # emoji sequences keep the ZWJ
    ("e\u0301", "\u00e9"),  # NFC
    ("a" + "\u0301" * 40, "\u00e1" + "\u0301" * 4),  # a stack of marks is cut
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),  # text, shown as text
])
def test_clean_text_keeps_what_reads(raw: str, kept: str) -> None:
    assert clean_text(raw) == kept


@pytest.mark.parametrize(("raw", "code"), [
    ("", "empty_text"), ("\u200b\u202e\u200c", "empty_text"), ("\u2800\u3164 \u115f", "empty_text"),
    ("\u0301\u0301", "empty_text"), ("x" * (MAX_CHARS + 1), "text_too_long"),
])
def test_clean_text_refuses_what_shows_nothing_or_too_much(raw: str, code: str) -> None:
    with pytest.raises(TextRefused) as e:
        clean_text(raw)
    assert e.value.code == code
    assert len(clean_text("\u200b" * 50 + "x" * MAX_CHARS)) == MAX_CHARS  # counted after cleaning


# ----------------------------------------------------------------------------- the server
async def private_room(server: ServerProcess) -> tuple[str, Player, Player, Player, Player]:
    """A 2-player private room: ``a`` (seat 1, host) and ``b`` (seat 0) seated, ``s1`` and ``s2`` watching."""
    a, b = await Player(server, "ali").signup(), await Player(server, "bita").signup()
    s1, s2 = await Player(server, "sara").signup(), await Player(server, "dara").signup()
    table = await a.api("POST", "/api/tables", {"mode": "private", "players": 2, "seat": 1}, status=201)
    tid = table["table_id"]
    await b.api("POST", f"/api/tables/{tid}/sit", {"seat": 0, "code": table["code"]})
    for p in (a, b):
        await p.connect()
        await p.join(tid)
    for p in (s1, s2):  # watchers of a private room have its code
        await p.connect()
        await p.join(tid, code=table["code"])
    return tid, a, b, s1, s2


def test_free_text_who_sees_what_and_limits(make_server) -> None:  # type: ignore[no-untyped-def]
    server = make_server()

    async def main() -> tuple[str, Player, Player]:
        tid, a, b, s1, s2 = await private_room(server)
        # A seated player's text reaches the other seat and the spectators, cleaned, never HTML.
        await a.send({"type": "chat", "text": "سلام\u202e، می\u200cخواهم <img src=x onerror=alert(1)>\u200b"})
        said = "سلام، می\u200cخواهم <img src=x onerror=alert(1)>"
        for p in (b, s1, s2, a):
            m = await p.expect(text_event)
            assert m["event"] == {"kind": "chat", "channel": "table", "seat": 1, "player": a.id, "name": "ali",
                                  "phrase": None, "emote": None, "text": said}, m
        # A spectator's text reaches the spectators only; spectators still see the players' phrases.
        await s1.send({"type": "chat", "text": "just watching"})
        for p in (s1, s2):
            m = await p.expect(text_event)
            assert m["event"]["channel"] == "spectators" and m["event"]["seat"] is None
            assert m["event"]["name"] == "sara" and m["event"]["player"] == s1.id
        await b.send({"type": "chat", "phrase": "thanks"})
        for p in (a, b, s1, s2):  # the players get b's phrase, with nothing of the spectators' chat before it
            await p.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "chat"
                           and m["event"]["phrase"] == "thanks")
        assert ("spectators", None, "just watching") not in texts(a) + texts(b)
        await s1.send({"type": "chat", "phrase": "hurry"})  # phrases stay the seated players'
        await s1.expect(error("spectator"))

        # Bad text: a clear error, the connection goes on, nothing logged.
        for bad, code in (({"type": "chat", "text": "\u200b\u202e"}, "empty_text"),
                          ({"type": "chat", "text": "x" * (MAX_CHARS + 1)}, "text_too_long"),
                          ({"type": "chat", "text": "x" * 2001}, "bad_message"),
                          ({"type": "chat", "text": 42}, "bad_message")):
            await b.send(bad)
            err = await b.expect(lambda m: m["type"] == "error")
            assert err["code"] == code and err["ref"] == "chat", (bad, err)
        # A chat frame over the frame limit: too_large, and the connection carries on.
        await b.ws.send(json.dumps({"type": "chat", "text": "ب" * 20_000}, ensure_ascii=False))  # 40 KB
        await b.expect(error("too_large"))
        await b.send({"type": "ping", "id": "after"})
        await b.expect(lambda m: m["type"] == "pong" and m["id"] == "after")

        # a blocks b: a receives none of b's chat from then on, text, phrases or emotes; the others still do.
        await a.api("POST", f"/api/blocks/{b.id}", {})
        await b.send({"type": "chat", "text": "you will not read this"})
        await b.send({"type": "chat", "emote": "wow"})
        for p in (s1, s2, b):
            await p.expect(lambda m: text_event(m) and m["event"]["text"] == "you will not read this")
            await p.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "chat"
                           and m["event"]["emote"] == "wow" and m["event"]["player"] == b.id)
        await a.send({"type": "chat", "emote": "wow"})  # logged after b's: once a hears its own, b's went by
        await a.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "chat" and m["event"]["player"] == a.id
                       and m["event"]["emote"] == "wow")
        assert all(t != "you will not read this" for _, _, t in texts(a))
        assert not [m for m in a.log if m["type"] == "event" and m["event"]["kind"] == "chat"
                    and m["event"]["player"] == b.id and m["event"]["emote"] == "wow"]

        # A flood of text is cut by its own limit (a burst of 5): s2 sent none yet.
        for i in range(8):
            await s2.send({"type": "chat", "text": f"flood {i}"})
        codes = []
        for _ in range(8):
            m = await s2.expect(lambda m: m["type"] == "error" or text_event(m) and m["event"]["player"] == s2.id)
            codes.append(m["code"] if m["type"] == "error" else "ok")
        assert codes.count("ok") == 5 and codes.count("rate_limited") == 3, codes
        for p in (b, s1, s2):
            await p.close()
        await a.close()
        return tid, a, b

    tid, a, b = run(main())
    server.kill9()
    server.start()

    async def after() -> None:
        # The log survived: the resync brings the table's text back, still without what a blocked.
        q = Player.holding(server, "ali", a.token, a.id)
        await q.connect()
        state = await q.join(tid, last_seq=0)
        said = [e["event"] for e in state["missed"] if e["event"]["kind"] == "chat" and e["event"]["text"]]
        assert [e["text"] for e in said] == ["سلام، می\u200cخواهم <img src=x onerror=alert(1)>"], said
        assert all(e["channel"] == "table" for e in said)
        # Unblocked: b's text is back, in the history too.
        await q.api("DELETE", f"/api/blocks/{b.id}")
        state = await q.join(tid, last_seq=0)
        said = [e["event"]["text"] for e in state["missed"] if e["event"]["kind"] == "chat" and e["event"]["text"]]
        assert "you will not read this" in said and not any(t.startswith("flood") for t in said), said
        # A 10 MB frame is over the transport's limit: that connection is closed (1009, the
        # server never reads it into memory); the player connects again and goes on.
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await q.ws.send(json.dumps({"type": "chat", "text": "x" * (10 * 1024 * 1024)}))
            await q.expect(lambda m: False, timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        await q.connect()
        await q.join(tid)
        await q.send({"type": "chat", "text": "back again"})
        await q.expect(lambda m: text_event(m) and m["event"]["text"] == "back again")
        await q.close()
    run(after())
    assert "Traceback" not in server.log()


def test_free_text_at_public_tables_reaches_only_the_senders_friends(make_server) -> None:  # type: ignore[no-untyped-def]
    """Away from a private room, a seated player's words go to their friends at the table alone:
    a stranger seated beside them or watching never receives them, live or in a resync; once the
    two are friends, the next words arrive. A spectator there has only the quick phrases."""
    server = make_server(HOKM_QUEUE_WAIT="5")

    def said(text: str):  # type: ignore[no-untyped-def]
        return lambda m: text_event(m) and m["event"]["text"] == text

    async def main() -> None:
        a, b, w = [await Player(server, n).signup() for n in ("ali", "bita", "watcher")]
        for p in (a, b):  # two people matched at one public table
            await p.api("POST", "/api/queue", {"players": 2})
        for _ in range(100):
            status = await a.api("GET", "/api/queue")
            if status.get("table"):
                break
            await asyncio.sleep(0.1)
        tid = status["table"]
        for p in (a, b, w):
            await p.connect()
            await p.join(tid)
        await a.send({"type": "chat", "text": "not for strangers"})
        mine = await a.expect(said("not for strangers"))  # the sender sees it, on the friends' channel
        assert mine["event"]["channel"] == "friends" and mine["event"]["seat"] == a.view["seat"]
        await w.send({"type": "chat", "text": "from the stands"})
        err = await w.expect(lambda m: m["type"] == "error")
        assert err["code"] == "chat_closed" and err["ref"] == "chat", err
        # friends now: a's next words reach b, still not the watcher
        code = (await b.api("GET", "/api/account"))["friend_code"]
        await a.api("POST", "/api/friends", {"code": code}, status=201)
        await b.api("POST", f"/api/friends/{a.id}/accept", {})
        await a.send({"type": "chat", "text": "سلام دوست"})
        await b.expect(said("سلام دوست"))
        await a.send({"type": "chat", "phrase": "good_luck"})  # phrases reach everyone, the watcher too
        await w.expect(lambda m: m["type"] == "event" and m["event"]["kind"] == "chat" and m["event"]["phrase"])
        assert not any(text_event(m) for m in w.log)
        assert [m["event"]["text"] for m in b.log if text_event(m)] == ["سلام دوست"]
        # the resync holds the same line: b now sees both (friends), the watcher neither
        state = await b.join(tid, last_seq=0)
        assert [e["event"]["text"] for e in state["missed"] if e["event"]["kind"] == "chat" and e["event"]["text"]] \
            == ["not for strangers", "سلام دوست"]
        state = await w.join(tid, last_seq=0)
        assert not [e for e in state["missed"] if e["event"]["kind"] == "chat" and e["event"]["text"]]
        # a game against the computer: words to friends, and there are none at the table
        comp = await w.api("POST", "/api/tables", {"mode": "computer", "players": 2}, status=201)
        await w.join(comp["table_id"])
        await w.send({"type": "chat", "text": "hello"})
        assert (await w.expect(said("hello")))["event"]["channel"] == "friends"
        for p in (a, b, w):
            await p.close()
    run(main())
