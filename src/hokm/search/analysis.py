"""Post-hand analysis: every card of a finished hand judged by the double-dummy solver.

For each card a seat played, the solver (:func:`hokm.search.dds.move_margins`) gives the best
result that seat's side could still force with every card visible, before the card (the best of
its legal cards) and after it (the card actually played). Results are compared in this order
(``docs/analysis.md`` defines them for players):

- **blunder**: the card changes which side wins the hand;
- **mistake**: the winner stays, but the kot (and so Hâkem-koti) status changes: a kot thrown
  away, or one conceded that could have been avoided;
- **inaccuracy**: the outcome stays, but the trick margin shrinks;
- **fine**: the card keeps the best result (a card that is the only legal one is always fine).

The trump choice can be judged the same way (``trump=True``): the hand's value for the Hâkem's
side with each suit as trump, every hand visible (the Hâkem chose on five cards). The two-player
discards and draws are not judged: the solver covers the play phase only.

With three players the solver is *paranoid*: the two other seats are taken to play together
against the seat to move, so a "win" is one the seat can force against both; results say so
(:attr:`GameAnalysis.paranoid`).

Only finished hands are analysed: asking for a hand in progress raises :class:`AnalysisError`
(``in_progress``), so nothing here can tell a seat about cards that are still hidden.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..cards import Card, Suit
from ..engine import KEEP, PASS, Draw, Game, Play
from ..records import load_record
from ..rules import TRICKS_TO_WIN, TWO_PLAYER_DRAW_TURNS, Rules
from . import dds
from .position import DDPosition


class AnalysisError(ValueError):
    """A hand that cannot be analysed: ``in_progress`` or ``no_such_hand``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class Mark(str, Enum):
    """How much a card cost its side (see the module docstring); ``unsolved``: over the node limit."""

    FINE = "fine"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    UNSOLVED = "unsolved"

    def __str__(self) -> str:
        return self.value


#: Marks from least to most costly (``unsolved`` is not a judgement and is left out).
MARK_ORDER = (Mark.FINE, Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER)


@dataclass(frozen=True)
class Prospect:
    """The best result one side can force, seen from that side.

    ``value`` is the solver's: ``+points`` when the side wins the hand, ``-points`` when it loses
    (kot points from the rules). ``margin`` is :func:`hokm.search.dds.move_margins`'s tie-break:
    with two sides, ``7 - (most tricks the losers can make)`` when winning and ``(most tricks the
    side can make) - 7`` when losing; with three players, the tricks the seat can make sure of.
    """

    value: int
    margin: int
    kot: bool
    hakem_koti: bool

    @property
    def wins(self) -> bool:
        return self.value > 0

    def key(self) -> tuple[int, int]:
        return (self.value, self.margin)

    def describe(self, players: int) -> str:
        """A short English phrase: ``wins, kot`` / ``loses, at most 4 tricks``..."""
        words = ["wins" if self.wins else "loses"]
        if self.kot:
            words.append("Hâkem-koti" if self.hakem_koti else "kot")
        if players == 3:
            words.append(f"{self.margin} tricks sure")
        elif self.wins and not self.kot:
            words.append(f"others at most {TRICKS_TO_WIN - self.margin}")
        elif not self.wins and not self.kot:
            words.append(f"at most {TRICKS_TO_WIN + self.margin} tricks")
        return ", ".join(words)

    def to_json(self) -> dict[str, Any]:
        return {"wins": self.wins, "value": self.value, "margin": self.margin, "kot": self.kot,
                "hakem_koti": self.hakem_koti}


def _prospect(rules: Rules, side: int, hakem_side: int, value: int, margin: int) -> Prospect:
    wins = value > 0
    if rules.players != 3:
        # The margin names a kot exactly: the losers make no trick (points alone cannot tell a
        # kot from a plain win when the rules give a kot 1 point).
        kot = abs(margin) == TRICKS_TO_WIN
        winner_side = side if wins else 1 - side
        return Prospect(value, margin, kot, kot and winner_side != hakem_side)
    # Three players, paranoid: a loss does not say which opponent wins, but its points do.
    kot_values = {rules.kot_points, rules.hakem_koti_points} - {1}
    kot = abs(value) in kot_values
    if wins:
        hakem_koti = kot and side != hakem_side
    else:
        hakem_koti = kot and abs(value) == rules.hakem_koti_points != rules.kot_points
    return Prospect(value, margin, kot, hakem_koti)


