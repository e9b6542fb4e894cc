"""What the web table draws again when a view comes: only what changed. A card played changes the seat
that played it and the seat to move next; the other seats, the bar and the hand keep their elements (a
seat's pulse runs on, a screen reader keeps its place), and the page is not laid out in the middle of
drawing. Figures: ``scripts/measure_table_cpu.py``, docs/web.md ("Drawing only what changed")."""

from __future__ import annotations

import pytest

from .conftest import PHONE, act_once, table_view
from .test_feel import my_play_turn
from .test_table import start_vs_computer

pytestmark = pytest.mark.browser

#: Records, for every render, which seats' elements were replaced and which seats the view changed for
#: (their turn, their cards left, their tricks, the crown, the dealer's mark), and whether the seats' names,
#: connections or stand-ins changed.
WATCH_RENDERS = """() => {
  const t = window.hokmDebug.table;
  window.__renders = [];
  const seatEls = () => Object.fromEntries([...t.el.table.querySelectorAll(".seat")].map((e) => [e.dataset.seat, e]));
  const marks = (v) => v ? [...Array(v.players).keys()].map((s) =>
    JSON.stringify([v.to_move === s && v.phase !== "over" && v.phase !== "deal", v.hand_counts[s], v.seat_tricks[s], v.hakem, v.dealer, v.phase === "deal" || v.phase === "over"])) : null;
  const draw = t.render.bind(t);
  t.render = (...a) => {
    const before = seatEls(), was = marks(t.shown), seats = JSON.stringify(t.seats);
    const out = draw(...a);
    const after = seatEls(), now = marks(t.view);
    window.__renders.push({
      replaced: Object.keys(after).filter((s) => before[s] && before[s] !== after[s]).map(Number),
      changed: was ? now.map((m, s) => (m !== was[s] ? s : -1)).filter((s) => s >= 0) : null,
      seatsChanged: t.seatsSeen !== seats,  // names, connections or stand-ins since the last drawing
    });
    t.seatsSeen = seats;
    return out;
  };
}"""


def test_drawing_the_same_view_again_replaces_nothing(server, open_page):
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR")
    start_vs_computer(page, players=4)
    my_play_turn(page)  # the table waits for us: nothing else moves it
    changes = page.evaluate("""() => {
      const t = window.hokmDebug.table;
      const watch = new MutationObserver(() => {});
      watch.observe(t.el.table, { childList: true, subtree: true, attributes: true, attributeFilter: ["style"] });
      t.render();
      const parts = { seats: t.el.seats, "your seat": t.el.meSlot, hand: t.el.hand, scores: t.el.flowers, trump: t.el.trump };
      const out = watch.takeRecords().map((r) => {
        const part = Object.keys(parts).find((k) => parts[k].contains(r.target));
        // (the clock's ring on the seat to move runs down by its style: that is the clock, not a drawing)
        if (!part || (r.type === "attributes" && part !== "hand")) return null;
        return `${r.type} ${r.attributeName || ""} in ${part}`;
      }).filter(Boolean);
      watch.disconnect();
      return out;
    }""")
    assert not changes, f"drawing the same view again changed: {sorted(set(changes))}"


def test_a_card_played_redraws_only_the_seats_it_changes(server, open_page):
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR")
    start_vs_computer(page, players=4)
    my_play_turn(page)
    page.evaluate(WATCH_RENDERS)
    # Two tricks' worth of cards, ours among them.
    seen = 0
    while seen < 8:
        v = table_view(page)
        if v and v["legal"]:
            act_once(page)
        page.wait_for_timeout(40)
        seen = page.evaluate("() => window.__renders.length")
    renders = page.evaluate("() => window.__renders")
    kept = 0
    for r in renders:
        if r["seatsChanged"] or r["changed"] is None:
            continue
        stray = set(r["replaced"]) - set(r["changed"])
        assert not stray, f"seats {sorted(stray)} were drawn again though nothing of theirs changed: {r}"
        kept += 4 - len(r["replaced"])
    assert kept, f"no render kept a seat: {renders}"


def test_a_kept_seat_shows_the_turn_the_view_gives(server, open_page):
    """The turn's ring moves from seat to seat as cards fly in (``markTurn``), between two drawings: a seat kept
    by the next drawing shows the turn as the view gives it, whatever the flight left on it."""
    page = open_page(server + "/", viewport=PHONE, locale="fa-IR")
    start_vs_computer(page, players=4)
    my_play_turn(page)
    turns = page.evaluate("""() => {
      const t = window.hokmDebug.table;
      const me = t.view.seat, other = (me + 2) % 4;
      t.markTurn(other);  // as a flight interrupted part-way would leave it
      t.ringAt = undefined;
      t.render();
      return [...t.el.table.querySelectorAll(".seat.turn")].map((e) => Number(e.dataset.seat)).concat([me]);
    }""")
    *marked, me = turns
    assert marked == [me], f"the turn is ours, and the seats marked are {marked}"
