"""The terminal's own words in English, Ukrainian and Polish (``play``, ``cards``, ``score``).

Strings are written in English in the code, as ``tr("Your hand")`` or
``tr("{who}'s turn", who=...)``; the English text is the message id, and the catalogs
(:mod:`.uk`, :mod:`.pl`) map it to its translation. Counted words go through
``ntr("{n} card", "{n} cards", n)``, whose catalog entry holds the language's plural forms
(one, few, many), chosen by the CLDR rules (:func:`plural_form`, through Babel): every
sentence the terminal shows with a number goes through it. A message missing from a catalog
falls back to English; a test checks that none is missing. Terms follow the rulebooks
(``shared/rules``) and the web UI's translations (``redtable/web/static/i18n``). Card names
and rules texts come from the games' galleries in the same language.

The language is chosen once per command (:func:`set_lang`), from ``--lang`` or the
environment (:func:`detect`): ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` and ``LANGUAGE`` as
gettext reads them, e.g. ``LANG=uk_UA.UTF-8``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

LANGS = ("en", "uk", "pl")
LANG_NAMES = {"en": "English", "uk": "Українська", "pl": "Polski"}
_current = "en"
_catalogs: dict[str, dict] = {}


def _catalog(lang: str) -> dict:
    if lang not in _catalogs:
        if lang == "uk":
            from .uk import MESSAGES
        elif lang == "pl":
            from .pl import MESSAGES
        else:
            MESSAGES = {}
        _catalogs[lang] = MESSAGES
    return _catalogs[lang]


def _lang_of(value: str) -> str | None:
    """``uk``/``pl``/``en`` for a locale name such as ``uk_UA.UTF-8``; None if it is none of them."""
    code = value.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    return {"uk": "uk", "ua": "uk", "pl": "pl", "en": "en"}.get(code)


def detect(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it; English by default."""
    env = os.environ if environ is None else environ
    locale = ""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(var):
            locale = env[var]
            break
    if not locale or locale in ("C", "POSIX") or locale.startswith(("C.", "POSIX.")):
        return "en"  # gettext ignores LANGUAGE under the C locale
    for part in env.get("LANGUAGE", "").split(":"):
        if part and _lang_of(part):
            return _lang_of(part)  # type: ignore[return-value]
    return _lang_of(locale) or "en"


def resolve(lang: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language for ``--lang VALUE`` (None: from the environment). Raises ValueError for
    a language that is not offered."""
    if lang is None or not lang.strip():
        return detect(environ)
    found = _lang_of(lang)
    if found is None:
        raise ValueError(f"unknown language {lang[:40]!r}; choose one of: {', '.join(LANGS)}")
    return found


def set_lang(lang: str) -> None:
    global _current
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}")
    _current = lang


def get_lang() -> str:
    return _current


def tr(msgid: str, /, **kw: Any) -> str:
    """``msgid`` in the current language, formatted with ``kw``."""
    text = _catalog(_current).get(msgid, msgid) if _current != "en" else msgid
    if isinstance(text, tuple):
        text = text[0]
    return text.format(**kw) if kw else text


_FORM_INDEX = {"one": 0, "few": 1, "many": 2, "other": 2}


@cache
def _plural_rule(lang: str) -> Callable[[int], str]:
    from babel import Locale

    return Locale.parse(lang).plural_form


def plural_form(n: int, lang: str | None = None) -> int:
    """0 (one), 1 (few) or 2 (many) for ``n`` in ``lang``: the CLDR plural rules, as Babel
    ships them (the page asks ``Intl.PluralRules`` the same). English: 0 (one) or 2 (other)."""
    lang = lang or _current
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}")
    return _FORM_INDEX[_plural_rule(lang)(abs(int(n)))]


def ntr(singular: str, plural: str, n: int, /, **kw: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language, formatted with
    ``n`` and ``kw``."""
    kw.setdefault("n", n)
    if _current == "en":
        text = singular if n == 1 else plural
    else:
        forms = _catalog(_current).get(singular)
        if isinstance(forms, tuple):
            text = forms[min(plural_form(n), len(forms) - 1)]
        elif isinstance(forms, str):
            text = forms
        else:
            text = singular if n == 1 else plural
    return text.format(**kw)


__all__ = ["LANGS", "LANG_NAMES", "detect", "resolve", "set_lang", "get_lang", "tr", "ntr", "plural_form"]
