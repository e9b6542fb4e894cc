"""The web table in a real browser against a real server: games, rooms, languages, settings, layout."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import DESKTOP, PHONE, act_once, one_point_games, shot, table_view

pytestmark = pytest.mark.browser


def start_vs_computer(page, *, players: int = 4, target: int = 3, level: str = "easy", nickname: str = "Sara"):  # type: ignore[no-untyped-def]
    page.fill("#nickname", nickname)
    page.locator(f"[aria-label='Players'] .seg[data-value='{players}'], [aria-label='تعداد بازیکن'] .seg[data-value='{players}']").click()
    page.locator(f".seg[data-value='{level}']").click()
    page.locator(f"[aria-label='Points to win'] .seg[data-value='{target}'], [aria-label='امتیاز برد'] .seg[data-value='{target}']").click()
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)


def wait_view(page, predicate: str, timeout: float = 20000):  # type: ignore[no-untyped-def]
    page.wait_for_function(f"() => {{ const v = window.hokmDebug && window.hokmDebug.table.view; return !!v && ({predicate}); }}",
                           timeout=timeout)


def game_over(page) -> bool:  # type: ignore[no-untyped-def]
    return page.locator(".overlay[data-kind='game']").is_visible()


# Where the game-over summary does not fit: a button or a sheet cell off the screen or scrolled out of its
# box, a sheet wider than its box, or the top bar visible beside the summary.
SUMMARY_UNFIT = """() => {
  const out = [];
  const o = document.querySelector(".overlay[data-kind='game']");
  const inView = (r) => r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  for (const b of o.querySelectorAll(".btn")) if (!inView(b.getBoundingClientRect())) out.push("button " + b.textContent);
  const scroll = o.querySelector(".sheet-scroll");
  if (scroll && scroll.scrollWidth > scroll.clientWidth + 1) out.push(`sheet ${scroll.scrollWidth} px in ${scroll.clientWidth}`);
  for (const c of o.querySelectorAll(".score-sheet th, .score-sheet tr:first-child td")) {
    const r = c.getBoundingClientRect();
    if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push("sheet cell " + c.textContent);
  }
  const bar = document.querySelector("[data-testid=top-bar]").getBoundingClientRect();
  for (const x of [bar.left + 20, (bar.left + bar.right) / 2, bar.right - 20]) {
    const hit = document.elementFromPoint(x, bar.top + 4);
    if (hit && !o.contains(hit)) out.push("top bar shows at x=" + Math.round(x));
  }
  return out;
}"""


def test_whole_game_against_bots_on_a_phone(server, open_page):
    page = open_page(server + "/")
    start_vs_computer(page, players=4, target=3)
    kinds: list[str] = []
    ways = iter(["keyboard", "drag"])  # the first two plays use the keyboard and a drag, the rest a tap
    deadline = time.monotonic() + 240
    shot_taken = False
    while not game_over(page) and time.monotonic() < deadline:
        view = table_view(page)
        legal = (view or {}).get("legal") or []
        if legal and legal[0]["type"] == "play":
            way = next(ways, "tap")
            before = len(view["hand"])
            if way == "keyboard":
                page.locator(".hand .card.playable").first.focus()
                page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowLeft")
                page.keyboard.press("Enter")
            elif way == "drag":
                box = page.locator(".hand .card.playable").first.bounding_box()
                assert box is not None
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20)
                page.mouse.down()
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 60, steps=4)
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 160, steps=4)
                page.mouse.up()
            else:
                kind = act_once(page)
                if kind:
                    kinds.append(kind)
                page.wait_for_timeout(30)
                continue
            # keyboard and drag must have played a card
            wait_view(page, f"v.hand.length < {before} || v.hand_index !== {view['hand_index']}", timeout=10000)
            kinds.append(way)
            if not shot_taken:
                shot(page, "phone-en-4p-play")
                shot_taken = True
        else:
            kind = act_once(page)
            if kind:
                kinds.append(kind)
            page.wait_for_timeout(30)
    assert game_over(page), f"the game did not finish in time (decisions: {len(kinds)})"
    assert "keyboard" in kinds and "drag" in kinds and "play" in kinds
    view = table_view(page)
    assert view["phase"] == "over" and max(view["scores"]) >= 3
    text = page.locator(".overlay[data-kind='game']").inner_text()
    # A partnership speaks as "we" throughout: the heading, then the final score, our side first.
    me = view["seat"] % 2
    assert "Game over" in text and ("We won!" if view["scores"][me] > view["scores"][1 - me] else "We lost") in text, text
    assert f"Us {view['scores'][me]}, Them {view['scores'][1 - me]}" in text, text
    shot(page, "phone-en-4p-game-over")
    assert page.evaluate(SUMMARY_UNFIT) == []

    # Each hand's revealed seed matches the hash published before its deal, checked in the page.
    page.locator(".overlay button", has_text="Fair shuffle").click()
    page.wait_for_selector(".fair-list .fair-item")
    hands = len(view["results"])
    assert page.locator(".fair-item[data-ok='true']").count() == hands
    assert page.locator(".fair-item[data-ok='false']").count() == 0
    page.locator(".sheet .icon-btn").click()

    # The finished game: replay it trick by trick, with every hand shown, and check its fairness.
    page.locator(".overlay a", has_text="Replay").click()
    page.wait_for_selector(".replay-board .replay-seat")
    assert page.locator(".replay-seat").count() == 4
    assert page.locator(".replay-hand .card-img").count() == 52  # all hands face up before the first trick
    page.locator(".replay-controls .next").click()
    caption = page.locator(".replay-caption").inner_text()
    assert "Trick 1" in caption
    assert page.locator(".replay-played .card-img").count() == 4
    # Who led, so that the order the cards were played in can be read: the first trick's leader is the Hâkem.
    leader = page.locator(".replay-seat[data-led='true'] .replay-name").inner_text().strip()
    assert page.locator(".replay-seat[data-led='true']").count() == 1
    assert f"{leader} led" in caption.replace("\u2068", "").replace("\u2069", ""), caption
    assert f"Hâkem: {leader}" in caption, caption
    page.wait_for_selector(".replay-verify .fair-item")
    assert page.locator(".replay-verify .fair-item[data-ok='false']").count() == 0
    assert page.locator(".replay-verify .fair-item[data-ok='true']").count() >= 1
    # The record was signed by this server, and the page says so.
    assert page.locator(".replay-verify .fair-signature[data-status='this_server']").count() == 1
    assert "Signed by this server" in page.locator(".replay-verify .fair-signature").inner_text()
    shot(page, "phone-en-replay")
    page.set_viewport_size(DESKTOP)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "desktop-en-replay")
    page.set_viewport_size(PHONE)

    # Home lists the finished game under the player's recent games.
    page.goto(page.url.split("#")[0] + "#/")
    page.wait_for_selector(".recent-item a[href^='#/replay/']")


def test_quick_public_match_fills_with_bots(server, open_page):
    page = open_page(server + "/")
    page.fill("#nickname", "Omid")
    page.locator("[aria-label='Players'] .seg[data-value='2']").click()
    page.click("#quick-match")
    # The server waits a moment for other players (1 s in these tests), then seats a bot.
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=30000)
    view = table_view(page)
    assert view["players"] == 2 and view["seat"] is not None


def test_reload_mid_hand_resumes_the_same_hand(server, open_page):
    # With animations on: cards fly in, full tricks sweep to their winner.
    page = open_page(server + "/", viewport=DESKTOP, settings={"speed": "fast"})
    start_vs_computer(page, players=4, target=7, level="easy", nickname="Reza")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = table_view(page)
        if view and view["phase"] == "play" and len(view["completed"]) >= 1 and view["to_move"] == view["seat"]:
            # A card clicked in the first trick may still be on its way, or marked to be played on this turn
            # (a click that landed as the hand was redrawn), while the table already shows the second
            # trick: the turn counts once the same view has stood for a second, nothing sent or marked.
            page.wait_for_timeout(1000)
            busy = page.locator(".table.sending, .hand .card.preselected").count()
            if not busy and table_view(page) == view:
                break
            continue
        if view and view["legal"] and view["legal"][0]["type"] != "play":
            act_once(page)
        elif view and view["legal"] and view["phase"] == "play" and not view["completed"]:
            act_once(page)
        page.wait_for_timeout(50)
    before = table_view(page)
    assert before["phase"] == "play" and before["completed"], "never reached the middle of a hand"
    # The last trick can be looked at again.
    page.click(".last-btn")
    page.wait_for_selector(".overlay[data-kind='last'] .last-trick")
    assert page.locator(".last-trick .trick-card").count() == 4
    assert page.locator(".last-trick .trick-card.winner").count() == 1
    page.locator(".overlay[data-kind='last'] .review-close").click()
    # The hint button asks the server's hint bot; its card is lifted and outlined.
    page.click(".hint-btn")
    page.wait_for_selector(".hand .card.hinted.playable", timeout=15000)
    shot(page, "desktop-en-4p-mid-hand")
    url = page.url
    page.reload()
    wait_view(page, "v.phase === 'play'")
    after = table_view(page)
    assert page.url == url
    assert after["hand_index"] == before["hand_index"]
    assert sorted(after["hand"]) == sorted(before["hand"])
    assert len(after["completed"]) >= len(before["completed"])
    # The cards are drawn from the view: the same hand is on screen.
    shown = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(after["hand"])

    # A dropped connection shows the banner; the page reconnects by itself and the banner goes.
    page.evaluate("() => window.hokmDebug.sock.ws.close()")
    page.wait_for_selector(".banner:not([hidden])", timeout=5000)
    assert "Reconnecting" in page.locator(".banner").inner_text()
    page.wait_for_selector(".banner", state="hidden", timeout=15000)
    assert page.evaluate("window.hokmDebug.sock.lastSeq") >= 1
    wait_view(page, f"v.hand_index >= {after['hand_index']}")


def test_private_room_with_two_browsers(server, open_page, browser):
    host = open_page(server + "/", viewport=PHONE)
    host.fill("#nickname", "Ali")
    host.locator("[aria-label='Players'] .seg[data-value='2']").click()
    host.click("#create-room")
    host.wait_for_selector(".room-code")
    # The host picks the other seat.
    host.locator(".seat-row[data-seat='1'] .move").click()
    host.wait_for_function("() => document.querySelector(\".seat-row[data-seat='1']\").textContent.includes('Ali')")
    code = host.locator(".room-code").inner_text().strip()
    assert len(code) >= 6

    # The guest follows the invite link: the join step shows the code and asks for a name first.
    link = host.locator(".room p.small").inner_text().strip()
    assert link.endswith("?join=" + code)
    guest = open_page(server + "/?join=" + code, viewport=DESKTOP)
    guest.wait_for_selector("#nickname")
    assert guest.locator("[data-testid=invite-code]").inner_text() == code
    guest.fill("#nickname", 'Bahar"><i id=pwn>')  # markup in a name must stay text
    guest.click("#join-invite")
    guest.wait_for_selector(".seat-row .sit")
    guest.locator(".seat-row .sit").first.click()
    host.wait_for_selector("#start-game:not([disabled])", timeout=10000)
    assert "Bahar" in host.locator(".seat-list").inner_text()
    shot(host, "phone-en-room")
    host.click("#start-game")
    # Joining a game that has just begun shows how the first Hâkem was drawn.
    host.wait_for_selector(".overlay[data-kind='ace'] .ace-row.won", timeout=15000)
    shot(host, "phone-en-ace-draw")
    for p in (host, guest):
        p.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)

    # Both play through the page until the first tricks are done.
    deadline = time.monotonic() + 120
    kinds: set[str] = set()
    shown: set[str] = set()
    while time.monotonic() < deadline:
        for p in (host, guest):
            v = table_view(p)
            if v and v["legal"] and v["legal"][0]["type"] == "trump":
                # The Hâkem chooses from his first five cards, shown in the chooser.
                p.wait_for_selector(".overlay[data-kind='trump'] .five")
                assert p.locator(".five .card-img").count() == 5 == len(v["hand"])
                shot(p, "trump-chooser")
            if v and v["legal"] and v["legal"][0]["type"] in ("discard", "draw") and v["legal"][0]["type"] not in shown:
                kind = v["legal"][0]["type"]
                shown.add(kind)
                p.wait_for_timeout(100)
                shot(p, f"2p-{kind}")
                if kind == "draw":  # the window gives the stock's count; the table's own count hides under it
                    p.wait_for_selector(".overlay[data-kind='draw']")
                    assert p.evaluate("""() => [...document.querySelectorAll('.stock-n')]
                        .every((e) => getComputedStyle(e).visibility === 'hidden')""")
            k = act_once(p)
            if k:
                kinds.add(k)
        hv, gv = table_view(host), table_view(guest)
        if hv and gv and len(hv["completed"]) >= 2 and len(gv["completed"]) >= 2:
            break
        host.wait_for_timeout(40)
    assert {"trump", "discard", "draw", "play"} <= kinds
    hv, gv = table_view(host), table_view(guest)
    assert (hv["seat"], gv["seat"]) == (1, 0)
    assert hv["completed"][:2] == gv["completed"][:2]
    # Neither sees the other's cards.
    assert not set(hv["hand"]) & set(gv["hand"])
    names = host.locator(".seat .seat-name").all_inner_texts()
    assert 'Bahar"><i id=pwn>' in names
    assert host.locator("#pwn").count() == 0
    assert 'Bahar"><i id=pwn>' in host.locator(".flower").nth(1).get_attribute("aria-label")
    shot(host, "phone-en-2p-room-game")
    shot(guest, "desktop-en-2p-room-game")

    # Someone else with the room's invite link watches the game: names and tricks, but no cards in hand (a
    # private room is watched with its code, which the link carries).
    watcher = open_page(server + "/?join=" + code, viewport=PHONE, settings={"nickname": "Cyrus"})
    wait_view(watcher, "v.seat === null")
    wv = table_view(watcher)
    assert wv["hand"] == [] and wv["legal"] == []
    assert watcher.locator(".hand .card").count() == 0
    assert "Ali" in watcher.locator(".seats").inner_text()


def test_persian_is_right_to_left_with_persian_text(server, open_page):
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR")
    page.wait_for_selector("#nickname")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("document.documentElement.lang") == "fa"
    body = page.locator("body").inner_text()
    assert "حکم" in body and "بازی با رایانه" in body
    assert "۴" in body  # Persian digits
    shot(page, "phone-fa-home")
    page.fill("#nickname", "سارا")
    page.locator(".seg[data-value='3']").first.click()  # three players
    page.locator(".seg[data-value='easy']").click()
    page.locator("[aria-label='امتیاز برد'] .seg[data-value='3']").click()  # the shortest game offered
    asked = one_point_games(page)  # played to one point: the game's end is what is read here, not its length
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)
    assert asked == [3], asked
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        v = table_view(page)
        if v and v["phase"] == "play" and v["legal"]:
            break
        act_once(page)
        page.wait_for_timeout(50)
    assert "حکم" in page.locator(".trump-badge").inner_text()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("document.querySelector('.table').getBoundingClientRect().width") <= PHONE["width"]
    assert "Vazirmatn" in page.evaluate("getComputedStyle(document.body).fontFamily").split(",")[0]
    assert page.evaluate("document.fonts.check('16px Vazirmatn', 'حکم')")
    shot(page, "phone-fa-3p-table")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(200)
    shot(page, "desktop-fa-3p-table")
    page.set_viewport_size(PHONE)
    # Play on to the end, in Persian.
    deadline = time.monotonic() + 240
    while not game_over(page) and time.monotonic() < deadline:
        act_once(page)
        page.wait_for_timeout(30)
    assert game_over(page), "the Persian game did not finish in time"
    text = page.locator(".overlay[data-kind='game']").inner_text()
    assert "پایان بازی" in text and ("بردید" in text or "باختید" in text)
    shot(page, "phone-fa-3p-game-over")
    for size in (PHONE, {"width": 360, "height": 740}):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        assert page.evaluate(SUMMARY_UNFIT) == [], size
    shot(page, "phone-fa-3p-game-over-360")
    # Closed, it leaves the table and the menu in reach; the action line opens it again.
    page.click("[data-testid=game-close]")
    assert not page.locator(".overlay[data-kind='game']").is_visible()
    assert page.evaluate("""() => { const b = document.querySelector('.table-bar .menu-btn');
      const r = b.getBoundingClientRect(); return b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }""")
    page.click("[data-testid=game-result]")
    assert "پایان بازی" in page.locator(".overlay[data-kind='game']").inner_text()
    shot(page, "phone-fa-3p-game-over-reopened")


def test_settings_persist_across_reloads(server, open_page):
    page = open_page(server + "/", viewport=DESKTOP, settings={"speed": "normal"})
    page.wait_for_selector("#nickname")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    shot(page, "desktop-en-home")
    page.click(".settings-btn")
    for group in ("Table", "Card faces", "Card backs"):
        assert page.locator(f".swatches[aria-label='{group}'] .swatch").count() >= 7
    # Every design is a different picture.
    faces = page.eval_on_selector_all(".swatches[aria-label='Card faces'] img", "els => els.map(e => e.src)")
    backs = page.eval_on_selector_all(".swatches[aria-label='Card backs'] img", "els => els.map(e => e.src)")
    assert len(set(faces)) == len(faces) >= 7 and len(set(backs)) == len(backs) >= 7
    shot(page, "desktop-en-settings")
    page.locator(".swatches[aria-label='Table'] [data-value='midnight']").click()
    page.locator(".swatches[aria-label='Card faces'] [data-value='night']").click()
    page.locator(".swatches[aria-label='Card backs'] [data-value='girih']").click()
    page.locator(".segmented[aria-label='Animation speed'] [data-value='fast']").click()
    page.locator(".sheet .lang-switch button[lang='fa']").click()
    assert page.evaluate("document.documentElement.dir") == "rtl"
    page.wait_for_selector(".sheet.settings")  # still open, now in Persian
    shot(page, "desktop-fa-settings")
    # Every swatch and avatar inside the panel's padding, no avatar over its neighbour.
    clipped = page.evaluate("""() => { const sheet = document.querySelector('.sheet.settings'), st = getComputedStyle(sheet);
      const box = sheet.getBoundingClientRect(), left = box.left + parseFloat(st.paddingLeft), right = box.right - parseFloat(st.paddingRight);
      const out = [...document.querySelectorAll('.sheet.settings .swatch, .sheet.settings .swatch-avatar')].map((e) => e.getBoundingClientRect())
        .filter((r) => r.left < left - 0.5 || r.right > right + 0.5).length;
      const av = [...document.querySelectorAll('.sheet.settings .swatch-avatar')].map((e) => e.getBoundingClientRect());
      const over = av.filter((a, i) => av.some((b, j) => j !== i && Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
        && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5)).length;
      return out + over; }""")
    assert clipped == 0, f"{clipped} swatches run past the settings panel or over each other"
    page.reload()
    page.wait_for_selector("#nickname")
    assert page.evaluate("document.documentElement.dataset.theme") == "midnight"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    stored = page.evaluate("JSON.parse(localStorage.getItem('hokm.settings.v1'))")
    assert stored["faces"] == "night" and stored["backs"] == "girih" and stored["speed"] == "fast" and stored["lang"] == "fa"
    page.click(".settings-btn")
    assert page.locator(".swatches[aria-label='میز'] [data-value='midnight']").get_attribute("aria-checked") == "true"


def test_phone_layout_targets_and_no_shift(server, open_page):
    page = open_page(server + "/", viewport=PHONE)
    start_vs_computer(page, players=3, target=7, nickname="Nima")
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        v = table_view(page)
        if v and v["phase"] == "play" and v["legal"]:
            break
        act_once(page)
        page.wait_for_timeout(50)
    assert table_view(page)["legal"], "never got a card to play"
    # Nothing wider than the phone.
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    # Every button is at least 44 px both ways.
    small = page.evaluate("""() => [...document.querySelectorAll('button:not([hidden])')]
        .filter(b => b.offsetParent && !b.closest('.hand'))
        .map(b => [b.className, b.getBoundingClientRect()])
        .filter(([, r]) => r.width < 43.5 || r.height < 43.5).map(([c]) => c)""")
    assert not small, f"touch targets under 44 px: {small}"
    # Each card of the 17-card hand shows a strip that is its own: 44 px where the row holds no more than the
    # even split, down to 40 px (the layout's floor) where a row keeps two suits whole. Rows are told apart by
    # the layout's own row offset, since playable and dimmed cards of one row sit at different heights, and
    # measured once the cards have stopped moving.
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")
    rows = page.evaluate("""() => {
        const cards = [...document.querySelectorAll('.hand .card')];
        const row = (c) => c.style.getPropertyValue('--y');
        const strips = cards.map((c, i) => {
          const r = c.getBoundingClientRect();
          const next = cards.slice(i + 1).find(n => row(n) === row(c));
          return next ? next.getBoundingClientRect().left - r.left : r.width;
        });
        const rows = new Map();
        cards.forEach((c, i) => rows.set(row(c), [...(rows.get(row(c)) || []), strips[i]]));
        return [...rows.values()];
    }""")
    strips = [s for r in rows for s in r]
    assert len(strips) == len(table_view(page)["hand"]) >= 16 and min(strips) >= 40, rows
    even = -(-len(strips) // len(rows))  # the even split, rounded up: at least one row holds no more
    assert any(len(r) <= even for r in rows) and all(min(r) >= 44 for r in rows if len(r) <= even), rows
    assert len(rows) <= 4, f"{len(rows)} rows for a phone hand"
    boxes = "() => ['.felt', '.hand-wrap', '.table-bar'].map(s => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.height]; })"
    before = page.evaluate(boxes)
    n = len(table_view(page)["hand"])
    act_once(page)
    wait_view(page, f"v.hand.length < {n}")
    page.wait_for_timeout(300)
    assert page.evaluate(boxes) == before, "the table moved when a card was played"
    # Screen readers: the hand is a labelled group of labelled buttons, and plays are announced.
    assert page.locator(".hand .card").first.get_attribute("aria-label")
    page.wait_for_function("() => document.getElementById('announcer').textContent.length > 0", timeout=10000)
    shot(page, "phone-en-3p-table")


def at_a_table_with_one_second_timers(page, server: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """Seat the page's guest at a two-player table against the computer whose clocks run one second, made through the
    page's own client (the home page has no timer option), and load it."""
    page.fill("#nickname", name)
    table_id = page.evaluate("""async (name) => {
        const { Api } = await import('./js/net.js');
        const api = new Api();
        await api.ensureGuest(name);
        const timers = { trump: 1, play: 1, discard: 1, draw: 1 };
        return (await api.post('/api/tables', { mode: 'computer', players: 2, bot: 'random', timers })).table_id;
    }""", name)
    page.goto(f"{server}/index.html#/table/{table_id}")  # a new page load, which reads the stored identity
    wait_view(page, "v.seat !== null")


