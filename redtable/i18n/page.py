"""The page's catalogs, read by the terminal too: a word or sentence that the browser and the
terminal both say is written once per language, in ``redtable/web/static/i18n/{en,uk,pl}.json``
(served to the page, whose ``i18n.js`` reads the same format: a string, or a dict of CLDR plural
categories for a sentence with ``{n}``; ``{name}`` placeholders).

The terminal's own sentences (rich markup, its seat labels) stay message ids in the code with
their translations in :mod:`.uk` and :mod:`.pl`; what moves here is what the page already says
in the same words (Red North's round names, a Party's ends). The file is read as data (no
import of the web package: the terminal needs no server to speak)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from . import LANGS, get_lang, plural_form

CATALOGS = Path(__file__).resolve().parents[1] / "web" / "static" / "i18n"
_CATEGORY = ("one", "few", "many")


@cache
def page_catalog(lang: str) -> dict[str, Any]:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}")
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def say(key: str, /, lang: str | None = None, **kw: Any) -> str:
    """The page's text for ``key`` in ``lang`` (default: the terminal's language), formatted
    with ``kw``; a plural entry takes the form for ``kw["n"]``. An unknown key is a KeyError:
    the catalogs' tests keep every key in every language."""
    lang = lang or get_lang()
    text = page_catalog(lang)[key]
    if isinstance(text, dict):
        text = text.get(_CATEGORY[plural_form(kw["n"], lang)]) or text["other"]
    return text.format(**kw) if kw else text
