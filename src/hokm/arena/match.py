"""Duplicate matches between two bot specs, spread over a process pool.

Luck of the deal dominates single card games, so every *deal sequence* (first-Hâkem draw plus
the deck of each hand, see :class:`~hokm.arena.runner.DealSequence`) is played several times
with the bots moved around the table:

- 4 players: ``a`` holds team 0 (seats 0 and 2), then team 1 (seats 1 and 3): a *pair*.
- 2 players: ``a`` holds seat 0, then seat 1: a *pair*.
- 3 players: ``a`` holds one seat and ``b`` the other two; ``a`` takes seat 0, 1, then 2: a
  *triple*. A fair ``a`` wins a third of these games, not half.

``games`` counts single games; it is rounded up to a whole number of pairs (triples), and the
report gives the number actually played. Each game builds fresh bots with
``make_bot(spec, seed=...)`` (seeds derived from the match seed), so specs are all that crosses
process boundaries and nothing about a bot is special-cased here.

A forfeit (see :func:`~hokm.arena.runner.play_game`) loses the game for the side of the bot that
failed: an ``a`` forfeit is a win for ``b``, a ``b`` forfeit (either ``b`` seat with three
players) a win for ``a``.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..engine import Rules
from ..players import make_bot
from ..procs import process_pool
from .runner import GameOutcome, play_game
from .stats import elo_with_ci, finite_or_none, percentile, wilson


def default_jobs() -> int:
    """Worker processes by default: every CPU this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def seatings(players: int) -> list[tuple[bool, ...]]:
    """For each game of a deal sequence, which seats ``a`` holds (``True``) in seat order."""
    if players == 4:
        return [(True, False, True, False), (False, True, False, True)]
    if players == 2:
        return [(True, False), (False, True)]
    if players == 3:
        return [tuple(s == k for s in range(3)) for k in range(3)]
    raise ValueError(f"players must be 2, 3 or 4, not {players!r}")


def sequence_seed(seed: int, index: int) -> str:
    """The deal-sequence seed of pair (triple) ``index`` in a match seeded with ``seed``."""
    return f"{seed}:{index}"


def bot_seed(seed: int, index: int, game: int, seat: int) -> int:
    return random.Random(f"hokm-bots:{seed}:{index}:{game}:{seat}").getrandbits(63)


@dataclass
class GameSummary:
    """The slice of a :class:`GameOutcome` a match keeps, from ``a``'s point of view."""

    sequence: int
    game: int  # position in the pair or triple
    a_won: bool
    hands_a: int
    hands_b: int
    kots_a: int
    kots_b: int
    points_a: int
    points_b: int
    forfeit: dict[str, Any] | None  # Forfeit.to_json() plus "party": "a" or "b"
    times_a: list[float]
    times_b: list[float]


def _summarise(outcome: GameOutcome, seating: tuple[bool, ...], rules: Rules, index: int, k: int) -> GameSummary:
    a_sides = {rules.side_of(s) for s, is_a in enumerate(seating) if is_a}
    side_is_a = [side in a_sides for side in range(rules.sides)]
    forfeit = None
    if outcome.forfeit is not None:
        party = "a" if seating[outcome.forfeit.seat] else "b"
        forfeit = outcome.forfeit.to_json() | {"party": party}
        a_won = party == "b"
    else:
        a_won = side_is_a[outcome.winner]

    def split(values: list[int]) -> tuple[int, int]:
        a = sum(v for side, v in enumerate(values) if side_is_a[side])
        return a, sum(values) - a

    hands_a, hands_b = split(outcome.hands_won)
    kots_a, kots_b = split(outcome.kots_won)
    points_a, points_b = split(outcome.scores)
    times_a = [t for s, ts in enumerate(outcome.decision_seconds) if seating[s] for t in ts]
    times_b = [t for s, ts in enumerate(outcome.decision_seconds) if not seating[s] for t in ts]
    return GameSummary(index, k, a_won, hands_a, hands_b, kots_a, kots_b, points_a, points_b,
                       forfeit, times_a, times_b)


def play_sequence(rules: Rules, a: str, b: str, seed: int, index: int,
                  time_limit: float | None = None) -> list[GameSummary]:
    """Play every seating of deal sequence ``index``: the unit of work of a match."""
    out = []
    for k, seating in enumerate(seatings(rules.players)):
        bots = [make_bot(a if is_a else b, seed=bot_seed(seed, index, k, s)) for s, is_a in enumerate(seating)]
        try:
            outcome = play_game(rules, bots, sequence_seed(seed, index), time_limit=time_limit)
        finally:
            for bot in bots:
                bot.close()
        out.append(_summarise(outcome, seating, rules, index, k))
    return out


def _play_sequence_args(args: tuple[Rules, str, str, int, int, float | None]) -> list[GameSummary]:
    return play_sequence(*args)


