"""English bonus text comes from bonuses.py; other languages from lang/, which reads it (one way)."""

import pytest

from redtable.redrising import bonuses, lang
from redtable.redrising.cards import card_index


def test_english_from_the_encoding_and_every_language_from_lang():
    janitor = card_index("Janitor")
    assert bonuses.bonus_text(janitor) == bonuses.bonus_text(janitor, "en") == lang.bonus_text(janitor, "en")
    assert lang.bonus_text(janitor, "uk") and lang.bonus_text(janitor, "uk") != lang.bonus_text(janitor, "en")


@pytest.mark.parametrize("code", ["uk", "pl", "de"])
def test_bonuses_refuses_other_languages_and_names_where_they_are(code):
    with pytest.raises(ValueError, match=rf"not '{code}'.*redtable\.redrising\.lang\.bonus_text"):
        bonuses.bonus_clauses_text(card_index("Janitor"), code)
