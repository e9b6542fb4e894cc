"""Playing feel at the web table, in a real browser against a real server: a card chosen before
your turn, the hand order setting, the review of every trick of the hand, the score sheet, and
the public queue's waiting count and countdown."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from .conftest import DESKTOP, PHONE, act_once, act_until_asked, serve, shot, table_view
from .test_flows import note_covers
from .test_table import start_vs_computer, wait_view

pytestmark = pytest.mark.browser

RANKS = "23456789TJQKA"
FA_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Fast bots; the public queue waits 8 s for people, long enough to watch its countdown."""
    yield from serve(tmp_path_factory, queue_wait="8")


def expected_order(hand: list[str], trump: str | None, *, trump_first: bool = True, alternate: bool = True,
                   high_first: bool = True) -> list[str]:
    order = ["S", "H", "C", "D"] if alternate else ["S", "C", "H", "D"]
    if trump and alternate:
        i = order.index(trump) + (0 if trump_first else 1)
        order = order[i:] + order[:i]
    elif trump:
        mate = {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]
        others = [s for s in order if s not in (trump, mate)]
        order = [trump, mate, *others] if trump_first else [*others, mate, trump]
    return sorted(hand, key=lambda c: (order.index(c[1]), -RANKS.index(c[0]) if high_first else RANKS.index(c[0])))


