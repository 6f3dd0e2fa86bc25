"""redtable: Red Rising and Red North, one engine for play, scoring, bots and research."""

__version__ = "0.1.0"
