"""Fit the two-player kept-card model of :mod:`hokm.search.inference` (prints a Python literal).

    python scripts/fit_keep_model.py HANDS SEED

With two players every card ends up either in a hand or among its owner's discards, and after
the draw the cards a seat has not seen are exactly the opponent's hand and the opponent's
discards, half and half. Which half a card lies in is far from even: players keep trumps and
high cards. This plays HANDS two-player hands between ``heuristic`` bots (a model of a sensible
player, as in :mod:`hokm.search.play_model`) and counts, at the start of play and from each
seat's view, how often an unseen card is in the opponent's hand, by:

- whether the opponent is the Hâkem (he chose the trump and kept the best of his first five),
- trump or side suit, and the card's rank,
- for side cards, how many higher cards of the suit the viewer has seen (0..3+). The opponent
  has seen every card the viewer has not, so these are the higher cards *he* has not seen: the
  fewer, the more his card looked like a winner to him.

Rare cells are shrunk toward the share for the same rank over all counts (``PRIOR`` pseudo-hands).
"""

from __future__ import annotations

import collections
import sys

from hokm.bots.base import make_bot
from hokm.cards import SUIT_MASKS, cards_in
from hokm.engine import Game, Rules
from hokm.search.sampler import knowledge

PRIOR = 50


def main(hands: int, seed: int) -> None:
    rules = Rules(players=2, target_points=1)
    seen: dict[tuple[int, ...], list[int]] = collections.defaultdict(lambda: [0, 0])
    for i in range(hands):
        game = Game.new(rules, seed=seed + i)
        bots = [make_bot("heuristic", seed=i * 10 + s) for s in range(2)]
        while game.phase.value != "play":
            s = game.to_move
            game.apply(bots[s].act(game.view(s)), s)
        for me in range(2):
            kn = knowledge(game.view(me))
            opp_hand = game.hands[1 - me]
            role = int(game.hakem == 1 - me)
            for c in cards_in(kn.unknown):
                suit, rank = divmod(c, 13)
                above = SUIT_MASKS[suit] & ~((2 << c) - 1)
                higher = min(3, (above & ~kn.unknown).bit_count())
                for key in ((role, int(suit == game.trump), rank, higher),
                            (role, int(suit == game.trump), rank, -1)):
                    seen[key][0] += 1
                    seen[key][1] += (opp_hand >> c) & 1

    def share(key: tuple[int, ...]) -> float:
        n, k = seen[key]
        base_n, base_k = seen[key[:3] + (-1,)]
        prior = base_k / base_n
        return round((k + PRIOR * prior) / (n + PRIOR), 3)

    trump = tuple(tuple(share((role, 1, r, -1)) for r in range(13)) for role in (0, 1))
    side = tuple(tuple(tuple(share((role, 0, r, h)) for r in range(13)) for h in range(4)) for role in (0, 1))
    print(f"# fitted on {hands} hands from seed {seed}")
    print("KEPT_TRUMP = (")
    for row in trump:
        print(f"    {row},")
    print(")")
    print("KEPT_SIDE = (")
    for rows in side:
        print("    (")
        for row in rows:
            print(f"        {row},")
        print("    ),")
    print(")")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
