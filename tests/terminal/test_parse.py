"""What a person types at ``hokm play`` becomes the right action, or a message saying what to type."""

from __future__ import annotations

import pytest

from hokm.cards import Card, Suit, parse_cards
from hokm.engine import KEEP, PASS, TRUMPS, Discard, Game, IllegalActionError, Play, Rules
from hokm.terminal.parse import (
    Command,
    InputError,
    explain,
    parse_card_text,
    parse_discard,
    parse_draw,
    parse_play,
    parse_trump,
)

SHOWN = parse_cards("AH 7H 2S")


@pytest.mark.parametrize("text, card", [("AS", "AS"), ("as", "AS"), ("10h", "TH"), (" td ", "TD"),
                                        ("A♠", "AS"), ("q♥", "QH")])
def test_card_names(text: str, card: str) -> None:
    assert parse_card_text(text) == Card.parse(card)


@pytest.mark.parametrize("text", ["", "1S", "AX", "ace", "11H"])
def test_bad_card_names_say_what_to_type(text: str) -> None:
    with pytest.raises(InputError, match="rank then a suit"):
        parse_card_text(text)


def test_play_by_number_or_name() -> None:
    assert parse_play("1", SHOWN) == Play(Card.parse("AH"))
    assert parse_play(" 3 ", SHOWN) == Play(Card.parse("2S"))
    assert parse_play("7h", SHOWN) == Play(Card.parse("7H"))
    assert parse_play("KC", SHOWN) == Play(Card.parse("KC"))  # legality is the engine's call
    with pytest.raises(InputError, match="no card number 4: choose 1 to 3"):
        parse_play("4", SHOWN)
    with pytest.raises(InputError, match="number next to a card"):
        parse_play("  ", SHOWN)


@pytest.mark.parametrize("text, command", [("?", Command.HELP), ("help", Command.HELP), ("q", Command.QUIT),
                                           ("QUIT", Command.QUIT)])
def test_commands_at_every_prompt(text: str, command: Command) -> None:
    assert parse_play(text, SHOWN) is command
    assert parse_trump(text, list(Suit)) is command
    assert parse_discard(text, SHOWN, 2) is command
    assert parse_draw(text) is command


@pytest.mark.parametrize("text, suit", [("1", Suit.SPADES), ("4", Suit.CLUBS), ("h", Suit.HEARTS),
                                        ("D", Suit.DIAMONDS), ("♣", Suit.CLUBS), ("hearts", Suit.HEARTS),
                                        ("spa", Suit.SPADES)])
def test_trump(text: str, suit: Suit) -> None:
    assert parse_trump(text, list(Suit)) == TRUMPS[suit]


@pytest.mark.parametrize("text", ["5", "x", "", "s h"])
def test_bad_trump(text: str) -> None:
    with pytest.raises(InputError):
        parse_trump(text, list(Suit))


def test_discard_by_numbers_or_names() -> None:
    assert parse_discard("1 3", SHOWN, 2) == Discard(frozenset(parse_cards("AH 2S")))
    assert parse_discard("ah, 2s", SHOWN, 2) == Discard(frozenset(parse_cards("AH 2S")))
    with pytest.raises(InputError, match="exactly 2 cards"):
        parse_discard("1", SHOWN, 2)
    with pytest.raises(InputError, match="same card twice"):
        parse_discard("1 AH", SHOWN, 2)


def test_draw() -> None:
    assert parse_draw("k") is KEEP and parse_draw("Keep") is KEEP and parse_draw("1") is KEEP
    assert parse_draw("p") is PASS and parse_draw("pass") is PASS
    with pytest.raises(InputError, match="k to keep"):
        parse_draw("maybe")


def _game_after_lead() -> Game:
    """Seat 0 leads a heart; seat 1 holds hearts (and not every card)."""
    for seed in range(100):
        game = Game.new(Rules(players=4), seed=seed)
        game.apply(TRUMPS[Suit.SPADES])
        lead = game.legal_cards()
        hearts = [c for c in lead if c.suit == Suit.HEARTS]
        if hearts:
            game.apply(hearts[0])
            mine = game.hand_of(game.to_move)
            if any(c.suit == Suit.HEARTS for c in mine) and any(c.suit != Suit.HEARTS for c in mine):
                return game
    raise AssertionError("no suitable deal")


def test_engine_errors_in_the_second_person() -> None:
    game = _game_after_lead()
    seat = game.to_move
    mine = game.hand_of(seat)
    off_suit = next(c for c in mine if c.suit != Suit.HEARTS)
    missing = next(c for c in map(Card, range(52)) if c not in mine and c not in game.trick)
    for card, expected in [(off_suit, "you must follow hearts"), (missing, f"you don't hold {missing}")]:
        with pytest.raises(IllegalActionError) as e:
            game.check(Play(card), seat)
        assert explain(e.value, Play(card)) == expected
