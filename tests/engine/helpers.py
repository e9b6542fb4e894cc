"""Builders for engine tests: decks that deal chosen hands, and seeded random play."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hokm.cards import Card, full_deck, parse_cards
from hokm.engine import Game, Phase, Rules


def deck_for(rules: Rules, hakem: int, hands: Sequence[Sequence[Card | str]]) -> list[Card]:
    """The deck (top first) whose deal gives seat ``s`` exactly ``hands[s]``, in order.

    Written from RULES-NOTES independently of the engine's own layout code, so tests of the
    deal compare two readings of the rule: packets of 5, 4, 4 (and 4 more with three players),
    from the Hâkem in turn order, the dealer last. Two players: ``hands`` is the Hâkem's first
    five, the other player's five, then the 42-card stock as a third list.
    """
    parsed = [parse_cards(list(h)) for h in hands]
    n = rules.players
    if n == 2:
        deck = parsed[hakem][:5] + parsed[1 - hakem][:5] + parsed[2]
    else:
        taken = [0] * n
        deck = []
        for size in rules.packets:
            for k in range(n):
                seat = (hakem + k) % n
                deck += parsed[seat][taken[seat]:taken[seat] + size]
                taken[seat] += size
    assert sorted(deck) == full_deck(rules.removed_cards), "hands must use every card exactly once"
    return deck


def by_suit(rules: Rules) -> list[list[Card]]:
    """Hands where seat ``s`` holds one whole suit (4 players): spades, hearts, diamonds, clubs."""
    cards = full_deck(rules.removed_cards)
    return [[c for c in cards if c // 13 == s][::-1] for s in range(4)]


def random_step(game: Game, rng: random.Random) -> None:
    if game.phase is Phase.DEAL:
        game.deal(rng=rng)
    else:
        game.apply(rng.choice(game.legal_actions()))


def play_out(game: Game, rng: random.Random, max_steps: int = 100_000) -> Game:
    steps = 0
    while not game.is_over and steps < max_steps:
        random_step(game, rng)
        steps += 1
    return game
