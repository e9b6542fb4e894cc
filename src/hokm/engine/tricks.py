"""The rules of card play on card indices and 52-bit masks: following suit and who takes a trick.

Each rule is written here once (RULES-NOTES "Play"). The engine's state machine plays by these
functions, and so do the bots, the solver's positions and the simulations. The compiled search
kernels use the twins in :mod:`hokm.search._rules_kernel`; ``tests/search/test_rules_kernel.py``
pins the two together over every input of the rule (exhaustively where the domain allows).

A card is its index ``suit * 13 + rank``; a suit is 0..3 (``SHDC``); a hand is a 52-bit mask.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import SUIT_MASKS

_BIT = tuple(1 << c for c in range(52))
_SUIT_MASK_OF = tuple(SUIT_MASKS[c // 13] for c in range(52))


def legal_mask(hand: int, led: int | None) -> int:
    """The cards of ``hand`` that may be played to a trick led with suit ``led``.

    Follow suit if you can, otherwise play any card; the leader (``led`` is ``None``) plays any card.
    """
    if led is None:
        return hand
    return hand & SUIT_MASKS[led] or hand


def beats(card: int, best: int, trump: int | None) -> bool:
    """Whether ``card``, played to a trick, takes it from ``best``, the card now winning it.

    A higher card of the same suit does; a trump does over any other suit. ``best`` is always of
    the suit led or a trump, so a card of a third suit never wins.
    """
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def winning_index(cards: Sequence[int], trump: int | None) -> int:
    """Position in ``cards`` (a trick so far, in play order) of the card taking it: the highest
    trump, else the highest card of the suit led."""
    bit = _BIT
    if len(cards) == 4:  # the common trick, without a loop: this runs once per trick of every playout
        a, b, c, d = cards
        mask = bit[a] | bit[b] | bit[c] | bit[d]
    elif len(cards) == 3:
        a, b, c = cards
        mask = bit[a] | bit[b] | bit[c]
    else:
        mask = 0
        for c in cards:
            mask |= bit[c]
    best = (trump is not None and mask & SUIT_MASKS[trump]) or mask & _SUIT_MASK_OF[cards[0]]
    return cards.index(best.bit_length() - 1)


def trick_winner(cards: Sequence[int], leader: int, trump: int | None, players: int) -> int:
    """The seat taking a trick led by ``leader`` (``cards`` in play order from the leader)."""
    return (leader + winning_index(cards, trump)) % players