def hand_in_page(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all(".hand .card", "els => els.map((e) => e.dataset.card)")


def my_play_turn(page, extra: str = "true") -> None:  # type: ignore[no-untyped-def]
    """Act through the page until it is this seat's turn to play a card (and ``extra`` holds)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        v = table_view(page)
        if v and v["legal"] and v["legal"][0]["type"] == "play" and page.evaluate(
                f"() => {{ const v = window.hokmDebug.table.view; return {extra}; }}"):
            return
        if v and v["legal"]:
            act_once(page)
        page.wait_for_timeout(30)
    raise AssertionError("it never became this seat's turn")


def test_hand_order_setting_applies_at_once_and_is_remembered(server, open_page):
    page = open_page(server + "/", viewport=DESKTOP)
    start_vs_computer(page, players=4, target=7)
    my_play_turn(page, "v.hand.length >= 10")
    v = table_view(page)
    trump = v["trump"]
    assert hand_in_page(page) == expected_order(v["hand"], trump)  # default: trump first, high to low

    page.click(".menu-btn")
    page.locator(".sheet .btn.wide").first.click()  # Settings
    page.locator(".hand-order[data-setting='handRanks'] .seg[data-value='low']").click()
    page.locator(".hand-order[data-setting='handTrump'] .seg[data-value='last']").click()
    page.locator(".sheet .icon-btn").first.click()
    order = hand_in_page(page)
    assert order == expected_order(v["hand"], trump, trump_first=False, high_first=False)
    if any(c[1] == trump for c in v["hand"]):
        assert order[-1][1] == trump
    suits = [c[1] for c in order]
    for a, b in zip(order, order[1:]):
        if a[1] == b[1]:
            assert RANKS.index(a[0]) < RANKS.index(b[0])  # low to high inside a suit
    groups = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    red = {"H", "D"}
    if len(groups) == 4:
        assert all((a in red) != (b in red) for a, b in zip(groups, groups[1:]))  # colours alternate
    # The cards on screen follow the order from left to right.
    xs = [page.locator(f".hand .card[data-card='{c}']").bounding_box()["x"] for c in order]
    assert xs == sorted(xs)
    shot(page, "desktop-en-hand-order")

    page.click(".menu-btn")
    page.locator(".sheet .btn.wide").first.click()
    page.locator(".hand-order[data-setting='handColours'] .seg[data-value='grouped']").click()
    page.locator(".sheet .icon-btn").first.click()
    v = table_view(page)
    assert hand_in_page(page) == expected_order(v["hand"], v["trump"], trump_first=False, alternate=False,
                                                high_first=False)

    page.reload()
    wait_view(page, "v.hand.length > 0")
    stored = page.evaluate("JSON.parse(localStorage.getItem('hokm.settings.v1'))")
    assert (stored["handTrump"], stored["handColours"], stored["handRanks"]) == ("last", "grouped", "low")
    v = table_view(page)
    assert hand_in_page(page) == expected_order(v["hand"], v["trump"], trump_first=False, alternate=False,
                                                high_first=False)


def test_a_card_chosen_before_your_turn(server, open_page):
    """Host at seat 0, a second person at seat 3 (who plays just before the host), bots between."""
    host = open_page(server + "/", viewport=PHONE)
    host.fill("#nickname", "Ali")
    host.click("#create-room")
    host.wait_for_selector(".room-code")
    code = host.locator(".room-code").inner_text().strip()
    guest = open_page(server + "/", viewport=PHONE)
    guest.fill("#nickname", "Bahar")
    guest.fill("#room-code", code)
    guest.click("#join-room")
    guest.locator(".seat-row[data-seat='3'] .sit").click()
    for seat in (1, 2):
        host.locator(f".seat-row[data-seat='{seat}'] .add-bot").click()
        host.wait_for_selector(f".seat-row[data-seat='{seat}'] .free")
    host.wait_for_selector("#start-game:not([disabled])", timeout=10000)
    host.click("#start-game")
    for p in (host, guest):
        p.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)

    done: set[str] = set()
    deadline = time.monotonic() + 180
    while done != {"cancel", "play", "drop"} and time.monotonic() < deadline:
        hv, gv = table_view(host), table_view(guest)
        guest_plays = gv and gv["legal"] and gv["legal"][0]["type"] == "play"
        host_to_follow = hv and hv["trick"] and all(p["seat"] != 0 for p in hv["trick"])
        if guest_plays and host_to_follow and hv["phase"] == "play" and hv["to_move"] == 3:
            led = hv["trick"][0]["card"][1]
            follow = [c for c in hv["hand"] if c[1] == led]
            other = [c for c in hv["hand"] if c[1] != led]
            card, expect = None, None
            if "drop" not in done and follow and other:
                card, expect = other[0], "drop"  # must follow suit: this card will not be legal
            elif "play" not in done:
                card, expect = (follow or hv["hand"])[0], "play"
            if card:
                el = host.locator(f".hand .card[data-card='{card}']")
                if "cancel" not in done:
                    el.click()
                    host.wait_for_selector(f".hand .card.preselected[data-card='{card}']")
                    el.click()  # a second tap takes the mark away
                    host.wait_for_selector(f".hand .card[data-card='{card}']:not(.preselected)")
                    done.add("cancel")
                el.click()
                host.wait_for_selector(f".hand .card.preselected[data-card='{card}']")
                assert el.get_attribute("aria-pressed") == "true"
                # Raised with a gold ring and a clock drawn in SVG (no emoji character) that no other card covers.
                look = el.evaluate("""(e) => { const a = getComputedStyle(e, '::after'), r = e.getBoundingClientRect();
                    const x = r.left + parseFloat(a.left) + parseFloat(a.width) / 2, y = r.top + parseFloat(a.top) + parseFloat(a.height) / 2;
                    const hit = document.elementFromPoint(x, y);
                    return { ring: getComputedStyle(e.querySelector('img')).boxShadow, content: a.content, mark: a.backgroundImage,
                             onTop: !!hit && hit.closest('.card') === e,
                             // raised above the other cards of its row (a row: the cards at the same --y)
                             lift: r.top - Math.min(...[...document.querySelectorAll('.hand .card:not(.preselected)')]
                               .filter((c) => c.style.getPropertyValue('--y') === e.style.getPropertyValue('--y'))
                               .map((c) => c.getBoundingClientRect().top)) }; }""")
                assert look["ring"].startswith("rgb(245, 197, 66) 0px 0px 0px 3px"), look
                assert look["content"] == '""' and "image/svg+xml" in look["mark"] and look["onTop"], look
                assert look["lift"] <= -12, look
                shot(host, f"phone-en-preselected-{expect}")
                assert act_once(guest) == "play"
                if expect == "play":
                    # Played for us as soon as the turn came: the server took it.
                    wait_view(host, f"!v.hand.includes('{card}')", timeout=10000)
                    hv = table_view(host)
                    played = [p for p in hv["trick"] if p["seat"] == 0] or [
                        {"seat": 0, "card": c} for t in hv["completed"][-1:] for k, c in enumerate(t["cards"])
                        if (t["leader"] + k) % 4 == 0]
                    assert played and played[0]["card"] == card
                else:
                    note = host.locator("[data-testid=table-note]")
                    note.wait_for(state="visible", timeout=10000)
                    assert "cannot be played" in note.inner_text()
                    assert not note_covers(host), note_covers(host)
                    wait_view(host, "v.legal.length > 0")
                    assert card in table_view(host)["hand"]
                    assert host.locator(".hand .card.preselected").count() == 0
                    shot(host, "phone-en-preselect-dropped")
                done.add(expect)
                continue
        for p in (host, guest):
            act_once(p)
        host.wait_for_timeout(30)
    assert done == {"cancel", "play", "drop"}


def test_review_steps_through_every_trick_of_the_hand(server, open_page):
    page = open_page(server + "/", viewport=PHONE)
    start_vs_computer(page, players=4, target=7)
    my_play_turn(page, "v.completed.length >= 3")
    v = table_view(page)
    n = len(v["completed"])
    page.click(".last-btn")
    page.wait_for_selector(".overlay[data-kind='last'] .review-board")
    # Opened on your turn, it lies over the line below the table: your clock is in it instead.
    clock = page.locator(".overlay[data-kind='last'] .choice-timer").inner_text()
    assert re.fullmatch(r"\d+ s left", clock), clock
    assert page.locator(".my-timer").evaluate("(e) => getComputedStyle(e).visibility") == "hidden"

    def check(k: int) -> None:
        tr = v["completed"][k]
        assert page.locator(".review-title").inner_text() == f"Trick {k + 1} of {n}"
        cards = page.eval_on_selector_all(".review-board .review-card", "els => els.map((e) => e.dataset.card)")
        assert cards == tr["cards"]
        win = page.locator(".review-board .review-card.winner")
        assert win.count() == 1 and int(win.get_attribute("data-seat")) == tr["winner"]
        # The winning card is on top: its middle is not covered by another card.
        box = win.bounding_box()
        top = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.review-card').dataset.card",
                            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert top == win.get_attribute("data-card")
        names = page.locator(".review-board .review-name").all_inner_texts()
        assert "You" in names and len(names) == 4
        won = page.locator(".review-won").inner_text()
        assert won == "You took the trick" if tr["winner"] == 0 else won.endswith("takes the trick")
        led = page.locator(".review-led").inner_text()
        assert led == "You led" if tr["leader"] == v["seat"] else (led.endswith(" led") and led != "You led"), led
        # Every card can be seen whole enough to read: no card covers another's middle.
        for el in page.locator(".review-board .review-card").all():
            b = el.bounding_box()
            hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.review-card').dataset.card",
                                [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2])
            assert hit == el.get_attribute("data-card")

    check(n - 1)
    assert page.locator(".review-next").is_disabled()
    shot(page, "phone-en-review-last")
    for k in range(n - 2, -1, -1):
        page.click(".review-prev")
        check(k)
    assert page.locator(".review-prev").is_disabled()
    page.click(".review-next")
    check(1)
    page.keyboard.press("ArrowLeft")
    check(0)
    page.keyboard.press("Escape")
    page.wait_for_selector(".overlay", state="hidden", timeout=2000)
    # Opened again, and the turn ends under it (the clock ran out, a card was played for us): it closes.
    page.click(".last-btn")
    page.wait_for_selector(".overlay[data-kind='last'] .choice-timer:not(:empty)")
    page.evaluate("() => { const tb = window.hokmDebug.table; tb.shown = { ...tb.shown, legal: [] }; tb.drawTimers(); }")
    page.wait_for_selector(".overlay", state="hidden", timeout=2000)


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 740, "height": 360}], ids=["upright", "on-its-side"])
def test_the_score_sheet_opened_on_our_turn_says_our_time(server, open_page, viewport):
    """On a phone the score sheet takes the whole screen: opened on our turn it hid our clock while the seconds ran
    out. Our time shows under its title, as in the trick review; when the turn ends under it, it closes (one opened
    while others played stays)."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=7, nickname="سارا")
    my_play_turn(page)
    page.click(".sheet-btn")
    page.wait_for_selector(".overlay[data-kind='sheet'] .choice-timer:not(:empty)")
    clock = page.locator(".overlay[data-kind='sheet'] .choice-timer")
    assert re.fullmatch("[۰-۹]+ ثانیه مانده", clock.inner_text()), clock.inner_text()
    assert page.evaluate("""() => { const r = document.querySelector(".overlay[data-kind='sheet'] .choice-timer").getBoundingClientRect();
      const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!e && e.classList.contains('choice-timer') && r.bottom <= innerHeight; }""")
    shot(page, f"score-sheet-on-our-turn-fa-{viewport['width']}")
    end_of_turn = "() => { const tb = window.hokmDebug.table; tb.shown = { ...tb.shown, legal: [] }; tb.drawTimers(); }"
    page.evaluate(end_of_turn)
    page.wait_for_selector(".overlay", state="hidden", timeout=2000)
    # Opened while others play, it is ours to close: our turn coming and going under it leaves it open.
    page.evaluate("() => { const tb = window.hokmDebug.table; tb.shown = { ...tb.shown, legal: [] }; tb.drawTimers(); }")
    page.click(".sheet-btn")
    page.wait_for_selector(".overlay[data-kind='sheet'] .sheet-close")
    page.evaluate("() => { const tb = window.hokmDebug.table; tb.shown = tb.view; tb.drawTimers(); }")
    assert clock.inner_text()  # the turn came: the clock in the sheet
    page.evaluate(end_of_turn)
    page.wait_for_timeout(300)
    assert page.locator(".overlay[data-kind='sheet']").is_visible()


def test_the_trick_review_opened_as_our_card_goes_stays_open(server, open_page):
    """A review opened after our card went and before the server took it was opened to read: the turn it answered
    ending under it (the card accepted) leaves it open."""
    page = open_page(server + "/", viewport=PHONE, settings={"nickname": "Mina"})
    start_vs_computer(page, players=4, target=7)
    my_play_turn(page, "v.completed.length >= 1 && v.hand.length >= 3")
    # Hold our card on its way, as a slow network would.
    page.evaluate("""() => { const tb = window.hokmDebug.table, send = tb.hooks.onAction;
        tb.hooks.onAction = (a) => { window.heldAction = () => { tb.hooks.onAction = send; send(a); }; }; }""")
    card = page.locator(".hand .card.playable").first
    ours = card.get_attribute("data-card")
    card.click(position={"x": 12, "y": 16})
    page.wait_for_function("() => !!window.heldAction")
    before = len(table_view(page)["hand"])
    page.click(".last-btn")
    page.wait_for_selector(".overlay[data-kind='last'] .review-card.winner")
    page.evaluate("() => window.heldAction()")
    wait_view(page, f"v.hand.length === {before - 1}")
    page.wait_for_function("() => !window.hokmDebug.table.busy && window.hokmDebug.table.shown === window.hokmDebug.table.view")
    page.wait_for_timeout(300)
    assert page.locator(".overlay[data-kind='last'] .review-card.winner").is_visible()
    # The tricks taken under it are counted, and the review, which was on the latest trick, moves on to the one
    # with our card once it is taken: it had stayed on the trick before, «next» disabled.
    wait_view(page, "v.legal.length > 0 || v.phase !== 'play'", timeout=30000)
    page.wait_for_function("() => !window.hokmDebug.table.busy && window.hokmDebug.table.shown === window.hokmDebug.table.view")
    n = len(table_view(page)["completed"])
    board = page.locator(".overlay[data-kind='last'] .review-board")
    assert board.get_attribute("data-trick") == str(n - 1)
    assert page.locator(f".overlay[data-kind='last'] .review-card[data-card='{ours}']").count() == 1
    assert page.locator(".review-title").inner_text().endswith(str(n)), page.locator(".review-title").inner_text()


def test_score_sheet_in_persian(server, open_page):
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR")
    start_vs_computer(page, players=4, target=7, nickname="Sara")
    my_play_turn(page, "v.results.length >= 2 && v.phase === 'play'")
    v = table_view(page)
    page.click(".sheet-btn")
    page.wait_for_selector(".overlay[data-kind='sheet'] .score-sheet")
    rows = page.locator(".score-sheet tbody tr")
    assert rows.count() == len(v["results"])
    sides = [page.locator(".score-sheet th.side").nth(i).inner_text() for i in range(4)]
    assert sides == ["ما", "آن‌ها", "ما", "آن‌ها"]  # whose column is whose, in words
    suit = {"S": "پیک", "H": "دل", "D": "خشت", "C": "گشنیز"}
    running = [0, 0]
    for i, r in enumerate(v["results"]):
        row = rows.nth(i)
        running[r["winner"]] += r["points"]
        assert row.locator(".sh-hand").inner_text() == str(i + 1).translate(FA_DIGITS)
        assert row.locator(".sh-trump").inner_text().strip() == suit[r["trump"]]
        hakem = row.locator(".sh-hakem").inner_text()
        # A computer's number is held to its name: «رایانه» over a lone «۲» in a narrow column reads as a count.
        assert hakem == ("شما" if r["hakem"] == 0 else f"رایانه\u00a0{str(r['hakem'] + 1).translate(FA_DIGITS)}")
        assert [row.locator(".sh-tricks").nth(s).inner_text() for s in (0, 1)] == [
            str(x).translate(FA_DIGITS) for x in r["tricks"]]
        assert row.locator(".points-side").inner_text() == ("ما" if r["winner"] == 0 else "آن‌ها")
        # The points the side took, as a gain ("+۱"), drawn left to right: the plus on the left of the digits.
        assert row.locator(".points-n").inner_text() == "+" + str(r["points"]).translate(FA_DIGITS)
        assert row.locator(".points-n").evaluate("(e) => getComputedStyle(e).direction") == "ltr"
        kot = row.locator(".sh-points .sh-kot")
        if r["kot"]:
            assert kot.inner_text() == ("حاکم‌کُتی" if r["hakem_koti"] else "کُت")
        else:
            assert kot.count() == 0
        assert [row.locator(".sh-score").nth(s).inner_text() for s in (0, 1)] == [
            str(x).translate(FA_DIGITS) for x in running]
    assert running == v["scores"][:2]
    text = page.locator(".overlay[data-kind='sheet']").inner_text()
    assert not any(ch in text for ch in "0123456789·•∙."), text  # Persian digits, nothing dot-like
    shot(page, "phone-fa-score-sheet")
    # The whole sheet fits a phone's width: no column is cut off.
    assert page.evaluate("() => { const e = document.querySelector('.sheet-scroll'); return e.scrollWidth <= e.clientWidth; }")
    page.click(".sheet-close")
    page.wait_for_selector(".overlay", state="hidden", timeout=2000)

    # In English too, with the longer words, the sheet fits the phone.
    page.click(".menu-btn")
    page.locator(".sheet .btn.wide").first.click()
    page.locator(".lang-switch .chip[lang='en']").click()
    page.locator(".sheet .icon-btn").first.click()
    page.wait_for_selector(".table .sheet-btn")
    wait_view(page, "v.results.length >= 2")
    # The widest row there is: a Hâkem-koti (drawn from the view the page holds, with one more hand).
    page.evaluate("""() => { const tb = window.hokmDebug.table; tb.view = { ...tb.view, results: [...tb.view.results,
        { hakem: 1, trump: "D", tricks: [7, 0], winner: 0, points: 3, kot: true, hakem_koti: true }] }; }""")
    page.click(".sheet-btn")
    page.wait_for_selector(".score-sheet .sh-kot")
    assert page.locator(".score-sheet tbody tr").last.locator(".sh-kot").inner_text() == "Hâkem-koti"
    # the sheet is small on a phone, its kot mark no smaller than 11 px (it was 10)
    assert page.locator(".score-sheet .sh-kot").last.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)") >= 11
    page.wait_for_selector(".overlay[data-kind='sheet'] .score-sheet")
    assert page.locator(".score-sheet th.side").first.inner_text() == "Us"
    assert page.evaluate("() => { const e = document.querySelector('.sheet-scroll'); return e.scrollWidth <= e.clientWidth; }")
    shot(page, "phone-en-score-sheet")