def _other_side(p: Prospect) -> Prospect:
    """The same result seen from the other side (two sides only)."""
    return Prospect(-p.value, -p.margin, p.kot, p.hakem_koti)


def mark_of(best: Prospect, played: Prospect) -> Mark:
    """The mark of a card whose side could force ``best`` and, after it, ``played``."""
    if best.wins != played.wins:
        return Mark.BLUNDER
    if best.value != played.value or best.kot != played.kot:
        return Mark.MISTAKE
    if best.margin != played.margin:
        return Mark.INACCURACY
    return Mark.FINE


@dataclass(frozen=True)
class PlayAnalysis:
    """One card played: who, where, what the side could force before and after, and the mark.

    ``index`` counts the hand's plays from 0; ``better`` lists the legal cards that kept the best
    result (empty when the card played is one of them or was forced).
    """

    index: int
    trick: int
    seat: int
    card: Card
    legal: int
    best: Prospect | None
    played: Prospect | None
    mark: Mark
    better: tuple[Card, ...]

    @property
    def forced(self) -> bool:
        return self.legal == 1

    def to_json(self, players: int) -> dict[str, Any]:
        return {
            "index": self.index, "trick": self.trick, "seat": self.seat, "card": str(self.card),
            "legal": self.legal, "forced": self.forced, "mark": self.mark.value,
            "best": None if self.best is None else self.best.to_json() | {"text": self.best.describe(players)},
            "played": None if self.played is None else self.played.to_json() | {"text": self.played.describe(players)},
            "better": [str(c) for c in self.better],
        }


@dataclass(frozen=True)
class TrumpAnalysis:
    """The Hâkem's trump choice, double-dummy: the Hâkem side's result with each suit as trump."""

    seat: int
    chosen: Suit
    by_suit: dict[Suit, Prospect]
    mark: Mark
    better: tuple[Suit, ...]

    def to_json(self, players: int) -> dict[str, Any]:
        return {"seat": self.seat, "chosen": str(self.chosen), "mark": self.mark.value,
                "by_suit": {str(s): p.to_json() | {"text": p.describe(players)} for s, p in self.by_suit.items()},
                "better": [str(s) for s in self.better]}


@dataclass(frozen=True)
class DrawAnalysis:
    """Two players, the last draw of the stock (keep the top card or pass it): after it both hands
    are known, so the solver can judge it. ``by_choice`` is from the drawing seat's side."""

    seat: int
    chosen: str
    by_choice: dict[str, Prospect]
    mark: Mark
    better: tuple[str, ...]

    def to_json(self, players: int) -> dict[str, Any]:
        return {"seat": self.seat, "chosen": self.chosen, "mark": self.mark.value,
                "by_choice": {c: p.to_json() | {"text": p.describe(players)} for c, p in self.by_choice.items()},
                "better": list(self.better)}


