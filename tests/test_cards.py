"""Cards: notation, parsing errors, interning, masks and display order."""

from __future__ import annotations

import pickle

import pytest

from hokm.cards import (
    CARDS,
    SUIT_MASKS,
    Card,
    Suit,
    card_of,
    cards_in,
    format_cards,
    full_deck,
    iter_cards,
    mask_of,
    parse_cards,
    sort_hand,
)


def test_index_layout() -> None:
    assert Card.parse("2S") == 0 and Card.parse("AS") == 12
    assert Card.parse("2H") == 13 and Card.parse("AC") == 51
    ace_of_diamonds = Card.parse("AD")
    assert ace_of_diamonds.suit is Suit.DIAMONDS and ace_of_diamonds.rank == 12


def test_every_card_round_trips_through_text() -> None:
    assert len(CARDS) == 52 and len({str(c) for c in CARDS}) == 52
    for c in CARDS:
        assert Card.parse(str(c)) is c
        assert Card(int(c)) is c


@pytest.mark.parametrize("text, expected", [("10H", "TH"), ("10s", "TS"), ("td", "TD"), (" KC ", "KC")])
def test_lenient_parsing(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "1S", "11H", "AX", "ZS", "A", "ASS", "10", "S10"])
def test_bad_card_text(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


@pytest.mark.parametrize("value", [52, -1, 3.0, None, True])
def test_card_of_rejects(value) -> None:
    with pytest.raises(ValueError):
        card_of(value)


def test_card_of_accepts_the_three_spellings() -> None:
    assert card_of("QH") is card_of(Card.parse("QH")) is card_of(23)


def test_suit_parsing() -> None:
    assert Suit.parse("s") is Suit.SPADES and Suit.parse("♥") is Suit.HEARTS
    assert Suit.parse("clubs") is Suit.CLUBS and str(Suit.DIAMONDS) == "D"
    assert Suit.HEARTS.is_red and not Suit.CLUBS.is_red
    with pytest.raises(ValueError, match="not a suit"):
        Suit.parse("X")


def test_masks() -> None:
    cards = parse_cards("AS 2H KD 3C")
    m = mask_of(cards)
    assert m.bit_count() == 4
    assert cards_in(m) == sorted(cards) == list(iter_cards(m))
    assert all(m & SUIT_MASKS[s] for s in range(4))
    assert mask_of(full_deck()) == (1 << 52) - 1
    assert sum(SUIT_MASKS) == (1 << 52) - 1


def test_full_deck_without_the_removed_two() -> None:
    deck = full_deck([Card.parse("2C")])
    assert len(deck) == 51 and Card.parse("2C") not in deck


def test_sort_hand_puts_trump_first_high_cards_first() -> None:
    hand = parse_cards("2S AS 3H KC 9H")
    assert format_cards(sort_hand(hand)) == "AS 2S 9H 3H KC"
    assert format_cards(sort_hand(hand, Suit.HEARTS)) == "9H 3H AS 2S KC"


def test_pickle_keeps_interning() -> None:
    c = Card.parse("JD")
    assert pickle.loads(pickle.dumps(c)) is c


def test_card_names_are_the_cards_of_a_mask_by_name() -> None:
    import random

    from hokm.cards import card_names, cards_in

    rng = random.Random(5)
    masks = [0, (1 << 52) - 1, 1, 1 << 51, 0x1FFF << 13]
    masks += [rng.getrandbits(52) & rng.getrandbits(52) for _ in range(2000)]
    for mask in masks:
        assert card_names(mask) == [str(c) for c in cards_in(mask)]
    names = card_names(masks[1])
    names.clear()  # a caller's list is its own: the next answer is whole
    assert len(card_names(masks[1])) == 52
