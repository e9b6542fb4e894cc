"""What a Persian-speaking player reads at the table and around it: nothing lies over the scores, the result or a
button (the computer's banner, the chat sheet and bubbles, the rematch request), the server's refusals and the
computer's seats are said in the page's language, the score sheet's columns stand apart, the hand reads in the
page's direction, and the game score is the largest number in the bar."""

from __future__ import annotations

import asyncio
import json
import math
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from server.harness import Player, game_over  # tests/ is on the path as the suites' root

from .conftest import APP_MODULE, DESKTOP, act_once, serve, shot, table_view

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}
STATIC = Path(__file__).resolve().parents[2] / "src" / "hokm" / "web" / "static"


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):  # type: ignore[no-untyped-def]
    """A server whose bots think a quarter of a second: a game the computer plays for us lasts long enough to
    look at the table while it does."""
    yield from serve(tmp_path_factory, bot_delay="0.2 0.3")


# ------------------------------------------------------------------------------------------------ helpers
def in_app(page, fn: str, arg=None):  # type: ignore[no-untyped-def]
    """page.evaluate(fn, arg), where fn may call mod('i18n.js') for the app's own instance of a module."""
    return page.evaluate(f"async (arg) => {{ const mod = {APP_MODULE}; return ({fn})(arg); }}", arg)


def box(page, selector: str) -> dict | None:  # type: ignore[type-arg]
    return page.evaluate("""(s) => { const e = document.querySelector(s); if (!e || !e.getClientRects().length) return null;
      const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; }""", selector)


def boxes(page, selector: str) -> list[dict]:  # type: ignore[type-arg]
    return page.evaluate("""(s) => [...document.querySelectorAll(s)].filter((e) => e.getClientRects().length).map((e) => {
      const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: e.textContent }; })""",
                         selector)


def overlap(a: dict, b: dict) -> float:  # type: ignore[type-arg]
    """The area two boxes share (0 when they only touch)."""
    return max(0.0, min(a["right"], b["right"]) - max(a["left"], b["left"])) * max(0.0, min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]))


# The visible controls of the page, each with its box: a button here is one the player can see and tap.
CONTROLS = """() => [...document.querySelectorAll('button, a[href], input')].filter((e) => {
  const r = e.getBoundingClientRect(); if (!r.width || !r.height) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit && (hit === e || e.contains(hit));
}).map((e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: e.textContent.trim() }; })"""

# Nothing lies over an element: the middle of its box hits the element itself.
ON_TOP = """(s) => { const e = document.querySelector(s); const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!hit && (hit === e || e.contains(hit)); }"""


def open_as(browser, open_page, base: str, who: dict, url: str, lang: str, viewport: dict):  # type: ignore[no-untyped-def,type-arg]
    """``url`` as the guest ``who`` ({token, player_id, nickname}), its identity and settings stored before the app runs."""
    context = browser.new_context(viewport=viewport, locale="fa-IR" if lang == "fa" else "en-US")
    prefs = {"speed": "off", "muted": True, "lang": lang, "nickname": who["nickname"]}
    context.add_init_script(f"localStorage.setItem('hokm.auth.v1', {json.dumps(json.dumps(who))});"
                            f"localStorage.setItem('hokm.settings.v1', {json.dumps(json.dumps(prefs))});")
    return open_page(base + url, context=context)


def finished_computer_game(base: str, players: int, name: str, username: str | None = None) -> tuple[dict, str, str]:  # type: ignore[type-arg]
    """A guest plays a one-point game against the computer to its end over the WebSocket: (who, table, game)."""
    srv = SimpleNamespace(url=base, ws_url=base.replace("http", "ws", 1) + "/ws")

    async def main() -> tuple[dict, str, str]:  # type: ignore[type-arg]
        p = await Player(srv, name).signup()  # type: ignore[arg-type]
        if username:
            await p.api("POST", "/api/account", {"username": username, "password": "a long password"})
        tbl = await p.api("POST", "/api/tables", {"mode": "computer", "players": players, "bot": "random",
                                                   "rules": {"target_points": 1}}, status=201)
        await p.connect()
        await p.join(tbl["table_id"])
        end = await p.play(until=game_over)
        await p.close()
        return {"token": p.token, "player_id": p.id, "nickname": name}, tbl["table_id"], end["event"]["game_id"]

    with ThreadPoolExecutor(1) as pool:  # the browser's driver holds this thread's event loop
        return pool.submit(lambda: asyncio.run(asyncio.wait_for(main(), 120))).result()


def computer_table_with_short_timers(page, name: str, seconds: float = 1, players: int = 2) -> str:  # type: ignore[no-untyped-def]
    """A two-player, one-point table against the computer with one-second timers (or ``seconds``), made through the
    page's client: we do nothing, and after two timeouts the computer plays for us to the game's end."""
    return page.evaluate("""async ([name, s, players]) => {
        const { Api } = await import('./js/net.js');
        const api = new Api();
        await api.ensureGuest(name);
        const timers = { trump: s, play: s, discard: s, draw: s };
        return (await api.post('/api/tables', { mode: 'computer', players, bot: 'random', timers, rules: { target_points: 1 } })).table_id;
    }""", [name, seconds, players])


def a_friend_watches(page, tid: str) -> None:  # type: ignore[no-untyped-def]
    """The friends list the page reads says a friend has table ``tid`` open: the chat panel then offers its box for
    friends there (with no friend at a table, it offers none)."""
    friend = {"player_id": "p-friend", "nickname": "Dara", "username": None, "online": True, "table": tid}
    body = json.dumps({"code": "ABCD-EFGH", "friends": [friend], "incoming": [], "outgoing": [], "blocked": [], "recent": []})
    page.route("**/api/friends", lambda route: route.fulfill(status=200, content_type="application/json", body=body))


def start_computer_game(page, players: int = 4) -> None:  # type: ignore[no-untyped-def]
    """From the home page: a game against the computer, until our hand is dealt in full and the Hokm is known."""
    page.fill("#nickname", "سارا" if page.evaluate("document.documentElement.lang") == "fa" else "Sara")
    page.locator(f".panel-computer .seg[data-value='{players}']").first.click()
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=30000)
    for _ in range(300):
        v = table_view(page) or {}
        if v.get("trump") and v.get("phase") == "play" and len(v.get("hand") or []) == v.get("hand_size"):
            page.wait_for_function("""() => { const t = window.hokmDebug.table;
                return t.shown === t.view && document.querySelectorAll('.hand .card').length === t.view.hand.length; }""")
            return
        act_once(page)  # the Hokm, if we are the Hâkem
        page.wait_for_timeout(100)
    raise AssertionError("the hand was never dealt in full")