# The page notes the server's word that the seat is ours again, from whichever WebSocket brings it: a listener on the
# socket of the moment missed it when the connection was made again meanwhile (the page's connection object stays).
NOTE_RECLAIM = """() => { window.__reclaimed = false; const sock = window.hokmDebug.sock, on = sock.h.onEvent;
  sock.h.onEvent = (msg) => { const e = msg.event; if (e && e.kind === 'seat' && e.reason === 'reclaim') window.__reclaimed = true;
    return on(msg); }; }"""


def test_a_bot_stands_in_after_two_timeouts_and_the_seat_comes_back(server, open_page):
    page = open_page(server + "/")
    at_a_table_with_one_second_timers(page, server, "Lale")
    # We do nothing: after two timeouts in a row the computer takes the seat, and says so.
    page.wait_for_selector(".banner:not([hidden]) .banner-btn", timeout=30000)
    assert "playing for you" in page.locator(".banner").inner_text()
    seat = table_view(page)["seat"]
    page.wait_for_function(f"() => window.hokmDebug.table.seats[{seat}].auto === true")
    assert page.locator(f".seat[data-seat='{seat}'] .badge.bot").count() == 1
    # With one-second timers the seat is ours again for two seconds only (two more timeouts hand it back), which a
    # loaded machine's page can miss between two looks: the page notes the server's word and the banner going.
    page.evaluate(NOTE_RECLAIM)
    page.evaluate("""() => {
        window.__bannerGone = false;
        const banner = document.querySelector('.banner');
        new MutationObserver(() => { if (banner.hidden) window.__bannerGone = true; }).observe(banner, { attributes: true });
    }""")
    # The computer plays our hands at the test server's pace, and each hand's summary lies over the table for a while:
    # the button is pressed where it is, not through the summary.
    page.locator(".banner-btn").dispatch_event("click")
    page.wait_for_function("() => window.__reclaimed && window.__bannerGone", timeout=10000)


