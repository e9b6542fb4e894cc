"""The heuristic bot: the tips it is built from, legality in every phase, and its speed."""

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hokm.arena import play_game
from hokm.bots.heuristic import HeuristicBot, choose_trump, trick_winner
from hokm.cards import Card, Suit, parse_cards
from hokm.engine import Discard, Draw, Game, Phase, Play, Rules
from hokm.engine.tricks import beats
from hokm.players import make_bot

from .positions import position

BOT = HeuristicBot()


def decide(game: Game) -> str:
    action = BOT.act(game.view(game.to_move))
    assert isinstance(action, Play)
    return str(action.card)


# ----------------------------------------------------------------------------- trump
@pytest.mark.parametrize("five, trump", [
    ("AS 2H 3H KD 4H", "H"),   # most cards
    ("AS KS 2H 3H QC", "S"),   # two and two: the higher ranks
    ("2S 3S AH KD QC", "S"),   # two against singletons, however high
    ("5D 4D 3C 2C AH", "D"),   # tie on count, diamonds rank higher
])
def test_trump_by_count_then_rank(five, trump):
    assert choose_trump(parse_cards(five)) == Suit.parse(trump)


def test_trump_is_chosen_from_the_first_five_only():
    game = Game.new(Rules(players=4), seed=12)
    view = game.view(game.hakem)
    assert len(view.hand) == 5
    assert BOT.act(view).suit == choose_trump(view.hand)


# ----------------------------------------------------------------------------- helpers
def test_beats_and_trick_winner():
    s, h = int(Suit.SPADES), int(Suit.HEARTS)
    ah, kh, two_s, three_s, ad = (Card.parse(x) for x in ("AH", "KH", "2S", "3S", "AD"))
    assert beats(ah, kh, s) and not beats(kh, ah, s)
    assert beats(two_s, ah, s) and not beats(ah, two_s, s)
    assert not beats(ad, kh, s)  # off-suit, not trump
    assert beats(three_s, two_s, h)  # same suit, higher
    assert trick_winner(((0, kh), (1, two_s), (2, ah), (3, three_s)), s) == (3, three_s)
    assert trick_winner(((0, kh), (1, two_s), (2, ah), (3, three_s)), None) == (2, ah)


# ----------------------------------------------------------------------------- following
# Hâkem 0 leads; teams are {0, 2} and {1, 3}; trump is spades unless stated.
def test_last_hand_wins_with_the_lowest_card_that_wins():
    game = position(["5D 2S", "7D", "9D", "JD QD AD 2D"], "S", "5D 7D 9D")
    assert decide(game) == "JD"


def test_last_hand_does_not_overtake_a_winning_partner():
    game = position(["5D", "AD", "7D", "JD QD 2D"], "S", "5D AD 7D")
    assert decide(game) == "2D"


def test_rad_kardan_no_trump_on_the_partners_trick():
    # Seat 3 has no diamond but holds trumps; its partner (seat 1) holds the trick with the ace.
    game = position(["5D 2S", "AD", "7D", "3S 4S 2H 2C 3C 4C 5C 6C 7C 8C 9C TC JC"], "S", "5D AD 7D")
    card = decide(game)
    assert Card.parse(card).suit != Suit.SPADES
    assert card == "2H"  # a singleton: throwing it lets seat 3 trump hearts later


def test_boridan_trump_in_when_void():
    # Seat 1 has no diamond; the opponent leads the king: trump with the lowest trump.
    game = position(["KD", "3S 9S AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH"], "S", "KD")
    assert decide(game) == "3S"


def test_overtrump_with_the_lowest_trump_that_wins():
    # Seat 2 (the leader's partner) ruffs the heart lead; seat 3, void too, overtrumps cheaply.
    game = position(["5H", "2H", "9S 2D", "4S TS KS 2C 3C 4C 5C 6C 7C 8C 9C TC JC"], "S", "5H 2H 9S")
    assert decide(game) == "TS"


def test_do_not_undertrump_into_a_losing_ruff():
    # Seat 3 cannot beat the 9 of trumps: it throws a side card rather than waste a small trump.
    game = position(["5H", "2H", "9S 2D", "4S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"], "S", "5H 2H 9S")
    assert decide(game) == "2C"


def test_third_hand_plays_high():
    # Partner led low, the opponent covered; with the ace still out, seat 2 plays the king.
    game = position(["3D", "8D", "KD 4D 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC", "AD"], "S", "3D 8D")
    assert decide(game) == "KD"


def test_second_hand_plays_low_without_a_master():
    game = position(["5C", "KC 2C", "", "AC"], "S", "5C")
    assert decide(game) == "2C"


