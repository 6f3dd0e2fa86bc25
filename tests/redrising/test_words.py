"""The words of Red Rising's decisions and events, in English, Ukrainian and Polish.

* A card's own question (``say`` in the decision's context, :mod:`redtable.redrising.words`):
  every optional clause of the 112 cards has its text and its option labels in the three
  languages, naming the card it is about and the location it happens at; Martyr and Justice
  name their location, Mickey the Carver keeps "may" and "Red".
* The public part of a pending decision (``about`` in the view) names nothing hidden.
* The terminal renders every decision kind and every event kind of random games in the three
  languages without "None", placeholders or English left in a Ukrainian or Polish sentence.
"""

from __future__ import annotations

import random
import re

import pytest
from rich.text import Text

from redtable.i18n import set_lang
from redtable.redrising import abilities  # noqa: F401  (registers the encodings)
from redtable.redrising.cards import CARDS, NAME, SLUG, card_index
from redtable.redrising.game import RedRising
from redtable.redrising.rules import DEPLOY, END_OF_GAME
from redtable.redrising.words import LANGS, public_about, say, uk_needs_fallback

OPTIONAL = {"may": "may", "gold_reveal_instead": "instead", "lowcaste_may_banish_from_hand": "none"}
CYRILLIC = re.compile(r"[а-яіїєґ]", re.I)
POLISH_OR_PLAIN = re.compile(r"^[^а-яіїєґ]*$", re.I)
# English words that must not appear in a Ukrainian or Polish sentence (card names removed first).
ENGLISH = re.compile(
    r"\b(the|and|your|you|from|with|choose|gain|gains|deploy|deploys|card|cards|banish|"
    r"banishes|place|places|reveal|reveals|player|turn|skip|don't|none|location|deck|"
    r"top|bottom|into|onto|their|which)\b",
    re.I,
)


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_lang("en")


def clauses():
    """(card, node, mode) for every optional clause in the cards' deploy and end-of-game abilities."""
    out = []

    def walk(n, card):
        if isinstance(n, tuple) and n and isinstance(n[0], str):
            kind = n[0]
            if kind in OPTIONAL:
                out.append((card, n, OPTIONAL[kind]))
            elif kind in ("choose_card", "highcaste_choose_card") and n[4]:
                out.append((card, n, "none"))
            elif kind == "highcaste_choose_hand" and n[3]:
                out.append((card, n, "none"))
            elif kind == "highcaste_choose_banished" and n[3]:
                out.append((card, n, "none" if n[4] == 1 else "stop"))
            elif kind in ("highcaste_choose_one", "highcaste_split"):
                out.append((card, n, "one"))
            for x in n[1:]:
                walk(x, card)
        elif isinstance(n, tuple):
            for x in n:
                walk(x, card)

    for table in (DEPLOY, END_OF_GAME):
        for c, effect in table.items():
            walk(effect, c)
    return out


def test_the_cards_have_optional_clauses_of_every_kind():
    modes = {m for _, _, m in clauses()}
    assert modes == {"may", "instead", "none", "stop", "one"}
    assert len(clauses()) >= 35


@pytest.mark.parametrize("card, node, mode", clauses(), ids=lambda x: SLUG[x] if isinstance(x, int) else None)
def test_every_optional_clause_has_its_words_in_every_language(card, node, mode):
    bound = card_index("vlogger")  # a card an ability may be about ("that card")
    words = say(node, bound, 1, mode)
    assert set(words) == set(LANGS)
    for lang in LANGS:
        w = words[lang]
        texts = [w["text"], *(w[k] for k in ("yes", "no", "none") if k in w), *(w.get("options") or {}).values()]
        for t in texts:
            assert t and t == t.strip() and not re.search(r"[{}]|\bNone\b|that card|this location", t), (lang, t)
            assert t[0].isupper() or t[0].isdigit() or t[0] in "«„", (lang, t)
        if lang == "uk":
            assert all(CYRILLIC.search(t) for t in texts), texts
        if lang != "en":
            stripped = [re.sub("|".join(map(re.escape, sorted(NAME, key=len, reverse=True))), "", t) for t in texts]
            assert not any(ENGLISH.search(t) for t in stripped), texts
    en = words["en"]
    if mode == "may":
        assert en["no"] == "Don't " + en["yes"][0].lower() + en["yes"][1:]
        # the Ukrainian "no" says "не" with the verb in the imperfective, from the table
        assert words["uk"]["no"].startswith("Не "), words["uk"]["no"]
        assert words["pl"]["no"].startswith("Pomiń: ")
    if mode == "none":
        assert en["none"].startswith("Skip: don't ")
        assert words["uk"]["none"].startswith("Не ")
    if mode in ("may", "none"):
        body = words["uk"]["text"].split(". ")[0].removeprefix("Можете ")
        assert not uk_needs_fallback(body[0].lower() + body[1:]), body
    if mode == "one":
        labels = [lbl for lbl, _ in node[1:]]
        assert all(set(words[lang]["options"]) == set(labels) for lang in LANGS)