@pytest.mark.browser
def test_the_hand_summary_offers_the_seat_back_while_the_computer_plays_for_us(server, open_page):
    """While the computer plays for us, each hand's summary dims the table, the banner that offers the seat back
    with it: the summary offers it too, and a tap there takes the seat back."""
    page = open_page(server + "/", viewport={"width": 360, "height": 640}, locale="fa-IR", settings={"lang": "fa"})
    at_a_table_with_one_second_timers(page, server, "لاله")
    page.wait_for_selector(".banner:not([hidden]) .banner-btn", timeout=30000)
    page.evaluate(NOTE_RECLAIM)
    button = page.locator(".overlay[data-kind=hand] .sum-take-back")
    button.wait_for(timeout=60000)
    assert button.inner_text() == page.locator(".banner-btn").text_content() == "بازگشت به بازی"
    assert page.locator(".overlay[data-kind=hand] .sum-back p").inner_text() == "رایانه به جای شما بازی می‌کند"
    # The banner's words are not left beside the box cut short (the box lay over the start of «بازگشت»): each of
    # them is out of sight, or clear of the box.
    cut = page.evaluate("""() => { const m = document.querySelector('.overlay[data-kind=hand]').firstElementChild.getBoundingClientRect();
        return [...document.querySelectorAll('.banner .banner-text, .banner .banner-btn')].filter((e) => {
          const r = e.getBoundingClientRect();
          return getComputedStyle(e).visibility === 'visible' && r.width > 0
            && r.left < m.right && r.right > m.left && r.top < m.bottom && r.bottom > m.top; }).map((e) => e.textContent); }""")
    shot(page, "phone-fa-hand-summary-seat-back")
    assert cut == [], f"the banner's words cut beside the summary: {cut}"
    for _ in range(20):  # a summary is up for a moment only: a tap that finds it gone waits for the next
        try:
            button.click(timeout=5000)  # a real tap: nothing lies over it (a busy machine may take seconds)
            break
        except PlaywrightTimeoutError:
            assert not button.is_visible(), "the summary offers the seat back, but a tap does not reach the button"
            button.wait_for(timeout=60000)
    page.wait_for_function("() => window.__reclaimed", timeout=10000)


