"""Card texts that must say what the card says: what a pronoun points at, and how far a
condition or a modal reaches.

A native reader found four cards whose texts told a player something the card does not
say. Each is pinned here in English, Ukrainian and Polish, and so is the renderer's rule
that made it, so no other card built the same way inherits it:

* a pronoun for the bound card after a clause that names this card reads as this card
  (Online Gambler's «Інакше виженіть її»): it becomes a noun phrase ("the revealed card");
* "your hand" under "each player:" is the active player's (Hypnotist's «з вашої руки»):
  it is the player's own («зі своєї руки»);
* "If you do" followed by free sentences reads as if only the first were conditional
  (Alfrun's "If you do, regain this card. End your turn."): it governs them all;
* a clause going on from «можете» / «możesz» keeps the modal's infinitive («…потім взяти»),
  not an imperative (Justice and Martyr's blocks).
"""

from __future__ import annotations

import re

import pytest

from redtable.redrising import abilities  # noqa: F401  (registers every ability)
from redtable.redrising.gallery import TEXT_FIELDS, card_texts, gallery
from redtable.redrising.lang import render
from redtable.redrising.lang.tables import lang as get_lang

H = "highcaste_"


def _texts(slug: str, field: str) -> dict[str, str]:
    return {lang: card_texts(slug, lang)[field] for lang in ("en", "uk", "pl")}


# ---------------------------------------------------------------------------- the four cards
def test_online_gambler_names_the_revealed_card():
    assert _texts("online-gambler", "deploy") == {
        "en": "Name 3 colors, then reveal the top card of the deck. If it matches a color you named, gain that "
        "card, then banish this card. Otherwise, banish that card.",
        "uk": "Назвіть 3 кольори, потім розкрийте верхню карту колоди. Якщо колір тієї карти — один із "
        "названих вами, візьміть її, потім виженіть цю карту. Інакше виженіть розкриту карту.",
        "pl": "Nazwij 3 kolory, a następnie odsłoń wierzchnią kartę ze stosu. Jeśli kolor tamtej karty jest "
        "jednym z nazwanych przez ciebie, zyskaj ją, a następnie odrzuć tę kartę. W przeciwnym razie "
        "odrzuć odsłoniętą kartę.",
    }


def test_hypnotist_each_player_banishes_from_their_own_hand():
    assert _texts("hypnotist", "deploy") == {
        "en": "In clockwise order starting with you, each player: banish 1 card from your hand and gain the top "
        "card of the deck.",
        "uk": "За годинниковою стрілкою, починаючи з вас, кожен гравець: виженіть 1 карту зі своєї руки й "
        "візьміть верхню карту колоди.",
        "pl": "Zgodnie z ruchem wskazówek zegara, zaczynając od ciebie, każdy gracz: odrzuć 1 kartę ze swojej "
        "ręki i zyskaj wierzchnią kartę ze stosu.",
    }
    # the end-of-game swap is the reader's own: "your hand" as before
    assert _texts("hypnotist", "end_of_game") == {
        "en": "Banish 1 other card from your hand and gain the top card of the deck.",
        "uk": "Виженіть 1 іншу карту з вашої руки й візьміть верхню карту колоди.",
        "pl": "Odrzuć 1 inną kartę ze swojej ręki i zyskaj wierzchnią kartę ze stosu.",
    }


@pytest.mark.parametrize(
    ("slug", "uk", "pl"),
    [("alfrun", "Нерона або Джофо", "Nerona lub Jopho"), ("jopho", "Альфрун або Нерона", "Alfrun lub Nerona")],
    ids=["alfrun", "jopho"],
)
def test_alfrun_and_jopho_end_the_turn_only_if_you_gained(slug, uk, pl):
    en = "Nero or Jopho" if slug == "alfrun" else "Alfrun or Nero"
    assert _texts(slug, "deploy") == {
        "en": f"You may gain {en} from this location. If you do, regain this card, then end your turn.",
        "uk": f"Можете взяти {uk} із цієї зони. Якщо ви це зробите, поверніть цю карту собі на руку, потім "
        "завершіть ваш хід.",
        "pl": f"Możesz zyskać {pl} z tej lokacji. Jeśli to zrobisz, weź tę kartę z powrotem na rękę, a następnie "
        "zakończ swoją turę.",
    }


@pytest.mark.parametrize("slug", ["justice", "martyr"])
def test_justice_and_martyr_block_keeps_the_infinitive(slug):
    assert _texts(slug, "block") == {
        "en": "If an opponent tries to take the Sovereign token from you, you may block them by revealing and "
        "banishing this card, then gain the top card of the deck.",
        "uk": "Якщо суперник намагається забрати у вас фішку володарювання, можете заблокувати його, розкривши "
        "й вигнавши цю карту, потім взяти верхню карту колоди.",
        "pl": "Jeśli przeciwnik próbuje zabrać ci znacznik Suwerena, możesz go zablokować, odsłaniając i "
        "odrzucając tę kartę, a następnie zyskać wierzchnią kartę ze stosu.",
    }