@dataclass(frozen=True)
class HandAnalysis:
    hand: int
    hakem: int
    trump: Suit
    tricks: tuple[int, ...]
    winner: int
    points: int
    kot: bool
    plays: tuple[PlayAnalysis, ...]
    trump_choice: TrumpAnalysis | None = None
    last_draw: DrawAnalysis | None = None
    seconds: float = 0.0

    def counts(self, seat: int | None = None) -> dict[str, int]:
        """How many cards got each mark (of one seat, or of all)."""
        out = {m.value: 0 for m in (*MARK_ORDER, Mark.UNSOLVED)}
        for p in self.plays:
            if seat is None or p.seat == seat:
                out[p.mark.value] += 1
        return out

    def to_json(self, players: int) -> dict[str, Any]:
        return {"hand": self.hand, "hakem": self.hakem, "trump": str(self.trump), "tricks": list(self.tricks),
                "winner": self.winner, "points": self.points, "kot": self.kot,
                "counts": [self.counts(s) for s in range(players)],
                "trump_choice": None if self.trump_choice is None else self.trump_choice.to_json(players),
                "last_draw": None if self.last_draw is None else self.last_draw.to_json(players),
                "plays": [p.to_json(players) for p in self.plays]}


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a record's finished hands; ``in_progress`` is the unfinished hand's index."""

    players: int
    hands: tuple[HandAnalysis, ...]
    in_progress: int | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def paranoid(self) -> bool:
        return self.players == 3

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "paranoid": self.paranoid, "in_progress": self.in_progress,
                "notes": list(self.notes), "hands": [h.to_json(self.players) for h in self.hands]}


# ---------------------------------------------------------------------------------- replay
@dataclass
class _HandLine:
    """One hand of a record, replayed: its opening play position and the cards in order."""

    hakem: int
    start: DDPosition | None = None
    cards: list[Card] = field(default_factory=list)
    last_draw: tuple[Game, Draw] | None = None  # two players: the game before the stock's last draw


def _hand_lines(game: Game, final: Game) -> list[_HandLine]:
    lines: list[_HandLine] = []
    for kind, value in final.history:
        if kind == "deal":
            game.deal(value)
            lines.append(_HandLine(game.hakem))
            continue
        if isinstance(value, Draw) and game.draw_turn == TWO_PLAYER_DRAW_TURNS - 1:
            lines[-1].last_draw = (game.copy(history=False), value)
        if isinstance(value, Play) and lines[-1].start is None:
            lines[-1].start = DDPosition.from_game(game)
        if isinstance(value, Play):
            lines[-1].cards.append(value.card)
        game.apply(value)
    return lines


def _notes(players: int) -> tuple[str, ...]:
    notes = []
    if players == 3:
        notes.append("three players: each seat is judged against the other two playing together (paranoid)")
    if players == 2:
        notes.append("two players: the discards and the draws before the last are not judged (the stock still "
                     "to come puts them out of the solver's reach); the last draw is")
    return tuple(notes)


# ---------------------------------------------------------------------------------- solving
def _best(rules: Rules, pos: DDPosition, node_limit: int | None
          ) -> tuple[dict[Card, Prospect], Prospect] | None:
    try:
        values, margins = dds.move_margins(pos, node_limit=node_limit)
    except dds.SearchLimitExceeded:
        return None
    side = rules.side_of(pos.to_move)
    hakem_side = rules.side_of(pos.hakem)
    per = {c: _prospect(rules, side, hakem_side, values[c], margins[c]) for c in values}
    best = max(per.values(), key=Prospect.key)
    return per, best


def analyse_position_line(start: DDPosition, cards: Iterable[Card], *, node_limit: int | None = None
                          ) -> list[PlayAnalysis]:
    """Judge ``cards`` played in order from ``start`` (stops where the hand is decided)."""
    rules = start.rules
    pos = start
    out: list[PlayAnalysis] = []
    last: tuple[int, Prospect] | None = None  # the side that played the last card, and what it could force after it
    for i, card in enumerate(cards):
        if pos.outcome() is not None:
            raise AnalysisError("bad_line", f"play {i} ({card}) comes after the hand was decided")
        legal = pos.legal_cards()
        if card not in legal:
            raise AnalysisError("bad_line", f"seat {pos.to_move} cannot play {card} here")
        side = rules.side_of(pos.to_move)
        if len(legal) == 1 and last is not None and rules.players != 3:
            # A forced card changes nothing: its side can force what the last card left, seen from
            # this side (two sides, zero-sum: the other side's value and margin, negated).
            got = last[1] if last[0] == side else _other_side(last[1])
            solved: tuple[dict[Card, Prospect], Prospect] | None = ({card: got}, got)
        else:
            solved = _best(rules, pos, node_limit)
        last = None if solved is None else (side, solved[0][card])
        trick = pos.tricks_played
        if solved is None:
            out.append(PlayAnalysis(i, trick, pos.to_move, card, len(legal), None, None, Mark.UNSOLVED, ()))
        else:
            per, best = solved
            played = per[card]
            mark = mark_of(best, played)
            better = () if mark is Mark.FINE else tuple(c for c in legal if per[c].key() == best.key())
            out.append(PlayAnalysis(i, trick, pos.to_move, card, len(legal), best, played, mark, better))
        pos = pos.play(card)
    return out


def analyse_trump(start: DDPosition, *, node_limit: int | None = None) -> TrumpAnalysis | None:
    """The trump choice of the hand opening at ``start``, or ``None`` if a suit is over the node limit."""
    rules = start.rules
    by_suit: dict[Suit, Prospect] = {}
    for suit in Suit:
        pos = DDPosition(rules, int(suit), start.hands, start.leader, (), start.seat_tricks, start.hakem)
        solved = _best(rules, pos, node_limit)
        if solved is None:
            return None
        by_suit[suit] = solved[1]
    chosen = Suit(start.trump)
    top = max(by_suit.values(), key=Prospect.key)
    mark = mark_of(top, by_suit[chosen])
    better = () if mark is Mark.FINE else tuple(s for s, p in by_suit.items() if p.key() == top.key())
    return TrumpAnalysis(start.hakem, chosen, by_suit, mark, better)


def analyse_last_draw(before: Game, chosen: Draw, *, node_limit: int | None = None) -> DrawAnalysis | None:
    """The stock's last draw (two players), judged: ``before`` is the game just before it."""
    seat = before.to_move
    assert seat is not None
    by_choice: dict[str, Prospect] = {}
    for action in (KEEP, PASS):
        g = before.copy(history=False)
        g.apply(action)
        start = DDPosition.from_game(g)
        solved = _best(g.rules, start, node_limit)
        if solved is None:
            return None
        best = solved[1]
        by_choice[action.choice] = best if start.to_move == seat else _other_side(best)
    top = max(by_choice.values(), key=Prospect.key)
    mark = mark_of(top, by_choice[chosen.choice])
    better = () if mark is Mark.FINE else tuple(c for c, p in by_choice.items() if p.key() == top.key())
    return DrawAnalysis(seat, chosen.choice, by_choice, mark, better)