def test_second_hand_takes_the_trick_with_a_master():
    game = position(["5C", "AC 2C", "", "KC"], "S", "5C")
    assert decide(game) == "AC"


# ----------------------------------------------------------------------------- leading
def test_hokm_lazem_lead_the_top_trump():
    game = position(["AS KS QS 3S 2H"], "S")
    assert decide(game) == "AS"


def test_cash_a_side_master_when_trumps_are_weak():
    game = position(["AH 3S 2D 3D 4D"], "S")
    assert decide(game) == "AH"


def test_lead_the_suit_the_partner_can_ruff():
    # Seat 2 showed a void in hearts (it threw a club on the first trick) and may hold trumps.
    game = position(["AH 2H 7D 8D", "3H", "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2S", "4H"], "S", "AH 3H 2C 4H")
    assert game.to_move == 0
    assert decide(game) == "2H"


# ----------------------------------------------------------------------------- two players
def test_two_player_discards_and_draws_are_legal_and_sensible():
    game = Game.new(Rules(players=2), seed=4)
    seen_draw = False
    while game.phase is not Phase.PLAY:
        view = game.view(game.to_move)
        action = BOT.act(view)
        assert action in view.legal
        if isinstance(action, Discard):
            trump = view.trump
            kept = [c for c in view.hand if c not in action.cards]
            thrown = list(action.cards)
            # Never throw a trump while keeping a low side card.
            assert not any(c.suit == trump for c in thrown) or all(c.suit == trump for c in kept)
        if isinstance(action, Draw):
            seen_draw = True
            if view.draw_card.suit == view.trump and view.draw_card.rank >= 8:
                assert action.keep
        game.apply(action, seat=view.seat)
    assert seen_draw


# ----------------------------------------------------------------------------- legality and speed
@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), mix=st.integers(0, 15))
def test_only_legal_moves_in_every_phase(players, seed, mix):
    """The arena driver checks every action with the engine; a single illegal one is a forfeit."""
    specs = ["heuristic" if mix >> s & 1 else "random" for s in range(players)]
    if "heuristic" not in specs:
        specs[0] = "heuristic"
    bots = [make_bot(spec, seed=seed + s) for s, spec in enumerate(specs)]
    outcome = play_game(Rules(players=players, target_points=3), bots, seed)
    assert outcome.forfeit is None, outcome.forfeit


def test_a_decision_takes_well_under_a_millisecond():
    """The median, not the mean: on a shared machine a few decisions are preempted for milliseconds."""
    game = Game.new(Rules(players=4), seed=2)
    rng = random.Random(2)
    times = []
    while not game.is_over:
        if game.phase is Phase.DEAL:
            game.deal(rng=rng)
            continue
        view = game.view(game.to_move)
        start = time.perf_counter()
        action = BOT.act(view)
        times.append(time.perf_counter() - start)
        game.apply(action, seat=view.seat)
    times.sort()
    assert times[len(times) // 2] < 0.25e-3


def test_throw_keeps_the_guard_of_a_king():
    # Void in diamonds behind the partner's ace: throw a club, not the small heart that guards KH.
    game = position(["5D 2S", "AD", "7D", "3S 4S KH 2H 2C 3C 4C 5C 6C 7C 8C 9C TC"], "S", "5D AD 7D")
    assert decide(game) == "2C"


def test_third_hand_plays_the_cheaper_of_touching_honours():
    game = position(["3D", "8D", "KD QD 4D 2C 3C 4C 5C 6C 7C 8C 9C TC JC", "AD"], "S", "3D 8D")
    assert decide(game) == "QD"


def test_a_view_without_a_decision_is_refused():
    game = position(["AS KS QS 3S 2H"], "S")
    waiting = game.view(1)
    with pytest.raises(ValueError, match="no legal action"):
        BOT.act(waiting)


def test_the_registry_builds_it():
    bot = make_bot("heuristic", seed=3)
    assert isinstance(bot, HeuristicBot) and bot.name == "heuristic"


@pytest.mark.parametrize("players, games, at_least", [(4, 40, 0.9), (3, 30, 0.8), (2, 20, 0.9)])
def test_it_clearly_beats_random(players, games, at_least):
    """A small duplicate match: the full-size figures are in docs/arena.md."""
    from hokm.arena import run_match

    report = run_match("heuristic", "random", players=players, games=games, seed=2024, jobs=1).to_json()
    assert report["a_win_rate"] >= at_least, report["a_win_rate"]
    assert report["forfeits"] == {"a": 0, "b": 0}
