"""Perfect-information regret of a bot's card play, by cards left in hand (a tuning diagnostic).

    python scripts/regret.py SPEC PLAYERS HANDS SEED

Plays HANDS single hands (target 1 point) with SPEC in the even seats and ``heuristic`` in the
odd ones. At each decision of SPEC with a choice, the double-dummy solver scores every legal
card on the *real* deal; the regret of a card is the best card's value minus its own (hand
points). It prints, per hand size, SPEC's mean regret next to what ``heuristic`` would have
chosen in the same spot, how often they differ, and how many spots were too big to solve.
Double-dummy regret flatters nobody equally (no honest player can reach zero), so only compare
the columns with each other.
"""

from __future__ import annotations

import collections
import sys

from hokm.engine import Game, Rules
from hokm.players import make_bot
from hokm.search import dds
from hokm.search.position import DDPosition


def main(spec: str, players: int, hands: int, seed: int) -> None:
    dds.warm_up()
    rules = Rules(players=players, target_points=1)
    rows: dict[int, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0, 0, 0])
    for i in range(hands):
        game = Game.new(rules, seed=seed + i)
        bots = [make_bot(spec if s % 2 == 0 else "heuristic", seed=i * 10 + s) for s in range(players)]
        rule = make_bot("heuristic", seed=i)
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            action = bots[seat].act(view)
            if game.phase.value == "play" and seat % 2 == 0 and len(view.legal) > 1:
                row = rows[len(view.hand)]
                try:
                    values = dds.move_values(DDPosition.from_game(game), node_limit=300_000)
                except dds.SearchLimitExceeded:
                    row[4] += 1
                else:
                    best = max(values.values())
                    other = rule.act(view).card
                    row[0] += 1
                    row[1] += best - values[other]
                    row[2] += best - values[action.card]
                    row[3] += other != action.card
            game.apply(action)
    print(f"{spec}, {players} players, {hands} hands from seed {seed}")
    print("cards  spots  heuristic  spec   differ  unsolved")
    total_h = total_s = 0.0
    for k in sorted(rows, reverse=True):
        n, rh, rs, d, u = rows[k]
        total_h += rh
        total_s += rs
        print(f"{k:5d}  {n:5d}  {rh / max(n, 1):9.3f}  {rs / max(n, 1):5.3f}  {d / max(n, 1):6.2f}  {u:8d}")
    print(f"total regret (hand points): heuristic {total_h:.1f}, {spec} {total_s:.1f}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
