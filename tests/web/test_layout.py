"""The table's layout at phone, tablet and desktop sizes, both orientations, 2-4 players, both languages.

One game per player count and language is brought to a trick in progress; the same page is then
resized through every viewport and measured: the top bar, each seat, the trick, the timer line and
the hand must not overlap, and every card of the hand must be at least 40 px wide and on screen.
A screenshot of each state goes to test-artifacts/web/layout/ for a person to look at.
"""

from __future__ import annotations

import re
import time

import pytest

from .conftest import act_once, act_until_asked, shot, table_view
from .test_feel import my_play_turn
from .test_table import start_vs_computer

pytestmark = pytest.mark.browser

VIEWPORTS = [
    (360, 740), (390, 844),  # phones, upright
    (844, 390), (740, 360), (667, 375),  # phones, on their side
    (768, 1024), (1024, 768),  # tablets
    (1440, 900), (1920, 1080),  # desktops
]

# Every block the layout places, by its test id; a trick's box includes the cards lying in it.
MEASURE = """() => {
  const box = (els) => {
    const rs = els.filter(Boolean).map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    if (!rs.length) return null;
    return { left: Math.min(...rs.map((r) => r.left)), top: Math.min(...rs.map((r) => r.top)),
             right: Math.max(...rs.map((r) => r.right)), bottom: Math.max(...rs.map((r) => r.bottom)) };
  };
  const q = (s) => document.querySelector(s);
  const out = { blocks: {}, cards: [], vw: innerWidth, vh: innerHeight,
                scrollW: document.scrollingElement.scrollWidth, scrollH: document.scrollingElement.scrollHeight };
  out.blocks["top-bar"] = box([q("[data-testid=top-bar]")]);
  out.me = q(".seat.me") ? q(".seat.me").dataset.testid : null;
  out.rtl = document.documentElement.dir === "rtl"; // the hand reads in the page's direction
  for (const s of document.querySelectorAll("[data-testid^=seat-]")) out.blocks[s.dataset.testid] = box([s]);
  out.blocks.trick = box([q("[data-testid=trick]"), ...document.querySelectorAll("[data-testid=trick] .trick-card")]);
  // The status text ("Waiting for ...") belongs to the timer line wherever the page puts it.
  out.blocks["timer-line"] = box([q("[data-testid=timer-line]"), q(".status-line:not(:empty)")]);
  out.blocks.hand = box([...document.querySelectorAll("[data-testid=hand] .card")]);
  // A side's name in the score line must be read whole ("Computer 2", not "Comp…").
  out.cut = [...document.querySelectorAll("[data-testid=top-bar] .flower-name")]
    .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent);
  // ...nor broken inside a word ("Compu" over "ter 2"): each word of a name lies on one line.
  out.broken = [...document.querySelectorAll("[data-testid=top-bar] .flower-name")].filter((e) => {
    const text = e.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return false;
    let at = 0;
    return text.data.split(/[\\s\\u00a0]/).some((word) => {
      const r = document.createRange();
      r.setStart(text, at); r.setEnd(text, at + word.length); at += word.length + 1;
      return word.length > 1 && new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size > 1;
    });
  }).map((e) => e.textContent);
  // The chat button in the cloth's corner is a block of its own: over no seat and no card.
  out.blocks.talk = box([q("[data-testid=talk]")]);
  for (const c of document.querySelectorAll("[data-testid=hand] .card")) {
    const r = c.getBoundingClientRect();
    out.cards.push({ card: c.dataset.card, suit: c.dataset.card.slice(-1), left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width });
  }
  return out;
}"""


def overlaps(a: dict, b: dict) -> bool:
    # Touching edges (shared pixel rows) are not an overlap; half a pixel of rounding is allowed.
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 and \
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5


