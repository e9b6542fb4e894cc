"""Build a game at a chosen moment: chosen hands, trump, and the cards played so far.

Hands are dealt through the engine (the deck is laid out with ``deal_layout`` run over deck
positions), so a position reached here is one the real rules can reach.
"""

from __future__ import annotations

from collections.abc import Sequence

from hokm.cards import Card, Suit, full_deck, parse_cards
from hokm.engine import Game, Rules, deal_layout


def deal_hands(rules: Rules, hakem: int, hands: Sequence[str | Sequence[str]]) -> Game:
    """A game (3 or 4 players) whose first hand deals ``hands[s]`` to seat ``s``.

    Each hand may list fewer cards than a full hand: the remaining cards of the deck are given
    out in index order (spades two first) to the seats that still lack cards, seat 0 first.
    """
    n = rules.players
    parsed = [parse_cards(h) for h in hands] + [[] for _ in range(n - len(hands))]
    used = {c for h in parsed for c in h}
    assert len(used) == sum(len(h) for h in parsed), "a card is given twice"
    rest = [c for c in full_deck(rules.removed_cards) if c not in used]
    for seat in range(n):
        while len(parsed[seat]) < rules.hand_size:
            parsed[seat].append(rest.pop(0))
    _, positions = deal_layout(rules, hakem, list(range(rules.deck_size)))
    deck: list[Card | None] = [None] * rules.deck_size
    for seat in range(n):
        for pos, card in zip(positions[seat], parsed[seat]):
            deck[pos] = card
    game = Game(rules, first_hakem=hakem)
    game.deal(deck)
    return game


def position(hands: Sequence[str], trump: str, plays: str = "", *, players: int = 4, hakem: int = 0) -> Game:
    """Deal ``hands``, name ``trump`` and play ``plays`` (cards in play order) from the Hâkem's lead."""
    game = deal_hands(Rules(players=players), hakem, hands)
    game.apply(Suit.parse(trump))
    for card in plays.split():
        game.apply(card)
    return game
