"""Accounts and friends in the browser, with two browser contexts standing for two devices or
two people: keep an account on one device and continue the game on another; add a friend,
invite them with one tap and see them join; a name that looks like markup shows as text; an
invitation and a friend request reaching a friend at a table; blocking a friend; a private room
with a friend and a spectator (three contexts)."""

from __future__ import annotations

import json
import re
import time

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import PHONE, act_once, keep_account, shot, table_view

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}
MARKUP_NAME = "<img src=x onerror=a()>"  # 23 characters: within the 24 a name may have


def test_keep_the_account_on_one_device_and_continue_the_game_on_another(server, open_page):
    phone = open_page(server + "/", viewport=PHONE_390)
    phone.fill("#nickname", "Sara")
    phone.click("[data-value='2']")  # two players: quickest deal
    phone.click("#play-computer")
    phone.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.hand.length > 0")
    first = table_view(phone)
    held, hand_index = set(first["hand"]), first["hand_index"]
    phone.goto(server + "/#/")
    phone.fill("#claim-username", "sara_t")
    phone.fill("#claim-password", "a long password")
    phone.click("#claim-account")
    phone.wait_for_selector("[data-testid=username]")
    assert phone.locator("[data-testid=username]").inner_text() == "sara_t"

    laptop = open_page(server + "/", viewport=PHONE_390, settings={"lang": "fa"})
    laptop.click("#open-account")  # a first-time visitor loads the account panel when asking for it
    laptop.click("details.signin summary")
    laptop.fill("#signin-username", "SARA_T")
    laptop.fill("#signin-password", "a long password")
    laptop.click("#sign-in")
    laptop.wait_for_selector("[data-testid=resume] .resume-btn")
    laptop.wait_for_selector("[data-testid=username]")
    shot(laptop, "phone-fa-signed-in")
    laptop.click("[data-testid=resume] .resume-btn")
    laptop.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.hand.length > 0")
    view = table_view(laptop)
    # the same seat in the same hand, with its own cards (none played: it waits for this player)
    assert view["seat"] == 0 and view["hand_index"] == hand_index and set(view["hand"]) == held


def test_a_device_code_signs_another_device_in(server, open_page):
    first = open_page(server + "/", viewport=PHONE_390, settings={"lang": "fa"})
    first.fill("#nickname", "Dara")
    first.click("#open-account")
    first.click("#link-device")
    first.wait_for_selector("[data-testid=device-code]")
    code = first.locator("[data-testid=device-code]").inner_text()
    assert first.locator("img.qr").count() == 1
    shot(first, "phone-fa-device-link")
    second = open_page(server + f"/?link={code}", viewport=PHONE_390)
    second.wait_for_selector("[data-testid=friend-code]")
    ids = [p.evaluate("() => JSON.parse(localStorage.getItem('hokm.auth.v1')).player_id") for p in (first, second)]
    assert ids[0] == ids[1]


def test_invite_a_friend_with_one_tap_and_they_join(server, open_page):
    host = open_page(server + "/", viewport=PHONE_390)
    keep_account(host, MARKUP_NAME, "host_1")
    host.wait_for_selector("[data-testid=friend-code]")

    guest = open_page(server + "/", viewport=PHONE_390, settings={"lang": "fa"})
    keep_account(guest, "بهار", "bahar", "another long one")
    guest.wait_for_selector("[data-testid=friend-code]")

    host.fill("#friend-who", "Bahar")
    host.click("#add-friend")
    # the request reaches the guest live; its sender's name is text, not markup
    guest.wait_for_selector(".accept-friend")
    row = guest.locator(".friend-row", has=guest.locator(".accept-friend"))
    assert row.locator(".person-name").inner_text() == MARKUP_NAME
    # The space between the name and the @username lies outside the username's isolate: inside it, a Latin
    # username took it to its far side on a Persian page («سارا@sara_fa»).
    parts = row.evaluate("""(r) => { const u = r.querySelector('.friend-username');
      return [u.previousSibling && u.previousSibling.textContent, u.textContent]; }""")
    assert parts == [" ", "@host_1"], parts
    assert guest.locator(".panel-friends img").count() == 0
    shot(guest, "phone-fa-friend-request")
    guest.click(".accept-friend")
    # the host sees the guest as a friend, online
    host.wait_for_selector(".friend-row .presence[data-state=online]")
    host.click(".invite-friend")
    host.wait_for_selector("[data-testid=room-code]")
    # the invitation reaches the guest live, and joining takes them to the room with its code
    guest.wait_for_selector("[data-testid=invitation] .accept-invite")
    assert guest.locator("[data-testid=invitation] .person-name").inner_text() == MARKUP_NAME
    shot(guest, "phone-fa-invitation")
    guest.click("[data-testid=invitation] .accept-invite")
    guest.wait_for_selector(".seat-row .sit")
    guest.click(".seat-row[data-seat='1'] .sit")
    host.wait_for_function("() => [...document.querySelectorAll('.seat-row .seat-who')].some((e) => e.textContent.includes('بهار'))")
    assert host.locator(".seat-row img").count() == 0


