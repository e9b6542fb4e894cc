"""Turning what a person types into engine actions, with messages written for that person.

Every parser takes the text and the seat's :class:`~hokm.engine.SeatView` (plus the numbering the
screen showed) and returns an action, a :class:`Command`, or raises :class:`InputError` whose
message says what to type instead. Legality itself is always decided by the engine
(``game.check``); :func:`explain` only rewords its errors in the second person.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum

from ..cards import Card, Suit
from ..engine import KEEP, PASS, TRUMPS, Action, Discard, IllegalActionError, Play

SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


class Command(Enum):
    """Answers that are not moves."""

    HELP = "help"
    QUIT = "quit"


class InputError(ValueError):
    """The text is not a usable answer; the message tells the person what to type."""


def command_of(text: str) -> Command | None:
    t = text.strip().lower()
    if t in ("?", "help"):
        return Command.HELP
    if t in ("q", "quit", "exit"):
        return Command.QUIT
    return None


def parse_card_text(text: str) -> Card:
    """``AS``, ``as``, ``10h``, ``A♠``; raise :class:`InputError` with an example otherwise."""
    t = text.strip()
    for sym, letter in _SYMBOLS.items():
        t = t.replace(sym, letter)
    try:
        return Card.parse(t)
    except ValueError:
        raise InputError(f"{text.strip()!r} is not a card: type a rank then a suit, like AS, 10h or QD, "
                         "or the number shown next to a card") from None


def _number(text: str, count: int, what: str) -> int | None:
    """The 0-based index for a 1-based number in ``text``, ``None`` when it is not a number."""
    t = text.strip()
    if not t.isdigit():
        return None
    k = int(t)
    if not 1 <= k <= count:
        raise InputError(f"there is no {what} number {k}: choose 1 to {count}")
    return k - 1


def parse_play(text: str, numbered: Sequence[Card]) -> Action | Command:
    """A card prompt: a number from ``numbered`` (the legal cards as shown) or a card's name."""
    cmd = command_of(text)
    if cmd is not None:
        return cmd
    if not text.strip():
        raise InputError("type the number next to a card, or a card like AS (? for help)")
    i = _number(text, len(numbered), "card")
    if i is not None:
        return Play(numbered[i])
    return Play(parse_card_text(text))


def parse_trump(text: str, order: Sequence[Suit]) -> Action | Command:
    """A trump prompt: a number from ``order`` (as shown), a suit letter, symbol or name."""
    cmd = command_of(text)
    if cmd is not None:
        return cmd
    i = _number(text, len(order), "suit")
    if i is not None:
        return TRUMPS[order[i]]
    t = text.strip().lower()
    for s in Suit:
        if t and (t in (s.char.lower(), s.symbol) or SUIT_WORDS[s].startswith(t) and len(t) >= 2):
            return TRUMPS[s]
    raise InputError(f"{text.strip()!r} is not a suit: type 1 to {len(order)}, or S, H, D or C")


def parse_discard(text: str, shown: Sequence[Card], count: int) -> Action | Command:
    """A discard prompt: ``count`` cards by number (``1 4 5``) or by name (``2c 7d 9h``)."""
    cmd = command_of(text)
    if cmd is not None:
        return cmd
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if len(tokens) != count:
        raise InputError(f"discard exactly {count} cards: type their numbers, like "
                         + " ".join(str(k) for k in range(1, count + 1)) + ", or their names")
    cards: list[Card] = []
    for tok in tokens:
        i = _number(tok, len(shown), "card")
        cards.append(shown[i] if i is not None else parse_card_text(tok))
    if len(set(cards)) != len(cards):
        raise InputError("you named the same card twice")
    return Discard(frozenset(cards))


def parse_draw(text: str) -> Action | Command:
    """A draw prompt: keep (``k``, ``1``) or pass (``p``, ``2``)."""
    t = text.strip().lower()
    if t in ("k", "keep", "1", "y", "yes"):
        return KEEP
    if t in ("p", "pass", "2", "n", "no"):
        return PASS
    cmd = command_of(t)
    if cmd is not None:
        return cmd
    raise InputError("type k to keep the card or p to pass it")


def explain(error: IllegalActionError, action: Action) -> str:
    """The engine's reason, said to the person at the keyboard (from the error's code and fields)."""
    code = error.code
    if code == "not_in_hand" and error.card is not None:
        return f"you don't hold {error.card}"
    if code == "must_follow_suit":
        return f"you must follow {SUIT_WORDS[error.suit] if error.suit is not None else 'the suit led'}"
    if code == "bad_discard":
        if error.count is not None:
            return f"you must discard exactly {error.count} cards"
        return "you can only discard cards from your own hand"
    if code == "wrong_phase":
        return "it is not time to play a card" if isinstance(action, Play) else "that answer does not fit this step"
    return _REASONS.get(code, "that move is not allowed now")


#: What each remaining code means, in the second person.
_REASONS = {
    "not_your_turn": "it is not your turn",
    "hand_over": "the hand is over; wait for the next deal",
    "game_over": "the game is over",
    "bad_action": "that is not a move",
}
