"""Bot-versus-bot games and duplicate matches (``hokm arena``).

The Python API, for strength reports, servers and tests:

>>> from hokm.arena import run_match
>>> report = run_match("heuristic", "random", players=4, games=4, seed=1, jobs=1)
>>> report.to_json()["games"]
4

- :func:`play_game` (``runner``): one refereed game between bot instances, forfeits included.
- :class:`DealSequence` (``runner``): reproducible decks per hand index, the basis of pairing.
- :func:`run_match` / :class:`MatchReport` (``match``): a duplicate match between two specs.
- :func:`wilson`, :func:`elo_with_ci` (``stats``): the intervals the reports use.
"""

from .match import GameSummary, MatchReport, default_jobs, play_sequence, run_match, seatings, sequence_seed
from .runner import DealSequence, Forfeit, GameOutcome, play_game
from .stats import elo_diff, elo_with_ci, percentile, wilson

__all__ = [
    "DealSequence", "Forfeit", "GameOutcome", "GameSummary", "MatchReport", "default_jobs", "elo_diff",
    "elo_with_ci", "percentile", "play_game", "play_sequence", "run_match", "seatings", "sequence_seed", "wilson",
]
