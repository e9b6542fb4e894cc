"""User flows on the web table: the invite link, resuming a game, the discard, a refused card, the
last trick, the clock, the settings on a phone."""

from __future__ import annotations

import time

import pytest

from .conftest import PHONE, STRIP, act_once, act_until_asked, shot, table_view
from .test_persian import bad_numbers
from .test_table import wait_view

pytestmark = pytest.mark.browser

NEW_TABLE = """async ([players, mode, target, timers]) => {
    const { Api } = await import('./js/net.js');
    const api = new Api();
    const me = JSON.parse(localStorage.getItem('hokm.settings.v1') || '{}').nickname || 'Sara';
    await api.ensureGuest(me);
    return api.post('/api/tables', { mode, players, bot: 'random', rules: { target_points: target }, timers: timers || undefined });
}"""


def new_table(page, server: str, players: int = 4, mode: str = "computer", target: int = 7,  # type: ignore[no-untyped-def]
              timers: dict | None = None) -> dict:
    tbl = page.evaluate(NEW_TABLE, [players, mode, target, timers])
    if mode == "computer":
        page.goto(f"{server}/index.html#/table/{tbl['table_id']}")
        wait_view(page, "v.seat !== null")
    return tbl


def in_viewport(page, selector: str) -> bool:  # type: ignore[no-untyped-def]
    return page.evaluate(f"""() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }}""")


def test_an_invited_first_time_visitor_lands_on_the_join_step(server, open_page, browser):
    host = open_page(server + "/", settings={"nickname": "Host"})
    tbl = new_table(host, server, players=4, mode="private")
    guest = open_page(f"{server}/?join={tbl['code']}", viewport=PHONE, settings={"lang": "fa"})
    guest.wait_for_selector("[data-testid=invite]")
    # The join step, whole and on screen: the code, a name, Join; no home page, no toast over it.
    assert guest.locator("[data-testid=invite-code]").inner_text() == tbl["code"]
    assert in_viewport(guest, "#nickname") and in_viewport(guest, "#join-invite")
    assert guest.locator("#play-computer").count() == 0 and guest.locator(".toast").count() == 0
    assert guest.evaluate("document.activeElement.id") == "nickname"
    assert guest.locator("#nickname").get_attribute("dir") == "auto"  # a name in either script reads its own way
    shot(guest, "phone-fa-invite")
    guest.click("#join-invite")  # no name yet: it says so, in place
    assert guest.locator(".form-error").is_visible()
    guest.fill("#nickname", "مهمان")
    guest.click("#join-invite")
    guest.wait_for_selector(".seat-row .sit", timeout=10000)
    assert tbl["table_id"] in guest.url
    guest.locator(".seat-row .sit").first.click()
    guest.wait_for_function("() => [...document.querySelectorAll('.seat-who')].some((e) => e.textContent.includes('مهمان'))", timeout=10000)


def test_an_unfinished_game_is_offered_first_on_the_home_page(server, open_page):
    page = open_page(server + "/", viewport=PHONE, settings={"nickname": "Roya"})
    tbl = new_table(page, server, players=3)
    page.goto(server + "/#/")
    page.wait_for_selector("[data-testid=resume]", timeout=10000)
    first = page.evaluate("document.querySelector('main.home').firstElementChild.dataset.testid")
    assert first == "resumes" and in_viewport(page, "[data-testid=resume] .resume-btn")
    text = page.locator("[data-testid=resume]").inner_text()
    assert tbl["table_id"][:6] not in text and "Computer" in text, text
    # Names are joined by a comma: a middle dot between "Computer 2" and "Computer 3" reads as a zero in Persian.
    assert "Computer 2, Computer 3" in text and "\u00b7" not in text, text
    # What the game is: how many play and since when (today: the time alone).
    assert "3 players, since " in text and text.count(":") >= 2, text
    shot(page, "phone-en-resume")
    page.click("[data-testid=resume] .resume-btn")
    wait_view(page, f"window.hokmDebug.sock.tableId === {tbl['table_id']!r}")


