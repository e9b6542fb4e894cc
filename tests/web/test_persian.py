"""Persian on the web table: numbers that read as what they are, codes and links a person can copy.

A dot-like glyph beside a Persian digit reads as the zero "۰" ("۱ · امتیاز" is read "۱۰ امتیاز"), and a
digit-substituting font feature turns the Latin digits of codes and links into Persian ones.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from .conftest import APP_MODULE, PHONE, act_once, shot, table_view

pytestmark = pytest.mark.browser

DIGIT = "0-9\u06f0-\u06f9\u0660-\u0669"
# Dots and rings that look like the Persian zero (or, for "o", like ۵) when they touch a digit.
ZERO_LIKE = "\u00b7\u2022\u2219\u22c5.o\u25cb\u2218\u00b0\u2027\u30fb"
ZERO_BESIDE_DIGIT = re.compile(f"[{DIGIT}][ \u00a0\u200c\u2009]*[{re.escape(ZERO_LIKE)}](?![{DIGIT}])"
                               f"|(?<![{DIGIT}])[{re.escape(ZERO_LIKE)}][ \u00a0\u200c\u2009]*[{DIGIT}]")

# Visible text of the page with what a person copies (codes, links: .ltr-code) left out.
READABLE_TEXT = """() => {
  const out = [];
  const walk = (n) => {
    if (n.nodeType === 3) { out.push(n.textContent); return; }
    if (n.nodeType !== 1 || n.matches(".ltr-code, bdi[dir=auto], script, style, .sr-only, [hidden]")) return;
    if (getComputedStyle(n).display === "none") return;
    for (const c of n.childNodes) walk(c);
    if (getComputedStyle(n).display !== "inline") out.push("\\n");
  };
  walk(document.body);
  return out.join("");
}"""


def bad_numbers(text: str) -> list[str]:
    """Zero-like glyphs beside digits, and Latin or Arabic-Indic digits, in Persian text."""
    found = [m.group(0) for m in ZERO_BESIDE_DIGIT.finditer(text)]
    # A slash between digits is a decimal point to a Persian reader ("۲/۴" reads as 2.4): write "۲ از ۴".
    # A date (year/month/day, "۱۴۰۵/۹/۵") is the one place slashes belong.
    undated = re.sub(f"[{DIGIT}]+/[{DIGIT}]+/[{DIGIT}]+", "", text)
    found += [m.group(0) for m in re.finditer(f"[{DIGIT}] *[/\u2215] *[{DIGIT}]", undated)]
    # A colon and a space between numbers reads as a score: "رایانه ۲: ۴ پیک" as "۲:۴" (a clock's "۱۸:۲۷" has no space).
    found += [m.group(0) for m in re.finditer(f"[{DIGIT}] *: +[{DIGIT}]", text)]
    found += [m.group(0) for m in re.finditer(f"[{DIGIT}] +[{DIGIT}]", text)]  # two numbers run together
    found += [f"latin/arabic digit in {text[max(0, m.start() - 12):m.end() + 12]!r}" for m in re.finditer("[0-9\u0660-\u0669]", text)]
    return found


def test_the_check_itself_sees_the_misreadings():
    assert bad_numbers("این دور را بردیم · ۱ امتیاز") and bad_numbers("۲ · ۱ برد") and bad_numbers("۱.")
    assert bad_numbers("تأیید (۲/۴)") and not bad_numbers("تأیید (۲ از ۴)") and not bad_numbers("۱۴۰۵/۹/۵، ۶:۰۱")
    assert bad_numbers("GDQ8SQ6V") and not bad_numbers("این دور را بردیم، ۱ امتیاز") and not bad_numbers("دور ۱۰")
    assert bad_numbers("رایانه ۲: ۴ پیک را بازی کرد") and bad_numbers("رایانه ۲ ۴ پیک") and not bad_numbers("۴ پیک را رایانه ۲ بازی کرد")


JS_DIR = Path(__file__).resolve().parents[2] / "src" / "hokm" / "web" / "static" / "js"
# Every module of the page but offline.js, which is a page of its own (it takes over #app when it loads).
FEATURE_MODULES = sorted(p.name for p in JS_DIR.glob("*.js") if p.name != "offline.js")
# Slots that hold words: everything else is a number, filled with 0..20.
TEXT_SLOTS = {"name": "رایانه ۲", "side": "ما", "username": "sara_t", "text": "سلام", "when": "۱۴۰۵/۹/۵، ۱۸:۲۷"}


def persian_keys_in_sources() -> set[str]:
    """The keys of every Persian table in the sources: i18n.js's and each feature module's addStrings."""
    keys: set[str] = set()
    for path in JS_DIR.glob("*.js"):
        src = path.read_text(encoding="utf-8")
        for m in re.finditer(r"\n(\s*)fa: \{\n(.*?)\n\1\}", src, re.S):
            keys |= set(re.findall(r"^\s*(\w+): [\"`]", m.group(2), re.M))
    return keys


def test_every_persian_string_reads_its_numbers(server, open_page):
    """Each Persian string of every module, in the app's own instance of i18n.js (the one the page reads), with each
    of its slots filled: numbers 0..20, names and card words where a slot holds words."""
    page = open_page(server + "/", settings={"lang": "fa"})
    page.wait_for_selector("#nickname")
    got = page.evaluate(rf"""async ([modules, words]) => {{
        const mod = {APP_MODULE};
        const i18n = await mod('i18n.js');
        for (const m of modules) await mod(m);  // each adds its own strings to this instance
        i18n.setLang('fa');
        words = {{ ...words, card: i18n.cardName('TS'), suit: i18n.suitName('S') }};
        const out = [];
        for (const key of Object.keys(i18n.STRINGS.fa)) {{
          const slots = new Set([...(i18n.STRINGS.fa[key] + (i18n.STRINGS.fa[key + '_one'] || '')).matchAll(/\{{(\w+)\}}/g)].map((x) => x[1]));
          for (let n = 0; n <= 20; n++) {{
            const vars = {{}};
            for (const s of slots) vars[s] = s in words ? words[s] : n;
            out.push([key, i18n.t(key, vars), [...slots]]);
          }}
        }}
        out.push(['sep', '۱' + i18n.sep() + '۲', []]);
        return {{ out, keys: Object.keys(i18n.STRINGS.fa), document: document.documentElement.lang }};
    }}""", [FEATURE_MODULES, TEXT_SLOTS])
    rendered, keys = got["out"], set(got["keys"])
    missing = persian_keys_in_sources() - keys
    assert not missing, f"Persian strings never rendered: {sorted(missing)}"
    assert len(keys) >= 330 and len(rendered) == 21 * len(keys) + 1
    assert {"m", "b", "g", "w"} <= {s for _, _, slots in rendered for s in slots}
    problems = [f"{key}: {text!r} {bad}" for key, text, _ in rendered if (bad := bad_numbers(text))]
    problems += [f"{key}: {text!r} has an empty slot" for key, text, _ in rendered if re.search(r"\{\w*\}|\(\s*\)|  ", text)]
    assert not problems, "\n".join(problems[:40])
    # The words of a few lines the page says aloud or shows in Persian.
    say = dict((k, t) for k, t, _ in rendered[::21])
    assert say["refused_must_follow_suit"] == "باید خال زمینه را بازی کنید: یک کارت پیک", say["refused_must_follow_suit"]
    # The card, then who played it: "رایانه ۲ ۱۰ پیک" would run two numbers together, and "رایانه ۲: ۱۰ پیک"
    # reads as the score "۲:۱۰".
    assert say["played"] == "۱۰ پیک را رایانه ۲ بازی کرد", say["played"]
    # A rating is «ریتینگ», not «امتیاز»: that word is a game's points (the score line, the hand summary).
    assert say["ratingN"] == "ریتینگ ۰" and say["ratingHistory"] == "ریتینگ" and say["scoreWord"] == "امتیاز"
    assert not [k for k, t in say.items() if "rating" in k.lower() and "امتیاز" in t]


# A word standing alone: "دست" in "دست‌ها" (ZWNJ after it) but not in "دسته" (stock) or "دسترس".
HAND_WORD = re.compile("دست(?![\u0600-\u06ff])")
TRICK_WORD = re.compile("دور(?![\u0600-\u06ff])")


def test_a_hand_is_dast_and_a_trick_is_dowr_everywhere(server, open_page):
    """دست is a hand, دور a trick (the rules page's words): every Persian string agrees with its English."""
    page = open_page(server + "/", settings={"lang": "fa"})
    page.wait_for_selector("#nickname")
    got = page.evaluate("""async () => {
        const i18n = await import('./js/i18n.js');
        for (const m of ['review', 'scoresheet', 'replay', 'handorder', 'matchwait', 'preselect']) await import(`./js/${m}.js`);
        i18n.setLang('fa');
        const fa = { handN: i18n.t('handN', { n: 1 }), trickN: i18n.t('trickN', { n: 1 }), tricksN: i18n.t('tricksN', { n: 0 }),
                     tricks: i18n.t('tricks'), dealer: i18n.t('dealer'), verifyOk: i18n.t('verifyOk', { n: 1 }), sep: i18n.sep(),
                     weWin: i18n.t('weWin'), weLose: i18n.t('weLose'), scoreWord: i18n.t('scoreWord'),
                     pairWon: i18n.t('gameWonByPair', { side: 'سارا + رایانه ۳' }),
                     theyHand: i18n.t('handWonThey'), theyGame: i18n.t('gameWonThey'), youLed: i18n.t('reviewLedYou') };
        i18n.setLang('en');
        const en = { sep: i18n.sep(), scoreWord: i18n.t('scoreWord') };
        return { fa, en, pairs: Object.keys(i18n.STRINGS.fa).map((k) => [k, i18n.STRINGS.en[k] || '', i18n.STRINGS.fa[k]]) };
    }""")
    fa = got["fa"]
    assert fa["handN"] == "دست ۱" and fa["trickN"] == "دور ۱" and fa["tricksN"] == "۰ دور" and fa["tricks"] == "دورها", fa
    assert fa["verifyOk"] == "دست ۱: بُر این دست با تعهد اعلام‌شده مطابقت دارد", fa
    assert fa["dealer"] == "پخش‌کننده" and fa["weWin"] == "بردیم!" and fa["weLose"] == "باختیم", fa
    assert fa["pairWon"] == "سارا + رایانه ۳ بازی را بردند", fa  # two partners: the verb is plural
    # the other side named, not left to the verb's ending alone («…را بردند» read as a sentence cut short)
    assert fa["theyHand"] == "آن‌ها این دست را بردند" and fa["theyGame"] == "آن‌ها بازی را بردند", fa
    assert fa["youLed"] == "شما شروع کردید", fa  # the review of a trick we led: «شما» with its own verb
    assert fa["sep"] == "، " and got["en"]["sep"] == ", ", (fa["sep"], got["en"]["sep"])
    assert fa["scoreWord"] == "امتیاز" and got["en"]["scoreWord"] == "points"
    wrong = [(k, en, f) for k, en, f in got["pairs"]
             if (re.search(r"\btricks?\b", en, re.I) and not re.search(r"\bhands?\b", en, re.I) and HAND_WORD.search(f))
             or (re.search(r"\bhands?\b", en, re.I) and not re.search(r"\btricks?\b", en, re.I) and TRICK_WORD.search(f))]
    assert not wrong, wrong
    # The plural -ها is joined with a ZWNJ (PERSIAN-TEXT.md): «آن‌ها», never «آنها».
    assert not [(k, f) for k, _, f in got["pairs"] if "آنها" in f]
    # "You" takes the verb of «شما»: «شما شروع کردید», never «شما شروع کرد» (a name's verb left on it).
    third = re.compile("(?:کرد|برد|باخت|شد|داد|گرفت|آورد|گذاشت|زد|ماند|انداخت|خواست)[.!؟]?$")
    assert not [(k, f) for k, en, f in got["pairs"] if re.match(r"You\b", en) and "شما" in f and third.search(f)]


def test_room_code_and_invite_link_keep_latin_digits(server, open_page):
    page = open_page(server + "/", viewport=PHONE, settings={"lang": "fa", "nickname": "سارا"})
    page.click("#create-room")
    page.wait_for_selector("[data-testid=room-code]")
    table_id = page.evaluate("location.hash.split('/')[2]")
    api = page.evaluate(f"""async () => {{
        const {{ Api }} = await import('./js/net.js');
        return new Api().get('/api/tables/{table_id}');
    }}""")
    code = page.locator("[data-testid=room-code]")
    link = page.locator("[data-testid=invite-link]")
    page.wait_for_function("() => document.querySelector('[data-testid=room-code]').innerText.trim().length > 0")
    assert code.inner_text() == api["code"]
    expected_link = api.get("invite_url") or f"{server}/?join={api['code']}"
    assert link.inner_text() == expected_link
    for el in (code, link):
        style = el.evaluate("e => { const s = getComputedStyle(e); return [s.fontFeatureSettings, s.direction, s.unicodeBidi]; }")
        assert style[0] == "normal", f"digits would be drawn as Persian ones: font-feature-settings {style[0]}"
        assert style[1] == "ltr" and style[2] == "isolate", style
    # Nothing else on the page turns Latin digits into Persian ones either.
    assert page.evaluate("getComputedStyle(document.body).fontFeatureSettings") == "normal"
    shot(page, "phone-fa-room-code")
    problems = bad_numbers(page.evaluate(READABLE_TEXT))
    assert not problems, problems
    # A player's name is isolated (a Latin name keeps "(شما)" after it), and the team colours are explained.
    assert page.locator(".seat-row[data-seat='0'] .seat-who bdi[dir=auto]").inner_text() == "سارا"
    assert api["players"] == 4 and page.locator(".teams-legend").inner_text() == "جاهای هم‌رنگ یار یکدیگرند"


def test_a_persian_game_reads_right_from_deal_to_fairness_list(server, open_page):
    page = open_page(server + "/", viewport=PHONE, settings={"lang": "fa", "nickname": "سارا"})
    page.wait_for_selector("#play-computer")
    # Record the text of every summary the table shows, however briefly.
    page.evaluate("""() => {
        window.seenTexts = [];
        new MutationObserver(() => {
          for (const m of document.querySelectorAll('.overlay:not([hidden]) .modal')) {
            const t = m.innerText; if (!window.seenTexts.includes(t)) window.seenTexts.push(t);
          }
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }""")
    page.locator(".seg[data-value='4']").first.click()
    page.locator("[aria-label='امتیاز برد'] .seg[data-value='3']").click()
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)
    checked_bar = False
    deadline = time.monotonic() + 300
    while not page.locator(".overlay[data-kind='game']").is_visible() and time.monotonic() < deadline:
        v = table_view(page)
        if v and v["phase"] == "play" and not checked_bar:
            problems = bad_numbers(page.evaluate(READABLE_TEXT))
            assert not problems, problems
            # Tricks are دور, the hand number دست; the score says it is the score; the dealer is a picture, not "د".
            assert page.locator(".hand-no").inner_text().startswith("دست "), page.locator(".hand-no").inner_text()
            for label in page.locator(".seat-tricks").all_inner_texts() + page.locator(".flower-tricks").all_inner_texts():
                assert re.fullmatch("[۰-۹]+ دور", label), label
            assert page.locator("[data-testid=score-0] .score-word").inner_text() == "امتیاز"
            # No word of the bar is smaller than 11 px (the score's «امتیاز» was 9.9 px on a phone).
            small = page.evaluate("""() => [...document.querySelectorAll('[data-testid=top-bar] *')].filter((e) =>
              [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) && e.offsetParent
              && parseFloat(getComputedStyle(e).fontSize) < 11).map((e) => `${e.textContent} ${getComputedStyle(e).fontSize}`)""")
            assert not small, small
            dealer = page.locator(".badge.dealer")
            assert dealer.count() == 1 and dealer.inner_text().strip() == "" and dealer.locator("svg").count() == 1
            assert dealer.get_attribute("aria-label") == "پخش‌کننده"
            assert not page.locator(".flower .core-num").count(), "the flower repeats the score"
            checked_bar = True
        act_once(page)
        page.wait_for_timeout(30)
    assert page.locator(".overlay[data-kind='game']").is_visible(), "the game did not finish in time"
    v = table_view(page)
    texts = page.evaluate("window.seenTexts")
    assert any("امتیاز" in t for t in texts), "no hand summary was seen"
    for text in texts:
        assert not bad_numbers(text), (text, bad_numbers(text))
    # The game score is the big number of the bar, in Persian digits; the hand's tricks are smaller.
    fa = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
    me = v["seat"] % 2
    for side in (0, 1):
        assert page.locator(f"[data-testid=score-{side}] .game-score").inner_text() == str(v["scores"][side]).translate(fa)
    sizes = page.evaluate("""() => [...document.querySelectorAll('[data-testid=top-bar] *')]
        .filter((e) => e.children.length === 0 && /[۰-۹]/.test(e.textContent))
        .map((e) => [e.className.baseVal === undefined ? e.className : 'svg', parseFloat(getComputedStyle(e).fontSize)])""")
    biggest = max(sizes, key=lambda s: s[1])
    assert "game-score" in biggest[0] and all(s[1] < biggest[1] for s in sizes if "game-score" not in s[0]), sizes
    assert max(v["scores"]) >= 3 and v["scores"][me] is not None
    # The team speaks as "we" from the heading on, and the final score names its sides in words, ours first.
    head = page.locator(".overlay[data-kind='game'] .sum-head.big").inner_text()
    won = v["scores"][me] > v["scores"][1 - me]
    assert head == ("بردیم!" if won else "باختیم"), head
    final = page.locator(".overlay[data-kind='game'] .final-score").inner_text()
    assert final == f"ما {str(v['scores'][me]).translate(fa)}، آن‌ها {str(v['scores'][1 - me]).translate(fa)}", final
    # Each hand's points: who and how many on one line ("آن‌ها +۱"), then "کُت" if it was one.
    cells = page.locator(".overlay[data-kind='game'] .sh-points").all()
    assert cells and len(cells) == len(v["results"])
    for cell in cells:
        line = cell.locator(".points-line")
        assert line.count() == 1
        assert re.fullmatch("(ما|آن‌ها) \\+[۰-۹]+", line.inner_text()), line.inner_text()
        centres = page.evaluate("""(e) => ['.points-side', '.points-n'].map((q) => {
            const r = e.querySelector(q).getBoundingClientRect(); return (r.top + r.bottom) / 2; })""", cell.element_handle())
        assert abs(centres[0] - centres[1]) < 4, (line.inner_text(), centres)
        assert re.fullmatch("(ما|آن‌ها) \\+[۰-۹]+( (کُت|حاکم‌کُتی))?", " ".join(cell.inner_text().split())), cell.inner_text()
    shot(page, "phone-fa-4p-game-over")
    # The fairness list: every hand played is checked; none waits for a reveal that cannot come.
    page.locator(".overlay[data-kind='game'] .btn", has_text="بُر منصفانه").click()
    page.wait_for_selector(".fair-item")
    page.wait_for_function("() => ![...document.querySelectorAll('.fair-item')].some((li) => li.dataset.ok === 'null' && li.dataset.dealt === 'true')",
                           timeout=10000)
    items = page.locator(".fair-item").all_inner_texts()
    assert len([i for i in items if "✓" in i]) == len(v["results"]), items
    assert not any("آشکار می‌شود" in i for i in items), items
    assert all("بُر این دست با تعهد اعلام‌شده مطابقت دارد" in i for i in items if "✓" in i), items
    # Every commitment whole, on a line of its own, left to right in Latin hex.
    commits = page.locator(".fair-item .commit")
    assert all(re.fullmatch("[0-9a-f]{64}", c) for c in commits.all_inner_texts()), commits.all_inner_texts()
    assert all(commits.nth(i).get_attribute("dir") == "ltr" for i in range(commits.count()))
    rows = page.evaluate("""() => [...document.querySelectorAll('.fair-item')].map((li) => {
        const [mark, text, commit] = ['.fair-mark', '.fair-text', '.commit'].map((q) => li.querySelector(q).getBoundingClientRect());
        return { markWithText: mark.top < text.bottom && text.top < mark.bottom, commitBelow: commit.top >= text.bottom - 1 }; })""")
    assert all(r["markWithText"] and r["commitBelow"] for r in rows), rows
    shot(page, "phone-fa-fairness")
    problems = bad_numbers(page.evaluate(READABLE_TEXT))
    assert not problems, problems
    # The home page after the game: the leaderboard and recent games read right too.
    page.goto(server + "/#/")
    page.wait_for_selector(".leader-stats", timeout=10000)
    page.wait_for_function("() => !document.querySelector('.recent p.muted') || document.querySelector('.recent-item')")
    stats = page.locator(".leader-stats").all_inner_texts()
    assert stats and not any(bad_numbers(s) for s in stats), stats
    # A game against the computer is not rated: no rating shows (and never as «امتیاز», a game's points).
    assert not any("امتیاز" in s or "ریتینگ" in s for s in stats), stats
    # Dates keep their slashes and take the Persian comma before the time: "۱۴۰۵/۹/۵، ۱۸:۲۷".
    when = page.locator(".recent-when").first.inner_text()
    assert re.fullmatch("[۰-۹]+/[۰-۹]+/[۰-۹]+، [۰-۹]+:[۰-۹]+", when), when
    # A finished game's score says whose it is in words ("ما ۳، آن‌ها ۱"), not by the order of two numbers.
    page.wait_for_selector(".recent-score")
    score = page.locator(".recent-score").first.inner_text()
    assert "ما" in score and "آن‌ها" in score and "، " in score, score
    # Ranks are the page's own Persian digits, with no list marker ("1.") in front of the line.
    assert page.evaluate("getComputedStyle(document.querySelector('.leader')).display") != "list-item"
    assert page.locator(".leader-rank").first.inner_text() == "۱"
    problems = bad_numbers(page.evaluate(READABLE_TEXT))
    assert not problems, problems
    shot(page, "phone-fa-home-after-game")


