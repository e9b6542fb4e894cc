"""Quick phrases and emotes at the right seat in both languages, and a rematch asked from both sides."""

from __future__ import annotations

import asyncio
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from server.harness import (  # tests/ is on the path as the suites' root
    Player,
    game_over,
)

from .conftest import APP_MODULE, DESKTOP, PHONE, serve, shot
from .test_feel import my_play_turn
from .test_table import start_vs_computer


def api(base: str, token: str, method: str, path: str, body: object = None) -> dict:  # type: ignore[type-arg]
    r = httpx.request(method, base + path, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=20)
    assert r.status_code in (200, 201), r.text
    return r.json()  # type: ignore[no-any-return]


def finished_table(base: str) -> tuple[Player, Player, str]:
    """Two guests play a one-hand private game to the end over the WebSocket; the table's id."""
    server = SimpleNamespace(url=base, ws_url=base.replace("http", "ws", 1) + "/ws")

    async def main() -> tuple[Player, Player, str]:
        a, b = await Player(server, "Ali").signup(), await Player(server, "بهار", seed=1).signup()  # type: ignore[arg-type]
        room = await a.api("POST", "/api/tables", {"mode": "private", "players": 2, "seat": 0,
                                                   "rules": {"target_points": 1}}, status=201)
        tid = room["table_id"]
        await b.api("POST", f"/api/tables/{tid}/sit", {"seat": 1, "code": room["code"]})
        await a.api("POST", f"/api/tables/{tid}/start", {})
        for p in (a, b):
            await p.connect()
            await p.join(tid)
        await asyncio.gather(a.play(until=game_over), b.play(until=game_over))
        for p in (a, b):
            await p.close()
        return a, b, tid

    with ThreadPoolExecutor(1) as pool:  # the browser's driver holds this thread's event loop
        return pool.submit(lambda: asyncio.run(asyncio.wait_for(main(), 120))).result()


# The bubble of seat s lies beside that seat, on the side that faces the table's middle: within a few pixels of the
# seat's box, alongside it (sharing part of its width or height), over none of it (not its name, its picture or its
# tricks), and nearer to it than to any other seat.
AT_SEAT = """(s) => {
  const b = document.querySelector(`[data-testid=chat-${s}]`).getBoundingClientRect();
  const apart = (r) => ({ x: Math.max(r.left - b.right, b.left - r.right), y: Math.max(r.top - b.bottom, b.top - r.bottom) });
  const gap = (r) => { const d = apart(r); return Math.max(d.x, d.y, 0); };
  const seat = document.querySelector(`.seat[data-seat="${s}"]`).getBoundingClientRect();
  const d = apart(seat);
  const alongside = (d.x < -1 && d.y >= -0.5 && d.y <= 12) || (d.y < -1 && d.x >= -0.5 && d.x <= 12);
  const others = [...document.querySelectorAll(`.seat:not([data-seat="${s}"])`)].map((e) => gap(e.getBoundingClientRect()));
  return alongside && others.every((g) => g > gap(seat));
}"""


# Open the chat sheet if it is closed; true once it is open. Polled: the game goes on meanwhile, and a choice
# against the clock (the Hokm, the stock) closes the sheet again.
OPEN_SHEET = """() => {
  const sheet = document.querySelector('[data-testid=talk-sheet]');
  if (sheet.hidden) document.querySelector('[data-testid=talk]').click();
  return !sheet.hidden;
}"""


def sheet_shows(selector: str) -> str:
    """A JS function for ``wait_for_function``: open the chat sheet if it is closed; true once it shows ``selector``
    (polled: a choice against the clock may close the sheet again)."""
    return f"""() => {{
  const sheet = document.querySelector('[data-testid=talk-sheet]');
  if (sheet.hidden) document.querySelector('[data-testid=talk]').click();
  const shown = document.querySelector('{selector}');
  return !sheet.hidden && shown !== null && shown.getClientRects().length > 0;
}}"""


BOX_SHOWN = sheet_shows("[data-testid=chat-input]")  # the box to write in
NOTE_SHOWN = sheet_shows("[data-testid=chat-no-friends]")  # the note that no friend is at the table


def open_chat(page) -> None:  # type: ignore[no-untyped-def]
    """Open the chat sheet unless it is open (a click in the page: the game's summary may lie over the button)."""
    page.wait_for_function(OPEN_SHEET)


def write(page, text: str) -> None:  # type: ignore[no-untyped-def]
    """Type ``text`` in the chat box and press Enter (a seated player's sheet then closes). A choice against the clock
    may close the sheet between the two; the words stay in the box, and the sheet is opened again."""
    for _ in range(5):
        open_chat(page)
        try:
            page.fill("[data-testid=chat-input]", text, timeout=3000)
            page.press("[data-testid=chat-input]", "Enter", timeout=3000)
            return
        except PlaywrightTimeoutError:
            continue
    raise AssertionError(f"the chat box stayed closed: {text!r} was not sent")


