"""Accounts, device links, seat reclaim from another device, friends, presence and invitations,
against a real server process with real HTTP and WebSocket clients."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from .harness import WAIT, Player, ServerProcess, run

PASSWORD = "correct horse battery"


async def claim(p: Player, username: str, password: str = PASSWORD, status: int = 200) -> Any:
    return await p.api("POST", "/api/account", {"username": username, "password": password}, status=status)


async def other_device(server: ServerProcess, name: str, signed_in: dict[str, Any]) -> Player:
    """A second client holding the token a sign-in (or device link) returned."""
    return Player.holding(server, name, signed_in["token"], signed_in["player_id"])


async def sign_in(server: ServerProcess, username: str, password: str = PASSWORD,
                  source: str = "127.0.0.1") -> httpx.Response:
    """Sign in from ``source`` (an address of the loopback network: a neighbour, or someone elsewhere)."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT, transport=transport) as c:
        return await c.post("/api/signin", json={"username": username, "password": password})


def mid_hand(m: dict[str, Any]) -> bool:
    v = m.get("view")
    return bool(v and v["phase"] == "play" and len(v["completed"]) >= 3 and v["legal"])


def test_claim_sign_in_on_a_second_client_and_reclaim_the_seat_mid_hand(make_server) -> None:
    # Bots slow enough that the hand is still on when the second device arrives.
    server = make_server(HOKM_ABSENT_GRACE="0.3", HOKM_BOT_DELAY="0.1,0.15")

    async def main() -> None:
        phone = await Player(server, "Nima", seed=1).signup()
        assert (await phone.api("GET", "/api/account"))["username"] is None  # a guest until claimed
        claimed = await claim(phone, "Nima_Tehran")
        assert claimed["username"] == "Nima_Tehran" and claimed["player_id"] == phone.id
        again = await phone.http.post("/api/account", json={"username": "Other", "password": PASSWORD})
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_claimed"
        # A one-point game: the hand the phone leaves and the laptop takes back is the game's last, so the game
        # still ends on the laptop, without the computer's slow turns of a whole seven-point game.
        tid = await phone.game_with_computers()
        await phone.play(until=mid_hand)
        assert phone.view is not None
        held, hand_index = set(phone.view["hand"]), phone.view["hand_index"]
        await phone.ws.close()  # the phone goes away in the middle of a hand; a bot stands in
        phone.ws = None
        await asyncio.sleep(0.6)

        # the laptop signs in with the username (another case, full-width letters: the same account;
        # a capital I is the i of "Nima", as a phone's keyboard writes it)
        r = await sign_in(server, "NIMA_TEHRAN")
        assert r.status_code == 201 and r.json()["player_id"] == phone.id, r.text
        r = await sign_in(server, "ｎｉｍａ_tehran")
        assert r.status_code == 201, r.text
        signed = r.json()
        assert signed["player_id"] == phone.id and signed["username"] == "Nima_Tehran"
        assert signed["token"] != phone.token
        laptop = await other_device(server, "laptop", signed)
        me = await laptop.api("GET", "/api/me")
        assert me["player_id"] == phone.id and me["tables"] == [tid]
        await laptop.connect()
        state = await laptop.join(tid)
        assert state["seat"] == 0 and state["view"]["seat"] == 0
        # the same hand, seen from seat 0 with its cards: the full per-seat view
        assert state["view"]["hand_index"] == hand_index and state["view"]["phase"] == "play"
        assert state["view"]["hand"] and set(state["view"]["hand"]) <= held
        seat0 = next(s for s in state["table"]["seats"] if s["seat"] == 0)
        assert seat0["player_id"] == phone.id
        over = await laptop.play()
        assert over["event"]["kind"] == "game_over"
        stats = (await laptop.api("GET", "/api/me"))["stats"]
        assert stats["games"] == 1  # the game counts for the account, whichever device finished it
        # the phone's token still works: one player, two devices
        assert (await phone.api("GET", "/api/me"))["stats"]["games"] == 1
        for p in (phone, laptop):
            await p.close()
    run(main())


