"""Fixtures for the web table's browser tests: a real ``hokm serve`` process and Debian's Chromium.

Each test module gets its own server on a free port with a temporary data folder, fast bots and
short pauses, so a whole game fits in seconds. Pages are opened with animations off (unless a test
asks otherwise) and every console error or uncaught exception fails the test that caused it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1440, "height": 900}


def chromium_path() -> str | None:
    for candidate in (os.environ.get("HOKM_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found (install it with scripts/install-chromium.sh, or set HOKM_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _drain(stream, lines: list[str] | None = None) -> None:  # type: ignore[no-untyped-def]
    for line in stream:
        if lines is not None:
            lines.append(line)


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Base URL of a fresh game server (fast bots, short pause between hands).

    It asks for the browser first, so without Chromium the tests skip before a server starts.
    """
    yield from serve(tmp_path_factory)


def serve(tmp_path_factory: pytest.TempPathFactory, **flags: str) -> Iterator[str]:
    """Run ``hokm serve`` for a fixture and yield its base URL; ``flags`` replace the fast defaults
    (``queue_wait="5"`` is ``--queue-wait 5``)."""
    data = tmp_path_factory.mktemp("hokm-data")
    options = {"bot_delay": "0.02 0.05", "hand_pause": "0.4", "queue_wait": "1", "log_level": "warning", **flags}
    cmd = [sys.executable, "-m", "hokm.cli.main", "serve", "--port", "0", "--data-dir", str(data)]
    for k, v in options.items():
        cmd += ["--" + k.replace("_", "-"), *v.split()]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    url = None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        lines.append(line)
        m = re.search(r"ready: (http://\S+?)/?\s", line)
        if m:
            url = m.group(1)
            break
    if url is None:
        proc.kill()
        pytest.fail("hokm serve did not start:\n" + "".join(lines[-30:]))
    # Keep draining the server's output so it never blocks on a full pipe.
    drain = threading.Thread(target=_drain, args=(proc.stdout, lines), daemon=True)
    drain.start()
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        drain.join(timeout=5)
    # Nothing a browser does may make the server log a traceback.
    log = "".join(lines)
    assert "Traceback" not in log, log[-6000:]


class PageErrors:
    """Console errors and uncaught exceptions seen by one page."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def attach(self, page) -> None:  # type: ignore[no-untyped-def]
        page.on("console", lambda m: self.items.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.items.append(f"pageerror: {e}"))


@pytest.fixture
def open_page(browser) -> Iterator[Callable[..., object]]:  # type: ignore[no-untyped-def]
    """open_page(url, viewport=PHONE, locale="en-US", settings={...}) -> page in a fresh context."""
    contexts = []
    errors = PageErrors()

    def _open(url: str, viewport: dict | None = None, locale: str = "en-US", settings: dict | None = None,
              context=None):  # type: ignore[no-untyped-def]
        if context is None:
            context = browser.new_context(viewport=viewport or PHONE, locale=locale)
            contexts.append(context)
            prefs = {"speed": "off", "muted": True}
            prefs.update(settings or {})
            # Seed settings before the app's first script runs (animations off keeps tests quick).
            context.add_init_script(
                "if (!localStorage.getItem('hokm.settings.v1')) localStorage.setItem('hokm.settings.v1', %s);"
                % json.dumps(json.dumps(prefs)))
        page = context.new_page()
        errors.attach(page)
        page.goto(url)
        return page

    _open.errors = errors  # type: ignore[attr-defined]
    yield _open
    for c in contexts:
        c.close()
    assert not errors.items, "the page logged errors:\n" + "\n".join(errors.items)


def shot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    path = ARTIFACTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    return path


# A JS function that imports one of the app's own modules, as in `(await APP_MODULE('settings.js')).set(...)`.
# The page loads its modules from the build's asset URLs (/assets/<build>/js/...), and a module imported at any
# other URL (/js/settings.js) is a second instance with its own state: a setting changed there never reaches the app.
APP_MODULE = ("((name) => import(new URL(name, "
              "document.querySelector('script[type=\"module\"][src$=\"/js/app.js\"]').src).href))")


def keep_account(page, nickname: str, username: str, password: str = "a long password") -> None:  # type: ignore[no-untyped-def]
    """From the home page of a first visit: a name, then the account panel, and the guest kept with a username
    and a password (returns once the panel shows the username)."""
    page.fill("#nickname", nickname)
    page.click("#open-account")
    page.fill("#claim-username", username)
    page.fill("#claim-password", password)
    page.click("#claim-account")
    page.wait_for_selector("[data-testid=username]")


def table_view(page):  # type: ignore[no-untyped-def]
    """The view the table is showing (exposed by the page for tests and debugging)."""
    return page.evaluate("() => window.hokmDebug && window.hokmDebug.table.view")


# Where a player taps a card of the hand: its own visible strip, top left (the next card covers its
# right side, the next row its foot; the centre may belong to another card).
STRIP = {"x": 12, "y": 16}


def one_point_games(page) -> list[int]:  # type: ignore[no-untyped-def]
    """Have the games this page creates end at one point, for a test that needs a game's end and not
    its length: each request that creates a table is sent asking for 1 point. Returns the points
    each request asked for on the page, for the test to check what was picked there."""
    asked: list[int] = []

    def shorten(route) -> None:  # type: ignore[no-untyped-def]
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        asked.append(body["rules"]["target_points"])
        body["rules"]["target_points"] = 1
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/tables", shorten)
    return asked


def act_until_asked(page, kind: str, seconds: float = 60) -> dict:  # type: ignore[no-untyped-def, type-arg]
    """Make the decisions asked through the page until one of ``kind`` is asked; returns that view."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        v = table_view(page)
        if v and v["legal"] and v["legal"][0]["type"] == kind:
            return v
        act_once(page)
        page.wait_for_timeout(40)
    raise AssertionError(f"never asked for a {kind} in {seconds} s")


def act_once(page) -> str | None:  # type: ignore[no-untyped-def]
    """Make one decision through the page if one is asked for; returns its kind, or None."""
    view = table_view(page)
    if not view or not view.get("legal"):
        return None
    kind = view["legal"][0]["type"]
    try:
        if kind == "trump":
            page.locator(".suit-btn").first.click(timeout=3000)
        elif kind == "discard":
            need = len(view["legal"][0]["cards"])
            cards = page.locator(".hand .card")
            for i in range(need):
                cards.nth(i).click(timeout=3000, position=STRIP)
            page.locator(".discard-confirm").click(timeout=3000)
        elif kind == "draw":
            page.locator(".overlay [data-choice]").first.click(timeout=3000)
        elif kind == "play":
            page.locator(".hand .card.playable").first.click(timeout=3000, position=STRIP)
    except Exception:  # noqa: BLE001 - the table moved on under the click (a timeout, a re-render): try again later
        return None
    return kind
