"""Codes people read to each other and type: room invite codes, device codes, friend codes.

:func:`typed_code` is the one way a typed code becomes the stored form, for every kind of code:
the same letters and digits however the keyboard wrote them. A Persian keyboard types ۰–۹
(and an Arabic one ٠–٩) for the digits a friend reads out; a phone may give full-width forms, lower
case, or spaces and dashes between the groups.
"""

from __future__ import annotations

import secrets
import unicodedata

#: The letters and digits of every code: no 0/O or 1/I, so a code read aloud is typed right.
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
#: 8 of 32 symbols, 40 bits: unguessable at any rate the HTTP layer allows.
CODE_LENGTH = 8

_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "0123456789" * 2)


def typed_code(typed: str) -> str:
    """``typed`` as codes are stored: NFKC, Latin digits, upper case, no spaces or dashes."""
    text = unicodedata.normalize("NFKC", typed).translate(_DIGITS).upper()
    return "".join(ch for ch in text if not ch.isspace() and ch not in "-‐‑–—")


def new_code() -> str:
    """A fresh random code, as stored (:data:`CODE_LENGTH` symbols of :data:`CODE_ALPHABET`)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def is_code(stored: str) -> bool:
    """Whether ``stored`` (already through :func:`typed_code`) has the form of a code."""
    return len(stored) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in stored)
