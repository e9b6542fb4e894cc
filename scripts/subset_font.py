"""Cut Vazirmatn down to the letters the web table shows, so the first visit stays small.

    python scripts/subset_font.py

Reads the full variable font shipped in src/hokm/web/static/fonts/vazirmatn-variable.woff2 and
writes fonts/vazirmatn-subset.woff2 beside it: Latin (ASCII and Latin-1), the Persian alphabet
with the Arabic letters and marks of the basic block, Persian and Arabic-Indic digits, Persian
punctuation, and general punctuation (dashes, quotes, the zero-width non-joiner and the direction
marks), every weight (the wght axis is kept), and only the OpenType features the page needs:
Arabic shaping (init, medi, fina, rlig, calt, ccmp, mark, mkmk, curs), kerning, ligatures,
localised forms, figures (tnum, lnum) and ss01 (Persian digits). The font's name table, with its
copyright and licence (SIL Open Font License 1.1, fonts/Vazirmatn-OFL.txt), is kept as it is.

The page's stylesheet loads the subset for these characters and the full font for the rest of
what Vazirmatn covers (unicode-range), so a name in a rarer script still shows in the typeface;
the script prints both ranges for the stylesheet. Needs fontTools and brotli (the ``web`` extra).
"""

from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

FONTS = Path(__file__).resolve().parents[1] / "src" / "hokm" / "web" / "static" / "fonts"
FULL = FONTS / "vazirmatn-variable.woff2"
OUT = FONTS / "vazirmatn-subset.woff2"

RANGES = [
    (0x0020, 0x007E), (0x00A0, 0x00FF),  # ASCII, Latin-1 (â in Hâkem)
    (0x060C, 0x060C), (0x061B, 0x061B), (0x061F, 0x061F),  # Persian comma, semicolon, question mark
    (0x0621, 0x0655), (0x0660, 0x066D), (0x0670, 0x0670),  # Arabic letters and marks, digits, ٪ ٫ ٬
    (0x067E, 0x067E), (0x0686, 0x0686), (0x0698, 0x0698), (0x06A9, 0x06A9), (0x06AF, 0x06AF),  # پ چ ژ ک گ
    (0x06C0, 0x06C0), (0x06CC, 0x06CC), (0x06F0, 0x06F9),  # ۀ ی, Persian digits
    (0x2000, 0x206F), (0xFEFF, 0xFEFF),  # general punctuation (ZWNJ, dashes, bidi marks)
]
FEATURES = ["ccmp", "calt", "init", "medi", "fina", "rlig", "liga", "locl", "mark", "mkmk", "curs", "kern",
            "tnum", "lnum", "ss01"]


def codepoints(ranges: list[tuple[int, int]]) -> set[int]:
    return {c for lo, hi in ranges for c in range(lo, hi + 1)}


def css_ranges(points: set[int]) -> str:
    """A unicode-range value for a set of code points."""
    out: list[str] = []
    ordered = sorted(points)
    start = prev = ordered[0]
    for c in ordered[1:] + [-1]:
        if c != prev + 1:
            out.append(f"U+{start:04X}" if start == prev else f"U+{start:04X}-{prev:04X}")
            start = c
        prev = c
    return ", ".join(out)


def main() -> None:
    covered = set(TTFont(FULL).getBestCmap())
    wanted = codepoints(RANGES) & covered
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = FEATURES
    options.name_IDs = ["*"]  # keep the copyright, licence and designer records
    options.name_languages = ["*"]
    options.notdef_outline = True
    font = TTFont(FULL)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted)
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(OUT)
    print(f"{OUT.name}: {len(wanted)} characters, {OUT.stat().st_size} bytes (full font {FULL.stat().st_size})")
    print(f"subset unicode-range: {css_ranges(wanted)}")
    print(f"full font unicode-range: {css_ranges(covered - wanted - {0, 0x0D})}")


if __name__ == "__main__":
    main()