def analyse_record(data: dict[str, Any] | str | bytes, *, hands: Iterable[int] | None = None,
                   trump: bool = False, node_limit: int | None = None) -> GameAnalysis:
    """Analyse the finished hands of a record (all of them, or those listed in ``hands``).

    Raises :class:`hokm.records.RecordError` for a bad record and :class:`AnalysisError` when a
    listed hand does not exist (``no_such_hand``) or is still being played (``in_progress``). An
    unfinished last hand is skipped when no hands are listed, and named in the result.
    """
    final = load_record(data)
    game = Game(final.rules, first_hakem=final.first_hakem) if final.hakem_draw is None else \
        Game(final.rules, hakem_draw=final.hakem_draw)
    lines = _hand_lines(game, final)
    finished = len(final.results)
    in_progress = finished if len(lines) > finished else None
    if hands is None:
        wanted = list(range(finished))
    else:
        wanted = []
        for h in hands:
            if not isinstance(h, int) or isinstance(h, bool) or not 0 <= h < len(lines):
                raise AnalysisError("no_such_hand", f"the record has hands 0 to {len(lines) - 1}, not {h!r}")
            if h >= finished:
                raise AnalysisError("in_progress", f"hand {h} is still being played; only finished hands are analysed")
            wanted.append(h)
    out = []
    for h in wanted:
        t0 = time.perf_counter()
        line, result = lines[h], final.results[h]
        assert line.start is not None and result.trump is not None and result.winner is not None  # played out
        plays = analyse_position_line(line.start, line.cards, node_limit=node_limit)
        trump_choice = analyse_trump(line.start, node_limit=node_limit) if trump and final.n != 2 else None
        last_draw = None if line.last_draw is None else analyse_last_draw(*line.last_draw, node_limit=node_limit)
        out.append(HandAnalysis(h, result.hakem, result.trump, result.tricks, result.winner, result.points,
                                result.kot, tuple(plays), trump_choice, last_draw, time.perf_counter() - t0))
    return GameAnalysis(final.n, tuple(out), in_progress, _notes(final.n))


def analyse_record_json(data: str | bytes, node_limit: int | None = None, hand: int | None = None
                        ) -> dict[str, Any]:
    """``analyse_record(...).to_json()`` for a worker process (module level, plain data in and out)."""
    return analyse_record(data, hands=None if hand is None else [hand], node_limit=node_limit).to_json()


__all__ = [
    "MARK_ORDER",
    "AnalysisError",
    "DrawAnalysis",
    "GameAnalysis",
    "HandAnalysis",
    "Mark",
    "PlayAnalysis",
    "Prospect",
    "TrumpAnalysis",
    "analyse_last_draw",
    "analyse_position_line",
    "analyse_record",
    "analyse_record_json",
    "analyse_trump",
    "mark_of",
]
