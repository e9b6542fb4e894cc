"""Fit the two-player kept-card model of :mod:`hokm.search.inference` (prints a Python literal).

    python scripts/fit_keep_model.py HANDS SEED          # fit, print the tables
    python scripts/fit_keep_model.py check HANDS SEED    # how well the tables in use place cards

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

``check`` plays other hands the same way and prints how many of the opponent's 13 cards a
sampled hand gets right on average, drawn evenly from the unseen cards and drawn from the odds
(:class:`hokm.search.sampler.OddsFill`): use seeds the fit did not.
"""

from __future__ import annotations

import collections
import random
import sys

from hokm.cards import SUIT_MASKS, cards_in
from hokm.engine import Game, Rules
from hokm.players import make_bot
from hokm.search.inference import kept_odds
from hokm.search.sampler import OddsFill, knowledge, sample_deal

PRIOR = 50


def play_starts(hands: int, seed: int):
    """Two-player hands between heuristic players, each at its first card played."""
    rules = Rules(players=2, target_points=1)
    for i in range(hands):
        game = Game.new(rules, seed=seed + i)
        bots = [make_bot("heuristic", seed=i * 10 + s) for s in range(2)]
        while game.phase.value != "play":
            s = game.to_move
            game.apply(bots[s].act(game.view(s)), s)
        yield game


def check(hands: int, seed: int, draws: int = 20) -> None:
    rng = random.Random(seed)
    even = odds = 0
    for game in play_starts(hands, seed):
        for me in range(2):
            view = game.view(me)
            kn = knowledge(view)
            real = game.hands[1 - me]
            fill = OddsFill(kn, kept_odds(view))
            for _ in range(draws):
                even += (sample_deal(kn, rng)[1 - me] & real).bit_count()
                odds += (fill.sample(rng)[1 - me] & real).bit_count()
    n = hands * 2 * draws
    print(f"{hands} hands from seed {seed}, both seats, {draws} draws each: cards of the opponent's 13 "
          f"placed right, even draws {even / n:.2f}, kept-card odds {odds / n:.2f}")


def main(hands: int, seed: int) -> None:
    seen: dict[tuple[int, ...], list[int]] = collections.defaultdict(lambda: [0, 0])
    for game in play_starts(hands, seed):
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
    if sys.argv[1] == "check":
        check(int(sys.argv[2]), int(sys.argv[3]))
    else:
        main(int(sys.argv[1]), int(sys.argv[2]))
