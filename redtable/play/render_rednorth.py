"""Red North in the terminal: Outposts, Raiding Parties, Muster Groups, Gods, VP, the log.

Everything comes from ``state.view(viewer)``: face-down cards of other players are shown
as card backs, your own face-down cards are shown to you (marked face-down). Colours are
always written out, so the screens read the same without colour (``NO_COLOR``). The
screens' own words are translated (:mod:`redtable.i18n`); the names and rules texts of cards,
Gods and Outposts come in the chosen language from the same source as the page's gallery
(:mod:`redtable.rednorth.gallery`: ``kind_text``, ``god_name``, ``outpost_name``...).
"""

from __future__ import annotations

from collections import Counter

from rich.console import Group, JustifyMethod, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..core import Decision, Event, State
from ..i18n import get_lang, ntr, tr
from ..i18n.page import say
from ..rednorth.actions import action_text
from ..rednorth.cards import CHAMPION_BONUS, COLOUR_OF_NAME, KIND_OF_SLUG, KINDS, ROUND_NAMES, ROUND_VP, ROUNDS
from ..rednorth.cards import kind_name as declined_kind_name
from ..rednorth.cards import kind_text as rules_of_kind
from ..rednorth.gods import GOD_OF_SLUG, GODS, god_name, god_text
from ..rednorth.outposts import OUTPOSTS, PURPLE_DRAW, outpost_name, outpost_text
from .common import Command, Part, Renderer, cards, esc, line, one_line

COLOUR_STYLE = {
    "green": "green3",
    "red": "red3",
    "blue": "dodger_blue1",
    "purple": "medium_purple1",
    "yellow": "yellow1",
}
OUTPOST_SHORT = {  # a reminder; the full text is on the `outposts` command
    "green": "Tie Breaker token: wins all ties",
    "red": "First Player token; after Deployment give it away or keep it",
    "blue": "Champion token: Promote a face-up Jarl to +{n}",
    "purple": "draw {n} cards at Resolution",
    "yellow": "after Deployment: a discarded Raider face-up at an end of your Party",
}
PHASE_TITLE = {
    "deploy": "Deployment",
    "angleland": "Outpost powers (Angleland)",
    "sax": "Outpost powers (Sax)",
    "turn": "Player Actions",
    "reinforce": "Player Actions (Reinforce)",
    "loki": "Player Actions (Loki)",
    "freya": "Player Actions (Freya)",
    "saga": "Player Actions (Saga)",
    "hel": "Player Actions (Hel)",
    "over": "Game over",
}
DECIDED_BY = {
    "vp": "the most VP",
    "tie-breaker": "a tie on VP, broken by the Tie Breaker token",
    "glory": "a tie on VP, broken by the most unused Glory",
    "hand": "a tie on VP and Glory, broken by the most cards in hand",
    "turn-order": "a tie on VP, Glory and cards, broken by turn order from the First Player",
}
OUTPOST_RESULT = {
    "won": "won",
    "tie-breaker": "tie, Tie Breaker",
    "returned": "tie: back to the centre",
    "no-battle": "no battle",
}
LABEL = {
    "deploy": "deploys",
    "turn": "chooses an action",
    "reinforce": "reinforces with",
    "angleland": "Angleland",
    "sax": "Sax",
    "loki": "Loki",
    "freya": "Freya",
    "saga": "Saga",
    "hel": "Hel",
}
# Message ids used through variables, for the catalogs' completeness test.
MSGIDS = (
    *OUTPOST_SHORT.values(),
    *PHASE_TITLE.values(),
    *DECIDED_BY.values(),
    *OUTPOST_RESULT.values(),
    *LABEL.values(),
    *(k.name for k in KINDS),
    *COLOUR_STYLE,
)


def kind_name(slug: str) -> str:
    return tr(KINDS[KIND_OF_SLUG[slug]].name)


def kind_markup(slug: str | None, case: str = "n") -> str:
    """A card's name, coloured; ``case`` "a" (accusative) or "i" (instrumental) where the
    sentence's verb or preposition takes it («додає жовтого рейдера», «dokłada Czerwonego
    Najeźdźcę»)."""
    if slug is None or slug not in KIND_OF_SLUG:
        return "[reverse]" + tr("card back") + "[/reverse]" if slug is None else esc(slug)
    k = KINDS[KIND_OF_SLUG[slug]]
    style = COLOUR_STYLE.get(k.colour_name or "", "bold")
    name = tr(k.name) if case == "n" or get_lang() == "en" else declined_kind_name(k.kind, get_lang(), case)
    return f"[{style}]{esc(name)}[/]"


