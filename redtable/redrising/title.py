"""Red Rising as a title: the one value every consumer reads (see :mod:`redtable.core.title`).

Parts in higher layers are named by dotted path, so importing this module imports nothing
but :mod:`redtable.core.title`.
"""

from __future__ import annotations

from ..core.title import Title

TITLE = Title(
    name="red-rising",
    game="redtable.redrising.game:RedRising",
    players=(2, 6),
    display={"en": "Red Rising", "uk": "Червоний світанок", "pl": "Red Rising"},
)
