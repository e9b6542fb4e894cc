"""The home page's lists when there is nothing in them yet (a server of its own: no game has ended)."""

from __future__ import annotations

import pytest

from .conftest import shot
from .test_table import start_vs_computer

TEXTS = {
    "en": ("No finished games yet.", "Nobody on this list yet: it shows players once they finish a game."),
    "fa": ("هنوز بازی تمام‌شده‌ای ندارید.",
           "هنوز کسی در این فهرست نیست: بازیکنان پس از پایان نخستین بازی\u200cشان اینجا می\u200cآیند."),
}


@pytest.mark.browser
def test_with_a_game_unfinished_the_recent_games_say_none_has_ended_and_the_best_players_say_nobody(
        server, open_page):  # type: ignore[no-untyped-def]
    """A player back on the home page mid-game: the game is offered to resume above; "your recent games"
    says no game has finished (it was left blank), and the empty list of best players says that nobody is
    on it yet (it said the recent games' words, "you have no finished games")."""
    for lang, (no_recent, no_leaders) in TEXTS.items():
        page = open_page(server + "/", settings={"lang": lang})
        start_vs_computer(page, players=4, nickname="Sara")
        page.goto(server + "/#/")
        page.wait_for_selector("[data-testid=resume]")
        page.wait_for_selector(".panel-recent p.muted:not(:empty)")
        page.wait_for_function("() => { const p = document.querySelector('.panel-recent p.muted');"
                               " return p && p.textContent !== '…'; }")
        assert page.locator(".panel-recent p.muted").inner_text() == no_recent
        page.wait_for_selector(".panel-leaders .no-leaders")
        assert page.locator(".panel-leaders .no-leaders").inner_text() == no_leaders
        assert page.locator(".panel-leaders li.leader").count() == 0
        page.locator(".panel-leaders").scroll_into_view_if_needed()
        shot(page, f"home-empty-lists-390x844-{lang}")
