"""The difficulty levels a player picks: ``easy``, ``medium``, ``hard``, ``expert``.

Each level is the same search bot (:class:`hokm.search.pimc.PimcBot`) with a different amount of
search, so strength grows with the budget:

========  ==============================================  ============  ===============
level     card play                                       deals/move    budget/decision
========  ==============================================  ============  ===============
easy      search, rollouts, noisy choices                 4             0.05 s
medium    search, rollouts                                12            0.15 s
hard      double-dummy from 7 cards in hand, play-read    10 of 30      0.35 s
expert    4 players: every card by playouts, play-read    320 of 5,120  0.75 s
          3 players: every card by playouts, play-read    160 of 640
          2 players: double-dummy, play-read, margins     64 of 256
========  ==============================================  ============  ===============

(``hard``: the solver from 8 cards with 3 players and the whole hand with 2.) Before the solver's
reach an exact search needs seconds per deal, so ``hard`` plays those first tricks with the
heuristic (``early``). ``expert`` with three and four players searches every card, from the
first trick on, by *playouts* (below). The playouts and the play-read run on a compiled twin of
the heuristic player (:mod:`hokm.search._heuristic_kernel`), which is what makes thousands of
candidate deals and a playout per legal card and deal fit in a few milliseconds.
From ``medium`` up, trump, the two-player discards and the draws are the heuristic bot's:
the sampled-deal versions (``root="search"``, kept for ``easy`` and for tuning with
``pimc:LEVEL,root=search``, or ``trump=search`` for the trump alone) measured weaker than its
rules in 2-player games and no better with 4 players (``docs/arena.md``). The solver
searches at most ``10 * dd_nodes`` nodes per deal; a deal it cannot finish is rolled out.

*Play-read* (``hard``, ``expert``): the deals searched are drawn from several times as many
candidates in proportion to how well each explains the others' plays so far
(:mod:`hokm.search.play_model`), and the heuristic bot's card is kept unless the search finds a
strictly better one (``anchor``). Both measured clearly better than plain sampling, above all
with two players, where most cards tie on "who wins the hand" and the tie-break decides.
With 64 deals searched, more candidates kept helping with four players up to about a thousand
per decision (``docs/arena.md``); ``expert`` keeps sixteen candidates per deal searched.

With two players the opponent's hand is drawn from the odds that each unseen card is in it
rather than among his discards (``keep_model="table"``, :func:`hokm.search.inference.kept_odds`):
a sensible player keeps trumps and winners, and deals drawn that way won more hands than even
draws weighted by a factor per high card (``docs/arena.md``).

With two players ``expert`` also separates cards of equal expected value by their trick margin
under perfect play (``margins``: a safer win, a closer loss), which measured better on every set
of two-player deals tried; with four players it changed nothing measurable (``docs/arena.md``).

With three and four players ``expert`` scores its cards by heuristic playouts instead of the
solver (``evaluator="playout"``, ``evaluator3="playout"``): after the candidate card every seat
plays like the heuristic bot, from its own knowledge in the deal, to the end of the hand. With
three players the solver's search is paranoid (the other two play together against the mover),
so it calls most positions lost whatever the mover plays and the search learns nothing; the real
opponents each play for themselves. With four players the solver is exact but assumes every seat
sees every card; the playouts won more hands from the first trick to the last (``docs/arena.md``).
A single playout per deal is a noisy judge, so more deals keep helping: up to about 160 with
three players, and at least to 320 with four.

The settings that differ by player count are in :data:`LEVEL_PLAYERS`; ``pimc:expert,key=value``
changes a setting for every player count.

Budgets are for one decision on one core; the bot stops sampling when either the deal count or
the budget runs out (never below ``min_deals``), so ``expert`` stays under a second at p95.

:mod:`hokm.players` offers every level by name (:func:`level_bot`); ``pimc:LEVEL,key=value``
specs (:func:`tuned_bot`) change a level's settings, or the alternatives of
:mod:`hokm.search.tuning`, for tuning runs in the arena.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields, replace
from typing import TYPE_CHECKING, TypeVar

from .config import SearchConfig
from .tuning import Tuning

if TYPE_CHECKING:
    from .pimc import PimcBot

LEVELS: dict[str, SearchConfig] = {
    "easy": SearchConfig(max_deals=4, min_deals=2, budget_s=0.05, enumerate_limit=4, root_deals=4,
                         evaluator="rollout", inference=False, noise=0.6),
    "medium": SearchConfig(max_deals=12, min_deals=4, budget_s=0.15, enumerate_limit=16, root_deals=12,
                           evaluator="rollout", root="heuristic"),
    "hard": SearchConfig(max_deals=10, min_deals=4, budget_s=0.35, enumerate_limit=24, root_deals=16,
                         evaluator="dd", dd_cards=(13, 8, 7), dd_nodes=60_000, early="heuristic",
                         root="heuristic", anchor=0.0, play_miss=0.25, oversample=3),
    "expert": SearchConfig(max_deals=64, min_deals=6, budget_s=0.75, enumerate_limit=48, root_deals=24,
                           evaluator="dd", dd_cards=(13, 9, 8), dd_nodes=60_000, early="heuristic",
                           root="heuristic", anchor=0.0, play_miss=0.25, oversample=4, margins=(2,),
                           evaluator3="playout"),
}

#: Settings that replace a level's own at tables of some player counts (``PimcBot(by_players=...)``).
#: ``expert``, four players: every card searched (``early="search"``) and scored by compiled heuristic
#: playouts to the end of the hand, over 320 deals drawn from 5,120 candidates; three players: every
#: card searched with playouts, over 160 deals. ``easy``, three players: trump by the heuristic's
#: rules and less noise, so that the lowest level beats random play by a clear margin there too
#: (``docs/arena.md``, "Easy with three players").
LEVEL_PLAYERS: dict[str, dict[int, SearchConfig]] = {
    "easy": {
        3: replace(LEVELS["easy"], noise=0.4, root="heuristic"),
    },
    "expert": {
        3: replace(LEVELS["expert"], max_deals=160, dd_cards=(13, 17, 8)),
        4: replace(LEVELS["expert"], evaluator="playout", early="search", max_deals=320, oversample=16),
    },
}

#: Reference levels, frozen for measuring later versions against and never offered to players (their
#: settings are written out here, not derived from :data:`LEVELS`, so that changing a level leaves them as
#: they were). ``expert-2026`` has ``expert``'s settings of the 2026 strength report (``docs/strength.md``:
#: 81.5 % of 1,000 four-player games against ``heuristic``): a new ``expert`` is measured against it. Only the
#: settings are kept: the search code, the :class:`~hokm.search.tuning.Tuning` defaults and the kernels it runs
#: on are today's, and at a fixed time budget a faster kernel searches more deals.
REFERENCES: dict[str, SearchConfig] = {
    "expert-2026": SearchConfig(max_deals=64, min_deals=6, budget_s=0.75, enumerate_limit=48, root_deals=24,
                                evaluator="dd", dd_cards=(13, 9, 8), dd_nodes=60_000, early="heuristic",
                                root="heuristic", anchor=0.0, play_miss=0.25, oversample=4, margins=(2,),
                                evaluator3="playout"),
}
REFERENCE_PLAYERS: dict[str, dict[int, SearchConfig]] = {
    "expert-2026": {
        3: replace(REFERENCES["expert-2026"], max_deals=160, dd_cards=(13, 17, 8)),
        4: replace(REFERENCES["expert-2026"], evaluator="playout", early="search", max_deals=320, oversample=16),
    },
}

#: What each level is, in a line (the player lists of ``hokm play`` and the server show it).
DESCRIPTIONS = {
    "easy": "beginner: a little search with noisy choices",
    "medium": "club player: sampled deals scored by rollouts",
    "hard": "strong: sampled deals scored by the double-dummy solver",
    "expert": "strongest: more sampled deals, inference from others' play, under 1 s a move",
    "expert-2026": "expert's settings of the 2026 strength report (a reference for measurement only)",
}


def level_bot(level: str, seed: int | None = None, **_: object) -> PimcBot:
    """The search bot of a named level or reference level (the search itself loads on the first one built)."""
    from .pimc import PimcBot

    if level in REFERENCES:
        return PimcBot(REFERENCES[level], seed=seed, name=level, by_players=REFERENCE_PLAYERS[level])
    return PimcBot(LEVELS[level], seed=seed, name=level, by_players=LEVEL_PLAYERS.get(level))


def tuned_bot(argument: str, seed: int | None = None, **_: object) -> PimcBot:
    """``pimc:LEVEL,key=value,...``: a level with some search settings changed (for tuning runs).

    Keys are the fields of :class:`~hokm.search.config.SearchConfig` and of
    :class:`~hokm.search.tuning.Tuning`. Values are JSON numbers or booleans, bare words for
    strings (``early=heuristic``), and slash-separated numbers for tuples (``dd_cards=13/9/8``).
    """
    level, *pairs = argument.split(",")
    if level not in LEVELS:
        raise ValueError(f"pimc: unknown level {level!r} (known: {', '.join(LEVELS)})")
    config_keys = {f.name for f in fields(SearchConfig)}
    tuning_keys = {f.name for f in fields(Tuning)}
    changes: dict[str, object] = {}
    tuned: dict[str, object] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or key not in config_keys | tuning_keys:
            raise ValueError(f"pimc: expected key=value with a key among "
                             f"{', '.join(sorted(config_keys | tuning_keys))}, not {pair!r}")
        try:
            value: object = (tuple(int(x) for x in text.split("/")) if "/" in text else json.loads(text))
        except ValueError:
            value = text
        (changes if key in config_keys else tuned)[key] = value
    per = {p: _changed(c, changes) for p, c in LEVEL_PLAYERS.get(level, {}).items()}
    from .pimc import PimcBot

    return PimcBot(_changed(LEVELS[level], changes), seed=seed, name=f"pimc:{argument}", by_players=per,
                   tuning=_changed(Tuning(), tuned))


_Settings = TypeVar("_Settings", SearchConfig, Tuning)


def _changed(settings: _Settings, changes: dict[str, object]) -> _Settings:
    """``settings`` with ``changes`` applied, each value checked against its field's type."""
    from pydantic import TypeAdapter, ValidationError

    try:
        return TypeAdapter(type(settings)).validate_python({**asdict(settings), **changes})
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise ValueError(f"pimc: bad setting ({problems})") from None