# The open chat sheet's log shows ``t`` (a line a player can see, not one left in a closed sheet).
SAID = ("(t) => [...document.querySelectorAll('[data-testid=chat-log] .chat-said')]"
        ".some((e) => e.textContent === t && e.getClientRects().length > 0)")
# The same, opening the sheet again when a choice against the clock has closed it.
HEARD = ("(t) => { const s = document.querySelector('[data-testid=talk-sheet]');"
         " if (s.hidden) document.querySelector('[data-testid=talk]').click();"
         " return [...document.querySelectorAll('[data-testid=chat-log] .chat-said')]"
         ".some((e) => e.textContent === t && e.getClientRects().length > 0); }")


def open_as(open_page, browser, base: str, p: Player, seat: int, tid: str, lang: str, viewport: dict):  # type: ignore[no-untyped-def]
    """The table page as player ``p`` (its identity and settings stored before the app first runs)."""
    context = browser.new_context(viewport=viewport, locale="fa-IR" if lang == "fa" else "en-US")
    auth = {"token": p.token, "player_id": p.id, "nickname": p.name}
    prefs = {"speed": "off", "muted": True, "lang": lang, "nickname": p.name}
    store = f"localStorage.setItem('hokm.auth.v1', {json.dumps(json.dumps(auth))});"
    store += f"localStorage.setItem('hokm.settings.v1', {json.dumps(json.dumps(prefs))});"
    context.add_init_script(store)
    page = open_page(f"{base}/#/table/{tid}", context=context)
    page.wait_for_function("(s) => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.seat === s",
                           arg=seat, timeout=20000)
    return page


def after_game_summary(page) -> None:  # type: ignore[no-untyped-def]
    """A finished table opens on its game's summary, which closes the chat sheet as it comes (the game's end): the
    test goes on once it has come. On a loaded machine it came after the sheet had been opened, and closed it."""
    page.wait_for_selector(".overlay[data-kind='game']", timeout=20000)
    page.keyboard.press("Escape")


@pytest.mark.browser
def test_phrases_and_emotes_at_the_seat_and_a_rematch_from_both_sides(server, open_page, browser):
    a, b, tid = finished_table(server)
    host = open_as(open_page, browser, server, a, 0, tid, "en", PHONE)
    guest = open_as(open_page, browser, server, b, 1, tid, "fa", DESKTOP)
    for page in (host, guest):
        page.wait_for_selector("[data-testid=rematch]", timeout=15000)
        page.wait_for_selector("[data-testid=talk]")

    # Ali's phrase: English at Ali's own seat, Persian at seat 0 on Bahar's page.
    after_game_summary(host)
    host.evaluate("() => document.querySelector('[data-testid=talk]').click()")
    host.evaluate("() => document.querySelector('[data-phrase=well_played]').click()")
    host.wait_for_selector("[data-testid=chat-0]")
    assert host.locator("[data-testid=chat-0]").inner_text() == "Well played"
    guest.wait_for_selector("[data-testid=chat-0]")
    assert guest.locator("[data-testid=chat-0]").inner_text() == "خوب بازی کردی"
    assert host.evaluate(AT_SEAT, 0) and guest.evaluate(AT_SEAT, 0)
    # Bahar's emote shows at seat 1 on both pages; nothing of it is markup.
    guest.evaluate("() => document.querySelector('[data-testid=talk]').click()")
    assert guest.get_attribute("[data-emote=clap]", "aria-label") == "دست زدن"  # named in the page's language
    guest.evaluate("() => document.querySelector('[data-emote=clap]').click()")
    for page in (host, guest):
        page.wait_for_selector("[data-testid=chat-1].emote")
        assert page.locator("[data-testid=chat-1]").inner_text() == "👏" and page.evaluate(AT_SEAT, 1)
        assert page.locator(".chat-bubble *").count() == 0

    # Rematch: Ali asks and waits; Bahar asks and both pages move to the new table at the same seats.
    host.evaluate("() => document.querySelector('[data-testid=rematch]').click()")
    host.wait_for_function("() => document.querySelector('[data-testid=rematch]').disabled")
    guest.evaluate("() => document.querySelector('[data-testid=rematch]').click()")
    for page in (host, guest):
        page.wait_for_function(f"() => location.hash.startsWith('#/table/') && !location.hash.endsWith('{tid}')",
                               timeout=15000)
    nxt = host.evaluate("() => location.hash.split('/').pop()")
    assert guest.evaluate("() => location.hash.split('/').pop()") == nxt
    info = api(server, a.token, "GET", f"/api/tables/{nxt}")
    assert info["previous"] == tid and [s["player_id"] for s in info["seats"]] == [a.id, b.id]
    host.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.seat === 0",
                           timeout=20000)
    guest.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.seat === 1",
                            timeout=20000)


