"""The web table as an installable app, in Chromium against a real ``hokm serve``: the manifest,
the service worker, offline use, updates to a new version, transfer budgets and cache headers."""

from __future__ import annotations

import json
import re
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from hokm.server.webassets import IMMUTABLE, WebAssets
from hokm.web import static_dir

from .conftest import PHONE, ROOT, _drain, act_once, one_point_games, shot

pytestmark = pytest.mark.browser

FIRST_VISIT_BUDGET = 150 * 1024
REPEAT_VISIT_BUDGET = 10 * 1024


def fresh_context(browser, locale: str = "en-US"):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=PHONE, locale=locale)
    context.add_init_script("if (!localStorage.getItem('hokm.settings.v1'))"
                            " localStorage.setItem('hokm.settings.v1', JSON.stringify({speed: 'off', muted: true}));")
    return context


def controlled(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until the service worker has kept its files and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=20000)
    page.evaluate("() => navigator.serviceWorker.ready")


def eventually(page, expression: str, timeout: float = 20) -> None:  # type: ignore[no-untyped-def]
    """Wait until an async expression is true (wait_for_function takes a promise for a true value)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.2)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


# ------------------------------------------------------------------ manifest and install
def test_the_manifest_is_complete_and_chromium_finds_the_app_installable(server, browser):
    context = fresh_context(browser)
    page = context.new_page()
    page.goto(server + "/")
    controlled(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    data = json.loads(manifest["data"])
    assert manifest["url"].endswith("/manifest.en.webmanifest")  # the page is in English
    assert data["name"] == data["short_name"] == "Hokm"
    assert (data["lang"], data["dir"], data["display"]) == ("en", "ltr", "standalone")
    assert data["start_url"] == data["scope"] == data["id"] == "/"
    assert data["theme_color"] == data["background_color"] == "#124430"
    seen = set()
    for icon in data["icons"]:
        r = httpx.get(server + icon["src"])
        assert r.status_code == 200, icon
        assert r.headers["content-type"] == icon["type"], icon
        if icon["type"] == "image/png":
            w, h = png_size(r.content)
            assert icon["sizes"] == f"{w}x{h}", icon
            seen.add((icon["sizes"], icon.get("purpose", "any")))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= seen
    # Playwright's contexts are incognito, which alone keeps Chromium from offering to install.
    errors = [e for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
              if e["errorId"] != "in-incognito"]
    assert errors == [], errors
    apple = page.get_attribute('link[rel="apple-touch-icon"]', "href")
    r = httpx.get(server + apple)
    assert r.headers["content-type"] == "image/png" and png_size(r.content) == (180, 180)
    context.close()


def test_a_persian_page_offers_the_persian_manifest(server, browser):
    context = fresh_context(browser, locale="fa-IR")
    page = context.new_page()
    page.goto(server + "/")
    page.wait_for_function("() => document.documentElement.lang === 'fa'")
    assert page.get_attribute('link[rel="manifest"]', "href") == "/manifest.webmanifest"
    data = httpx.get(server + "/manifest.webmanifest").json()
    assert (data["name"], data["lang"], data["dir"]) == ("حکم", "fa", "rtl")
    context.close()


# ------------------------------------------------------------------ service worker and offline
def test_the_service_worker_keeps_the_app_shell(server, browser):
    build = WebAssets(static_dir()).build
    context = fresh_context(browser)
    page = context.new_page()
    page.goto(server + "/")
    controlled(page)
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == server + "/sw.js"
    assert page.evaluate("() => caches.keys()") == [f"hokm-shell-{build}"]
    kept = page.evaluate(f"async () => (await (await caches.open('hokm-shell-{build}')).keys()).map((r) => r.url)")
    assert server + "/offline.html" in kept
    assert server + f"/assets/{build}/js/app.js" in kept
    # Pages are requested while the worker starts (navigation preload), not after.
    assert page.evaluate("async () => (await (await navigator.serviceWorker.ready).navigationPreload.getState()).enabled")
    context.close()


def finished_game(server: str, nickname: str = "Sara") -> tuple[dict, str]:
    """A guest and a finished one-point game of theirs: the seat's short timers hand it to a bot."""
    guest = httpx.post(server + "/api/guest", json={"nickname": nickname}).json()
    auth = {"authorization": f"Bearer {guest['token']}"}
    fast = {k: 0.2 for k in ("trump", "play", "discard", "draw")}
    r = httpx.post(server + "/api/tables", headers=auth,
                   json={"mode": "computer", "players": 2, "rules": {"target_points": 1}, "timers": fast})
    assert r.status_code == 201, r.text
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        games = httpx.get(server + "/api/me/games", headers=auth).json()["games"]
        if games:
            return {"token": guest["token"], "player_id": guest["player_id"], "nickname": guest["nickname"]}, \
                games[0]["game_id"]
        time.sleep(0.5)
    pytest.fail("the game did not finish")


