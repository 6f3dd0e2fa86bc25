"""Red Rising in the terminal: the board, your hand, decisions in words, the log, the scorepad.

Everything is read from ``state.view(viewer)`` (and the viewer's events); card rules text
comes from :func:`redtable.redrising.gallery.card_entry`, rendered from the engine's own
encoding. A card's colour (caste) is always written out, so the screens read the same
without colour (``NO_COLOR``).
"""

from __future__ import annotations

from functools import lru_cache

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..core import Decision, Event, State
from ..redrising import abilities  # noqa: F401  (registers every card's abilities)
from ..redrising.board import (
    DIE_TEXT, FLEET_MAX, HOUSE_NAMES, HOUSE_TEXT, HOUSE_TITLES, LOCATION_NAMES, LOCATION_OF_NAME,
    LOCATION_TITLES, THRESHOLD,
)
from ..redrising.cards import BY_SLUG, CARDS, COLOR_NAMES, card_index, close_names
from ..redrising.gallery import card_entry
from .common import Command, Renderer, Seat, esc, plural

CASTE_STYLE = {
    "red": "red3", "brown": "orange4", "pink": "hot_pink", "violet": "medium_purple1",
    "yellow": "yellow1", "green": "green3", "blue": "dodger_blue1", "orange": "dark_orange",
    "gray": "grey62", "obsidian": "grey85 on grey23", "silver": "bold grey82",
    "white": "bold bright_white", "copper": "light_salmon3", "gold": "bold gold1",
}
HOUSE_STYLE = {
    "apollo": "yellow1", "ceres": "green3", "diana": "medium_purple1", "jupiter": "dodger_blue1",
    "mars": "red3", "minerva": "grey85",
}
LOCATION_BONUS = {
    "jupiter": "+1 Fleet", "mars": "+1 Helium", "luna": "the Sovereign token",
    "institute": "+1 Influence",
}
TEXT_KEYS = (("deploy", "Deploy"), ("end_game_bonus", "End-game"), ("end_of_game", "End of game"),
             ("block", "Block"))
SCORE_ROWS = (("cards", "Cards in hand"), ("fleet", "Fleet Track"), ("helium", "Helium"),
              ("sovereignty", "Sovereignty"), ("influence", "Influence"), ("excess_cards", "Excess cards"))
# Decisions whose answer every player sees at the table (or learns at once from the log).
PUBLIC_KINDS = frozenset({
    "action", "deploy_location", "gain", "scout_location", "place_location", "banish_top",
    "banish_from_location", "move_location", "choose_card", "choose_opponent", "choose_one",
    "choose_color", "name_color", "may", "block", "block_sovereign", "loan_shark", "die_face",
    "choose_banished", "order_under", "reveal", "banish_from_hand", "ceres_banish_hand",
})
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
    "action": "lead or scout", "deploy_location": "deploy on", "gain": "gain from",
    "scout_location": "scout onto", "place_location": "place on", "banish_top": "banish the top of",
    "banish_from_location": "banish", "move_location": "move to", "choose_one": "chooses",
    "block": "block?", "block_sovereign": "block?", "loan_shark": "pay the Loan Shark?",
    "die_face": "die bonus", "may": "may", "ceres_banish_hand": "banish from hand",
}
CHOICE_WORDS = {
    "yes": "Yes", "no": "No", "none": "None (skip)", "top": "On top of the deck",
    "bottom": "At the bottom of the deck", "helium": "Helium", "advance": "Advance on the Fleet Track",
    "influence": "Influence on the Institute", "banish": DIE_TEXT["banish"], "place": DIE_TEXT["place"],
}


@lru_cache(maxsize=None)
def card_text(slug: str) -> tuple[tuple[str, str], ...]:
    """A card's rules, as (label, text) pairs."""
    entry = card_entry(BY_SLUG[slug])
    return tuple((label, entry[key]) for key, label in TEXT_KEYS if key in entry)


def card_text_markup(slug: str) -> str:
    return "\n".join(f"[italic]{label}:[/italic] {esc(text)}" for label, text in card_text(slug))


def color_markup(color: str) -> str:
    return f"[{CASTE_STYLE.get(color, '')}]{esc(color)}[/]"