def test_the_page_has_words_for_exactly_the_servers_phrases_and_emotes() -> None:
    from importlib import resources

    from hokm.server.phrases import EMOTES, PHRASES

    js = (resources.files("hokm.web") / "static" / "js" / "talk.js").read_text(encoding="utf-8")
    def block(name: str) -> str:
        return js.split(f"export const {name} = {{", 1)[1].split("};", 1)[0]
    phrases = re.findall(r"^\s*(\w+): \{ fa: \"([^\"]+)\", en: \"([^\"]+)\" \}", block("PHRASES"), re.MULTILINE)
    assert [p[0] for p in phrases] == list(PHRASES)
    assert all(re.search("[\u0600-\u06ff]", fa) and en for _, fa, en in phrases)
    assert re.findall(r"(\w+): \"", block("EMOTES")) == list(EMOTES)
    names = re.findall(r"^\s*(\w+): \{ fa: \"([^\"]+)\", en: \"([^\"]+)\" \}", block("EMOTE_NAMES"), re.MULTILINE)
    assert [n[0] for n in names] == list(EMOTES)  # each emote button is named in both languages
    assert all(re.search("[\u0600-\u06ff]", fa) and en for _, fa, en in names)


SEEN_UP_TO = "(seq) => window.hokmDebug && window.hokmDebug.sock.lastSeq >= seq"


@pytest.mark.browser
def test_free_text_in_persian_at_the_seat_escaped_and_muted(server, open_page, browser):  # type: ignore[no-untyped-def]
    """Two browser contexts at a private table: Persian text typed on one page shows at the writer's
    seat on the other; markup shows as text; once muted, the writer's messages no longer show there
    (and the mute is remembered for the table after a reload)."""
    from .conftest import shot

    a, b, tid = finished_table(server)
    host = open_as(open_page, browser, server, a, 0, tid, "en", DESKTOP)
    guest = open_as(open_page, browser, server, b, 1, tid, "fa", {"width": 390, "height": 844})
    alerts: list[str] = []
    for page in (host, guest):
        page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
        page.wait_for_selector("[data-testid=talk]")
        after_game_summary(page)

    # Bahar types Persian (with a ZWNJ) in the box and presses Enter: her sheet closes, the table is in view.
    said = "سلام علی، می\u200cخواهم این بار ببرم"
    write(guest, said)
    guest.wait_for_function("() => document.querySelector('[data-testid=talk-sheet]').hidden")
    host.wait_for_selector("[data-testid=chat-1].text")
    assert host.locator("[data-testid=chat-1]").inner_text() == said
    assert host.evaluate(AT_SEAT, 1)
    # Her own page shows her words at her seat too, and in the log when she opens the sheet again.
    guest.wait_for_selector("[data-testid=chat-1].text")
    assert guest.evaluate(AT_SEAT, 1)
    guest.wait_for_function(HEARD, arg=said)
    # A new message lights the chat button until the panel is opened; the log holds the message.
    host.wait_for_selector("[data-testid=talk] .talk-unread")
    open_chat(host)
    assert host.locator("[data-testid=chat-log] .chat-said").last.inner_text() == said
    assert host.locator("[data-testid=talk] .talk-unread").count() == 0

    # Markup is text: nothing is parsed, no handler runs.
    attack = "<img src=x onerror=alert(1)>"
    write(guest, attack)
    host.wait_for_function("(t) => { const b = document.querySelector('[data-testid=chat-1]'); return b && b.textContent === t; }",
                           arg=attack)
    host.wait_for_function(SAID, arg=attack)  # the open sheet's log takes it at once
    assert host.locator("[data-testid=chat-log] .chat-said").last.inner_text() == attack
    for page in (host, guest):
        assert page.locator(".chat-bubble img, .chat-log img, .talk-sheet img").count() == 0
    write(host, "Hi Bahar, good game")
    guest.wait_for_selector("[data-testid=chat-0].text")
    assert guest.evaluate(AT_SEAT, 0)
    open_chat(guest)
    guest.wait_for_function("() => document.querySelectorAll('[data-testid=chat-log] .chat-said').length === 3")
    guest.wait_for_timeout(300)  # the bubble's entrance
    shot(guest, "chat-panel-390x844-fa")
    open_chat(host)
    shot(host, "chat-panel-1440x900-en")
    guest.set_viewport_size({"width": 844, "height": 390})
    guest.wait_for_timeout(200)
    shot(guest, "chat-panel-844x390-fa")
    guest.set_viewport_size({"width": 390, "height": 844})

    # A refused message opens the sheet again, says why, and gives the words back. (The message is held back here
    # and the server's refusal, a rate limit, handed to the page as the socket would.)
    guest.evaluate("""() => { const sock = window.hokmDebug.sock, send = sock.send;
        sock.send = (m) => (m.type === 'chat' ? true : send.call(sock, m)); }""")
    write(guest, "یک پیام")
    guest.wait_for_function("() => document.querySelector('[data-testid=talk-sheet]').hidden")
    guest.evaluate(f"async () => (await {APP_MODULE}('talk.js')).onChatError({{ type: 'error', code: 'rate_limited', ref: 'chat' }})")
    assert guest.locator("[data-testid=talk-sheet]").is_visible()
    assert guest.locator("[data-testid=chat-status]").inner_text() == "کمی آهسته‌تر؛ چند لحظه بعد دوباره بفرستید."
    assert guest.locator("[data-testid=chat-input]").input_value() == "یک پیام"
    guest.evaluate("() => { delete window.hokmDebug.sock.send; }")  # the class's own send again
    guest.fill("[data-testid=chat-input]", "")

    # Ali mutes Bahar: her next message and phrase reach his page (seq) but show nowhere.
    host.click(f"[data-mute='{b.id}']")
    assert host.locator(f"[data-mute='{b.id}']").get_attribute("aria-pressed") == "true"
    host.evaluate("() => document.querySelectorAll('.chat-bubble').forEach((e) => e.remove())")
    write(guest, "پیام بی‌صدا")
    guest.wait_for_function(HEARD, arg="پیام بی‌صدا")
    seq = guest.evaluate("() => window.hokmDebug.sock.lastSeq")
    host.wait_for_function(SEEN_UP_TO, arg=seq)
    assert host.locator("[data-testid=chat-1]").count() == 0
    assert "پیام بی‌صدا" not in host.locator("[data-testid=chat-log]").inner_text()
    assert said not in host.locator("[data-testid=chat-log]").inner_text()  # her earlier words are hidden too

    # Remembered for this table: after a reload the mute holds.
    host.reload()
    host.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.seat === 0",
                           timeout=20000)
    after_game_summary(host)
    host.evaluate("() => document.querySelector('[data-testid=talk]').click()")
    assert host.locator(f"[data-mute='{b.id}']").get_attribute("aria-pressed") == "true"
    write(guest, "باز هم")
    guest.wait_for_function(HEARD, arg="باز هم")
    host.wait_for_function(SEEN_UP_TO, arg=guest.evaluate("() => window.hokmDebug.sock.lastSeq"))
    assert host.locator("[data-testid=chat-1]").count() == 0
    assert not alerts
    for page in (host, guest):
        page.context.close()


