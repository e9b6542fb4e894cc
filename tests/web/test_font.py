"""The font subset the page loads covers every letter the page writes, so the full font is only
ever downloaded for players' names in rarer scripts."""

from __future__ import annotations

import re

import pytest

from hokm.web import static_dir

ttLib = pytest.importorskip("fontTools.ttLib", reason="fontTools is not installed (the web extra)")
FONTS = static_dir() / "fonts"


def cmap(name: str) -> set[int]:
    return set(ttLib.TTFont(FONTS / name).getBestCmap())


def test_the_subset_has_every_character_of_the_pages_text_that_vazirmatn_has() -> None:
    full, subset = cmap("vazirmatn-variable.woff2"), cmap("vazirmatn-subset.woff2")
    text = "".join(p.read_text(encoding="utf-8") for p in static_dir().rglob("*")
                   if p.suffix in (".js", ".html", ".webmanifest"))
    used = {ord(c) for c in text} & full
    assert used - subset == set(), "".join(chr(c) for c in sorted(used - subset))
    # Every Persian letter a player may type is in the subset, with Persian digits and the ZWNJ.
    persian = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیآأؤئءۀ" + "۰۱۲۳۴۵۶۷۸۹" + "\u200c،؛؟«»"
    assert {ord(c) for c in persian} <= subset
    assert len(subset) < len(full) and (FONTS / "vazirmatn-subset.woff2").stat().st_size < 64 * 1024


def test_the_subset_keeps_the_features_the_page_uses() -> None:
    font = ttLib.TTFont(FONTS / "vazirmatn-subset.woff2")
    gsub = {r.FeatureTag for r in font["GSUB"].table.FeatureList.FeatureRecord}
    assert {"init", "medi", "fina", "rlig", "ss01"} <= gsub  # Arabic shaping; Persian digits (ss01)
    assert "fvar" in font and [a.axisTag for a in font["fvar"].axes] == ["wght"]  # every weight
    names = " ".join(str(n) for n in font["name"].names)
    assert "SIL Open Font License" in names or "OFL" in names


def test_the_stylesheet_splits_the_font_by_unicode_range() -> None:
    css = (static_dir() / "css" / "app.css").read_text(encoding="utf-8")
    faces = re.findall(r"@font-face\s*\{(.*?)\}", css, re.S)
    srcs = [re.search(r'url\("\.\./fonts/([^"]+)"\)', f).group(1) for f in faces]
    assert sorted(srcs) == ["vazirmatn-subset.woff2", "vazirmatn-variable.woff2"]
    assert all("unicode-range" in f for f in faces)
