"""The phrase table of each language (:mod:`.uk`, :mod:`.pl`), by code.

Its own module, above :mod:`.core` (whose grammar and :class:`~.core.Lang` the tables are
built with), so that core does not import the tables that import it.
"""

from __future__ import annotations

from .core import Lang

_LANGS: dict[str, Lang] = {}


def lang(code: str) -> Lang:
    if code not in _LANGS:
        if code == "uk":
            from .uk import LANG
        elif code == "pl":
            from .pl import LANG
        else:
            raise ValueError(f"no card text renderer for language {code!r}")
        _LANGS[code] = LANG
    return _LANGS[code]
