"""Bots: they see a game only through the core protocol (view, decision, resample).

``make_bot(spec, seed)`` builds one from a spec: ``random``, ``heuristic``, ``ismcts``,
``ismcts:2000it``, ``ismcts:0.5s`` (see :func:`redtable.bots.registry.make_bot`).
"""

from .base import Bot
from .heuristic import HeuristicBot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot
from .registry import BOTS, BotKind, bot_names, make_bot, parse_budget, register_bot

__all__ = [
    "BOTS",
    "Bot",
    "BotKind",
    "HeuristicBot",
    "ISMCTSBot",
    "RandomBot",
    "bot_names",
    "make_bot",
    "parse_budget",
    "register_bot",
]