def test_public_queue_shows_waiting_players_and_counts_down(server, open_page):
    first = open_page(server + "/", viewport=PHONE)
    first.fill("#nickname", "Omid")
    # The second player's page is loaded before the first joins: on a loaded machine its loading took long enough
    # for the first's wait to end, and the two met different tables.
    second = open_page(server + "/", viewport=PHONE)
    second.fill("#nickname", "Nika")
    first.click("#quick-match")  # four players by default
    first.wait_for_selector(".queue-fill[data-left]")
    assert first.locator(".queue-count").inner_text() == "Players waiting: 1"
    left, text = first.evaluate(
        "() => { const e = document.querySelector('.queue-fill'); return [Number(e.dataset.left), e.textContent]; }")
    assert 1 <= left <= 8 and text == f"Bots take the empty seats in {left} s"
    first.wait_for_function(f"() => Number(document.querySelector('.queue-fill').dataset.left) < {left}",
                            timeout=3000)
    second.click("#quick-match")
    second.wait_for_selector(".queue-fill[data-left]")
    assert second.locator(".queue-count").inner_text() == "Players waiting: 2"
    first.wait_for_function("() => document.querySelector('.queue-count').textContent.endsWith('2')", timeout=3000)
    shot(second, "phone-en-queue-wait")
    # Both wait for the same table, so their countdowns agree within a second or so.
    a = int(first.locator(".queue-fill").get_attribute("data-left"))
    b = int(second.locator(".queue-fill").get_attribute("data-left"))
    assert abs(a - b) <= 1
    for p in (first, second):
        p.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=30000)
    seats = sorted(table_view(p)["seat"] for p in (first, second))
    assert seats == [0, 2]  # partners, with the two bots facing them


