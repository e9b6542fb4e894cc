"""Event batches encoded once per recipient: each recipient's text is exactly the message built from
the redaction whitelist and its own view (the public part of the views encoded once and joined to
each recipient's own fields), and nothing of another seat's reaches it."""

from __future__ import annotations

import json
import random

from hokm.engine import Game, Phase, Rules
from hokm.engine.view import make_view
from hokm.server.protocol import PROTOCOL_VERSION
from hokm.server.redact import public_event, same_for_everyone, visible_to
from hokm.server.storage import EventRow
from hokm.server.wire import Views, dumps, event_frames, make_views, seats_text, view_patches, view_texts, with_seats

SEATS = [{"seat": 0, "kind": "human", "name": "سارا"}, {"seat": 1, "kind": "bot", "name": None}]
SEATS_TEXT = seats_text(SEATS)


def _expected(rows: list[EventRow], r: int | None, view: dict | None, deadline: dict | None) -> list[dict]:
    return [{"v": PROTOCOL_VERSION, "type": "event", "seq": e.seq, "at": e.at,
             "event": public_event(e.kind, e.payload, r), "view": view, "seats": SEATS, "status": "playing",
             "deadline": deadline} for e in rows if visible_to(e.kind, e.payload, r)]


def _batched(rows: list[EventRow], r: int | None, view: dict | None, deadline: dict | None) -> dict:
    each = _expected(rows, r, view, deadline)
    return {"v": PROTOCOL_VERSION, "type": "events", "seq": each[-1]["seq"],
            "events": [{"seq": m["seq"], "at": m["at"], "event": m["event"]} for m in each], "view": view,
            "status": "playing", "deadline": deadline, "seats": SEATS}


def test_two_player_discards_and_draws_reach_only_their_actor_and_every_text_is_the_whitelisted_message() -> None:
    rng = random.Random(7)
    g = Game.new(Rules(players=2), seed=11)
    seq = 0
    checked = {"discard": 0, "draw": 0, "play": 0}
    while not g.is_over and sum(checked.values()) < 60:
        if g.phase is Phase.DEAL:
            g.deal()
            continue
        seat = g.to_move
        assert seat is not None
        action = rng.choice(g.legal_actions())
        g.apply(action, seat)
        seq += 1
        rows = [EventRow("t", seq, "action", {"seat": seat, "action": action.to_json(), "by": "player"}, 1.5),
                EventRow("t", seq + 1, "chat", {"channel": "spectators", "seat": None, "player": "p9", "name": "x",
                                                "phrase": None, "emote": None, "text": "سلام"}, 1.5)]
        seq += 1
        recipients: list[int | None] = [0, 1, None]
        views = [make_view(g, r).to_json() for r in recipients]
        deadline = {"seat": g.to_move, "at": 9.0}
        copies = event_frames(rows, recipients, view_texts(g, recipients), SEATS_TEXT, "playing", deadline)
        frames = [[[s, who, head + c["tail"], f] for s, who, head, f in c["frames"]] for c in copies]
        for r, view, c, copy in zip(recipients, views, copies, frames):
            assert [json.loads(text) for _, _, text, _ in copy] == _expected(rows, r, view, deadline)
            assert [s for s, _, _, _ in copy] == [e.seq for e in rows if visible_to(e.kind, e.payload, r)]
            # The spectators' chat names its sender for the connection's block check; a game event does not.
            assert [sender for _, sender, _, _ in copy] == ([None, "p9"] if r is None else [None])
            # A batch with a chat message that names its sender goes one by one; a seat sees none here.
            if r is None:
                assert c["batch"] is None
            else:
                assert c["batch"] is not None
                assert json.loads(with_seats(c["batch"], SEATS_TEXT)) == _batched(rows, r, view, deadline)
        kind = action.to_json()["type"]
        checked[kind] = checked.get(kind, 0) + 1
        if kind in ("discard", "draw"):
            assert not same_for_everyone("action", rows[0].payload)
            own, other = (json.loads(frames[s][0][2])["event"]["action"] for s in (seat, 1 - seat))
            assert own != other and ("cards" in own or "choice" in own)
            assert "cards" not in other and "choice" not in other
    assert checked["discard"] and checked["draw"] and checked["play"]


def test_chat_frames_carry_their_sender_and_the_spectators_channel_never_reaches_a_seat() -> None:
    chat = {"channel": "table", "seat": 0, "player": "p1", "name": "Sara", "phrase": None, "emote": None,
            "text": "<img src=x>"}
    rows = [EventRow("t", 5, "chat", chat, 2.0),
            EventRow("t", 6, "chat", chat | {"channel": "spectators", "seat": None, "player": "p7"}, 2.0),
            EventRow("t", 7, "chat", chat | {"text": None, "phrase": "well_played", "player": "p1"}, 2.0),
            EventRow("t", 8, "chat", chat | {"channel": "friends", "text": "for friends"}, 2.0)]
    copies = event_frames(rows, [0, 1, None], None, SEATS_TEXT, "waiting", None)
    assert all(c["batch"] is None for c in copies)  # each chat message checked by the connection on its own
    frames = [[[s, who, head + c["tail"], f] for s, who, head, f in c["frames"]] for c in copies]
    assert [(s, who, f) for s, who, _, f in frames[0]] == [(5, "p1", False), (7, "p1", False), (8, "p1", True)]
    assert [(s, who) for s, who, _, _ in frames[2]] == [(5, "p1"), (6, "p7"), (7, "p1"), (8, "p1")]
    assert json.loads(frames[1][0][2])["event"]["text"] == "<img src=x>"
    assert json.loads(frames[1][0][2])["view"] is None


