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
from pathlib import Path
from typing import Callable, Iterator

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


def _drain(stream) -> None:  # type: ignore[no-untyped-def]
    for _ in stream:
        pass


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """Base URL of a fresh game server (fast bots, short pause between hands).

    It asks for the browser first, so without Chromium the tests skip before a server starts.
    """
    data = tmp_path_factory.mktemp("hokm-data")
    cmd = [sys.executable, "-m", "hokm.cli.main", "serve", "--port", "0", "--data-dir", str(data),
           "--bot-delay", "0.02", "0.05", "--hand-pause", "0.4", "--queue-wait", "1", "--log-level", "warning"]
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
    threading.Thread(target=_drain, args=(proc.stdout,), daemon=True).start()
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


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
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def table_view(page):  # type: ignore[no-untyped-def]
    """The view the table is showing (exposed by the page for tests and debugging)."""
    return page.evaluate("() => window.hokmDebug && window.hokmDebug.table.view")


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
                cards.nth(i).click(timeout=3000)
            page.locator(".discard-confirm").click(timeout=3000)
        elif kind == "draw":
            page.locator(".overlay [data-choice]").first.click(timeout=3000)
        elif kind == "play":
            page.locator(".hand .card.playable").first.click(timeout=3000)
    except Exception:  # the table moved on under the click (a timeout, a re-render): try again later
        return None
    return kind
