"""Free text typed at a private table: what is kept of it, and when it is refused.

A message is normalised to NFC, then cleaned of what can hide or reorder text on another player's
screen: controls (a line break or tab becomes a space), bidi controls (U+202A–U+202E,
U+2066–U+2069, the marks U+200E/U+200F/U+061C), zero-width and other invisible format characters
(U+200B, U+2060–U+2064, U+FEFF, U+00AD, ...). Two format characters are part of correct text and
kept where they sit between two visible characters: the zero-width non-joiner U+200C (Persian
spelling: «می‌خواهم») and the zero-width joiner U+200D (emoji sequences); a run of them becomes one.
Runs of spaces become one space, a stack of combining marks is cut to :data:`MAX_MARKS`. What is
left must hold a visible letter, digit, symbol or punctuation and at most :data:`MAX_CHARS`
characters. The client shows it as text (never HTML), isolated (``dir="auto"``).
"""

from __future__ import annotations

import unicodedata

from ..names import BLANK_LETTERS

#: Longest message, in characters after cleaning.
MAX_CHARS = 200
#: Combining marks kept on one base character (Persian and Arabic vowel signs need two or three).
MAX_MARKS = 4
ZWNJ, ZWJ = "\u200c", "\u200d"
#: Characters that look blank although Unicode counts them as letters or symbols (the names' set).
_BLANK = BLANK_LETTERS | frozenset("\u180e")


class TextRefused(ValueError):
    """The text cannot be sent: ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _visible(ch: str) -> bool:
    return ch not in _BLANK and unicodedata.category(ch)[0] in "LNPS"


def clean_text(raw: str) -> str:
    """The text as it is stored and shown; :class:`TextRefused` when nothing visible is left or it is too long."""
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", raw):
        cat = unicodedata.category(ch)
        if ch in (ZWNJ, ZWJ):
            if out and out[-1] not in (ZWNJ, ZWJ, " "):
                out.append(ch)
            continue
        if cat in ("Cc", "Zl", "Zp") or (cat == "Zs"):
            ch = " " if cat != "Cc" or ch in "\t\n\r\x0b\x0c" else ""
            if ch and out and out[-1] in (ZWNJ, ZWJ):
                out.pop()  # a joiner before a space joins nothing
            if ch and out and out[-1] != " ":
                out.append(" ")
            continue
        if cat in ("Cf", "Cs", "Cn", "Co"):
            continue  # bidi controls, invisible format characters, surrogates, unassigned, private use
        if cat in ("Mn", "Me"):
            if not out or out[-1] in (" ", ZWNJ, ZWJ) or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(ch)
    while out and out[-1] in (ZWNJ, ZWJ, " "):
        out.pop()
    text = "".join(out).strip(" ")
    if not any(_visible(ch) for ch in text):
        raise TextRefused("empty_text", "the message has nothing to show")
    if len(text) > MAX_CHARS:
        raise TextRefused("text_too_long", f"a message holds at most {MAX_CHARS} characters")
    return text