# ------------------------------------------------------------------------------------------------ 1. the banner
def test_the_computers_banner_covers_no_score_and_leaves_with_the_game(server, open_page):
    """While the computer plays for us the banner lies over neither score in the bar nor a seat's name; once the
    game is over it is gone, and the result and the final score are on top."""
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR", settings={"lang": "fa"})
    page.fill("#nickname", "لاله")
    tid = computer_table_with_short_timers(page, "لاله")
    page.goto(f"{server}/index.html#/table/{tid}")
    banner = page.locator("[data-testid=banner]:not([hidden])")
    banner.wait_for(timeout=30000)
    assert "رایانه به جای شما بازی می‌کند" in banner.inner_text()
    b = box(page, "[data-testid=banner]")
    assert b is not None
    covered = [x for x in boxes(page, "[data-testid^=score-], .seat .seat-name, .seat .avatar, .trump-badge") if overlap(b, x)]
    assert not covered, f"the banner lies over {covered}"
    assert page.evaluate(ON_TOP, "[data-testid=banner] .banner-btn"), "the banner's button is covered"
    shot(page, "readable-takeover-fa-390")

    page.wait_for_selector(".overlay[data-kind=game]", timeout=90000)
    page.wait_for_timeout(200)
    assert page.locator("[data-testid=banner]").is_hidden()
    for part in (".game-over-title", ".sum-head", ".final-score", "[data-testid=final-score-0]", "[data-testid=final-score-1]"):
        assert page.evaluate(ON_TOP, part), f"{part} is covered at the game's end"
    shot(page, "readable-takeover-gameover-fa-390")


