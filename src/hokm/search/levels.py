"""The difficulty levels a player picks: ``easy``, ``medium``, ``hard``, ``expert``.

Each level is the same search bot (:class:`hokm.search.pimc.PimcBot`) with a different amount of
search, so strength grows with the budget and no level plays by different rules of thumb:

========  ===============================  ===========  =================
level     scorer of sampled deals          deals/move   budget/decision
========  ===============================  ===========  =================
easy      rollouts, with noisy choices     4            0.05 s
medium    rollouts                         16           0.15 s
hard      double-dummy                     12           0.35 s
expert    double-dummy                     32           0.75 s
========  ===============================  ===========  =================

Budgets are for one decision on one core; the bot stops sampling when either the deal count or
the budget runs out (never below ``min_deals``), so ``expert`` stays under a second at p95.
Without the double-dummy solver, the levels that use it fall back to rollouts.
"""

from __future__ import annotations

from .pimc import SearchConfig, pimc_bot
from ..bots.base import register_bot

LEVELS: dict[str, SearchConfig] = {
    "easy": SearchConfig(max_deals=4, min_deals=2, budget_s=0.05, enumerate_limit=4, root_deals=4,
                         evaluator="rollout", inference=False, noise=0.6),
    "medium": SearchConfig(max_deals=16, min_deals=4, budget_s=0.15, enumerate_limit=16, root_deals=12,
                           evaluator="rollout"),
    "hard": SearchConfig(max_deals=12, min_deals=4, budget_s=0.35, enumerate_limit=24, root_deals=16,
                         evaluator="dd"),
    "expert": SearchConfig(max_deals=32, min_deals=6, budget_s=0.75, enumerate_limit=48, root_deals=24,
                           evaluator="dd"),
}

_DESCRIPTIONS = {
    "easy": "beginner: a little search with noisy choices",
    "medium": "club player: sampled deals scored by rollouts",
    "hard": "strong: sampled deals scored by the double-dummy solver",
    "expert": "strongest: more sampled deals, inference from others' play, under 1 s a move",
}

for _name, _cfg in LEVELS.items():
    _factory = pimc_bot(_cfg)
    register_bot(_name, (lambda f, n: (lambda seed=None, **kw: f(seed=seed, name=n)))(_factory, _name),
                 _DESCRIPTIONS[_name])
