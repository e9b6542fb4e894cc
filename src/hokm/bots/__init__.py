"""Bots: players that see only ``view(seat)``. Build them by name with :func:`hokm.players.make_bot`."""

from .base import Bot, BotFailure, OmniscientBot

__all__ = ["Bot", "BotFailure", "OmniscientBot"]