@pytest.mark.browser
def test_a_player_blocked_from_the_chat_panel(server, open_page, browser):  # type: ignore[no-untyped-def]
    """The chat panel offers Block beside Mute: Ali blocks Bahar there (the friends API's block list), her text
    no longer reaches his page, and after a reload the panel still says she is blocked; Unblock lifts it."""
    a, b, tid = finished_table(server)
    host = open_as(open_page, browser, server, a, 0, tid, "en", PHONE)
    guest = open_as(open_page, browser, server, b, 1, tid, "fa", DESKTOP)
    for page in (host, guest):
        page.wait_for_selector("[data-testid=talk]")
        after_game_summary(page)
    host.evaluate("() => document.querySelector('[data-testid=talk]').click()")
    block = host.locator(f"[data-block='{b.id}']")
    block.wait_for()
    assert block.inner_text() == "Block" and block.get_attribute("aria-label") == "Block بهار"
    block.click()
    host.wait_for_selector(f"[data-block='{b.id}'][aria-pressed=true]")
    assert b.id in [p["player_id"] for p in api(server, a.token, "GET", "/api/friends")["blocked"]]
    assert host.locator(f"[data-mute='{b.id}']").get_attribute("aria-pressed") == "true"  # her phrases hide too
    from .conftest import shot
    shot(host, "phone-en-chat-blocked")
    write(guest, "هنوز اینجا هستم")
    guest.wait_for_selector("[data-testid=chat-1].text")  # at her own seat on her page
    guest.wait_for_function(HEARD, arg="هنوز اینجا هستم")
    host.wait_for_timeout(600)
    assert "هنوز اینجا هستم" not in host.locator("[data-testid=chat-log]").inner_text()
    assert host.locator("[data-testid=chat-1]").count() == 0
    host.evaluate(f"() => localStorage.removeItem('hokm.mute.{tid}')")  # the block alone is left to say it
    host.reload()
    host.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.seat === 0", timeout=20000)
    after_game_summary(host)
    host.evaluate("() => document.querySelector('[data-testid=talk]').click()")
    host.wait_for_selector(f"[data-block='{b.id}'][aria-pressed=true]")  # the server's list says so
    assert host.locator(f"[data-block='{b.id}']").inner_text() == "Unblock"
    # Muted for as long as the block holds, whatever this page stored: the button says so and cannot undo it.
    mute = host.locator(f"[data-mute='{b.id}']")
    mute.wait_for()
    assert mute.get_attribute("aria-pressed") == "true" and mute.is_disabled()
    assert mute.inner_text().replace("\n", " ").strip() == "🔇 Muted: بهار"
    assert mute.evaluate("(e) => getComputedStyle(e).textDecorationLine") == "none"
    host.click(f"[data-block='{b.id}']")
    host.wait_for_selector(f"[data-block='{b.id}'][aria-pressed=false]")
    assert b.id not in [p["player_id"] for p in api(server, a.token, "GET", "/api/friends")["blocked"]]
    for page in (host, guest):
        page.context.close()


