"""Red Rising in the terminal: the board, your hand, decisions in words, the log, the scorepad.

Everything is read from ``state.view(viewer)`` (and the viewer's events); card names and
rules text come from :func:`redtable.redrising.gallery.card_entry` in the chosen language,
rendered from the engine's own encoding (the same source as the page's gallery); the
screens' own words are translated through :mod:`redtable.i18n`.
A card's colour (caste) is always written out, so the screens read the same without
colour (``NO_COLOR``).
"""

from __future__ import annotations

from functools import cache

from rich.console import Group, JustifyMethod, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..core import Decision, Event, State
from ..i18n import get_lang, ntr, tr
from ..i18n.page import say
from ..redrising.board import (
    DIE_TEXT,
    FLEET_MAX,
    HOUSE_NAMES,
    HOUSE_TITLES,
    LOCATION_NAMES,
    LOCATION_OF_NAME,
    LOCATION_TITLES,
    THRESHOLD,
)
from ..redrising.cards import BY_SLUG, CARDS, COLOR_NAMES, card_index, close_names
from ..redrising.gallery import card_entry
from ..redrising.lang import card_name as lang_card_name
from .common import Command, Part, Renderer, Seat, cards, esc, line, one_line

CASTE_STYLE = {
    "red": "red3",
    "brown": "orange4",
    "pink": "hot_pink",
    "violet": "medium_purple1",
    "yellow": "yellow1",
    "green": "green3",
    "blue": "dodger_blue1",
    "orange": "dark_orange",
    "gray": "grey62",
    "obsidian": "grey85 on grey23",
    "silver": "bold grey82",
    "white": "bold bright_white",
    "copper": "light_salmon3",
    "gold": "bold gold1",
}
HOUSE_STYLE = {
    "apollo": "yellow1",
    "ceres": "green3",
    "diana": "medium_purple1",
    "jupiter": "dodger_blue1",
    "mars": "red3",
    "minerva": "grey85",
}
# Translated through the catalog (see MSGIDS): English words kept here as message ids.
LOCATION_BONUS = {
    "jupiter": "+1 Fleet",
    "mars": "+1 Helium",
    "luna": "the Sovereign token",
    "institute": "+1 Influence",
}
TEXT_KEYS = (("deploy", "Deploy"), ("end_game_bonus", "End-game"), ("end_of_game", "End of game"), ("block", "Block"))
SCORE_ROWS = (
    ("cards", "Cards in hand"),
    ("fleet", "Fleet Track"),
    ("helium", "Helium"),
    ("sovereignty", "Sovereignty"),
    ("influence", "Influence"),
    ("excess_cards", "Excess cards"),
)
# Decisions whose answer every player sees at the table (or learns at once from the log).
PUBLIC_KINDS = frozenset(
    {
        "action",
        "deploy_location",
        "gain",
        "scout_location",
        "place_location",
        "banish_top",
        "banish_from_location",
        "move_location",
        "choose_card",
        "choose_opponent",
        "choose_one",
        "choose_color",
        "name_color",
        "may",
        "block",
        "block_sovereign",
        "loan_shark",
        "die_face",
        "choose_banished",
        "order_under",
        "reveal",
        "banish_from_hand",
        "ceres_banish_hand",
    }
)
HIDDEN_MOVE = {
    "steal_choice": "chooses which card to give",
    "name_card": "names a card",
    "facedown_card": "chooses a card to place face down",
    "choose_hand": "chooses a card from their hand",
    "bottom_order": "orders cards under the deck",
    "deck_end": "returns a card to the deck",
    "end_of_game_order": "orders their end-of-game abilities",
    "reveal_from_hand": "chooses a card to reveal",
}
LABEL = {
    "action": "lead or scout",
    "deploy_location": "deploy on",
    "gain": "gain from",
    "scout_location": "scout onto",
    "place_location": "place on",
    "banish_top": "banish the top of",
    "banish_from_location": "banishes",
    "move_location": "move to",
    "choose_one": "chooses",
    "block": "decides whether to block",
    "block_sovereign": "decides whether to block",
    "loan_shark": "decides whether to pay the Loan Shark",
    "die_face": "die bonus",
    "may": "may",
    "ceres_banish_hand": "banish from hand",
    "choose_card": "choose a card",
    "choose_opponent": "choose an opponent",
    "choose_color": "chooses a colour",
    "name_color": "names a colour",
    "choose_banished": "choose a banished card",
    "order_under": "sets the order",
    "reveal": "reveal",
    "banish_from_hand": "banish from hand",
    "steal_choice": "gives a card",
    "name_card": "names a card",
    "facedown_card": "face-down card",
    "choose_hand": "a card of their hand",
    "bottom_order": "order under the deck",
    "deck_end": "top or bottom",
    "end_of_game_order": "end-of-game ability",
    "reveal_from_hand": "reveals from hand",
}
# Options the page says in the same words: its rr.opt.<option> (redtable.i18n.page), once per language.
PAGE_CHOICES = frozenset({"yes", "no", "none", "top", "bottom"})
CHOICE_WORDS = {
    "helium": "Helium",
    "advance": "Advance on the Fleet Track",
    "influence": "Influence on the Institute",
    "banish": DIE_TEXT["banish"],
    "place": DIE_TEXT["place"],
}
# Message ids used through variables, for the catalogs' completeness test.
MSGIDS = (
    *LOCATION_BONUS.values(),
    *(label for _, label in TEXT_KEYS),
    *(label for _, label in SCORE_ROWS),
    *HIDDEN_MOVE.values(),
    *LABEL.values(),
    *CHOICE_WORDS.values(),
    *DIE_TEXT.values(),
    *LOCATION_TITLES,
    *(f"{t} (house)" for t in HOUSE_TITLES),
    *(f"{t} (house, of)" for t in HOUSE_TITLES),
    *COLOR_NAMES,
    "banish",
    "place",
)


def choice_word(option: str) -> str | None:
    """An option's word (yes, no, skip, top, bottom, a die bonus), or None for another option."""
    if option in PAGE_CHOICES:
        return say("rr.opt." + option)
    return tr(CHOICE_WORDS[option]) if option in CHOICE_WORDS else None


@cache
def _card_text(slug: str, lang: str) -> tuple[tuple[str, str], ...]:
    entry = card_entry(BY_SLUG[slug], lang)
    return tuple((label, entry[key]) for key, label in TEXT_KEYS if key in entry)


def card_text(slug: str) -> tuple[tuple[str, str], ...]:
    """A card's rules in the current language, as (label, text) pairs."""
    return _card_text(slug, get_lang())


