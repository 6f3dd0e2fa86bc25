"""Bots: they see a game only through the core protocol (view, decision, resample).

``make_bot(spec, seed)`` builds one from a spec: ``random``, ``heuristic``, ``ismcts``,
``ismcts:2000it``, ``ismcts:0.5s`` (see :func:`redtable.bots.base.make_bot`).
"""

from .base import Bot, make_bot, parse_budget
from .heuristic import HeuristicBot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot

__all__ = ["Bot", "HeuristicBot", "ISMCTSBot", "RandomBot", "make_bot", "parse_budget"]
