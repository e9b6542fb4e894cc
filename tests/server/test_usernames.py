"""Usernames in process: what is cleaned, what is refused, and which names share a key."""

from __future__ import annotations

import pytest

from hokm.server.usernames import UsernameError, clean_username, username_key


@pytest.mark.parametrize("typed, shown", [
    ("nima\u202e", "nima"),  # a bidi override is removed
    ("\u2066sara\u2069", "sara"),  # so are isolates
    ("ＳＡＲＡ", "SARA"),  # full-width letters become ordinary ones (NFKC)
    ("می\u200cخواهم", "می\u200cخواهم"),  # ZWNJ between Persian letters is spelling: kept
    ("ab\u200b_c", "ab_c"),  # a zero-width space is not
])
def test_cleaned(typed: str, shown: str) -> None:
    assert clean_username(typed) == shown


@pytest.mark.parametrize("typed, code", [
    ("p\u0430ypal", "name_confusable"),  # one Cyrillic а among Latin letters
    ("\u2800\u2800\u2800", "name_invisible"),
    ("two words", "username_invalid"),
    ("<b>", "username_invalid"),
    ("ab", "username_invalid"),
    ("a" * 25, "name_too_long"),
    ("\u0440\u0430\u0440\u0440\u0430", "name_confusable"),  # all Cyrillic letters that read "pappa"
])
def test_refused(typed: str, code: str) -> None:
    with pytest.raises(UsernameError) as info:
        clean_username(typed)
    assert info.value.code == code


@pytest.mark.parametrize("a, b", [
    ("paypal", "PayPal"),
    ("ali1", "alil"),  # 1 and l
    ("bob0", "BOBO"),  # 0 and O
    ("nima_t", "NIMA_T"),  # a capital I is the i of the same name, as a phone's first capital is
    ("Iman", "iman"),
    ("admin", "ADMIN"),
    ("admin", "adm\u0131n"),  # dotless i
    ("admin", "\u0251dmin"),  # Latin alpha
    ("a\u200dbc", "abc"),  # a zero-width joiner between letters
    ("كيان", "کیان"),  # Arabic kaf and yeh, Persian forms
])
def test_lookalikes_share_a_key(a: str, b: str) -> None:
    assert username_key(clean_username(a)) == username_key(clean_username(b))


def test_different_names_keep_different_keys() -> None:
    names = ["sara", "sana", "سارا", "سینا", "nima", "mina"]
    assert len({username_key(clean_username(n)) for n in names}) == len(names)