def layout_problems(m: dict) -> list[str]:
    problems = []
    blocks = {k: v for k, v in m["blocks"].items() if v}
    for required in ("top-bar", "trick", "timer-line", "hand"):
        if required not in blocks:
            problems.append(f"{required} is missing")
    names = sorted(blocks)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if overlaps(blocks[a], blocks[b]):
                problems.append(f"{a} overlaps {b}: {blocks[a]} / {blocks[b]}")
    for name, r in blocks.items():
        if r["left"] < -0.5 or r["top"] < -0.5 or r["right"] > m["vw"] + 0.5 or r["bottom"] > m["vh"] + 0.5:
            problems.append(f"{name} is not fully on screen: {r}")
    for c in m["cards"]:
        if c["width"] < 40:
            problems.append(f"card {c['card']} is {c['width']:.0f} px wide")
        if c["left"] < -0.5 or c["top"] < -0.5 or c["right"] > m["vw"] + 0.5 or c["bottom"] > m["vh"] + 0.5:
            problems.append(f"card {c['card']} is not fully on screen: {c}")
    problems += own_seat_problems(m, blocks)
    problems += row_break_problems(m["cards"], m["rtl"])
    if m["cut"]:
        problems.append(f"names cut short in the score line: {m['cut']}")
    if m["broken"]:
        problems.append(f"names broken inside a word in the score line: {m['broken']}")
    if m["scrollW"] > m["vw"] or m["scrollH"] > m["vh"]:
        problems.append(f"the page scrolls: {m['scrollW']}x{m['scrollH']}")
    return problems


def own_seat_problems(m: dict, blocks: dict) -> list[str]:
    """Your seat sits below the trick and above (or beside) your hand, never beside a side opponent."""
    me = blocks.get(m["me"]) if m["me"] else None
    if not me or "trick" not in blocks:
        return [] if not m["me"] else [f"own seat {m['me']} is not shown"]
    problems = []
    if me["top"] < blocks["trick"]["bottom"] - 0.5:
        problems.append(f"own seat is not below the trick: {me} / {blocks['trick']}")
    for side in ("seat-left", "seat-right"):
        if side in blocks and me["top"] < blocks[side]["bottom"] - 0.5:
            problems.append(f"own seat sits beside {side}, not below it: {me} / {blocks[side]}")
    hand = blocks.get("hand")
    if hand and me["bottom"] > hand["top"] + 0.5 and not (me["right"] <= hand["left"] + 0.5 or me["left"] >= hand["right"] - 0.5):
        problems.append(f"own seat is neither above nor beside the hand: {me} / {hand}")
    return problems


def row_break_problems(cards: list[dict], rtl: bool = False) -> list[str]:
    """When the hand takes more than one row, a row ends where the suit changes; only a suit longer than a row
    (more cards than the longest row holds) may go on in the next row."""
    rows: list[list[dict]] = []
    # In hand order along a row: left to right, or right to left in a right-to-left page; a card back at the row's
    # start (the left, or the right) starts the next row.
    for c in cards:
        if rows and (c["right"] < rows[-1][-1]["right"] if rtl else c["left"] > rows[-1][-1]["left"]):
            rows[-1].append(c)
        else:
            rows.append([c])
    longest = max((len(r) for r in rows), default=0)
    run = {s: sum(1 for c in cards if c["suit"] == s) for s in {c["suit"] for c in cards}}  # a suit is one run: the hand is sorted
    return [f"a row breaks inside a suit of {run[a[-1]['suit']]} cards (rows of up to {longest}): {a[-1]['card']} | {b[0]['card']}"
            for a, b in zip(rows, rows[1:]) if a[-1]["suit"] == b[0]["suit"] and run[a[-1]["suit"]] <= longest]