def test_an_empty_account_form_is_refused_in_the_players_words(server, open_page):
    """Nothing typed: the panel says what is missing in Persian, not the server's English validation text."""
    page = open_page(server + "/", viewport=PHONE, settings={"lang": "fa", "nickname": "سارا"})
    page.click("#open-account")
    problem = page.locator("[data-testid=account] .form-error")
    expected = [("#claim-account", "نام کاربری ۳ تا ۲۴ حرف یا رقم است و فقط _ . - دارد"),
                ("#use-device-code", "این کد ناشناخته، به‌کاررفته یا منقضی است")]
    for button, words in expected:
        page.click(button)
        page.wait_for_function("(w) => document.querySelector('[data-testid=account] .form-error').textContent === w",
                               arg=words, timeout=5000)
    page.fill("#claim-username", "sara_1")
    page.click("#claim-account")  # no password yet
    page.wait_for_function("() => document.querySelector('[data-testid=account] .form-error').textContent.startsWith('رمز')")
    page.click("details.signin summary")
    page.click("#sign-in")
    page.wait_for_function("() => document.querySelector('[data-testid=account] .form-error').textContent === 'نام کاربری یا رمز نادرست است'")
    assert not re.search("[A-Za-z]{2,}", problem.inner_text()), problem.inner_text()


def guest_identity(server: str, name: str) -> dict:
    """A guest made over HTTP: its token, id and nickname (what the page keeps as hokm.auth.v1)."""
    g = httpx.post(server + "/api/guest", json={"nickname": name}, timeout=20).json()
    return {"token": g["token"], "player_id": g["player_id"], "nickname": g["nickname"]}


def call(server: str, who: dict, method: str, path: str, body: object = None) -> dict:  # type: ignore[type-arg]
    r = httpx.request(method, server + path, json=body, headers={"Authorization": f"Bearer {who['token']}"}, timeout=20)
    assert r.status_code in (200, 201), r.text
    return r.json()  # type: ignore[no-any-return]


def open_as(open_page, browser, server: str, who: dict, path: str = "/", lang: str = "en", viewport: dict | None = None):  # type: ignore[no-untyped-def]
    """A page in a context of its own, signed in as ``who`` before the app first runs."""
    context = browser.new_context(viewport=viewport or PHONE_390, locale="fa-IR" if lang == "fa" else "en-US")
    prefs = {"speed": "off", "muted": True, "lang": lang, "nickname": who["nickname"]}
    context.add_init_script(f"localStorage.setItem('hokm.auth.v1', {json.dumps(json.dumps(who))});"
                            f"localStorage.setItem('hokm.settings.v1', {json.dumps(json.dumps(prefs))});")
    return open_page(server + path, context=context)


