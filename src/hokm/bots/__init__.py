"""Bots: players that see only ``view(seat)``. Build them by name with :func:`make_bot`."""

from .base import Bot, OmniscientBot, available_bots, make_bot, register_bot

__all__ = ["Bot", "OmniscientBot", "available_bots", "make_bot", "register_bot"]
