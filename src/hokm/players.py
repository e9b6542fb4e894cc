"""The named players: every bot and level this project offers, built from a spec string.

A spec is a registered name (``"random"``, ``"heuristic"``, a level such as ``"expert"``,
``"oracle"``) or a prefix form: ``"cmd:./my_bot"`` runs a bot program
(:mod:`hokm.bots.external`), ``"pimc:expert,key=value"`` a level with tuned search settings
(:func:`hokm.search.levels.tuned_bot`).

The list is written out here, once, for whoever builds a player list (``hokm play``, the arena,
the server's bot pool, the benchmarks): no module registers itself as a side effect of being
imported. A driver may add its own entries with :func:`register_bot` (tests do).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .bots.base import Bot
from .bots.external import external_bot
from .bots.heuristic import HeuristicBot
from .bots.random_bot import RandomBot
from .search.levels import DESCRIPTIONS, LEVELS, REFERENCES, level_bot, tuned_bot


@dataclass(frozen=True)
class BotSpec:
    name: str
    factory: Callable[..., Bot]
    description: str
    public: bool = True  # offered to players (the server, ``hokm play``)


def _level(name: str) -> Callable[..., Bot]:
    return lambda seed=None, **_: level_bot(name, seed=seed)


def _oracle(seed: int | None = None, **kwargs) -> Bot:
    # The solver's compiled kernels load with it: only when an oracle is asked for, not at start-up.
    from .search.oracle import OracleBot

    return OracleBot(**kwargs)


def _standard() -> tuple[dict[str, BotSpec], dict[str, Callable[..., Bot]]]:
    specs = [
        BotSpec("random", lambda seed=None, **_: RandomBot(seed), "uniformly random legal moves"),
        # The reference every level is measured against (docs/strength.md), not a public level: over 200
        # games it is no clear step between medium and hard (hokm.server.levels).
        BotSpec("heuristic", lambda seed=None, **_: HeuristicBot(seed),
                "rule-based player: card memory, hokm lâzem, boridan and rad kardan", public=False),
        *(BotSpec(name, _level(name), DESCRIPTIONS[name]) for name in LEVELS),
        # Earlier versions of a level, kept to measure the new one against (hokm.search.levels.REFERENCES).
        *(BotSpec(name, _level(name), DESCRIPTIONS[name], public=False) for name in REFERENCES),
        BotSpec("oracle", _oracle,
                "omniscient double-dummy reference (sees every hand; for measurement only)", public=False),
    ]
    prefixes: dict[str, Callable[..., Bot]] = {"cmd": external_bot, "pimc": tuned_bot}
    return {s.name: s for s in specs}, prefixes


_REGISTRY, _PREFIXES = _standard()


def register_bot(name: str, factory: Callable[..., Bot], description: str, *, public: bool = True) -> None:
    """Add ``factory(seed=..., **kwargs) -> Bot`` under ``name`` (a driver's own bots, tests)."""
    _REGISTRY[name] = BotSpec(name, factory, description, public)


def available_bots(public_only: bool = False) -> list[BotSpec]:
    return [s for s in _REGISTRY.values() if s.public or not public_only]


def make_bot(spec: str, *, seed: int | None = None, **kwargs) -> Bot:
    """Build a bot from its spec; raise ``ValueError`` naming the known specs otherwise."""
    if ":" in spec:
        prefix, arg = spec.split(":", 1)
        if prefix in _PREFIXES:
            return _PREFIXES[prefix](arg, seed=seed, **kwargs)
    if spec in _REGISTRY:
        return _REGISTRY[spec].factory(seed=seed, **kwargs)
    known = ", ".join(sorted(_REGISTRY)) + "".join(f", {p}:..." for p in sorted(_PREFIXES))
    raise ValueError(f"unknown bot {spec!r} (known: {known})")

__all__ = ["BotSpec", "available_bots", "make_bot", "register_bot"]