def test_an_invitation_and_a_friend_request_reach_a_friend_at_a_table(server, open_page, browser):
    """Bahar plays the computer: a friend request (from a name that looks like markup) and Ali's invitation show
    over her table with Accept and Join; Join takes her to Ali's room. Then she blocks a friend from her list."""
    from .test_flows import new_table

    ali, bahar, cyrus = guest_identity(server, "Ali"), guest_identity(server, "بهار"), guest_identity(server, MARKUP_NAME)
    call(server, ali, "POST", "/api/friends", {"player_id": bahar["player_id"]})
    call(server, bahar, "POST", f"/api/friends/{ali['player_id']}/accept", {})
    host = open_as(open_page, browser, server, ali, "/", "en")
    player = open_as(open_page, browser, server, bahar, "/", "fa")
    player.wait_for_selector("#play-computer")
    new_table(player, server, players=2)
    player.wait_for_selector(".table .hand")

    # A friend request while she plays: its sender's name as text, and Accept answers it there.
    call(server, cyrus, "POST", "/api/friends", {"player_id": bahar["player_id"]})
    request = player.locator("[data-testid=notice-friend-request]")
    request.wait_for(timeout=10000)
    assert request.locator("bdi").inner_text() == MARKUP_NAME and request.locator("img").count() == 0
    assert "می‌خواهد با شما دوست شود" in request.inner_text()
    # At the top of the screen, clear of her hand and her seat.
    box, hand = request.bounding_box(), player.locator("[data-testid=hand]").bounding_box()
    assert box["y"] + box["height"] <= hand["y"], (box, hand)
    shot(player, "phone-fa-friend-request-at-table")
    request.locator(".btn.primary").click()
    request.wait_for(state="detached")
    assert [f["player_id"] for f in call(server, bahar, "GET", "/api/friends")["friends"]].count(cyrus["player_id"]) == 1

    # Ali invites her with one tap from his home page: the invitation shows over her table, Join opens the room.
    host.wait_for_selector(f".friend-row[data-player='{bahar['player_id']}'] .invite-friend")
    host.click(f".friend-row[data-player='{bahar['player_id']}'] .invite-friend")
    host.wait_for_selector("[data-testid=room-code]")
    invite = player.locator("[data-testid=notice-invitation]")
    invite.wait_for(timeout=10000)
    assert invite.locator("bdi").inner_text() == "Ali" and "شما را به یک اتاق دعوت کرده است" in invite.inner_text()
    shot(player, "phone-fa-invitation-at-table")
    invite.locator(".btn.primary").click()
    player.wait_for_selector(".seat-row .sit")
    assert host.url.split("#")[1] == player.url.split("#")[1]  # the same room
    player.locator(".seat-row .sit").first.click()
    host.wait_for_function("() => [...document.querySelectorAll('.seat-row .seat-who')].some((e) => e.textContent.includes('بهار'))")

    # Blocking a friend from the friends list: they leave the list for the blocked ones, to unblock.
    player.goto(server + "/#/")
    row = player.locator(f".panel-friends .friend-row[data-player='{cyrus['player_id']}']")
    row.locator(".block-player").click()
    player.wait_for_function("(id) => !document.querySelector(`.panel-friends .friend-row[data-player='${id}'] .invite-friend`)"
                             " && !!document.querySelector(`.panel-friends .friend-row[data-player='${id}']`)", arg=cyrus["player_id"])
    assert row.locator("button").inner_text() == "رفع مسدودی"  # the row now offers Unblock
    friends = call(server, bahar, "GET", "/api/friends")
    assert cyrus["player_id"] in [p["player_id"] for p in friends["blocked"]]
    assert cyrus["player_id"] not in [p["player_id"] for p in friends["friends"]]
    shot(player, "phone-fa-friend-blocked")


