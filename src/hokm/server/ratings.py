"""Team-aware ratings with openskill's Plackett-Luce model.

Four players rate as two teams of two; three and two players as one-person teams. The winning
side ranks first and the others tie behind it. Bots take part with the model's default rating but
are never updated, and vs-computer games are not rated at all, so a rating reflects games against
people. The leaderboard orders by the conservative estimate ``mu - 3 sigma``.

A newcomer (fewer than :data:`ESTABLISHED_GAMES` rated games) is rated from the first game, but
moves no established player's rating: a game with a newcomer among an established player's
opponents leaves that player's rating as it was. Otherwise accounts made to lose on purpose
would carry anyone up the leaderboard, a win each; now each of them must first play
:data:`ESTABLISHED_GAMES` rated games of its own.
"""

from __future__ import annotations

from openskill.models import PlackettLuce, PlackettLuceRating

_MODEL = PlackettLuce()
#: Rated games after which a player's results move the ratings of those they play against.
ESTABLISHED_GAMES = 5
DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate_game(ratings: list[tuple[float, float] | None], sides: list[int], winner: int,
              newcomers: list[bool] | None = None) -> list[tuple[float, float] | None]:
    """New ``(mu, sigma)`` per seat after a game; ``None`` in, ``None`` out (bots, unrated seats).

    ``ratings[seat]`` is the seat's current rating; ``sides[seat]`` its side; ``winner`` the
    winning side; ``newcomers[seat]`` whether the seat's player is a newcomer (see the module):
    an established seat with a newcomer among its opponents keeps its rating.
    """
    side_ids = sorted(set(sides))
    teams: list[list[PlackettLuceRating]] = []
    where: list[tuple[int, int]] = []
    for side in side_ids:
        team = []
        for seat, s in enumerate(sides):
            if s != side:
                continue
            r = ratings[seat]
            team.append(_MODEL.rating() if r is None else _MODEL.rating(mu=r[0], sigma=r[1]))
            where.append((seat, len(teams)))
        teams.append(team)
    ranks = [0.0 if side == winner else 1.0 for side in side_ids]
    rated = _MODEL.rate(teams, ranks=ranks)
    out: list[tuple[float, float] | None] = [None] * len(sides)
    counters = [0] * len(teams)
    new_ones = newcomers or [False] * len(sides)
    for seat, t in where:
        new = rated[t][counters[t]]
        counters[t] += 1
        if ratings[seat] is None:
            continue
        kept = not new_ones[seat] and any(new_ones[o] for o in range(len(sides)) if sides[o] != sides[seat])
        out[seat] = ratings[seat] if kept else (new.mu, new.sigma)
    return out
