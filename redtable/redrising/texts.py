"""The English rules text of effect nodes: the registry of text renderers, one per effect
primitive, and the renderer itself.

The effect primitives register their renderers here (:func:`redtable.redrising.effects.text_for`
and the ability families write into :data:`TEXT`); everything that only *says* an effect
(the prompts' words, the other languages' fallback to English) reads it from here, so it
does not depend on the modules that *run* effects (``effects`` -> ``engine`` -> ``words``
-> ``texts``, one way). When nothing has registered yet (a text asked for before any
engine module was imported), the abilities are loaded by name, the way ``core.registry``
names the games.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

#: Primitive name -> its English renderer (filled by the effect and ability modules).
TEXT: dict[str, Callable[[tuple], str]] = {}

_ABILITIES = "redtable.redrising.abilities"  # importing it registers every primitive


def render_en(node: tuple) -> str:
    """The English rules text of an effect node."""
    fn = TEXT.get(node[0])
    if fn is None:
        importlib.import_module(_ABILITIES)
        fn = TEXT[node[0]]
    return fn(node)


_RENDERED: dict[int, tuple[tuple, str]] = {}


def render_cached(node: tuple) -> str:
    """:func:`render_en`, remembered per node object (a decision's context text, built on
    every offer of the decision). The node is kept with its text, so its id stays its own."""
    hit = _RENDERED.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    text = render_en(node)
    if len(_RENDERED) >= 20000:
        _RENDERED.clear()
    _RENDERED[id(node)] = (node, text)
    return text
