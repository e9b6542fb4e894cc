"""The bot interface and the registry of named bot specs.

A bot is asked for one decision at a time and is given only the :class:`~hokm.engine.SeatView`
of its seat, so it cannot see hidden cards by construction. The only exception is
:class:`OmniscientBot` (the ``oracle`` reference): drivers hand it the full game explicitly, and
the registry marks it as not for players.

Specs are strings: a registered name (``"random"``, ``"heuristic"``, a difficulty level), or a
prefix form such as ``"cmd:./my_bot"`` handled by a registered prefix factory.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..engine.actions import Action
from ..engine.view import SeatView

if TYPE_CHECKING:
    from ..engine.game import Game


class BotFailure(RuntimeError):
    """A bot could not produce a legal decision: it crashed, timed out or answered illegally.

    Drivers (the arena, the server) catch it and forfeit that game for the bot's side, reporting
    the message, so one broken bot never takes the whole run down with it.
    """

    def __init__(self, message: str, *, bot: str | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.bot = bot
        self.seat = seat


class Bot(ABC):
    """A player. ``act`` must return one of ``view.legal``."""

    name: str = "bot"

    @abstractmethod
    def act(self, view: SeatView) -> Action:
        """Choose an action for ``view.seat``; called only when it is that seat's turn."""

    def close(self) -> None:
        """Release resources (processes, pools). Called once by the driver at the end."""


class OmniscientBot(Bot):
    """A reference bot that plays with every card visible; never offered to players."""

    @abstractmethod
    def act_with_state(self, view: SeatView, game: "Game") -> Action:
        """Choose with the full game; drivers call this instead of :meth:`act`."""

    def act(self, view: SeatView) -> Action:  # pragma: no cover - drivers never call it
        raise TypeError(f"{self.name} needs the full game: call act_with_state")


@dataclass(frozen=True)
class BotSpec:
    name: str
    factory: Callable[..., Bot]
    description: str
    public: bool = True  # offered to players (the server, ``hokm play``)


_REGISTRY: dict[str, BotSpec] = {}
_PREFIXES: dict[str, Callable[..., Bot]] = {}
#: Modules that register bots when imported; loaded lazily by :func:`make_bot`.
_PROVIDERS = ("hokm.bots.random_bot", "hokm.bots.heuristic", "hokm.search.levels", "hokm.bots.external",
              "hokm.bots.oracle")
_loaded = False


def register_bot(name: str, factory: Callable[..., Bot], description: str, *, public: bool = True) -> None:
    """Register ``factory(seed=..., **kwargs) -> Bot`` under ``name``."""
    _REGISTRY[name] = BotSpec(name, factory, description, public)


def register_prefix(prefix: str, factory: Callable[..., Bot]) -> None:
    """Register a factory for specs ``"prefix:argument"``, called as ``factory(argument, seed=...)``."""
    _PREFIXES[prefix] = factory


def _load_providers() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in _PROVIDERS:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name is None or not mod.startswith(e.name):
                raise


def available_bots(public_only: bool = False) -> list[BotSpec]:
    _load_providers()
    return [s for s in _REGISTRY.values() if s.public or not public_only]


def make_bot(spec: str, *, seed: int | None = None, **kwargs) -> Bot:
    """Build a bot from its spec; raise ``ValueError`` naming the known specs otherwise."""
    _load_providers()
    if ":" in spec:
        prefix, arg = spec.split(":", 1)
        if prefix in _PREFIXES:
            return _PREFIXES[prefix](arg, seed=seed, **kwargs)
    if spec in _REGISTRY:
        return _REGISTRY[spec].factory(seed=seed, **kwargs)
    known = ", ".join(sorted(_REGISTRY)) + "".join(f", {p}:..." for p in sorted(_PREFIXES))
    raise ValueError(f"unknown bot {spec!r} (known: {known})")
