"""What a Red Rising decision says, in English, Ukrainian and Polish.

A card that asks a question ("You may gain that card", "You may banish a Red from your
hand") gives the decision's context a ``say`` entry: per language, the question as the
card words it, with the card it is about and the location it happens at named ("Gain
Sevro", "from Mars" rather than "that card", "this location"), and the labels of the
options whose meaning only the card gives:

* ``yes`` / ``no`` of a "may" ("Gain Sevro" / "Don't gain Sevro"),
* ``none`` of a choice that may be skipped ("Skip: don't gain a Gold from Mars"),
* ``options`` of a "choose one" (each option's effect: "Banish Sevro", "Gain 1 Helium"),

so the terminal and the browser show the same words, taken from the same encodings the
engine runs (:mod:`.effects` in English, :mod:`.lang` in Ukrainian and Polish). The
engine calls :func:`prompt_context` where it builds such a decision; a search bot's copy
(``quiet``) skips the words, which nobody reads there.

The negative labels avoid the case and aspect problems a blind "not" would make: Polish
wants the genitive after a negated verb, so it says "Pomiń: <what>" ("skip: ..."); Ukrainian
says "Не <verb>" with the imperfective infinitive of the clause's first verb (``UK_IMPERFECTIVE``),
and "Пропустити: <what>" for a verb the table does not know. The tests render every optional
clause of the 112 cards and check that no Ukrainian label needs that fallback.

:func:`public_about` is the part of a pending decision every seat may know (who asks, which
face-up card), for the words the other players see ("Bo is deciding whether to use Sevro").
"""

from __future__ import annotations

from typing import Any

from .board import LOCATION_NAMES
from .cards import NAME, SLUG

LANGS = ("en", "uk", "pl")

#: "that location" in an English sentence: the location's name as it reads mid-sentence.
EN_LOCATION = ("Jupiter", "Mars", "Luna", "the Institute")

#: Ukrainian perfective infinitives of the card texts' verbs and their imperfective partners,
#: for "Не брати Севро" (a negated one-off choice reads in the imperfective).
UK_IMPERFECTIVE = {
    "взяти": "брати",
    "вибрати": "вибирати",
    "вигнати": "виганяти",
    "заплатити": "платити",
    "відступити": "відступати",
    "забрати": "забирати",
    "покласти": "класти",
    "розкрити": "розкривати",
    "перемістити": "переміщувати",
    "отримати": "отримувати",
    "просунутися": "просуватися",
    "повернути": "повертати",
    "призначити": "призначати",
    "віддати": "віддавати",
    "переглянути": "переглядати",
    "завершити": "завершувати",
    "поміняти": "міняти",
    "обміняти": "обмінювати",
    "вкрасти": "красти",
    "назвати": "називати",
    "перетасувати": "тасувати",
}

#: How each language says "you may ..." at the start of a sentence (stripped to get the clause).
MAY_PREFIX = {"en": "you may ", "uk": "можете ", "pl": "możesz "}

#: The fixed words of the labels, per language.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "no": "Don't {body}",
        "none": "Skip: don't {body}",
        "skip": "Skip: {body}",
        "stop": "Choose no more banished cards",
    },
    "uk": {
        "no": "Не {body}",
        "none": "Не {body}",
        "skip": "Пропустити: {body}",
        "stop": "Більше не вибирати вигнаних карт",
    },
    "pl": {
        "no": "Pomiń: {body}",
        "none": "Pomiń: {body}",
        "skip": "Pomiń: {body}",
        "stop": "Nie wybieraj więcej odrzuconych kart",
    },
}

#: Modes of :func:`say`: which option labels the decision needs.
MODES = ("", "may", "instead", "none", "stop", "one")