def test_may_about_a_card_names_it():
    """Bridge: "You may gain that card" about Sevro reads "Gain Sevro" / "Don't gain Sevro"."""
    may = next(n for c, n, m in clauses() if SLUG[c] == "bridge" and m == "may")
    w = say(may, card_index("sevro"), 1, "may")
    assert (w["en"]["yes"], w["en"]["no"]) == ("Gain Sevro", "Don't gain Sevro")
    assert w["en"]["text"] == "You may gain Sevro. If you do, end your turn."
    # Sevro's name is not declined by the table: named through "карту" (which takes the case)
    assert (w["uk"]["yes"], w["uk"]["no"]) == ("Взяти карту «Севро»", "Не брати карту «Севро»")
    assert (w["pl"]["yes"], w["pl"]["no"]) == ("Zyskaj Sevra", "Pomiń: zyskać Sevra")
    w = say(may, card_index("fitchner"), 1, "may")  # a name with its cases
    assert (w["uk"]["yes"], w["uk"]["no"]) == ("Взяти Фічнера", "Не брати Фічнера")


def test_sevro_offers_to_reveal_the_howlers_or_banish():
    node = next(n for c, n, m in clauses() if SLUG[c] == "sevro" and m == "instead")
    w = say(node, card_index("fitchner"), 0, "instead")
    assert (w["en"]["yes"], w["en"]["no"]) == ("Reveal The Howlers to gain Fitchner instead", "Banish Fitchner")
    assert w["uk"]["yes"].startswith("Розкрити Ревунів") and w["uk"]["no"] == "Вигнати Фічнера"
    assert w["pl"]["yes"].startswith("Odsłoń Wyjców") and w["pl"]["no"].startswith("Odrzuć")


@pytest.mark.parametrize(
    "card, loc, words",
    [
        ("martyr", 1, {"en": "from Mars", "uk": "Марса", "pl": "z Marsa"}),
        ("justice", 2, {"en": "from Luna", "uk": "Місяця", "pl": "z Luni"}),
    ],
)
def test_martyr_and_justice_say_where_the_card_comes_from(card, loc, words):
    """Their end-of-game gain is from one location: the prompt names it (the engine runs the
    choice with that location as "this location")."""
    st = _end_of_game_choice(card)
    d = st.decision()
    assert d.kind == "choose_card" and all(o.startswith(("mars:", "luna:")[loc - 1]) for o in d.options)
    for lang in LANGS:
        assert words[lang] in d.context["say"][lang]["text"], d.context["say"][lang]["text"]


def _end_of_game_choice(card: str):
    """A game whose end-of-game phase asks the holder of ``card`` (with the Sovereign token)."""
    for seed in range(400):
        st = RedRising(2).new_initial_state(seed)
        rnd = random.Random(seed)
        while (d := st.decision()) is not None:
            if d.kind == "choose_card" and d.context.get("card") == card:
                return st
            st.apply(rnd.choice(d.options))
    pytest.skip(f"no game of the first 400 seeds asks {card}'s end-of-game choice")


def test_mickey_the_carver_keeps_may_and_red():
    node = next(n for c, n, m in clauses() if SLUG[c] == "mickey-the-carver")
    w = say(node, None, 2, "none")
    assert w["en"]["text"].startswith("You may banish a Red from your hand.")
    assert w["en"]["none"] == "Skip: don't banish a Red from your hand"
    assert (
        w["uk"]["text"].startswith("Можете вигнати червоного")
        and w["uk"]["none"] == "Не виганяти червоного з вашої руки"
    )
    assert w["pl"]["text"].startswith("Możesz odrzucić Czerwonego") and w["pl"]["none"].startswith(
        "Pomiń: odrzucić Czerwonego"
    )


def test_a_search_copy_skips_the_words():
    for seed in range(60):
        st = RedRising(3).new_initial_state(seed)
        rnd = random.Random(seed)
        while (d := st.decision()) is not None:
            copy = st.clone().for_search()
            a = rnd.choice(d.options)
            st.apply(a)
            copy.apply(a)  # the copy builds its next decision itself
            nxt = st.decision()
            if nxt is not None and nxt.kind == "may":
                assert "say" in nxt.context
                assert "say" not in copy.decision().context and copy.decision().options == nxt.options
                return
    pytest.fail("no 'may' decision in 60 games")