# Each header row of the score sheet: the text box of each cell, left to right; and any name cut short.
SHEET_HEADERS = """() => ({
  rows: [...document.querySelectorAll('.score-sheet thead tr')].map((tr) => [...tr.children].map((th) => {
    const r = document.createRange(); r.selectNodeContents(th); const b = r.getBoundingClientRect();
    return [th.textContent, b.left, b.right]; }).sort((a, b) => a[1] - b[1])),
  cut: [...document.querySelectorAll('.score-sheet .sh-name')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
  modal: document.querySelector(".overlay[data-kind='sheet'] .modal").getBoundingClientRect().width,
  scrolls: (() => { const e = document.querySelector('.sheet-scroll'); return e.scrollWidth > e.clientWidth; })(),
})"""


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_score_sheet_on_a_phone_on_its_side(server, open_page, lang):
    """844 x 390: the sheet takes the screen, its headings stand apart ("Us" and "Them" were 4 px apart) and the
    Hâkem's names are whole."""
    page = open_page(server + "/", viewport={"width": 844, "height": 390}, settings={"lang": lang})
    start_vs_computer(page, players=4, target=7, nickname="Sara")
    my_play_turn(page)
    # Three finished hands drawn from the view the page holds: a plain one, a kot and a Hâkem-koti.
    page.evaluate("""() => { const tb = window.hokmDebug.table; tb.view = { ...tb.view, results: [
        { hakem: 1, trump: "S", tricks: [7, 2], winner: 0, points: 1, kot: false, hakem_koti: false },
        { hakem: 2, trump: "H", tricks: [7, 0], winner: 0, points: 2, kot: true, hakem_koti: false },
        { hakem: 3, trump: "D", tricks: [0, 7], winner: 1, points: 3, kot: true, hakem_koti: true }] }; }""")
    page.click(".sheet-btn")
    page.wait_for_selector(".overlay[data-kind='sheet'] .score-sheet")
    got = page.evaluate(SHEET_HEADERS)
    assert got["modal"] >= 844 * 0.9 and not got["scrolls"] and not got["cut"], got
    close = [(a[0], b[0], round(b[1] - a[2], 1)) for row in got["rows"] for a, b in zip(row, row[1:]) if b[1] - a[2] < 12]
    assert not close, close
    assert page.locator(".sheet-close").is_visible()
    shot(page, f"landscape-{lang}-score-sheet")