def test_a_device_link_signs_another_device_in_once(server: ServerProcess) -> None:
    async def main() -> None:
        a = await Player(server, "Sara").signup()  # a guest can link a device without a username
        link = await a.api("POST", "/api/links", {}, status=201)
        code = link["code"]
        assert len(code) == 9 and code[4] == "-" and link["url"].endswith("/?link=" + code)
        assert link["qr_svg"].startswith("<svg") and "path" in link["qr_svg"]
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as second:
            r = await second.post("/api/links/redeem", json={"code": code.lower().replace("-", " ")})
            assert r.status_code == 201, r.text
            assert r.json()["player_id"] == a.id and r.json()["token"] != a.token
            again = await second.post("/api/links/redeem", json={"code": code})
            assert again.status_code == 404 and again.json()["error"]["code"] == "bad_link"
            for bad in ("short", "0000-0000", "x" * 40, ""):
                r = await second.post("/api/links/redeem", json={"code": bad})
                assert r.status_code in (400, 404) and r.json()["error"]["code"] in ("bad_link", "bad_request"), r.text
            r = await second.post("/api/links", json={})
            assert r.status_code == 401  # only a signed-in player makes codes
        await a.close()
    run(main())


def test_wrong_passwords_are_rate_limited_per_account_and_right_ones_are_not(make_server) -> None:
    # Tokens come back slowly enough that none returns during the test however loaded the machine (a 10 s refill
    # came back while a busy machine hashed the passwords, and a sign-in meant to be refused was let in).
    server = make_server(HOKM_SIGNIN_BURST="3", HOKM_ACCOUNT_SIGNIN_BURST="6",
                         HOKM_SIGNIN_RATE="0.0001", HOKM_ACCOUNT_SIGNIN_RATE="0.0001")

    async def main() -> None:
        a = await Player(server, "a").signup()
        await claim(a, "target")
        for _ in range(5):  # successful sign-ins give their attempts back
            assert (await sign_in(server, "target")).status_code == 201
        codes = [(await sign_in(server, "target", "wrong password")).status_code for _ in range(4)]
        assert codes == [401, 401, 401, 429]
        limited = await sign_in(server, "TARGET")  # the same account, whatever the case
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
        assert limited.json()["error"]["code"] == "rate_limited"
        # another account from the same address is not locked out by it
        b = await Player(server, "b").signup()
        await claim(b, "neighbour")
        assert (await sign_in(server, "neighbour")).status_code == 201
        # failures from one address do not lock the owner out elsewhere ...
        assert (await sign_in(server, "target", source="127.0.0.7")).status_code == 201
        # ... up to the looser bound of all addresses together
        for k in range(3):
            assert (await sign_in(server, "target", "wrong password", source=f"127.0.1.{k}")).status_code == 401
        assert (await sign_in(server, "target", source="127.0.2.1")).status_code == 429
        # unknown usernames answer like a wrong password
        r = await sign_in(server, "nobody_here")
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_credentials"
        for p in (a, b):
            await p.close()
    run(main())


def test_sign_out_everywhere_invalidates_every_token_and_device_code(server: ServerProcess) -> None:
    async def main() -> None:
        a = await Player(server, "a").signup()
        await claim(a, "leaving")
        other = await other_device(server, "other", (await sign_in(server, "leaving")).json())
        assert (await other.api("GET", "/api/me"))["player_id"] == a.id
        code = (await a.api("POST", "/api/links", {}, status=201))["code"]
        assert (await a.api("POST", "/api/signout", {"everywhere": True}))["revoked"] == 2
        for p in (a, other):
            r = await p.http.get("/api/me")
            assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as c:
            r = await c.post("/api/links/redeem", json={"code": code})
            assert r.status_code == 404
        # the password still signs in: a new token for the same player
        assert (await sign_in(server, "leaving")).json()["player_id"] == a.id
        for p in (a, other):
            await p.close()
    run(main())