def computer_table(server: str, name: str) -> tuple[dict, str]:  # type: ignore[type-arg]
    """A guest (as the page keeps it) and a two-player table of theirs against the computer, made over HTTP."""
    g = httpx.post(server + "/api/guest", json={"nickname": name}, timeout=20).json()
    r = httpx.post(server + "/api/tables", json={"mode": "computer", "players": 2},
                   headers={"Authorization": f"Bearer {g['token']}"}, timeout=20)
    assert r.status_code == 201, r.text
    return {"token": g["token"], "player_id": g["player_id"], "nickname": g["nickname"]}, r.json()["table_id"]


def signed_in(browser, who: dict):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=PHONE, locale="en-US")
    prefs = {"speed": "off", "muted": True, "nickname": who["nickname"]}
    context.add_init_script(f"localStorage.setItem('hokm.auth.v1', {json.dumps(json.dumps(who))});"
                            f"localStorage.setItem('hokm.settings.v1', {json.dumps(json.dumps(prefs))});")
    return context


# The table's connection closes (as a phone's does), and once it has closed the page is back at the table.
LOSE_CONNECTION = """() => new Promise((done) => {
  const ws = window.hokmDebug.sock.ws;
  ws.addEventListener("close", () => done());
  ws.close();
})"""
BACK = "() => window.hokmDebug.sock.joined && document.body.dataset.connection === 'open'"


