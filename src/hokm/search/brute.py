"""Reference minimax for small endings, written over the engine itself.

It plays every line with :meth:`Game.copy` and :meth:`Game.apply`, so the hand ends and is
scored exactly as in a real game; there is no pruning and no move ordering, only a memo of
finished sub-results so that kot endings (seven or more tricks left with two players) fit. The fast
solver in :mod:`hokm.search.dds` is tested against it. Only usable for a few tricks.
"""

from __future__ import annotations

from ..cards import CARDS, Card, Suit
from ..engine.game import Game
from ..engine.phase import Phase
from ..engine.results import TrickRecord
from .position import DDPosition


def game_at(pos: DDPosition) -> Game:
    """A :class:`Game` in the play phase at exactly ``pos`` (scores 0, first hand).

    The engine has no constructor for a mid-hand position, so the play-phase fields are set
    directly; finished tricks are stood in for by records whose cards do not matter (only their
    number and winners are read by the end-of-hand rule).
    """
    rules = pos.rules
    n = rules.players
    g = Game(rules, first_hakem=pos.hakem)
    g.deal(list(reversed(_full_deck(rules))))
    if g.phase is not Phase.TRUMP:  # pragma: no cover - the engine always asks for trump next
        raise AssertionError("expected the trump phase after a deal")
    g.trump = Suit(pos.trump)
    g._pending = None
    g.hands = list(pos.hands)
    g.stock = ()
    g.phase = Phase.PLAY
    g.leader = pos.leader
    g.trick = [CARDS[c] for c in pos.trick]
    g.to_move = pos.to_move
    g.seat_tricks = list(pos.seat_tricks)
    g.tricks = list(pos.side_tricks)
    g.completed = [TrickRecord(w, (), w) for w in range(n) for _ in range(pos.seat_tricks[w])]
    return g


def _full_deck(rules) -> list[Card]:
    from ..cards import full_deck

    return full_deck(rules.removed_cards)


def _key(g: Game) -> tuple:
    return (tuple(g.hands), g.leader, tuple(g.trick), tuple(g.seat_tricks))


def _value(g: Game, max_side: int, maximize_seats: frozenset[int], memo: dict) -> int:
    """Exhaustive minimax; ``memo`` only remembers finished sub-results (no pruning)."""
    if g.results:
        res = g.results[-1]
        return res.points if res.winner == max_side else -res.points
    key = _key(g)
    if key in memo:
        return memo[key]
    mover = g.to_move
    best = None
    for card in g.legal_cards():
        child = g.copy(history=False)
        child.apply(card)
        v = _value(child, max_side, maximize_seats, memo)
        if best is None or (v > best if mover in maximize_seats else v < best):
            best = v
    assert best is not None
    memo[key] = best
    return best


def _team(pos: DDPosition, side: int) -> frozenset[int]:
    return frozenset(s for s in range(pos.rules.players) if pos.rules.side_of(s) == side)


def brute_move_values(pos: DDPosition) -> dict[Card, int]:
    """Like :func:`hokm.search.dds.move_values`, by exhaustive minimax (paranoid with three)."""
    g = game_at(pos)
    side = pos.rules.side_of(pos.to_move)
    team = _team(pos, side)
    out = {}
    memo: dict = {}
    for card in g.legal_cards():
        child = g.copy(history=False)
        child.apply(card)
        out[card] = _value(child, side, team, memo)
    return out


def brute_reaches(pos: DDPosition, side: int, tricks: int) -> bool:
    """Can ``side`` end the hand (by the engine's rule) with at least ``tricks`` tricks?"""
    team = _team(pos, side)
    memo: dict = {}

    def can(g: Game) -> bool:
        if g.tricks[side] >= tricks:
            return True
        if g.results:
            return False
        key = _key(g)
        if key not in memo:
            results = []
            for card in g.legal_cards():
                child = g.copy(history=False)
                child.apply(card)
                results.append(can(child))
            memo[key] = any(results) if g.to_move in team else all(results)
        return memo[key]

    return can(game_at(pos))