def test_a_batch_of_game_events_is_one_events_message_with_every_event_of_each_recipient() -> None:
    g = Game.new(Rules(players=4), seed=5)
    if g.phase is Phase.DEAL:
        g.deal()
    rng = random.Random(5)
    rows: list[EventRow] = []
    while g.phase is not Phase.PLAY or g.trick or not g.completed:  # up to the end of the first trick
        seat = g.to_move
        assert seat is not None
        action = rng.choice(g.legal_actions())
        g.apply(action, seat)
        rows.append(EventRow("t", len(rows) + 1, "action", {"seat": seat, "action": action.to_json(), "by": "bot"}, 3.0))
    t = g.completed[-1]
    rows.append(EventRow("t", len(rows) + 1, "trick", {"hand": 0, "leader": t.leader, "cards": [str(c) for c in t.cards],
                                                       "winner": t.winner}, 3.5))
    recipients: list[int | None] = [0, 1, 2, 3, None]
    copies = event_frames(rows, recipients, view_texts(g, recipients), SEATS_TEXT, "playing", None)
    for r, c in zip(recipients, copies):
        assert c["batch"] is not None
        message = json.loads(c["batch"])
        assert "seats" not in message  # the connection adds them when they changed
        assert message == {k: v for k, v in _batched(rows, r, make_view(g, r).to_json(), None).items() if k != "seats"}
        assert [m["event"] for m in message["events"]] == [json.loads(h + c["tail"])["event"] for _, _, h, _ in c["frames"]]


def test_view_texts_are_each_recipients_view_for_every_player_count() -> None:
    for players in (2, 3, 4):
        rng = random.Random(players)
        g = Game.new(Rules(players=players), seed=players)
        recipients: list[int | None] = [*range(players), None]
        steps = 0
        while not g.is_over and steps < 200:
            if g.phase is Phase.DEAL:
                g.deal()
                continue
            texts = view_texts(g, recipients)
            assert [json.loads(t) for t in texts] == \
                [make_view(g, r).to_json() for r in recipients]
            seat = g.to_move
            assert seat is not None
            g.apply(rng.choice(g.legal_actions()), seat)
            steps += 1


def test_each_view_patch_turns_the_recipients_last_view_into_its_next_for_every_player_count() -> None:
    patched = 0
    for players in (2, 3, 4):
        rng = random.Random(10 + players)
        g = Game.new(Rules(players=players), seed=10 + players)
        recipients: list[int | None] = [*range(players), None]
        before: Views | None = None
        last = {r: None for r in recipients}
        while not g.is_over:
            if g.phase is Phase.DEAL:
                g.deal()
            else:
                seat = g.to_move
                assert seat is not None
                g.apply(rng.choice(g.legal_actions()), seat)
            now = make_views(g, recipients)
            for r, patch, text in zip(recipients, view_patches(before, now), now.texts):
                whole = make_view(g, r).to_json()
                assert json.loads(text) == whole
                if before is None:
                    assert patch is None  # nothing to patch: the whole view goes
                else:
                    assert patch is not None
                    changed = json.loads(patch)
                    assert set(changed) < set(whole)  # some members, never the whole view
                    assert (last[r] or {}) | changed == whole
                    assert all(last[r][k] != v for k, v in changed.items())  # only what changed
                    patched += 1
                last[r] = whole
            before = now
    assert patched > 1000


def test_no_view_patch_for_a_recipient_without_a_view_before_or_for_a_view_that_lost_a_member() -> None:
    g = Game.new(Rules(players=4), seed=3)
    before = make_views(g, [0, 1])
    seat = g.to_move
    assert seat is not None
    g.apply(g.legal_actions()[0], seat)
    now = make_views(g, [0, 2, None])
    patches = view_patches(before, now)
    assert patches[0] is not None and patches[1] is None and patches[2] is None  # seat 2 and spectators: new
    # A member gone from the public part, or from one recipient's own: no patch can say so.
    assert view_patches(Views(before.recipients, before.public | {"gone": 1}, before.own, before.texts), now) == \
        [None, None, None]
    own = [before.own[0] | {"gone": 1}, before.own[1]]
    assert view_patches(Views(before.recipients, before.public, own, before.texts), now)[0] is None


def test_a_batch_carries_its_view_patch_in_place_of_the_view_and_nothing_else_differs() -> None:
    g = Game.new(Rules(players=4), seed=5)
    recipients: list[int | None] = [0, 1, 2, 3, None]
    before = make_views(g, recipients)
    seat = g.to_move
    assert seat is not None
    action = g.legal_actions()[0]
    g.apply(action, seat)
    now = make_views(g, recipients)
    rows = [EventRow("t", 9, "action", {"seat": seat, "action": action.to_json(), "by": "player"}, 2.0)]
    patches = view_patches(before, now)
    copies = event_frames(rows, recipients, now.texts, SEATS_TEXT, "playing", None, patches)
    for c, patch in zip(copies, patches):
        assert c["batch"] is not None and c["patch"] is not None and patch is not None
        whole, patched = json.loads(c["batch"]), json.loads(c["patch"])
        assert patched.pop("view_patch") == json.loads(patch) and "view" not in patched
        whole.pop("view")
        assert patched == whole
        assert json.loads(with_seats(c["patch"], SEATS_TEXT))["seats"] == SEATS
    assert all(c["patch"] is None for c in event_frames(rows, recipients, now.texts, SEATS_TEXT, "playing", None))


def test_dumps_keeps_persian_text_and_reads_back_the_same() -> None:
    message = {"v": 1, "type": "error", "message": "نوبت شما نیست", "n": [1, 2.5, None, True]}
    text = dumps(message)
    assert "نوبت" in text and " " not in text.replace("نوبت شما نیست", "")
    assert json.loads(text) == message
