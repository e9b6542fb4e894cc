"""Random small endings with hand-picked trick counts, so kot and the 3-player rules come up often."""

from __future__ import annotations

import random

from hokm.rules import Rules
from hokm.search.position import DDPosition, PositionError


def random_ending(rules: Rules, rng: random.Random, left: int) -> DDPosition:
    """An undecided position with ``left`` tricks to play, random cards and random counts.

    Trick counts are drawn to favour zeros (kot chances) and close races (3-player ties).
    """
    n = rules.players
    removed = {int(c) for c in rules.removed_cards}
    deck = [c for c in range(52) if c not in removed]
    for _ in range(1000):
        rng.shuffle(deck)
        played = rules.total_tricks - left
        st = [0] * n
        style = rng.random()
        if style < 0.3:
            st[rng.randrange(n)] = played          # one seat (or side) took everything so far
        else:
            for _ in range(played):
                st[rng.randrange(n)] += 1
        leader = rng.randrange(n)
        in_trick = rng.randrange(n)
        hands = [0] * n
        k = 0
        for j in range(n):
            seat = (leader + j) % n
            size = left - 1 if j < in_trick else left
            for c in deck[k:k + size]:
                hands[seat] |= 1 << c
            k += size
        trick = []
        # cards on the trick must be legal: follow the led suit when the seat still holds it
        ok = True
        for _ in range(in_trick):
            card = deck[k]
            k += 1
            trick.append(card)
        if trick:
            led = trick[0] // 13
            for j in range(1, in_trick):
                seat = (leader + j) % n
                if trick[j] // 13 != led and any((hands[seat] >> (led * 13 + r)) & 1 for r in range(13)):
                    ok = False
        if not ok:
            continue
        try:
            pos = DDPosition(rules, rng.randrange(4), tuple(hands), leader, tuple(trick), tuple(st), rng.randrange(n))
        except PositionError:
            continue
        if pos.outcome() is None:
            return pos
    raise AssertionError("could not draw an undecided ending")
