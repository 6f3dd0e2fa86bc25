"""The terminal reads the page's catalogs for what both say (:mod:`redtable.i18n.page`): the same
words in each language, a plural entry in its number's form, the terminal's language by default."""

from __future__ import annotations

import re

import pytest

from redtable.i18n import set_lang
from redtable.i18n.page import page_catalog, say
from redtable.play.render_rednorth import end_word, round_title


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_lang("en")


@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_the_terminal_says_rounds_and_ends_in_the_page_s_words(lang):
    set_lang(lang)
    page = page_catalog(lang)
    assert [round_title(r) for r in ("spring", "summer", "ragnarok")] == [
        page[f"rn.round.{r}"] for r in ("spring", "summer", "ragnarok")
    ]
    assert (end_word("left"), end_word("right")) == (page["rn.left"], page["rn.right"])
    assert round_title("summer") == {"en": "Summer", "uk": "Літо", "pl": "Lato"}[lang]


def test_plural_entries_take_their_number_s_form():
    key = next(
        k
        for k, v in page_catalog("uk").items()
        if isinstance(v, dict) and {"one", "few", "many"} <= set(v) and set(re.findall(r"\{(\w+)\}", str(v))) == {"n"}
    )
    forms = page_catalog("uk")[key]
    assert [say(key, lang="uk", n=n) for n in (1, 2, 5, 21, 22, 25)] == [
        forms[c].format(n=n)
        for c, n in zip(("one", "few", "many", "one", "few", "many"), (1, 2, 5, 21, 22, 25), strict=True)
    ]
    en = page_catalog("en")[key]
    assert say(key, lang="en", n=1) == en["one"].format(n=1) and say(key, lang="en", n=3) == en["other"].format(n=3)
    with pytest.raises(KeyError):
        say("rn.no_such_key")