def card_markup(slug: str | None, value: bool = True) -> str:
    """``Name (colour value)`` in its caste's colour."""
    if slug is None or slug not in BY_SLUG:
        return "a face-down card" if slug is None else esc(slug)
    c = CARDS[BY_SLUG[slug]]
    color = COLOR_NAMES[c.color]
    tail = f" ({color} {c.value})" if value else f" ({color})"
    return f"[{CASTE_STYLE[color]}]{esc(c.name)}[/]{tail}"


def json_card_markup(card: dict) -> str:
    """A card as the view gives it: face-down ones are backs unless the viewer knows them."""
    if "card" not in card:
        return "[reverse] face-down [/reverse]"
    text = card_markup(card["card"])
    if card.get("face_down"):
        text += " [dim](face-down)[/dim]"
    return text


def loc_title(name: str) -> str:
    return LOCATION_TITLES[LOCATION_OF_NAME[name]] if name in LOCATION_OF_NAME else name


def house_title(name: str) -> str:
    return HOUSE_TITLES[HOUSE_NAMES.index(name)] if name in HOUSE_NAMES else name.capitalize()


class RedRisingRenderer(Renderer):
    title = "Red Rising"

    def __init__(self, state: State, seats: list[Seat]) -> None:
        super().__init__(state, seats)
        self.houses = [p["house"] for p in state.view(None)["players"]]

    # ------------------------------------------------------------------ seats
    def seat_name(self, p: int) -> str:
        return f"P{p} {house_title(self.houses[p])}"

    def who(self, p: int | None, viewer: int | None = None) -> str:
        if p is None:
            return "nobody"
        style = HOUSE_STYLE.get(self.houses[p], "")
        name = f"[bold {style}]{esc(self.seat_name(p))}[/]"
        return f"{name} (you)" if p == viewer else name

    # ------------------------------------------------------------------ board
    def board(self, state: State, viewer: int | None, decision: Decision | None) -> list[RenderableType]:
        v = state.view(viewer)
        out: list[RenderableType] = [self._header(v, viewer), self._players(v, viewer), self._locations(v)]
        banished = ", ".join(card_markup(s, value=False) for s in v["banished"]) or "none"
        out.append(Text.from_markup(f"[bold]Deck:[/bold] {plural(v['deck_size'], 'card')}    "
                                    f"[bold]Banished:[/bold] {banished}"))
        if viewer is not None and not (decision is not None and decision.kind == "action"):
            out.append(self._hand(v, viewer))
        return out

    def _header(self, v: dict, viewer: int | None) -> Text:
        bits = [f"[bold]Red Rising[/bold] — {self.n} players"]
        turn = v.get("current_turn")
        if turn is not None and v["phase"] == "play":
            bits.append(f"{self.who(turn, viewer)}'s turn")
        elif v["phase"] != "play":
            bits.append("[bold]end of the game[/bold]")
        if v["end_triggered"] and v["phase"] == "play":
            bits.append("[bold reverse] END TRIGGERED [/] finish the round")
        if viewer is not None:
            bits.append(f"you are {self.who(viewer)}")
        return Text.from_markup("  ·  ".join(bits))

    def _players(self, v: dict, viewer: int | None) -> Table:
        t = Table(title="Houses", title_justify="left", show_edge=False, pad_edge=False)
        for col, just in (("Player", "left"), ("Hand", "right"), ("Fleet", "right"), ("Helium", "right"),
                          ("Influence", "right"), ("Sovereign", "center"), ("Turns", "right")):
            t.add_column(col, justify=just)
        for p in v["players"]:
            seat = p["seat"]
            t.add_row(
                f"{self.who(seat, viewer)} [dim]{esc(self.seats[seat].kind)}[/dim]", str(p["hand_size"]),
                f"{p['fleet']}/{FLEET_MAX}", str(p["helium"]), str(p["influence"]),
                "[bold]★ yes[/bold]" if p["sovereign"] else "", str(p["turns"]))
        caption = [f"First player: {self.who(v['first_player'], viewer)}."]
        if v["neutral_influence"]:
            caption.append(f"Neutral house: {v['neutral_influence']} Influence on the Institute.")
        caption.append(f"The end comes at {THRESHOLD}+ Helium, {THRESHOLD}+ Influence, {THRESHOLD}+ Fleet (? for more).")
        t.caption = Text.from_markup(" ".join(caption))
        t.caption_justify = "left"
        return t

    def _locations(self, v: dict) -> Table:
        t = Table(title="Locations ('look mars' shows a location's top card in full)",
                  title_justify="left", show_lines=True, expand=False)
        t.add_column("Location", no_wrap=True)
        t.add_column("Bonus")
        t.add_column("Cards, bottom → top (▲ = top card)")
        for name in LOCATION_NAMES:
            cards = v["locations"][name]
            items = []
            for i, c in enumerate(cards):
                mark = "▲ " if i == len(cards) - 1 else ""
                items.append(f"{i + 1}. {mark}{json_card_markup(c)}")
            t.add_row(f"[bold]{loc_title(name)}[/bold]", LOCATION_BONUS[name], "\n".join(items) or "(empty)")
        return t

    def _hand(self, v: dict, viewer: int) -> RenderableType:
        me = v["players"][viewer]
        house = me["house"]
        t = Table(show_edge=False, show_lines=True, pad_edge=False)
        t.add_column("Card", no_wrap=True)
        t.add_column("Rules")
        for c in me.get("hand", []):
            t.add_row(json_card_markup(c), card_text_markup(c["card"]) if "card" in c else "")
        if not me.get("hand"):
            t.add_row("(no cards)", "")
        house_line = Text.from_markup(
            f"[italic]House {esc(house_title(house))}:[/italic] {esc(HOUSE_TEXT[HOUSE_NAMES.index(house)])}")
        return Panel(Group(t, house_line), title=f"Your hand — {esc(self.seat_name(viewer))} "
                                                 f"({plural(len(me.get('hand', [])), 'card')})",
                     title_align="left")

    # ------------------------------------------------------------------ decisions
    def explain(self, state: State, d: Decision) -> str:
        c = d.context
        src = card_markup(c["card"]) if c.get("card") in BY_SLUG else None
        text = esc(c.get("text", ""))
        who = lambda key: self.who(c.get(key))  # noqa: E731
        k = d.kind
        if k == "action":
            return ("Your turn. [bold]Lead[/bold]: deploy a card from your hand on a location (its deploy "
                    "ability triggers), then gain the top card of another location (and its bonus) or of "
                    "the deck (and roll the Rising die). Or [bold]Scout[/bold]: reveal the top card of the "
                    "deck, place it on a location and gain that location's bonus.")
        if k == "deploy_location":
            where = "" if c.get("source") in (None, "hand") else f" (from {esc(loc_title(c['source']))})"
            return f"Deploy {src}{where} on which location?"
        if k == "gain":
            dep = f" You deployed on {loc_title(c['deployed'])} this turn." if c.get("deployed") else ""
            return (f"Complete the Lead: gain the top card of a location and its bonus, or the top card of "
                    f"the deck and roll the Rising die.{dep}")
        if k == "scout_location":
            return f"Scout: the top card of the deck is {src}. Place it on which location? You gain that location's bonus."
        if k == "place_location":
            placing = card_markup(c["placing"]) if c.get("placing") else src
            by = f" ({src})" if c.get("placing") else ""
            return f"Place (not deploy) {placing}{by} on which location?"
        if k == "may":
            return f"{src}: {text} Do you?"
        if k == "banish_from_location":
            return "House Ceres: banish any 1 card from a location."
        if k == "banish_top":
            return "Rising die: banish the top card of a location of your choice."
        if k == "choose_card":
            return f"{src}: {text} Which card?"
        if k == "move_location":
            return f"{src}: move the card to which location?"
        if k == "choose_opponent":
            return f"{src}: choose an opponent."
        if k == "choose_one":
            extra = f" ({esc(c['hint'])}; {who('for')} gets the others)" if "for" in c else ""
            return f"{src}: choose one{extra}."
        if k == "choose_color":
            return f"{src}: name a colour."
        if k == "name_color":
            named = ", ".join(color_markup(x) for x in c.get("named", [])) or "none yet"
            return f"{src}: name a colour (named so far: {named})."
        if k == "banish_from_hand":
            if "attacker" in c:
                return f"{who('attacker')} played {src}: banish 1 card of your choice from your hand."
            return f"{src}: {text}"
        if k == "block":
            return (f"{who('attacker')} plays {src} to steal or banish your cards. Block it by revealing "
                    f"a card (it goes back to your hand)?")
        if k == "block_sovereign":
            return (f"{who('attacker')} is taking the Sovereign token from you. Block by revealing and "
                    f"banishing a card?")
        if k == "choose_banished":
            return f"{src}: {text} Choose from the banished pile."
        if k == "ceres_banish_hand":
            return "House Ceres, end of game: banish 1 card from your hand before scoring."
        if k == "name_card":
            return f"{src}: name a card in {who('target')}'s hand."
        if k == "order_under":
            return f"{src}: {esc(c.get('hint', 'choose the order'))}."
        if k == "bottom_order":
            return f"{src}: {esc(c.get('hint', 'choose the order'))}."
        if k == "loan_shark":
            return f"{who('lender')} played {src}: {text}"
        if k == "facedown_card":
            return f"{src}: choose the card to place face down on top of {esc(loc_title(c.get('location', '')))}."
        if k == "choose_hand":
            return f"{src}: {text}"
        if k == "die_face":
            return "House Minerva rolled the Sovereign token: choose any other bonus of the die."
        if k == "deck_end":
            return f"{src}: put {card_markup(c.get('placing'))} on the top or at the bottom of the deck?"
        if k == "reveal":
            return f"{who('by')} played {src}: {esc(c.get('hint', 'reveal a card'))}."
        if k == "steal_choice":
            return f"{who('thief')} played {src}: choose the card from your hand they take."
        if k == "reveal_from_hand":
            return f"{src}: reveal a card from your hand ({c.get('left', '?')} to go)."
        if k == "end_of_game_order":
            return "End of game: choose which of your end-of-game abilities to resolve next."
        bits = ", ".join(f"{esc(key)}: {esc(val)}" for key, val in c.items() if key != "card")
        return f"{esc(k.replace('_', ' ').capitalize())}" + (f" — {src}" if src else "") + (f" ({bits})" if bits else "")

    def option_row(self, state: State, d: Decision, v: dict, o: str) -> tuple[str, str]:
        k = d.kind
        if o in BY_SLUG:
            return card_markup(o), card_text_markup(o)
        if o.startswith("block:") and o[6:] in BY_SLUG:
            return f"Block with {card_markup(o[6:])}", card_text_markup(o[6:])
        if o in LOCATION_OF_NAME:
            title = f"[bold]{loc_title(o)}[/bold]"
            cards = v["locations"][o]
            top = json_card_markup(cards[-1]) if cards else "(empty)"
            if k == "gain":
                return f"{title}: take {top}", f"then {LOCATION_BONUS[o]}"
            if k in ("scout_location", "place_location", "banish_top", "die_face"):
                if k == "banish_top":
                    return f"{title}: banish {top}", ""
                if k == "die_face":
                    return title, esc(DIE_TEXT[o])
                bonus = f"bonus: {LOCATION_BONUS[o]}" if k == "scout_location" else ""
                return f"{title} (on top of {top})", bonus
            return f"{title} (top: {top})", ""
        if o == "deck":
            return "[bold]The deck[/bold]: take its top card", "then roll the Rising die"
        if o == "scout":
            return ("[bold]Scout[/bold]", "Reveal the top card of the deck and place (not deploy) it on any "
                    "location; gain that location's bonus.")
        if o == "lead":
            return "[bold]Lead[/bold] without deploying (your hand is empty)", ""
        if ":" in o:
            name, _, idx = o.partition(":")
            if name in LOCATION_OF_NAME and idx.isdigit():
                cards = v["locations"][name]
                i = int(idx)
                if i < len(cards):
                    top = " (top)" if i == len(cards) - 1 else ""
                    slug = cards[i].get("card")
                    return (f"{json_card_markup(cards[i])} at {loc_title(name)}, position {i + 1} from "
                            f"the bottom{top}", card_text_markup(slug) if slug else "")
        if o[:1] == "p" and o[1:].isdigit():
            return self.who(int(o[1:])), ""
        if o in COLOR_NAMES:
            return color_markup(o), ""
        if o in CHOICE_WORDS:
            return esc(CHOICE_WORDS[o]), ""
        return esc(state.describe(o)), ""

    def aliases(self, state: State, d: Decision, option: str) -> list[str]:
        out = []
        slug = option[6:] if option.startswith("block:") else option
        if slug in BY_SLUG:
            out.append(CARDS[BY_SLUG[slug]].name.lower())
        if option in LOCATION_OF_NAME:
            out.append(loc_title(option).lower())
        if option[:1] == "p" and option[1:].isdigit():
            out.append(self.seat_name(int(option[1:])).lower())
        return out

    # ------------------------------------------------------------------ moves and log
    def decision_label(self, kind: str) -> str:
        return LABEL.get(kind, kind.replace("_", " "))

    def public_move(self, state: State, d: Decision, action: str) -> str | None:
        if d.kind not in PUBLIC_KINDS:
            return None
        v = state.view(None)  # what everybody sees: face-down cards stay anonymous
        label, _ = self.option_row(state, d, v, action)
        return label

    def hidden_move(self, d: Decision) -> str:
        return HIDDEN_MOVE.get(d.kind, super().hidden_move(d))

    def format_event(self, e: Event, viewer: int | None) -> str | None:
        d = e.data
        k = e.kind
        who = lambda key="player": self.who(d.get(key), viewer)  # noqa: E731
        card = lambda key="card": card_markup(d.get(key))  # noqa: E731
        loc = lambda key="location": esc(loc_title(d.get(key) or ""))  # noqa: E731
        if k == "setup":
            houses = ", ".join(self.who(p, viewer) for p in range(len(d["houses"])))
            line = f"Setup: houses {houses}; {self.who(d['first'], viewer)} plays first."
            if d.get("neutral_house"):
                line += f" Neutral house {esc(house_title(d['neutral_house']))}: {d['neutral_influence']} Influence on the Institute."
            return line
        if k == "hand":
            return f"{who()} starting hand: " + ", ".join(card_markup(c) for c in d["cards"])
        if k == "turn":
            extra = " (out of order)" if d.get("out_of_order") else ""
            return f"[bold]── {who()} — turn {d['number']}{extra} ──[/bold]"
        if k == "lead":
            return f"{who()} leads with an empty hand" if d.get("empty_hand") else None
        if k in ("ability_effect",):
            return None
        if k == "ability":
            return f"  {card()}: deploy ability"
        if k == "deploy":
            what = "a face-down card" if d.get("card") is None else card()
            where = f"at the bottom of {loc()}" if d.get("bottom") else f"on {loc()}"
            return f"{who()} deploys {what} {where}"
        if k == "gain":
            if d.get("face_down"):
                return f"{who()} gains a face-down card from {loc('source')}"
            if d.get("source") == "deck":
                return f"{who()} gains the top card of the deck"
            return f"{who()} gains {card()} from {loc('source')}"
        if k == "gain_seen":
            return f"  ({who()} gained {card()})"
        if k == "bonus":
            return f"{who()} takes the bonus of {loc()}"
        if k == "fleet":
            verb = "advances" if d["delta"] > 0 else "moves back"
            return f"{who()} {verb} {abs(d['delta'])} on the Fleet Track (now {d['fleet']})"
        if k == "helium":
            verb = "gains" if d["delta"] > 0 else "loses"
            return f"{who()} {verb} {abs(d['delta'])} Helium (now {d['helium']})"
        if k == "influence":
            verb = "places" if d["delta"] > 0 else "removes"
            return f"{who()} {verb} {abs(d['delta'])} Influence on the Institute (now {d['influence']})"
        if k == "reveal":
            by = f"{who()} reveals" if d.get("player") is not None else "Revealed"
            src = {"deck": "from the deck", "hand": "from their hand"}.get(d.get("source"), f"from {loc('source')}")
            return f"{by} {card()} {src}"
        if k == "place":
            what = "a face-down card" if d.get("card") is None else card()
            under = f" under {card('under')}" if d.get("under") else ""
            where = f"at the bottom of {loc()}" if d.get("bottom") else f"on {loc()}"
            actor = who() if d.get("player") is not None else "Somebody"
            return f"{actor} places {what} {where}{under}"
        if k == "move":
            what = "a face-down card" if d.get("card") is None else card()
            tail = f" under {card('under')}" if d.get("under") else ""
            tail += f" onto {card('over')}" if d.get("over") else ""
            return f"{who()} moves {what} from {loc('source')} to {loc()}{tail}"
        if k == "end_turn":
            return f"{card()} ends {who()}'s turn"
        if k == "banish":
            src = d.get("source") or ""
            frm = {"hand": " from their hand", "block": " (to block)", "deck": " from the deck", "": ""}.get(
                src, f" from {esc(loc_title(src))}")
            if d.get("player") is None:
                return f"{card()} is banished{frm}"
            return f"{who()} banishes {card()}{frm}"
        if k == "block":
            what = "taking the Sovereign token" if d.get("attempt") == "take_sovereign" else "the steal or banish"
            return f"{who()} blocks {who('against')}'s {what} with {card()}"
        if k == "sovereign":
            frm = f" from {who('taken_from')}" if d.get("taken_from") is not None else ""
            return f"{who()} gains the Sovereign token{frm}"
        if k == "house_ability":
            return f"  House {esc(house_title(d['house']))} ability"
        if k == "die":
            return f"{who()} rolls the Rising die: {esc(loc_title(d['face']) if d['face'] in LOCATION_OF_NAME else d['face'])}"
        if k == "end_triggered":
            return (f"[bold]The end of the game is triggered[/bold] (Helium {d['helium']}, Influence "
                    f"{d['influence']}, Fleet {d['fleet']}): play on until everybody has had as many turns")
        if k == "apollo_last_turn":
            return f"House Apollo: {who()} takes the last turn"
        if k == "game_end":
            return "[bold]Game over[/bold]: end-of-game abilities, then scoring"
        if k == "end_of_game_ability":
            return f"{who()} resolves the end-of-game ability of {card()}"
        if k == "scores":
            return "Final scores: " + ", ".join(f"{self.who(p, viewer)} {t}" for p, t in enumerate(d["totals"]))
        if k == "steal":
            return f"{who()} steals a card from {who('victim')} ({card('card_by')})"
        if k == "steal_seen":
            return f"  ({who()} took {card()} from {who('victim')})"
        if k == "steal_helium":
            return f"{who()} steals Helium from {who('victim')} ({card()})"
        if k == "give":
            return f"{who()} gives {card()} from {loc('source')} to {who('to_player')}"
        if k == "look_hand":
            return f"{who()} looks at {who('target')}'s hand"
        if k == "hand_seen":
            return f"  ({who()} saw {who('target')}'s hand: {', '.join(card_markup(c) for c in d['cards'])})"
        if k == "look":
            return f"{who()} looks at the top {plural(d['count'], 'card')} of the deck"
        if k == "look_seen":
            return f"  ({who()} saw {', '.join(card_markup(c) for c in d['cards'])})"
        if k == "name_card":
            return f"{who()} names {card()} in {who('target')}'s hand"
        if k == "random_pick":
            return f"{who()} picks a random card from {who('target')}'s hand"
        if k == "random_pick_seen":
            return f"  ({who()} picked {card()} from {who('target')})"
        if k == "random_banished":
            return f"{who()} draws {card()} at random from the banished pile"
        if k == "points":
            return f"{who()} scores {d['points']} points ({card()})"
        if k == "loan_shark":
            extra = " and takes a turn out of order" if d.get("out_of_order_turn") else ""
            return f"{who()} pays {who('lender')} {d['paid']} Helium{extra}"
        if k == "to_deck":
            return f"{who()} puts {card()} on the {esc(d.get('end'))} of the deck"
        if k == "deck_bottom":
            return f"{who()} puts {card()} at the bottom of the deck"
        if k == "return_to_deck":
            return f"{who()} returns {plural(d['count'], 'card')} to the deck" + (" and shuffles" if d.get("shuffled") else "")
        if k == "name_color":
            return f"{who()} names {color_markup(d['color'])} ({card()})"
        if k == "chose":
            return f"{who()} chooses {esc(CHOICE_WORDS.get(d['option'], d['option']))} ({card()})"
        if k == "count":
            cols = "/".join(d.get("colors", []))
            return f"{who()} counts {d['count']} {esc(cols)} at {loc()}"
        if k in ("cannot_reveal", "not_found"):
            cols = " or ".join(d.get("colors", []))
            return f"{who()} has no {esc(cols)} to reveal ({card()})"
        if k == "nothing_to_gain":
            return f"{who()} has nothing to gain"
        return self._generic(e, viewer)

    def _generic(self, e: Event, viewer: int | None) -> str:
        parts = []
        for key, val in e.data.items():
            if key in ("player", "target", "victim", "to_player", "attacker", "by", "against", "lender",
                       "thief") and isinstance(val, int):
                parts.append(f"{key} {self.who(val, viewer)}")
            elif isinstance(val, str) and val in BY_SLUG:
                parts.append(f"{key} {card_markup(val)}")
            elif isinstance(val, list) and val and all(isinstance(x, str) and x in BY_SLUG for x in val):
                parts.append(f"{key} " + ", ".join(card_markup(x) for x in val))
            else:
                parts.append(f"{key} {esc(val)}")
        return f"{esc(e.kind.replace('_', ' '))}: " + "; ".join(parts)

    def help_text(self) -> str:
        return esc(HELP)

    # ------------------------------------------------------------------ commands
    def commands(self) -> dict[str, Command]:
        return {
            "look": Command("look LOCATION", "every card at a location, with the top card's full text",
                            self._look),
            "card": Command("card NAME", "a card's full rules text", self._card),
        }

    def _look(self, state: State, viewer: int | None, arg: str) -> list[RenderableType]:
        key = arg.strip().lower()
        matches = [n for n in LOCATION_NAMES if n.startswith(key) or loc_title(n).lower().startswith(key)
                   or loc_title(n).lower() == "the " + key] if key else []
        if len(matches) != 1:
            return [Text.from_markup("Say which location: look jupiter | mars | luna | institute")]
        name = matches[0]
        cards = state.view(viewer)["locations"][name]
        t = Table(title=f"{loc_title(name)} (bonus: {LOCATION_BONUS[name]}), bottom → top", show_lines=True,
                  title_justify="left")
        t.add_column("#", justify="right")
        t.add_column("Card", no_wrap=True)
        t.add_column("Rules")
        for i, c in enumerate(cards):
            top = i == len(cards) - 1
            rules = card_text_markup(c["card"]) if top and "card" in c else (
                "[dim](covered: only name, colour and value show)[/dim]" if not top else "")
            t.add_row(str(i + 1), ("▲ " if top else "") + json_card_markup(c), rules)
        if not cards:
            t.add_row("", "(empty)", "")
        return [t]

    def _card(self, state: State, viewer: int | None, arg: str) -> list[RenderableType]:
        try:
            idx = card_index(arg)
        except KeyError:
            near = close_names(arg) if arg.strip() else []
            hint = f" Did you mean: {', '.join(near)}?" if near else ""
            return [Text.from_markup(f"No card named '{esc(arg)}'.{esc(hint)}")]
        slug = CARDS[idx].slug
        return [Panel(Text.from_markup(card_text_markup(slug) or "(no ability text)"),
                      title=Text.from_markup(card_markup(slug)), title_align="left")]

    # ------------------------------------------------------------------ end
    def end_screen(self, state: State) -> list[RenderableType]:
        v = state.view(None)
        scores = v.get("scores") or []
        winners = v.get("winners") or state.winners()
        t = Table(title="Scorepad", title_justify="left", show_lines=False)
        t.add_column("")
        for p in range(self.n):
            t.add_column(self.who(p) + f"\n{esc(self.seats[p].kind)}", justify="right")
        for key, label in SCORE_ROWS:
            t.add_row(label, *[str(s[key]) for s in scores])
        t.add_section()
        t.add_row("[bold]Total[/bold]", *[f"[bold]{s['total']}[/bold]" for s in scores])
        notes = []
        for p, s in enumerate(scores):
            ch = s.get("choices") or {}
            for name, color in (ch.get("as_color") or {}).items():
                notes.append(f"{self.who(p)}: {esc(name)} counted as {color_markup(color)}")
            for name, as_name in (ch.get("as_name") or {}).items():
                notes.append(f"{self.who(p)}: {esc(name)} counted as {esc(as_name)}")
        hands = Table(title="Final hands", title_justify="left", show_edge=False)
        hands.add_column("Player")
        hands.add_column("Cards")
        for p, hand in enumerate(state.summary().get("hands", [])):
            hands.add_row(self.who(p), ", ".join(card_markup(c) for c in hand) or "(none)")
        if len(winners) == 1:
            line = f"[bold]Winner: {self.who(winners[0])}[/bold] with {scores[winners[0]]['total']} points"
        else:
            line = "[bold]Shared victory: " + ", ".join(self.who(w) for w in winners) + "[/bold]"
        out: list[RenderableType] = [t]
        if notes:
            out.append(Text.from_markup("\n".join(notes)))
        out += [hands, Text.from_markup(line)]
        return out


HELP = (f"The end is triggered when, among all players, someone has {THRESHOLD}+ Helium, someone "
        f"{THRESHOLD}+ Influence on the Institute and someone {THRESHOLD}+ on the Fleet Track, or when one "
        f"player reaches two of these. Scoring: cards in hand (value and end-game bonuses), Fleet Track, "
        f"3 per Helium, 10 for the Sovereign token, Influence (4 each for the most, 2 for second, 1 for "
        f"others), -10 per card beyond the 7th.")