def test_offline_the_page_shows_the_offline_page_and_the_replays_kept(server, browser):
    auth, game_id = finished_game(server)
    context = fresh_context(browser)
    context.add_init_script("localStorage.setItem('hokm.auth.v1', %s);" % json.dumps(json.dumps(auth)))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    controlled(page)
    page.evaluate(f"() => {{ location.hash = '#/replay/{game_id}'; }}")
    page.wait_for_selector(".replay-board .replay-seat")

    context.set_offline(True)
    page.goto(server + "/")  # a fresh navigation without a network
    page.wait_for_selector(".offline-panel")
    assert page.locator(".offline-panel h1").inner_text() == "The server cannot be reached"
    page.wait_for_selector(".saved-game")
    # The game's two players, each name isolated (names start in either script).
    assert page.locator(".saved-game bdi[dir=auto]").count() == 2
    assert "Sara" in page.locator(".saved-game").inner_text()
    # The page keeps the app's look: its stylesheet came from the service worker's cache.
    assert page.evaluate("() => getComputedStyle(document.querySelector('.btn')).minHeight") != "0px"
    page.click(".saved-game")
    page.wait_for_selector(".replay-board .replay-seat")
    assert page.locator(".replay-seat").count() == 2

    page.reload()  # reloading offline, in the middle of a replay, still works
    page.wait_for_selector(".replay-board .replay-seat")
    context.set_offline(False)
    # Back online in the middle of a replay: not cut short; a bar offers the way back to the app.
    page.wait_for_selector("[data-testid=online-again]")
    assert page.locator("[data-testid=online-again]").inner_text().startswith("You are online again.")
    assert page.locator(".replay-board .replay-seat").count() == 2
    # In the page's flow, over none of the replay's controls.
    under = page.evaluate("""() => { const b = document.querySelector('[data-testid=online-again]').getBoundingClientRect();
      return [...document.querySelectorAll('.replay-controls button, .replay-controls a')].filter((c) => {
        const r = c.getBoundingClientRect(); return r.width && r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top;
      }).length; }""")
    assert under == 0
    page.goto(server + "/#/")
    page.wait_for_selector(".try-again")  # the offline page's home, until the player tries again
    with page.expect_navigation():
        page.click(".try-again")
    page.wait_for_selector("#nickname")  # back online: the app itself
    # On the offline page's home, the network coming back brings the app by itself.
    context.set_offline(True)
    page.goto(server + "/")
    page.wait_for_selector(".offline-panel")
    context.set_offline(False)
    page.wait_for_selector("#nickname", timeout=15000)
    assert errors == []
    context.close()