# Every change of the trick on the cloth or of the status line, as (cards on the cloth, the status line's text).
WATCH_STATUS = """() => {
  window.statusSeen = [];
  const trick = document.querySelector("[data-testid=trick]"), line = document.querySelector(".status-line");
  const main = document.querySelector(".action-main");
  const note = () => window.statusSeen.push([trick.querySelectorAll(".trick-card").length, line.textContent,
                                             line.getAttribute("aria-live"), !!main.querySelector(".your-turn")]);
  new MutationObserver(note).observe(trick, { childList: true });
  new MutationObserver(note).observe(line, { childList: true, characterData: true, subtree: true });
  new MutationObserver(note).observe(main, { childList: true });
}"""


def test_the_status_line_says_who_took_the_trick_while_it_is_shown(server, open_page):
    """While a full trick lies on the cloth, the line under it says who took it, not whose turn it
    was before the last card (the turn comes back once the trick is swept away)."""
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR", settings={"speed": "normal"})
    start_vs_computer(page, players=4, target=7, nickname="Sara")
    page.evaluate(WATCH_STATUS)
    my_play_turn(page, "v.completed.length >= 4 && v.phase === 'play'")
    seen = page.evaluate("window.statusSeen")
    full = [(text, live) for cards, text, live, _ in seen if cards == 4]
    taken = [text for text, _ in full if text.startswith("این دور به") and text.endswith("رسید")]
    assert taken, seen  # the test saw full tricks, and what they said
    assert not [text for text, _ in full if text.startswith("در انتظار")], full
    # said aloud once, by the announcer: the line itself is not read out a second time
    assert all(live == "off" for text, live in full if text in taken)
    # "Your turn" goes as soon as your card is played: never beside the line saying what was just played (your
    # own card included) or who took the trick.
    assert any(turn for *_, turn in seen) and any(text.endswith("را بازی کردید") for _, text, _, _ in seen), seen
    assert not [(text, cards) for cards, text, live, turn in seen if turn and live == "off"], seen
    v = table_view(page)
    if not v["legal"]:
        assert page.locator(".status-line").get_attribute("aria-live") == "polite"