def test_a_game_against_the_computer_reads_right_after_it_ends(server, open_page):
    """Game over, the recent games and the replay of a 2-player game in Persian: the computer is «رایانه ۲»
    everywhere (not the record's "random bot"), its number never runs into a score, the replay's caption is
    Persian punctuation, each seat says its own tricks, and the arrows point the way the buttons go."""
    from .test_flows import new_table
    page = open_page(server + "/", viewport=PHONE, settings={"lang": "fa", "nickname": "سارا"})
    page.wait_for_selector("#play-computer")
    new_table(page, server, players=2, target=1)
    deadline = time.monotonic() + 120
    while not page.locator(".overlay[data-kind='game']").is_visible() and time.monotonic() < deadline:
        act_once(page)
        page.wait_for_timeout(30)
    v = table_view(page)
    me = v["seat"]
    fa = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
    other = f"رایانه {str(2 - me).translate(fa)}"
    final = page.locator(".overlay[data-kind='game'] .final-score").inner_text()
    # One form for the line: the computer's name ends in a number, so both names take the colon.
    sides = {me: f"شما: {str(v['scores'][me]).translate(fa)}", 1 - me: f"{other}: {str(v['scores'][1 - me]).translate(fa)}"}
    assert final == f"{sides[0]}، {sides[1]}", final
    page.goto(server + "/#/")
    page.wait_for_selector(".recent-item")
    names = page.locator(".recent-names").first.inner_text()
    score = page.locator(".recent-score").first.inner_text()
    assert other in names and "bot" not in names, names
    assert f"{other}: " in score, score
    page.locator(".recent-item a[href^='#/replay/']").first.click()
    page.wait_for_selector(".replay-board .replay-seat")
    page.wait_for_selector(".replay-verify .fair-item")
    seat_names = page.locator(".replay-name").all_inner_texts()
    assert seat_names[1 - me].strip() == other and not any(re.search("[A-Za-z]", n) for n in seat_names), seat_names
    for _ in range(4):
        page.locator(".replay-controls .next").click()
    caption = page.locator(".replay-caption").inner_text()
    assert " ،" not in caption and "، " in caption and not bad_numbers(caption), caption
    assert re.search("حکم \\s*(پیک|دل|خشت|گشنیز)،", caption), caption  # the suit drawn, then named
    tricks = page.locator(".replay-tricks").all_inner_texts()
    assert len(tricks) == 2 and all(re.fullmatch("[۰-۹]+ دور", x) for x in tricks), tricks
    assert sum(int(x.split()[0].translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789"))) for x in tricks) == 4, tricks
    # In Persian the row runs right to left: "back" sits on the right and points right, "next" on its left points left.
    arrows = page.evaluate("""() => ['.prev', '.next'].map((q) => { const b = document.querySelector('.replay-controls ' + q);
        const r = b.getBoundingClientRect(); return [b.textContent, r.left]; })""")
    (back, back_x), (fwd, fwd_x) = arrows
    assert fwd_x < back_x and fwd == "◀" and back == "▶", arrows
    # Everyday words for them: «قبلی» and «بعدی», not the bookish «پیشین» and «پسین».
    assert [page.locator(f".replay-controls {q}").get_attribute("aria-label") for q in (".prev", ".next")] == ["قبلی", "بعدی"]
    # The whole-hand buttons: «دست قبلی», «دست بعدی» (the noun first, as Persian puts it; no dangling space).
    assert [page.locator(f".replay-controls {q}").get_attribute("aria-label")
            for q in (".prev-hand", ".next-hand")] == ["دست قبلی", "دست بعدی"]
    # Each fairness line: its mark beside its words, as in the game-over list.
    rows = page.evaluate("""() => [...document.querySelectorAll('.replay-verify .fair-item')].map((li) => {
        const m = li.querySelector('.fair-mark').getBoundingClientRect(), t = li.querySelector('.fair-text').getBoundingClientRect();
        return m.top < t.bottom && t.top < m.bottom; })""")
    assert rows and all(rows), rows
    shot(page, "phone-fa-2p-replay")
    # Back home from the foot of the replay: the home page opens at its top, where the game starts.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("scrollY") > 100
    page.evaluate("location.hash = '#/'")  # as a link or the back button does, from down here
    page.wait_for_selector("#play-computer")
    assert page.evaluate("scrollY") == 0
    # The room-code box spaces out the code typed in it, not the Persian words of its placeholder.
    spacing = page.evaluate("getComputedStyle(document.querySelector('#room-code'), '::placeholder').letterSpacing")
    assert spacing in ("normal", "0px"), spacing


def test_one_of_a_thing_is_singular_in_english_and_plain_in_persian(server, open_page):
    """"1 trick", not "1 tricks" (seen under every seat); Persian counts take the singular anyway ("۱ دور")."""
    page = open_page(server + "/", settings={"lang": "en"})
    page.wait_for_selector("#nickname")
    got = page.evaluate("""async () => {
        const i18n = await import('./js/i18n.js');
        for (const m of ['account', 'friends', 'social', 'review', 'scoresheet', 'replay', 'handorder', 'matchwait', 'preselect'])
          await import(`./js/${m}.js`);
        i18n.setLang('en');
        const en = Object.keys(i18n.STRINGS.en).filter((k) => !k.endsWith('_one')).map((k) => [k, i18n.t(k, { n: 1 })]);
        const two = i18n.t('tricksN', { n: 2 });
        i18n.setLang('fa');
        return { en, two, fa: [i18n.t('tricksN', { n: 1 }), i18n.t('tricksN', { n: 2 })] };
    }""")
    plural = [(k, s) for k, s in got["en"] if re.search(r"\b1 [a-z]+s\b", s)]
    assert not plural, plural
    assert dict(got["en"])["tricksN"] == "1 trick" and got["two"] == "2 tricks", got
    assert got["fa"] == ["۱ دور", "۲ دور"], got["fa"]


def test_a_three_player_hand_won_on_a_tie_says_why(server, open_page):
    """Three players, 7-7-3 after the last trick: the hand goes to the seat with the fewest tricks. The summary
    says why, in Persian, with each name isolated in the sentence, from the view's ``tie`` (the page derives no
    rule). Seen as the winner, as one of the two tied, and not at all for a hand won otherwise."""
    from .test_flows import new_table
    page = open_page(server + "/", viewport=PHONE, settings={"lang": "fa", "nickname": "سارا"})
    page.wait_for_selector("#play-computer")
    new_table(page, server, players=3)
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=30000)
    me = table_view(page)["seat"]
    shown = """([winner, tie]) => { const tb = window.hokmDebug.table;
        const tricks = [7, 7, 7]; tricks[winner] = 3;
        const v = { ...tb.view, phase: 'trump', results: [{ hakem: 0, trump: 'S', tricks, winner, points: 1, kot: false,
                    hakem_koti: false, tie }] };
        tb.view = v; tb.showHandSummary(v, false);
        const why = document.querySelector(".overlay[data-kind='hand'] .sum-why");
        return why ? why.textContent : null; }"""
    fa = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
    bot = lambda s: f"\u2068رایانه {str(s + 1).translate(fa)}\u2069"  # noqa: E731
    a, b = (me + 1) % 3, (me + 2) % 3
    mine = page.evaluate(shown, [me, True])
    assert mine == f"{bot(a)} و {bot(b)} در شمار دورها برابر شدند؛ پس دست به شما رسید.", mine
    assert not bad_numbers(mine)
    shot(page, "phone-fa-hand-won-on-a-tie")
    theirs = page.evaluate(shown, [a, True])
    assert theirs == f"شما و {bot(b)} در شمار دورها برابر شدید؛ پس دست به {bot(a)} رسید.", theirs
    # The sentence sits inside the summary on a phone: nothing cut off at either side.
    box = page.locator(".overlay[data-kind='hand'] .sum-why").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    # Nor does your own seat, drawn over the summary where the phone has no room beside it, lie on the words.
    page.evaluate("() => window.hokmDebug.table.placeSummary()")
    seat = page.locator(".me-slot .seat").bounding_box()
    assert seat and (seat["y"] >= box["y"] + box["height"] or seat["y"] + seat["height"] <= box["y"]
                     or seat["x"] >= box["x"] + box["width"] or seat["x"] + seat["width"] <= box["x"]), (seat, box)
    # nor on the rows: a name, the tricks, the flower (where the phone has room, the box goes beside your seat)
    covered = page.evaluate("""() => { const s = document.querySelector('.me-slot .seat').getBoundingClientRect();
        return [...document.querySelectorAll(".overlay[data-kind='hand'] .sum-row > *")].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top; }).map((e) => e.textContent); }""")
    assert covered == [], covered
    assert page.evaluate(shown, [a, False]) is None
    # In English, from the same view: the names isolated as in Persian.
    page.evaluate(f"""async () => {{ (await {APP_MODULE}('i18n.js')).setLang('en');
        document.documentElement.lang = 'en'; document.documentElement.dir = 'ltr'; }}""")
    english = page.evaluate(shown, [me, True])
    assert english == (f"\u2068Computer {a + 1}\u2069 and \u2068Computer {b + 1}\u2069 tied for the most tricks, "
                       "so the hand is yours."), english
    shot(page, "phone-en-hand-won-on-a-tie")