def name_of(slug: str) -> str:
    """A card's name (nominative) in the current language, as the gallery prints it."""
    return lang_card_name(BY_SLUG[slug], get_lang())


@cache
def _names_lower(lang: str) -> dict[str, str]:
    return {lang_card_name(i, lang).lower(): c.slug for i, c in enumerate(CARDS)}


def find_card(arg: str) -> int:
    """A card by its name in the current language, its English name or its slug; KeyError if none."""
    slug = _names_lower(get_lang()).get(arg.strip().lower())
    return BY_SLUG[slug] if slug is not None else card_index(arg)


def near_names(arg: str) -> list[str]:
    """Card names close to ``arg``, in the current language (and the English ones' translations)."""
    import difflib

    own = _names_lower(get_lang())
    hits = difflib.get_close_matches(arg.strip().lower(), list(own), n=3, cutoff=0.5)
    out = [name_of(own[h]) for h in hits]
    out += [printed(n) for n in close_names(arg) if printed(n) not in out]
    return out[:3]


def printed(name: str) -> str:
    """A card named by its English name or slug, in the current language (else as given)."""
    try:
        return lang_card_name(card_index(name), get_lang())
    except KeyError:
        return name


def card_text_markup(slug: str) -> str:
    return "\n".join(f"[italic]{tr(label)}:[/italic] {esc(text)}" for label, text in card_text(slug))


def color_markup(color: str) -> str:
    return f"[{CASTE_STYLE.get(color, '')}]{esc(tr(color))}[/]"


def card_markup(slug: str | None, value: bool = True) -> str:
    """``Name (colour value)`` in its caste's colour."""
    if slug is None or slug not in BY_SLUG:
        return tr("a face-down card") if slug is None else esc(slug)
    c = CARDS[BY_SLUG[slug]]
    color = COLOR_NAMES[c.color]
    tail = f" ({tr(color)} {c.value})" if value else f" ({tr(color)})"
    return f"[{CASTE_STYLE[color]}]{esc(name_of(slug))}[/]{esc(tail)}"


def card_object(slug: str | None, value: bool = True) -> str:
    """A card as the object of a verb: in Ukrainian and Polish through the word "card", which
    takes the case the verb asks for while the name stays in the nominative, in quotes
    («бере карту «Дядько Нарол» (червоний 10)», «zyskuje kartę „Darrow” (czerwony 10)»), as
    the page's log says it; English names it as it is."""
    if get_lang() == "en" or slug is None or slug not in BY_SLUG:
        return card_markup(slug, value)
    c = CARDS[BY_SLUG[slug]]
    color = COLOR_NAMES[c.color]
    tail = f" ({tr(color)} {c.value})" if value else f" ({tr(color)})"
    name = f"[{CASTE_STYLE[color]}]{esc(name_of(slug))}[/]"
    return tr("the card «{name}»{tail}", name=name, tail=esc(tail))


def card_quoted(slug: str | None, value: bool = True) -> str:
    """A card after a word that already says "card" («картою «Мученик» (білий 15)», «kartą
    „Męczennik” (biały 15)»): the name in quotes, as the page says it; English names it as it is."""
    if get_lang() == "en" or slug is None or slug not in BY_SLUG:
        return card_markup(slug, value)
    c = CARDS[BY_SLUG[slug]]
    color = COLOR_NAMES[c.color]
    tail = f" ({tr(color)} {c.value})" if value else f" ({tr(color)})"
    name = f"[{CASTE_STYLE[color]}]{esc(name_of(slug))}[/]"
    return tr("«{name}»{tail}", name=name, tail=esc(tail))


def card_name(slug: str | None) -> str:
    """Just the name, in its caste's colour."""
    if slug is None or slug not in BY_SLUG:
        return tr("a face-down card") if slug is None else esc(slug)
    c = CARDS[BY_SLUG[slug]]
    return f"[{CASTE_STYLE[COLOR_NAMES[c.color]]}]{esc(name_of(slug))}[/]"


def json_card_markup(card: dict, value: bool = True) -> str:
    """A card as the view gives it: face-down ones are backs unless the viewer knows them."""
    if "card" not in card:
        return "[reverse] " + tr("face-down") + " [/reverse]"
    text = card_markup(card["card"], value)
    if card.get("face_down"):
        text += " [dim](" + tr("face-down") + ")[/dim]"
    return text


def said(d: Decision) -> dict:
    """The words a card's question carries in the current language (``say``, rendered by the
    engine from the card's encoding: :mod:`redtable.redrising.words`), or {}."""
    say = d.context.get("say") or {}
    return say.get(get_lang()) or say.get("en") or {}


def loc_title(name: str) -> str:
    return tr(LOCATION_TITLES[LOCATION_OF_NAME[name]]) if name in LOCATION_OF_NAME else name


def mid_sentence(title: str) -> str:
    """A location's title inside an English sentence: "from the Institute", not "from The Institute"."""
    return "the " + title[4:] if get_lang() == "en" and title.startswith("The ") else title


def house_title(name: str, case: str = "n") -> str:
    """A house's name, as the rulebooks print it (Polish "Jupiter", not the location's "Jowisz"),
    in the nominative ("n") or after "house" ("of": «Дім Юпітера», «дому Церери»)."""
    if name not in HOUSE_NAMES:
        return name.capitalize()
    title = HOUSE_TITLES[HOUSE_NAMES.index(name)]
    if get_lang() == "en":
        return title
    return tr(f"{title} (house, of)") if case == "of" else tr(f"{title} (house)")