# Each time a trick's winner is marked (its card glows as the trick is swept to it): the seats that wear the turn's
# ring and a clock's ring then, the winner's seat and the last card's player's.
WATCH_TURN_AT_SWEEP = """() => {
  window.sweeps = [];
  const trick = document.querySelector("[data-testid=trick]");
  new MutationObserver(() => {
    const won = trick.querySelector(".trick-card.winner");
    if (!won || window.sweeps.some((s) => s.card === won.dataset.card)) return;
    const ringed = [...document.querySelectorAll(".seat.turn")].map((e) => Number(e.dataset.seat));
    const clocks = [...document.querySelectorAll(".seat.timing")].map((e) => Number(e.dataset.seat));
    const last = Number([...trick.querySelectorAll(".trick-card")].at(-1).dataset.seat);
    window.sweeps.push({ card: won.dataset.card, winner: Number(won.dataset.seat), last, ringed, clocks });
  }).observe(trick, { subtree: true, attributes: true, attributeFilter: ["class"] });
}"""


def test_the_turns_ring_moves_to_the_tricks_winner_while_the_trick_is_shown(server, open_page):
    """The ring that says whose turn it is stayed on the seat that played the last card while the full trick lay on
    the cloth and was swept away, over a second, while the line said who took it and the winner's own clock already
    ran: two seats looked as if it were theirs to play. It moves as each card lands, to the winner after the last."""
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR", settings={"speed": "normal"})
    start_vs_computer(page, players=4, target=7, nickname="Sara")
    page.evaluate(WATCH_TURN_AT_SWEEP)
    # until a trick was taken by another seat than its last card's (where the ring had to move)
    my_play_turn(page, "v.phase === 'play' && window.sweeps.some((s) => s.winner !== s.last)")
    sweeps = page.evaluate("window.sweeps")
    assert all(s["ringed"] == [s["winner"]] and set(s["clocks"]) <= {s["winner"]} for s in sweeps), sweeps