def kind_text(slug: str) -> str:
    return esc(rules_of_kind(KIND_OF_SLUG[slug], get_lang()))


def god_of(slug: str, case: str = "n") -> str:
    """A God's name in the current language (the gallery's), nominative or accusative ("a")."""
    return god_name(GOD_OF_SLUG[slug], get_lang(), case)


def top_text(top: dict) -> str:
    """The rules text of a Muster Group's top card (a Hero or a God), in the current language."""
    if top["type"] == "god":
        return esc(god_text(GOD_OF_SLUG[top["slug"]], get_lang()))
    return kind_text(top["slug"])


def outpost(colour: str) -> str:
    """An Outpost's name in the current language, by its colour (the gallery's)."""
    return outpost_name(COLOUR_OF_NAME[colour], get_lang())


def colour_markup(colour: str) -> str:
    return f"[{COLOUR_STYLE.get(colour, '')}]{esc(tr(colour))}[/]"


def round_title(name: str) -> str:
    """A round's name (spring, summer, ragnarok) as the page says it (:mod:`redtable.i18n.page`)."""
    return say("rn.round." + name)


def end_word(end: str) -> str:
    """A Party's end (left, right) as the page says it."""
    return say("rn." + end)


def counted(slugs: list[str]) -> str:
    if not slugs:
        return tr("none")
    c = Counter(slugs)
    return ", ".join(f"{n}× {kind_markup(s)}" if n > 1 else kind_markup(s) for s, n in c.items())


def slot_markup(slot: dict) -> str:
    if slot["face_up"]:
        text = kind_markup(slot["card"])
    elif slot["card"] is not None:
        text = f"{kind_markup(slot['card'])} [dim]({tr('face-down')})[/dim]"
    else:
        text = "[reverse]" + tr("card back") + "[/reverse]"
    if slot["glory"]:
        text += " " + tr("+{n} Glory", n=slot["glory"])
    if slot["champion"]:
        text += " " + tr("+Champion")
    return text


def party_markup(party: list[dict], sep: str = "   ") -> str:
    if not party:
        return tr("(empty)")
    return sep.join(f"{i}: {slot_markup(s)}" for i, s in enumerate(party))


def outpost_short(colour: str) -> str:
    n = CHAMPION_BONUS if colour == "blue" else PURPLE_DRAW
    return tr(OUTPOST_SHORT[colour], n=n)