def test_usernames_are_normalised_unique_and_refuse_tricks(server: ServerProcess) -> None:
    async def main() -> None:
        players = [await Player(server, f"p{i}").signup() for i in range(10)]
        ok = await claim(players[0], "pappa\u202e")  # a bidi override is removed
        assert ok["username"] == "pappa"
        cases = [
            ("PAPPA", 409, "username_taken"),  # case-folded
            ("PAPPA".replace("A", "\u0251"), 409, "username_taken"),  # Latin alpha reads as a
            ("p\u200dappa", 409, "username_taken"),  # a zero-width joiner inside: the same key
            ("\u0440\u0430\u0440\u0440\u0430", 400, "name_confusable"),  # all Cyrillic, reads "pappa"
            ("p\u0430ppa", 400, "name_confusable"),  # one Cyrillic а among Latin letters
            ("\u3164\u3164\u3164", 400, "name_invisible"),  # Hangul fillers: looks empty
            ("<b>x</b>", 400, "username_invalid"),
            ("ab", 400, "username_invalid"),
        ]
        for p, (name, status, code) in zip(players[1:], cases):
            r = await p.http.post("/api/account", json={"username": name, "password": PASSWORD})
            assert r.status_code == status and r.json()["error"]["code"] == code, (name, r.text)
        r = await players[7].http.post("/api/account", json={"username": "short_pw", "password": "1234"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "password_invalid"
        # Persian: Arabic ي and ك read as the Persian ی and ک, so they name the same account
        assert (await claim(players[9], "کیان_۱"))["username"] == "کیان_۱"
        r = await players[7].http.post("/api/account", json={"username": "كيان_۱", "password": PASSWORD})
        assert r.status_code == 409
        for bad in (b"{", b'{"username": 5}', b"[]"):
            r = await players[7].http.post("/api/account", content=bad, headers={"content-type": "application/json"})
            assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        for p in players:
            await p.close()
    run(main())
    assert "Traceback" not in server.log()


async def befriend(a: Player, b: Player) -> None:
    """``a`` adds ``b`` by username (or friend code) and ``b`` accepts."""
    code = (await b.api("GET", "/api/account"))["friend_code"]
    r = await a.api("POST", "/api/friends", {"code": code}, status=201)
    assert r["state"] == "requested" and r["player"]["player_id"] == b.id
    await b.api("POST", f"/api/friends/{a.id}/accept", {})


def test_friend_requests_presence_and_blocking(server: ServerProcess) -> None:
    async def main() -> None:
        a, b, c = [await Player(server, n).signup() for n in ("Arash", "Bahar", "Cyrus")]
        await claim(b, "bahar")
        await a.connect()
        await b.connect()
        r = await a.api("POST", "/api/friends", {"username": "BAHAR"}, status=201)
        assert r["state"] == "requested" and r["player"] == {"player_id": b.id, "nickname": "Bahar",
                                                            "username": "bahar"}
        req = await b.expect(lambda m: m["type"] == "friend_request")
        assert req["sender"]["player_id"] == a.id and req["sender"]["nickname"] == "Arash"
        listed = await b.api("GET", "/api/friends")
        assert [p["player_id"] for p in listed["incoming"]] == [a.id] and listed["friends"] == []
        assert [p["player_id"] for p in (await a.api("GET", "/api/friends"))["outgoing"]] == [b.id]
        after = await b.api("POST", f"/api/friends/{a.id}/accept", {})
        assert [f["player_id"] for f in after["friends"]] == [a.id] and after["incoming"] == []
        acc = await a.expect(lambda m: m["type"] == "friend_accepted")
        assert acc["friend"]["player_id"] == b.id
        friends = (await a.api("GET", "/api/friends"))["friends"]
        assert friends == [{"player_id": b.id, "nickname": "Bahar", "username": "bahar", "online": True,
                            "table": None}]
        # b opens a private room (friends are not told which: watching it needs its code), then a
        # game against the computer: a hears that one, then b goes offline: a hears that too
        room = await b.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        await b.join(room["table_id"])
        game = await b.api("POST", "/api/tables", {"mode": "computer", "players": 2, "bot": "random"}, status=201)
        await b.join(game["table_id"])
        seen = await a.expect(lambda m: m["type"] == "friend_presence" and m["table"] is not None)
        assert seen == {"v": 1, "type": "friend_presence", "player_id": b.id, "online": True,
                        "table": game["table_id"]}
        assert all(m.get("table") != room["table_id"] for m in a.log)
        await b.ws.close()
        b.ws = None
        gone = await a.expect(lambda m: m["type"] == "friend_presence")
        assert gone["player_id"] == b.id and gone["online"] is False
        assert (await a.api("GET", "/api/friends"))["friends"][0]["online"] is False
        # unknown people, oneself, bad ids
        for body, status in (({"username": "nobody"}, 404), ({"code": "ZZZZZZZZ"}, 404), ({}, 400)):
            r = await c.http.post("/api/friends", json=body)
            assert r.status_code == status, r.text
        assert (await c.http.post(f"/api/friends/{a.id}/accept", json={})).status_code == 404
        assert (await c.http.post("/api/friends/../accept", json={})).status_code == 404
        # c asks a, a declines; then c asks again and a blocks c: c is not told, a sees nothing more
        await c.api("POST", "/api/friends", {"code": (await a.api("GET", "/api/account"))["friend_code"]}, status=201)
        await a.api("POST", f"/api/friends/{c.id}/decline", {})
        assert (await a.api("GET", "/api/friends"))["incoming"] == []
        await a.api("POST", f"/api/blocks/{c.id}", {})
        r = await c.api("POST", "/api/friends", {"code": (await a.api("GET", "/api/account"))["friend_code"]},
                        status=201)
        assert r["state"] == "requested"
        listed = await a.api("GET", "/api/friends")
        assert listed["incoming"] == [] and [p["player_id"] for p in listed["blocked"]] == [c.id]
        # removing a friend ends it on both sides
        await a.api("DELETE", f"/api/friends/{b.id}")
        assert (await b.api("GET", "/api/friends"))["friends"] == []
        await asyncio.sleep(0.2)
        assert not [m for m in a.log if m["type"] == "friend_request"]  # the blocked request never arrived
        for p in (a, b, c):
            await p.close()
    run(main())
    assert "Traceback" not in server.log()


def test_invitations_live_and_pending_and_a_block_stops_them(server: ServerProcess) -> None:
    async def main() -> None:
        host, live, later = [await Player(server, n).signup() for n in ("Host", "Live", "Later")]
        await befriend(live, host)
        await befriend(later, host)
        await live.connect()
        room = await host.api("POST", "/api/tables", {"mode": "private", "players": 3}, status=201)
        tid = room["table_id"]
        # a connected friend gets it at once
        sent = await host.api("POST", "/api/invitations", {"friend": live.id, "table": tid}, status=201)
        got = await live.expect(lambda m: m["type"] == "invitation")
        assert got["invitation"] == sent["invitation"]
        assert got["invitation"]["code"] is None and got["invitation"]["sender"]["player_id"] == host.id
        answer = await live.api("POST", f"/api/invitations/{sent['invitation']['id']}/accept", {})
        assert answer["invitation"]["code"] == room["code"]  # the room's code comes with the yes
        await live.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": answer["invitation"]["code"]})
        # an offline friend finds it pending on their home page
        await host.api("POST", "/api/invitations", {"friend": later.id, "table": tid}, status=201)
        pending = (await later.api("GET", "/api/invitations"))["invitations"]
        assert len(pending) == 1 and pending[0]["table_id"] == tid and pending[0]["code"] is None
        await later.api("POST", f"/api/invitations/{pending[0]['id']}/decline", {})
        assert (await later.api("GET", "/api/invitations"))["invitations"] == []
        r = await later.http.post(f"/api/invitations/{pending[0]['id']}/accept", json={})
        assert r.status_code == 404  # already answered
        # only friends, only to one's own waiting private room
        stranger = await Player(server, "Stranger").signup()
        r = await host.http.post("/api/invitations", json={"friend": stranger.id, "table": tid})
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_friends"
        r = await stranger.http.post("/api/invitations", json={"friend": host.id, "table": tid})
        assert r.status_code == 403
        # blocking the host: invitations stop
        await later.api("POST", f"/api/blocks/{host.id}", {})
        r = await host.http.post("/api/invitations", json={"friend": later.id, "table": tid})
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_friends"
        assert (await later.api("GET", "/api/invitations"))["invitations"] == []
        # a room that started takes its pending invitations with it
        await befriend(stranger, host)
        await host.api("POST", "/api/invitations", {"friend": stranger.id, "table": tid}, status=201)
        await host.api("POST", f"/api/tables/{tid}/bot", {"seat": 2, "level": "random"})
        await host.api("POST", f"/api/tables/{tid}/start", {})
        assert (await stranger.api("GET", "/api/invitations"))["invitations"] == []
        for p in (host, live, later, stranger):
            await p.close()
    run(main())
    assert "Traceback" not in server.log()


def test_recent_opponents_and_partners_are_offered(server: ServerProcess) -> None:
    async def main() -> None:
        a, b = await Player(server, "a", seed=3).signup(), await Player(server, "b", seed=4).signup()
        room = await a.api("POST", "/api/tables", {"mode": "private", "players": 2}, status=201)
        tid = room["table_id"]
        await b.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": room["code"]})
        for p in (a, b):
            await p.connect()
            await p.join(tid)
        await a.api("POST", f"/api/tables/{tid}/start", {})
        await asyncio.gather(a.play(), b.play())
        recent = (await a.api("GET", "/api/friends"))["recent"]
        assert [p["player_id"] for p in recent] == [b.id]
        await befriend(a, b)
        assert (await a.api("GET", "/api/friends"))["recent"] == []
        for p in (a, b):
            await p.close()
    run(main())


def test_friend_requests_and_invitations_are_rate_limited_per_account(make_server) -> None:  # type: ignore[no-untyped-def]
    server = make_server(HOKM_FRIEND_RATE="0.01", HOKM_FRIEND_BURST="3", HOKM_INVITE_RATE="0.01",
                         HOKM_INVITE_BURST="2")

    async def main() -> None:
        a = await Player(server, "asker").signup()
        others = [await Player(server, f"o{i}").signup() for i in range(5)]
        codes = [(await o.api("GET", "/api/account"))["friend_code"] for o in others]
        statuses = [(await a.http.post("/api/friends", json={"code": c})).status_code for c in codes]
        assert statuses[:3] == [201] * 3 and statuses[3:] == [429, 429], statuses
        for o in others[:3]:
            await o.api("POST", f"/api/friends/{a.id}/accept", {})
        room = await a.api("POST", "/api/tables", {"mode": "private", "players": 4}, status=201)
        sent = [await a.http.post("/api/invitations", json={"friend": o.id, "table": room["table_id"]})
                for o in others[:3]]
        assert [r.status_code for r in sent] == [201, 201, 429], [r.text for r in sent]
        assert sent[2].json()["error"]["code"] == "rate_limited" and "retry-after" in sent[2].headers
        # another account is not held back by the first one's use
        b = others[4]
        assert (await b.http.post("/api/friends", json={"code": codes[0]})).status_code == 201
        for p in (a, *others):
            await p.close()
    run(main())


def test_asking_withdrawing_and_asking_again_does_not_flood_the_player(server: ServerProcess) -> None:
    """Three accounts each ask, withdraw and ask again five times: the player is told of each at most twice (every
    request is still stored: it shows in the player's list)."""
    async def main() -> None:
        victim = await Player(server, "victim").signup()
        await victim.connect()
        code = (await victim.api("GET", "/api/account"))["friend_code"]
        askers = [await Player(server, f"asker{i}").signup() for i in range(3)]
        for _ in range(5):
            for a in askers:
                await a.api("POST", "/api/friends", {"code": code}, status=201)
                await a.api("DELETE", f"/api/friends/{victim.id}")
        for a in askers:
            await a.api("POST", "/api/friends", {"code": code}, status=201)
        listed = (await victim.api("GET", "/api/friends"))["incoming"]
        assert {p["player_id"] for p in listed} == {a.id for a in askers}
        await victim.send({"type": "ping", "id": 1})
        await victim.expect(lambda m: m["type"] == "pong")  # every notice sent before it has arrived
        told = [m["sender"]["player_id"] for m in victim.log if m["type"] == "friend_request"]
        assert sorted(set(told)) == sorted(a.id for a in askers) and all(told.count(a.id) <= 2 for a in askers), told
        for p in (victim, *askers):
            await p.close()
    run(main())
