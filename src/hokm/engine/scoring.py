"""When a hand ends, who wins it and for how many points (RULES-NOTES "End of a hand").

Pure functions of trick counts, so the rule can be read and tested on its own; the state machine
calls :func:`hand_outcome` after every trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..rules import TRICKS_TO_WIN, Rules


class Outcome(NamedTuple):
    winner: int  # side
    kot: bool
    points: int
    tie: bool = False  # three players: the other two tied for the most tricks, so the third won


def hand_outcome(rules: Rules, tricks: Sequence[int], hakem_side: int, tricks_played: int) -> Outcome | None:
    """The outcome once a hand is decided, else ``None``.

    Four and two players: the first side to seven tricks wins; kot if the other side has none.
    Three players, checked in this order after every trick: seven tricks against none and none
    (kot); a lead no one can catch (``t_p > t_q + tricks_left`` for both others: 7-4-4 and 8-2-2
    win, 7-4-3 plays on); after the last trick, two tied for most and the third wins (7-7-3).
    """
    winner: int | None = None
    kot = tie = False
    if rules.players != 3:
        for side in (0, 1):
            if tricks[side] >= TRICKS_TO_WIN:
                winner, kot = side, tricks[1 - side] == 0
                break
    else:
        left = rules.total_tricks - tricks_played
        for p in range(3):
            if tricks[p] == TRICKS_TO_WIN and all(tricks[q] == 0 for q in range(3) if q != p):
                winner, kot = p, True
                break
        if winner is None:
            for p in range(3):
                if all(tricks[p] > tricks[q] + left for q in range(3) if q != p):
                    winner = p
                    break
        if winner is None and left == 0:
            top = max(tricks)
            tied = [p for p in range(3) if tricks[p] == top]
            if len(tied) == 2:
                winner, tie = next(p for p in range(3) if p not in tied), True
    if winner is None:
        return None
    return Outcome(winner, kot, hand_points(rules, winner, kot, hakem_side), tie)


def hand_points(rules: Rules, side: int, kot: bool, hakem_side: int) -> int:
    """Points for the side that won a hand: 1; for a kot ``rules.kot_points`` when that side
    holds the Hâkem, ``rules.hakem_koti_points`` when it does not."""
    if not kot:
        return 1
    return rules.kot_points if side == hakem_side else rules.hakem_koti_points


def next_hakem(players: int, hakem: int, hakem_side_won: bool) -> int:
    """The Hâkem keeps the role when his side won; otherwise the seat to his right takes it."""
    return hakem if hakem_side_won else (hakem + 1) % players