def queued_pair(base: str) -> tuple[dict, dict, str]:  # type: ignore[type-arg]
    """Two guests queue for a public two-player game together and are matched at one table."""
    people = []
    for name in ("Ali", "بهار"):
        g = httpx.post(base + "/api/guest", json={"nickname": name}, timeout=20).json()
        people.append({"token": g["token"], "player_id": g["player_id"], "nickname": g["nickname"]})
    # Both at once: the server fills a seat with the computer after a second's wait (the fixture's queue_wait), which
    # two requests one after the other can outlast on a loaded machine.
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda p: api(base, p["token"], "POST", "/api/queue", {"players": 2}), people))
    tables = set()
    for p in people:
        for _ in range(100):
            st = api(base, p["token"], "GET", "/api/queue")
            if st["status"] == "matched":
                tables.add(st["table"])
                break
            time.sleep(0.1)
        else:
            pytest.fail("the queue did not match")
    assert len(tables) == 1, tables
    return people[0], people[1], tables.pop()


def open_seated(open_page, browser, base: str, who: dict, tid: str, lang: str, viewport: dict):  # type: ignore[no-untyped-def]
    """The table page as ``who``, waiting until it shows the seat they hold (or none, watching)."""
    p = SimpleNamespace(token=who["token"], id=who["player_id"], name=who["nickname"])
    info = api(base, who["token"], "GET", f"/api/tables/{tid}")
    seat = next((s["seat"] for s in info["seats"] if s.get("player_id") == who["player_id"]), None)
    return open_as(open_page, browser, base, p, seat, tid, lang, viewport), seat  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def patient_queue(browser, tmp_path_factory):  # type: ignore[no-untyped-def]
    """A server whose public queue waits 10 s for people before a computer fills a seat: two guests queued at once
    meet there even when a loaded machine answers one of them seconds after the other."""
    yield from serve(tmp_path_factory, queue_wait="10")


