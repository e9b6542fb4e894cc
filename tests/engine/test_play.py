"""Trick play: the Hâkem leads, follow suit, trump wins, the winner leads, clear errors."""

from __future__ import annotations

import pytest

from hokm.cards import Suit, parse_cards
from hokm.engine import Game, IllegalActionError, Phase, Play, Rules

from .helpers import deck_for

# Four hands written out so that each trick below shows one rule (trump is spades).
HANDS = [
    "AS KS QS JS TS 9S AH KH QH JH TH 9H 8H",  # seat 0, the Hâkem: no diamonds, no clubs
    "8S 7S 6S 5S 4S 7H 6H 5H 4H 3H 2H AC KC",  # seat 1: no diamonds
    "3S 2S AD KD QD JD TD 9D 8D 7D 6D 5D 4D",  # seat 2: no hearts, no clubs
    "3D 2D QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",  # seat 3: no spades, no hearts
]


@pytest.fixture
def game() -> Game:
    rules = Rules(players=4)
    g = Game(rules, first_hakem=0)
    g.deal(deck_for(rules, 0, [h.split() for h in HANDS]))
    g.apply(Suit.SPADES)
    return g


def refused(game: Game, card: str, code: str, message: str) -> None:
    before = (game.hands.copy(), list(game.trick), game.to_move)
    with pytest.raises(IllegalActionError) as info:
        game.apply(card)
    assert info.value.code == code
    assert str(info.value) == message
    assert (game.hands, game.trick, game.to_move) == before  # a refused action changes nothing


def test_the_hakem_leads(game: Game) -> None:
    assert game.phase is Phase.PLAY and game.to_move == game.leader == game.hakem == 0
    assert len(game.legal_cards()) == 13  # any card may lead


def test_follow_suit_and_trumping(game: Game) -> None:
    game.apply("AH")
    refused(game, "7S", "must_follow_suit", "seat 1 must follow hearts")
    refused(game, "AD", "not_in_hand", "seat 1 does not hold AD")
    assert game.legal_cards() == parse_cards("2H 3H 4H 5H 6H 7H")
    assert game.legal_actions() == [Play(c) for c in game.legal_cards()]
    game.apply("7H")
    assert len(game.legal_cards()) == 13  # seat 2 has no hearts: any card
    game.apply("2S")
    game.apply("2C")
    assert game.completed[-1].winner == 2  # the only trump beats the ace led
    assert game.to_move == game.leader == 2
    assert game.tricks == [1, 0] and game.seat_tricks == [0, 0, 1, 0]


def test_a_higher_trump_beats_a_lower_one(game: Game) -> None:
    for card in ("AH", "7H", "2S", "2C"):   # seat 2 wins
        game.apply(card)
    game.apply("AD")
    refused(game, "QC", "must_follow_suit", "seat 3 must follow diamonds")
    for card in ("2D", "8H", "4S"):          # seat 0 throws a heart, seat 1 trumps
        game.apply(card)
    assert game.completed[-1].winner == 1 and game.tricks == [1, 1]
    for card in ("AC", "3S", "3C", "9S"):    # seat 2 trumps, seat 0 overtrumps
        game.apply(card)
    assert game.completed[-1].winner == 0
    for card in ("KH", "6H", "4D", "4C"):    # no trump: highest heart wins
        game.apply(card)
    assert game.completed[-1].winner == 0 and game.tricks == [3, 1]
    assert game.completed[-1].cards == tuple(parse_cards("KH 6H 4D 4C"))
    assert game.completed[-1].seats(4) == (0, 1, 2, 3)


def test_off_suit_never_wins_without_trump(game: Game) -> None:
    game.apply("8H")
    game.apply("2H")
    game.apply("AD")  # aces of other suits do not win
    game.apply("QC")
    assert game.completed[-1].winner == 0


def test_turn_order_and_seat_checks(game: Game) -> None:
    with pytest.raises(IllegalActionError) as info:
        game.apply("8S", seat=1)
    assert info.value.code == "not_your_turn" and str(info.value) == "it is seat 0's turn, not seat 1's"
    game.apply("AS", seat=0)
    assert game.to_move == 1 and game.trick_seats == [0]


@pytest.mark.parametrize("bad", ["keep", {"type": "discard", "cards": ["AS", "KS", "QS"]}])
def test_wrong_phase_actions(game: Game, bad) -> None:
    with pytest.raises(IllegalActionError) as info:
        game.apply(bad)
    assert info.value.code == "wrong_phase"


@pytest.mark.parametrize("bad", ["XX", 3.5, {"type": "fly"}, {"type": "play"}])
def test_malformed_actions(game: Game, bad) -> None:
    with pytest.raises(IllegalActionError) as info:
        game.apply(bad)
    assert info.value.code == "bad_action"


def test_json_and_card_forms_are_the_same_action(game: Game) -> None:
    other = game.copy()
    game.apply({"type": "play", "card": "AS"})
    other.apply(parse_cards("AS")[0])
    assert game.history == other.history


def test_is_legal_and_check(game: Game) -> None:
    assert game.is_legal("AS") and not game.is_legal("8S") and not game.is_legal("nonsense")
    assert game.check("AS") == Play(parse_cards("AS")[0])