# ====================================================================== the engine's entry point
def prompt_context(st: Any, node: tuple, ctx: dict, mode: str = "", **extra: Any) -> dict[str, Any]:
    """A decision's context for a card's question: the card that asks, its English text
    (``text``, as before), and, in a real game, the words in every language (``say``).

    ``node`` is the effect whose text the question is (for "may": the whole ``may`` node);
    ``mode`` names the labels it needs (``MODES``)."""
    from .texts import render_cached

    text_node = node[1] if mode == "may" else node
    out: dict[str, Any] = {"card": SLUG[ctx["src"]], "text": render_cached(text_node), **extra}
    if not st.quiet:
        out["say"] = say_cached(node, ctx.get("c"), ctx.get("loc", -1), mode)
    return out


# ====================================================================== the words
_SAID: dict[tuple, tuple[tuple, dict]] = {}


def say_cached(node: tuple, c: int | None, loc: int, mode: str) -> dict[str, dict[str, str]]:
    """:func:`say`, remembered per node object (the encodings' nodes live as long as the
    program): a decision is built on every offer, and hashing a deep node each time would
    cost more than the engine's own step. The node is kept with its words, so its id stays its own."""
    key = (id(node), c, loc, mode)
    hit = _SAID.get(key)
    if hit is not None and hit[0] is node:
        return hit[1]
    words = say(node, c, loc, mode)
    if len(_SAID) >= 20000:
        _SAID.clear()
    _SAID[key] = (node, words)
    return words


def say(node: tuple, c: int | None = None, loc: int = -1, mode: str = "") -> dict[str, dict[str, str]]:
    """``{lang: {"text": ..., ["yes", "no" | "none" | "options"]: ...}}`` for ``node`` with the
    bound card ``c`` (or None) at location ``loc`` (-1: none named)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; one of {MODES}")
    return {lang: _say(lang, node, c, loc, mode) for lang in LANGS}


def _say(lang: str, node: tuple, c: int | None, loc: int, mode: str) -> dict[str, str]:
    sents = sentences(lang, node, c, loc)
    out: dict[str, Any] = {"text": finish(lang, sents)}
    W = WORDS[lang]
    if mode == "may":
        body = _strip_may(lang, sents[0])
        out["yes"] = _cap(_imperative(lang, node[1], c, loc) if lang == "pl" else body)
        out["no"] = negate(lang, body)
    elif mode == "instead":
        # ("gold_reveal_instead", cards, instead, default): yes = reveal to run ``instead``
        yes = _strip_may(lang, _instead_sentence(lang, node, c, loc))
        if lang == "pl" and yes.startswith("odsłonić "):  # the imperative, as the other Polish "yes"
            yes = "odsłoń " + yes[len("odsłonić ") :]
        out["yes"] = _cap(yes)
        out["no"] = _cap(
            _imperative(lang, node[3], c, loc) if lang != "uk" else sentences(lang, node[3], c, loc, "inf")[0]
        )
    elif mode == "none":
        body = _strip_may(lang, sents[0])
        out["none"] = _cap(negate(lang, body, W["none"]) if lang == "uk" else W["none"].format(body=body))
    elif mode == "stop":
        out["none"] = W["stop"]
    elif mode == "one":
        # (choose_one | split, (label, effect), ...): each option is its effect's words
        out["options"] = {lbl: _cap(_label(lang, eff, c, loc)) for lbl, eff in node[1:]}
    return out


def _label(lang: str, node: tuple, c: int | None, loc: int) -> str:
    """An effect as a button: its first sentence, in the mood buttons take in ``lang``
    (Ukrainian: the infinitive; English and Polish: the imperative)."""
    return sentences(lang, node, c, loc, "inf" if lang == "uk" else "imp")[0]


def sentences(lang: str, node: tuple, c: int | None = None, loc: int = -1, mood: str = "imp") -> list[str]:
    """The node's text as sentences (no final stops; the first letter as rendered)."""
    if lang == "en":
        from .texts import render_en as render

        text = render(node)
        if c is not None:
            text = text.replace("that card", NAME[c])
        if loc >= 0:
            text = text.replace("this location", EN_LOCATION[loc])
        return [s.strip().rstrip(".") for s in _split_sentences(text) if s.strip()]
    from .lang.core import Cx
    from .lang.effects_text import R
    from .lang.grammar import euphony
    from .lang.tables import lang as get_lang

    L = get_lang(lang)
    cx = Cx(L, here=loc)
    if c is not None:
        cx = cx.but(c=cx.ref(card_word(L, c)))
    return [euphony(s, lang) for s in R(node, cx, mood) if s]