@pytest.mark.browser
def test_free_text_between_friends_at_a_public_table(patient_queue, open_page, browser):  # type: ignore[no-untyped-def]
    """At a matchmade two-player table, before Ali and Bahar are friends, the chat panel offers no box: it says that
    none of their friends is at the table (in English and Persian). Once they are friends (a request by friend
    code, accepted), it offers the box to both and says that only friends at the table see the words; his words
    show at his seat and in her log. A spectator there has no box."""
    from .conftest import shot

    ali, bahar, tid = queued_pair(patient_queue)
    host, ali_seat = open_seated(open_page, browser, patient_queue, ali, tid, "en", DESKTOP)
    guest, _ = open_seated(open_page, browser, patient_queue, bahar, tid, "fa", {"width": 390, "height": 844})
    assert api(patient_queue, ali["token"], "GET", f"/api/tables/{tid}")["mode"] == "public"
    # Not friends yet: words for friends would reach nobody here, and the panel says so instead of offering a box.
    no_friends = {host: "None of your friends is at this table, so nobody here would read what you write. Quick "
                        "phrases and emotes reach everyone.",
                  guest: "هیچ‌یک از دوستانتان سر این میز نیستند و کسی نوشتهٔ شما را نمی‌بیند. پیام‌های سریع و شکلک‌ها را همه "
                         "می‌بینند."}
    for page, words in no_friends.items():
        page.wait_for_selector("[data-testid=talk]")
        page.keyboard.press("Escape")
        page.wait_for_function(NOTE_SHOWN)  # her Hokm choice against the clock may close the sheet once opened
        assert page.locator("[data-testid=chat-no-friends]").inner_text() == words
        assert not page.locator("[data-testid=chat-input]").is_visible()
        assert not page.locator("[data-testid=chat-log]").is_visible()  # empty: nothing to show
        page.focus("[data-testid=talk]")  # where a tap on the 💬 button leaves the focus
        page.keyboard.press("Escape")  # closes the sheet from there too
        page.wait_for_function("() => document.querySelector('[data-testid=talk-sheet]').hidden")
    assert host.locator(".chat-title").inner_text() == "Friends' chat"

    code = api(patient_queue, bahar["token"], "GET", "/api/account")["friend_code"]
    api(patient_queue, ali["token"], "POST", "/api/friends", {"code": code})
    api(patient_queue, bahar["token"], "POST", f"/api/friends/{ali['player_id']}/accept", {})
    guest.click("[data-testid=notice-friend-request] .notice-close")  # the request's note, answered already
    for page in (host, guest):
        page.evaluate("() => { const s = document.querySelector('[data-testid=talk-sheet]'); if (!s.hidden) "
                      "document.querySelector('[data-testid=talk]').click(); }")  # closed, to open afresh
        page.wait_for_function(BOX_SHOWN)
    assert host.locator("[data-testid=chat-friends-only]").inner_text() == "Only your friends at this table see this."
    assert guest.locator("[data-testid=chat-friends-only]").inner_text() == "فقط دوستانتان سر این میز این را می‌بینند."
    assert host.locator("[data-testid=chat-input]").get_attribute("placeholder") == "Write to your friends…"

    said = "Bahar, this one is for you"
    write(host, said)
    guest.wait_for_function(HEARD, arg=said)  # her choices against the clock close the sheet; it opens again
    guest.wait_for_selector(f"[data-testid=chat-{ali_seat}].text")
    assert guest.locator(f"[data-testid=chat-{ali_seat}]").inner_text() == said
    assert guest.evaluate(AT_SEAT, ali_seat)
    assert guest.locator(".chat-friends-only").count() == 1

    answer = "سلام علی، دیدمش"
    write(guest, answer)
    host.wait_for_function(HEARD, arg=answer)
    open_chat(guest)
    guest.wait_for_timeout(300)  # the bubble's entrance
    shot(guest, "chat-friends-390x844-fa")
    shot(host, "chat-friends-1440x900-en")
    guest.set_viewport_size({"width": 844, "height": 390})
    guest.wait_for_timeout(200)
    shot(guest, "chat-friends-844x390-fa")

    # Someone watching a public table has the spectators' note and no box.
    g = httpx.post(patient_queue + "/api/guest", json={"nickname": "Cyrus"}, timeout=20).json()
    watcher = {"token": g["token"], "player_id": g["player_id"], "nickname": g["nickname"]}
    spectator, _ = open_seated(open_page, browser, patient_queue, watcher, tid, "en", PHONE)
    spectator.wait_for_selector("[data-testid=talk]")
    spectator.evaluate("() => document.querySelector('[data-testid=talk]').click()")
    spectator.wait_for_selector(".talk-sheet .chat-note")
    assert spectator.locator("[data-testid=chat-input]").count() == 0
    assert spectator.locator(".talk-sheet .chat-note").inner_text() == "Spectators chat in private rooms only."
    for page in (host, guest, spectator):
        page.context.close()


SHEET_OPEN = "() => !document.querySelector('[data-testid=talk-sheet]').hidden"


def next_turn_with_the_sheet_open(page) -> None:  # type: ignore[no-untyped-def]
    """Open the chat sheet during our turn, play our card from under it (as a keyboard player does: a tap on the hand
    would close it), and wait for our next turn to be drawn. The sheet is open before our card goes and, as the test
    checks, still open as the next turn comes, so what happens to it then is that turn's doing, however fast the
    others play."""
    # Early in a hand, so that the turn after ours is in the same hand (no Hokm to choose in between).
    my_play_turn(page, "v.completed.length <= 4 && document.querySelector('.your-turn') !== null")
    open_chat(page)
    page.evaluate("""() => { const t = window.hokmDebug.table, sheet = document.querySelector('[data-testid=talk-sheet]');
      window.sheetAtTurn = null;  // what the sheet was as the next turn came, before anything answers the turn
      t.el.table.addEventListener('decision', () => { window.sheetAtTurn = sheet.hidden ? 'closed' : 'open'; },
                                  { capture: true, once: true });
      t.send(t.view.legal[0]); }""")
    page.wait_for_function("() => window.sheetAtTurn !== null && document.querySelector('.your-turn') !== null",
                           timeout=30000)
    assert page.evaluate("window.sheetAtTurn") == "open"