def test_a_private_room_with_a_friend_and_a_spectator(server, open_page, browser):
    """Three browser contexts: Ali makes a two-player room, his friend Bahar joins with its code and sits, and
    Cyrus opens the table to watch. The players see their own hands, the spectator none; every page names the
    same two players; a trick played shows on the spectator's page; the spectator's chat stays with spectators."""
    ali, bahar, cyrus = guest_identity(server, "Ali"), guest_identity(server, "بهار"), guest_identity(server, "Cyrus")
    call(server, ali, "POST", "/api/friends", {"player_id": bahar["player_id"]})
    call(server, bahar, "POST", f"/api/friends/{ali['player_id']}/accept", {})
    host = open_as(open_page, browser, server, ali, "/", "en", {"width": 1440, "height": 900})
    host.wait_for_selector("#play-computer")
    host.locator(".panel-computer .seg[data-value='2']").click()
    host.click("#create-room")
    host.wait_for_selector("[data-testid=room-code]")
    host.wait_for_function("() => document.querySelector('[data-testid=room-code]').textContent.trim().length > 0")
    code = host.locator("[data-testid=room-code]").inner_text().strip()

    friend = open_as(open_page, browser, server, bahar, "/", "fa")
    friend.fill("#room-code", code)
    friend.click("#join-room")
    friend.locator(".seat-row[data-seat='1'] .sit").click()
    host.wait_for_selector("#start-game:not([disabled])", timeout=10000)
    host.click("#start-game")
    for p in (host, friend):
        p.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.hand.length > 0",
                            timeout=20000)
    # Cyrus has the room's invite link: the game has begun, so it opens the table, to watch.
    watcher = open_as(open_page, browser, server, cyrus, f"/?join={code}", "en", {"width": 844, "height": 390})
    watcher.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)
    v = table_view(watcher)
    assert v["seat"] is None and v["hand"] == [] and watcher.locator(".hand .card").count() == 0
    names = watcher.locator(".seat .seat-name").all_inner_texts()
    assert sorted(names) == sorted(["Ali", "بهار"]), names
    assert "Ali" in friend.locator(".seat .seat-name").all_inner_texts()
    assert "بهار" in host.locator(".seat .seat-name").all_inner_texts()

    # The two play until a card is on the table; the spectator sees it lie there, face up.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not watcher.locator(".trick-card").count():
        for p in (host, friend):
            act_once(p)
        host.wait_for_timeout(40)
    # Read as it is found: with two players a trick is full at its second card and swept soon after.
    played = watcher.wait_for_function("() => { const c = document.querySelector('.trick-card[data-card]');"
                                       " return c && c.dataset.card; }").json_value()
    assert played in [c.get_attribute("data-card") for c in host.locator(".trick-card").all()] + \
        [c.get_attribute("data-card") for c in friend.locator(".trick-card").all()] or \
        any(played in t["cards"] for t in table_view(host)["completed"])

    # The spectator writes: the spectators' log has it, the seated players never receive it. Their words have no
    # seat to show at, so the sheet stays open after sending, with the log in view.
    watcher.evaluate("() => document.querySelector('[data-testid=talk]').click()")
    watcher.fill("[data-testid=chat-input]", "watching from the rail")
    watcher.press("[data-testid=chat-input]", "Enter")
    watcher.wait_for_function("() => [...document.querySelectorAll('[data-testid=chat-log] .chat-said')]"
                              ".some((e) => e.textContent === 'watching from the rail' && e.getClientRects().length > 0)")
    assert watcher.locator("[data-testid=talk-sheet]").is_visible()
    host.evaluate("() => document.querySelector('[data-testid=talk]').click()")
    host.wait_for_selector("[data-testid=chat-log]", state="attached")  # a choice of his may close the sheet again
    host.wait_for_timeout(500)
    assert "watching from the rail" not in host.locator("[data-testid=chat-log]").inner_text()
    shot(watcher, "landscape-en-spectator")
    shot(friend, "phone-fa-private-room-game")


MY_ID = "() => JSON.parse(localStorage.getItem('hokm.auth.v1')).player_id"


