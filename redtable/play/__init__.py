"""Terminal play: ``redtable play red-rising|red-north``.

A full game in the terminal with rich rendering: humans at the keyboard (hot-seat when
there are several), bots on the other seats. Everything a seat sees comes from the core
protocol (``state.view(player)``, ``state.events_for(player)``, ``state.describe``), so
the terminal never shows more than the engine lets that seat know.

* :mod:`.terminal` -- the ``play`` command and the game loop (input, hot-seat, log).
* :mod:`.render_redrising` / :mod:`.render_rednorth` -- each game's screens.
"""

from .terminal import play_command

__all__ = ["play_command"]
