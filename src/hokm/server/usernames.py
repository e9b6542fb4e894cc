"""Usernames: the display name rules of :mod:`hokm.names`, plus what makes a name a unique login.

:func:`clean_username` is :func:`hokm.names.clean_name` (NFKC, no bidi controls or invisible
characters, no mixed-script lookalikes, a visible letter or digit), then a username's own limits:
3 to 24 characters, no spaces, letters, digits, marks, joiners and ``_ . -`` only.

:func:`username_key` is what two usernames are compared by, so two that read the same cannot both
exist: every character that the Unicode confusables data says looks like a Latin letter becomes
that letter (Cyrillic "раураl" and Latin "paypal" share a key), after case folding (a phone that
writes "Iman" reaches "iman"); the lookalikes ``1 | 0`` become ``l l o`` and dotless ``ı``, Latin
alpha ``ɑ`` and script ``ɡ`` their ASCII letters; then :func:`hokm.names.name_key` (Arabic ي ى ك as
Persian ی ک, joiners and marks dropped).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

from ..names import NameError_, clean_name, name_key

MIN_USERNAME, MAX_USERNAME = 3, 24
_ALLOWED_PUNCT = frozenset("_.-")
# After case folding: digits and signs that read as letters, and Latin letters the confusables
# data leaves apart from the ASCII ones they look like (dotless i, Latin alpha and script g).
_LOOKALIKES = str.maketrans({"1": "l", "|": "l", "0": "o", "\u0131": "i", "\u0251": "a", "\u0261": "g",
                             "\u026a": "i", "\u1d00": "a"})


class UsernameError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def clean_username(typed: str) -> str:
    """The username as it will be shown, or :class:`UsernameError` saying why it cannot be one."""
    try:
        name = clean_name(typed)
    except NameError_ as e:
        raise UsernameError(e.code, f"username: {e.message}") from None
    if " " in name:
        raise UsernameError("username_invalid", "username: no spaces (letters, digits and _ . - only)")
    for ch in name:
        cat = unicodedata.category(ch)
        if not (cat[0] in "LNM" or ch in _ALLOWED_PUNCT or ch in ("\u200c", "\u200d")):
            raise UsernameError("username_invalid", "username: letters, digits and _ . - only")
    if not MIN_USERNAME <= len(name) <= MAX_USERNAME:
        raise UsernameError("username_invalid",
                            f"username: {MIN_USERNAME} to {MAX_USERNAME} characters")
    return name


@lru_cache(maxsize=4096)
def _latin_lookalike(ch: str) -> str:
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"])
    if found:
        for glyph in found[0]["homoglyphs"]:
            if glyph["n"].startswith("LATIN ") and glyph["c"].isascii():
                return str(glyph["c"])
    return ch


def username_key(name: str) -> str:
    """The uniqueness key of a (cleaned) username: case folded first (so "NIMA" is "nima"), then
    lookalikes folded together, then :func:`name_key`."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(_latin_lookalike(ch) for ch in text).casefold().translate(_LOOKALIKES)
    return name_key(text)