# ====================================================================== what the others see
ABOUT_KEYS = {"card", "attacker", "thief", "target", "by", "lender", "for", "location", "source", "house"}


@pytest.mark.parametrize("players, seed", [(2, 1), (4, 2), (6, 3)])
def test_the_public_part_of_a_decision_names_nothing_hidden(players, seed):
    from redtable.core import Rng

    st = RedRising(players).new_initial_state(seed)
    rnd = random.Random(seed)
    kinds = set()
    while (d := st.decision()) is not None:
        for q in range(players):
            if q == d.player:
                continue
            vd = st.view(q)["decision"]
            assert vd["player"] == d.player and vd["kind"] == d.kind and "options" not in vd and "context" not in vd
            about = vd.get("about", {})
            assert set(about) <= ABOUT_KEYS, about
            if st.phase == "play":
                for _ in range(2):  # a re-deal of everything q cannot see leaves it unchanged
                    assert st.resample(q, Rng(rnd.randrange(1 << 30))).view(q)["decision"].get("about", {}) == about
                hidden = {SLUG[c] for p, hand in enumerate(st.hands) if p != q for c in hand} - {
                    SLUG[c] for c in st.known[q]
                }
                assert about.get("card") not in hidden, (d.kind, about)
            kinds.add(d.kind)
        st.apply(rnd.choice(d.options))
    assert {"action", "deploy_location", "gain"} <= kinds
    assert public_about("deploy_location", {"card": "darrow", "source": "hand"}) == {}


# ====================================================================== the terminal, in three languages
def _plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def _renderer(st, players):
    from redtable.play.common import Seat
    from redtable.play.render_redrising import RedRisingRenderer

    return RedRisingRenderer(st, [Seat(i, human=i == 0, bot_spec=None if i == 0 else "random") for i in range(players)])


NAMES_RE = re.compile("|".join(map(re.escape, sorted((c.name for c in CARDS), key=len, reverse=True))))


def _problems(lang: str, where: str, text: str) -> list[str]:
    out = []
    if not text.strip():
        out.append(f"{lang} {where}: empty")
    if re.search(r"[{}]|\bNone\b|\bnone\b(?! yet)|\bplayer \d\b|_", text):
        out.append(f"{lang} {where}: artifact in {text!r}")
    if lang != "en":
        bare = NAMES_RE.sub("", text)
        if ENGLISH.search(bare):
            out.append(f"{lang} {where}: English in {text!r}")
        if lang == "uk" and not CYRILLIC.search(bare):
            out.append(f"{lang} {where}: no Ukrainian in {text!r}")
    return out


@pytest.mark.parametrize("players, seeds", [(2, range(3)), (4, range(3)), (6, range(2))])
def test_the_terminal_says_every_decision_and_event_in_three_languages(players, seeds):
    problems, kinds, events = [], set(), set()
    for seed in seeds:
        st = RedRising(players).new_initial_state(seed)
        rnd = random.Random(seed)
        r = _renderer(st, players)
        while (d := st.decision()) is not None:
            for lang in LANGS:
                set_lang(lang)
                problems += _problems(lang, f"explain {d.kind}", _plain(r.explain(st, d)))
                problems += _problems(
                    lang, f"label {d.kind}", r.decision_label(d.kind)
                )  # the move lines' "▶ who label:"
                if r.public_move(st, d, d.options[0]) is None:
                    problems += _problems(lang, f"hidden move {d.kind}", r.hidden_move(d))
                for o, (label, _details) in zip(d.options, r.option_rows(st, d), strict=True):
                    if lang != "en" and (o in SLUG or o.startswith("block:") or re.fullmatch(r"p\d", o)):
                        continue  # a card's or a seat's name, as printed
                    problems += _problems(lang, f"option {d.kind} {o}", _plain(label))
            kinds.add(d.kind)
            st.apply(rnd.choice(d.options))
        for e in st.events:
            for lang in LANGS:
                set_lang(lang)
                line = r.format_event(e, 0)
                if line:
                    problems += _problems(lang, f"event {e.kind}", _plain(line))
            events.add(e.kind)
        set_lang("en")
    assert {"action", "gain", "deploy_location"} <= kinds and {"deploy", "gain", "turn"} <= events
    assert not problems, f"{len(problems)} problems, e.g.:\n" + "\n".join(sorted(set(problems))[:30])