class _Quoted:
    """A card named through the word "card" ("карту «Масажистка»", "kartę „Masażystka”"): the
    noun takes the case, the name stays as printed. For names the table does not decline."""

    def __init__(self, L: Any, name: str) -> None:
        self.L, self.name = L, name
        self.gender, self.anim, self.plural_only = L.card.gender, False, False

    def form(self, case: str, num: str = "s", gender: str | None = None, anim: bool | None = None) -> str:
        q = ("«", "»") if self.L.code == "uk" else ("„", "”")
        return f"{self.L.card.form(case)} {q[0]}{self.name}{q[1]}"

    def __format__(self, spec: str) -> str:
        from .lang.grammar import _spec

        case, num = _spec(spec)
        return self.form(case, num)


def card_word(L: Any, c: int) -> Any:
    """The bound card as a word of ``L``: its declined name when the name table gives the
    cases, else "card «Name»" (see :class:`_Quoted`)."""
    word = L.name(c)
    return word if len(word.forms) > 1 else _Quoted(L, word.forms[0])


def finish(lang: str, sents: list[str]) -> str:
    """Sentences as one text: capitalised, each with its stop."""
    out = []
    for s in sents:
        s = s.strip()
        if not s:
            continue
        s = s[:1].upper() + s[1:]
        out.append(s if s[-1] in ".!?" else s + ".")
    return " ".join(out)


def negate(lang: str, body: str, template: str | None = None) -> str:
    """ "Don't <body>" in ``lang``, by the language's own means (see the module's docstring)."""
    W = WORDS[lang]
    if lang == "uk":
        verb, _, rest = body.partition(" ")
        if verb in UK_IMPERFECTIVE:
            return _cap((template or W["no"]).format(body=(UK_IMPERFECTIVE[verb] + " " + rest).strip()))
        return _cap(W["skip"].format(body=body))
    return _cap((template or W["no"]).format(body=body))


def uk_needs_fallback(body: str) -> bool:
    """Whether a Ukrainian clause's first verb is missing from ``UK_IMPERFECTIVE`` (tests)."""
    return body.partition(" ")[0] not in UK_IMPERFECTIVE


# ---------------------------------------------------------------------- helpers
def _split_sentences(text: str) -> list[str]:
    """English sentences ("Gain Sevro. If you do, end your turn." -> two); a stop inside
    parentheses or a name such as "Dr. Virany" does not split."""
    out, cur, depth = [], "", 0
    for i, ch in enumerate(text):
        cur += ch
        depth += ch == "("
        depth -= ch == ")"
        if ch == "." and depth == 0 and (i + 1 == len(text) or text[i + 1] == " ") and not cur.endswith(("Dr.", "St.")):
            out.append(cur)
            cur = ""
    if cur.strip():
        out.append(cur)
    return out


def _strip_may(lang: str, sentence: str) -> str:
    """The clause of "you may <clause>" (lower case first letter), or the sentence itself."""
    s = sentence.strip().rstrip(".")
    prefix = MAY_PREFIX[lang]
    if s.lower().startswith(prefix):
        s = s[len(prefix) :]
    elif lang != "en" and s.lower().startswith(_opp_prefix(lang)):
        s = s[len(_opp_prefix(lang)) :]
    return _low(s)


def _opp_prefix(lang: str) -> str:
    return {"uk": "цей суперник може ", "pl": "ten przeciwnik może "}.get(lang, "")