@dataclass
class MatchReport:
    """Totals of a duplicate match; :meth:`to_json` is what ``hokm arena --json`` prints."""

    players: int
    a: str
    b: str
    seed: int
    rules: Rules
    jobs: int
    sequences: int = 0
    games: list[GameSummary] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def a_wins(self) -> int:
        return sum(g.a_won for g in self.games)

    def _tot(self, name: str) -> int:
        return sum(getattr(g, name) for g in self.games)

    def to_json(self) -> dict[str, Any]:
        n = len(self.games)
        a_wins = self.a_wins
        hands_a, hands_b = self._tot("hands_a"), self._tot("hands_b")
        kots_a, kots_b = self._tot("kots_a"), self._tot("kots_b")
        times_a = [t for g in self.games for t in g.times_a]
        times_b = [t for g in self.games for t in g.times_b]
        forfeits = [g.forfeit for g in self.games if g.forfeit is not None]
        per_sequence: dict[int, int] = {}
        for g in self.games:
            per_sequence[g.sequence] = per_sequence.get(g.sequence, 0) + g.a_won
        group = len(seatings(self.players))
        by_wins = [0] * (group + 1)
        for w in per_sequence.values():
            by_wins[w] += 1
        d: dict[str, Any] = {
            "players": self.players,
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "games": n,
            "deal_sequences": self.sequences,
            "games_per_sequence": group,
            "a_wins": a_wins,
            "b_wins": n - a_wins,
            "a_win_rate": a_wins / n if n else 0.0,
            "a_win_ci95": list(wilson(a_wins, n)),
            "fair_share": 1 / 3 if self.players == 3 else 1 / 2,
            "hands_a": hands_a,
            "hands_b": hands_b,
            "hands_a_rate": hands_a / (hands_a + hands_b) if hands_a + hands_b else 0.0,
            "hands_a_ci95": list(wilson(hands_a, hands_a + hands_b)),
            "kots_a": kots_a,
            "kots_b": kots_b,
            "kots_a_ci95": list(wilson(kots_a, kots_a + kots_b)),
            "points_a": self._tot("points_a"),
            "points_b": self._tot("points_b"),
            "sequences_by_a_wins": by_wins,
            "seconds_per_decision": {"a": _mean(times_a), "b": _mean(times_b)},
            "median_seconds_per_decision": {"a": percentile(times_a, 0.5), "b": percentile(times_b, 0.5)},
            "p95_seconds_per_decision": {"a": percentile(times_a, 0.95), "b": percentile(times_b, 0.95)},
            "decisions": {"a": len(times_a), "b": len(times_b)},
            "forfeits": {"a": sum(f["party"] == "a" for f in forfeits),
                         "b": sum(f["party"] == "b" for f in forfeits)},
            "forfeit_messages": [f["message"] for f in forfeits[:10]],
            "jobs": self.jobs,
            "seconds": self.seconds,
        }
        if self.players != 3:
            elo, (lo, hi) = elo_with_ci(a_wins, n)
            d["elo_diff"] = finite_or_none(elo)
            d["elo_ci95"] = [finite_or_none(lo), finite_or_none(hi)]
        else:  # a one-against-two score has no two-way Elo reading
            d["elo_diff"] = None
            d["elo_ci95"] = [None, None]
        return d


def _mean(xs: list[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else 0.0


def iter_sequences(rules: Rules, a: str, b: str, sequences: int, seed: int, jobs: int,
                   time_limit: float | None = None) -> Iterator[list[GameSummary]]:
    """Yield the games of each deal sequence, in sequence order, using ``jobs`` processes."""
    tasks = [(rules, a, b, seed, i, time_limit) for i in range(sequences)]
    if jobs <= 1 or sequences <= 1:
        for t in tasks:
            yield _play_sequence_args(t)
        return
    chunk = max(1, min(16, sequences // (jobs * 8)))
    with process_pool(jobs, start_method=None) as pool:
        yield from pool.map(_play_sequence_args, tasks, chunksize=chunk)


def run_match(
    a: str,
    b: str,
    *,
    players: int = 4,
    games: int = 100,
    seed: int = 0,
    rules: Rules | None = None,
    jobs: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MatchReport:
    """Play a duplicate match of at least ``games`` games between specs ``a`` and ``b``.

    ``rules`` overrides the default rules for ``players``. ``jobs`` worker processes (default
    :func:`default_jobs`; 1 plays in this process). ``progress(done, total)`` is called after each
    deal sequence. Bot specs are checked before any game starts (``ValueError`` if unknown).
    """
    rules = rules or Rules(players=players)
    if rules.players != players:
        raise ValueError(f"rules are for {rules.players} players, not {players}")
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive whole number, not {games!r}")
    for spec in (a, b):
        make_bot(spec, seed=0).close()  # fail fast on an unknown spec, before spawning workers
    group = len(seatings(players))
    sequences = -(-games // group)
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    report = MatchReport(players, a, b, seed, rules, jobs, sequences)
    start = time.perf_counter()
    for i, summaries in enumerate(iter_sequences(rules, a, b, sequences, seed, jobs, time_limit), 1):
        report.games.extend(summaries)
        if progress is not None:
            progress(i, sequences)
    report.seconds = time.perf_counter() - start
    return report