@pytest.mark.browser
def test_the_chat_sheet_closes_by_hand_and_gives_way_to_the_turn_where_it_covers_it(server, open_page):
    """On a phone the sheet lies over its own button: its ✕, Escape and a tap beside it close it. When our turn comes
    and the sheet covers the hand and the clock's line, it steps aside (the words typed stay in the box); on a
    desktop, where it covers neither, it stays open."""
    page = open_page(server + "/", viewport={"width": 360, "height": 640}, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=7)
    my_play_turn(page)
    for how in ("✕", "Escape", "beside"):
        open_chat(page)
        x = page.locator("[data-testid=talk-close]")
        box = x.bounding_box()
        assert box and box["width"] >= 40 and box["height"] >= 40, box  # a thumb's size (it was 35 px)
        assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('[data-testid=talk-close]') !== null",
                                     [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]), how
        if how == "✕":
            x.click()
        elif how == "Escape":
            page.locator("[data-testid=talk-sheet] button[data-phrase]").first.focus()
            page.keyboard.press("Escape")
        else:
            page.mouse.click(180, 40)  # the top bar, beside the sheet
        page.wait_for_function(f"() => !({SHEET_OPEN})()", timeout=2000)
    next_turn_with_the_sheet_open(page)
    page.wait_for_function(f"() => !({SHEET_OPEN})()", timeout=3000)
    assert page.locator(".your-turn").is_visible()

    desk = open_page(server + "/", viewport=DESKTOP, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(desk, players=4, target=7)
    next_turn_with_the_sheet_open(desk)
    desk.wait_for_timeout(300)
    assert desk.evaluate(SHEET_OPEN)


@pytest.mark.browser
def test_a_bubble_over_the_trick_grows_faint_during_our_turn(server, open_page):
    """On a phone the partner's two-line bubble lies over the cards played: during our turn it is read for a moment,
    then grows faint so that the cards we must answer show through (the words stay in the log)."""
    page = open_page(server + "/", viewport={"width": 360, "height": 640}, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=7)
    my_play_turn(page, "v.trick.some((p) => p.seat === (v.seat + 2) % 4)")
    # The page has drawn the turn (its start makes such a bubble faint at once): the bubble comes after.
    page.wait_for_function("() => { const tb = window.hokmDebug.table; return !tb.busy && tb.shown === tb.view"
                           " && document.querySelectorAll('.trick-card').length === tb.view.trick.length; }")
    # Shown, and looked at half a second later by the page's own clock: on a loaded machine the round trips of the
    # test took longer than the 1.5 s it is read for before it grows faint.
    seen = page.evaluate(f"""async () => {{ const talk = await {APP_MODULE}('talk.js'); const tb = window.hokmDebug.table;
      talk.showChat(tb, {{ kind: 'chat', seat: (tb.view.seat + 2) % 4, player: 'p-partner',
        text: 'سلام! می‌خواهم حکم را دل بگیرم و بعد هم یک دست دیگر ببرم، خوب بازی کن' }});
      const b = document.querySelector('.chat-bubble.text'), r = b.getBoundingClientRect();
      const over = [...document.querySelectorAll('.trick-card')].some((c) => {{ const q = c.getBoundingClientRect();
        return r.left < q.right && r.right > q.left && r.top < q.bottom && r.bottom > q.top; }});
      await new Promise((done) => setTimeout(done, 500));  // its entrance
      return [over, Number(getComputedStyle(b).opacity)]; }}""")
    bubble = page.locator(".chat-bubble.text")
    assert seen[0]  # the case this is about: the bubble lies over a card of the trick
    assert seen[1] > 0.9, seen  # read first
    page.wait_for_function("() => document.querySelector('.chat-bubble.text').classList.contains('faint')", timeout=4000)
    page.wait_for_timeout(400)
    assert float(bubble.evaluate("(e) => getComputedStyle(e).opacity")) < 0.4


@pytest.mark.browser
def test_the_chat_sheet_gives_way_to_the_turn_where_it_covers_the_trick(server, open_page):
    """On a taller phone the sheet leaves the hand and the clock's line in sight but lies over the cards played:
    it steps aside when our turn comes, so that we see what we answer."""
    page = open_page(server + "/", viewport={"width": 390, "height": 844}, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=7)
    next_turn_with_the_sheet_open(page)
    page.wait_for_function(f"() => !({SHEET_OPEN})()", timeout=3000)


# What the open chat sheet lies over of the line with the turn's clock and of the hand, in px of height; whether its
# emotes' row and how many of its phrases are in sight as it opens; and whether its note can be scrolled to.
SHEET_OVER_TURN = """() => {
  const s = document.querySelector('[data-testid=talk-sheet]'), r = s.getBoundingClientRect();
  const over = (sel) => { const q = document.querySelector(sel).getBoundingClientRect();
    return r.left < q.right && r.right > q.left ? Math.max(0, r.bottom - q.top) : 0; };
  const inside = (e) => { const q = e.getBoundingClientRect(); return q.top >= r.top - 1 && q.bottom <= r.bottom + 1; };
  const faces = s.querySelector('.talk-emotes'), phrases = [...s.querySelectorAll('button[data-phrase]')];
  const seen = { emotes: inside(faces), phrases: phrases.filter(inside).length };
  const note = s.querySelector('.chat-friends-only');
  note.scrollIntoView({ block: 'nearest' });
  return { timer: over('[data-testid=timer-line]'), hand: over('[data-testid=hand]'), height: Math.round(r.height),
           ...seen, note: inside(note), turn: document.querySelector('.your-turn') !== null,
           onScreen: r.top >= 0 && r.bottom <= innerHeight + 0.5 };
}"""


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "size"), [("fa", (740, 360)), ("en", (740, 360)), ("fa", (844, 390)), ("en", (844, 390)),
                                            ("fa", (360, 640))])