# ------------------------------------------------------------------------------------------------ 2. codes and refusals
def test_a_room_code_typed_on_a_persian_keyboard_and_the_servers_refusals_in_persian(server, open_page):
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR", settings={"lang": "fa"})
    page.fill("#nickname", "سارا")
    code = page.locator("#room-code")
    code.click()
    page.keyboard.type("eq۵p-۵d۲e")
    # What was typed shows as the code it is: Latin, upper case, left to right, without the dash.
    assert code.input_value() == "EQ5P5D2E"
    assert code.evaluate("(e) => getComputedStyle(e).direction") == "ltr"
    # The page writes a typed code as the server reads it (hokm.server.codes.typed_code).
    from hokm.server.codes import typed_code
    samples = ["eq۵p-۵d۲e", " ab 12 ", "٣٤ab–cd", "ＡＢ１２"]
    assert in_app(page, "async (xs) => { const { typedCode } = await mod('i18n.js'); return xs.map(typedCode); }", samples) == [
        typed_code(x) for x in samples]
    words = in_app(page, """async () => { const { t } = await mod('i18n.js');
      return { room: t('err_room_not_found'), rate: t('err_rate_limited'), generic: t('err_generic'),
               busy: t('err_busy') }; }""")

    def toast_after(click) -> str:  # type: ignore[no-untyped-def]
        page.evaluate("() => document.querySelectorAll('.toast').forEach((e) => e.remove())")
        click()
        page.wait_for_selector(".toast")
        return page.locator(".toast").last.inner_text()

    said = toast_after(lambda: page.click("#join-room"))
    assert said == words["room"], said  # no room has this code: said in Persian, without the server's English
    assert not re.search("[A-Za-z]", said)
    # No button lies under the toast.
    t = box(page, ".toast")
    assert t is not None and not [c for c in page.evaluate(CONTROLS) if overlap(t, c)]
    shot(page, "readable-code-not-found-fa-390")

    # A node at the most connections it holds (or one stopping) answers 503 in plain English words, not JSON:
    # the page says the server is busy.
    page.route("**/api/codes/**", lambda route: route.fulfill(status=503, content_type="text/plain; charset=utf-8",
                                                              body="the server is full; try again in a moment\n"))
    said = toast_after(lambda: page.click("#join-room"))
    assert said == words["busy"] and not re.search("[A-Za-z]", said), said
    # A code the page knows (rate_limited) in its words; one it does not, by a Persian line, never the English.
    for status, err, expected in [(429, "rate_limited", words["rate"]), (400, "some_new_refusal", words["generic"])]:
        body = json.dumps({"v": 1, "error": {"code": err, "message": "an English message"}})
        page.unroute("**/api/codes/**")
        page.route("**/api/codes/**", lambda route, _request, s=status, b=body: route.fulfill(status=s, content_type="application/json", body=b))
        said = toast_after(lambda: page.click("#join-room"))
        assert said == expected and "English" not in said, said
    # In English an unknown refusal keeps the server's own words.
    page.click(".lang-switch button[lang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.locator("#room-code").fill("AB12CD34")
    said = toast_after(lambda: page.click("#join-room"))
    assert said == "Error: an English message", said
    page.unroute("**/api/codes/**")
    page.route("**/api/codes/**", lambda route: route.fulfill(status=503, content_type="text/plain; charset=utf-8",
                                                              body="the server is full; try again in a moment\n"))
    said = toast_after(lambda: page.click("#join-room"))
    assert said == "The server is busy; try again in a moment.", said  # not "Error: Service Unavailable"
    # The refusals asked for above are the browser's failed loads, not the page's errors.
    open_page.errors.items[:] = [e for e in open_page.errors.items if not re.search("Failed to load resource.*(404|429|400|503)", e)]


# ------------------------------------------------------------------------------------------------ 3. the computer's seats
@pytest.fixture(scope="module")
def finished_2p(server) -> tuple[dict, str, str]:  # type: ignore[no-untyped-def,type-arg]
    """Sara (username «سارا_۱۲») has played a two-player game against the computer to its end."""
    return finished_computer_game(server, 2, "سارا", username="سارا_۱۲")


def test_an_invite_link_whose_room_is_gone_says_so_in_a_whole_sentence(server, open_page):
    """A player with a name opens a link to a room that is not there: the page says which thing is gone, not a bare
    «دیگر وجود ندارد.»."""
    page = open_page(server + "/?join=ZZZZ9999", viewport={"width": 360, "height": 640},
                     settings={"lang": "fa", "nickname": "سارا"})
    page.wait_for_selector("main.home .card-panel p")
    assert page.locator("main.home .card-panel p").inner_text() == "این اتاق دیگر وجود ندارد"
    assert page.locator("main.home .card-panel a.btn").is_visible()
    open_page.errors.items[:] = [e for e in open_page.errors.items if not re.search("Failed to load resource.*404", e)]


def test_the_pages_description_is_in_its_language(server, open_page):
    """What a search result or a shared link shows of the page follows the page's language, as its title does."""
    page = open_page(server + "/", viewport={"width": 360, "height": 640}, settings={"lang": "fa"})
    about = "() => document.querySelector('meta[name=description]').content"
    assert page.evaluate(about) == "حکم، بازی ورق ایرانی، در مرورگر شما: با رایانه یا با دوستان."
    page.click(".lang-switch button[lang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.evaluate(about).startswith("Hokm (حکم), the Persian trick-taking card game")


def test_a_name_of_blank_letters_is_refused_with_what_it_needs(server, open_page):
    """Braille blanks look like a name to the page and like nothing to a reader: the server's refusal is said as what
    the name needs, in the player's words, for a player's name and for a username alike."""
    page = open_page(server + "/", viewport={"width": 360, "height": 640}, settings={"lang": "fa"})
    page.fill("#nickname", "\u2800\u2800\u2800")
    page.click("#play-computer")
    page.wait_for_selector(".toast")
    assert page.locator(".toast").last.inner_text() == "نام باید حرف یا رقم دیدنی داشته باشد"
    page.fill("#nickname", "سارا")
    page.click("#open-account")
    page.fill("#claim-username", "\u2800\u2800\u2800\u2800")
    page.fill("#claim-password", "a long password")
    page.click("#claim-account")
    page.wait_for_function("() => document.querySelector('[data-testid=account] .form-error').textContent === "
                           "'نام کاربری باید حرف یا رقم دیدنی داشته باشد'")
    open_page.errors.items[:] = [e for e in open_page.errors.items if not re.search("Failed to load resource.*400", e)]


def test_the_computers_seats_are_named_as_at_the_table_on_the_profile_and_the_offline_list(server, open_page, browser, finished_2p):
    who, tid, game = finished_2p
    page = open_as(browser, open_page, server, who, "/#/profile", "fa", PHONE)
    page.wait_for_selector("[data-testid=profile-game]")
    names = page.locator("[data-testid=profile-game] .recent-names").first.inner_text()
    assert "رایانه ۲" in names and "bot" not in names.lower(), names
    # The polish around it: the username in its own direction, the modes table's first heading.
    assert page.locator(".profile-username").evaluate("(e) => getComputedStyle(e).direction") == "rtl"
    assert page.locator("[data-testid=modes] thead th").first.inner_text() == "نوع بازی"
    shot(page, "readable-profile-fa-390")

    # The list of replays kept on the device, as the offline page shows it.
    page.evaluate("""async (game) => {
        const res = await fetch(`/api/games/${game}/replay`, { headers: { Authorization: `Bearer ${JSON.parse(localStorage.getItem('hokm.auth.v1')).token}` } });
        await (await caches.open('hokm-saved-v1')).put(new URL(`/api/games/${game}/replay`, location.href).href, res);
    }""", game)
    page.goto(server + "/offline.html")
    page.wait_for_selector(".saved-game")
    kept = page.locator(".saved-game").first.inner_text()
    assert "رایانه ۲" in kept and "bot" not in kept.lower(), kept
    shot(page, "readable-offline-fa-390")


def test_the_replay_says_what_its_first_step_shows(server, open_page, browser, finished_2p):
    who, tid, game = finished_2p
    page = open_as(browser, open_page, server, who, f"/#/replay/{game}", "fa", PHONE)
    page.wait_for_selector(".replay-seat")
    caption = page.locator(".replay-caption").inner_text()
    assert "پیش از دور اول" in caption and "همهٔ دست‌ها" not in caption, caption
    page.click(".lang-switch button[lang=en]")
    page.wait_for_selector(".replay-seat")
    caption = page.locator(".replay-caption").inner_text()
    assert "before the first trick" in caption and "All hands" not in caption, caption


def test_a_replay_link_opened_by_someone_else_says_whose_replay_it_is(server, open_page, browser, finished_2p):
    """A replay is its players' own. A link to one opened on a phone with no session, or by another guest, says so,
    not «نشست شما تمام شده است؛ صفحه را دوباره بارگذاری کنید.» (reloading changes nothing)."""
    _, _, game = finished_2p
    page = open_page(server + f"/#/replay/{game}", viewport=PHONE, locale="fa-IR", settings={"lang": "fa"})
    page.wait_for_selector("main.replay .card-panel p")
    said = page.locator("main.replay .card-panel p").inner_text()
    assert said.startswith("بازپخش این بازی فقط برای بازیکنان آن است.") and "وارد حساب" in said, said
    shot(page, "readable-replay-not-a-player-fa-390")
    other = finished_computer_game(server, 2, "نیما")[0]
    page = open_as(browser, open_page, server, other, f"/#/replay/{game}", "en", PHONE)
    page.wait_for_selector("main.replay .card-panel p")
    assert page.locator("main.replay .card-panel p").inner_text() == "Only this game's players can watch its replay."
    open_page.errors.items[:] = [e for e in open_page.errors.items if not re.search("Failed to load resource.*40[13]", e)]


def game_in_progress(base: str, name: str) -> tuple[dict, str]:  # type: ignore[type-arg]
    """A guest at a two-player table against the computer whose game has begun and is not over: (who, game)."""
    srv = SimpleNamespace(url=base, ws_url=base.replace("http", "ws", 1) + "/ws")

    async def main() -> tuple[dict, str]:  # type: ignore[type-arg]
        p = await Player(srv, name).signup()  # type: ignore[arg-type]
        tbl = await p.api("POST", "/api/tables", {"mode": "computer", "players": 2, "bot": "random"}, status=201)
        await p.connect()
        state = await p.join(tbl["table_id"])
        game = state["table"]["game_id"]
        await p.close()
        return {"token": p.token, "player_id": p.id, "nickname": name}, game

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(asyncio.wait_for(main(), 60))).result()


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_a_replay_link_to_a_game_still_being_played_says_when_it_opens(server, open_page, browser, lang):
    """A player opens the replay of their own game before its end (a link shared too early, a tab kept): the page
    says the game goes on and when the replay opens, not that the replay is someone else's or a failure."""
    who, game = game_in_progress(server, "رها")
    assert game
    page = open_as(browser, open_page, server, who, f"/#/replay/{game}", lang, PHONE)
    page.wait_for_selector("main.replay .card-panel p")
    said = page.locator("main.replay .card-panel p").inner_text()
    assert said == {"fa": "این بازی هنوز ادامه دارد؛ بازپخش آن پس از پایان بازی باز می‌شود.",
                    "en": "This game is still being played: its replay opens once it is over."}[lang], said
    shot(page, f"readable-replay-in-progress-{lang}-390")
    open_page.errors.items[:] = [e for e in open_page.errors.items if not re.search("Failed to load resource.*409", e)]


@pytest.mark.parametrize("size", [{"width": 844, "height": 390}, {"width": 740, "height": 360}], ids=["844x390", "740x360"])
def test_a_replay_on_a_phone_on_its_side_keeps_its_steps_on_screen(server, open_page, browser, finished_3p, size):
    """On its side the replay's steps began 11 px above the screen's foot: each step meant a scroll away from the
    cards. They stay at the foot of the screen, however far the page is scrolled."""
    who, _, game = finished_3p
    page = open_as(browser, open_page, server, who, f"/#/replay/{game}", "fa", size)
    page.wait_for_selector(".replay-seat")
    for where in ("top", "bottom"):
        page.evaluate(f"() => scrollTo(0, {'0' if where == 'top' else 'document.scrollingElement.scrollHeight'})")
        page.wait_for_timeout(50)
        for q in (".prev", ".next"):
            box = page.locator(f".replay-controls {q}").bounding_box()
            assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= size["height"], (where, q, box)
        shot(page, f"readable-replay-steps-fa-{size['width']}x{size['height']}-{where}")


# ------------------------------------------------------------------------------------------------ 4, 5. the score sheet
@pytest.fixture(scope="module")
def finished_3p(server) -> tuple[dict, str, str]:  # type: ignore[no-untyped-def,type-arg]
    return finished_computer_game(server, 3, "بهار")


def test_the_three_player_score_sheet_keeps_its_columns_apart(server, open_page, browser, finished_3p):
    who, tid, _ = finished_3p
    page = open_as(browser, open_page, server, who, f"/#/table/{tid}", "fa", PHONE)
    page.wait_for_selector(".overlay[data-kind=game] .score-sheet")
    shot(page, "readable-3p-sheet-fa-390")
    # Headings side by side stand apart: between the words of two neighbours in a row, at least 8 px.
    rows = page.evaluate("""() => [...document.querySelectorAll('.score-sheet thead tr')].map((tr) => [...tr.children].map((th) => {
        const r = document.createRange(); r.selectNodeContents(th); const w = r.getBoundingClientRect(), c = th.getBoundingClientRect();
        return { text: th.textContent, left: w.left, right: w.right, cellLeft: c.left, cellRight: c.right }; }))""")
    for row in rows:
        cells = sorted(row, key=lambda c: c["left"])
        for a, b in zip(cells, cells[1:]):
            assert b["left"] - a["right"] >= 8, f"«{a['text']}» and «{b['text']}» run together ({b['left'] - a['right']:.1f} px)"
        for c in cells:  # a name wraps within its own column
            assert c["left"] >= c["cellLeft"] - 0.5 and c["right"] <= c["cellRight"] + 0.5, c
    # The points: who, then the number on a chip of its own, a colon after a name that ends in a digit.
    side = page.locator(".score-sheet .points-side").first.inner_text().strip()
    points = page.locator(".score-sheet .points-n").first.inner_text().strip()
    assert re.fullmatch("\\+[۰-۹]+", points), points
    if re.search("[۰-۹]$", side.rstrip(":")):
        assert side.endswith(":"), side
    gap = page.evaluate("""() => { const a = document.querySelector('.points-side').getBoundingClientRect(),
        b = document.querySelector('.points-n').getBoundingClientRect();
        return Math.max(b.left - a.right, a.left - b.right, b.top - a.bottom); }""")
    shot(page, "readable-3p-sheet-fa-390")
    assert gap >= 2, gap


NAME_BROKEN = """() => [...document.querySelectorAll('.score-sheet .sh-name, .score-sheet .points-side')].filter((e) => e.offsetParent)
    .map((e) => { const shown = [...e.querySelectorAll('.sh-full, .sh-short')].find((x) => x.offsetParent) || e;
      const r = document.createRange(); r.selectNodeContents(shown);
      const lines = new Set([...r.getClientRects()].filter((q) => q.width > 0.5).map((q) => Math.round(q.top)));
      return { name: shown.textContent, lines: lines.size }; })
    .filter((n) => n.lines > 1 && /[۰-۹0-9]$/.test(n.name.replace(/:$/, '')))"""


@pytest.mark.parametrize("size", [{"width": 360, "height": 740}, PHONE], ids=["360", "390"])
def test_a_computer_seats_name_in_the_three_player_sheet_keeps_its_number_on_its_line(server, open_page, browser, finished_3p,
                                                                                       size):
    """«رایانه ۳» broken after its word left «۳» alone on a line of its own, one more number in a table of numbers: a
    name that ends in its seat's number keeps it on its line, in the headings and in the Hâkem's column, and the
    sheet still fits the phone."""
    from .test_table import SUMMARY_UNFIT
    who, tid, _ = finished_3p
    page = open_as(browser, open_page, server, who, f"/#/table/{tid}", "fa", size)
    page.wait_for_selector(".overlay[data-kind=game] .score-sheet")
    page.wait_for_timeout(100)
    shot(page, f"readable-3p-sheet-names-fa-{size['width']}")
    assert page.evaluate(NAME_BROKEN) == []
    assert page.evaluate(SUMMARY_UNFIT) == [], size
    # The sheet reaches toward the screen's edges inside the summary's own box, which clips what passes it.
    cut = page.evaluate("""() => { const sc = document.querySelector('.overlay[data-kind=game] .sheet-scroll');
      const a = sc.getBoundingClientRect(), b = sc.parentElement.closest('.modal-scroll').getBoundingClientRect();
      return [a.left - b.left, b.right - a.right]; }""")
    assert min(cut) >= -0.5, cut


IN_SIGHT = """() => { const box = document.querySelector(".overlay[data-kind=game] .modal-scroll").getBoundingClientRect();
    const seen = (e) => { const r = e.getBoundingClientRect();
      return r.height > 0 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.left >= -0.5 && r.right <= innerWidth + 0.5; };
    const rows = [...document.querySelectorAll(".overlay[data-kind=game] .sum-row")];
    return { rows: rows.length, rowsSeen: rows.filter(seen).length,
             won: rows.filter((e) => e.classList.contains("won")).every(seen),
             head: [...document.querySelectorAll(".overlay[data-kind=game] .score-sheet thead th")].every(seen),
             firstHand: seen(document.querySelector(".overlay[data-kind=game] .score-sheet tbody tr")) }; }"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_games_end_on_a_phone_on_its_side_shows_every_side_and_the_sheet_at_once(server, open_page, browser,
                                                                                     finished_3p, lang):
    """At 844 x 390 the summary ran down under its buttons: the winner's line and the sheet's hands were out of sight
    until scrolled. On its side the phone shows the sides' lines beside the sheet, all of them and the sheet's
    headings and first hand without a scroll."""
    from .test_table import SUMMARY_UNFIT
    who, tid, _ = finished_3p
    for size in ({"width": 844, "height": 390}, {"width": 740, "height": 360}, {"width": 667, "height": 375}):
        page = open_as(browser, open_page, server, who, f"/#/table/{tid}", lang, size)
        page.wait_for_selector(".overlay[data-kind=game] .score-sheet")
        page.wait_for_timeout(100)
        shot(page, f"readable-3p-game-over-{lang}-{size['width']}x{size['height']}")
        seen = page.evaluate(IN_SIGHT)
        assert seen == {"rows": 3, "rowsSeen": 3, "won": True, "head": True, "firstHand": True}, (size, seen)
        assert page.evaluate(SUMMARY_UNFIT) == [], size
        # «شما: ۰، رایانه ۲: ۳، رایانه ۳:» above a «۲» alone on the next line: each side's score stays beside its name.
        pairs = page.evaluate("""() => [...document.querySelectorAll('.overlay[data-kind=game] .final-score .final-pair')].map((p) =>
            [p.textContent, new Set([...p.getClientRects()].filter((q) => q.width > 0.5).map((q) => Math.round(q.top))).size])""")
        assert len(pairs) == 3 and all(lines == 1 for _, lines in pairs), (size, pairs)


def test_the_three_player_score_sheet_fits_a_phone_in_english(server, open_page, browser, finished_3p):
    """Ten columns with the seats' English names ("Computer 1") over theirs: on a 360 or 390 px phone the sheet fits
    its box, with no sideways scroll; each side's column says whose it is in full to a screen reader and on a hover."""
    from .test_table import SUMMARY_UNFIT
    who, tid, _ = finished_3p
    page = open_as(browser, open_page, server, who, f"/#/table/{tid}", "en", {"width": 360, "height": 740})
    page.wait_for_selector(".overlay[data-kind=game] .score-sheet")
    for size in ({"width": 360, "height": 740}, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        shot(page, f"readable-3p-sheet-en-{size['width']}")
        assert page.evaluate(SUMMARY_UNFIT) == [], size
        cut = page.evaluate("""() => [...document.querySelectorAll('.score-sheet .sh-name')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
        assert not cut, cut
    names = page.evaluate("""() => [...document.querySelectorAll('.score-sheet th.side')].map((th) => th.getAttribute('aria-label') || th.textContent)""")
    assert len(names) == 6 and len(set(names)) == 3, names
    assert any(n.startswith("Computer") for n in names), names


# ------------------------------------------------------------------------------------------------ 6, 7. rematch and chat sheet
def test_a_rematch_request_shows_in_the_summary_over_no_button(server, open_page, browser):
    from .test_talk import finished_table
    from .test_talk import open_as as talk_open_as
    a, b, tid = finished_table(server)
    host = talk_open_as(open_page, browser, server, a, 0, tid, "en", DESKTOP)
    guest = talk_open_as(open_page, browser, server, b, 1, tid, "fa", PHONE)
    for page in (host, guest):
        page.wait_for_selector("[data-testid=rematch]", timeout=15000)
    host.click("[data-testid=rematch]")
    guest.wait_for_selector("[data-testid=rematch-asked-0]")
    line = guest.locator("[data-testid=rematch-asked-0]").inner_text()
    assert "Ali" in line and "می‌خواهد دوباره بازی کند" in line, line
    note = box(guest, "[data-testid=rematch-asked-0]")
    assert note is not None
    under = [c for c in guest.evaluate(CONTROLS) if overlap(note, c)]
    assert not under, f"the request lies over {under}"
    assert guest.evaluate(ON_TOP, "[data-testid=rematch]")
    assert guest.locator(".toast").count() == 0
    shot(guest, "readable-rematch-asked-fa-390")


def test_the_chat_sheet_opens_under_the_bar_and_closes_after_sending_and_at_the_games_end(server, open_page):
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR", settings={"lang": "fa"})
    page.fill("#nickname", "لاله")
    # At a table that waits for us (a short-timer game could end, and close the sheet, while a slow page types),
    # once the Hokm is known (the trump window, ours to answer if we are the Hâkem, lies over the table)...
    tid = computer_table_with_short_timers(page, "لاله", seconds=300, players=4)
    a_friend_watches(page, tid)
    page.goto(f"{server}/index.html#/table/{tid}")
    page.wait_for_selector("[data-testid=talk]")
    for _ in range(300):
        v = table_view(page) or {}
        if v.get("phase") == "play" and page.locator(".overlay:visible").count() == 0:
            break
        if v.get("phase") == "trump":
            act_once(page)  # the Hokm, if we are the Hâkem
        page.wait_for_timeout(100)
    # ...and our turn has come (when it comes, a sheet lying over the hand steps aside: opened during it, it stays).
    page.wait_for_function("() => document.querySelector('.your-turn') !== null", timeout=30000)
    page.click("[data-testid=talk]")
    sheet = page.locator("[data-testid=talk-sheet]")
    assert sheet.is_visible()
    bar = box(page, "[data-testid=top-bar]")
    s = box(page, "[data-testid=talk-sheet]")
    assert bar is not None and s is not None and s["top"] >= bar["bottom"], (s, bar)
    box_in = page.locator("[data-testid=chat-input]")
    # Empty, the box reads right to left in Persian: the placeholder and the caret at the right.
    assert box_in.evaluate("(e) => getComputedStyle(e).direction") == "rtl"
    box_in.fill("سلام")
    box_in.press("Enter")
    page.wait_for_function("() => document.querySelector('[data-testid=talk-sheet]').hidden")
    # ...then at one that the computer plays to its end: open the sheet and leave it open; the game's end closes it,
    # and the summary is on top.
    page.evaluate("() => { window.firstTable = window.hokmDebug && window.hokmDebug.table; }")
    tid = computer_table_with_short_timers(page, "لاله", seconds=3)  # long enough for a slow page to open the sheet
    page.goto(f"{server}/index.html#/table/{tid}")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table !== window.firstTable && window.hokmDebug.table.view")
    # Once the computer plays for us (no turn of ours comes to move the sheet aside any more).
    page.wait_for_function("() => { const t = window.hokmDebug.table; const s = t.seats && t.view && t.seats[t.view.seat]; "
                           "return !!(s && s.auto); }", timeout=30000)
    page.click("[data-testid=talk]")
    assert sheet.is_visible()
    page.wait_for_selector(".overlay[data-kind=game]", timeout=90000)
    page.wait_for_function("() => document.querySelector('[data-testid=talk-sheet]').hidden")
    assert page.evaluate(ON_TOP, ".game-over-title")
    shot(page, "readable-chat-closed-at-gameover-fa-390")


def test_a_choice_against_the_clock_closes_the_chat_sheet_and_keeps_the_words(server, open_page):
    """Two players: the chat sheet open while we discard; when our turn at the stock comes, its window is not under the
    sheet: the sheet gives way, and what we had typed is still in the box when we open it again."""
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR", settings={"lang": "fa"})
    page.fill("#nickname", "لاله")
    tid = computer_table_with_short_timers(page, "لاله", seconds=300)
    a_friend_watches(page, tid)
    page.goto(f"{server}/index.html#/table/{tid}")
    page.wait_for_selector("[data-testid=talk]")
    for _ in range(300):  # the Hokm if we are the Hâkem, up to our discard
        v = table_view(page) or {}
        legal = v.get("legal") or []
        if legal and legal[0]["type"] == "discard" and page.locator(".overlay:visible").count() == 0:
            break
        if v.get("phase") == "trump":
            act_once(page)
        page.wait_for_timeout(100)
    else:
        raise AssertionError("our discard never came")
    # The discard drawn as asked (its turn begun: a sheet opened from here on stays until a choice on the clock).
    page.wait_for_selector(".discard-confirm")
    page.click("[data-testid=talk]")
    page.locator("[data-testid=chat-input]").fill("یک لحظه")
    page.evaluate("() => { const t = window.hokmDebug.table; t.send(t.view.legal[0]); }")  # our discard
    page.wait_for_selector(".overlay[data-kind=draw]:visible", timeout=30000)
    assert page.locator("[data-testid=talk-sheet]").is_hidden()
    assert page.evaluate(ON_TOP, ".overlay[data-kind=draw] [data-choice]")
    assert page.locator("[data-testid=chat-input]").input_value() == "یک لحظه"
    shot(page, "readable-draw-over-chat-fa-390")


# ------------------------------------------------------------------------------------------------ 8. bubbles
LONG = "سلام! می‌خواهم ۲ دست ببرم، code AB12 و بعد یک دست دیگر هم"
SHORT = "Hi! I want to win 2 hands, code AB12"


@pytest.mark.parametrize("lang, viewport", [("fa", PHONE), ("fa", SIDEWAYS), ("en", DESKTOP)])
def test_chat_bubbles_cover_no_name_and_no_score(server, open_page, lang, viewport):
    page = open_page(server + "/", viewport=viewport, locale="fa-IR" if lang == "fa" else "en-US", settings={"lang": lang})
    start_computer_game(page, 4)
    page.wait_for_selector("[data-testid=talk]")
    text = LONG if lang == "fa" else SHORT
    for seat in range(4):
        in_app(page, """async ([seat, text]) => (await mod('talk.js')).showChat(window.hokmDebug.table, { seat, text })""", [seat, text])
    names = boxes(page, ".seat .seat-name") + boxes(page, "[data-testid^=score-]")
    assert len(names) >= 6
    for seat in range(4):
        b = box(page, f"[data-testid=chat-{seat}]")
        assert b is not None
        covered = [n["text"] for n in names if overlap(b, n)]
        assert not covered, f"seat {seat}'s bubble lies over {covered}"
        felt = box(page, ".felt")
        assert felt is not None and b["top"] >= felt["top"] - 0.5, "a bubble left the cloth"
    if viewport is DESKTOP:  # a short line stays one line on a large screen
        lines = page.evaluate("""() => { const b = document.querySelector('[data-testid=chat-0]');
            const s = getComputedStyle(b), line = parseFloat(s.lineHeight) || 1.4 * parseFloat(s.fontSize);
            return (b.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom)) / line; }""")
        assert lines < 1.6, lines
    # The log keeps quick phrases and emotes too, with their words.
    in_app(page, """async () => { const talk = await mod('talk.js');
        talk.onTalkEvent(window.hokmDebug.table, { kind: 'chat', seat: 1, phrase: 'thanks' }, 0, () => {});
        talk.onTalkEvent(window.hokmDebug.table, { kind: 'chat', seat: 2, emote: 'clap' }, 0, () => {}); }""")
    page.click("[data-testid=talk]")
    log = page.locator("[data-testid=chat-log]").inner_text()
    assert ("ممنون" if lang == "fa" else "Thanks") in log and "👏" in log, log
    page.click("[data-testid=talk]")
    shot(page, f"readable-bubbles-{lang}-{viewport['width']}x{viewport['height']}")


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 740, "height": 360}, {"width": 844, "height": 390}],
                         ids=["360x640", "740x360", "844x390"])
def test_your_own_emote_lies_over_no_other_seat(server, open_page, viewport):
    """Over your seat lay the left seat's cards on a small phone and, on its side, the right seat (your seat is in the
    line under the cloth there): your 👏 read as the computer's. It lies nearer your seat than any other, over none."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR", settings={"lang": "fa"})
    start_computer_game(page, 4)
    page.wait_for_selector("[data-testid=talk]")
    in_app(page, """async () => (await mod('talk.js')).showChat(window.hokmDebug.table,
        { seat: window.hokmDebug.table.view.seat, emote: 'clap' })""", None)
    page.wait_for_timeout(1000)  # its entrance over
    me = page.evaluate("() => window.hokmDebug.table.view.seat")
    bubble = box(page, f"[data-testid=chat-{me}]")
    assert bubble is not None
    seats = page.evaluate("""() => [...document.querySelectorAll('.seat')].map((e) => {
        const r = e.getBoundingClientRect(); return { mine: e.classList.contains('me'), left: r.left, top: r.top, right: r.right, bottom: r.bottom }; })""")
    shot(page, f"readable-own-emote-fa-{viewport['width']}x{viewport['height']}")
    x, y = (bubble["left"] + bubble["right"]) / 2, (bubble["top"] + bubble["bottom"]) / 2

    def far(r: dict) -> float:  # type: ignore[type-arg]
        return float(math.hypot(max(r["left"] - x, 0, x - r["right"]), max(r["top"] - y, 0, y - r["bottom"])))

    mine = [far(r) for r in seats if r["mine"]]
    assert len(seats) == 4 and len(mine) == 1
    assert all(mine[0] < far(r) for r in seats if not r["mine"]), ("nearer another seat than yours", bubble, seats)
    assert not [r for r in seats if not r["mine"] and overlap(bubble, r)], (bubble, seats)


# ------------------------------------------------------------------------------------------------ 9. desktop home
def test_a_first_desktop_visit_shows_the_title_first(server, open_page):
    page = open_page(server + "/", viewport=DESKTOP, locale="fa-IR", settings={"lang": "fa"})
    page.wait_for_selector("#open-account")
    title = box(page, ".hero h1")
    account = box(page, "#open-account")
    assert title is not None and account is not None and account["top"] > title["bottom"], (title, account)
    shot(page, "readable-home-first-visit-fa-1440")


# ------------------------------------------------------------------------------------------------ 9b. phone home
# Those of the elements lying whole on the screen whose middle shows something else: what lies over them.
UNCOVERED = """(sels) => sels.flatMap((sel) => [...document.querySelectorAll(sel)]).filter((e) => {
    const r = e.getBoundingClientRect();
    if (!r.width || r.top < 0 || r.bottom > innerHeight) return false;  // only what lies whole on the screen
    const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return !(top && e.contains(top)); }).map((e) => e.textContent.trim() || e.id || e.className)"""


@pytest.mark.parametrize(("lang", "viewport"), [("fa", {"width": 360, "height": 740}), ("fa", PHONE),
                                                ("fa", {"width": 360, "height": 640}), ("en", {"width": 360, "height": 640})],
                         ids=["fa-360x740", "fa-390x844", "fa-360x640", "en-360x640"])
def test_a_phone_shows_the_start_button_on_the_first_screen(server, open_page, lang, viewport):
    """Upright on a phone the title and the choices fill the first screen: the start button stays at its foot,
    over nothing one must read or type there first, and lies in its own place, over nothing, once the page is
    scrolled to it."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR" if lang == "fa" else "en-US",
                     settings={"lang": lang, "nickname": "سارا" if lang == "fa" else "Sara"})
    page.wait_for_selector("#play-computer")
    start = box(page, "#play-computer")
    assert start is not None and 0 <= start["top"] and start["bottom"] <= viewport["height"], start
    assert page.evaluate(UNCOVERED, ["#play-computer", "#nickname", ".panel-name .field-label", ".panel-computer h2"]) == []
    shot(page, f"readable-home-start-{lang}-{viewport['width']}x{viewport['height']}")
    page.evaluate("() => document.querySelector('#room-code').scrollIntoView({ block: 'end' })")
    page.wait_for_timeout(100)
    assert page.evaluate(UNCOVERED, [".panel-computer .seg", ".panel-computer .field-label", ".level-about", "#play-computer"]) == []
    # and it starts the game with what was chosen
    page.locator(".panel-computer .seg[data-value='3']").first.click()
    page.evaluate("() => window.scrollTo(0, 0)")
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view && window.hokmDebug.table.view.players === 3",
                           timeout=20000)


# ------------------------------------------------------------------------------------------------ 10. hand order
@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_hand_reads_in_the_pages_direction(server, open_page, lang):
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR" if lang == "fa" else "en-US", settings={"lang": lang})
    start_computer_game(page, 4)
    v = table_view(page)
    order = in_app(page, "async ([hand, trump]) => (await mod('handorder.js')).orderHand(hand, trump)", [v["hand"], v["trump"]])
    cards = page.evaluate("""() => [...document.querySelectorAll('.hand .card')].map((c) => {
        const r = c.getBoundingClientRect(); return { card: c.dataset.card, x: r.left, row: c.style.getPropertyValue('--y') }; })""")
    place = {c["card"]: c for c in cards}
    rows: dict[str, list[str]] = {}
    for card in order:  # the order, cut into the rows as laid
        rows.setdefault(place[card]["row"], []).append(card)
    for row in rows.values():
        xs = [place[c]["x"] for c in row]
        # "First" is where the reader starts: the right in Persian, the left in English.
        assert xs == (sorted(xs, reverse=True) if lang == "fa" else sorted(xs)), (lang, row, xs)
    first_row = rows[min(rows, key=lambda r: float(r.rstrip("px") or 0))]
    # Trump first: it opens the hand (when the deal gave the hand a trump at all).
    assert first_row[0] == order[0] and (order[0][1] == v["trump"] or all(c[1] != v["trump"] for c in v["hand"]))
    # Each card's corner stays in view: the card on its left lies under it.
    z = page.evaluate("(c) => Number(document.querySelector(`.hand .card[data-card='${c}']`).style.zIndex)", order[0])
    z_next = page.evaluate("(c) => Number(document.querySelector(`.hand .card[data-card='${c}']`).style.zIndex)", first_row[1])
    assert z > z_next if lang == "fa" else z < z_next
    # The arrows go the way the hand is laid.
    page.locator(f".hand .card[data-card='{order[0]}']").evaluate("(e) => { e.disabled = false; e.focus(); }")
    # The other seats' plays redraw the hand: the focus stays where the player put it.
    page.evaluate("() => window.hokmDebug.table.render()")
    page.locator(f".hand .card[data-card='{order[0]}']").evaluate("(e) => { e.disabled = false; }")
    assert page.evaluate("() => document.activeElement && document.activeElement.dataset.card") == order[0]
    page.keyboard.press("ArrowLeft" if lang == "fa" else "ArrowRight")
    focused = page.evaluate("() => document.activeElement && document.activeElement.dataset.card")
    assert order.index(focused) > 0, focused
    shot(page, f"readable-hand-order-{lang}-390")


# ------------------------------------------------------------------------------------------------ 12. the game score
# The glyphs' own height as drawn (a Persian zero is a small ring: its font size says little about what one sees).
INK = """(sel) => { const cv = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length && e.textContent.trim()).map((e) => {
    const s = getComputedStyle(e); cv.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const m = cv.measureText(e.textContent.trim());
    return { text: e.textContent.trim(), size: parseFloat(s.fontSize), ink: m.actualBoundingBoxAscent + m.actualBoundingBoxDescent }; }); }"""


@pytest.mark.parametrize("lang, viewport", [("fa", DESKTOP), ("fa", PHONE), ("en", DESKTOP), ("en", PHONE)])
def test_the_game_score_is_the_largest_number_in_view(server, open_page, lang, viewport):
    page = open_page(server + "/", viewport=viewport, locale="fa-IR" if lang == "fa" else "en-US", settings={"lang": lang})
    start_computer_game(page, 4)
    page.evaluate("() => document.fonts.ready")
    scores = page.evaluate(INK, "[data-testid=top-bar] .game-score")
    tricks = page.evaluate(INK, "[data-testid=top-bar] .flower-tricks, .seat .seat-tricks")
    assert len(scores) == 2 and tricks
    smallest = min(s["ink"] for s in scores)  # at the start both scores are 0: in Persian the small ring
    largest = max(t["ink"] for t in tricks)
    assert smallest > 1.2 * largest, f"the score is {smallest:.1f} px high, a trick count {largest:.1f} px"
    assert min(s["size"] for s in scores) > 2 * max(t["size"] for t in tricks)
    shot(page, f"readable-score-{lang}-{viewport['width']}")


# The bar drawn by the table with every score from 0 to 9 in turn (in one task, so no message from the server comes
# between): where the ink of the "points" word ends and the score's begins, and the score box's edges. A glyph's
# ink is measured from its baseline (a zero-size inline box beside it) with the canvas's bounding box of the text.
DIGIT_INK = """() => { const cv = document.createElement('canvas').getContext('2d');
  const ink = (e) => { const s = getComputedStyle(e), text = e.textContent; cv.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const probe = document.createElement('span'); probe.style.cssText = 'display:inline-block;width:0;height:0;vertical-align:baseline';
    e.append(probe); const base = probe.getBoundingClientRect().bottom, m = cv.measureText(text); probe.remove();
    return { top: base - m.actualBoundingBoxAscent, bottom: base + m.actualBoundingBoxDescent }; };
  const tb = window.hokmDebug.table, view = tb.view, out = [];
  for (let n = 0; n < 10; n++) {
    tb.view = { ...view, scores: view.scores.map(() => n) };
    tb.renderBar();
    for (const cell of document.querySelectorAll('[data-testid=top-bar] .score-cell')) {
      const b = cell.closest('.flower-box').getBoundingClientRect(), w = ink(cell.querySelector('.score-word')), g = ink(cell.querySelector('.game-score'));
      out.push({ digit: cell.querySelector('.game-score').textContent, wordBottom: w.bottom, top: g.top, bottom: g.bottom, boxTop: b.top, boxBottom: b.bottom });
    }
  }
  tb.view = view; tb.renderBar();
  return out; }"""


@pytest.mark.parametrize("lang, viewport", [("fa", DESKTOP), ("fa", PHONE), ("fa", SIDEWAYS), ("en", PHONE)])
def test_no_score_digit_runs_into_the_points_word(server, open_page, lang, viewport):
    """The bar's score is a big digit under the small word «امتیاز» ("points"): a Persian ۱ to ۹ stands as tall as a
    Latin digit (only the zero is a small ring), and none of them may reach up into the word or out of the box."""
    page = open_page(server + "/", viewport=viewport, locale="fa-IR" if lang == "fa" else "en-US", settings={"lang": lang})
    start_computer_game(page, 4)
    page.evaluate("() => document.fonts.ready")
    bad = [f"{g['digit']}: ink from {g['top']:.1f} under a word ending at {g['wordBottom']:.1f}, box {g['boxTop']:.1f}-{g['boxBottom']:.1f}"
           for g in page.evaluate(DIGIT_INK)
           if g["top"] < g["wordBottom"] + 1 or g["bottom"] > g["boxBottom"] - 1]
    shot(page, f"readable-score-digits-{lang}-{viewport['width']}")
    assert not bad, bad


# ------------------------------------------------------------------------------------------------ polish
def test_the_leaderboard_keeps_rating_and_wins_apart_and_the_room_names_seats(server, open_page, browser, finished_2p):
    who, _, _ = finished_2p
    page = open_as(browser, open_page, server, who, "/", "fa", PHONE)
    page.wait_for_selector(".leader .leader-wins")
    # Her claimed username beside her name, a space apart and outside its isolate (nicknames repeat).
    mine = page.locator(".leader.me .leader-username")
    assert mine.inner_text() == "@سارا_۱۲"
    assert mine.evaluate("(e) => e.previousSibling.textContent") == " "
    for item in page.locator(".leader").all():
        stats = item.locator(".leader-stats > span")
        assert 1 <= stats.count() <= 2
        if stats.count() == 2:  # two chips with room between them, never «ریتینگ ۱، ۱ برد» in one run
            a, b = (stats.nth(i).bounding_box() for i in range(2))
            assert a and b and max(a["x"] - (b["x"] + b["width"]), b["x"] - (a["x"] + a["width"])) >= 6
    page.click("#create-room")
    page.wait_for_selector(".seat-row .seat-no")
    assert page.locator(".seat-row .seat-no").first.inner_text() == "صندلی ۱"


def test_the_persian_strings_write_the_ezafe_one_way() -> None:
    """«همهٔ», never «همه‌ی»: one spelling of the ezafe in every file the page loads."""
    for path in STATIC.rglob("*.js"):
        assert "همه‌ی" not in path.read_text(encoding="utf-8"), path
