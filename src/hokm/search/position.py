"""A play-phase position with every hand visible: the input of the double-dummy solver.

:class:`DDPosition` is an immutable snapshot of what matters for the rest of one hand: the
cards each seat still holds (52-bit masks), trump, the trick in progress and the tricks each seat
has won. It carries no history, so the same object serves the oracle (built from a real game
with :meth:`DDPosition.from_game`) and the search bot (built from a sampled deal).

The rules of play and of the end of a hand are the engine's: following suit and the trick's
winner come from :mod:`hokm.engine.tricks` and :meth:`DDPosition.outcome` calls
:func:`hokm.engine.scoring.hand_outcome`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import CARDS, Card, cards_in
from ..engine.scoring import Outcome, hand_outcome
from ..engine.tricks import legal_mask, trick_winner
from ..rules import Rules

if TYPE_CHECKING:
    from ..engine.game import Game


class PositionError(ValueError):
    """A position that cannot arise in a hand of Hokm (overlapping hands, wrong counts...)."""


@dataclass(frozen=True)
class DDPosition:
    """Full information about a hand in its play phase.

    ``hands[s]`` holds the cards seat ``s`` still has; ``trick`` the cards already played to the
    current trick, in play order from ``leader``; ``seat_tricks`` the tricks each seat has won so
    far this hand. Construction checks that the pieces fit together and raises
    :class:`PositionError` otherwise.
    """

    rules: Rules
    trump: int
    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    seat_tricks: tuple[int, ...]
    hakem: int

    def __post_init__(self) -> None:
        n = self.rules.players
        if not isinstance(self.trump, int) or not 0 <= self.trump < 4:
            raise PositionError(f"trump must be a suit index 0..3, not {self.trump!r}")
        if len(self.hands) != n or len(self.seat_tricks) != n:
            raise PositionError(f"a {n}-player position needs {n} hands and {n} trick counts")
        if not 0 <= self.leader < n or not 0 <= self.hakem < n:
            raise PositionError(f"leader and hakem must be seats 0..{n - 1}")
        if len(self.trick) >= n:
            raise PositionError(f"a trick in progress holds at most {n - 1} cards, not {len(self.trick)}")
        seen = 0
        for h in self.hands:
            if h < 0 or h >> 52 or h & seen:
                raise PositionError("hands must be disjoint 52-bit masks")
            seen |= h
        for c in self.trick:
            if not 0 <= c < 52 or (seen >> c) & 1:
                raise PositionError(f"trick card {c!r} is not a card or is still in a hand")
            seen |= 1 << c
        if seen >> 52 or self.rules.players == 3 and (seen >> int(Card.parse(self.rules.removed_two))) & 1:
            raise PositionError("a 3-player position cannot hold the removed two")
        if any(t < 0 for t in self.seat_tricks):
            raise PositionError("trick counts cannot be negative")
        left = self.rules.total_tricks - sum(self.seat_tricks)
        if left < 0 or left == 0 and self.trick:
            raise PositionError(f"{sum(self.seat_tricks)} tricks won is more than a hand holds")
        for k in range(n):
            seat = (self.leader + k) % n
            expect = left - 1 if k < len(self.trick) else left
            if self.hands[seat].bit_count() != expect:
                raise PositionError(f"seat {seat} holds {self.hands[seat].bit_count()} cards; expected {expect} "
                                    f"({left} tricks left, {len(self.trick)} cards played to this one)")

    # ----- construction --------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Game) -> DDPosition:
        """The full-information position of a game in its play phase (oracle and tests only)."""
        from ..engine.phase import Phase

        if game.phase is not Phase.PLAY:
            raise PositionError(f"a double-dummy position needs the play phase, not {game.phase.value}")
        if game.trump is None:
            raise PositionError("a double-dummy position needs a trump suit")
        return cls(game.rules, int(game.trump), tuple(game.hands), game.leader,
                   tuple(int(c) for c in game.trick), tuple(game.seat_tricks), game.hakem)

    # ----- facts ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.players

    @property
    def tricks_played(self) -> int:
        return sum(self.seat_tricks)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be played, the one in progress included."""
        return self.rules.total_tricks - self.tricks_played

    @property
    def side_tricks(self) -> tuple[int, ...]:
        """Tricks per side: teams ``seat % 2`` with four players, seats otherwise."""
        out = [0] * self.rules.sides
        for seat, t in enumerate(self.seat_tricks):
            out[self.rules.side_of(seat)] += t
        return tuple(out)

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    def outcome(self) -> Outcome | None:
        """The hand's result if it is already decided (the engine's rule), else ``None``."""
        return hand_outcome(self.rules, self.side_tricks, self.rules.side_of(self.hakem), self.tricks_played)

    def legal_mask(self) -> int:
        return legal_mask(self.hands[self.to_move], self.trick[0] // 13 if self.trick else None)

    def legal_cards(self) -> list[Card]:
        """The cards the seat to move may play (empty once the hand is decided)."""
        if self.outcome() is not None:
            return []
        return cards_in(self.legal_mask())

    def play(self, card: int) -> DDPosition:
        """The position after the seat to move plays ``card``; raises ``PositionError`` if illegal."""
        card = int(card)
        if not 0 <= card < 52 or not (self.legal_mask() >> card) & 1:
            name = str(CARDS[card]) if 0 <= card < 52 else repr(card)
            raise PositionError(f"seat {self.to_move} cannot play {name} here")
        n = self.rules.players
        seat = self.to_move
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        trick = self.trick + (card,)
        if len(trick) < n:
            return DDPosition(self.rules, self.trump, tuple(hands), self.leader, trick, self.seat_tricks, self.hakem)
        w = trick_winner(trick, self.leader, self.trump, n)
        st = list(self.seat_tricks)
        st[w] += 1
        return DDPosition(self.rules, self.trump, tuple(hands), w, (), tuple(st), self.hakem)

    def describe(self) -> str:
        """A one-line human-readable form for test failures and logs."""
        hands = " | ".join(" ".join(str(c) for c in cards_in(h)) for h in self.hands)
        trick = " ".join(str(CARDS[c]) for c in self.trick)
        return (f"{self.rules.players}p trump={'SHDC'[self.trump]} hakem={self.hakem} leader={self.leader} "
                f"tricks={list(self.seat_tricks)} trick=[{trick}] hands: {hands}")


def random_position(rules: Rules, rng: random.Random, tricks_left: int, *, in_trick: int = 0,
                    tries: int = 100) -> DDPosition:
    """A random undecided position with ``tricks_left`` tricks to play (for tests and benchmarks).

    A shuffled deal is played out with random legal cards until ``tricks_left`` tricks remain and
    ``in_trick`` cards lie on the current trick. Raises ``PositionError`` if every try ended the
    hand first (asking for few tricks left with four players often does).
    """
    n = rules.players
    if not 1 <= tricks_left <= rules.total_tricks or not 0 <= in_trick < n:
        raise PositionError(f"cannot build a position with {tricks_left} tricks left and {in_trick} cards in the trick")
    deck = [c for c in range(52) if c not in {int(x) for x in rules.removed_cards}]
    for _ in range(tries):
        rng.shuffle(deck)
        size = rules.hand_size
        hands = tuple(sum(1 << c for c in deck[k * size:(k + 1) * size]) for k in range(n))
        hakem = rng.randrange(n)
        pos = DDPosition(rules, rng.randrange(4), hands, hakem, (), (0,) * n, hakem)
        target = rules.total_tricks - tricks_left
        while pos.outcome() is None and (pos.tricks_played < target or len(pos.trick) < in_trick):
            legal = cards_in(pos.legal_mask())
            pos = pos.play(legal[rng.randrange(len(legal))])
        if pos.outcome() is None:
            return pos
    raise PositionError(f"no undecided position with {tricks_left} tricks left in {tries} tries")