# The cloth's lower edge, the height of the line under it and the top of the hand's first card.
CLOTH_AND_LINE = """() => { const f = document.querySelector('.felt').getBoundingClientRect();
  const a = document.querySelector('[data-testid=timer-line]').getBoundingClientRect();
  return [Math.round(f.bottom), Math.round(a.height), Math.round(document.querySelector('[data-testid=hand] .card').getBoundingClientRect().top)]; }"""


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 390, "height": 844}], ids=["360", "390"])
def test_a_note_beside_your_turn_moves_nothing(server, open_page, viewport):
    """On a small phone what a draw took, beside «نوبت شماست» and the clock, took three lines and the pill two: the
    line under the cloth grew by 12 px, and the cloth shrank, for as long as the note showed. The note now takes the
    pill's place beside the clock, whole, and nothing moves."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=2, target=7, nickname="سارا")
    my_play_turn(page)
    page.wait_for_timeout(300)
    before = page.evaluate(CLOTH_AND_LINE)
    for lang, text in (("fa", "بی\u200cبی گشنیز را برداشتید و ۱۰ خشت سوخت"), ("en", "You kept queen of diamonds; 10 of clubs is burned")):
        page.evaluate("(text) => window.hokmDebug.table.note(text)", text)
        page.wait_for_function("() => !document.querySelector('.table-note').hidden")
        assert page.evaluate(CLOTH_AND_LINE) == before, lang
        # the note whole (no line cut off), the clock beside it on one line
        assert page.locator(".table-note").evaluate("(e) => e.scrollHeight <= e.clientHeight + 1"), lang
        assert page.locator(".my-timer").evaluate("(e) => e.getClientRects().length === 1 && e.getBoundingClientRect().height < 30")
        shot(page, f"note-beside-turn-{lang}-{viewport['width']}")


# The line under the cloth while our clock counts from 20 down to 10: the clock's width and the left edges of
# «نوبت شماست» and the status line, at each second (the table's clock told the time, its drawing asked again).
LINE_AS_THE_CLOCK_COUNTS = """() => {
  const table = window.hokmDebug.table, d = table.deadline, real = table.now, seen = [];
  try {
    for (let n = 20; n >= 10; n--) {
      table.now = () => d.at * 1000 - n * 1000 + 1;
      table.drawTimers();
      const box = (sel) => { const e = document.querySelector(sel); return e ? Math.round(e.getBoundingClientRect().left * 10) / 10 : null; };
      seen.push([n, document.querySelector('.my-timer').textContent, Math.round(document.querySelector('.my-timer').getBoundingClientRect().width * 10) / 10,
                 box('.your-turn'), box('.status-line')]);
    }
  } finally { table.now = real; table.drawTimers(); }
  return seen;
}"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_line_under_the_cloth_holds_still_while_the_clock_counts(server, open_page, lang):
    """The clock «۱۹ ثانیه مانده» drew its digits each in its own width: «۱۱» is 13 px narrower than «۸۸», and the
    centred line beside it («نوبت شماست») moved a pixel or more every second of our turn. Its digits now share one
    width, and nothing on the line moves while it counts (once, at 9, it loses a digit)."""
    page = open_page(server + "/", viewport=DESKTOP, locale="fa-IR" if lang == "fa" else "en-US", settings={"lang": lang})
    start_vs_computer(page, players=2, target=7, nickname="سارا")
    my_play_turn(page)
    seen = page.evaluate(LINE_AS_THE_CLOCK_COUNTS)
    assert len({text for _n, text, *_ in seen}) == 11, seen  # the clock said each second
    if lang == "fa":
        assert "۱۱" in seen[9][1] and "۱۸" in seen[2][1], seen
    widths, turns, statuses = ({row[i] for row in seen} for i in (2, 3, 4))
    assert len(widths) == 1 and len(turns) == 1 and len(statuses) == 1, seen


