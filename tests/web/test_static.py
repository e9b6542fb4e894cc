"""The web table's files, checked without a browser: they ship in the package and hang together."""

from __future__ import annotations

import re

from hokm.web import static_dir

STATIC = static_dir()


def _strings(lang: str) -> set[str]:
    text = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    block = re.search(rf"\n  {lang}: \{{\n(.*?)\n  \}},", text, re.S)
    assert block, f"no {lang} block in i18n.js"
    return set(re.findall(r"^\s{4}(\w+):", block.group(1), re.M))


def test_the_page_and_its_modules_are_in_the_package():
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    for ref in re.findall(r'(?:src|href)="([^"#:]+)"', index):
        if ref.startswith("/api/"):  # the server's answers, fetched early (preload)
            continue
        assert (STATIC / ref).is_file(), f"index.html refers to a missing file: {ref}"
    for module in (STATIC / "js").glob("*.js"):
        for ref in re.findall(r'from "(\./[^"]+)"', module.read_text(encoding="utf-8")):
            assert (module.parent / ref).resolve().is_file(), f"{module.name} imports a missing module: {ref}"


def _plain(keys: set[str]) -> set[str]:
    """Keys less the singular forms ("tricksN_one"): English needs them, Persian counts take the singular anyway."""
    return {k for k in keys if not k.endswith("_one")}


def test_persian_and_english_have_the_same_strings():
    en, fa = _plain(_strings("en")), _plain(_strings("fa"))
    assert len(en) > 100
    assert en - fa == set(), f"missing in Persian: {sorted(en - fa)}"
    assert fa - en == set(), f"missing in English: {sorted(fa - en)}"


def test_feature_modules_speak_both_languages():
    """Modules that bring their own strings (addStrings) give every key in English and Persian."""
    found = 0
    for module in (STATIC / "js").glob("*.js"):
        text = module.read_text(encoding="utf-8")
        for block in re.findall(r"addStrings\(\{\n(.*?)\n\}\);", text, re.S):
            tables = dict(re.findall(r"^  (en|fa): \{(.*?)\},?$", block, re.S | re.M))
            en, fa = (_plain(set(re.findall(r"(\w+): \"", tables.get(lang, "")))) for lang in ("en", "fa"))
            assert en and en == fa, \
                f"{module.name}: only in English {sorted(en - fa)}, only in Persian {sorted(fa - en)}"
            found += 1
    assert found >= 5


def test_the_shipped_font_carries_its_free_licence():
    assert (STATIC / "fonts" / "vazirmatn-variable.woff2").stat().st_size > 10_000
    licence = (STATIC / "fonts" / "Vazirmatn-OFL.txt").read_text(encoding="utf-8")
    assert "SIL Open Font License" in licence


def test_seven_designs_of_each_kind():
    cards = (STATIC / "js" / "cards.js").read_text(encoding="utf-8")
    themes = (STATIC / "js" / "themes.js").read_text(encoding="utf-8")

    def keys(text: str, name: str) -> list[str]:
        block = re.search(rf"export const {name} = \{{\n(.*?)\n\}};", text, re.S)
        assert block, name
        return re.findall(r"^  (\w+): \{", block.group(1), re.M)

    assert len(keys(cards, "FACE_DESIGNS")) >= 7
    assert len(keys(cards, "BACK_DESIGNS")) >= 7
    assert len(keys(themes, "THEMES")) >= 7


def test_no_module_writes_a_colour_emoji_or_a_dealer_letter():
    """Debian's Chromium has no colour-emoji font: 🤖 shows as an empty box (the SVG avatars and badges stand in).

    The dealer is a picture, not "D"/"د"."""
    emoji = re.compile("[\U0001F916\U0001F451]")  # robot, crown
    for js in sorted((STATIC / "js").glob("*.js")):
        text = js.read_text(encoding="utf-8")
        assert not emoji.search(text), (js.name, emoji.findall(text))
    table = (STATIC / "js" / "table.js").read_text(encoding="utf-8")
    dealer = re.search(r'span\.badge\.dealer"[^\n]*', table)
    assert dealer and '"د"' not in dealer.group(0) and '"D"' not in dealer.group(0) and "html: DECK" in dealer.group(0), dealer
