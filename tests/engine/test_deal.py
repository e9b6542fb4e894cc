"""Dealing: packets, who holds what before and after trump, the dealer, bad decks."""

from __future__ import annotations

import random

import pytest

from hokm.cards import Card, Suit, cards_in, full_deck, mask_of
from hokm.engine import DealError, Game, IllegalActionError, Phase, Rules, deal_layout, shuffled_deck

from .helpers import deck_for


def counts(game: Game) -> list[int]:
    return [h.bit_count() for h in game.hands]


@pytest.mark.parametrize("hakem", range(4))
def test_four_players_only_the_hakem_holds_five_before_trump(hakem: int) -> None:
    rules = Rules(players=4)
    deck = shuffled_deck(rules, random.Random(hakem))
    game = Game(rules, first_hakem=hakem)
    game.deal(deck)
    assert game.phase is Phase.TRUMP and game.to_move == hakem
    assert counts(game) == [5 if s == hakem else 0 for s in range(4)]
    assert game.hand_of(hakem) == sorted(deck[:5])  # the top five cards
    game.apply(Suit.HEARTS)
    assert counts(game) == [13] * 4
    assert game.phase is Phase.PLAY and game.to_move == game.leader == hakem
    assert game.hand_of(hakem) == sorted(deck[:5] + deck[20:24] + deck[36:40])
    # the dealer (hakem - 1) is served last in every round of packets
    dealer = (hakem - 1) % 4
    assert game.dealer == dealer
    assert game.hand_of(dealer) == sorted(deck[15:20] + deck[32:36] + deck[48:52])


@pytest.mark.parametrize("hakem", range(3))
def test_three_players_everyone_holds_five_before_trump(hakem: int) -> None:
    rules = Rules(players=3)
    deck = shuffled_deck(rules, random.Random(hakem))
    assert len(deck) == 51 and Card.parse("2C") not in deck
    game = Game(rules, first_hakem=hakem)
    game.deal(deck)
    assert counts(game) == [5, 5, 5]
    assert game.hand_of(hakem) == sorted(deck[:5])
    game.apply(Suit.CLUBS)
    assert counts(game) == [17, 17, 17]
    dealer = (hakem - 1) % 3
    assert game.dealer == dealer
    assert game.hand_of(dealer) == sorted(deck[10:15] + deck[23:27] + deck[35:39] + deck[47:51])


@pytest.mark.parametrize("hakem", range(2))
def test_two_players_five_each_and_a_stock_of_42(hakem: int) -> None:
    rules = Rules(players=2)
    deck = shuffled_deck(rules, random.Random(hakem))
    game = Game(rules, first_hakem=hakem)
    game.deal(deck)
    assert game.dealer == 1 - hakem
    assert game.hand_of(hakem) == sorted(deck[:5])
    assert game.hand_of(1 - hakem) == sorted(deck[5:10])
    assert game.stock == tuple(deck[10:]) and game.stock_size == 42
    game.apply(Suit.SPADES)
    assert game.phase is Phase.DISCARD and counts(game)[hakem] == 5


@pytest.mark.parametrize("players, hakem", [(4, 0), (4, 3), (3, 1), (3, 2)])
def test_layout_agrees_with_an_independent_reading(players: int, hakem: int) -> None:
    rules = Rules(players=players)
    cards = full_deck(rules.removed_cards)
    random.Random(players * 10 + hakem).shuffle(cards)
    size = rules.hand_size
    hands = [cards[s * size:(s + 1) * size] for s in range(players)]
    deck = deck_for(rules, hakem, hands)
    before, full = deal_layout(rules, hakem, deck)
    assert [sorted(h) for h in full] == [sorted(h) for h in hands]
    assert [len(b) for b in before] == [5 if players == 3 or s == hakem else 0 for s in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_card_dealt_once(players: int) -> None:
    game = Game.new(Rules(players=players), seed=players)
    if players == 2:
        game.apply(Suit.HEARTS)
        held = game.hands[0] | game.hands[1]
        stock = mask_of(game.stock)
        assert held & stock == 0 and (held | stock).bit_count() == 52
    else:
        game.apply(Suit.HEARTS)
        assert sum(counts(game)) == game.rules.deck_size
        assert mask_of(full_deck(game.rules.removed_cards)) == sum(game.hands)


def test_bad_decks_are_refused_with_reasons() -> None:
    rules = Rules(players=3)
    game = Game(rules, first_hakem=0)
    deck = full_deck(rules.removed_cards)
    with pytest.raises(DealError, match="51 distinct cards; got 50.*missing") as info:
        game.deal(deck[:-1])
    assert info.value.code == "bad_deck"
    with pytest.raises(DealError, match="not in this deck 2C"):
        game.deal(deck[:-1] + [Card.parse("2C")])
    with pytest.raises(DealError, match="repeated AS"):
        game.deal(deck[:-1] + [Card.parse("AS")])
    with pytest.raises(DealError) as info:
        game.deal(deck[:-1] + ["ZZ"])
    assert info.value.code == "bad_card"
    assert game.phase is Phase.DEAL and game.history == []  # nothing changed
    game.deal([str(c) for c in deck])  # strings are fine
    assert game.phase is Phase.TRUMP


def test_deal_only_in_the_deal_step() -> None:
    game = Game.new(Rules(), seed=1)
    with pytest.raises(IllegalActionError) as info:
        game.deal()
    assert info.value.code == "wrong_phase"


def test_actions_in_the_deal_step_are_refused() -> None:
    game = Game(Rules(), first_hakem=2)
    assert game.to_move is None and game.legal_actions() == []
    with pytest.raises(IllegalActionError) as info:
        game.apply(Suit.SPADES)
    assert info.value.code == "hand_over"


def test_trump_is_any_suit_and_only_once() -> None:
    game = Game.new(Rules(), seed=3)
    assert [a.suit for a in game.legal_actions()] == list(Suit)
    hakem = game.hakem
    with pytest.raises(IllegalActionError) as info:
        game.apply(Suit.SPADES, seat=(hakem + 1) % 4)
    assert info.value.code == "not_your_turn" and f"seat {hakem}'s turn" in str(info.value)
    game.apply(Suit.DIAMONDS, seat=hakem)
    assert game.trump is Suit.DIAMONDS
    with pytest.raises(IllegalActionError) as info:
        game.apply(Suit.SPADES)
    assert info.value.code == "wrong_phase"


def test_cards_in_a_fresh_hand_are_the_deck() -> None:
    rules = Rules(players=4)
    deck = shuffled_deck(rules, random.Random(9))
    game = Game(rules, first_hakem=1)
    game.deal(deck)
    game.apply(Suit.SPADES)
    assert sorted(c for s in range(4) for c in game.hand_of(s)) == sorted(deck)
    assert cards_in(game.hands[1]) == game.hand_of(1)