def test_a_replay_offline_offers_no_analysis_and_says_why(server, browser):
    """Analysing a hand asks the server: online the replay offers it; once the network goes the button gives way
    to a line saying the analysis needs the server, and a replay opened from the device's store (the offline
    page) never offers it, in English and Persian."""
    auth, game_id = finished_game(server, "Parisa")
    context = fresh_context(browser)
    context.add_init_script("localStorage.setItem('hokm.auth.v1', %s);" % json.dumps(json.dumps(auth)))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    controlled(page)
    page.evaluate(f"() => {{ location.hash = '#/replay/{game_id}'; }}")
    page.wait_for_selector(".replay-board .replay-seat")
    assert page.locator(".analyse").is_visible()
    assert page.locator(".analyse-offline").count() == 0

    context.set_offline(True)  # the network goes while the replay is open
    page.wait_for_selector(".analyse-offline")
    assert page.locator(".analyse").is_hidden()
    context.set_offline(False)
    page.wait_for_selector(".analyse:visible")
    assert page.locator(".analyse-offline").count() == 0

    context.set_offline(True)
    page.goto(server + "/")  # the offline page
    page.wait_for_selector(".saved-game")
    page.click(".saved-game")
    page.wait_for_selector(".replay-board .replay-seat")
    assert page.locator(".analyse").is_hidden()
    assert page.locator(".analyse-offline").inner_text() == "Analysing a hand needs the server: it is not available offline."
    page.click(".replay-controls .next")
    assert page.locator(".analyse").is_hidden()  # on every trick
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "phone-en-offline-replay-analysis")
    page.locator(".app-bar .lang-switch .chip[lang='fa']").click()
    page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    page.wait_for_selector(".replay-board .replay-seat")
    assert page.locator(".analyse").is_hidden()
    assert page.locator(".analyse-offline").inner_text() == "تحلیل دست به سرور نیاز دارد و بدون اتصال در دسترس نیست."
    shot(page, "phone-fa-offline-replay-analysis")
    page.set_viewport_size({"width": 844, "height": 390})
    shot(page, "phone-side-fa-offline-replay-analysis")
    page.set_viewport_size({"width": 1440, "height": 900})
    shot(page, "desktop-fa-offline-replay-analysis")
    assert errors == []
    context.close()


def test_offline_in_persian_the_offline_page_is_right_to_left(server, browser):
    context = fresh_context(browser, locale="fa-IR")
    page = context.new_page()
    page.goto(server + "/")
    controlled(page)
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(".offline-panel")
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
    assert page.locator(".offline-panel h1").inner_text() == "به سرور دسترسی نیست"
    context.close()


def test_a_game_played_to_its_end_is_kept_and_the_offline_page_has_settings(server, browser):
    """A game finished at the table is kept on the device without opening its replay; offline, the page lists it,
    opens it, and has the settings (language, table) that apply at once and stay after a reload."""
    context = fresh_context(browser)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    controlled(page)
    page.fill("#nickname", "Nasrin")
    page.click("[data-value='2']")
    page.locator("[aria-label='Points to win'] .seg[data-value='3']").click()
    asked = one_point_games(page)  # a finished game is what this test needs, not a long one
    page.click("#play-computer")
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=20000)
    assert asked == [3]
    deadline = time.monotonic() + 180
    while not page.locator(".overlay[data-kind='game']").is_visible():
        assert time.monotonic() < deadline, "the game did not finish"
        act_once(page)
        page.wait_for_timeout(30)
    game_id = page.locator(".overlay[data-kind='game'] a[href^='#/replay/']").get_attribute("href").split("/")[-1]
    # Kept without opening the replay: the page asked for it when the game ended.
    eventually(page, f"async () => !!(await (await caches.open('hokm-saved-v1')).match('{server}/api/games/{game_id}/replay'))")

    context.set_offline(True)
    page.goto(server + "/")
    page.wait_for_selector(".offline-panel")
    page.wait_for_selector(".saved-game")
    assert "Nasrin" in page.locator(".saved-game").inner_text()
    # The settings, offline: Persian and another table, at once and after a reload.
    page.click(".settings-btn")
    page.wait_for_selector(".sheet.settings .swatches")
    page.locator(".sheet.settings .swatches[aria-label='Table'] [data-value='isfahan']").click()
    assert page.evaluate("document.documentElement.dataset.theme") == "isfahan"
    page.locator(".sheet.settings .lang-switch .chip[lang='fa']").click()
    page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    assert page.locator(".sheet.settings h2").inner_text() == "تنظیمات"  # the sheet stays open, in Persian
    assert page.locator(".offline-panel h1").inner_text() == "به سرور دسترسی نیست"
    shot(page, "phone-fa-offline-settings")
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector(".saved-game")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dataset.theme]") == ["fa", "isfahan"]
    page.click(".saved-game")
    page.wait_for_selector(".replay-board .replay-seat")
    assert page.locator(".replay-seat").count() == 2
    shot(page, "phone-fa-offline-replay")
    assert errors == []
    context.close()


