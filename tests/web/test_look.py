"""The table's look in a real browser: readable card glyphs in every combination of designs, the
Persian ornament of each theme, the court figures, and the players' avatars."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from .conftest import APP_MODULE, ARTIFACTS, DESKTOP, act_once, shot, table_view
from .test_flows import new_table

pytestmark = pytest.mark.browser

CONTRAST_JS = (Path(__file__).parent / "contrast.js").read_text(encoding="utf-8")
THEME_TEXT_JS = (Path(__file__).parent / "theme_text.js").read_text(encoding="utf-8")
MIN_RATIO = 4.5  # WCAG AA for text


def in_app(page, fn: str, arg=None):  # type: ignore[no-untyped-def]
    """page.evaluate(fn, arg) where fn may call mod('settings.js') for the app's own instance of a module."""
    return page.evaluate(f"async (arg) => {{ const mod = {APP_MODULE}; return ({fn})(arg); }}", arg)


def test_every_glyph_is_readable_in_every_theme_face_and_back(server, open_page):
    page = open_page(server + "/", viewport=DESKTOP)
    page.wait_for_selector("#nickname")
    counts = in_app(page, """async () => {
      const c = await mod('cards.js'), t = await mod('themes.js');
      return [Object.keys(t.THEMES).length, Object.keys(c.FACE_DESIGNS).length];
    }""")
    rows = in_app(page, CONTRAST_JS)
    assert len(rows) == counts[0] * counts[1] >= 9 * 8
    assert all(r["glyphs"] >= 12 * 3 for r in rows), "the probe hand must have rank and suit glyphs on every card"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)  # each combination's lowest ratio, lowest first
    (ARTIFACTS / "contrast.json").write_text(json.dumps(sorted(rows, key=lambda r: r["ratio"]), indent=1), encoding="utf-8")
    bad = [r for r in rows if r["ratio"] < MIN_RATIO]
    worst = sorted(bad, key=lambda r: r["ratio"])[:12]
    assert not bad, f"{len(bad)} of {len(rows)} combinations have a glyph under {MIN_RATIO}:1, e.g.\n" + "\n".join(
        f"{r['theme']}/{r['face']} {r['card']} {r['state']}: {r['ratio']:.2f} glyph {r['glyph']} on {r['paper']}"
        for r in worst)


def test_the_contrast_arithmetic_matches_chromium_pixels(server, open_page):
    """The filter folding in contrast.js gives the colours Chromium really paints on a dimmed card."""
    image = pytest.importorskip("PIL.Image")
    page = open_page(server + "/", viewport=DESKTOP)
    page.wait_for_selector("#nickname")
    samples = ["#d0312d", "#1d1d22", "#fffdf8", "#1c2130", "#ff6b8b", "#13893f", "#1f62c9", "#e6cf9e"]
    predicted = page.evaluate("""(samples) => {
      const box = document.createElement('div');
      box.className = 'table';
      box.style.cssText = 'position:fixed;left:0;top:0;z-index:2000;display:flex;gap:0;background:#fff';
      for (const s of samples) {
        const b = document.createElement('button');
        b.className = 'card dimmed';
        b.style.cssText = 'position:static;transform:none;width:40px;height:40px;border-radius:0;transition:none;background:' + s;
        box.append(b);
      }
      document.body.append(box);
      return getComputedStyle(box.firstChild).filter;
    }""", samples)
    assert predicted and predicted != "none"
    folded = page.evaluate(
        "([css, samples]) => { const f = (" + _FILTER_ONLY + "); return samples.map((s) => f(s, css)); }",
        [predicted, samples])
    png = page.screenshot(clip={"x": 0, "y": 0, "width": 40 * len(samples), "height": 40})
    img = image.open(io.BytesIO(png)).convert("RGB")
    for i, want in enumerate(folded):
        got = img.getpixel((40 * i + 20, 20))
        assert all(abs(g - w) <= 3 for g, w in zip(got, want)), f"{samples[i]} under {predicted}: painted {got}, folded {want}"