def test_on_a_single_node_the_table_connects_to_plain_ws(server, open_page, browser):
    who, tid = computer_table(server, "Mina")
    assert httpx.get(f"{server}/api/tables/{tid}", headers={"Authorization": f"Bearer {who['token']}"}).json()["node"] is None
    context = signed_in(browser, who)
    urls: list[str] = []
    context.on("page", lambda p: p.on("websocket", lambda ws: urls.append(ws.url)))
    page = open_page(f"{server}/#/table/{tid}", context=context)
    wait_view(page, "v.seat !== null")
    page.evaluate(LOSE_CONNECTION)  # the next connection is plain too
    page.wait_for_function(BACK)
    ws = server.replace("http", "ws", 1) + "/ws"
    assert urls == [ws, ws]
    context.close()


def test_the_table_connects_to_its_node_and_falls_back_when_that_node_fails(server, open_page, browser):
    """In a cluster the table names the node that runs it: the page connects with /ws?node=<it> so a balancer can
    send it there. The table's info names node n1 (a node that is gone: the connection closes at once), so the page
    falls back to plain /ws; the state that connection brings names n2, and the next connection asks for n2."""
    who, tid = computer_table(server, "Mina")
    context = signed_in(browser, who)
    # The table's info, fetched beforehand and answered from here at once: the page waits 1.5 s for it before it
    # connects without a node, which a request passed through to a loaded server can outlast.
    info = httpx.get(f"{server}/api/tables/{tid}", headers={"Authorization": f"Bearer {who['token']}"}, timeout=20).json()

    def named_n1(route) -> None:  # type: ignore[no-untyped-def]
        route.fulfill(json={**info, "node": "n1"})
    context.route(f"**/api/tables/{tid}", named_n1)

    urls: list[str] = []

    def balancer(ws) -> None:  # type: ignore[no-untyped-def]
        urls.append(ws.url)
        if "node=n1" in ws.url:
            ws.close()  # n1 is gone
            return
        upstream = ws.connect_to_server()

        def to_page(message) -> None:  # type: ignore[no-untyped-def]
            msg = json.loads(message)
            if msg.get("type") == "state":
                msg["table"]["node"] = "n2"  # the node that runs the table now
            ws.send(json.dumps(msg))
        upstream.on_message(to_page)
    context.route_web_socket(lambda url: "/ws" in url, balancer)

    page = open_page(f"{server}/#/table/{tid}", context=context)
    wait_view(page, "v.seat !== null")
    ws = server.replace("http", "ws", 1) + "/ws"
    assert urls == [ws + "?node=n1", ws]
    assert page.evaluate("() => window.hokmDebug.sock.node") == "n2"
    page.evaluate(LOSE_CONNECTION)  # the next connection goes back to the table's node
    page.wait_for_function(BACK)
    assert urls == [ws + "?node=n1", ws, ws + "?node=n2"]
    assert page.locator(".banner:not([hidden])").count() == 0
    context.close()