def _imperative(lang: str, node: tuple, c: int | None, loc: int) -> str:
    """The first sentence of ``node`` in the imperative (the card's own mood)."""
    return sentences(lang, node, c, loc, "imp")[0]


def _instead_sentence(lang: str, node: tuple, c: int | None, loc: int) -> str:
    """The "you may reveal <cards> to instead <effect>" sentence of a gold_reveal_instead, with
    the bound card named (not a pronoun: it stands alone on a button)."""
    _, cards, instead, _default = node
    if lang == "en":
        from .texts import render_en as render

        names = " or ".join(NAME[x] for x in cards)
        body = render(instead).rstrip(".")
        body = body[:1].lower() + body[1:]
        if c is not None:
            body = body.replace("that card", NAME[c])
        return (
            f"reveal {names} to gain {NAME[c]} instead"
            if c is not None and body == f"gain {NAME[c]}"
            else f"reveal {names} to {body} instead"
        )
    from .lang.core import Cx
    from .lang.effects_text import R
    from .lang.grammar import euphony
    from .lang.tables import lang as get_lang

    L = get_lang(lang)
    cx = Cx(L, here=loc)
    if c is not None:
        cx = cx.but(c=cx.ref(card_word(L, c)))
    bodies = R(instead, cx, "inf")
    return euphony(L.f("reveal_instead", who=L.names(cards), body=bodies[0]), lang)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _low(s: str) -> str:
    # keep a name's capital ("Gain Sevro" -> "gain Sevro", "The Howlers" stays as printed)
    if s[:4] == "The " or s[:1].isupper() and len(s) > 1 and s[1:2].isupper():
        return s
    return s[:1].lower() + s[1:]


# ====================================================================== what everybody may know
#: Context keys naming a seat, which every seat may see.
_SEAT_KEYS = ("attacker", "thief", "target", "by", "lender", "for")
#: Decision kinds whose asking card (``card``) lies face up or was played openly; others
#: (a card about to be deployed from the hand) stay unnamed.
_CARD_PUBLIC = frozenset(
    {
        "scout_location",
        "place_location",
        "move_location",
        "choose_card",
        "choose_opponent",
        "choose_one",
        "choose_color",
        "name_color",
        "may",
        "block",
        "loan_shark",
        "choose_banished",
        "order_under",
        "bottom_order",
        "reveal",
        "banish_from_hand",
        "choose_hand",
        "facedown_card",
        "name_card",
        "steal_choice",
        "reveal_from_hand",
        "deck_end",
    }
)


def public_about(kind: str, context: dict, name_card: bool = True) -> dict[str, Any]:
    """What every seat may know of a pending decision beyond its kind and decider: the card
    that asks when it lies face up (or was just played), the seats it names, the location.
    Never an option, a hidden card, or the card the decider is about to deploy.

    ``name_card`` False leaves the asking card out (the end of the game: an end-of-game
    ability's card is still in its owner's hand)."""
    out: dict[str, Any] = {}
    card = context.get("card")
    if card and name_card and kind in _CARD_PUBLIC:
        out["card"] = card
    for k in _SEAT_KEYS:
        v = context.get(k)
        if isinstance(v, int) and not isinstance(v, bool):
            out[k] = v
    if kind == "facedown_card" and context.get("location") in LOCATION_NAMES:
        out["location"] = context["location"]
    if kind == "deploy_location" and context.get("source") in (*LOCATION_NAMES, "deck"):
        out["source"] = context["source"]  # a card deployed from a location or the deck's top is public
        if card and name_card:
            out["card"] = card
    if context.get("house"):
        out["house"] = context["house"]
    return out


__all__ = [
    "LANGS",
    "MODES",
    "prompt_context",
    "say",
    "say_cached",
    "sentences",
    "negate",
    "public_about",
    "uk_needs_fallback",
]
