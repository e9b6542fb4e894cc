"""Display names: one table of names typed and names shown (or refused, with the code)."""

from __future__ import annotations

import pytest

from hokm.names import NameError_, clean_name, name_key

ZWNJ, ZWJ = "\u200c", "\u200d"

KEPT = [
    # (typed, shown)
    ("Sara", "Sara"),
    ("  Sara \t  Dara ", "Sara Dara"),
    (f"می{ZWNJ}خواهم", f"می{ZWNJ}خواهم"),  # the Persian half-space is spelling
    (f"بازی{ZWNJ}ها", f"بازی{ZWNJ}ها"),
    (f"👩{ZWJ}💻 Sara", f"👩{ZWJ}💻 Sara"),  # an emoji ZWJ sequence stays whole
    (f"Nava ❤\ufe0f{ZWJ}🔥", f"Nava ❤\ufe0f{ZWJ}🔥"),
    ("\u202eSara\u202c", "Sara"),  # bidi override and pop removed
    ("\u2066Omid\u2069", "Omid"),  # bidi isolates removed
    ("\u200bSima\ufeff", "Sima"),  # zero-width space and BOM removed
    (f"{ZWNJ}Dara{ZWJ}", "Dara"),  # joiners at the ends join nothing
    (f"Dara {ZWNJ} Omid", "Dara Omid"),  # nor next to a space
    ("\u2800Sara", "Sara"),  # a braille blank beside letters is dropped
    ("Sa\u034fra", "Sara"),  # the combining grapheme joiner shows nothing
    ("Ｓａｒａ", "Sara"),  # NFKC: full-width letters
    ("ﻋﻠﯽ", "علی"),  # NFKC: Arabic presentation forms
    ("Ali علی", "Ali علی"),  # Latin and Persian do not look alike: allowed
    ("Jürgen", "Jürgen"),
    ("Сергей", "Сергей"),  # one alphabet, even a Cyrillic one
    ("Παύλος", "Παύλος"),
    ("۱۲۳", "۱۲۳"),  # digits are visible
    (f"Sa{ZWJ}ra", "Sara"),  # a joiner between Latin letters joins nothing a reader sees
    (f"Sa{ZWNJ}ra", "Sara"),
    (f"Оль{ZWNJ}га", "Ольга"),
    ("Sara\U000e0041\U000e0042", "Sara"),  # tag characters outside a flag are invisible
    ("\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Sara",  # the Scottish flag
     "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Sara"),
    ("S" + "\u0336" * 23, "S" + "\u0336" * 3),  # a stack of marks over one letter is cut to three
    ("A" + "\u0301" * 20 + "li", "\u00c1" + "\u0301" * 3 + "li"),  # NFKC makes the first one part of Á
    ("مُحَمَّد", "مُحَمَّد"),  # Persian short vowels and the shadda stay
    ("Саша", "Саша"),  # Cyrillic with a letter no Latin one looks like (ш)
    ("Дмитрий", "Дмитрий"),
]

REFUSED = [
    ("", "name_empty"),
    ("   ", "name_empty"),
    ("\u2800", "name_invisible"),  # braille pattern blank
    ("\u3164", "name_invisible"),  # Hangul filler
    ("\u115f\u1160", "name_invisible"),  # Hangul choseong and jungseong fillers
    ("\u0301\u0301", "name_invisible"),  # combining marks with nothing to sit on
    (f"{ZWNJ}{ZWJ}\u202e", "name_invisible"),
    ("Ѕara", "name_confusable"),  # Cyrillic Ѕ (U+0405) in a Latin name
    ("Sаra", "name_confusable"),  # Cyrillic а (U+0430)
    ("Οmid", "name_confusable"),  # Greek Ο (U+039F)
    ("x" * 25, "name_too_long"),
    ("Ѕара", "name_confusable"),  # all Cyrillic, every letter a lookalike of a Latin one: reads "Sapa"
    ("Расо", "name_confusable"),
    ("Рома", "name_confusable"),  # reads "Poma"
    ("Οντο", "name_confusable"),  # Greek letters that each look Latin: reads "Ovto"
]


@pytest.mark.parametrize(("typed", "shown"), KEPT)
def test_names_kept(typed: str, shown: str) -> None:
    assert clean_name(typed) == shown


@pytest.mark.parametrize(("typed", "code"), REFUSED)
def test_names_refused(typed: str, code: str) -> None:
    with pytest.raises(NameError_) as info:
        clean_name(typed)
    assert info.value.code == code


def test_twenty_four_characters_count_after_normalising() -> None:
    assert clean_name("\u202e" + "x" * 24) == "x" * 24


@pytest.mark.parametrize(("a", "b"), [
    ("علي", "علی"),  # Arabic yeh U+064A / Persian yeh U+06CC
    ("على", "علی"),  # alef maksura U+0649
    ("كامران", "کامران"),  # Arabic kaf U+0643 / Persian keheh U+06A9
    ("SARA", "sara"),
    (f"می{ZWNJ}خواهم", "میخواهم"),
    ("Ｓａｒａ", "Sara"),
    ("عَلی", "علی"),  # a short-vowel sign
])
def test_names_that_read_the_same_compare_equal(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


def test_different_names_stay_different() -> None:
    assert name_key("Sara") != name_key("Dara")
    assert name_key("علی") != name_key("عالی")
