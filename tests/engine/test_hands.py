"""A hand from deal to points, Hâkem rotation and the end of the game, played through the API."""

from __future__ import annotations

import pytest

from hokm.cards import Suit, full_deck, parse_cards
from hokm.engine import Game, IllegalActionError, Phase, Rules

from .helpers import by_suit, deck_for


def play_first_legal(game: Game) -> None:
    """Play the lowest legal card for every seat until the hand is decided."""
    while game.phase is Phase.PLAY:
        game.apply(game.legal_cards()[0])


def one_suit_hand(game: Game, trump: Suit) -> None:
    """Deal each seat a whole suit (seat 0 spades .. seat 3 clubs) and play it out."""
    game.deal(deck_for(game.rules, game.hakem, by_suit(game.rules)))
    game.apply(trump)
    play_first_legal(game)


def test_kot_by_the_hakem_side_scores_two() -> None:
    game = Game(Rules(players=4), first_hakem=0)
    one_suit_hand(game, Suit.SPADES)  # seat 0 holds every trump
    (result,) = game.results
    assert (result.winner, result.tricks, result.kot, result.hakem_koti, result.points) == (0, (7, 0), True, False, 2)
    assert game.scores == [2, 0] and game.hakem == 0 and game.dealer == 3
    assert game.phase is Phase.DEAL and game.to_move is None
    assert len(game.completed) == 7  # the last six cards each are never played
    assert all(h.bit_count() == 6 for h in game.hands)


def test_hakem_koti_scores_three_and_passes_the_role_right() -> None:
    game = Game(Rules(players=4), first_hakem=0)
    one_suit_hand(game, Suit.HEARTS)  # seat 1 holds every trump
    (result,) = game.results
    assert (result.winner, result.kot, result.hakem_koti, result.points) == (1, True, True, 3)
    assert game.scores == [0, 3]
    assert game.hakem == 1 and game.dealer == 0  # hakem + 1 takes over, the old Hâkem deals


def test_a_plain_win_scores_one_and_stops_at_seven() -> None:
    hands = [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2S",
        " ".join(str(c) for c in full_deck() if c // 13 == 2),
        " ".join(str(c) for c in full_deck() if c // 13 == 3),
    ]
    rules = Rules(players=4)
    game = Game(rules, first_hakem=0)
    game.deal(deck_for(rules, 0, [h.split() for h in hands]))
    game.apply(Suit.SPADES)
    for card in ("2H", "AH", "AD", "AC"):          # team 1 takes one trick
        game.apply(card)
    for card in ("KH", "KD", "KC", "AS"):          # seat 0 trumps the king of hearts
        game.apply(card)
    play_first_legal(game)
    (result,) = game.results
    assert (result.winner, result.tricks, result.kot, result.points) == (0, (7, 1), False, 1)
    assert len(game.completed) == 8 and game.hakem == 0


def test_rotation_and_game_end_with_overshoot() -> None:
    game = Game(Rules(players=4, target_points=7), first_hakem=0)
    one_suit_hand(game, Suit.HEARTS)   # Hâkem-koti for team 1: 0-3, seat 1 becomes Hâkem
    assert (game.scores, game.hakem) == ([0, 3], 1)
    one_suit_hand(game, Suit.HEARTS)   # seat 1 is Hâkem and holds the trumps: kot, 0-5, keeps the role
    assert (game.scores, game.hakem) == ([0, 5], 1)
    one_suit_hand(game, Suit.SPADES)   # seat 0 holds the trumps: Hâkem-koti for team 0, 3-5
    assert (game.scores, game.hakem) == ([3, 5], 2)
    assert not game.is_over
    one_suit_hand(game, Suit.HEARTS)   # Hâkem 2 names seat 1's suit: Hâkem-koti, 3-8 overshoots 7
    assert game.scores == [3, 8] and game.is_over and game.phase is Phase.OVER
    assert game.winner == 1 and game.to_move is None and game.legal_actions() == []
    assert [r.hakem for r in game.results] == [0, 1, 1, 2]
    assert game.current_result() == game.results[-1]
    with pytest.raises(IllegalActionError) as info:
        game.deal()
    assert info.value.code == "game_over"
    with pytest.raises(IllegalActionError) as info:
        game.apply("AS")
    assert info.value.code == "game_over"


def test_play_after_the_hand_is_decided() -> None:
    game = Game(Rules(players=4), first_hakem=0)
    one_suit_hand(game, Suit.SPADES)
    with pytest.raises(IllegalActionError) as info:
        game.apply(game.hand_of(1)[0])
    assert info.value.code == "hand_over"


def three_player_hands() -> list[list[str]]:
    cards = [str(c) for c in full_deck(parse_cards(["2C"]))]
    spades = [c for c in cards if c.endswith("S")]
    hearts = [c for c in cards if c.endswith("H")]
    diamonds = [c for c in cards if c.endswith("D")]
    clubs = [c for c in cards if c.endswith("C")]
    return [spades + diamonds[:4], hearts + diamonds[4:8], diamonds[8:] + clubs]


@pytest.mark.parametrize("trump, winner, points, next_hakem", [
    (Suit.SPADES, 0, 2, 0),   # the Hâkem takes the first seven: kot
    (Suit.HEARTS, 1, 3, 1),   # seat 1 takes the first seven against the Hâkem: Hâkem-koti
])
def test_three_player_kot(trump: Suit, winner: int, points: int, next_hakem: int) -> None:
    rules = Rules(players=3)
    game = Game(rules, first_hakem=0)
    game.deal(deck_for(rules, 0, three_player_hands()))
    game.apply(trump)
    play_first_legal(game)
    (result,) = game.results
    assert (result.winner, result.points, result.kot) == (winner, points, True)
    assert result.tricks == tuple(7 if s == winner else 0 for s in range(3))
    assert len(game.completed) == 7 and game.hakem == next_hakem


def test_three_player_next_hakem_whoever_won() -> None:
    """Seat 2 takes the hand from Hâkem 1: the role still passes to seat 2 = Hâkem + 1."""
    rules = Rules(players=3)
    hands = three_player_hands()
    game = Game(rules, first_hakem=1)
    game.deal(deck_for(rules, 1, [hands[1], hands[2], hands[0]]))  # seat 2 gets the spades
    game.apply(Suit.SPADES)
    play_first_legal(game)
    assert game.results[0].winner == 2 and game.hakem == 2
    rules = Rules(players=3)
    game = Game(rules, first_hakem=1)
    game.deal(deck_for(rules, 1, [hands[2], hands[1], hands[0]]))  # seat 0 gets the clubs
    game.apply(Suit.CLUBS)
    play_first_legal(game)
    assert game.results[0].winner == 0 and game.hakem == 2
