"""Bots: players that see only ``view(seat)``. Build them by name with :func:`make_bot`."""

from .base import Bot, BotFailure, OmniscientBot, available_bots, make_bot, register_bot

__all__ = ["Bot", "BotFailure", "OmniscientBot", "available_bots", "make_bot", "register_bot"]
