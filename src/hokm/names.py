"""Display names: the one place where a name a player typed becomes a name the server shows.

:func:`clean_name` turns typed text into the display form or refuses it with a :class:`NameError_`
that carries a code; :func:`name_key` is the form two names are compared by. Every place a name
enters the server (guest creation today) goes through :func:`clean_name`. The rules:

- NFKC first, so compatibility forms (full-width letters, ligatures, Arabic presentation forms)
  become the ordinary letters they stand for;
- bidi controls and every other invisible format or control character are removed, except the
  zero-width non-joiner U+200C (part of Persian spelling, "می‌خواهم") and the zero-width joiner
  U+200D (emoji sequences, "👩‍💻") where they sit between two visible characters, not both Latin,
  Cyrillic, Greek or ASCII (where a joiner changes nothing a reader sees); tag characters only in a
  subdivision flag (after the black flag U+1F3F4);
- at most three combining marks over one letter (a stack of them is a way to scribble over a line);
- runs of white space become one space, and the ends are trimmed;
- a name with no visible letter or digit is refused (braille blank U+2800, Hangul fillers U+3164,
  U+115F, U+1160, U+FFA0, combining marks alone, white space only);
- a name that mixes Latin, Cyrillic and Greek letters and uses a lookalike ("Ѕara" with a
  Cyrillic Ѕ) is refused, and so is a name written all in Cyrillic or Greek letters that each look
  like a Latin one ("Ѕара"), using the Unicode confusables data of ``confusable_homoglyphs``;
- 1 to 24 characters (code points) remain.

:func:`name_key` is NFKC, case-folded, with the Arabic ي ى and ك unified to the Persian ی and
ک, and the joiners and combining marks (Persian short-vowel signs, variation selectors) dropped:
two names with the same key read the same to a player.
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from confusable_homoglyphs import categories, confusables

MAX_NAME = 24
ZWNJ, ZWJ = "\u200c", "\u200d"
NameCode = Literal["name_empty", "name_too_long", "name_invisible", "name_confusable"]

# Letters that render as nothing: they count as neither letter nor digit.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180b\u180c\u180d\u180f")
# Scripts whose letters look like each other: mixing them in one name is how names are faked.
_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})
_TAGS = ("\U000e0020", "\U000e007f")
_FLAG = "\U0001f3f4"  # the black flag that a subdivision flag's tags follow
MAX_MARKS = 3  # combining marks kept over one letter (Persian and Arabic need at most two or three)
_PERSIAN_FORMS = str.maketrans({"\u064a": "\u06cc", "\u0649": "\u06cc", "\u0643": "\u06a9"})


class NameError_(ValueError):
    """A name that cannot be shown: ``code`` says why (``name_invisible``, ``name_confusable`` ...)."""

    def __init__(self, code: NameCode, message: str) -> None:
        super().__init__(message)
        self.code: NameCode = code
        self.message = message


def _visible(ch: str) -> bool:
    """Drawn with ink: not white space, not a control or format character, not a blank letter."""
    if ch in BLANK_LETTERS or ch.isspace():
        return False
    return unicodedata.category(ch)[0] not in "CZ"


def _strip_invisible(text: str) -> str:
    """Remove control, format and unassigned characters; keep ZWNJ/ZWJ only between visible ones."""
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            out.append(" ")
            continue
        cat = unicodedata.category(ch)
        if ch in (ZWNJ, ZWJ):
            before = out[-1] if out else ""
            after = next((c for c in text[i + 1:] if c not in (ZWNJ, ZWJ)), "")
            if (before and after and _visible(before) and _visible(after) and _joinable(after)
                    and not (_unjoined(before) and _unjoined(after))):
                out.append(ch)
            continue
        if _TAGS[0] <= ch <= _TAGS[1] and out and (out[-1] == _FLAG or _TAGS[0] <= out[-1] <= _TAGS[1]):
            out.append(ch)  # a subdivision flag: the black flag, then its tags
            continue
        if cat[0] == "C" or ch in BLANK_LETTERS:  # Cc Cf Cs Co Cn, and blank-looking letters
            continue
        if cat[0] == "M":
            marks = 0
            while marks < len(out) and unicodedata.category(out[-1 - marks])[0] == "M":
                marks += 1
            if marks >= MAX_MARKS:
                continue  # a stack of marks over one letter: the first few are kept
        out.append(ch)
    return "".join(out)


def _unjoined(ch: str) -> bool:
    """Written without joiners: Latin, Cyrillic and Greek letters, digits and ASCII. A joiner between
    two of these changes nothing a reader sees (only a name's bytes), so it is dropped there."""
    if ch.isascii():
        return True
    if unicodedata.category(ch)[0] != "L":
        return False
    try:
        return categories.alias(ch) in _LOOKALIKE_SCRIPTS
    except (KeyError, ValueError, IndexError):
        return False


def _joinable(ch: str) -> bool:
    """Characters a joiner may precede: not a control or format character (those are dropped)."""
    return unicodedata.category(ch)[0] != "C" and ch not in BLANK_LETTERS


def _has_letter_or_digit(text: str) -> bool:
    return any(unicodedata.category(ch)[0] in "LN" and ch not in BLANK_LETTERS for ch in text)


def _letter_scripts(text: str) -> set[str]:
    scripts: set[str] = set()
    for ch in text:
        if unicodedata.category(ch)[0] == "L":
            try:
                scripts.add(categories.alias(ch))
            except (KeyError, ValueError, IndexError):  # a letter newer than the confusables data
                scripts.add("UNKNOWN")
    return scripts


def _reads_as_latin(text: str) -> bool:
    """Every letter Cyrillic or Greek, and each one a lookalike of a Latin letter ("Ѕара" reads "Sapa")."""
    letters = [ch for ch in text if unicodedata.category(ch)[0] == "L"]
    if not letters or not _letter_scripts(text) <= {"CYRILLIC", "GREEK"}:
        return False
    found = confusables.is_confusable(text, greedy=True, preferred_aliases=["latin"]) or []
    lookalikes = {x["character"] for x in found}
    return all(ch in lookalikes for ch in letters)


def clean_name(typed: str) -> str:
    """The display form of a typed name; raises :class:`NameError_` when it cannot be one."""
    text = _strip_invisible(unicodedata.normalize("NFKC", typed))
    text = " ".join(part for part in text.split(" ") if part)
    if not text:
        if typed.strip():
            raise NameError_("name_invisible", "the name has only invisible characters")
        raise NameError_("name_empty", "the name is empty")
    if not _has_letter_or_digit(text):
        raise NameError_("name_invisible", "the name needs at least one visible letter or digit")
    if len(_letter_scripts(text) & _LOOKALIKE_SCRIPTS) >= 2 and confusables.is_dangerous(text):
        raise NameError_("name_confusable", "the name mixes Latin, Cyrillic or Greek letters that look alike; "
                         "write it in one alphabet")
    if _reads_as_latin(text):
        raise NameError_("name_confusable", "the name is written in Cyrillic or Greek letters that all look like "
                         "Latin ones; write it in Latin letters")
    if len(text) > MAX_NAME:
        raise NameError_("name_too_long", f"the name may have at most {MAX_NAME} characters")
    return text


def name_key(name: str) -> str:
    """The form names are compared by: NFKC, case-folded, Persian letter forms, no joiners or marks."""
    text = unicodedata.normalize("NFKC", name).casefold().translate(_PERSIAN_FORMS)
    text = "".join(ch for ch in text if ch not in (ZWNJ, ZWJ) and unicodedata.category(ch) != "Mn")
    return " ".join(text.split())
