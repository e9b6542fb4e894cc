"""Codes people read to each other and type: room invite codes, device codes, friend codes.

:func:`typed_code` is the one way a typed code becomes the stored form, for every kind of code:
the same letters and digits however the keyboard wrote them. A Persian keyboard types ۰–۹
(and an Arabic one ٠–٩) for the digits a friend reads out; a phone may give full-width forms, lower
case, or spaces and dashes between the groups.
"""

from __future__ import annotations

import unicodedata

_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "0123456789" * 2)


def typed_code(typed: str) -> str:
    """``typed`` as codes are stored: NFKC, Latin digits, upper case, no spaces or dashes."""
    text = unicodedata.normalize("NFKC", typed).translate(_DIGITS).upper()
    return "".join(ch for ch in text if not ch.isspace() and ch not in "-‐‑–—")