# The filter part of contrast.js, reused on plain colours (the same source, cut out of the file).
_FILTER_ONLY = "(hex, css) => {" + CONTRAST_JS[CONTRAST_JS.index("  const clamp"):CONTRAST_JS.index("  const lum")] + """
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return filter(c, css).map((v) => Math.round(v * 255));
}"""


def test_every_theme_paints_its_ornament(server, open_page):
    """Each theme draws a tile of ornament as an SVG <pattern> over the whole page, and it shows."""
    page = open_page(server + "/", viewport=DESKTOP)
    page.wait_for_selector("#nickname")
    names = in_app(page, "async () => Object.keys((await mod('themes.js')).THEMES)")
    assert {"isfahan", "termeh"} <= set(names) and len(names) >= 9
    clip = {"x": 0, "y": DESKTOP["height"] - 160, "width": 160, "height": 160}  # a margin beside the panels
    tiles = set()
    for name in names:
        in_app(page, "async (n) => (await mod('settings.js')).set('theme', n)", name)
        layer = page.locator(f"svg.theme-ornament[data-theme='{name}']")
        assert layer.count() == 1, name
        assert layer.is_visible()
        box = layer.bounding_box()
        assert box and box["width"] >= DESKTOP["width"] - 1 and box["height"] >= DESKTOP["height"] - 1
        pattern = layer.locator("pattern#theme-ornament")
        assert pattern.count() == 1 and pattern.locator("path, circle, ellipse").count() > 0, name
        assert layer.locator("rect[fill='url(#theme-ornament)']").count() == 1
        tiles.add(pattern.inner_html())
        # Shown against hidden: the ornament must change what is painted.
        with_it = page.screenshot(clip=clip)
        layer.evaluate("el => el.style.visibility = 'hidden'")
        without = page.screenshot(clip=clip)
        layer.evaluate("el => el.style.visibility = ''")
        assert with_it != without, f"the {name} ornament paints nothing"
    assert len(tiles) == len(names), "every theme has its own ornament"


def test_the_miniature_faces_draw_court_figures(server, open_page):
    """King, queen and jack of the miniature faces are figures drawn head to head, different per rank."""
    page = open_page(server + "/", viewport=DESKTOP)
    page.wait_for_selector("#nickname")
    found = in_app(page, """async () => {
      const c = await mod('cards.js');
      const out = {};
      for (const card of ['KS', 'QH', 'JD', 'KC', 'QD', 'JS', 'TS']) {
        const box = document.createElement('div');
        box.innerHTML = c.faceSvg('miniature', card);
        document.body.append(box);
        const fig = box.querySelector('.court-figure');
        out[card] = fig ? { rank: fig.dataset.rank, parts: fig.querySelectorAll('path, ellipse, circle').length,
                            halves: fig.querySelectorAll('g[transform="rotate(180 50 70)"]').length,
                            w: fig.getBoundingClientRect().width } : null;
        box.remove();
      }
      return out;
    }""")
    assert found["TS"] is None
    for card in ("KS", "QH", "JD", "KC", "QD", "JS"):
        fig = found[card]
        assert fig and fig["rank"] == card[0] and fig["parts"] >= 30 and fig["halves"] >= 1 and fig["w"] > 0, card
    # Each rank is its own figure: king, queen and jack differ in what they are drawn with.
    assert len({found[c]["parts"] for c in ("KS", "QH", "JD")}) == 3
    # And the settings offer the design.
    page.click(".settings-btn")
    page.locator(".swatches[aria-label='Card faces'] [data-value='miniature']").click()
    assert page.evaluate("JSON.parse(localStorage.getItem('hokm.settings.v1')).faces") == "miniature"


def _my_turn_to_play(page, timers: dict | None = None) -> None:  # type: ignore[no-untyped-def]
    """Start a four-player game against the computer and wait until the hand is ours to play.

    ``timers``: the game is made with them (through the API) instead of the home page's defaults, for a
    test that looks at the table longer than a turn's 20 s."""
    name = "سارا" if page.evaluate("document.documentElement.lang") == "fa" else "Sara"
    page.fill("#nickname", name)
    if timers is None:
        page.click("#play-computer")
    else:
        new_table(page, page.evaluate("location.origin"), players=4, timers=timers)
    page.wait_for_function("() => window.hokmDebug && window.hokmDebug.table.view", timeout=30000)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        legal = (table_view(page) or {}).get("legal") or []
        if legal and legal[0]["type"] == "play" and page.locator(".hand .card.playable").count():
            return
        act_once(page)  # the Hokm, if we are Hâkem
        page.wait_for_timeout(100)
    raise AssertionError("never our turn to play")


