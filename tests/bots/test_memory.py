"""Card memory: what a seat infers from its view must be true of the hidden state."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hokm.bots.memory import Memory, above
from hokm.cards import SUIT_MASKS, Card, Suit, mask_of, parse_cards
from hokm.engine import Game, Phase, Rules
from hokm.players import make_bot

from .positions import position

H = int(Suit.HEARTS)


@pytest.fixture
def after_two_void_tricks() -> Game:
    # Seat 1 holds no heart; seat 2 holds the other hearts plus the top diamonds; seat 3 gets the clubs.
    game = position(
        ["AH KH 5H 6H 7H", "TS JS QS KS AS 2D 3D 4D 5D 6D 7D 8D 9D", "3H"],
        trump="S",
        plays="AH 2D 3H 2C KH 3D",
    )
    assert game.to_move == 2
    return game


def test_failures_to_follow_mark_voids(after_two_void_tricks):
    m = Memory.from_view(after_two_void_tricks.view(2))
    assert m.void_suits(1) == [H]
    assert m.void_suits(3) == [H]
    assert m.void_suits(0) == []
    assert m.is_void(1, H) and not m.is_void(0, H)
    assert not m.may_hold(1, Card.parse("5H")) and m.may_hold(0, Card.parse("5H"))


def test_played_and_unseen_cards(after_two_void_tricks):
    game = after_two_void_tricks
    m = Memory.from_view(game.view(2))
    assert m.played == mask_of(parse_cards("AH 2D 3H 2C KH 3D"))
    others = game.hands[0] | game.hands[1] | game.hands[3]
    assert m.unseen == others
    assert m.outstanding(H) == mask_of(parse_cards("5H 6H 7H"))


def test_masters_follow_the_cards_already_played(after_two_void_tricks):
    m = Memory.from_view(after_two_void_tricks.view(2))
    masters = m.masters()
    for text in ("QH", "JH", "TH", "9H", "8H"):
        assert masters >> Card.parse(text) & 1, text
        assert m.is_master(Card.parse(text))
    assert not masters >> Card.parse("4H") & 1
    assert m.is_master(Card.parse("TD"))  # seat 2 holds every diamond above it; the rest are seat 1's
    assert m.may_ruff(1, H)  # void in hearts and may hold spades, the trump


def test_three_players_leave_out_the_removed_two():
    game = Game.new(Rules(players=3), seed=3)
    game.apply(Suit.SPADES)
    m = Memory.from_view(game.view(game.to_move))
    assert not m.unseen >> Card.parse("2C") & 1
    assert m.unseen.bit_count() == 51 - 17


def test_a_spectator_view_has_no_memory():
    game = Game.new(Rules(players=4), seed=3)
    with pytest.raises(ValueError, match="spectator"):
        Memory.from_view(game.spectator_view())


def test_above():
    assert above(Card.parse("QH")) == mask_of(parse_cards("KH AH"))
    assert above(Card.parse("AS")) == 0


def _check(game: Game) -> None:
    """Every inference of the seat to move agrees with the hidden state."""
    seat = game.to_move
    view = game.view(seat)
    m = Memory.from_view(view)
    n = game.n
    others = 0
    for s in range(n):
        if s != seat:
            others |= game.hands[s]
            for suit in m.void_suits(s):
                assert not game.hands[s] & SUIT_MASKS[suit], f"seat {s} wrongly marked void in {suit}"
    if n == 2:
        others |= game.discards[1 - seat] | mask_of(game.stock[2 * game.draw_turn:])
    assert m.unseen == others
    played = mask_of(c for t in game.completed for c in t.cards) | mask_of(game.trick)
    assert m.played == played
    for c in (Card(i) for i in range(52)):
        if m.masters() >> c & 1:
            assert not others & above(c), f"{c} is not a master"


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_inference_is_true_of_the_hidden_state(players, seed):
    game = Game.new(Rules(players=players, target_points=2), seed=seed)
    rng = random.Random(seed)
    bots = [make_bot(rng.choice(["random", "heuristic"]), seed=seed + s) for s in range(players)]
    while not game.is_over:
        if game.phase is Phase.DEAL:
            game.deal()
            continue
        if game.phase is Phase.PLAY:
            _check(game)
        seat = game.to_move
        game.apply(bots[seat].act(game.view(seat)), seat=seat)


def test_lowest_equivalent_skips_cards_out_of_play(after_two_void_tricks):
    m = Memory.from_view(after_two_void_tricks.view(2))
    # Seat 2 holds QH JH TH 9H 8H 4H 2H; AH and KH are gone; 7H 6H 5H are still out.
    assert m.lowest_equivalent(Card.parse("QH")) == Card.parse("8H")
    assert m.lowest_equivalent(Card.parse("4H")) == Card.parse("2H")  # 3H was played