def test_a_guest_is_never_lost_without_being_asked(server, open_page, browser):
    """A guest has no password: signing out everywhere is not offered to one, and a device code, typed or opened as a
    link, asks before another account takes the guest's place; cancelled, the guest stays. A kept account asks
    before signing out everywhere."""
    first = open_page(server + "/", viewport=PHONE_390, settings={"lang": "fa"})
    keep_account(first, "Dara", "dara_k")

    def code() -> str:
        """A fresh device code from the first phone (asked again if the home page was redrawn under the first ask,
        as it is once more after the account is kept)."""
        old = first.evaluate("() => { const e = document.querySelector('[data-testid=device-code]'); return e ? e.textContent : ''; }")
        for _ in range(3):
            first.click("#link-device")
            try:
                first.wait_for_function("(old) => { const e = document.querySelector('[data-testid=device-code]'); "
                                        "return e && e.textContent !== old; }", arg=old, timeout=5000)
                break
            except PlaywrightTimeoutError:
                continue
        return first.locator("[data-testid=device-code]").inner_text()

    guest = open_as(open_page, browser, server, guest_identity(server, "مهمان"), lang="fa", viewport=PHONE)
    guest.wait_for_selector("#use-device-code")
    guest_id = guest.evaluate(MY_ID)
    assert guest.locator("#sign-out-all").count() == 0
    guest.fill("#device-code", code())
    guest.click("#use-device-code")
    guest.wait_for_selector("[data-testid=confirm]")
    said = guest.locator("[data-testid=confirm] p").inner_text()
    assert "برای همیشه از دست می‌روند" in said, said
    shot(guest, "phone-fa-guest-asked")
    guest.click("[data-testid=confirm-no]")
    assert guest.locator("[data-testid=confirm]").count() == 0 and guest.locator("#use-device-code").is_visible()
    assert guest.evaluate(MY_ID) == guest_id
    # The same code as a link: the panel asks, with the code in its box.
    guest.goto(server + f"/?link={code()}")
    guest.wait_for_selector("[data-testid=confirm]")
    assert guest.evaluate(MY_ID) == guest_id
    guest.click("[data-testid=confirm-yes]")
    guest.wait_for_function("(id) => JSON.parse(localStorage.getItem('hokm.auth.v1')).player_id === id",
                            arg=first.evaluate(MY_ID))

    # A kept account: signing out everywhere is offered, and asked about first.
    guest.wait_for_selector("#sign-out-all")
    guest.click("#sign-out-all")
    guest.wait_for_selector("[data-testid=confirm]")
    guest.click("[data-testid=confirm-no]")
    assert guest.evaluate(MY_ID) == first.evaluate(MY_ID)
    guest.click("#sign-out-all")
    guest.click("[data-testid=confirm-yes]")
    guest.wait_for_function("() => localStorage.getItem('hokm.auth.v1') === null")
    # The first phone, signed out by that from afar, is not taken for a guest: it says so, and signing in asks
    # nothing.
    first.reload()
    first.wait_for_function("() => { const e = document.querySelector('[data-testid=account] .form-error'); "
                            "return e && !e.hidden && e.textContent === 'از حساب خارج شده‌اید؛ دوباره وارد شوید.'; }")
    first.click("details.signin summary")
    first.fill("#signin-username", "dara_k")
    first.fill("#signin-password", "a long password")
    first.click("#sign-in")
    first.wait_for_selector("[data-testid=username]")
    assert first.locator("[data-testid=confirm]").count() == 0
    open_page.errors.items[:] = [e for e in open_page.errors.items if not re.search("Failed to load resource.*401", e)]


def test_a_friend_code_typed_on_a_persian_keyboard_is_the_code(server, open_page, browser):
    """The friend box takes a code as a Persian keyboard types it (Persian digits, lower case), as the room and
    device boxes do."""
    ali = open_as(open_page, browser, server, guest_identity(server, "Ali"), lang="fa")
    ali.wait_for_selector("[data-testid=friend-code]")
    code = ali.locator("[data-testid=friend-code]").inner_text().strip()
    typed = code.lower().translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
    bahar = open_as(open_page, browser, server, guest_identity(server, "بهار"), lang="fa")
    bahar.wait_for_selector("#friend-who")
    bahar.fill("#friend-who", typed)
    bahar.click("#add-friend")
    ali.wait_for_selector(".accept-friend")
    assert bahar.locator(".panel-friends .form-error").is_hidden()
