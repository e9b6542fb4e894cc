"""Drive the engine's play path for an instruction count under callgrind (docs/performance.md).

    python scripts/engine_instructions.py PLAYERS HANDS setup|play WARM

plays ``WARM`` random hands (filling the engine's tables of legal moves per suit holding, as a
long benchmark run has them), then sets up ``HANDS`` more hands to their first card and, with
``play``, plays them out too, as ``hokm bench engine`` does (``hokm_round`` in
``src/hokm/bench/engine.py``). The difference of a ``play`` run's and a ``setup`` run's totals,
divided by the card plays printed, is the cost of one card play. The seeds are fixed, so two
trees play the same cards.
"""

from __future__ import annotations

import random
import sys

from hokm.engine import Game
from hokm.rules import Rules

try:
    from hokm.engine.phase import Phase
except ImportError:  # trees from before Phase had a module of its own
    from hokm.engine.game import Phase  # type: ignore[attr-defined,no-redef]


def random_step(game: Game, rng: random.Random) -> None:
    actions = game.legal_actions()
    game.apply(actions[int(rng.random() * len(actions))])


def hand(rules: Rules, rng: random.Random, play: bool) -> int:
    game = Game(rules, first_hakem=rng.randrange(rules.players))
    game.deal(rng=rng)
    while game.phase is not Phase.PLAY:  # trump, and with two players the discards and draws
        random_step(game, rng)
    plays = 0
    while play and game.phase is Phase.PLAY:
        random_step(game, rng)
        plays += 1
    return plays


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[2] not in ("setup", "play"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    players, hands, mode, warm = int(argv[0]), int(argv[1]), argv[2], int(argv[3])
    rules = Rules(players=players)
    rng = random.Random(1)
    for _ in range(warm):
        hand(rules, rng, play=True)
    rng = random.Random(2)
    plays = sum(hand(rules, rng, play=mode == "play") for _ in range(hands))
    print(f"{players} players, {hands} hands after {warm} warm-up hands, {mode}: {plays} card plays")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