# ------------------------------------------------------------------ budgets and headers
class Transfers:
    """Bytes a page took from the network (CDP encodedDataLength), not counting what came from the
    service worker or a browser cache."""

    def __init__(self, context, page) -> None:  # type: ignore[no-untyped-def]
        self.cdp = context.new_cdp_session(page)
        self.cached: set[str] = set()
        self.sizes: dict[str, int] = {}
        self.urls: dict[str, str] = {}
        self.cdp.send("Network.enable")
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        self.cdp.on("Network.loadingFinished", lambda e: self.sizes.__setitem__(e["requestId"], e["encodedDataLength"]))

    def _response(self, e: dict) -> None:
        r = e["response"]
        self.urls[e["requestId"]] = r["url"]
        if r.get("fromServiceWorker") or r.get("fromDiskCache") or r.get("fromPrefetchCache"):
            self.cached.add(e["requestId"])

    def total(self) -> int:
        return sum(n for rid, n in self.sizes.items() if rid not in self.cached)

    def detail(self) -> str:
        return "\n".join(f"{n:8d} {self.urls.get(rid, rid)}" for rid, n in self.sizes.items() if rid not in self.cached)


def test_first_and_repeat_visits_stay_within_their_budgets(server, browser):
    context = fresh_context(browser)
    page = context.new_page()
    first = Transfers(context, page)
    page.goto(server + "/")
    page.wait_for_selector("#nickname")
    page.wait_for_load_state("networkidle")
    controlled(page)
    # The service worker also fetches, once, what it keeps that the page did not load (the offline
    # page and its script); the rest comes from the HTTP cache the page has just filled.
    build = json.loads(re.search(r"^const BUILD = (.*);$", httpx.get(server + "/sw.js").text, re.M).group(1))
    loaded = set(first.urls.values())
    extra = sum(int(httpx.get(server + u, headers={"accept-encoding": "gzip"}).headers["content-length"])
                for u in build["precache"] if server + u not in loaded)
    assert 0 < extra < 10 * 1024
    assert 0 < first.total() + extra <= FIRST_VISIT_BUDGET, first.detail()
    page.close()

    again = context.new_page()
    repeat = Transfers(context, again)
    again.goto(server + "/")
    again.wait_for_selector("#nickname")
    again.wait_for_load_state("networkidle")
    assert repeat.total() <= REPEAT_VISIT_BUDGET, repeat.detail()
    # The font arrived (Persian and Latin letters in Vazirmatn) without the full font.
    assert any(u.endswith("vazirmatn-subset.woff2") for u in first.urls.values())
    assert not any(u.endswith("vazirmatn-variable.woff2") for u in list(first.urls.values()) + list(repeat.urls.values()))
    context.close()


def test_cache_and_compression_headers(server):
    with httpx.Client(base_url=server, headers={"accept-encoding": "gzip"}) as http:
        page = http.get("/")
        assert page.headers["cache-control"] == "no-cache" and page.headers["etag"]
        assert page.headers["content-encoding"] == "gzip"
        assert http.get("/", headers={"if-none-match": page.headers["etag"]}).status_code == 304
        for path in ("/sw.js", "/manifest.webmanifest", "/manifest.en.webmanifest", "/offline.html"):
            r = http.get(path)
            assert r.status_code == 200 and r.headers["cache-control"] == "no-cache" and r.headers["etag"], path
        assets = re.findall(r'(?:src|href)="(/assets/[^"]+)"', page.text)
        assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
        for a in assets:
            r = http.get(a)
            assert r.headers["cache-control"] == IMMUTABLE, a
            if a.endswith((".js", ".css", ".svg")):
                assert r.headers["content-encoding"] == "gzip", a
        # The API answers JSON, never cached; bodies over 1 KB (the level texts of /api/info) gzipped.
        info = http.get("/api/info")
        assert info.status_code == 200 and info.json()["v"] == 1
        assert info.headers["content-encoding"] == "gzip" and "immutable" not in info.headers.get("cache-control", "")
        assert http.get("/api/no-such-thing").json()["error"]["code"] == "not_found"