def bring_to_trick(page, players: int) -> None:  # type: ignore[no-untyped-def]
    """Play until a trick is on the table and the page waits for our card (or as close as we get)."""
    start = time.monotonic()
    while time.monotonic() < start + 90:
        v = table_view(page)
        if v and v["phase"] == "play" and v["legal"] and (v["trick"] or time.monotonic() > start + 20):
            return
        act_once(page)
        page.wait_for_timeout(40)
    v = table_view(page)
    assert v and v["phase"] == "play", f"the {players}-player game never reached a trick"


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_table_layout_at_every_size(server, open_page, lang):
    failures: list[str] = []
    page = open_page(server + "/", viewport={"width": 390, "height": 844}, settings={"lang": lang})
    for players in (2, 3, 4):
        page.goto(server + "/#/")
        page.wait_for_selector("#play-computer")
        page.wait_for_function("() => !window.hokmDebug")  # the last game's table is gone
        start_vs_computer(page, players=players, target=7)
        bring_to_trick(page, players)
        for w, h in VIEWPORTS:
            page.set_viewport_size({"width": w, "height": h})
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            page.wait_for_timeout(60)
            m = page.evaluate(MEASURE)
            seats = [k for k in m["blocks"] if k.startswith("seat-")]
            if len(seats) != players:
                shot(page, f"layout/{lang}-{players}p-{w}x{h}-missing-seats")
            assert len(seats) == players, (seats, page.url, page.locator("body").inner_text()[:300])
            failures += [f"{lang} {players}p {w}x{h}: {p}" for p in layout_problems(m)]
            shot(page, f"layout/{lang}-{players}p-{w}x{h}")
    assert not failures, "\n".join(failures)


# Hands that have split a suit across rows: four spades broken "A♠ 10♠ | 9♠ 2♠" on a 360 px phone beside nine clubs
# (which are longer than a row and may split), and hands of even suits, a lone long suit, thirteen and seventeen cards.
FIXED_HANDS = [
    ("C", ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "5C", "4C", "9D", "AS", "TS", "9S", "2S", "AH", "8H", "5H"]),
    ("S", ["AS", "KS", "9S", "4S", "3S", "AH", "QH", "7H", "6H", "KC", "JC", "9C", "8C", "2C", "KD", "QD", "5D"]),
    ("H", ["AS", "KS", "QS", "JS", "AH", "KH", "5H", "AC", "QC", "7C", "3C", "9D", "2D"]),
    ("D", ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "2D", "3S", "4H"]),
    ("S", ["AS", "TS", "9S", "2S", "KH", "QH", "JH", "TH", "9H", "AC", "3C", "AD", "KD", "QD", "JD", "TD", "2D"]),
]

SHOW_HAND = """([trump, hand]) => {
  const tb = window.hokmDebug.table;
  tb.view = { ...tb.view, trump, hand, hand_size: hand.length, legal: hand.filter((c) => c[1] === hand[0][1]).map((card) => ({ type: "play", card })) };
  tb.handCount = 0;
  tb.renderHand();
}"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_fixed_hands_keep_each_suit_that_fits_a_row_whole(server, open_page, lang):
    """The same hands every run (not a random deal): a row breaks inside a suit only when the suit is longer than a row."""
    page = open_page(server + "/", viewport={"width": 360, "height": 740}, settings={"lang": lang})
    start_vs_computer(page, players=4, target=7)
    bring_to_trick(page, 4)
    failures: list[str] = []
    for k, (trump, hand) in enumerate(FIXED_HANDS):
        for w, h in [(360, 740), (390, 844), (844, 390), (740, 360), (768, 1024)]:
            page.set_viewport_size({"width": w, "height": h})
            page.evaluate(SHOW_HAND, [trump, hand])
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            m = page.evaluate(MEASURE)
            assert sorted(c["card"] for c in m["cards"]) == sorted(hand)
            problems = row_break_problems(m["cards"], m["rtl"])
            problems += [f"card {c['card']} is {c['width']:.0f} px wide" for c in m["cards"] if c["width"] < 40]
            problems += [f"card {c['card']} is off screen" for c in m["cards"] if c["right"] > w + 0.5 or c["bottom"] > h + 0.5 or c["left"] < -0.5]
            failures += [f"hand {k} at {w}x{h}: {p}" for p in problems]
            if k == 0:
                shot(page, f"layout/fixed-hand-{lang}-{w}x{h}")
    assert not failures, "\n".join(failures)


def test_a_sheet_over_the_table_covers_every_row_of_the_hand(server, open_page):
    """The score sheet opened on a phone while our cards wait in two rows: no card of the lower row shows (or takes a
    tap) over the sheet, which takes the whole screen. The hand's rows stack inside the hand, not over the page."""
    page = open_page(server + "/", viewport={"width": 390, "height": 844}, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=7)
    bring_to_trick(page, 4)
    # A full hand of thirteen, whatever trick a slow machine reached: fewer cards may fit one row.
    page.evaluate(SHOW_HAND, list(FIXED_HANDS[2]))
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    rows = page.evaluate("() => new Set([...document.querySelectorAll('.hand .card')].map((c) => c.style.getPropertyValue('--y'))).size")
    assert rows >= 2, f"{rows} row(s): the hand should lie in two rows on an upright phone"
    page.click(".sheet-btn")
    page.wait_for_selector(".overlay[data-kind='sheet'] .modal")
    shown = page.evaluate("""() => { const o = document.querySelector(".overlay[data-kind='sheet']");
      return [...document.querySelectorAll('.hand .card')].map((c) => {
        const r = c.getBoundingClientRect(); return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); })
        .filter((hit) => hit && !o.contains(hit)).map((hit) => { const c = hit.closest('.card'); return c ? c.dataset.card : hit.className; }); }""")
    shot(page, "layout/fa-4p-390x844-sheet-over-hand")
    assert not shown, f"cards over the score sheet: {shown}"