@pytest.mark.parametrize("locale, lang, viewport", [("en-US", "en", PHONE), ("fa-IR", "fa", PHONE), ("fa-IR", "fa", DESKTOP)])
def test_the_level_picker_offers_exactly_the_served_levels(server, open_page, locale, lang, viewport):
    import httpx

    served = httpx.get(server + "/api/info", timeout=20).json()["bots"]
    page = open_page(server + "/", viewport=viewport, locale=locale)
    page.wait_for_selector("#level-about")
    picker = page.locator("#level-about").locator("xpath=preceding-sibling::div[contains(@class,'segmented')][1]")
    buttons = picker.locator(".seg")
    assert buttons.evaluate_all("bs => bs.map(b => b.dataset.value)") == [b["name"] for b in served]
    assert buttons.all_inner_texts() == [b["label"][lang] for b in served]
    # One row, or even rows: no level (the strongest, last) left alone on a row of its own; each whole in the box.
    boxes = buttons.evaluate_all("bs => bs.map(b => { const r = b.getBoundingClientRect(); "
                                 "return [Math.round(r.top), r.left, r.right, r.height, b.scrollWidth <= b.clientWidth]; })")
    rows = sorted({top for top, *_ in boxes})
    per_row = [sum(1 for top, *_ in boxes if top == row) for row in rows]
    assert len(rows) == 1 or min(per_row) >= 2, per_row
    outer = picker.evaluate("p => { const r = p.getBoundingClientRect(); return [r.left, r.right]; }")
    assert all(outer[0] <= left and right <= outer[1] and height >= 44 and whole
               for _, left, right, height, whole in boxes), boxes
    strongest = served[-1]
    assert strongest["name"] == "expert"
    picker.locator(f".seg[data-value='{strongest['name']}']").click()
    about = page.locator("#level-about").inner_text()
    assert strongest["about"][lang] in about and strongest["strength"]["words"][lang] in about
    shot(page, f"{'phone' if viewport is PHONE else 'desktop'}-{lang}-levels")


def clear_the_table(page, shown: str | None = None) -> None:  # type: ignore[no-untyped-def]
    """Until nothing lies over the table (the ace draw read with Escape, our Hokm chosen) and, if given,
    ``shown`` is on it."""
    for _ in range(300):
        if page.locator(".overlay:visible").count() == 0 and (shown is None or page.locator(shown).count()):
            return
        legal = (table_view(page) or {}).get("legal") or []
        if legal and legal[0]["type"] == "trump":
            act_once(page)
        else:
            page.keyboard.press("Escape")
        page.wait_for_timeout(100)


def test_the_mute_button_is_one_toggle_whose_name_stays(server, open_page):
    """Its name is the action, «بی‌صدا» (Mute), whichever the state; aria-pressed says whether the sound is off.
    A name that changed with the state («صدا روشن», "Sound on") read as the state, not as what a press does."""
    page = open_page(server + "/", viewport=PHONE, settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=3, nickname="سارا")  # four players: no stock draws over the bar
    button = page.locator(".mute-btn")
    button.wait_for()
    clear_the_table(page)
    assert (button.get_attribute("aria-label"), button.get_attribute("aria-pressed")) == ("بی‌صدا", "true")
    button.click()
    page.wait_for_function("() => document.querySelector('.mute-btn').getAttribute('aria-pressed') === 'false'")
    assert button.get_attribute("aria-label") == "بی‌صدا"
    button.click()
    page.wait_for_function("() => document.querySelector('.mute-btn').getAttribute('aria-pressed') === 'true'")


def test_a_computer_seats_number_stays_on_the_line_of_its_name(server, open_page):
    """On an upright phone in English the side seats are narrow: "Computer 4" wrapped, its number alone on a line
    under the word, and, kept on one line, was cut to "Computer…", which no longer says which computer. Each seat's
    name is one line and shown whole, in both languages."""
    for lang in ("en", "fa"):
        page = open_page(server + "/", viewport=PHONE, settings={"lang": lang})
        start_vs_computer(page, players=4, nickname="Sara")
        page.wait_for_function("() => document.querySelectorAll('.seat .seat-name').length === 4")
        lines = page.evaluate("""() => [...document.querySelectorAll('.seat .seat-name')].map((e) => {
            const r = document.createRange(); r.selectNodeContents(e);
            return [e.textContent, new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size,
                    e.scrollWidth <= e.clientWidth]; })""")
        assert all(n == 1 for _, n, _ in lines), (lang, lines)
        assert all(whole for _, _, whole in lines), (lang, lines)  # no name cut off by its ellipsis
        assert any("\u00a0" in name for name, _, _ in lines), lines  # the computers' names: word, no-break space, number


