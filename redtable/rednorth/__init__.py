"""Red North: the engine (``game``), its data (``cards``, ``gods``, ``outposts``) and resolution rules."""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import RedNorth, RedNorthState


def __getattr__(name: str) -> Any:
    # the engine on first use, so that reading the title (``title.py``) imports no engine
    if name in ("RedNorth", "RedNorthState"):
        from . import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["RedNorth", "RedNorthState"]