# ---------------------------------------------------------------------------- the rules behind them
def test_a_pronoun_after_this_card_becomes_a_noun_phrase():
    node = ("top_of_deck", ("seq", ("banish_self",), ("gain_c",)))
    assert render(node, "uk") == "Розкрийте верхню карту колоди. Виженіть цю карту. Візьміть розкриту карту."
    assert render(node, "pl") == "Odsłoń wierzchnią kartę ze stosu. Odrzuć tę kartę. Zyskaj odsłoniętą kartę."
    # once named again, "it" is the bound card again
    node = ("top_of_deck", ("seq", ("banish_self",), ("gain_c",), ("banish_c",)))
    assert render(node, "uk").endswith("Візьміть розкриту карту. Виженіть її.")
    # a card bound by choice is "that card" again
    node = ("choose_card", "this", (), ("seq", ("gain_c",), ("banish_self",), ("banish_c",)), False)
    assert render(node, "uk") == "Візьміть карту із цієї зони. Виженіть цю карту. Виженіть ту карту."
    # a first mention is the full phrase, whatever came before it
    node = ("choose_card", "this", (), ("seq", ("banish_self",), ("gain_c",), ("banish_c",)), False)
    assert render(node, "uk") == "Виженіть цю карту. Візьміть карту із цієї зони. Виженіть її."
    # without "this card" in between, the pronoun stays (Calliope)
    assert card_texts("calliope", "uk")["deploy"] == "Розкрийте верхню карту колоди. Призначте її горілиць в іншу зону."


def test_a_pronoun_of_another_gender_than_this_card_stays():
    # «його» (a Gold, masculine) cannot point at «цю карту»; «ту карту» would only be heavier
    assert "Можете взяти його." in card_texts("colonel-valentin", "uk")["deploy"]
    assert "Możesz go zyskać." in card_texts("colonel-valentin", "pl")["deploy"]
    # the same construction with a card (feminine) is named: Conversationalist, as in English
    assert _texts("conversationalist", "deploy") == {
        "en": "Move a card on top of another location to directly under this card. If it's a White, gain that card.",
        "uk": "Перемістіть верхню карту іншої зони безпосередньо під цю карту. Якщо це білий, візьміть ту карту.",
        "pl": "Przenieś wierzchnią kartę innej lokacji bezpośrednio pod tę kartę. Jeśli jest to Biały, zyskaj "
        "tamtą kartę.",
    }


def test_the_bound_cards_own_phrase_does_not_count_as_this_card():
    # "the card directly under this one" names the bound card: the pronoun stays (Sevro)
    assert card_texts("sevro", "uk")["deploy"] == (
        "Виженіть карту безпосередньо під цією. Можете розкрити Ревунів, щоб натомість взяти її."
    )


def test_each_player_and_that_opponent_use_their_own_hand():
    swap = (H + "swap", ())
    for node in ((H + "each_player", swap, True, None), (H + "as_q", swap)):
        assert "зі своєї руки" in render(node, "uk")
        assert "ze swojej ręki" in render(node, "pl")
    assert "з вашої руки" in render(swap, "uk")


def test_if_you_do_governs_every_following_sentence():
    node = ("may", ("helium", 1), None, ("seq", ("regain_self",), ("end_turn",)))
    assert render(node, "en") == "You may gain 1 Helium. If you do, regain this card, then end your turn."
    assert render(node, "uk").endswith("Якщо ви це зробите, поверніть цю карту собі на руку, потім завершіть ваш хід.")
    assert render(node, "pl").endswith(
        "Jeśli to zrobisz, weź tę kartę z powrotem na rękę, a następnie zakończ swoją turę."
    )
    # every English "If you do" of the 112 cards ends its text: nothing after it reads as unconditional
    for card in gallery("en"):
        for field in TEXT_FIELDS:
            text = card.get(field, "")
            if "If you do, " in text:
                assert ". " not in text.split("If you do, ", 1)[1], (card["card"], text)


def _imperatives(code: str) -> set[str]:
    """The words of every (imperative, infinitive) template that its infinitive lacks: the
    imperative verbs ("візьміть", "zyskaj"). Two tables hold pairs of another kind."""
    P = get_lang(code).P
    pairs = [
        v for k, v in P.items() if isinstance(v, tuple) and len(v) == 2 and k not in ("b_leads", "any_one_banished")
    ]
    words = re.compile(r"[^\W\d_]+")
    verbs = {w for imp, inf in pairs for w in set(words.findall(imp)) - set(words.findall(inf))}
    return verbs - {"усі"}  # «усі» / «всі» differ by euphony, not by mood


@pytest.mark.parametrize(("code", "modal"), [("uk", "можете"), ("pl", "możesz")], ids=["uk", "pl"])
def test_no_imperative_in_a_clause_after_you_may(code, modal):
    imperatives = _imperatives(code)
    assert {"візьміть", "zyskaj"} & imperatives  # not vacuous
    seen = 0
    for card in gallery(code):
        for field in TEXT_FIELDS:
            for sentence in re.split(r"(?<=\.) ", card.get(field, "")):
                low = sentence.lower()
                if modal not in low:
                    continue
                seen += 1
                after = re.findall(r"[^\W\d_]+", low.split(modal, 1)[1])
                assert not imperatives & set(after), (card["card"], sentence)
    assert seen >= 20