def test_the_card_from_the_stock_leaves_the_hand_in_sight(server, open_page):
    """With two players, each turn of the draw asks whether to keep the top card of the stock: the hand it is
    weighed against must stay in sight. On a phone on its side the dialog ran down over the whole hand."""
    page = open_page(server + "/", viewport={"width": 844, "height": 390}, settings={"lang": "fa"})
    start_vs_computer(page, players=2, target=7)
    act_until_asked(page, "draw", 40)
    page.wait_for_selector(".overlay[data-kind='draw'] .modal")
    covered = []
    for w, h in [(844, 390), (740, 360), (390, 844), (360, 740), (1440, 900)]:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        hidden = page.evaluate("""() => {
          const m = document.querySelector(".overlay[data-kind='draw'] .modal").getBoundingClientRect();
          return [...document.querySelectorAll(".hand .card")].map((c) => c.getBoundingClientRect())
            .filter((r) => r.top < m.bottom && r.bottom > m.top && r.left < m.right && r.right > m.left).length;
        }""")
        if hidden:
            covered.append(f"{w}x{h}: {hidden} cards under the dialog")
        shot(page, f"layout/fa-2p-draw-{w}x{h}")
    assert not covered, covered


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 360, "height": 740}, {"width": 844, "height": 390}],
                         ids=["390x844", "360x740", "844x390"])