def test_two_unfinished_games_are_told_apart_in_persian(server, open_page):
    page = open_page(server + "/", viewport=PHONE, settings={"nickname": "رویا", "lang": "fa"})
    new_table(page, server, players=3)
    new_table(page, server, players=4)
    page.goto(server + "/#/")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=resume]').length === 2", timeout=10000)
    panels = page.locator("[data-testid=resume] .resume-what").all_inner_texts()
    # Each names its own size in Persian digits, then since when, after a Persian comma.
    assert sorted(p.split("،")[0] for p in panels) == ["۳ نفره", "۴ نفره"], panels
    assert all("، از " in p and not bad_numbers(p) for p in panels), panels
    assert len(set(page.locator("[data-testid=resume]").all_inner_texts())) == 2
    # One panel holds both, a row each with its own button, so that a new game still begins on the first screen.
    assert page.locator(".panel-resume").count() == 1
    assert page.locator(".panel-resume h2").inner_text() == "بازی‌های نیمه‌تمام شما"
    assert page.locator("[data-testid=resume] .resume-btn").all_inner_texts() == ["بازگشت به بازی"] * 2
    # One under the other at every width, never one over the other (a wide page's grid has one cell for them).
    for size in (PHONE, {"width": 390, "height": 844}, {"width": 1440, "height": 900}):
        page.set_viewport_size(size)
        boxes = [page.locator("[data-testid=resume]").nth(i).bounding_box() for i in range(2)]
        assert boxes[0]["y"] + boxes[0]["height"] <= boxes[1]["y"], (size, boxes)
        assert in_viewport(page, "[data-testid=resume]:last-child .resume-btn")
        assert in_viewport(page, ".panel-computer h2"), size
        shot(page, f"fa-two-games-{size['width']}")


# The chosen cards' boxes and their ✓ badges (an ::after box laid out from the card's own box), with what lies
# on top at the middle of each badge.
CHOSEN_BOXES = """() => [...document.querySelectorAll('.hand .card.selected')].map((el) => {
  const r = el.getBoundingClientRect(), a = getComputedStyle(el, '::after');
  const badge = { left: r.left + parseFloat(a.left), top: r.top + parseFloat(a.top), width: parseFloat(a.width), height: parseFloat(a.height) };
  const hit = document.elementFromPoint(badge.left + badge.width / 2, badge.top + badge.height / 2);
  return { card: el.dataset.card, box: { left: r.left, top: r.top, width: r.width, height: r.height }, badge, mark: a.content,
           onTop: !!hit && hit.closest('.card') === el, ring: getComputedStyle(el.querySelector('img')).boxShadow };
})"""


def choose_cards_under(page, need: int) -> list[str]:  # type: ignore[no-untyped-def]
    """Choose ``need`` cards for the discard, those lying under the Confirm button first (none chosen before)."""
    while page.locator(".hand .card.selected").count():
        page.locator(".hand .card.selected").first.click(position=STRIP)
    button = page.locator(".discard-confirm").bounding_box()
    boxes = page.eval_on_selector_all(".hand .card", "els => els.map((e) => { const r = e.getBoundingClientRect(); return [e.dataset.card, r.left, r.right]; })")
    mid = button["x"] + button["width"] / 2
    under = sorted(boxes, key=lambda b: (not (b[1] < button["x"] + button["width"] and b[2] > button["x"]), abs((b[1] + b[2]) / 2 - mid)))
    chosen = [b[0] for b in under[:need]]
    for card in chosen:
        page.locator(f".hand .card[data-card='{card}']").click(position=STRIP)
    return chosen


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_two_player_discard_shows_the_chosen_cards_clear_of_the_button(server, open_page, lang):
    page = open_page(server + "/", viewport={"width": 390, "height": 844}, settings={"nickname": "Dara", "lang": lang})
    new_table(page, server, players=2)
    v = act_until_asked(page, "discard")
    need = len(v["legal"][0]["cards"])
    problems = []
    # The phone upright and on its side, a small phone and a desktop: the cards chosen are those under the button.
    for w, h in [(390, 844), (844, 390), (360, 740), (1440, 900), (740, 360)]:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(80)
        chosen = choose_cards_under(page, need)
        assert page.locator(".hand .card.selected").count() == need
        # How many are chosen, in words: a slash between Persian digits reads as a decimal point ("۴/۴" is 4.4).
        label = page.locator(".discard-confirm").inner_text()
        if lang == "fa":
            n = str(need).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
            assert label == f"تأیید ({n} از {n})" and not bad_numbers(label), label
        else:
            assert label == f"Confirm ({need}/{need})", label
        button = page.locator(".discard-confirm").bounding_box()
        for c in page.evaluate(CHOSEN_BOXES):
            assert c["ring"] and c["ring"] != "none", "a chosen card must be ringed"
            assert c["mark"] == '"✓"' and c["onTop"], c  # ticked, and no other card lies over the tick
            for part in ("box", "badge"):
                b = c[part]
                beside = b["left"] >= button["x"] + button["width"] or b["left"] + b["width"] <= button["x"]
                if not beside and b["top"] < button["y"] + button["height"] + 2:
                    problems.append(f"{w}x{h} {c['card']} {part} {b} under the button {button} (chosen {chosen})")
        shot(page, f"discard-{lang}-{w}x{h}")
    assert not problems, "\n".join(problems)
    page.click(".discard-confirm")
    wait_view(page, "!v.legal.length || v.legal[0].type !== 'discard'")