@pytest.mark.parametrize("choice", ["keep", "pass"])
def test_a_draw_says_what_it_took_and_what_it_burned(server, open_page, choice):
    """With two players the draw's dialog shows only the top card of the stock; the next card (burned after a keep,
    taken after a pass) was never shown. The line under the table now says both, in Persian."""
    page = open_page(server + "/", viewport=PHONE, settings={"lang": "fa", "nickname": "سارا"})
    page.locator(".seg[data-value='2']").first.click()
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)
    drawn = len(act_until_asked(page, "draw", 40)["draw_log"])
    page.locator(f".overlay [data-choice='{choice}']").click()
    page.wait_for_function(f"() => window.hokmDebug.table.view.draw_log.length > {drawn}", timeout=10000)
    d = table_view(page)["draw_log"][drawn]
    assert d["choice"] == choice
    ranks = {"A": "آس", "K": "شاه", "Q": "بی\u200cبی", "J": "سرباز", "T": "۱۰"}
    suits = {"S": "پیک", "H": "دل", "D": "خشت", "C": "گشنیز"}
    names = [f"{ranks.get(c[0], c[0].translate(FA_DIGITS))} {suits[c[1]]}" for c in (d["first"], d["second"])]
    said = f"{names[0]} را برداشتید و {names[1]} سوخت" if choice == "keep" else f"{names[0]} سوخت و {names[1]} را برداشتید"
    page.wait_for_function("(text) => document.querySelector('.table-note').textContent === text", arg=said, timeout=5000)
    assert not page.locator(".table-note").is_hidden()
    shot(page, f"phone-fa-draw-{choice}")
    if choice == "keep":
        # A turn to play begins with the note just up (the last draw's, as play starts): it stays long enough to be
        # read, then gives the line to the turn well before its usual 3 s, «نوبت شماست» on one line again.
        start = page.evaluate("""() => { const tb = window.hokmDebug.table; tb.note('۷ پیک را برداشتید و ۳ پیک سوخت');
          tb.view = { ...tb.view, phase: 'play', trick: [], legal: tb.view.hand.map((card) => ({ type: 'play', card })) };
          tb.turnShown = null; tb.render(); return performance.now(); }""")
        assert not page.locator(".table-note").is_hidden()
        page.wait_for_function("() => document.querySelector('.table-note').hidden", timeout=2500, polling=50)
        shown = page.evaluate("() => performance.now()") - start
        assert 1000 <= shown < 2500, shown
        shot(page, "phone-fa-draw-then-turn")