class RedNorthRenderer(Renderer):
    title = "Red North"

    def group_top(self, group: dict) -> str:
        top = group["top"]
        if top["type"] == "hero":
            return kind_markup(top["slug"])
        return tr("[bold]{god}[/bold] (God)", god=esc(god_of(top["slug"])))

    # ------------------------------------------------------------------ compact screen
    def compact(self, state: State, viewer: int | None, decision: Decision | None, width: int) -> list[Part]:
        v = state.view(viewer)
        head = self._header(v, viewer)
        parts = [Part([[line(head)], [one_line(head, width)]], 100)]
        parts.append(Part([self._outposts_compact(v, viewer, width), self._outposts_packed(v, viewer, width)], 50))
        tokens = self._tokens(v, viewer)
        parts.append(Part([[line(tokens)], [one_line(tokens, width)], []], 40))
        parts.append(
            Part(
                [
                    self._seats_compact(v, viewer, True, True, width),
                    self._seats_compact(v, viewer, True, False, width),
                    self._seats_compact(v, viewer, False, False, width),
                ],
                70,
            )
        )
        muster = self._muster_line(v)
        parts.append(Part([[line(muster)], [one_line(muster, width)], []], 45))
        deck = self._deck_line(v)
        parts.append(Part([[line(deck)], [one_line(deck, width)], []], 20))
        if viewer is not None:
            hand = self._hand_line(v, viewer)
            parts.append(Part([[line(hand)], [one_line(hand, width)]], 80))
        return parts

    def _header(self, v: dict, viewer: int | None) -> str:
        bits = [
            "[bold]" + tr("Red North") + "[/bold]",
            tr("{name}, round {n}/{total}", n=v["round"], total=ROUNDS, name=round_title(v["round_name"])),
            ntr("Outposts worth {n} VP", "Outposts worth {n} VP", v["round_vp"]),
            tr(PHASE_TITLE[v["phase"]]) if v["phase"] in PHASE_TITLE else esc(v["phase"]),
        ]
        if v.get("to_act") is not None:
            bits.append(tr("{who} to act", who=self.who(v["to_act"], viewer)))
        if viewer is not None and v.get("to_act") != viewer:
            bits.append(tr("you are {who}", who=self.who(viewer)))
        return " · ".join(bits)

    def _holder(self, o: dict, viewer: int | None) -> str:
        return self.who(o["controller"], viewer) if o["controller"] is not None else "[dim]" + tr("nobody") + "[/dim]"

    def _outposts_compact(self, v: dict, viewer: int | None, width: int) -> list[RenderableType]:
        """An Outpost a line: colour, name, Raid Points, holder and a reminder of its power."""
        rows = [
            (
                f"[bold]{esc(outpost(o['colour']))}[/bold] ({colour_markup(o['colour'])})",
                tr("{n} pts", n=o["points"]),
                self._holder(o, viewer),
                esc(outpost_short(o["colour"])),
            )
            for o in v["outposts"]
        ]
        widths = [max(Text.from_markup(r[i]).cell_len for r in rows) for i in range(3)]
        out: list[RenderableType] = []
        for r in rows:
            cells = [Text.from_markup(r[i]) for i in range(3)]
            for c, w in zip(cells, widths, strict=True):
                c.pad_right(w - c.cell_len)
            t = Text(" ").join(cells) + Text("  ") + Text.from_markup(f"[dim]{r[3]}[/dim]")
            t.truncate(width, overflow="ellipsis")
            t.no_wrap = True
            out.append(t)
        return out

    def _outposts_packed(self, v: dict, viewer: int | None, width: int) -> list[RenderableType]:
        items = [
            f"[bold]{esc(outpost(o['colour']))}[/bold] ({colour_markup(o['colour'])} {o['points']}): "
            f"{self._holder(o, viewer)}"
            for o in v["outposts"]
        ]
        return [Text.from_markup(tr("Outposts:") + " " + " · ".join(items))]

    def _tokens(self, v: dict, viewer: int | None) -> str:
        champ = v["champion"]
        champ_text = self.who(champ["holder"], viewer) if champ["holder"] is not None else tr("nobody")
        if champ["holder"] is not None and champ["placed"]:
            champ_text += " " + tr("(placed on a Jarl)")
        tb = self.who(v["tie_breaker"], viewer) if v["tie_breaker"] is not None else tr("nobody")
        return tr(
            "First Player: {first}    Tie Breaker: {tb}    Champion: {champion}",
            first=self.who(v["first_player"], viewer),
            tb=tb,
            champion=champ_text,
        )

    def _seats_compact(self, v: dict, viewer: int | None, wrap: bool, kinds: bool, width: int) -> list[RenderableType]:
        """A line per seat (its tokens, then its Raiding Party), or two when ``wrap``."""
        out: list[RenderableType] = []
        for s in v["seats"]:
            q = s["seat"]
            bits = [self.who(q, viewer)]
            if kinds:
                bits[0] += f" [dim]{esc(self.seats[q].kind)}[/dim]"
            bits.append(tr("VP {n}", n=s["vp"]))
            bits.append(tr("Glory {n}", n=s["glory"]))
            bits.append(tr("hand {n}", n=s["hand_size"]))
            if s["god"]:
                god = esc(god_of(s["god"]))
                bits.append(tr("God {god}", god=god) + (" " + tr("(invoked)") if s["invoked"] else ""))
            if s["passed"]:
                bits.append("[italic]" + tr("passed") + "[/italic]")
            head = " · ".join(bits)
            party = party_markup(s["party"], sep="  ")
            if wrap:
                out.append(line(head))
                t = line("   " + party)
                out.append(t)
            else:
                out.append(one_line(f"{head} │ {party}", width))
        return out

    def _muster_line(self, v: dict) -> str:
        if not v["muster"]:
            if v["round"] >= ROUNDS:
                return tr("Muster Groups: none in Ragnarok (passing takes no cards).")
            return tr("Muster Groups: none left.")
        groups = " · ".join(f"{self.group_top(g)} + {counted(g['cards'])}" for g in v["muster"])
        return "[bold]" + tr("Muster Groups (Pass to take one):") + f"[/bold] {groups}"

    def _deck_line(self, v: dict) -> str:
        bits = [
            f"[bold]{tr('Deck')}:[/bold] {cards(v['deck_size'])}",
            f"[bold]{tr('Discard pile')}:[/bold] {counted(v['discard'])}",
        ]
        if v.get("set_aside_hero"):
            bits.append(f"[bold]{tr('Set-aside Hero')}:[/bold] {kind_markup(v['set_aside_hero'])}")
        return "    ".join(bits)

    def _hand_line(self, v: dict, viewer: int) -> str:
        me = v["seats"][viewer]
        hand = me.get("hand", [])
        text = f"[bold]{tr('Your hand')} ({len(hand)}):[/bold] {counted(hand) if hand else tr('(no cards)')}"
        if me["god"]:
            g = GODS[GOD_OF_SLUG[me["god"]]]
            when = tr("already invoked") if me["invoked"] else tr("invoke once, during Ragnarok")
            text += f"    [bold]{tr('Your God')}:[/bold] {esc(god_name(g.index, get_lang()))} ({when})"
        return text

    # ------------------------------------------------------------------ full board
    def board(self, state: State, viewer: int | None, decision: Decision | None) -> list[RenderableType]:
        v = state.view(viewer)
        out: list[RenderableType] = [
            line(self._header(v, viewer)),
            self._outposts(v, viewer),
            self._seats(v, viewer),
            self._muster(v),
            line(self._deck_line(v)),
        ]
        if viewer is not None:
            out.extend(self.hand(state, viewer))
        return out

    def _outposts(self, v: dict, viewer: int | None) -> Table:
        t = Table(title=tr("Outposts (type 'outposts' for their full text)"), title_justify="left")
        t.add_column(tr("Outpost"), no_wrap=True)
        t.add_column(tr("Raid pts"), justify="right")
        t.add_column(tr("Held by"), no_wrap=True)
        t.add_column(tr("Power"))
        for o in v["outposts"]:
            t.add_row(
                f"{esc(outpost(o['colour']))} ({colour_markup(o['colour'])})",
                str(o["points"]),
                self._holder(o, viewer),
                esc(outpost_short(o["colour"])),
            )
        t.caption = Text.from_markup(self._tokens(v, viewer))
        t.caption_justify = "left"
        return t

    def _seats(self, v: dict, viewer: int | None) -> Table:
        t = Table(
            title=tr("Players and Raiding Parties (slots from the left, 0 first)"),
            title_justify="left",
            show_lines=True,
        )
        columns: tuple[tuple[str, JustifyMethod], ...] = (
            (tr("Player"), "left"),
            (tr("VP"), "right"),
            (tr("Glory"), "right"),
            (tr("Hand"), "right"),
            (tr("God"), "left"),
            (tr("Raiding Party"), "left"),
        )
        for col, just in columns:
            t.add_column(col, justify=just)
        for s in v["seats"]:
            q = s["seat"]
            god = "—"
            if s["god"]:
                god = esc(god_of(s["god"])) + (" " + tr("(invoked)") if s["invoked"] else "")
            name = self.who(q, viewer) + f"\n[dim]{esc(self.seats[q].kind)}[/dim]"
            if s["passed"]:
                name += "\n[italic]" + tr("passed") + "[/italic]"
            party = party_markup(s["party"])
            if q != viewer and s["known_hidden"]:
                party += f"\n[dim]{tr('known to hold (hand or face-down):')}[/dim] {counted(s['known_hidden'])}"
            t.add_row(name, str(s["vp"]), str(s["glory"]), str(s["hand_size"]), god, party)
        return t

    def _muster(self, v: dict) -> RenderableType:
        if not v["muster"]:
            return Text(self._muster_line(v))
        t = Table(title=tr("Muster Groups (Pass to take one)"), title_justify="left", show_lines=True)
        t.add_column(tr("Group"), no_wrap=True)
        t.add_column(tr("Cards"))
        t.add_column(tr("Top card's power"))
        for g in v["muster"]:
            t.add_row(self.group_top(g), counted(g["cards"]), top_text(g["top"]))
        return t

    def hand(self, state: State, viewer: int) -> list[RenderableType]:
        me = state.view(viewer)["seats"][viewer]
        hand = me.get("hand", [])
        t = Table(show_edge=False, pad_edge=False)
        t.add_column(tr("Cards"), no_wrap=True)
        t.add_column(tr("Rules"))
        for slug, n in Counter(hand).items():
            t.add_row(f"{n}× {kind_markup(slug)}" if n > 1 else kind_markup(slug), kind_text(slug))
        if not hand:
            t.add_row(tr("(no cards)"), "")
        parts: list[RenderableType] = [t]
        if me["god"]:
            g = GODS[GOD_OF_SLUG[me["god"]]]
            when = tr("already invoked") if me["invoked"] else tr("invoke once, during Ragnarok")
            parts.append(
                Text.from_markup(
                    f"[italic]{tr('Your God {god} ({when}):', god=esc(god_of(g.slug)), when=when)}[/italic] "
                    f"{esc(god_text(g.index, get_lang()))}"
                )
            )
        title = tr("Your hand — {seat} ({cards})", seat=esc(self.seat_name(viewer)), cards=cards(len(hand)))
        return [Panel(Group(*parts), title=title, title_align="left")]

    # ------------------------------------------------------------------ decisions
    def explain(self, state: State, d: Decision) -> str:
        c = d.context
        k = d.kind
        if k == "deploy":
            return tr(
                "Deployment: choose card {n} of {total} to place face-down in your Raiding Party (left "
                "to right). Nobody else sees which.",
                n=c["placed"] + 1,
                total=c["party_size"],
            )
        if k == "turn":
            return tr(
                "Your action: Withdraw, Reinforce, Inspire, Promote, Invoke (Ragnarok), or Pass "
                "(and take a Muster Group): no more actions this round."
            )
        if k == "reinforce":
            return tr(
                "Reinforce: you turned up slot {n}. Now add a card from your hand face-up at either end of your Party.",
                n=c["flipped"],
            )
        if k == "angleland":
            return tr("Angleland (red Outpost): give the First Player token to a player of your choice, or keep it.")
        if k == "sax":
            return tr("Sax (yellow Outpost): you may add a discarded Raider face-up at either end of your Party.")
        if k == "loki":
            return tr("Loki: place a Glory token on a card of your Party ({n} left; not on a Jarl).", n=c["glory_left"])
        if k == "freya":
            return tr(
                "Freya: you drew {card}. Place it face-down at which end of your Party?",
                card=kind_markup(c.get("card"), "a"),
            )
        if k == "saga":
            return tr("Saga: turn face-up one card of {who}'s Raiding Party.", who=self.who(c["opponent"]))
        if k == "hel":
            return tr("Hel: choose a discarded Raider or Jarl and where it goes in your Party (face-up).")
        return esc(k)

    def option_row(self, state: State, d: Decision, v: dict, o: str) -> tuple[str, str]:
        k = d.kind
        party = v["seats"][d.player]["party"]

        def slot(i: int, seat: int = d.player) -> str:
            p = v["seats"][seat]["party"]
            return slot_markup(p[i]) if 0 <= i < len(p) else "?"

        if k == "deploy":
            return tr("{card} face-down", card=kind_markup(o)), kind_text(o)
        if k == "turn":
            op, _, arg = o.partition(":")
            if op == "withdraw":
                return (
                    tr("[bold]Withdraw[/bold] slot {n} — {card} — to your hand", n=arg, card=slot(int(arg))),
                    esc(action_text("withdraw", get_lang())),
                )
            if op == "reinforce":
                return (
                    tr(
                        "[bold]Reinforce[/bold]: turn up slot {n} — {card} — then add a card",
                        n=arg,
                        card=slot(int(arg)),
                    ),
                    esc(action_text("reinforce", get_lang())),
                )
            if op == "inspire":
                return (
                    tr("[bold]Inspire[/bold]: 1 Glory on slot {n} — {card}", n=arg, card=slot(int(arg))),
                    esc(action_text("inspire", get_lang())),
                )
            if op == "promote":
                return (
                    tr("[bold]Promote[/bold]: the Champion token on the Jarl in slot {n}", n=arg),
                    esc(action_text("promote", get_lang())),
                )
            if op == "invoke":
                g = GODS[GOD_OF_SLUG[arg]]
                return tr("[bold]Invoke {god}[/bold]", god=esc(god_of(g.slug, "a"))), esc(god_text(g.index, get_lang()))
            if op == "pass":
                if not arg:
                    return "[bold]" + tr("Pass") + "[/bold]", tr("You take no further actions this round.")
                for g in v["muster"]:
                    if g["group"] == arg:
                        return (
                            tr(
                                "[bold]Pass[/bold] and take {group} with {cards}",
                                group=self.group_top(g),
                                cards=counted(g["cards"]),
                            ),
                            top_text(g["top"]),
                        )
        if k in ("reinforce", "sax"):
            if o == "skip":
                return tr("Do not use Sax"), ""
            card, _, end = o.partition(":")
            if k == "sax":
                return (
                    tr(
                        "{card} from the discard pile face-up at the [bold]{end}[/bold] end",
                        card=kind_markup(card),
                        end=end_word(end),
                    ),
                    kind_text(card),
                )
            return tr(
                "{card} face-up at the [bold]{end}[/bold] end", card=kind_markup(card), end=end_word(end)
            ), kind_text(card)
        if k == "angleland":
            if o == "keep":
                return tr("Keep the First Player token"), ""
            return tr("Give the First Player token to {who}", who=self.who(int(o.partition(":")[2]))), ""
        if k == "loki":
            i = int(o.partition(":")[2])
            return tr("Slot {n} — {card}", n=i, card=slot(i)), ""
        if k == "saga":
            i = int(o.partition(":")[2])
            q = d.context.get("opponent", d.player)
            return tr("Slot {n} of {who}'s Party — {card}", n=i, who=self.who(q), card=slot(i, q)), ""
        if k == "freya":
            return tr("The [bold]{end}[/bold] end", end=end_word(o)), ""
        if k == "hel":
            card, _, pos = o.partition(":")
            i = int(pos)
            where = tr("at the right end") if i >= len(party) else tr("before slot {n}", n=i)
            return f"{kind_markup(card)} {where}", kind_text(card)
        return esc(state.describe(o)), ""

    def option_short(self, state: State, d: Decision) -> list[str]:
        v = state.view(d.player)
        out = []
        for o in d.options:
            label = self.option_row(state, d, v, o)[0]
            if d.kind == "turn":
                op, _, arg = o.partition(":")
                party = v["seats"][d.player]["party"]
                names = {
                    "withdraw": tr("Withdraw"),
                    "reinforce": tr("Reinforce"),
                    "inspire": tr("Inspire"),
                    "promote": tr("Promote"),
                }
                if op in names and arg.isdigit() and int(arg) < len(party):
                    label = f"[bold]{names[op]}[/bold] {arg}: {slot_markup(party[int(arg)])}"
                elif op == "pass" and arg:
                    group = next((g for g in v["muster"] if g["group"] == arg), None)
                    if group is not None:
                        label = f"[bold]{tr('Pass')}[/bold]: {self.group_top(group)} + {counted(group['cards'])}"
            elif d.kind == "hel":
                card, _, pos = o.partition(":")
                label = f"{kind_markup(card)} → {pos}"
            out.append(label)
        return out

    def aliases(self, state: State, d: Decision, option: str) -> list[str]:
        if option in KIND_OF_SLUG:
            return [KINDS[KIND_OF_SLUG[option]].name.lower(), kind_name(option).lower()]
        return []

    # ------------------------------------------------------------------ moves and log
    def decision_label(self, kind: str) -> str:
        return tr(LABEL[kind]) if kind in LABEL else kind

    def public_move(self, state: State, d: Decision, action: str) -> str | None:
        if d.kind == "deploy":
            return None
        label, _ = self.option_row(state, d, state.view(None), action)
        return label

    def hidden_move(self, d: Decision) -> str:
        if d.kind == "deploy":
            return tr("a card face down")  # after the label: "▶ P1 deploys: a card face down"
        return super().hidden_move(d)

    def format_event(self, e: Event, viewer: int | None) -> str | None:
        d = e.data
        k = e.kind
        who = lambda key="player": self.who(d.get(key), viewer)  # noqa: E731
        if k == "setup":
            outs = ", ".join(f"{esc(outpost(c))} ({colour_markup(c)})" for c in d["outposts"])
            return tr(
                "Setup: Outposts in play: {outposts}. {who} is First Player.",
                outposts=outs,
                who=self.who(d["first_player"], viewer),
            )
        if k == "hand":
            return tr("Starting hand of {who}: {cards}", who=who(), cards=counted(d["hand"]))
        if k == "round":
            name = round_title(ROUND_NAMES[d["round"]])
            text = (
                "[bold]══ "
                + tr(
                    "Round {n}: {name} — Outposts worth {vp} VP; First Player {who}",
                    n=d["round"],
                    name=name,
                    vp=ROUND_VP[d["round"]],
                    who=self.who(d["first_player"], viewer),
                )
                + " ══[/bold]"
            )
            if d.get("muster"):
                groups = "; ".join(f"{self._group_name(g['group'])}: {counted(g['cards'])}" for g in d["muster"])
                text += "\n  " + tr("Muster Groups: {groups}", groups=groups)
            return text
        if k == "deploy":
            return tr(
                "{who} deploys {card} face-down in slot {n}", who=who(), card=kind_markup(d["card"], "a"), n=d["slot"]
            )
        if k == "deployed":
            return tr("{who} has deployed {cards} face-down", who=who(), cards=cards(d["count"]))
        if k == "pass":
            if d.get("group"):
                return tr(
                    "{who} passes and takes {group}: {cards}",
                    who=who(),
                    group=self._group_name(d["group"]),
                    cards=counted(d["cards"]),
                )
            return tr("{who} passes", who=who())
        if k == "flip":
            return tr("{who} turns up slot {n}: {card}", who=who(), n=d["slot"], card=kind_markup(d["card"]))
        if k == "reinforce":
            return tr(
                "{who} adds {card} face-up at the {end} end",
                who=who(),
                card=kind_markup(d["card"], "a"),
                end=esc(end_word(d["end"])),
            )
        if k == "draw":
            return "  (" + tr("{who} drew {cards}", who=who(), cards=counted(d["cards"])) + ")"
        if k == "first-player":
            if d["recipient"] == d["player"]:
                return tr("{who} keeps the First Player token (Angleland)", who=who())
            return tr("{who} gives the First Player token to {other} (Angleland)", who=who(), other=who("recipient"))
        if k == "inspire":
            return tr("{who} inspires slot {n}: +1 Glory token", who=who(), n=d["slot"])
        if k == "invoke":
            return tr("{who} invokes {god}", who=who(), god=esc(god_of(d["god"], "a")))
        if k == "odin":
            return tr("{who} gains {n} VP (Odin)", who=who(), n=d["vp"])
        if k == "withdraw":
            text = tr("{who} withdraws the face-down card in slot {n}", who=who(), n=d["slot"])
            if d.get("glory_lost"):
                text += (
                    " ("
                    + ntr("{n} Glory token back to the supply", "{n} Glory tokens back to the supply", d["glory_lost"])
                    + ")"
                )
            return text
        if k == "saga":
            return tr(
                "{who} (Saga) turns up slot {n} of the Party of {other}: {card}",
                who=who(),
                n=d["slot"],
                other=who("opponent"),
                card=kind_markup(d["card"]),
            )
        if k == "promote":
            return tr("{who} places the Champion token on the Jarl in slot {n}", who=who(), n=d["slot"])
        if k == "sax":
            if d.get("card") is None:
                return tr("{who} does not use Sax", who=who())
            return tr(
                "{who} (Sax) adds the discarded {card} at the {end} end",
                who=who(),
                card=kind_markup(d["card"], "a"),
                end=esc(end_word(d["end"])),
            )
        if k == "freya":
            return tr(
                "{who} (Freya) places the drawn card face-down at the {end} end", who=who(), end=esc(end_word(d["end"]))
            )
        if k == "tyr":
            return tr("{who} (Tyr) draws {cards}", who=who(), cards=cards(d["count"]))
        if k == "hel":
            return tr(
                "{who} (Hel) places the discarded {card} face-up at position {n}",
                who=who(),
                card=kind_markup(d["card"], "a"),
                n=d["position"],
            )
        if k == "thor":
            return tr("{who} (Thor) takes {card} into their hand", who=who(), card=kind_markup(d["card"], "a"))
        if k == "nornir":
            return tr(
                "{who} (Nornir) takes back {tokens}",
                who=who(),
                tokens=ntr("{n} Glory token", "{n} Glory tokens", d["glory"]),
            )
        if k == "loki":
            return tr("{who} (Loki) places a Glory token on slot {n}", who=who(), n=d["slot"])
        if k == "resolution":
            return self._resolution(d, viewer)
        if k == "game-end":
            vp = ", ".join(f"{self.who(p, viewer)} {x}" for p, x in enumerate(d["vp"]))
            return tr(
                "[bold]Game over.[/bold] VP: {vp}. Winner {who} by {how}.",
                vp=vp,
                who=who("winner"),
                how=esc(tr(DECIDED_BY[d["decided_by"]]) if d["decided_by"] in DECIDED_BY else d["decided_by"]),
            )
        parts = "; ".join(f"{key} {esc(val)}" for key, val in d.items())
        return f"{esc(k)}: {parts}"

    def _group_name(self, group: str) -> str:
        if group in KIND_OF_SLUG:
            return kind_markup(group)
        if group in GOD_OF_SLUG:
            return f"[bold]{esc(god_of(group))}[/bold]"
        return esc(group)

    def _resolution(self, d: dict, viewer: int | None) -> str:
        name = round_title(ROUND_NAMES[d["round"]])
        lines = ["[bold]" + tr("Resolution of {name}", name=name) + "[/bold]"]
        for p, party in enumerate(d["parties"]):
            lines.append(
                "  "
                + tr("Party of {who}: {cards}", who=self.who(p, viewer), cards=", ".join(kind_markup(s) for s in party))
            )
        for colour, pts in d["raid_points"].items():
            o = d["outposts"].get(colour, {})
            ctrl = self.who(o["controller"], viewer) if o.get("controller") is not None else tr("nobody")
            scores = ", ".join(f"{self.who(p, viewer)} {x}" for p, x in enumerate(pts))
            how = o.get("decided_by")
            lines.append(
                "  "
                + tr(
                    "{outpost}: Raid Points {scores} → {who} ({how})",
                    outpost=f"{esc(outpost(colour))} ({colour_markup(colour)})",  # no adjective to agree
                    scores=scores,
                    who=ctrl,
                    how=esc(tr(OUTPOST_RESULT[how]) if how in OUTPOST_RESULT else how),
                )
            )
        lines.append(
            "  " + tr("VP this round: {vp}", vp=", ".join(f"{self.who(p, viewer)} +{x}" for p, x in enumerate(d["vp"])))
        )
        lines.append(
            "  "
            + tr(
                "Glory for lost battles: {glory}",
                glory=", ".join(f"{self.who(p, viewer)} +{x}" for p, x in enumerate(d["glory"])),
            )
        )
        if d.get("frankenland_draw"):
            f = d["frankenland_draw"]
            lines.append(
                "  "
                + tr("Frankenland: {who} draws {cards}", who=self.who(f["player"], viewer), cards=cards(f["count"]))
            )
        return "\n".join(lines)

    def help_text(self) -> str:
        return esc(
            tr(
                "Three rounds (Spring 1 VP, Summer 2 VP, Ragnarok 3 VP per Outpost). Each round: deploy 3 cards "
                "face-down, then take actions one at a time until everybody has passed; then all cards turn up "
                "and the most Raid Points in a colour wins its Outpost. Raider 2, Hero 4, Jarl +1 to each "
                "adjacent Raider or Hero (+2 with the Champion token), Glory +1, an Outpost adds its printed "
                "points to its holder. Losing a colour you fought in earns 1 Glory."
            )
        )

    # ------------------------------------------------------------------ commands
    def commands(self) -> dict[str, Command]:
        return {
            "gods": Command("gods", tr("every God's power"), self._gods),
            "outposts": Command("outposts", tr("every Outpost's power in full"), self._outposts_text),
        }

    def _outposts_text(self, state: State, viewer: int | None, arg: str) -> list[RenderableType]:
        t = Table(title=tr("Outposts"), title_justify="left", show_lines=True)
        t.add_column(tr("Outpost"), no_wrap=True)
        t.add_column(tr("Power"))
        for o in OUTPOSTS:
            name = esc(outpost_name(o.colour, get_lang()))
            t.add_row(f"{name} ({colour_markup(o.colour_name)})", esc(outpost_text(o.colour, get_lang())))
        return [t]

    def _gods(self, state: State, viewer: int | None, arg: str) -> list[RenderableType]:
        t = Table(
            title=tr("Gods (Summer Muster Groups; invoke once, in Ragnarok)"), title_justify="left", show_lines=True
        )
        t.add_column(tr("God"), no_wrap=True)
        t.add_column(tr("Power"))
        for g in GODS:
            t.add_row(f"[bold]{esc(god_name(g.index, get_lang()))}[/bold]", esc(god_text(g.index, get_lang())))
        return [t]

    # ------------------------------------------------------------------ end
    def end_screen(self, state: State, compact: bool = False) -> list[RenderableType]:
        v = state.view(None)
        t = Table(title=tr("Final score"), title_justify="left", pad_edge=False)
        t.add_column("")
        for p in range(self.n):
            t.add_column(self.who(p) + f"\n[dim]{esc(self.seats[p].kind)}[/dim]", justify="right")
        per_round = [[0] * self.n for _ in range(ROUNDS)]
        for rep in v["resolutions"]:
            per_round[rep["round"] - 1] = rep["vp"]
        for r in range(ROUNDS):
            t.add_row(tr("{round} VP", round=round_title(ROUND_NAMES[r + 1])), *[str(x) for x in per_round[r]])
        vp = [s["vp"] for s in v["seats"]]
        other = [vp[p] - sum(per_round[r][p] for r in range(ROUNDS)) for p in range(self.n)]
        if any(other):
            t.add_row(tr("Odin VP"), *[str(x) for x in other])
        t.add_section()
        t.add_row("[bold]" + tr("Total VP") + "[/bold]", *[f"[bold]{x}[/bold]" for x in vp])
        t.add_section()
        t.add_row(tr("Unused Glory (tie-break 2)"), *[str(s["glory"]) for s in v["seats"]])
        t.add_row(tr("Cards in hand (tie-break 3)"), *[str(s["hand_size"]) for s in v["seats"]])
        tb = v["tie_breaker"]
        yes = tr("yes")
        t.add_row(tr("Tie Breaker token (tie-break 1)"), *[yes if p == tb else "" for p in range(self.n)])
        t.add_row(tr("First Player"), *[yes if p == v["first_player"] else "" for p in range(self.n)])
        res = v.get("result") or {}
        winner = res.get("winner")
        how = res.get("decided_by")
        if winner is not None:
            text = tr(
                "[bold]Winner: {who}[/bold] with {n} VP, by {how}.",
                who=self.who(winner),
                n=vp[winner],
                how=esc(tr(DECIDED_BY[how]) if how in DECIDED_BY else how),
            )
        else:
            text = tr("No winner.")
        return [t, Text.from_markup(text)]