def test_the_rooms_team_dots_stand_in_one_column(server, open_page):
    """A four-player room lists its seats, each with a dot of its team's colour: the dots line up down the list
    (the host's row, with no buttons, had its dot at the far edge), in both directions of writing."""
    for lang in ("fa", "en"):
        page = open_page(server + "/", viewport=PHONE, settings={"lang": lang, "nickname": "Sara"})
        page.click("#create-room")
        page.wait_for_selector(".seat-row .team-dot")
        page.wait_for_function("() => document.querySelectorAll('.seat-row .team-dot').length === 4")
        xs = page.evaluate("() => [...document.querySelectorAll('.seat-row .team-dot')].map((d) => Math.round(d.getBoundingClientRect().left))")
        assert max(xs) - min(xs) <= 2, (lang, xs)


def test_a_tap_on_a_seat_mark_names_it(server, open_page):
    """The crown, the dealer's deck and the computer's mark carry their names only as titles, which a phone
    never shows: a tap puts the name on the note line, in the page's language."""
    page = open_page(server + "/", viewport=PHONE, settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=3, nickname="سارا")
    clear_the_table(page, ".badge.crown")
    assert page.locator(".hint-btn").inner_text() == "؟"  # the Persian question mark, not the Latin one
    # The ace draw, shown again: each row's cards in dealing order from beside the name, right to left in Persian.
    page.evaluate("() => { const t = window.hokmDebug.table; t.showAceDraw(t.view); }")
    page.wait_for_selector(".overlay[data-kind='ace'] .ace-row")
    rows = page.eval_on_selector_all(".ace-row", """rows => rows.map(r => {
        const name = r.querySelector('.sum-side').getBoundingClientRect();
        return [name.left, [...r.querySelectorAll('.card-img')].map(c => {
          const b = c.getBoundingClientRect(); return [Math.round(b.top), b.left]; })]; })""")
    for name_x, cards in rows:  # a long draw wraps: each line from the right, the next line below
        assert all(x < name_x for _, x in cards), rows
        assert all(top2 > top1 or (top2 == top1 and x2 < x1)
                   for (top1, x1), (top2, x2) in zip(cards, cards[1:])), rows
    clear_the_table(page)
    view = table_view(page)
    fa = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")

    def seat_name(seat: int) -> str:
        return "شما" if seat == view["seat"] else f"رایانه {str(seat + 1).translate(fa)}"

    computer = next(s for s in range(4) if s != view["seat"])
    for mark, seat, name in ((".badge.crown", view["hakem"], "حاکم"), (".badge.dealer", view["dealer"], "پخش‌کننده"),
                             (f".seat[data-seat='{computer}'] .badge.bot", computer, "بازیکن رایانه‌ای")):
        page.locator(mark).first.click()
        page.wait_for_function("(text) => { const n = document.querySelector('[data-testid=table-note]'); "
                               "return !n.hidden && n.textContent === text; }", arg=f"{seat_name(seat)}: {name}",
                               timeout=3000)


def test_the_first_ace_shows_when_the_games_start_finds_the_table_behind(server, open_page):
    """The table hurries through a queue of messages (more than two waiting) without its animations; the game's start
    came so on a slow phone, with the first deal's events behind it, and the first ace's draw, how the Hâkem was
    found, was never shown there. It shows, is held for its time, and then gives way to the game."""
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=3)
    page.wait_for_function("() => window.hokmDebug.table.view.hakem_draw && !window.hokmDebug.table.busy")
    page.evaluate("""() => { const t = window.hokmDebug.table, v = t.view;
      t.closeModal(); t.aceShown = false;
      // what the queue holds when the page gets to the start late: the start, then three more of the same hand
      t.queue.push({ view: v, event: { kind: 'start' } }, { view: v }, { view: v }, { view: v });
      t.drain(); }""")
    page.wait_for_selector(".overlay[data-kind='ace'] .ace-row.won", timeout=5000)
    assert "حاکم" in page.locator(".overlay[data-kind='ace']").inner_text()
    page.wait_for_selector(".overlay[data-kind='ace']", state="hidden", timeout=10000)  # held a moment, then gone
    assert page.evaluate("() => window.hokmDebug.table.queue.length") == 0


