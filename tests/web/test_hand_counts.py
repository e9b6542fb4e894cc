"""The table shows each seat's card count from the view (``hand_counts``), never from the player count."""

from __future__ import annotations

import time

import pytest

from .conftest import act_once, table_view
from .test_table import start_vs_computer

pytestmark = pytest.mark.browser

# For each seat drawn on the table: its seat number, the cards of its small fan, its accessible label,
# and for the player's own seat the cards of the hand.
SHOWN = """() => [...document.querySelectorAll('.seat')].map((el) => ({
  seat: Number(el.dataset.seat), me: el.classList.contains('me'),
  fan: el.querySelectorAll('.mini-card').length, label: el.getAttribute('aria-label'),
  hand: el.classList.contains('me') ? document.querySelectorAll('.hand .card').length : null,
}))"""

# The view's counts once the table shows them (every seat's fan and label, and the player's hand), else null.
# The table takes a view before it draws it (it may wait for a summary to close), so the test waits for this.
DRAWN = """() => {
  const v = window.hokmDebug && window.hokmDebug.table.view;
  if (!v || v.phase !== 'play') return null;
  const shown = (%s)();
  if (shown.length !== v.players) return null;
  for (const s of shown) {
    const n = v.hand_counts[s.seat];
    if (s.me ? s.hand !== n || v.hand.length !== n : s.fan !== Math.min(n, 7) || !s.label.includes(`${n} cards`)) return null;
  }
  return v.hand_counts;
}""" % SHOWN


def test_three_player_table_shows_the_views_counts(server, open_page):  # type: ignore[no-untyped-def]
    page = open_page(server + "/")
    start_vs_computer(page, players=3, target=3)
    # Up to the first trick, answering what is ours (the Hokm, when we are the Hâkem): left to the turn timer, the
    # wait for the computer to choose for us could pass the 30 s bound below on a loaded machine.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (table_view(page) or {}).get("phase") != "play":
        act_once(page)
        page.wait_for_timeout(50)
    page.wait_for_function("() => { const v = window.hokmDebug.table.view; return v && v.phase === 'play'; }",
                           timeout=30000)
    assert table_view(page)["hand_size"] == 17
    seen: set[tuple[int, ...]] = set()
    deadline = time.monotonic() + 90
    while len(seen) < 6 and time.monotonic() < deadline:
        counts = page.wait_for_function(DRAWN, timeout=10000).json_value()
        seen.add(tuple(counts))
        act_once(page)
        page.wait_for_timeout(150)
    assert len(seen) >= 4, seen
    assert any(len(set(c)) > 1 for c in seen), seen  # within a trick the seats hold different counts
    # Counts no deal gives, drawn and read in one task so no message from the server comes between:
    # a table that counted from the player count or the tricks could not show them.
    odd = [3, 11, 16]
    shown = page.evaluate("(odd) => { const t = window.hokmDebug.table; t.view = { ...t.view, hand_counts: odd };"
                          " t.renderSeats(); return (%s)(); }" % SHOWN, odd)
    others = [s for s in shown if not s["me"]]
    assert len(others) == 2
    for s in others:
        assert s["fan"] == min(odd[s["seat"]], 7)
        assert f"{odd[s['seat']]} cards" in s["label"]
