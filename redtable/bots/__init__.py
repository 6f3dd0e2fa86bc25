"""Bots: they see a game only through the core protocol (view, decision, resample)."""

from .base import Bot, make_bot
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "make_bot"]
