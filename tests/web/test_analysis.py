"""The replay viewer's post-hand analysis: marks only for a finished game, readable, better card on demand."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from .conftest import shot

FA_PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}

# WCAG contrast of each mark badge's text against its own background, computed in the page.
CONTRAST = """() => [...document.querySelectorAll('.mark-badge')].map((el) => {
  const rgb = (css) => css.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const s = getComputedStyle(el); const a = lum(rgb(s.color)), b = lum(rgb(s.backgroundColor));
  return { mark: el.dataset.mark, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
})"""


def guest(server: str, nickname: str) -> dict:
    g = httpx.post(server + "/api/guest", json={"nickname": nickname}).json()
    return {"token": g["token"], "player_id": g["player_id"], "nickname": g["nickname"]}


def table(server: str, auth: dict, timers: float) -> dict:
    r = httpx.post(server + "/api/tables", headers={"authorization": f"Bearer {auth['token']}"},
                   json={"mode": "computer", "players": 4, "bot": "random", "rules": {"target_points": 1},
                         "timers": {k: timers for k in ("trump", "play", "discard", "draw")}})
    assert r.status_code == 201, r.text
    return r.json()


def wait_finished(server: str, auth: dict) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        games = httpx.get(server + "/api/me/games", headers={"authorization": f"Bearer {auth['token']}"}).json()
        if games["games"]:
            return games["games"][0]["game_id"]
        time.sleep(0.5)
    pytest.fail("the game did not finish")


def open_replay(browser, open_page, server: str, auth: dict, game_id: str, viewport: dict, locale: str):
    context = browser.new_context(viewport=viewport, locale=locale)
    prefs = json.dumps(json.dumps({"speed": "off", "muted": True}))
    context.add_init_script(f"localStorage.setItem('hokm.settings.v1', {prefs}); "
                            f"localStorage.setItem('hokm.auth.v1', {json.dumps(json.dumps(auth))});")
    return open_page(server + f"/#/replay/{game_id}", context=context)


def test_a_game_in_progress_has_no_analysis_and_no_marks(server, browser, open_page):
    auth = guest(server, "Waits")
    info = table(server, auth, timers=60)  # the human seat never plays: the game stays in progress
    gid = info["game_id"]
    r = httpx.get(server + f"/api/games/{gid}/analysis?hand=0", headers={"authorization": f"Bearer {auth['token']}"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_in_progress"
    page = open_replay(browser, open_page, server, auth, gid, DESKTOP, "en-US")
    page.wait_for_selector(".replay .card-panel")
    assert page.locator(".replay-board").count() == 0
    assert page.locator(".mark-badge, button.analyse").count() == 0
    page.context.close()
    # the one error the page may log: the server refusing the replay of a game still on (409)
    open_page.errors.items[:] = [e for e in open_page.errors.items if "409" not in e]


@pytest.mark.parametrize(("locale", "viewport", "name"), [("en-US", DESKTOP, "analysis-en-1440"),
                                                           ("fa-IR", FA_PHONE, "analysis-fa-390")])
def test_after_the_game_every_card_is_marked_and_the_better_card_shows_on_demand(server, browser, open_page,
                                                                                 locale, viewport, name):
    auth = guest(server, "Reader")
    table(server, auth, timers=0.2)  # short timers: bots take the human seat and finish the game
    gid = wait_finished(server, auth)
    page = open_replay(browser, open_page, server, auth, gid, viewport, locale)
    page.wait_for_selector(".replay-board .replay-seat")
    assert page.locator(".mark-badge").count() == 0  # nothing until asked for
    # The steps are in reach on the first screen, though on a phone the seats run below it.
    step = page.locator(".replay-controls .next").bounding_box()
    assert step is not None and 0 <= step["y"] and step["y"] + step["height"] <= viewport["height"], step
    page.locator(".replay-controls .next").click()
    page.locator("button.analyse").click()
    page.wait_for_selector(".replay-seat .mark-badge", timeout=60_000)
    assert page.locator(".replay-seat .mark-badge").count() == 4  # one per card of the trick on screen
    marks = page.eval_on_selector_all(".replay-seat .mark-badge", "(els) => els.map((e) => e.dataset.mark)")
    assert set(marks) <= {"fine", "inaccuracy", "mistake", "blunder", "unsolved"}
    # each mark also reads as text (screen readers), in the page's language
    texts = page.eval_on_selector_all(".replay-seat .mark-badge .sr-only", "(els) => els.map((e) => e.textContent)")
    assert len(texts) == 4 and all(texts)
    # and the legend under the analysis says what every mark means, with the page's question mark
    legend = page.locator(".mark-legend")
    assert legend.is_visible() and legend.locator(".mark-legend-item").count() == 5
    icons = "".join(page.eval_on_selector_all(".mark-badge", "(els) => els.map((e) => e.textContent)"))
    if locale.startswith("fa"):
        assert all(any("\u0600" <= ch <= "\u06ff" for ch in x) for x in texts)
        assert "?" not in icons and "؟" in icons and "اشتباه بزرگ" in legend.inner_text()
    else:
        assert "؟" not in icons and "blunder" in legend.inner_text()
    assert page.locator(".replay-analysis p").count() >= 1
    # walk the hand until a card with a better choice is found, and open it
    for _ in range(13):
        toggles = page.locator("button.mark-toggle")
        if toggles.count():
            toggles.first.click()
            better = page.locator(".mark-better:not([hidden])")
            assert better.count() == 1 and better.inner_text().strip()
            # what was wrong with the card comes first, then the better one
            assert better.locator(".mark-better-why").inner_text().strip()
            assert toggles.first.get_attribute("aria-expanded") == "true"
            break
        page.locator(".replay-controls .next").click()
    else:
        pytest.fail("no card of the hand had a better choice (random bots always leave some)")
    for row in page.evaluate(CONTRAST):
        assert row["ratio"] >= 4.5, row
    shot(page, name)
    page.context.close()