# Where the first ace's dialog lies and how large its cards are, drawn for a given draw.
ACE_DIALOG = """(draw) => { const t = window.hokmDebug.table;
  t.closeModal(); t.showAceDraw({ ...t.view, hakem_draw: draw, hakem: (draw.start + draw.cards.length - 1) % 4 });
  t.summaryUntil = Date.now() + 60000;
  const m = document.querySelector(".overlay[data-kind='ace'] .modal"), d = m.getBoundingClientRect();
  const bar = document.querySelector('[data-testid=top-bar]').getBoundingClientRect();
  const cards = [...document.querySelectorAll('.ace-cards .card-img')].map((c) => c.getBoundingClientRect().width);
  const rows = [...document.querySelectorAll('.ace-row')].map((r) => Math.round(r.getBoundingClientRect().top));
  return { top: d.top, bottom: d.bottom, bar: bar.bottom, narrowest: Math.min(...cards), rows, tops: new Set(rows).size,
           scrolls: m.scrollHeight > m.clientHeight + 1 }; }"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_first_aces_cards_are_legible_on_a_phone_on_its_side(server, open_page, lang):
    """On a phone on its side the rows of the first ace's draw stood one under another, their cards 25 px wide, and
    the dialog lay over the scores: now two rows a line, cards two thirds of the hand's, under the bar however long
    the draw (six cards a seat in a line)."""
    page = open_page(server + "/", viewport={"width": 740, "height": 360}, locale="fa-IR" if lang == "fa" else "en-US",
                     settings={"lang": lang})
    start_vs_computer(page, players=4, target=3)
    short = page.evaluate(ACE_DIALOG, {"start": 1, "cards": ["7H", "9C", "QD", "2S", "TH", "AD"]})
    assert short["narrowest"] >= 34 and short["tops"] == 2 and not short["scrolls"], short
    assert short["top"] >= short["bar"] and short["bottom"] <= 360, short
    shot(page, f"first-ace-landscape-{lang}-740")
    deck = [r + s for s in "SHDC" for r in "23456789TJQK"]
    long = page.evaluate(ACE_DIALOG, {"start": 3, "cards": [*deck[:23], "AC"]})  # six cards a seat
    assert long["narrowest"] >= 34 and long["tops"] == 2 and not long["scrolls"], long
    assert long["top"] >= long["bar"] and long["bottom"] <= 360, long
    shot(page, f"first-ace-landscape-long-{lang}-740")


# What the hand's summary hides of the table: a score of the bar or a seat's name or tricks that the summary's box
# covers in part or whole, unless that element is drawn above it (your own seat, where no gap holds the box).
SUMMARY_COVERS = """() => {
  const m = document.querySelector(".overlay:not([hidden])[data-kind='hand'] .modal");
  if (!m) return null;
  const b = m.getBoundingClientRect();
  const out = [];
  const watched = [...document.querySelectorAll("[data-testid=top-bar] .flower-box, .seat .seat-name, .seat .seat-tricks")];
  for (const e of watched) {
    const r = e.getBoundingClientRect();
    if (!r.width || r.left >= b.right || r.right <= b.left || r.top >= b.bottom || r.bottom <= b.top) continue;
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!top || !e.contains(top)) out.push(e.textContent.trim());
  }
  // and nothing of a seat drawn over the summary lies on its words
  for (const e of document.querySelectorAll(".seat .badge")) {
    const r = e.getBoundingClientRect();
    if (getComputedStyle(e).visibility === "visible" && r.width && r.left < b.right && r.right > b.left
        && r.top < b.bottom && r.bottom > b.top && e.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2))) {
      out.push("mark " + e.getAttribute("aria-label"));
    }
  }
  return out;
}"""


# What the summary covers, the moment it is found held up while it is looked at: it closes by itself once the next
# hand comes and its time is up, which a loaded machine's screenshot could outlast.
HOLD_SUMMARY = f"""() => {{ const covered = ({SUMMARY_COVERS})();
  if (covered !== null) window.hokmDebug.table.summaryUntil = Date.now() + 60000;
  return covered; }}"""


# The cards of the trick on screen that the hand's summary lies over, in part or whole.
TRICK_UNDER_SUMMARY = """() => { const b = document.querySelector(".overlay[data-kind='hand'] .modal").getBoundingClientRect();
  return [...document.querySelectorAll('.trick-card')].filter((c) => { const r = c.getBoundingClientRect();
    return r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top; }).map((c) => c.dataset.card); }"""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, PHONE, {"width": 360, "height": 640},
                                      {"width": 844, "height": 390}, {"width": 1024, "height": 768}],
                         ids=["portrait-390", "portrait-360", "portrait-360x640", "landscape", "tablet"])
def test_the_hand_summary_hides_no_score_and_no_seat_in_part(server, open_page, viewport):
    """On a phone the summary of a hand, centred on the whole table, lay over the scores in the bar (on its side)
    and over your own seat (upright), where «شما» cut at its start read «ما», "we". Where the table is wide it
    lies beside the trick, which stays in sight."""
    page = open_page(server + "/", viewport=viewport, settings={"lang": "fa", "nickname": "سارا"})
    page.wait_for_selector("#play-computer")
    page.locator(".seg[data-value='4']").first.click()
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)
    deadline = time.monotonic() + 120
    covered = None
    dealt = None  # (hand, dealer) of the hand being played, as the view said while it was played
    while covered is None and time.monotonic() < deadline:
        covered = page.evaluate(HOLD_SUMMARY)
        if covered is None:
            v = table_view(page)
            if v and v["phase"] == "play":
                dealt = (len(v["results"]), v["dealer"])
            act_once(page)
            page.wait_for_timeout(20)
    assert covered is not None, "no hand ended in time"
    shot(page, f"hand-summary-fa-{viewport['width']}x{viewport['height']}")
    assert covered == [], covered
    if viewport["width"] >= 1000:
        under = page.evaluate(TRICK_UNDER_SUMMARY)
        assert under == [], under
    # A kot's summary is a line taller (its callout, as the table draws it); on a phone on its side it lay over the
    # partner's name. The deals decide whether a kot comes, so its line is added to the summary shown.
    page.evaluate("""() => { const m = document.querySelector(".overlay[data-kind='hand'] .modal");
      if (!m.querySelector('.callout.kot')) { const d = document.createElement('div'); d.className = 'callout kot';
        d.textContent = 'کُت!'; m.querySelector('h2').after(d); }
      window.hokmDebug.table.placeSummary(); }""")
    page.wait_for_timeout(50)
    assert page.evaluate(SUMMARY_COVERS) == []
    if viewport["width"] >= 1000:  # beside the trick still, the seat above it no hindrance
        under = page.evaluate(TRICK_UNDER_SUMMARY)
        assert under == [], under
    # Views go on coming while it is up (the next deal grows the hand below it): each one places it afresh.
    page.evaluate("""() => { document.querySelector(".overlay[data-kind='hand']").style.paddingTop = '0px';
      window.hokmDebug.table.render(); }""")
    assert page.evaluate(SUMMARY_COVERS) == []
    # The crown, the dealer's mark and the Hokm badge speak of the same hand: the one just played (the view
    # already names the next hand's Hâkem and dealer).
    view = table_view(page)
    if view["phase"] == "deal":
        last = view["results"][-1]
        assert view["trump"] == last["trump"] and view["hakem"] is not None
        assert page.locator(".seat:has(.badge.crown)").get_attribute("data-seat") == str(last["hakem"])
        assert dealt is not None and dealt[0] == len(view["results"]) - 1
        assert page.locator(".seat:has(.badge.dealer)").get_attribute("data-seat") == str(dealt[1]), \
            (dealt, view["dealer"])