class RedRisingRenderer(Renderer):
    title = "Red Rising"

    def __init__(self, state: State, seats: list[Seat]) -> None:
        super().__init__(state, seats)
        self.houses = [p["house"] for p in state.view(None)["players"]]
        self.title = tr("Red Rising")

    # ------------------------------------------------------------------ seats
    def seat_name(self, p: int) -> str:
        return f"P{p} {house_title(self.houses[p])}"

    def who(self, p: int | None, viewer: int | None = None) -> str:
        if p is None:
            return tr("nobody")
        style = HOUSE_STYLE.get(self.houses[p], "")
        name = f"[bold {style}]{esc(self.seat_name(p))}[/]"
        return tr("{name} (you)", name=name) if p == viewer else name

    # ------------------------------------------------------------------ compact screen
    def compact(self, state: State, viewer: int | None, decision: Decision | None, width: int) -> list[Part]:
        v = state.view(viewer)
        head = self._header(v, viewer)
        parts = [Part([[Text.from_markup(head)], [one_line(head, width)]], 100)]
        parts.append(
            Part(
                [
                    [self._players(v, viewer, kinds=True)],
                    [self._players(v, viewer, kinds=False)],
                    self._players_packed(v, viewer, width),
                ],
                60,
            )
        )
        parts.append(Part([[line(self._rules_line(v, viewer))], []], 20))
        parts.append(
            Part(
                [
                    [self._locations_compact(v, bonus=True)],
                    [self._locations_compact(v, bonus=False)],
                    self._locations_packed(v, width),
                ],
                70,
            )
        )
        deck = self._deck_line(v)
        parts.append(Part([[line(deck)], [one_line(deck, width)], []], 30))
        if viewer is not None and not (decision is not None and decision.kind == "action"):
            hand = self._hand_line(v, viewer)
            parts.append(Part([[line(hand)], [one_line(hand, width)]], 80))
        return parts

    def _header(self, v: dict, viewer: int | None) -> str:
        bits = [f"[bold]{esc(self.title)}[/bold]"]
        turn = v.get("current_turn")
        if turn is not None and v["phase"] == "play":
            bits.append(
                tr("your turn, {who}", who=self.who(viewer))
                if turn == viewer
                else tr("{who}'s turn", who=self.who(turn, viewer))
            )
        elif v["phase"] != "play":
            bits.append("[bold]" + tr("end of the game") + "[/bold]")
        if v["end_triggered"] and v["phase"] == "play":
            bits.append("[bold reverse] " + tr("END TRIGGERED") + " [/] " + tr("finish the round"))
        if viewer is not None and not (turn == viewer and v["phase"] == "play"):
            bits.append(tr("you are {who}", who=self.who(viewer)))
        return "  ·  ".join(bits)

    def _players(self, v: dict, viewer: int | None, kinds: bool) -> Table:
        t = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 1), header_style="bold")
        columns: tuple[tuple[str, JustifyMethod], ...] = (
            (tr("Player"), "left"),
            (tr("Hand"), "right"),
            (tr("Fleet"), "right"),
            (tr("Helium"), "right"),
            (tr("Influence"), "right"),
            (tr("Sovereign"), "center"),
            (tr("Turns"), "right"),
        )
        for col, just in columns:
            t.add_column(col, justify=just, no_wrap=True)
        for p in v["players"]:
            seat = p["seat"]
            name = self.who(seat, viewer)
            if kinds:
                name += f" [dim]{esc(self.seats[seat].kind)}[/dim]"
            t.add_row(
                name,
                str(p["hand_size"]),
                f"{p['fleet']}/{FLEET_MAX}",
                str(p["helium"]),
                str(p["influence"]),
                "★" if p["sovereign"] else "",
                str(p["turns"]),
            )
        return t

    def _players_packed(self, v: dict, viewer: int | None, width: int) -> list[RenderableType]:
        """Two players a row, with short column names."""
        t = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 1), header_style="bold")
        heads = ("", tr("Hand"), tr("Fl."), tr("He"), tr("Inf"), "★")
        for half in range(2):
            for i, col in enumerate(heads):
                t.add_column(col, justify="left" if i == 0 else "right", no_wrap=True, overflow="ellipsis")
            if half == 0:
                t.add_column("│", no_wrap=True)
        ps = v["players"]
        for k in range(0, len(ps), 2):
            row: list[str] = []
            for p in ps[k : k + 2]:
                row += [
                    self.who(p["seat"], viewer),
                    str(p["hand_size"]),
                    str(p["fleet"]),
                    str(p["helium"]),
                    str(p["influence"]),
                    "★" if p["sovereign"] else "",
                ]
                if len(row) == 6:
                    row.append("│")
            t.add_row(*row)
        return [t]

    def _rules_line(self, v: dict, viewer: int | None) -> str:
        bits = [tr("First player: {who}", who=self.who(v["first_player"], viewer))]
        if v["neutral_influence"]:
            bits.append(ntr("neutral house: {n} Influence", "neutral house: {n} Influence", v["neutral_influence"]))
        bits.append(tr("the end comes at {n}+ Helium, Influence and Fleet", n=THRESHOLD))
        return "[dim]" + " · ".join(bits) + "[/dim]"

    def _locations_compact(self, v: dict, bonus: bool) -> Table:
        t = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 1), show_header=False)
        t.add_column(no_wrap=True)
        if bonus:
            t.add_column(no_wrap=True, style="dim")
        t.add_column(no_wrap=True, justify="right")
        t.add_column(overflow="ellipsis", no_wrap=True)
        for name in LOCATION_NAMES:
            pile = v["locations"][name]
            top = "▲ " + json_card_markup(pile[-1]) if pile else "[dim]" + tr("(empty)") + "[/dim]"
            row = [f"[bold]{esc(loc_title(name))}[/bold]"]
            if bonus:
                row.append(esc(tr(LOCATION_BONUS[name])))
            row += [cards(len(pile)), top]
            t.add_row(*row)
        return t

    def _locations_packed(self, v: dict, width: int) -> list[RenderableType]:
        items = []
        for name in LOCATION_NAMES:
            pile = v["locations"][name]
            top = json_card_markup(pile[-1], value=False) if pile else tr("(empty)")
            items.append(f"[bold]{esc(loc_title(name))}[/bold] ({len(pile)}) ▲{top}")
        return [one_line("  ".join(items[:2]), width), one_line("  ".join(items[2:]), width)]

    def _deck_line(self, v: dict) -> str:
        banished = ", ".join(card_name(s) for s in reversed(v["banished"])) or tr("none")
        return (
            f"[bold]{tr('Deck')}:[/bold] {cards(v['deck_size'])}    "
            f"[bold]{tr('Banished')} ({len(v['banished'])}):[/bold] {banished}"
        )

    def _hand_line(self, v: dict, viewer: int) -> str:
        me = v["players"][viewer]
        hand = me.get("hand", [])
        items = ", ".join(json_card_markup(c) for c in hand) or tr("(no cards)")
        return f"[bold]{tr('Your hand')} ({len(hand)}):[/bold] {items}"

    # ------------------------------------------------------------------ full board
    def board(self, state: State, viewer: int | None, decision: Decision | None) -> list[RenderableType]:
        v = state.view(viewer)
        out: list[RenderableType] = [line(self._header(v, viewer)), self._players_full(v, viewer), self._locations(v)]
        banished = ", ".join(card_markup(s, value=False) for s in v["banished"]) or tr("none")
        out.append(
            line(f"[bold]{tr('Deck')}:[/bold] {cards(v['deck_size'])}    [bold]{tr('Banished')}:[/bold] {banished}")
        )
        if viewer is not None:
            out.extend(self.hand(state, viewer))
        return out

    def _players_full(self, v: dict, viewer: int | None) -> Table:
        t = self._players(v, viewer, kinds=True)
        t.title = tr("Houses")
        t.title_justify = "left"
        t.caption = Text.from_markup(self._rules_line(v, viewer) + " " + tr("(? for more)"))
        t.caption_justify = "left"
        return t

    def _locations(self, v: dict) -> Table:
        t = Table(
            title=tr("Locations ('look mars' shows a location's top card in full)"),
            title_justify="left",
            show_lines=True,
            expand=False,
        )
        t.add_column(tr("Location"), no_wrap=True)
        t.add_column(tr("Bonus"))
        t.add_column(tr("Cards, bottom → top (▲ = top card)"))
        for name in LOCATION_NAMES:
            pile = v["locations"][name]
            items = []
            for i, c in enumerate(pile):
                mark = "▲ " if i == len(pile) - 1 else ""
                items.append(f"{i + 1}. {mark}{json_card_markup(c)}")
            t.add_row(
                f"[bold]{esc(loc_title(name))}[/bold]", esc(tr(LOCATION_BONUS[name])), "\n".join(items) or tr("(empty)")
            )
        return t

    def hand(self, state: State, viewer: int) -> list[RenderableType]:
        v = state.view(viewer)
        me = v["players"][viewer]
        house = me["house"]
        t = Table(show_edge=False, show_lines=True, pad_edge=False)
        t.add_column(tr("Card"), no_wrap=True)
        t.add_column(tr("Rules"))
        for c in me.get("hand", []):
            t.add_row(json_card_markup(c), card_text_markup(c["card"]) if "card" in c else "")
        if not me.get("hand"):
            t.add_row(tr("(no cards)"), "")
        house_line = Text.from_markup(
            f"[italic]{tr('House {house}', house=esc(house_title(house, 'of')))}:[/italic] "
            f"{esc(say('rr.house_text.' + house))}"
        )
        title = tr(
            "Your hand — {seat} ({cards})", seat=esc(self.seat_name(viewer)), cards=cards(len(me.get("hand", [])))
        )
        return [Panel(Group(t, house_line), title=title, title_align="left")]

    # ------------------------------------------------------------------ decisions
    def explain(self, state: State, d: Decision) -> str:
        c = d.context
        src = card_markup(c["card"]) if c.get("card") in BY_SLUG else None
        obj = card_object(c["card"]) if c.get("card") in BY_SLUG else None  # a verb's object
        words = said(d)
        text = esc(words.get("text") or c.get("text", ""))
        who = lambda key: self.who(c.get(key))  # noqa: E731
        k = d.kind
        if k == "action":
            return tr(
                "Your turn. [bold]Lead[/bold]: deploy a card from your hand, then gain a top card; "
                "or [bold]Scout[/bold] (? for more)."
            )
        if k == "deploy_location":
            if c.get("source") in (None, "hand"):
                return tr("Deploy {card} on which location?", card=obj)
            if c.get("source") == "deck":
                return tr("Deploy {card} (the top card of the deck) on which location?", card=obj)
            return tr(
                "Deploy {card} (from {location}) on which location?", card=obj, location=esc(loc_title(c["source"]))
            )
        if k == "gain":
            line = tr(
                "Complete the Lead: gain the top card of a location and its bonus, or of the deck "
                "and roll the Rising die."
            )
            if c.get("deployed"):
                line += " " + tr("You deployed on {location} this turn.", location=esc(loc_title(c["deployed"])))
            return line
        if k == "scout_location":
            return tr(
                "Scout: the top card of the deck is {card}. Place it on which location? You gain "
                "that location's bonus.",
                card=src,
            )
        if k == "place_location":
            if c.get("placing"):
                return tr(
                    "Place (not deploy) {card} ({source}) on which location?",
                    card=card_object(c["placing"]),
                    source=src,
                )
            return tr("Place (not deploy) {card} on which location?", card=obj)
        if k == "may":
            if words:
                return f"{src}: {text}"
            return tr("{card}: {text} Do you?", card=src, text=text)
        if k == "banish_from_location":
            return say("rr.prompt.banish_from_location")
        if k == "banish_top":
            return tr("Rising die: banish the top card of a location of your choice.")
        if k == "choose_card":
            return tr("{card}: {text} Which card?", card=src, text=text)
        if k == "choose_hand":
            return tr("{card}: {text} Which card of your hand?", card=src, text=text)
        if k == "move_location":
            return tr("{card}: move the card to which location?", card=src)
        if k == "choose_opponent":
            return say("rr.prompt.choose_opponent", card=src)
        if k == "choose_one":
            if "for" in c:
                return tr("{card}: choose the one you gain; {who} gains the others.", card=src, who=who("for"))
            if words:
                return tr("{card}: choose one. {text}", card=src, text=text)
            return say("rr.prompt.choose_one", card=src)
        if k == "choose_color":
            return say("rr.prompt.choose_color", card=src)
        if k == "name_color":
            named = ", ".join(color_markup(x) for x in c.get("named", [])) or tr("none yet")
            return tr("{card}: name a colour (named so far: {named}).", card=src, named=named)
        if k == "banish_from_hand":
            if "attacker" in c:
                return tr(
                    "{who} played {card}: banish 1 card of your choice from your hand.", who=who("attacker"), card=src
                )
            return f"{src}: {text}"
        if k == "block":
            return tr(
                "{who} plays {card} to steal or banish your cards. Block it by revealing a card "
                "(it goes back to your hand)?",
                who=who("attacker"),
                card=src,
            )
        if k == "block_sovereign":
            return tr(
                "{who} is taking the Sovereign token from you. Block by revealing and banishing a card?",
                who=who("attacker"),
            )
        if k == "choose_banished":
            return tr("{card}: {text} Choose from the banished pile.", card=src, text=text)
        if k == "ceres_banish_hand":
            return tr("House Ceres, end of game: banish 1 card from your hand before scoring.")
        if k == "name_card":
            return tr("{card}: name a card in {who}'s hand.", card=src, who=who("target"))
        if k == "order_under":
            return tr("{card}: choose the card to place directly under it (the other goes below it).", card=src)
        if k == "bottom_order":
            return tr(
                "{card}: choose the next card to put at the bottom of the deck (the last one chosen "
                "ends at the bottom).",
                card=src,
            )
        if k == "loan_shark":
            return tr(
                "{who} played {card}: give them 2 Helium to take 1 turn out of order now? Otherwise you "
                "give them 1 Helium.",
                who=who("lender"),
                card=src,
            )
        if k == "facedown_card":
            return tr(
                "{card}: choose the card to place face down on top of {location}.",
                card=src,
                location=esc(loc_title(c.get("location", ""))),
            )
        if k == "die_face":
            return tr("House Minerva rolled the Sovereign token: choose any other bonus of the die.")
        if k == "deck_end":
            return tr(
                "{card}: put {placing} on the top or at the bottom of the deck?",
                card=src,
                placing=card_object(c.get("placing")),
            )
        if k == "reveal":
            if c.get("colors"):
                return tr(
                    "{who} played {card}: reveal a {colors} from your hand.",
                    who=who("by"),
                    card=src,
                    colors=tr(" or ").join(color_markup(x) for x in c["colors"]),
                )
            return tr("{who} played {card}: reveal a card from your hand.", who=who("by"), card=src)
        if k == "steal_choice":
            return tr("{who} played {card}: choose the card from your hand they take.", who=who("thief"), card=src)
        if k == "reveal_from_hand":
            return tr("{card}: reveal a card from your hand ({n} to go).", card=src, n=c.get("left", "?"))
        if k == "end_of_game_order":
            return tr("End of game: choose which of your end-of-game abilities to resolve next.")
        return tr("{card}: choose.", card=src) if src else tr("Choose.")

    def option_row(self, state: State, d: Decision, v: dict, o: str) -> tuple[str, str]:
        k = d.kind
        words = said(d)
        if o in ("yes", "no", "none") and words.get(o):
            return esc(words[o]), ""
        if o in (words.get("options") or {}):
            return esc(words["options"][o]), ""
        if k == "loan_shark" and o in ("yes", "no"):
            return esc(tr("Give 2 Helium and take a turn") if o == "yes" else tr("Decline (give 1 Helium)")), ""
        if k == "facedown_card" and o == "none":
            return esc(
                tr("Place no card face down on {location}", location=loc_title(d.context.get("location", "")))
            ), ""
        if k in ("block", "block_sovereign") and o == "no":
            return esc(tr("Don't block")), ""
        if o in BY_SLUG:
            return card_markup(o), card_text_markup(o)
        if o.startswith("block:") and o[6:] in BY_SLUG:
            return tr("Block with {card}", card=card_quoted(o[6:])), card_text_markup(o[6:])
        if o in LOCATION_OF_NAME:
            title = f"[bold]{esc(loc_title(o))}[/bold]"
            pile = v["locations"][o]
            top = json_card_markup(pile[-1]) if pile else tr("(empty)")  # the top card, as a noun
            bonus = esc(tr(LOCATION_BONUS[o]))
            if not pile and k in ("scout_location", "place_location"):
                return tr("{location} (empty)", location=title), (
                    tr("bonus: {bonus}", bonus=bonus) if k == "scout_location" else ""
                )
            if not pile and k not in ("gain", "banish_top", "die_face"):
                return tr("{location} (empty)", location=title), ""
            if pile and pile[-1].get("card") in BY_SLUG and not pile[-1].get("face_down"):
                if k in ("gain", "banish_top", "scout_location", "place_location"):
                    top = card_object(pile[-1]["card"])  # the object of "take", "banish", "place on"
            if k == "gain":
                return tr("{location}: take {card}", location=title, card=top), tr("then {bonus}", bonus=bonus)
            if k == "banish_top":
                return tr("{location}: banish {card}", location=title, card=top), ""
            if k == "die_face":
                return title, esc(tr(DIE_TEXT[o]))
            if k == "scout_location":
                return tr("{location} (on top of {card})", location=title, card=top), tr("bonus: {bonus}", bonus=bonus)
            if k == "place_location":
                return tr("{location} (on top of {card})", location=title, card=top), ""
            return tr("{location} (top: {card})", location=title, card=top), ""
        if o == "deck":
            return tr("[bold]The deck[/bold]: take its top card"), tr("then roll the Rising die")
        if o == "scout":
            return (
                "[bold]" + tr("Scout") + "[/bold]",
                tr(
                    "Reveal the top card of the deck and place (not deploy) it on any location; gain that "
                    "location's bonus."
                ),
            )
        if o == "lead":
            return tr("[bold]Lead[/bold] without deploying (your hand is empty)"), ""
        if ":" in o:
            name, _, idx = o.partition(":")
            if name in LOCATION_OF_NAME and idx.isdigit():
                pile = v["locations"][name]
                i = int(idx)
                if i < len(pile):
                    slug = pile[i].get("card")
                    where = tr("{location}, position {n} from the bottom", location=esc(loc_title(name)), n=i + 1)
                    if i == len(pile) - 1:
                        where += " " + tr("(top)")
                    return (
                        tr("{card} at {where}", card=json_card_markup(pile[i]), where=where),
                        card_text_markup(slug) if slug else "",
                    )
        if o[:1] == "p" and o[1:].isdigit():
            return self.who(int(o[1:])), ""
        if o in COLOR_NAMES:
            return color_markup(o), ""
        if (word := choice_word(o)) is not None:
            return esc(word), ""
        return esc(state.describe(o)), ""

    def option_short(self, state: State, d: Decision) -> list[str]:
        v = state.view(d.player)
        out = []
        for o in d.options:
            if o in BY_SLUG:
                out.append(card_name(o))
            elif o.startswith("block:") and o[6:] in BY_SLUG:
                out.append(tr("Block with {card}", card=card_name(o[6:])))
            elif o in LOCATION_OF_NAME:
                pile = v["locations"][o]
                top = json_card_markup(pile[-1], value=False) if pile else tr("(empty)")
                out.append(f"[bold]{esc(loc_title(o))}[/bold] ▲{top}")
            elif ":" in o and o.partition(":")[0] in LOCATION_OF_NAME and o.partition(":")[2].isdigit():
                name, _, idx = o.partition(":")
                pile = v["locations"][name]
                i = int(idx)
                card = json_card_markup(pile[i], value=False) if i < len(pile) else "?"
                out.append(f"{card} [dim]{esc(loc_title(name)[:3])}{i + 1}[/dim]")
            else:
                out.append(self.option_row(state, d, v, o)[0])
        return out

    def aliases(self, state: State, d: Decision, option: str) -> list[str]:
        out = []
        slug = option[6:] if option.startswith("block:") else option
        if slug in BY_SLUG:
            out.append(CARDS[BY_SLUG[slug]].name.lower())
            if get_lang() != "en":
                out.append(name_of(slug).lower())
        if option in LOCATION_OF_NAME:
            out.append(loc_title(option).lower())
            out.append(LOCATION_TITLES[LOCATION_OF_NAME[option]].lower())
        if option[:1] == "p" and option[1:].isdigit():
            out.append(self.seat_name(int(option[1:])).lower())
        if option in COLOR_NAMES:
            out.append(tr(option).lower())
        return out

    # ------------------------------------------------------------------ moves and log
    def decision_label(self, kind: str) -> str:
        return tr(LABEL[kind]) if kind in LABEL else kind.replace("_", " ")

    def public_move(self, state: State, d: Decision, action: str) -> str | None:
        if d.kind not in PUBLIC_KINDS:
            return None
        v = state.view(None)  # what everybody sees: face-down cards stay anonymous
        label, _ = self.option_row(state, d, v, action)
        return label

    def hidden_move(self, d: Decision) -> str:
        return tr(HIDDEN_MOVE[d.kind]) if d.kind in HIDDEN_MOVE else super().hidden_move(d)

    def format_event(self, e: Event, viewer: int | None) -> str | None:
        d = e.data
        k = e.kind
        who = lambda key="player": self.who(d.get(key), viewer)  # noqa: E731
        card = lambda key="card": card_markup(d.get(key))  # noqa: E731
        obj = lambda key="card": card_object(d.get(key))  # noqa: E731  (a verb's object)
        quoted = lambda key="card": card_quoted(d.get(key))  # noqa: E731  (after "with the card", "of the card")
        loc = lambda key="location": esc(mid_sentence(loc_title(d.get(key) or "")))  # noqa: E731
        if k == "setup":
            houses = ", ".join(self.who(p, viewer) for p in range(len(d["houses"])))
            text = tr("Setup: houses {houses}; {first} plays first.", houses=houses, first=self.who(d["first"], viewer))
            if d.get("neutral_house"):
                text += " " + ntr(
                    "Neutral house {house}: {n} Influence on the Institute.",
                    "Neutral house {house}: {n} Influence on the Institute.",
                    d["neutral_influence"],
                    house=esc(house_title(d["neutral_house"], "of")),
                )
            return text
        if k == "hand":
            return tr("Starting hand of {who}: {cards}", who=who(), cards=", ".join(card_markup(c) for c in d["cards"]))
        if k == "turn":
            if d.get("out_of_order"):
                return "[bold]── " + tr("{who} — turn {n} (out of order)", who=who(), n=d["number"]) + " ──[/bold]"
            return "[bold]── " + tr("{who} — turn {n}", who=who(), n=d["number"]) + " ──[/bold]"
        if k == "lead":
            return tr("{who} leads with an empty hand", who=who()) if d.get("empty_hand") else None
        if k == "ability_effect":
            return None
        if k == "ability":
            return "  " + tr("{card}: deploy ability", card=card())
        if k == "deploy":
            what = tr("a card face down") if d.get("card") is None else obj()  # the object form
            if d.get("bottom"):
                return tr("{who} deploys {card} at the bottom of {location}", who=who(), card=what, location=loc())
            return tr("{who} deploys {card} on {location}", who=who(), card=what, location=loc())
        if k == "gain":
            if d.get("face_down"):
                return tr("{who} gains a face-down card from {location}", who=who(), location=loc("source"))
            if d.get("source") == "deck":
                return tr("{who} gains the top card of the deck", who=who())
            if d.get("source") == "banished":
                return tr("{who} gains {card} from the banished pile", who=who(), card=obj())
            return tr("{who} gains {card} from {location}", who=who(), card=obj(), location=loc("source"))
        if k == "gain_seen":
            return "  (" + tr("{who} gained {card}", who=who(), card=obj()) + ")"
        if k == "bonus":
            return tr("{who} takes the bonus of {location}", who=who(), location=loc())
        if k == "fleet":
            if d["delta"] > 0:
                return ntr(
                    "{who} advances {n} step on the Fleet Track (now {now})",
                    "{who} advances {n} steps on the Fleet Track (now {now})",
                    d["delta"],
                    who=who(),
                    now=d["fleet"],
                )
            return ntr(
                "{who} moves back {n} step on the Fleet Track (now {now})",
                "{who} moves back {n} steps on the Fleet Track (now {now})",
                -d["delta"],
                who=who(),
                now=d["fleet"],
            )
        if k == "helium":
            if d["delta"] > 0:
                return ntr(
                    "{who} gains {n} Helium (now {now})",
                    "{who} gains {n} Helium (now {now})",
                    d["delta"],
                    who=who(),
                    now=d["helium"],
                )
            return ntr(
                "{who} loses {n} Helium (now {now})",
                "{who} loses {n} Helium (now {now})",
                -d["delta"],
                who=who(),
                now=d["helium"],
            )
        if k == "influence":
            if d["delta"] > 0:
                return ntr(
                    "{who} places {n} Influence on the Institute (now {now})",
                    "{who} places {n} Influence on the Institute (now {now})",
                    d["delta"],
                    who=who(),
                    now=d["influence"],
                )
            return ntr(
                "{who} removes {n} Influence from the Institute (now {now})",
                "{who} removes {n} Influence from the Institute (now {now})",
                -d["delta"],
                who=who(),
                now=d["influence"],
            )
        if k == "reveal":
            src = d.get("source")
            if src == "deck":
                frm = tr("from the deck")
            elif src == "hand":
                frm = tr("from their hand")
            else:
                frm = tr("from {location}", location=loc("source"))
            if d.get("player") is not None:
                return tr("{who} reveals {card} {source}", who=who(), card=obj(), source=frm)
            return tr("Revealed {card} {source}", card=obj(), source=frm)
        if k == "place":
            what = tr("a card face down") if d.get("card") is None else obj()  # the object form
            actor = who() if d.get("player") is not None else tr("Somebody")
            if d.get("bottom"):
                text = tr("{who} places {card} at the bottom of {location}", who=actor, card=what, location=loc())
            else:
                text = tr("{who} places {card} on {location}", who=actor, card=what, location=loc())
            if d.get("under"):
                text += " " + tr("under {card}", card=obj("under"))
            return text
        if k == "move":
            what = tr("a card face down") if d.get("card") is None else obj()  # the object form
            text = tr(
                "{who} moves {card} from {source} to {location}",
                who=who(),
                card=what,
                source=loc("source"),
                location=loc(),
            )
            if d.get("under"):
                text += " " + tr("under {card}", card=obj("under"))
            if d.get("over"):
                text += " " + tr("onto {card}", card=obj("over"))
            return text
        if k == "end_turn":
            return tr("{card} ends the turn of {who}", card=card(), who=who())
        if k == "banish":
            src = d.get("source") or ""
            named = {"hand": tr("from their hand"), "block": tr("(to block)"), "deck": tr("from the deck"), "": ""}
            frm = named[src] if src in named else tr("from {location}", location=esc(loc_title(src)))
            if d.get("player") is None:
                return tr("{card} is banished {source}", card=obj(), source=frm).rstrip()
            return tr("{who} banishes {card} {source}", who=who(), card=obj(), source=frm).rstrip()
        if k == "block":
            if d.get("attempt") == "take_sovereign":
                return tr(
                    "{who} keeps the Sovereign token: blocks {other} with {card}",
                    who=who(),
                    other=who("against"),
                    card=quoted(),
                )
            return tr("{who} blocks {other} with {card}", who=who(), other=who("against"), card=quoted())
        if k == "sovereign":
            if d.get("taken_from") is not None:
                return tr("{who} gains the Sovereign token from {other}", who=who(), other=who("taken_from"))
            return tr("{who} gains the Sovereign token", who=who())
        if k == "house_ability":
            return "  " + tr("House {house} ability", house=esc(house_title(d["house"], "of")))
        if k == "die":
            face = loc_title(d["face"]) if d["face"] in LOCATION_OF_NAME else tr(d["face"])
            return tr("{who} rolls the Rising die: {face}", who=who(), face=esc(face))
        if k == "end_triggered":
            return tr(
                "[bold]The end of the game is triggered[/bold] (Helium {helium}, Influence {influence}, "
                "Fleet {fleet}): play on until everybody has had as many turns",
                helium=d["helium"],
                influence=d["influence"],
                fleet=d["fleet"],
            )
        if k == "apollo_last_turn":
            return tr("House Apollo: {who} takes the last turn", who=who())
        if k == "game_end":
            return tr("[bold]Game over[/bold]: end-of-game abilities, then scoring")
        if k == "end_of_game_ability":
            return tr("{who} resolves the end-of-game ability of {card}", who=who(), card=quoted())
        if k == "scores":
            return tr(
                "Final scores: {scores}",
                scores=", ".join(f"{self.who(p, viewer)} {t}" for p, t in enumerate(d["totals"])),
            )
        if k == "steal":
            return tr("{who} steals a card from {other} ({card})", who=who(), other=who("victim"), card=card("card_by"))
        if k == "steal_seen":
            return "  (" + tr("{who} took {card} from {other}", who=who(), card=obj(), other=who("victim")) + ")"
        if k == "steal_helium":
            return tr("{who} steals Helium from {other} ({card})", who=who(), other=who("victim"), card=card())
        if k == "give":
            return tr(
                "{who} gives {card} from {location} to {other}",
                who=who(),
                card=obj(),
                location=loc("source"),
                other=who("to_player"),
            )
        if k == "look_hand":
            return tr("{who} looks at the hand of {other}", who=who(), other=who("target"))
        if k == "hand_seen":
            return (
                "  ("
                + tr(
                    "{who} saw the hand of {other}: {cards}",
                    who=who(),
                    other=who("target"),
                    cards=", ".join(card_markup(c) for c in d["cards"]),
                )
                + ")"
            )
        if k == "look":
            return tr("{who} looks at the top {cards} of the deck", who=who(), cards=cards(d["count"]))
        if k == "look_seen":
            return "  (" + tr("{who} saw {cards}", who=who(), cards=", ".join(card_markup(c) for c in d["cards"])) + ")"
        if k == "name_card":
            return tr("{who} names {card} in the hand of {other}", who=who(), card=obj(), other=who("target"))
        if k == "random_pick":
            return tr("{who} picks a random card from the hand of {other}", who=who(), other=who("target"))
        if k == "random_pick_seen":
            return "  (" + tr("{who} picked {card} from {other}", who=who(), card=obj(), other=who("target")) + ")"
        if k == "random_banished":
            return tr("{who} draws {card} at random from the banished pile", who=who(), card=obj())
        if k == "points":
            return ntr(
                "{who} scores {n} point ({card})",
                "{who} scores {n} points ({card})",
                d["points"],
                who=who(),
                card=card(),
            )
        if k == "loan_shark":
            if d.get("out_of_order_turn"):
                return ntr(
                    "{who} pays {other} {n} Helium and takes a turn out of order",
                    "{who} pays {other} {n} Helium and takes a turn out of order",
                    d["paid"],
                    who=who(),
                    other=who("lender"),
                )
            return ntr(
                "{who} pays {other} {n} Helium",
                "{who} pays {other} {n} Helium",
                d["paid"],
                who=who(),
                other=who("lender"),
            )
        if k == "to_deck":
            if d.get("end") == "top":
                return tr("{who} puts {card} on the top of the deck", who=who(), card=obj())
            return tr("{who} puts {card} at the bottom of the deck", who=who(), card=obj())
        if k == "deck_bottom":
            return tr("{who} puts {card} at the bottom of the deck", who=who(), card=obj())
        if k == "return_to_deck":
            if d.get("shuffled"):
                return tr("{who} returns {cards} to the deck and shuffles", who=who(), cards=cards(d["count"]))
            return tr("{who} returns {cards} to the deck", who=who(), cards=cards(d["count"]))
        if k == "name_color":
            return tr("{who} names {color} ({card})", who=who(), color=color_markup(d["color"]), card=card())
        if k == "chose":
            return tr(
                "{who} chooses {option} ({card})",
                who=who(),
                option=esc(choice_word(d["option"]) or d["option"]),
                card=card(),
            )
        if k == "count":
            cols = tr(" or ").join(tr(x) for x in d.get("colors", []))
            return tr(
                "{who} counts the {colors} cards on {location}: {n}",
                who=who(),
                n=d["count"],
                colors=esc(cols),
                location=loc(),
            )
        if k in ("cannot_reveal", "not_found"):
            cols = tr(" or ").join(tr(x) for x in d.get("colors", []))
            if k == "not_found":
                return tr("No {colors} is found in the deck ({card})", colors=esc(cols), card=card())
            return tr("{who} has no {colors} to reveal ({card})", who=who(), colors=esc(cols), card=card())
        if k == "nothing_to_gain":
            return tr("{who} has nothing to gain", who=who())
        return self._generic(e, viewer)

    def _generic(self, e: Event, viewer: int | None) -> str:
        parts = []
        for key, val in e.data.items():
            if key in (
                "player",
                "target",
                "victim",
                "to_player",
                "attacker",
                "by",
                "against",
                "lender",
                "thief",
            ) and isinstance(val, int):
                parts.append(f"{key} {self.who(val, viewer)}")
            elif isinstance(val, str) and val in BY_SLUG:
                parts.append(f"{key} {card_markup(val)}")
            elif isinstance(val, list) and val and all(isinstance(x, str) and x in BY_SLUG for x in val):
                parts.append(f"{key} " + ", ".join(card_markup(x) for x in val))
            else:
                parts.append(f"{key} {esc(val)}")
        return f"{esc(e.kind.replace('_', ' '))}: " + "; ".join(parts)

    def help_text(self) -> str:
        return esc(
            tr(
                "Your turn: Lead (deploy a card from your hand on a location: its deploy ability triggers; then "
                "gain the top card of another location and its bonus, or the top card of the deck and roll the "
                "Rising die) or Scout (reveal the top card of the deck, place it on a location and gain that "
                "location's bonus). The end is triggered when, among all players, someone has {n}+ Helium, "
                "someone {n}+ Influence on the Institute and someone {n}+ on the Fleet Track, or when one player "
                "reaches two of these. Scoring: cards in hand (value and end-game bonuses), Fleet Track, 3 per "
                "Helium, 10 for the Sovereign token, Influence (4 each for the most, 2 for second, 1 for "
                "others), -10 per card beyond the 7th.",
                n=THRESHOLD,
            )
        )

    # ------------------------------------------------------------------ commands
    def commands(self) -> dict[str, Command]:
        return {
            "look": Command(
                tr("look LOCATION"), tr("every card at a location, with the top card's full text"), self._look
            ),
            "card": Command(tr("card NAME"), tr("a card's full rules text"), self._card),
        }

    def _look(self, state: State, viewer: int | None, arg: str) -> list[RenderableType]:
        key = arg.strip().lower()
        matches = []
        if key:
            for n in LOCATION_NAMES:
                titles = {n, loc_title(n).lower(), LOCATION_TITLES[LOCATION_OF_NAME[n]].lower()}
                if any(t.startswith(key) or t == "the " + key for t in titles):
                    matches.append(n)
        if len(matches) != 1:
            names = " | ".join(loc_title(n).lower() for n in LOCATION_NAMES)
            return [Text(tr("Say which location: look {names}", names=names))]
        name = matches[0]
        pile = state.view(viewer)["locations"][name]
        t = Table(
            title=tr(
                "{location} (bonus: {bonus}), bottom → top", location=loc_title(name), bonus=tr(LOCATION_BONUS[name])
            ),
            show_lines=True,
            title_justify="left",
        )
        t.add_column("#", justify="right")
        t.add_column(tr("Card"), no_wrap=True)
        t.add_column(tr("Rules"))
        for i, c in enumerate(pile):
            top = i == len(pile) - 1
            rules = (
                card_text_markup(c["card"])
                if top and "card" in c
                else ("[dim]" + tr("(covered: only name, colour and value show)") + "[/dim]" if not top else "")
            )
            t.add_row(str(i + 1), ("▲ " if top else "") + json_card_markup(c), rules)
        if not pile:
            t.add_row("", tr("(empty)"), "")
        return [t]

    def _card(self, state: State, viewer: int | None, arg: str) -> list[RenderableType]:
        try:
            idx = find_card(arg)
        except KeyError:
            near = near_names(arg) if arg.strip() else []
            text = tr("No card named '{name}'.", name=arg)
            if near:
                text += " " + tr("Did you mean: {names}?", names=", ".join(near))
            return [Text(text)]
        slug = CARDS[idx].slug
        return [
            Panel(
                Text.from_markup(card_text_markup(slug) or tr("(no ability text)")),
                title=Text.from_markup(card_markup(slug)),
                title_align="left",
            )
        ]

    # ------------------------------------------------------------------ end
    def end_screen(self, state: State, compact: bool = False) -> list[RenderableType]:
        """The final hands, the scorepad (a row per player) and the winner; ``compact`` gives each
        hand a single line."""
        v = state.view(None)
        scores = v.get("scores") or []
        winners = v.get("winners") or state.winners()
        hands = Table(title=tr("Final hands"), title_justify="left", show_edge=False, box=None, pad_edge=False)
        namew = max(len(self.seat_name(p)) for p in range(self.n))
        hands.add_column(tr("Player"), no_wrap=True, min_width=namew)
        hands.add_column(tr("Cards"), no_wrap=compact, overflow="ellipsis" if compact else "fold")
        for p, hand in enumerate(state.summary().get("hands", [])):
            hands.add_row(self.who(p), ", ".join(card_name(c) for c in hand) or tr("(none)"))
        t = Table(title=tr("Scorepad"), title_justify="left", show_lines=False, pad_edge=False)
        if compact:
            t.box = None
            t.header_style = "bold"
        t.add_column(tr("Player"), no_wrap=True, min_width=namew)
        for _key, label in SCORE_ROWS:
            t.add_column(tr(label), justify="right")
        t.add_column("[bold]" + tr("Total") + "[/bold]", justify="right")
        for p, s in enumerate(scores):
            t.add_row(self.who(p), *[str(s[key]) for key, _ in SCORE_ROWS], f"[bold]{s['total']}[/bold]")
        notes = []
        for p, s in enumerate(scores):
            ch = s.get("choices") or {}
            for name, color in (ch.get("as_color") or {}).items():
                notes.append(
                    tr(
                        "{who}: {card} counted as {color}",
                        who=self.who(p),
                        card=esc(printed(name)),
                        color=color_markup(color),
                    )
                )
            for name, as_name in (ch.get("as_name") or {}).items():
                notes.append(
                    tr(
                        "{who}: {card} counted as {other}",
                        who=self.who(p),
                        card=esc(printed(name)),
                        other=esc(printed(as_name)),
                    )
                )
        if len(winners) == 1:
            win = ntr(
                "[bold]Winner: {who}[/bold] with {n} point",
                "[bold]Winner: {who}[/bold] with {n} points",
                scores[winners[0]]["total"],
                who=self.who(winners[0]),
            )
        else:
            win = tr("[bold]Shared victory: {who}[/bold]", who=", ".join(self.who(w) for w in winners))
        out: list[RenderableType] = [hands, t]
        if notes:
            out.append(Text.from_markup(" · ".join(notes) if compact else "\n".join(notes)))
        out.append(Text.from_markup(win))
        return out
