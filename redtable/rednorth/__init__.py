"""Red North: the engine (``game``), its data (``cards``, ``gods``, ``outposts``) and resolution rules."""

from .game import RedNorth, RedNorthState

__all__ = ["RedNorth", "RedNorthState"]
