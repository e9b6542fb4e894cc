"""Two players: discards of 3 then 2, and 21 keep/pass turns that leave 13 cards each."""

from __future__ import annotations

import random

import pytest

from hokm.cards import Suit, cards_in, mask_of
from hokm.engine import KEEP, PASS, Discard, Game, IllegalActionError, Phase, Rules, shuffled_deck


@pytest.fixture(params=[0, 1])
def game(request) -> Game:
    hakem = request.param
    rules = Rules(players=2)
    g = Game(rules, first_hakem=hakem)
    g.deal(shuffled_deck(rules, random.Random(40 + hakem)))
    g.apply(Suit.CLUBS)
    return g


def discard(game: Game, count: int) -> frozenset:
    cards = frozenset(game.hand_of(game.to_move)[:count])
    game.apply(Discard(cards))
    return cards


def test_discards_three_then_two(game: Game) -> None:
    hakem, other = game.hakem, 1 - game.hakem
    assert game.phase is Phase.DISCARD and game.to_move == hakem
    options = game.legal_actions()
    assert len(options) == 10 and all(len(a.cards) == 3 for a in options)  # 5 choose 3
    with pytest.raises(IllegalActionError, match="exactly 3 cards, not 2") as info:
        game.apply(Discard(frozenset(game.hand_of(hakem)[:2])))
    assert info.value.code == "bad_discard"
    with pytest.raises(IllegalActionError, match="own hand") as info:
        game.apply(Discard(frozenset(game.hand_of(other)[:3])))
    assert info.value.code == "bad_discard"
    first = discard(game, 3)
    assert game.to_move == other and game.phase is Phase.DISCARD
    assert all(len(a.cards) == 2 for a in game.legal_actions())
    second = discard(game, 2)
    assert game.discards[hakem] == mask_of(first) and game.discards[other] == mask_of(second)
    assert [h.bit_count() for h in (game.hands[hakem], game.hands[other])] == [2, 3]
    assert game.phase is Phase.DRAW and game.to_move == hakem


def test_discards_are_hidden_from_the_opponent(game: Game) -> None:
    hakem, other = game.hakem, 1 - game.hakem
    first = discard(game, 3)
    assert set(game.view(hakem).discards) == set(first)
    assert game.view(other).discards == ()
    assert game.spectator_view().discards == ()
    assert game.view(other).discarded[hakem] is True  # that he discarded is public, not what
    assert not set(game.view(other).to_json()["hand"]) & {str(c) for c in first}


def test_keep_and_pass(game: Game) -> None:
    hakem, other = game.hakem, 1 - game.hakem
    discard(game, 3)
    discard(game, 2)
    stock = game.stock
    assert game.legal_actions() == [KEEP, PASS]
    top, second = stock[0], stock[1]
    assert game.draw_card == top
    assert game.view(hakem).draw_card == top and game.view(other).draw_card is None
    game.apply("keep")
    assert (game.hands[hakem] >> top) & 1 and (game.discards[hakem] >> second) & 1
    assert game.to_move == other and game.stock_size == 40
    top, second = stock[2], stock[3]
    assert game.view(other).draw_card == top and game.view(hakem).draw_card is None
    game.apply(PASS)
    assert (game.hands[other] >> second) & 1 and (game.discards[other] >> top) & 1
    assert game.view(other).draw_log == ((top, second, False),)
    assert game.view(hakem).draw_log != game.view(other).draw_log


def test_twenty_one_turns_leave_thirteen_each(game: Game) -> None:
    hakem, other = game.hakem, 1 - game.hakem
    discard(game, 3)
    discard(game, 2)
    rng = random.Random(1)
    turns = {hakem: 0, other: 0}
    while game.phase is Phase.DRAW:
        turns[game.to_move] += 1
        game.apply(rng.choice([KEEP, PASS]))
    assert turns == {hakem: 11, other: 10}
    assert [h.bit_count() for h in game.hands] == [13, 13]
    assert (game.discards[hakem].bit_count(), game.discards[other].bit_count()) == (3 + 11, 2 + 10)
    every = game.hands[0] | game.hands[1] | game.discards[0] | game.discards[1]
    assert every == (1 << 52) - 1 and len(cards_in(every)) == 52
    assert game.phase is Phase.PLAY and game.to_move == game.leader == hakem
    assert game.stock_size == 0 and game.draw_card is None


def test_draw_outside_the_draw_phase(game: Game) -> None:
    with pytest.raises(IllegalActionError) as info:
        game.apply("keep")
    assert info.value.code == "wrong_phase"


def test_two_player_hand_ends_at_seven(game: Game) -> None:
    rng = random.Random(2)
    while game.phase is not Phase.DEAL and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    (result,) = game.results
    assert max(result.tricks) == 7 and result.winner == result.tricks.index(7)
    assert result.points == (1 if min(result.tricks) else (2 if result.winner == result.hakem else 3))
