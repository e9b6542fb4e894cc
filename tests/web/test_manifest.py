"""The app manifests, checked without a browser: required fields, and icons that exist at the sizes
and types they declare (tests/web/test_pwa.py asks Chromium itself)."""

from __future__ import annotations

import json
import struct

import pytest

from hokm.web import static_dir

STATIC = static_dir()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("name, lang, dir_, app_name", [("manifest.webmanifest", "fa", "rtl", "حکم"),
                                                        ("manifest.en.webmanifest", "en", "ltr", "Hokm")])
def test_a_manifest_has_what_installing_needs(name: str, lang: str, dir_: str, app_name: str) -> None:
    m = json.loads((STATIC / name).read_text(encoding="utf-8"))
    assert (m["name"], m["short_name"], m["lang"], m["dir"]) == (app_name, app_name, lang, dir_)
    # One app whatever the language: the same id, start URL and scope.
    assert m["id"] == m["start_url"] == m["scope"] == "/"
    assert m["display"] == "standalone"
    assert m["theme_color"].startswith("#") and m["background_color"].startswith("#")
    pngs = set()
    for icon in m["icons"]:
        path = STATIC / icon["src"]
        assert path.is_file(), icon["src"]
        if icon["type"] == "image/png":
            w, h = png_size(path.read_bytes())
            assert icon["sizes"] == f"{w}x{h}", icon
            pngs.add((icon["sizes"], icon["purpose"]))
        else:
            assert icon["type"] == "image/svg+xml" and icon["sizes"] == "any"
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= pngs


def test_the_theme_colour_is_the_pages() -> None:
    m = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert f'<meta name="theme-color" content="{m["theme_color"]}">' in (STATIC / "index.html").read_text(encoding="utf-8")


def test_the_apple_touch_icon_is_opaque_and_180_pixels() -> None:
    data = (STATIC / "icons" / "apple-touch-icon.png").read_bytes()
    assert png_size(data) == (180, 180)
    assert data[25] == 2  # colour type 2: RGB, no alpha channel