def test_the_chat_sheet_opened_during_our_turn_leaves_the_clock_and_the_hand_in_sight(server, open_page, lang, size):
    """Opened during our turn (it stays: we asked for it), the sheet ends above the line that says it is our turn
    and how many seconds are left, and above the hand, on the screen; it scrolls to what it holds below (the emotes).
    On a phone on its side it lay over both, the clock and the top of the cards."""
    page = open_page(server + "/", viewport={"width": size[0], "height": size[1]},
                     locale="fa-IR" if lang == "fa" else "en-US", settings={"lang": lang})
    start_vs_computer(page, players=4, target=7)
    my_play_turn(page)
    open_chat(page)
    page.wait_for_selector("[data-testid=chat-no-friends]")  # no friend at the table: no box, the note says why
    m = page.evaluate(SHEET_OVER_TURN)
    assert m["turn"] and m["timer"] == 0 and m["hand"] == 0, m
    # what is used most in sight as it opens (the emotes and the first phrases), the note about friends a scroll away
    assert m["height"] >= 120 and m["emotes"] and m["phrases"] >= 4 and m["note"] and m["onScreen"], m
    shot(page, f"talk-sheet-during-turn-{lang}-{size[0]}x{size[1]}")
    # Its foot fades while more lies below (a heading cut through its letters at the edge read as its end), and not
    # once scrolled to the end.
    fade = """() => { const s = document.querySelector('[data-testid=talk-sheet]');
      return [s.scrollHeight > s.clientHeight + 2, s.scrollHeight - s.scrollTop - s.clientHeight > 2, getComputedStyle(s).maskImage]; }"""
    page.evaluate("() => { const s = document.querySelector('[data-testid=talk-sheet]'); s.scrollTop = 0; }")
    page.wait_for_timeout(100)
    scrolls, below, mask = page.evaluate(fade)
    assert scrolls and below and mask.startswith("linear-gradient"), (scrolls, below, mask)
    shot(page, f"talk-sheet-during-turn-top-{lang}-{size[0]}x{size[1]}")
    page.evaluate("() => { const s = document.querySelector('[data-testid=talk-sheet]'); s.scrollTop = s.scrollHeight; }")
    page.wait_for_timeout(100)
    assert page.evaluate(fade)[1:] == [False, "none"]


# Where the open chat sheet lies: on its button's half of the table or not, and the seats it covers.
SHEET_PLACE = """() => {
  const sheet = document.querySelector('[data-testid=talk-sheet]'), s = sheet.getBoundingClientRect();
  const b = document.querySelector('[data-testid=talk]').getBoundingClientRect();
  const f = document.querySelector('.felt').getBoundingClientRect();
  const half = (r) => (r.left + r.right > f.left + f.right ? 'right' : 'left');
  const over = [...document.querySelectorAll('.seat')].filter((e) => { const r = e.getBoundingClientRect();
    return r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top; }).map((e) => e.textContent);
  const t = document.querySelector('[data-testid=trick]').getBoundingClientRect();
  const overTrick = t.left < s.right && t.right > s.left && t.top < s.bottom && t.bottom > s.top;
  const seats = [...document.querySelectorAll('.felt .seat')].map((e) => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom].map(Math.round); });
  return { open: !sheet.hidden, sheet: half(s), button: half(b), over, overTrick, at: [s.left, s.top, s.right, s.bottom].map(Math.round),
           trick: [t.left, t.top, t.right, t.bottom].map(Math.round), seats };
}"""


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_chat_sheet_opens_beside_its_button_over_no_seat_on_a_wide_table(server, open_page, lang):
    """The cloth keeps its seats and the chat button on the same sides in either language, so the sheet opens on the
    button's side, not on the side where a Persian line ends, across the table. On a wide table it lies between the
    trick and the seat there: nobody's picture or name is hidden while we chat."""
    for size in (DESKTOP, {"width": 1280, "height": 800}):
        page = open_page(server + "/", viewport=size, locale="fa-IR" if lang == "fa" else "en-US", settings={"lang": lang})
        start_vs_computer(page, players=4, target=7)
        my_play_turn(page)
        open_chat(page)
        place = page.evaluate(SHEET_PLACE)
        assert place["sheet"] == place["button"], (size, place)
        assert place["over"] == [] and not place["overTrick"], json.dumps([size, place])
        # The seats are drawn again as the others play (a mark comes and goes, a trick is counted): still over none.
        played = page.evaluate("window.hokmDebug.table.view.trick.length")
        page.evaluate("() => { const t = window.hokmDebug.table; t.send(t.view.legal[0]); }")
        page.wait_for_function(f"() => window.hokmDebug.table.view.trick.length !== {played}")
        page.wait_for_timeout(300)
        again = page.evaluate(SHEET_PLACE)
        assert again["open"] and again["over"] == [], (size, again)
        page.context.close()
