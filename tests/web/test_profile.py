"""Profile pages in the browser: your own profile in Persian with the rating chart (Persian digits
on its axes), the per-mode table and a recent game that opens its replay; a friend's page reached
from the friends list, private (name and picture only) until they make it public."""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import websockets

from .conftest import DESKTOP, keep_account, shot

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}
PERSIAN_DIGITS = set("۰۱۲۳۴۵۶۷۸۹")
MARKUP_NAME = "<img src=x onerror=a()>"  # the friend's nickname: must show as text


class Client:
    """A player over HTTP and one WebSocket that answers every decision with its first legal action."""

    def __init__(self, base: str, name: str) -> None:
        self.base, self.name = base, name
        self.http = httpx.AsyncClient(base_url=base, timeout=20)
        self.token = self.id = ""

    async def api(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        r = await self.http.request(method, path, json=body)
        assert r.status_code == status, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()

    async def signup(self) -> Client:
        d = await self.api("POST", "/api/guest", {"nickname": self.name}, status=201)
        self.token, self.id = d["token"], d["player_id"]
        self.http.headers["Authorization"] = f"Bearer {self.token}"
        return self

    async def play(self, table: str) -> None:
        async with websockets.connect(self.base.replace("http", "ws", 1) + "/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            await ws.send(json.dumps({"type": "join", "table": table, "last_seq": None}))
            answered, seq = None, 0
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if msg["type"] == "event" and msg["event"]["kind"] == "game_over":
                    return
                if msg["type"] == "error" and msg["code"] == "rate_limited":
                    await asyncio.sleep(0.2)
                    answered = None
                    continue
                view = msg.get("view")
                seq = max(seq, msg.get("seq", 0))
                if view and view["legal"] and json.dumps(view, sort_keys=True) != answered:
                    answered = json.dumps(view, sort_keys=True)
                    await ws.send(json.dumps({"type": "action", "action": view["legal"][0], "seq": seq}))


async def two_friends_play(base: str) -> tuple[Client, Client]:
    """Pari and Babak (a nickname that looks like markup) claim usernames, become friends, play two rated games."""
    a, b = await Client(base, "پری").signup(), await Client(base, MARKUP_NAME).signup()
    await a.api("POST", "/api/account", {"username": "pari", "password": "a long password"})
    await b.api("POST", "/api/account", {"username": "babak", "password": "a long password"})
    await a.api("POST", "/api/friends", {"username": "babak"}, status=201)
    await b.api("POST", f"/api/friends/{a.id}/accept", {})
    for _ in range(2):
        room = await a.api("POST", "/api/tables", {"mode": "private", "players": 2, "rules": {"target_points": 1}},
                           status=201)
        await b.api("POST", f"/api/tables/{room['table_id']}/sit", {"seat": 1, "code": room["code"]})
        await a.api("POST", f"/api/tables/{room['table_id']}/start", {})
        await asyncio.wait_for(asyncio.gather(a.play(room["table_id"]), b.play(room["table_id"])), 120)
    return a, b


def call(base: str, client: Client, method: str, path: str, body: Any = None) -> Any:
    """A plain (blocking) request with ``client``'s token, outside the event loop that made it."""
    r = httpx.request(method, base + path, json=body, headers={"Authorization": f"Bearer {client.token}"}, timeout=20)
    assert r.status_code == 200, r.text
    return r.json()


def signed_in_as(page, client: Client, username: str) -> None:  # type: ignore[no-untyped-def]
    auth = {"token": client.token, "player_id": client.id, "nickname": client.name, "username": username}
    page.evaluate("(a) => localStorage.setItem('hokm.auth.v1', JSON.stringify(a))", auth)
    page.reload()  # the page reads its identity when it loads


def test_a_profile_shows_the_chart_the_modes_and_a_recent_game_that_opens_its_replay(server, open_page):
    # Playwright's sync API runs its own event loop in this thread: the players play in another.
    with ThreadPoolExecutor(1) as pool:
        a, b = pool.submit(asyncio.run, two_friends_play(server)).result()
    page = open_page(server + "/", viewport=PHONE_390, settings={"lang": "fa"})
    signed_in_as(page, a, "pari")
    page.click("#open-profile")  # reached from the home page
    page.wait_for_selector("[data-testid=rating-chart] polyline")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.locator(".profile-name").inner_text() == "پری"
    ticks = page.locator("[data-testid=rating-chart] .tick").all_text_contents()
    assert ticks and all(any(c in PERSIAN_DIGITS for c in tick) for tick in ticks)
    assert not any(c.isascii() and c.isdigit() for tick in ticks for c in tick)
    assert page.locator("[data-testid=rating-chart] .dot").count() == 3  # the start and two rated games
    # the rating labels sit beside the axis (on its right in Persian), never across it, and a
    # negative one reads with its minus sign before the digits
    boxes = page.evaluate("""() => {
        const svg = document.querySelector('[data-testid=rating-chart]');
        const axis = svg.querySelector('line.axis').getBoundingClientRect();
        return [...svg.querySelectorAll('.y-tick')].map((t) => {
            const b = t.getBoundingClientRect();
            return {text: t.textContent, left: b.left, right: b.right, axis: axis.right};
        });
    }""")
    assert boxes and all(b["left"] >= b["axis"] + 2 for b in boxes), boxes
    assert page.locator(".modes-table tr[data-mode=private][data-players='2'] td").first.inner_text() == "۲"
    assert page.locator("[data-testid=profile-game]").count() == 2
    # Each game's kind and date in Persian words and punctuation: "اتاق خصوصی، ۱۴۰۵/۹/۵، ۱۸:۲۷" (no Latin comma).
    for line in page.locator("[data-testid=profile-game] span.muted.small").all_inner_texts():
        assert re.fullmatch("اتاق خصوصی، [۰-۹]+/[۰-۹]+/[۰-۹]+، [۰-۹]+:[۰-۹]+", line), line
    # The rating is «ریتینگ»: «امتیاز» is a game's points at the table.
    assert page.locator(".panel-rating h2").inner_text().startswith("ریتینگ ")
    assert page.locator("[data-testid=rating-now]").count() == 1
    h2h = page.locator("[data-testid=head-to-head] .h2h-row")
    assert h2h.count() == 1 and MARKUP_NAME in h2h.inner_text() and "۲ بازی" in h2h.inner_text()
    assert page.locator("main img").count() == 0
    shot(page, "phone-fa-profile")
    page.locator("[data-testid=rating-chart]").scroll_into_view_if_needed()
    shot(page, "phone-fa-profile-chart")
    page.set_viewport_size({"width": 844, "height": 390})
    shot(page, "landscape-fa-profile")
    page.set_viewport_size(PHONE_390)
    page.locator("[data-testid=profile-game] .open-replay").first.click()
    page.wait_for_selector("main.replay")
    assert "#/replay/" in page.url

    # A friend's page from the friends list: private until they make it public.
    page.goto(server + "/#/")
    page.wait_for_selector(".friend-row .friend-profile")
    page.click(".friend-row .friend-profile")
    page.wait_for_selector("[data-testid=private]")
    assert page.locator("[data-testid=rating-chart]").count() == 0 and page.locator(".modes-table").count() == 0
    assert page.locator(".profile-name").inner_text() == MARKUP_NAME and page.locator("main img").count() == 0
    shot(page, "phone-fa-profile-private")
    call(server, b, "PUT", "/api/me/profile", {"public": True})
    page.reload()
    page.wait_for_selector("[data-testid=rating-chart] polyline")
    assert page.locator("[data-testid=profile-game]").count() == 0  # recent games stay on one's own page

    wide = open_page(server + "/", viewport=DESKTOP, settings={"lang": "en"})
    signed_in_as(wide, a, "pari")
    wide.goto(server + "/#/profile")
    wide.wait_for_selector("[data-testid=rating-chart] polyline")
    assert wide.evaluate("document.documentElement.dir") == "ltr"
    shot(wide, "desktop-en-profile")
    wide.check("#profile-public")
    wide.wait_for_selector(".toast")
    assert call(server, b, "GET", "/api/profiles/pari")["public"] is True
    shot(wide, "desktop-en-profile-privacy")


def test_a_profile_before_any_rated_game_shows_no_rating_number(server, open_page):
    """Before the first rated game the heading is the word alone: a starting value, a small Persian zero beside it,
    would read as a stray dot above 'no rated games yet'."""
    page = open_page(server + "/", viewport=PHONE_390, settings={"lang": "fa"})
    page.evaluate("""async () => { const { Api } = await import('./js/net.js'); await new Api().ensureGuest('نگار'); }""")
    page.goto(server + "/#/profile")
    page.wait_for_selector(".panel-rating")
    assert page.locator(".panel-rating h2").inner_text().strip() == "ریتینگ"
    assert page.locator("[data-testid=rating-now]").count() == 0
    assert page.locator(".panel-rating p.muted").inner_text().startswith("هنوز بازی رسمی ندارید")
    # No game yet: said once, by the games panel (no second panel of recent games saying it again).
    page.wait_for_selector(".panel-modes")
    said = page.locator("main").inner_text()
    assert said.count("هنوز بازی تمام‌شده‌ای ندارید") == 1, said
    assert page.locator(".panel-profile-recent").count() == 0
    # A guest has no username to be found by: nothing to make public yet.
    assert page.locator("#profile-public").is_disabled()


def test_another_players_private_profile_speaks_of_them_and_leads_home(server, open_page, browser):
    """Someone else's page, kept private: it says so in the third person and offers the way back home."""
    owner = open_page(server + "/", viewport=PHONE_390, settings={"lang": "fa", "nickname": "بهار"})
    keep_account(owner, "بهار", "bahar_p")
    viewer = open_page(server + "/", viewport=PHONE_390, settings={"lang": "fa", "nickname": "سارا"})
    viewer.evaluate("""async () => { const { Api } = await import('./js/net.js'); await new Api().ensureGuest('سارا'); }""")
    viewer.goto(server + "/#/profile/bahar_p")
    viewer.wait_for_selector("[data-testid=profile-home]")
    assert viewer.locator("[data-testid=private]").inner_text() == "این بازیکن نمایه‌اش را خصوصی نگه داشته است."
    # Made public, with no game yet: said of her, not of the one who looks («ندارد», not «ندارید»).
    owner.goto(server + "/#/profile")
    owner.click("#profile-public")
    owner.wait_for_function("() => document.querySelector('#profile-public').checked && !document.querySelector('#profile-public').disabled")
    viewer.reload()
    viewer.wait_for_selector(".panel-modes p.muted")
    assert viewer.locator(".panel-modes p.muted").inner_text() == "هنوز بازی تمام‌شده‌ای ندارد."
    viewer.click("[data-testid=profile-home]")
    viewer.wait_for_selector("#play-computer")