def test_the_hokm_chooser_leaves_the_scores_in_sight(server, open_page, viewport):
    """On a phone held upright the bar takes two rows, and the Hokm chooser opened over the second: the scores.
    It opens under the bar, with its five cards and its four suits on the screen."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=7)
    bring_to_trick(page, 4)
    # The chooser as the Hâkem meets it: the first five cards, the suits to choose from, no Hokm yet.
    page.evaluate("""() => { const tb = window.hokmDebug.table; tb.closeModal();
      tb.view = { ...tb.view, phase: 'trump', trump: null, hand: tb.view.hand.slice(0, 5), hand_size: 5, trick: [],
        legal: ['S', 'H', 'D', 'C'].map((suit) => ({ type: 'trump', suit })) };
      tb.summaryUntil = 0; tb.render(); }""")
    page.wait_for_selector(".overlay[data-kind='trump'] .suit-btn")
    found = page.evaluate("""() => {
      const m = document.querySelector(".overlay[data-kind='trump'] .modal").getBoundingClientRect();
      const covered = [...document.querySelectorAll("[data-testid=top-bar] .flower-box")].filter((e) => {
        const r = e.getBoundingClientRect(); return r.top < m.bottom && r.bottom > m.top && r.left < m.right && r.right > m.left; })
        .map((e) => e.textContent.trim());
      const off = [...document.querySelectorAll(".overlay[data-kind='trump'] .five img, .overlay[data-kind='trump'] .suit-btn")]
        .map((e) => e.getBoundingClientRect()).filter((r) => r.top < m.top || r.bottom > Math.min(m.bottom, innerHeight)).length;
      return { covered, off }; }""")
    shot(page, f"layout/fa-4p-{viewport['width']}x{viewport['height']}-hokm-chooser")
    assert found == {"covered": [], "off": 0}, found


@pytest.mark.parametrize(("viewport", "players"), [
    ({"width": 844, "height": 390}, 4), ({"width": 740, "height": 360}, 4), ({"width": 390, "height": 844}, 4),
    ({"width": 360, "height": 640}, 4), ({"width": 1440, "height": 900}, 4), ({"width": 390, "height": 844}, 3),
    ({"width": 360, "height": 640}, 3)], ids=["844x390", "740x360", "390x844", "360x640", "1440x900", "3p-390x844", "3p-360x640"])
def test_every_card_of_a_trick_shows_its_rank(server, open_page, viewport, players):
    """On a phone on its side the trick is low: the partner's card lay over the top of yours, rank and all, and the
    cloth's rim over its foot; on a phone held upright the partner's card lay over the upper corner of the right-hand
    seat's, whose rank then read upside down only. Each card's upper corner, where its rank reads upright, shows,
    whichever card was played over it."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=players, target=7)
    bring_to_trick(page, players)
    hidden = []
    for leader in range(players):  # each order of play: each card once under the ones played after it
        hidden += page.evaluate("""async (leader) => { const tb = window.hokmDebug.table; const me = tb.view.seat;
          const n = tb.view.players, cards = ['7S', '8S', '9S', 'TS'].slice(0, n);
          tb.view = { ...tb.view, trick: cards.map((card, k) => ({ seat: (me + leader + k) % n, card })) };
          tb.renderTrick();
          await Promise.all([...document.querySelectorAll('.trick-card img')].map((i) => i.decode().catch(() => null)));
          // A card's rank is in two corners; the upper one reads upright (the lower one is upside down, and on a
          // phone on its side lies on the cloth's rim).
          const shows = (c, x, y) => { const hit = document.elementFromPoint(x, y); return hit && c.contains(hit); };
          return [...document.querySelectorAll('.trick-card')].filter((c) => {
            const r = c.getBoundingClientRect();
            return !shows(c, r.left + r.width * 0.14, r.top + r.height * 0.1); })
            .map((c) => `${c.dataset.pos} ${c.dataset.card} (leader ${leader})`); }""", leader)
    shot(page, f"layout/fa-{players}p-{viewport['width']}x{viewport['height']}-trick-ranks")
    assert hidden == [], hidden


TRICK_BOXES = """async () => { const tb = window.hokmDebug.table; const me = tb.view.seat; const n = tb.view.players;
  tb.view = { ...tb.view, trick: ['7S', '8S', '9S', 'TS'].slice(0, n).map((card, k) => ({ seat: (me + 1 + k) % n, card })) };
  tb.renderTrick();
  await Promise.all([...document.querySelectorAll('.trick-card img')].map((i) => i.decode().catch(() => null)));
  return Object.fromEntries([...document.querySelectorAll('.trick-card')].map((c) => {
    const r = c.querySelector('img').getBoundingClientRect();
    return [c.dataset.pos, { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }]; })); }"""


@pytest.mark.parametrize("players", [4, 3])
@pytest.mark.parametrize("viewport", [{"width": 740, "height": 360}, {"width": 844, "height": 390}, {"width": 360, "height": 640},
                                      {"width": 390, "height": 844}], ids=["740x360", "844x390", "360x640", "390x844"])