# What the table's short note lies over: a seat (your own name included), the trick, a card of the hand, the top bar.
NOTE_COVERS = """() => {
  const n = document.querySelector('[data-testid=table-note]').getBoundingClientRect();
  const over = (r) => Math.min(n.right, r.right) - Math.max(n.left, r.left) > 0.5 && Math.min(n.bottom, r.bottom) - Math.max(n.top, r.top) > 0.5;
  return [...document.querySelectorAll('.seat, .seat-name, .trick-card, .hand .card, [data-testid=top-bar], .talk-btn')]
    .filter((e) => over(e.getBoundingClientRect())).map((e) => e.className + ' ' + e.textContent.trim().slice(0, 20));
}"""


def note_covers(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.evaluate(NOTE_COVERS)


@pytest.mark.parametrize("lang,viewport", [("en", PHONE), ("fa", {"width": 390, "height": 844})], ids=["en-360", "fa-390"])
def test_a_refused_card_shakes_and_says_why(server, open_page, lang, viewport):
    page = open_page(server + "/", viewport=viewport, settings={"nickname": "Kian", "lang": lang})
    new_table(page, server, players=4)
    deadline = time.monotonic() + 90
    target = None
    while time.monotonic() < deadline:
        v = table_view(page)
        if v and v["phase"] == "play" and v["legal"] and v["trick"]:
            legal = {a["card"] for a in v["legal"]}
            others = [c for c in v["hand"] if c not in legal]
            if others:
                target = others[0]
                break
        act_once(page)
        page.wait_for_timeout(40)
    assert target, "never held a card the rules refuse"
    led = table_view(page)["trick"][0]["card"][1]
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[led]
    suit_fa = {"S": "پیک", "H": "دل", "D": "خشت", "C": "گشنیز"}[led]
    # Tap the card's own visible strip (its top-left corner: later cards lie over its right side and lower rows over its foot).
    page.locator(f".hand .card[data-card='{target}']").click(position={"x": 14, "y": 18})
    page.wait_for_selector(f".hand .card.shake[data-card='{target}']", timeout=5000)
    note = page.locator("[data-testid=table-note]")
    note.wait_for(state="visible", timeout=5000)
    # "a hearts card" is «یک کارت دل» (not «یک دل», "one heart").
    assert note.inner_text() == (f"You must follow suit: play a card in {suit}" if lang == "en"
                                 else f"باید خال زمینه را بازی کنید: یک کارت {suit_fa}"), note.inner_text()
    assert not note_covers(page), note_covers(page)
    # It takes the status's place only: the clock of the turn stays in sight beside it.
    timer = page.locator(".my-timer")
    assert timer.is_visible() and timer.inner_text().strip(), timer.inner_text()
    shot(page, f"phone-{lang}-refused-card")
    assert target in table_view(page)["hand"]  # nothing was played


@pytest.mark.parametrize("viewport", [PHONE, {"width": 844, "height": 390}], ids=["portrait", "landscape"])
def test_last_trick_review_shows_the_winning_card_whole(server, open_page, viewport):
    page = open_page(server + "/", viewport=viewport, settings={"nickname": "Mina"})
    new_table(page, server, players=4)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        v = table_view(page)
        if v and v["completed"] and v["legal"] and v["phase"] == "play":
            break
        act_once(page)
        page.wait_for_timeout(40)
    page.click(".last-btn")
    winner = page.locator(".last-trick .trick-card.winner")
    winner.wait_for()
    # Every part of the winning card is the winning card: nothing lies over it.
    covered = winner.evaluate("""(w) => {
        const r = w.getBoundingClientRect(); const bad = [];
        for (const fx of [0.1, 0.5, 0.9]) for (const fy of [0.1, 0.5, 0.9]) {
          const el = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
          if (!el || !w.contains(el) && el !== w) bad.push([fx, fy, el && el.className]);
        }
        return bad; }""")
    assert not covered, covered
    # The whole review fits the screen, phone upright or on its side: Close needs no scrolling to find.
    fit = page.evaluate("""() => { const m = document.querySelector(".overlay[data-kind='last'] .modal");
        const r = document.querySelector('.review-close').getBoundingClientRect();
        return [m.scrollHeight - m.clientHeight, r.bottom <= innerHeight, [...m.querySelectorAll('.review-name')].every((n) => {
          const b = n.getBoundingClientRect(), mb = m.getBoundingClientRect();
          // Each player's name under their card is inside the box and not under another card.
          return b.bottom <= mb.bottom && b.top >= mb.top && n.contains(document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2)); })]; }""")
    assert fit[0] <= 1 and fit[1] and fit[2], fit
    shot(page, f"phone-en-last-trick-{viewport['width']}x{viewport['height']}")


def test_the_clock_never_sits_beside_waiting_for_someone_else(server, open_page):
    page = open_page(server + "/", viewport=PHONE, settings={"nickname": "Omid", "speed": "fast"})
    new_table(page, server, players=4)
    page.evaluate("""() => {
        window.clockClash = [];
        const look = () => {
          const s = document.querySelector('.status-line'), c = document.querySelector('.my-timer');
          if (s && c && s.textContent && c.textContent) window.clockClash.push(s.textContent + ' | ' + c.textContent);
          requestAnimationFrame(look);
        };
        look();
    }""")
    plays = 0
    deadline = time.monotonic() + 60
    while plays < 8 and time.monotonic() < deadline:
        if act_once(page) == "play":
            plays += 1
        page.wait_for_timeout(40)
    assert plays >= 4
    assert page.evaluate("window.clockClash") == []


# Each group of designs in the settings sheet: the sheet's content box (inside its padding), and each swatch's box.
SWATCH_GROUPS = """() => {
  const sheet = document.querySelector('.sheet.settings'), cs = getComputedStyle(sheet), r = sheet.getBoundingClientRect();
  const inner = [r.left + parseFloat(cs.paddingLeft), r.right - parseFloat(cs.paddingRight)];
  return { inner, groups: [...sheet.querySelectorAll('.swatches')].map((g) => ({ name: g.getAttribute('aria-label'),
    boxes: [...g.children].map((e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }) })) };
}"""


@pytest.mark.parametrize("lang,viewport", [("en", PHONE), ("fa", PHONE), ("fa", {"width": 390, "height": 844}),
                                           ("en", {"width": 844, "height": 390})], ids=["en-360", "fa-360", "fa-390", "en-844"])
def test_settings_swatches_fit_the_sheet_in_even_rows(server, open_page, lang, viewport):
    """Every design keeps a 44 px target inside the sheet's padding, none overlaps another, and a group that needs
    more than one row takes even ones (themes 5 + 4, avatars 4 x 4 on a 360 px phone, not 5 + 5 + 5 + 1)."""
    page = open_page(server + "/", viewport=viewport, settings={"lang": lang})
    page.click(".settings-btn")
    page.wait_for_selector(".sheet.settings .swatches")
    got = page.evaluate(SWATCH_GROUPS)
    (left, right), problems = got["inner"], []
    for g in got["groups"]:
        boxes = g["boxes"]
        rows: dict[int, int] = {}
        for b in boxes:
            rows[round(b[1])] = rows.get(round(b[1]), 0) + 1
        counts = list(rows.values())
        if len(boxes) < 7 or min(b[2] - b[0] for b in boxes) < 44:
            problems.append(f"{g['name']}: targets under 44 px {boxes}")
        if any(b[0] < left - 0.5 or b[2] > right + 0.5 for b in boxes):
            problems.append(f"{g['name']}: past the sheet's padding {left}..{right}: {boxes}")
        if any(min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5
               for i, a in enumerate(boxes) for b in boxes[i + 1:]):
            problems.append(f"{g['name']}: swatches overlap")
        if max(counts) - min(counts) > 1:
            problems.append(f"{g['name']}: uneven rows {counts}")
    shot(page, f"phone-{lang}-settings-{viewport['width']}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_home_page_on_a_phone_on_its_side_starts_with_what_to_do(server, open_page, lang):
    """844x390: the first screen shows the name box and the game against the computer, not only a big title."""
    page = open_page(server + "/", viewport={"width": 844, "height": 390}, settings={"lang": lang})
    page.wait_for_selector("#play-computer")
    assert in_viewport(page, "#nickname") and in_viewport(page, ".home .seg"), page.evaluate(
        "() => ['#nickname', '.home .seg'].map((q) => document.querySelector(q).getBoundingClientRect().bottom)")
    shot(page, f"landscape-{lang}-home")


RULES_PARTS = """() => [...document.querySelectorAll('[data-testid=rules] .rules-part')].map((p) => p.innerText)"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_rules_open_from_the_home_page_and_the_tables_menu(server, open_page, lang):
    """A new player had nowhere to learn the game: the rules, as the engine plays them, open in a sheet from the home
    page and from the table's menu (the game goes on under it), each part under its heading, every one of them in
    reach on a small phone."""
    page = open_page(server + "/", viewport={"width": 360, "height": 640}, locale="fa-IR" if lang == "fa" else "en-US",
                     settings={"lang": lang})
    page.click("[data-testid=open-rules]")
    page.wait_for_selector("[data-testid=rules]")
    parts = page.evaluate(RULES_PARTS)
    assert len(parts) == 8, parts
    words = ("حاکم", "حکم", "کُت", "حاکم‌کُتی", "۷ دور", "برمی‌دارد", "می‌سوزاند", "سمت راست") if lang == "fa" else \
        ("Hâkem", "Hokm", "kot", "Hâkem-koti", "7 tricks", "keeps it", "burns", "on his right")
    text = "\n".join(parts).replace("\u00a0", " ")  # a number and its word stay on one line
    assert all(w in text for w in words), [w for w in words if w not in text]
    if lang == "fa":
        assert not [bad for part in parts if (bad := bad_numbers(part))]
    # Scrolled to its end, the last part shows whole, and its close button is still there.
    page.evaluate("() => { document.querySelector('[data-testid=rules]').scrollTop = 1e6; }")
    last = page.locator("[data-testid=rules] .rules-part").last.bounding_box()
    assert last and last["y"] + last["height"] <= 640, last
    shot(page, f"rules-{lang}-360x640")
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=rules]").count() == 0
    # At the table: the menu offers them, and the table is still there when they close.
    page.fill("#nickname", "سارا" if lang == "fa" else "Sara")
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)
    # (The first ace's draw, and the Hokm to choose where we are the Hâkem, lie over the bar for their moment.)
    deadline = time.monotonic() + 30
    while page.locator(".overlay:not([hidden])").count() and time.monotonic() < deadline:
        act_once(page)
        page.wait_for_timeout(100)
    page.click(".table-bar .menu-btn")
    page.click("[data-testid=menu-rules]")
    page.wait_for_selector("[data-testid=rules]")
    assert page.evaluate(RULES_PARTS) == parts
    page.locator("[data-testid=rules] .sheet-head button").click()
    assert page.locator("[data-testid=rules]").count() == 0
    assert page.evaluate("() => !!(window.hokmDebug && window.hokmDebug.table.view)")