def test_chosen_avatar_sits_at_your_seat_and_survives_a_reload(server, open_page):
    page = open_page(server + "/", viewport=DESKTOP)
    page.wait_for_selector("#nickname")
    page.click(".settings-btn")
    choices = page.locator(".swatches[aria-label='Your picture'] .swatch")
    assert choices.count() >= 12
    assert choices.locator("svg").count() == choices.count(), "every avatar is drawn in SVG"
    pictures = page.eval_on_selector_all(".swatches[aria-label='Your picture'] .swatch svg", "els => els.map(e => e.innerHTML)")
    assert len(set(pictures)) == len(pictures), "every avatar is a different picture"
    assert page.locator(".swatches[aria-label='Your picture'] [data-value='bolbol']").get_attribute("aria-label") == "Nightingale"
    page.locator(".swatches[aria-label='Your picture'] [data-value='bolbol']").click()
    page.locator(".sheet .icon-btn").first.click()
    _my_turn_to_play(page)

    def seats() -> dict:
        return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.seat')].map((s) => [
            s.classList.contains('me') ? 'me' : s.dataset.seat,
            { avatar: s.querySelector('.avatar-pic') && s.querySelector('.avatar-pic').dataset.avatar,
              svg: !!s.querySelector('.avatar-pic svg'), text: s.querySelector('.avatar').textContent.trim() }]))""")

    before = seats()
    assert before["me"] == {"avatar": "bolbol", "svg": True, "text": ""}
    bot_ids = in_app(page, "async () => (await mod('avatars.js')).BOT_IDS")
    people = in_app(page, "async () => (await mod('avatars.js')).PEOPLE_IDS")
    bots = [v["avatar"] for k, v in before.items() if k != "me"]
    assert len(bots) == 3 and all(b in bot_ids for b in bots) and len(set(bots)) == 3, bots
    assert not set(bot_ids) & set(people), "bots and people never share an avatar"
    page.reload()
    page.wait_for_selector(".seat.me .avatar-pic svg", timeout=20000)
    after = seats()
    assert after["me"]["avatar"] == "bolbol" and after == before
    assert page.evaluate("JSON.parse(localStorage.getItem('hokm.settings.v1')).avatar") == "bolbol"


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale", ["fa-IR", "en-US"])
def test_screenshots_of_every_theme(server, open_page, viewport, locale):
    """Pictures of the table in each theme (test-artifacts/web/look-*.png), faces and backs varied."""
    page = open_page(server + "/", viewport=viewport, locale=locale)
    page.wait_for_selector("#nickname")
    _my_turn_to_play(page)
    looks = in_app(page, """async () => {
      const [t, c] = [await mod('themes.js'), await mod('cards.js')];
      return [Object.keys(t.THEMES), Object.keys(c.FACE_DESIGNS), Object.keys(c.BACK_DESIGNS)];
    }""")
    themes, faces, backs = looks
    lang = locale[:2]
    for i, theme in enumerate(themes):
        face = "miniature" if theme in ("isfahan", "termeh", "turquoise") else faces[i % len(faces)]
        in_app(page, """async ([theme, face, back]) => {
          const s = await mod('settings.js');
          s.set('theme', theme); s.set('faces', face); s.set('backs', back);
        }""", [theme, face, backs[i % len(backs)]])
        page.wait_for_timeout(150)
        assert page.locator(f"svg.theme-ornament[data-theme='{theme}']").is_visible()
        assert page.locator(".hand .card").count() > 0
        shot(page, f"look-{theme}-{viewport['width']}-{lang}")
        if theme in ("termeh", "saffron"):
            assert not quiet_lines_under_ratio(page), (theme, quiet_lines_under_ratio(page))


# The quiet lines of the table (a seat's tricks, the status line, your clock) with their colour and the colour of
# the chip behind them; on a patterned cloth the chip must be there.
QUIET_LINES = """() => [...document.querySelectorAll('.seat-sub, .status-line:not(:empty), .my-timer:not(:empty)')]
  .filter((e) => e.getClientRects().length).map((e) => [e.className, getComputedStyle(e).color, getComputedStyle(e).backgroundColor])"""


def _rgba(css: str) -> tuple[float, float, float, float]:
    parts = [float(x) for x in css[css.index("(") + 1:css.index(")")].replace("/", ",").replace(" ", ",").split(",") if x]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def _luminance(rgb: tuple[float, float, float]) -> float:
    lin = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def quiet_lines_under_ratio(page) -> list:  # type: ignore[no-untyped-def]
    """Lines whose text reads under 4.5:1 on their chip laid over the darkest or the lightest pattern (black, white)."""
    bad = []
    for cls, fg, bg in page.evaluate(QUIET_LINES):
        r, g, b, a = _rgba(bg)
        if a == 0:
            bad.append((cls, "no chip"))
            continue
        text = _luminance(_rgba(fg)[:3])
        for under in (0.0, 255.0):
            chip = _luminance(tuple(c * a + under * (1 - a) for c in (r, g, b)))  # type: ignore[arg-type]
            ratio = (max(text, chip) + 0.05) / (min(text, chip) + 0.05)
            if ratio < MIN_RATIO:
                bad.append((cls, fg, bg, under, round(ratio, 2)))
    return bad


def test_room_seats_show_avatars(server, open_page):
    page = open_page(server + "/", viewport=DESKTOP, settings={"avatar": "anar"})
    page.fill("#nickname", "Ali")
    page.click("#create-room")
    page.wait_for_selector(".room-code")
    mine = page.locator(".seat-row .room-avatar[data-avatar='anar']")
    assert mine.count() == 1 and mine.locator("svg").count() == 1
    page.locator(".seat-row[data-seat='1'] .add-bot").click()
    page.wait_for_selector(".seat-row[data-seat='1'] .room-avatar")
    bot = page.locator(".seat-row[data-seat='1'] .room-avatar").get_attribute("data-avatar")
    assert bot in in_app(page, "async () => (await mod('avatars.js')).BOT_IDS")
    assert page.locator(".seat-row .room-avatar").count() == 2  # empty seats have none
    shot(page, "look-room-1440-en")


def _ratio_rgb(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    x, y = _luminance(a[:3]), _luminance(b[:3])  # type: ignore[arg-type]
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)


# Words written on the accent colour itself: a primary button and a chosen segment (both opaque).
ON_ACCENT = """() => ['btn primary', 'seg'].map((cls) => {
  const e = document.createElement('button'); e.className = cls; e.setAttribute('aria-checked', 'true'); e.textContent = 'x';
  document.body.append(e); const s = getComputedStyle(e); const out = [cls, s.color, s.backgroundColor]; e.remove(); return out; })"""


def theme_text_rows(page, theme: str, size: str) -> tuple[list[dict], bytes]:  # type: ignore[no-untyped-def]
    """Each line of text the table draws on the theme, against the pixels behind its glyphs (the glyphs made
    transparent for the picture): the ratio over the worst tenth of that ground, and over its middle; and the picture.

    A drawing between the boxes and the picture (the layout settling after a resize, a line drawn again with its
    glyphs) would put other pixels under a box: a picture counts only when the same hidden lines stood in the same
    boxes before and after it, and a second picture two frames later shows the same ground in every box."""
    image = pytest.importorskip("PIL.Image")
    two_frames = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
    changed: list[str] = []
    for _attempt in range(4):
        found = page.evaluate(THEME_TEXT_JS, "hide")
        try:
            page.evaluate(two_frames)
            shots = [page.screenshot()]
            page.evaluate(two_frames)
            shots.append(page.screenshot())
            changed = page.evaluate(THEME_TEXT_JS, "same")
        finally:
            page.evaluate(THEME_TEXT_JS, "show")
        first, second = (image.open(io.BytesIO(png)).convert("RGB") for png in shots)
        boxes = [(max(0, x0), max(0, y0), min(first.width, x1), min(first.height, y1)) for x0, y0, x1, y1 in (f["box"] for f in found)]
        changed += [f"the ground under {f['cls']} changed" for f, box in zip(found, boxes)
                    if first.crop(box).tobytes() != second.crop(box).tobytes()]
        if not changed:
            break
        page.wait_for_timeout(250)
    else:
        pytest.fail(f"the table kept changing under its text in {theme} at {size}: " + "; ".join(changed))
    rows = []
    for item, box in zip(found, boxes):
        raw = first.crop(box).tobytes()
        ground = [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)]
        if not ground:
            continue
        r, g, b, a = _rgba(item["color"])
        ratios = sorted(_ratio_rgb(tuple(a * c + (1 - a) * u for c, u in zip((r, g, b), px)), px) for px in ground)
        rows.append({"theme": theme, "size": size, "element": item["cls"], "text": item["text"][:24], "color": item["color"],
                     "ratio": round(ratios[len(ratios) // 10], 2), "median": round(ratios[len(ratios) // 2], 2)})
    return rows, shots[0]


@pytest.mark.parametrize("locale", ["fa-IR", "en-US"])
def test_text_on_every_theme_reads_at_4_5_to_1(server, open_page, locale):
    """The text drawn on the theme itself, not on a card (seat names, "۰ دور", the partner tag «یار», the score
    line, the status line, your turn and clock), against the cloth, page or panel behind it, in every theme, on a
    phone upright and on its side and on a desktop: 4.5:1 or more over all but the tenth of the ground most like
    the text (a thin line of ornament under a stroke)."""
    page = open_page(server + "/", viewport={"width": 390, "height": 844}, locale=locale)
    page.wait_for_selector("#nickname")
    # Every theme at three sizes takes longer than a turn's 20 s on a slow machine: the turn must not pass.
    _my_turn_to_play(page, timers={"trump": 600, "play": 600, "discard": 600, "draw": 600})
    themes = in_app(page, "async () => Object.keys((await mod('themes.js')).THEMES)")
    # At your turn the status line is empty: give it the words it says while another player is waited for.
    waiting = in_app(page, "async () => (await mod('i18n.js')).t('waitingFor', { name: window.hokmDebug.table.nameOf(1) })")
    rows: list[dict] = []
    for w, h in [(390, 844), (844, 390), (1440, 900)]:
        page.set_viewport_size({"width": w, "height": h})
        for theme in themes:
            in_app(page, "async (n) => (await mod('settings.js')).set('theme', n)", theme)
            page.evaluate("(t) => { document.querySelector('.status-line').textContent = t; }", waiting)
            page.wait_for_timeout(60)
            got, shot = theme_text_rows(page, theme, f"{w}x{h}")
            if any(r["ratio"] < MIN_RATIO for r in got):  # the picture the failure was read from, to look at
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                (ARTIFACTS / f"contrast-theme-text-{locale[:2]}-{theme}-{w}x{h}.png").write_bytes(shot)
            # The accent's own text: a primary button and a chosen segment, words on the theme's accent colour.
            for cls, fg, bg in page.evaluate(ON_ACCENT):
                got.append({"theme": theme, "size": f"{w}x{h}", "element": cls, "text": "", "color": fg,
                            "ratio": round(_ratio_rgb(_rgba(fg), _rgba(bg)), 2), "median": 0})
            kinds = {r["element"].split()[0] for r in got}
            assert {"seat-name", "seat-tricks", "partner-tag", "flower-name", "game-score", "status-line", "your-turn"} <= kinds, kinds
            rows += got
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"contrast-theme-text-{locale[:2]}.json").write_text(
        json.dumps(sorted(rows, key=lambda r: r["ratio"]), indent=1, ensure_ascii=False), encoding="utf-8")
    bad = sorted((r for r in rows if r["ratio"] < MIN_RATIO), key=lambda r: r["ratio"])
    assert not bad, f"{len(bad)} of {len(rows)} lines under {MIN_RATIO}:1, e.g.\n" + "\n".join(
        f"{r['theme']} {r['size']} {r['element']} {r['text']!r}: {r['ratio']} (middle {r['median']}) in {r['color']}" for r in bad[:30])
