"""A heavier differential check of the two-side solver than the test suite affords (minutes).

    python scripts/check_solver.py [--seed 7]

On random positions of one seed, every position within the trick included:

- 4 and 2 players with 3 to 5 tricks left: ``dds.move_values`` and every ``dds.reaches(side, k)``
  against exhaustive minimax over the engine (:mod:`hokm.search.brute`);
- 4 players with 2 to 13 tricks left: ``dds.reaches(side to move, 7)`` against endplay's bridge
  solver (the ``dev`` extra).

Prints each disagreement with the position, then the count; exits 1 if there was any.
"""

from __future__ import annotations

import argparse
import random
import sys

from hokm.bench.solver import endplay_reaches7
from hokm.rules import Rules
from hokm.search import dds
from hokm.search.brute import brute_move_values, brute_reaches
from hokm.search.position import PositionError, random_position


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bad = checked = 0
    for players in (4, 2):
        rules = Rules(players=players)
        for left in (3, 4, 5):
            for i in range(60 if left < 5 else 25):
                try:
                    pos = random_position(rules, rng, left, in_trick=i % players)
                except PositionError:
                    continue
                checked += 1
                if dds.move_values(pos) != brute_move_values(pos):
                    bad += 1
                    print("move values:", pos.describe())
                for side in range(2):
                    for k in range(pos.side_tricks[side] + 1, 8):
                        if dds.reaches(pos, side, k) != brute_reaches(pos, side, k):
                            bad += 1
                            print(f"reaches side {side} {k}:", pos.describe())
    rules = Rules(players=4)
    for left in range(2, 14):
        for i in range(24 if left < 11 else 12):
            try:
                pos = random_position(rules, rng, left, in_trick=i % 4)
            except PositionError:
                continue
            checked += 1
            if dds.reaches(pos, pos.side_of(pos.to_move), 7) != endplay_reaches7(pos):
                bad += 1
                print("against endplay:", pos.describe())
    print(f"positions {checked}, disagreements {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
