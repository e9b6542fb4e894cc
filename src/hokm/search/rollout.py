"""Open-hand positions and a fast rollout evaluator for them.

The search bot scores moves on sampled deals where every hand is known (a *position*). The
exact scorer is the double-dummy solver (:mod:`hokm.search.dds`); this module holds the
position type the bot builds and a cheap stand-in scorer: play the hand out with a simple
card-play policy for every seat. Rollouts are far weaker than perfect play but cost well under
a millisecond, which makes them useful where many whole hands must be scored (trump choice,
two-player discards and draws) and as a fallback when the solver is not installed.

Values are *signed points* for one side: ``+p`` when that side wins the hand for ``p`` points,
``-p`` when another side does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import CARDS, SUIT_MASKS, Card
from ..engine.scoring import hand_outcome
from ..engine.tricks import legal_mask, trick_winner, winning_index
from ..rules import Rules, side_of

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.view import SeatView


@dataclass
class Position:
    """An open-hand position: all hands known, the trick in progress, tricks taken so far."""

    rules: Rules
    trump: int
    hands: list[int]
    leader: int
    trick: list[int]  # cards of the open trick, from the leader (Cards, or their indices)
    seat_tricks: list[int]
    hakem: int

    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def side(self, seat: int) -> int:
        return side_of(seat, self.n)

    def side_tricks(self) -> list[int]:
        t = [0] * self.rules.sides
        for s, k in enumerate(self.seat_tricks):
            t[self.side(s)] += k
        return t

    def legal(self) -> list[Card]:
        return _cards(legal_mask(self.hands[self.to_move], self.trick[0] // 13 if self.trick else None))


def _cards(m: int) -> list[Card]:
    out = []
    while m:
        low = m & -m
        out.append(CARDS[low.bit_length() - 1])
        m ^= low
    return out


def _lowest(m: int) -> int:
    return (m & -m).bit_length() - 1


def _highest(m: int) -> int:
    return m.bit_length() - 1


def policy_card(n: int, trump: int, hands: list[int], leader: int, trick: list[int]) -> int:
    """A quick, reasonable card for the seat to move: win cheaply, else play low."""
    seat = (leader + len(trick)) % n
    hand = hands[seat]
    tmask = SUIT_MASKS[trump]
    if not trick:
        alive = 0
        for h in hands:
            alive |= h
        # Lead a winner outside trump if there is one, else the lowest side-suit card.
        for s in range(4):
            if s == trump:
                continue
            mine = hand & SUIT_MASKS[s]
            if mine and _highest(mine) == _highest(alive & SUIT_MASKS[s]):
                return _highest(mine)
        side = hand & ~tmask
        if side:
            return _lowest(side)
        if _highest(hand) == _highest(alive & tmask):
            return _highest(hand)
        return _lowest(hand)
    led = trick[0] // 13
    w = winning_index(trick, trump)
    wcard = trick[w]
    wseat = (leader + w) % n
    friend = side_of(wseat, n) == side_of(seat, n)
    last = len(trick) == n - 1
    follow = legal_mask(hand, led) & SUIT_MASKS[led]
    if follow:
        if friend or (wcard // 13 == trump and led != trump):
            return _lowest(follow)
        above = follow & ~((1 << (wcard + 1)) - 1) if wcard // 13 == led else 0
        if above:
            return _lowest(above) if last else _highest(above)
        return _lowest(follow)
    trumps = hand & tmask
    if not friend and trumps:
        if wcard // 13 == trump:
            above = trumps & ~((1 << (wcard + 1)) - 1)
            if above:
                return _lowest(above)
        else:
            return _lowest(trumps)
    side = hand & ~tmask
    return _lowest(side) if side else _lowest(hand)


def playout(pos: Position, first: int | None = None) -> tuple[int, int]:
    """Play ``pos`` out with :func:`policy_card` (``first`` as the mover's card); ``(side, points)``."""
    rules = pos.rules
    n, trump = pos.n, pos.trump
    hands = pos.hands[:]
    trick = [int(c) for c in pos.trick]
    leader = pos.leader
    tricks = pos.side_tricks()
    played = sum(pos.seat_tricks)
    hakem_side = pos.side(pos.hakem)
    while True:
        seat = (leader + len(trick)) % n
        if first is not None:
            c, first = int(first), None
        else:
            c = policy_card(n, trump, hands, leader, trick)
        hands[seat] &= ~(1 << c)
        trick.append(c)
        if len(trick) < n:
            continue
        winner = trick_winner(trick, leader, trump, n)
        side = side_of(winner, n)
        tricks[side] += 1
        played += 1
        trick = []
        leader = winner
        out = hand_outcome(rules, tricks, hakem_side, played)
        if out is not None:
            return out.winner, out.points
        if played >= rules.total_tricks:  # pragma: no cover - hand_outcome always decides
            raise RuntimeError("hand ended without an outcome")


def signed(pos: Position, result: tuple[int, int], seat: int) -> int:
    side, points = result
    return points if side == pos.side(seat) else -points


class RolloutEvaluator:
    """Scores positions by playing them out with the quick policy (one rollout per move)."""

    name = "rollout"

    def prepare(self, view: SeatView) -> None:
        """The quick policy reads nothing but the position."""

    def move_values(self, pos: Position) -> dict[Card, float]:
        me = pos.to_move
        return {c: float(signed(pos, playout(pos, c), me)) for c in pos.legal()}

    def hand_value(self, pos: Position) -> float:
        """Signed points for the side of the seat to move."""
        return float(signed(pos, playout(pos), pos.to_move))


class PolicyRolloutEvaluator:
    """Scores positions by letting the ``heuristic`` bot play every seat to the end of the hand.

    Much stronger rollouts than :func:`policy_card` (the heuristic reads voids, masters and its
    partner's cards from each seat's own view of the rollout) at about a hundred times the cost;
    searching over them improves on the heuristic itself where the solver is too slow. ``view``
    supplies the public history (finished tricks, match score) that the rollout views need.
    """

    name = "heuristic-rollout"

    def __init__(self, seed: int | None = None) -> None:
        from ..bots.heuristic import HeuristicBot

        self.bot = HeuristicBot(seed=seed)
        self.view: SeatView | None = None

    def prepare(self, view: SeatView) -> None:
        """Remember the searching seat's view: rollouts replay its public history."""
        self.view = view

    def _game(self, pos: Position) -> Game:
        from ..cards import SUITS, mask_of
        from ..engine.game import Game
        from ..engine.phase import Phase

        view = self.view
        if view is None:
            raise RuntimeError("PolicyRolloutEvaluator needs .view set to the searching seat's view")
        g = Game(pos.rules, first_hakem=pos.hakem)
        g.phase = Phase.PLAY
        g.trump = SUITS[pos.trump]
        g.hands = list(pos.hands)
        g.leader = pos.leader
        g.trick = [CARDS[c] for c in pos.trick]
        g.seat_tricks = list(pos.seat_tricks)
        g.tricks = pos.side_tricks()
        g.completed = list(view.completed)
        g.played = mask_of(view.played_cards())
        g.to_move = pos.to_move
        g.scores = list(view.scores)
        g.results = list(view.results)
        return g

    def _finish(self, g: Game, me: int, hands_before: int | None = None) -> int:
        """Play ``g`` out to the end of the hand that was open when ``hands_before`` results
        were recorded (default: the hand open now) and score it for ``me``'s side."""
        if hands_before is None:
            hands_before = len(g.results)
        bot = self.bot
        while len(g.results) == hands_before:
            seat = g.to_move
            if seat is None:
                raise ValueError(f"no seat is to move in the {g.phase.value} phase")
            g.apply(bot.act(g.view(seat)), seat)
        r = g.results[-1]
        side = side_of(me, g.n)
        return r.points if r.winner == side else -r.points

    def move_values(self, pos: Position) -> dict[Card, float]:
        from ..engine.actions import PLAYS

        base = self._game(pos)
        me = pos.to_move
        out: dict[Card, float] = {}
        before = len(base.results)
        for c in pos.legal():
            g = base.copy(history=False)
            g.apply(PLAYS[c], me)  # this card may end the hand (and the game) by itself
            out[c] = float(self._finish(g, me, before))
        return out

    def hand_value(self, pos: Position) -> float:
        return float(self._finish(self._game(pos), pos.to_move))