# ------------------------------------------------------------------ a new version
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(port: int, data: Path, web: Path) -> tuple[subprocess.Popen, str]:
    cmd = [sys.executable, "-m", "hokm.cli.main", "serve", "--port", str(port), "--data-dir", str(data),
           "--log-level", "warning"]
    env = {**__import__("os").environ, "HOKM_WEB_DIR": str(web)}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        lines.append(line)
        m = re.search(r"ready: (http://\S+?)/?\s", line)
        if m:
            threading.Thread(target=_drain, args=(proc.stdout,), daemon=True).start()
            return proc, m.group(1)
    proc.kill()
    pytest.fail("hokm serve did not start:\n" + "".join(lines[-30:]))


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def web_copy(tmp_path: Path) -> Iterator[Path]:
    copy = tmp_path / "static"
    shutil.copytree(static_dir(), copy)
    yield copy


def test_a_new_version_is_offered_and_replaces_the_old_cache(browser, web_copy: Path, tmp_path: Path):
    port = free_port()
    old_build = WebAssets(web_copy).build
    proc, url = serve(port, tmp_path / "data", web_copy)
    context = fresh_context(browser)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "/")
        controlled(page)
        assert page.evaluate("() => caches.keys()") == [f"hokm-shell-{old_build}"]
    finally:
        stop(proc)

    css = web_copy / "css" / "app.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.new-version-mark { color: inherit; }\n", encoding="utf-8")
    new_build = WebAssets(web_copy).build
    assert new_build != old_build
    proc, url = serve(port, tmp_path / "data", web_copy)
    try:
        page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
        banner = page.wait_for_selector(".update-banner", timeout=20000)
        assert banner.inner_text().startswith("A new version is ready")
        page.wait_for_selector("#nickname")  # the banner blocks nothing: the page is still usable
        with page.expect_navigation():
            page.click(".update-reload")
        page.wait_for_selector("#nickname")
        controlled(page)
        eventually(page, f"async () => (await caches.keys()).join() === 'hokm-shell-{new_build}'")
        assert f"/assets/{new_build}/css/app.css" in page.content()
        assert page.evaluate("() => navigator.serviceWorker.controller.state") == "activated"
        assert errors == []
    finally:
        context.close()
        stop(proc)


def test_a_page_loaded_after_an_update_takes_the_new_version_without_asking(browser, web_copy: Path,
                                                                             tmp_path: Path):
    port = free_port()
    old_build = WebAssets(web_copy).build
    proc, url = serve(port, tmp_path / "data", web_copy)
    context = fresh_context(browser)
    errors: list[str] = []
    try:
        old_tab = context.new_page()
        old_tab.on("pageerror", lambda e: errors.append(str(e)))
        old_tab.goto(url + "/")
        controlled(old_tab)
    finally:
        stop(proc)
    js = web_copy / "js" / "dom.js"
    js.write_text(js.read_text(encoding="utf-8") + "\n// changed\n", encoding="utf-8")
    new_build = WebAssets(web_copy).build
    proc, url = serve(port, tmp_path / "data", web_copy)
    try:
        # A second tab opens while the first still runs the old build (and so keeps the old worker
        # in use): it comes from the server in the new build, so its worker takes over at once.
        new_tab = context.new_page()
        new_tab.on("pageerror", lambda e: errors.append(str(e)))
        new_tab.goto(url + "/")
        new_tab.wait_for_selector("#nickname")
        assert f"/assets/{new_build}/js/app.js" in new_tab.content()
        eventually(new_tab, f"async () => (await caches.keys()).join() === 'hokm-shell-{new_build}'")
        assert new_tab.locator(".update-banner").count() == 0
        # The tab still on the old build is told.
        old_tab.wait_for_selector(".update-banner", timeout=20000)
        with old_tab.expect_navigation():
            old_tab.click(".update-reload")
        old_tab.wait_for_selector("#nickname")
        assert f"/assets/{new_build}/js/app.js" in old_tab.content()
        assert old_build != new_build and errors == []
    finally:
        context.close()
        stop(proc)