def test_a_trick_says_whose_card_is_whose_and_its_cards_read(server, open_page, viewport, players):
    """On a phone on its side the left seat's card lay 7 px from yours and 37 px wide: the three read as one row, and
    whose card was whose was a guess. Each seat's card now lies at least half a card from yours, and the trick's
    cards are at least 44 px wide on every phone (41 px at 360 x 640, 37 on its side, their ranks a few pixels)."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=players, target=7)
    bring_to_trick(page, players)
    boxes = page.evaluate(TRICK_BOXES)
    shot(page, f"layout/fa-{players}p-{viewport['width']}x{viewport['height']}-whose-card")
    mine = boxes["bottom"]
    problems = [f"{pos} {b['width']:.0f} px wide" for pos, b in boxes.items() if b["width"] < 44]
    for pos in ("left", "right"):
        # A side seat's card at about your card's height reads as one row with it: half a card or more between them.
        b = boxes[pos]
        level = min(b["bottom"], mine["bottom"]) - max(b["top"], mine["top"]) > (mine["bottom"] - mine["top"]) / 2
        apart = max(b["left"] - mine["right"], mine["left"] - b["right"])
        if level and apart < mine["width"] / 2:
            problems.append(f"the {pos} seat's card {apart:.0f} px from yours, at its height")
    assert not problems, (problems, boxes)


# Thirteen cards in three suits, laid out 4, 5 and 4 (the trump first, then the colours alternating): no two
# neighbours fit one row of eight, a 360 px phone's longest, so keeping each suit whole there takes three rows.
THREE_ROWS = ("H", ["AH", "KH", "9H", "4H", "AS", "QS", "TS", "7S", "KC", "JC", "8C", "5C", "2C"])


def test_a_hand_of_three_rows_leaves_the_trick_legible(server, open_page):
    """A hand whose suits fit two rows only if one is split: where the screen is tall enough each suit keeps its row
    and the hand takes three; on a 360 x 640 phone three rows shrank the cloth until the trick's cards were 36 px
    wide, so there a suit shares two rows instead, and the trick keeps its size."""
    page = open_page(server + "/", viewport={"width": 360, "height": 640}, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=7)
    bring_to_trick(page, 4)
    failures: list[str] = []
    # (At 390 px the 5 and the last 4 fit one row of nine: two rows, each suit whole.)
    for w, h, rows in [(360, 640, 2), (360, 740, 3), (390, 844, 2)]:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate(SHOW_HAND, list(THREE_ROWS))
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        m = page.evaluate(MEASURE)
        tops = sorted(c["top"] for c in m["cards"])  # a lifted or a dimmed card sits a few pixels off its row
        found = 1 + sum(1 for a, b in zip(tops, tops[1:]) if b - a > 20)
        if found != rows:
            failures.append(f"{w}x{h}: the hand in {found} rows, not {rows}")
        if h > 640:
            failures += [f"{w}x{h}: {p}" for p in row_break_problems(m["cards"], m["rtl"])]
        failures += [f"{w}x{h}: card {c['card']} off screen" for c in m["cards"] if c["bottom"] > h + 0.5]
        boxes = page.evaluate(TRICK_BOXES)
        failures += [f"{w}x{h}: the trick's {pos} card {b['width']:.0f} px wide" for pos, b in boxes.items() if b["width"] < 44]
        shot(page, f"layout/fa-three-rows-{w}x{h}")
    assert not failures, "\n".join(failures)


def test_the_seat_to_move_is_marked_with_animations_off(server, open_page):
    """A computer's seat has no clock ring: with animations off (the tests' setting, and a player's choice) nothing
    on the table said whose turn it was but the status line. The seat to move has a ring; no other seat does."""
    page = open_page(server + "/", viewport={"width": 360, "height": 640}, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=4, target=7)
    bring_to_trick(page, 4)
    rings = page.evaluate("""() => { const tb = window.hokmDebug.table; const other = (tb.view.seat + 1) % 4;
      tb.view = { ...tb.view, to_move: other }; tb.renderSeats();
      return [...document.querySelectorAll('.seat')].map((e) => [e.dataset.seat === String(other),
        getComputedStyle(e.querySelector('.avatar')).outlineStyle]); }""")
    shot(page, "layout/fa-4p-360x640-turn-ring")
    assert len(rings) == 4 and all((f != "none") == moving for moving, f in rings), rings


# The clock of a choice as a player sees it: the text of the dialog's own clock where it is drawn on top, and
# whether the line below the table shows a clock too.
CHOICE_CLOCK = """(kind) => {
  const t = document.querySelector(`.overlay[data-kind='${kind}'] .choice-timer`);
  const r = t && t.getBoundingClientRect();
  const onTop = !!r && r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth
    && t.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
  const line = document.querySelector('.my-timer');
  const lineShown = !!line && line.textContent !== '' && getComputedStyle(line).visibility === 'visible';
  return { text: onTop ? t.textContent : null, lineShown };
}"""


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 844, "height": 390}, {"width": 1280, "height": 800}],
                         ids=["360x640", "844x390", "1280x800"])
def test_a_choice_on_the_clock_shows_its_time_in_its_own_box(server, open_page, viewport):
    """The card from the stock and the Hokm chooser lie over the line below the table on a small phone, its clock
    with it: each says the seconds left itself, in Persian digits, and the line does not show a second clock. The
    stock's count on the cloth says what it counts."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR", settings={"lang": "fa"})
    start_vs_computer(page, players=2, target=7)
    act_until_asked(page, "draw")
    page.wait_for_selector(".overlay[data-kind='draw'] .choice-timer:not(:empty)")
    clock = page.evaluate(CHOICE_CLOCK, "draw")
    shot(page, f"layout/fa-2p-{viewport['width']}x{viewport['height']}-draw-clock")
    assert clock["text"] and re.fullmatch("[۰-۹]+ ثانیه مانده", clock["text"]), clock
    assert not clock["lineShown"], clock
    # With the dialog away, the stock under it says what its number counts.
    page.evaluate("() => window.hokmDebug.table.closeModal('draw')")
    stock = page.evaluate("""() => { const e = document.querySelector('.stock-n');
      return e && getComputedStyle(e).visibility === 'visible' ? e.textContent : null; }""")
    assert stock and re.fullmatch("دسته: [۰-۹]+", stock), stock
    # The Hokm chooser, its clock near its end: the seconds count down, and the last ones stand out.
    page.evaluate("""() => { const tb = window.hokmDebug.table; tb.closeModal();
      tb.view = { ...tb.view, phase: 'trump', trump: null, hand: tb.view.hand.slice(0, 5), hand_size: 5, trick: [],
        draw_card: null, legal: ['S', 'H', 'D', 'C'].map((suit) => ({ type: 'trump', suit })) };
      tb.deadline = { seat: tb.view.seat, at: (tb.now() + 4500) / 1000, seconds: 30 };
      tb.summaryUntil = 0; tb.render(); }""")
    page.wait_for_selector(".overlay[data-kind='trump'] .choice-timer.urgent")
    clock = page.evaluate(CHOICE_CLOCK, "trump")
    assert clock["text"] in ("۵ ثانیه مانده", "۴ ثانیه مانده"), clock
    assert not clock["lineShown"], clock
    page.wait_for_function("() => document.querySelector('.choice-timer').textContent === '۳ ثانیه مانده'", timeout=4000)
    # Once the dialog is gone, the line's clock is the one again.
    page.evaluate("() => window.hokmDebug.table.closeModal()")
    page.wait_for_function("() => { const l = document.querySelector('.my-timer'); return l.textContent !== '' "
                           "&& getComputedStyle(l).visibility === 'visible'; }", timeout=3000)


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_your_clocks_ring_lies_clear_of_your_name_on_a_phone_on_its_side(server, open_page, lang):
    """On a phone on its side your seat stands at the start of the line under the cloth: the ring of your clock lay
    over the first letter of «شما» and 2 px from the screen's edge."""
    page = open_page(server + "/", viewport={"width": 844, "height": 390}, settings={"lang": lang})
    start_vs_computer(page, players=4, target=7)
    my_play_turn(page)
    for w, h in ((844, 390), (740, 360), (667, 375)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("() => document.querySelector('.me-slot .seat.timing') !== null")
        m = page.evaluate("""() => { const s = document.querySelector('.me-slot .seat');
          const r = s.querySelector('.timer-ring').getBoundingClientRect(), n = s.querySelector('.seat-name').getBoundingClientRect();
          return { gap: Math.max(n.left - r.right, r.left - n.right), edge: Math.min(r.left, innerWidth - r.right) }; }""")
        assert m["gap"] >= 3.5 and m["edge"] >= 4, (w, h, m)
