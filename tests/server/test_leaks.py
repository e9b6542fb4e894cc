"""No message ever carries a card its recipient may not see.

Several games run at once (2, 3 and 4 players; two people each, bots in the other seats, a
spectator watching, one player dropping and reconnecting with ``last_seq``). Every message each
client receives is kept; after each game its record (the decks) tells exactly which cards each
seat held, saw in the two-player draw, or saw played, hand by hand. Then every card in every
message is checked against what that recipient could see at that moment. The two people and the
spectator are friends, and one invites the other to the room: the presence and invitation
messages they receive are checked too, and hold nothing but who is where.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

from hokm.engine import Rules, deal_layout
from hokm.records import load_record

from .harness import Player, ServerProcess, game_over, run

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
Seen = dict[int | None, set[str]]


def cards_in(value: Any) -> Iterator[str]:
    """Every card-like string anywhere in a JSON value."""
    if isinstance(value, str):
        if CARD.match(value):
            yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "rules":  # "removed_two": "2C" names a card that is out of the game
                yield from cards_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from cards_in(v)


def visible_per_hand(record: dict[str, Any]) -> tuple[list[Seen], list[dict[int, set[str]]]]:
    """Per hand: what each seat (and ``None``, a spectator) may see, and what each seat held."""
    game = load_record(record)
    n = record["players"]
    rules = Rules.from_dict(n, record["rules"])
    seen: list[Seen] = []
    held: list[dict[int, set[str]]] = []
    for h, hand in enumerate(record["hands"]):
        hakem = game.results[h].hakem if h < len(game.results) else game.hakem
        deck = hand["deck"]
        played = set(hand["plays"])
        own: dict[int, set[str]] = {}
        if n == 2:
            other = 1 - hakem
            own = {hakem: set(deck[0:5]), other: set(deck[5:10])}
            stock = deck[10:]
            for t, _ in enumerate(hand.get("draws", [])):
                seat = hakem if t % 2 == 0 else other
                own[seat] |= {stock[2 * t], stock[2 * t + 1]}
        else:
            _, full = deal_layout(rules, hakem, deck)
            own = {s: {str(c) for c in full[s]} for s in range(n)}
        seen.append({s: own[s] | played for s in range(n)} | {None: set(played)})
        held.append(own)
    return seen, held


def context(view: dict[str, Any] | None) -> int | None:
    """The hand a view describes: between hands (and at the end) it still shows the last one."""
    if view is None:
        return None
    if view["phase"] in ("deal", "over"):
        return view["hand_index"] - 1 if view["hand_index"] > 0 else None
    return view["hand_index"]


def check_player(p: Player, seat: int | None, seen: list[Seen], held: list[dict[int, set[str]]],
                 public: set[str]) -> int:
    """Check every message ``p`` received; return how many cards were checked."""
    checked = 0
    ctx: int | None = None
    for m in p.log:
        if m["type"] not in ("state", "event"):
            assert not set(cards_in(m)) - {c for c in cards_in(m.get("action", {}))}, m
            continue
        view = m["view"]
        ctx = context(view) if view is not None else ctx
        allowed = set(public)
        if ctx is not None:
            allowed |= seen[ctx][seat]
        if view is not None and ctx is not None:
            assert view["seat"] == seat
            if seat is None:
                assert view["hand"] == [] and not view.get("discards") and view.get("draw_card") is None
            else:
                assert set(view["hand"]) <= held[ctx][seat], (seat, ctx, view["hand"])
        if m["type"] == "event":
            ev = m["event"]
            assert "deck" not in ev and "server_seed" not in ev and "seed" not in ev
            if ev["kind"] == "action":
                act = ev["action"]
                if act["type"] == "discard":
                    assert ("cards" in act) == (ev["seat"] == seat), (seat, ev)
                if act["type"] == "draw":
                    assert ("choice" in act) == (ev["seat"] == seat), (seat, ev)
            cards = set(cards_in(m))
        else:
            # a fresh state: its view and last trick belong to the current hand; missed events
            # may reach back to earlier hands, each checked against what it could show then.
            cards = set(cards_in({"view": view, "last_trick": m["last_trick"], "table": m["table"]}))
            earlier = set().union(*(seen[h][seat] for h in range(0, (ctx or 0) + 1))) if ctx is not None else set()
            missed = set(cards_in(m["missed"] or []))
            assert missed <= earlier | public, (seat, missed - earlier - public)
            checked += len(missed)
        assert cards <= allowed, (seat, ctx, m["type"], sorted(cards - allowed))
        checked += len(cards)
    return checked


async def one_game(server: ServerProcess, players: int, k: int, drop: bool, social: bool = False) -> int:
    a = await Player(server, f"a{k}", seed=k).signup()
    # a and the watcher take each batch of events as one message, b one message per event: both ways checked
    b = await Player(server, f"b{k}", seed=100 + k, batch=False).signup()
    watcher = await Player(server, f"w{k}").signup()
    code: str | None = None
    if social:  # a, b and the watcher are friends: presence and invitation messages flow too
        for other in (b, watcher):
            friend_code = (await other.api("GET", "/api/account"))["friend_code"]
            await a.api("POST", "/api/friends", {"code": friend_code}, status=201)
            await other.api("POST", f"/api/friends/{a.id}/accept", {})
        for p in (a, b, watcher):
            await p.connect()
    table = await a.api("POST", "/api/tables", {"mode": "private", "players": players}, status=201)
    tid = table["table_id"]
    if social:  # b sits with the code an invitation brought
        await a.api("POST", "/api/invitations", {"friend": b.id, "table": tid}, status=201)
        invitation = (await b.expect(lambda m: m["type"] == "invitation"))["invitation"]
        code = (await b.api("POST", f"/api/invitations/{invitation['id']}/accept", {}))["invitation"]["code"]
    await b.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "seed": f"{k:04x}", "code": code or table["code"]})
    for seat in range(2, players):
        await a.api("POST", f"/api/tables/{tid}/bot", {"seat": seat, "level": "random"})
    for p in (a, b, watcher):
        if not social:
            await p.connect()
        await p.join(tid, code=table["code"] if p is watcher else None)  # watching a private room takes its code
    await a.send({"type": "chat", "phrase": "good_luck"})  # quick phrases flow through the same checks
    await b.send({"type": "chat", "emote": "smile"})
    await a.send({"type": "chat", "text": f"سلام {k}، می‌خواهم ببرم"})  # free text (a private room)
    await watcher.send({"type": "chat", "text": f"watching {k}"})  # to the spectators only
    await a.api("POST", f"/api/tables/{tid}/start", {})

    async def b_plays() -> dict[str, Any]:
        if drop:  # leave in the middle of a hand, come back with the last seq seen
            await b.play(until=lambda m: bool(m.get("view") and m["view"]["phase"] == "play"
                                              and len(m["view"]["completed"]) == 3))
            await b.ws.close()
            await asyncio.sleep(0.2)
            await b.connect()
            state = await b.join(tid, last_seq=b.seq)
            assert state["missed"] is not None
            if any(game_over({"type": "event", "event": e["event"]}) for e in state["missed"]):
                return {"type": "event", "event": next(e["event"] for e in state["missed"]
                                                        if e["event"]["kind"] == "game_over")}
        return await b.play()

    overs = await asyncio.gather(a.play(), b_plays(), watcher.play(act=False))
    record = await a.api("GET", f"/api/games/{overs[0]['event']['game_id']}/record")
    seen, held = visible_per_hand(record)
    public = set(record["hakem_draw"]["cards"])
    checked = sum(check_player(p, s, seen, held, public) for p, s in ((a, 0), (b, 1), (watcher, None)))
    assert any(m["type"] == "events" for m in a.frames) and not any(m["type"] == "events" for m in b.frames)
    chat_keys = {"kind", "channel", "seat", "player", "name", "phrase", "emote", "text"}
    for p, seat in ((a, 0), (b, 1), (watcher, None)):  # each chat event carries the whitelisted fields only
        chats = [m["event"] for m in p.log if m["type"] == "event" and m["event"]["kind"] == "chat"]
        chats += [e["event"] for m in p.log if m["type"] == "state" for e in m["missed"] or []
                  if e["event"]["kind"] == "chat"]
        assert all(set(e) == chat_keys for e in chats), chats
        said = {(e["channel"], e["seat"], e["text"]) for e in chats if e["text"] is not None}
        assert ("table", 0, f"سلام {k}، می‌خواهم ببرم") in said, said
        # The spectators' chat reaches the spectator, never a seat.
        assert (("spectators", None, f"watching {k}") in said) == (seat is None), (seat, said)
        assert {e["seat"] for e in chats if e["text"] is None} == {0, 1}, chats
        assert all(e["player"] in (a.id, b.id, watcher.id) for e in chats), chats
    if social:
        told = [m for p in (a, b, watcher) for m in p.log if m["type"] in ("friend_presence", "invitation")]
        assert any(m["type"] == "friend_presence" for m in a.log) and any(m["type"] == "invitation" for m in b.log)
        for m in told:  # only who is where: no view, no cards, no seat
            assert set(m) <= {"v", "type", "player_id", "online", "table", "invitation"}, m
    for p in (a, b, watcher):
        await p.close()
    return checked


def test_no_message_leaks_a_hidden_card(server: ServerProcess) -> None:
    async def main() -> None:
        games = [one_game(server, n, i * 3 + n, drop=(i == 0), social=True) for i in range(2) for n in (2, 3, 4)]
        checked = await asyncio.gather(*games)
        assert all(c > 100 for c in checked), checked
    run(main(), timeout=400)
    log = (server.data_dir / "server.log").read_text(errors="replace")
    assert '"hand"' not in log and "deck" not in log
