"""Draw the web table's app icons (PNG) from its favicon, with Chromium.

    python scripts/make_icons.py

Writes to src/hokm/web/static/icons/:
- icon-192.png, icon-512.png: the favicon as it is (rounded green tile, a card with a spade),
  transparent outside the tile;
- maskable-512.png: a full square of green with the card drawn smaller, inside the circle of
  radius 40% that every launcher mask keeps;
- apple-touch-icon.png (180 px): the maskable drawing (iOS rounds the corners itself and wants no
  transparency).

Needs Playwright and a Chromium (scripts/install-chromium.sh); HOKM_CHROMIUM names another one.
Run it again whenever favicon.svg changes, and commit the PNGs.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "src" / "hokm" / "web" / "static"


def full_bleed(svg: str, scale: float) -> str:
    """The favicon on a square background with its drawing scaled about the centre."""
    m = re.match(r'(<svg[^>]*>)(<rect [^>]*/>)(.*)(</svg>)\s*$', svg.strip(), re.S)
    assert m, "favicon.svg: expected <svg><rect background/>drawing</svg>"
    head, tile, drawing, tail = m.groups()
    square = re.sub(r'\s+rx="[^"]*"', "", tile)
    return f'{head}{square}<g transform="translate(32 32) scale({scale}) translate(-32 -32)">{drawing}</g>{tail}'


def render(page, svg: str, size: int, out: Path, transparent: bool) -> None:  # type: ignore[no-untyped-def]
    data = base64.b64encode(svg.encode()).decode()
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(f'<body style="margin:0;background:transparent">'
                     f'<img src="data:image/svg+xml;base64,{data}" width="{size}" height="{size}" style="display:block">')
    page.wait_for_function("document.images[0].complete")
    page.screenshot(path=str(out), omit_background=transparent)
    print(f"{out.relative_to(STATIC.parents[3])}: {size}x{size}, {out.stat().st_size} bytes")


def main() -> None:
    favicon = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    # The card spans 36 x 48 of the 64-unit tile: its corners sit 30 units from the centre, so 0.8
    # brings them to 24, inside the maskable safe circle (40% of 64 = 25.6).
    maskable = full_bleed(favicon, 0.8)
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    chromium = os.environ.get("HOKM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(device_scale_factor=1)
        render(page, favicon, 192, out / "icon-192.png", transparent=True)
        render(page, favicon, 512, out / "icon-512.png", transparent=True)
        render(page, maskable, 512, out / "maskable-512.png", transparent=False)
        render(page, maskable, 180, out / "apple-touch-icon.png", transparent=False)
        browser.close()


if __name__ == "__main__":
    main()
