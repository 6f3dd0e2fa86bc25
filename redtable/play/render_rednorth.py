"""Red North in the terminal: Outposts, Raiding Parties, Muster Groups, Gods, VP, the log.

Everything comes from ``state.view(viewer)``: face-down cards of other players are shown
as card backs, your own face-down cards are shown to you (marked face-down). Colours are
always written out, so the screens read the same without colour (``NO_COLOR``).
"""

from __future__ import annotations

from collections import Counter

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..core import Decision, Event, State
from ..rednorth.actions import ACTION_TEXT
from ..rednorth.cards import CHAMPION_BONUS, KIND_OF_SLUG, KINDS, ROUND_NAMES, ROUND_VP, ROUNDS
from ..rednorth.gods import GOD_OF_SLUG, GODS
from ..rednorth.outposts import OUTPOSTS, PURPLE_DRAW
from .common import Command, Renderer, esc, plural

COLOUR_STYLE = {"green": "green3", "red": "red3", "blue": "dodger_blue1", "purple": "medium_purple1",
                "yellow": "yellow1"}
OUTPOST_NAME = {o.colour_name: o.name for o in OUTPOSTS}
OUTPOST_SHORT = {  # a reminder; the full text is on the `outposts` command
    "green": "Tie Breaker token: wins all ties",
    "red": "First Player token; after Deployment give it away or keep it",
    "blue": f"Champion token: Promote a face-up Jarl to +{CHAMPION_BONUS}",
    "purple": f"draw {PURPLE_DRAW} cards at Resolution",
    "yellow": "after Deployment: a discarded Raider face-up at an end of your Party",
}
PHASE_TITLE = {
    "deploy": "Deployment", "angleland": "Outpost powers (Angleland)", "sax": "Outpost powers (Sax)",
    "turn": "Player Actions", "reinforce": "Player Actions (Reinforce)", "loki": "Player Actions (Loki)",
    "freya": "Player Actions (Freya)", "saga": "Player Actions (Saga)", "hel": "Player Actions (Hel)",
    "over": "Game over",
}
DECIDED_BY = {
    "vp": "the most VP", "tie-breaker": "a tie on VP, broken by the Tie Breaker token",
    "glory": "a tie on VP, broken by the most unused Glory",
    "hand": "a tie on VP and Glory, broken by the most cards in hand",
    "turn-order": "a tie on VP, Glory and cards, broken by turn order from the First Player",
}
OUTPOST_RESULT = {"won": "won", "tie-breaker": "tie, Tie Breaker", "returned": "tie: back to the centre",
                  "no-battle": "no battle"}
LABEL = {"deploy": "deploys", "turn": "action", "reinforce": "reinforces with", "angleland": "Angleland",
         "sax": "Sax", "loki": "Loki", "freya": "Freya", "saga": "Saga", "hel": "Hel"}
HELP = ("Three rounds (Spring 1 VP, Summer 2 VP, Ragnarok 3 VP per Outpost). Each round: deploy 3 cards "
        "face-down, then take actions one at a time until everybody has passed; then all cards turn up "
        "and the most Raid Points in a colour wins its Outpost. Raider 2, Hero 4, Jarl +1 to each "
        "adjacent Raider or Hero (+2 with the Champion token), Glory +1, an Outpost adds its printed "
        "points to its holder. Losing a colour you fought in earns 1 Glory.")


def kind_markup(slug: str | None) -> str:
    if slug is None or slug not in KIND_OF_SLUG:
        return "[reverse]card back[/reverse]" if slug is None else esc(slug)
    k = KINDS[KIND_OF_SLUG[slug]]
    style = COLOUR_STYLE.get(k.colour_name or "", "bold")
    return f"[{style}]{esc(k.name)}[/]"


def kind_text(slug: str) -> str:
    return esc(KINDS[KIND_OF_SLUG[slug]].text)


def colour_markup(colour: str) -> str:
    return f"[{COLOUR_STYLE.get(colour, '')}]{esc(colour)}[/]"


def counted(slugs: list[str]) -> str:
    if not slugs:
        return "none"
    c = Counter(slugs)
    return ", ".join(f"{n}× {kind_markup(s)}" if n > 1 else kind_markup(s) for s, n in c.items())


def slot_markup(slot: dict) -> str:
    if slot["face_up"]:
        text = kind_markup(slot["card"])
    elif slot["card"] is not None:
        text = f"{kind_markup(slot['card'])} [dim](face-down)[/dim]"
    else:
        text = "[reverse]card back[/reverse]"
    if slot["glory"]:
        text += f" +{slot['glory']} Glory"
    if slot["champion"]:
        text += " +Champion"
    return text


def party_markup(party: list[dict]) -> str:
    if not party:
        return "(empty)"
    return "   ".join(f"{i}: {slot_markup(s)}" for i, s in enumerate(party))


def group_top(group: dict) -> str:
    top = group["top"]
    if top["type"] == "hero":
        return kind_markup(top["slug"])
    return f"[bold]{esc(top['name'])}[/bold] (God)"


class RedNorthRenderer(Renderer):
    title = "Red North"

    # ------------------------------------------------------------------ board
    def board(self, state: State, viewer: int | None, decision: Decision | None) -> list[RenderableType]:
        v = state.view(viewer)
        out: list[RenderableType] = [self._header(v, viewer), self._outposts(v, viewer), self._seats(v, viewer),
                                     self._muster(v)]
        bits = [f"[bold]Deck:[/bold] {plural(v['deck_size'], 'card')}",
                f"[bold]Discard pile:[/bold] {counted(v['discard'])}"]
        if v.get("set_aside_hero"):
            bits.append(f"[bold]Set-aside Hero:[/bold] {kind_markup(v['set_aside_hero'])}")
        out.append(Text.from_markup("    ".join(bits)))
        if viewer is not None:
            out.append(self._hand(v, viewer))
        return out

    def _header(self, v: dict, viewer: int | None) -> Text:
        bits = [f"[bold]Red North[/bold] — Round {v['round']} of {ROUNDS}: {v['round_name'].capitalize()} "
                f"(each Outpost worth {v['round_vp']} VP)",
                PHASE_TITLE.get(v["phase"], v["phase"])]
        if v.get("to_act") is not None:
            bits.append(f"{self.who(v['to_act'], viewer)} to act")
        if viewer is not None:
            bits.append(f"you are {self.who(viewer)}")
        return Text.from_markup("  ·  ".join(bits))

    def _outposts(self, v: dict, viewer: int | None) -> Table:
        t = Table(title="Outposts (type 'outposts' for their full text)", title_justify="left")
        t.add_column("Outpost", no_wrap=True)
        t.add_column("Raid pts", justify="right")
        t.add_column("Held by", no_wrap=True)
        t.add_column("Power")
        for o in v["outposts"]:
            holder = self.who(o["controller"], viewer) if o["controller"] is not None else "[dim]nobody[/dim]"
            t.add_row(f"{colour_markup(o['colour'])} {esc(o['name'])}", str(o["points"]), holder,
                      esc(OUTPOST_SHORT.get(o["colour"], o["text"])))
        champ = v["champion"]
        champ_text = self.who(champ["holder"], viewer) if champ["holder"] is not None else "nobody"
        if champ["holder"] is not None and champ["placed"]:
            champ_text += " (placed on a Jarl)"
        t.caption = Text.from_markup(
            f"First Player: {self.who(v['first_player'], viewer)}    Tie Breaker: "
            f"{self.who(v['tie_breaker'], viewer) if v['tie_breaker'] is not None else 'nobody'}    "
            f"Champion: {champ_text}")
        t.caption_justify = "left"
        return t

    def _seats(self, v: dict, viewer: int | None) -> Table:
        t = Table(title="Players and Raiding Parties (slots from the left, 0 first)", title_justify="left",
                  show_lines=True)
        for col, just in (("Player", "left"), ("VP", "right"), ("Glory", "right"), ("Hand", "right"),
                          ("God", "left"), ("Raiding Party", "left")):
            t.add_column(col, justify=just)
        for s in v["seats"]:
            q = s["seat"]
            god = "—"
            if s["god"]:
                god = esc(GODS[GOD_OF_SLUG[s["god"]]].name) + (" (invoked)" if s["invoked"] else "")
            name = self.who(q, viewer) + f"\n[dim]{esc(self.seats[q].kind)}[/dim]"
            if s["passed"]:
                name += "\n[italic]passed[/italic]"
            party = party_markup(s["party"])
            if q != viewer and s["known_hidden"]:
                party += f"\n[dim]known to hold (hand or face-down):[/dim] {counted(s['known_hidden'])}"
            t.add_row(name, str(s["vp"]), str(s["glory"]), str(s["hand_size"]), god, party)
        return t

    def _muster(self, v: dict) -> RenderableType:
        if not v["muster"]:
            if v["round"] >= ROUNDS:
                return Text("Muster Groups: none in Ragnarok (passing takes no cards).")
            return Text("Muster Groups: none left.")
        t = Table(title="Muster Groups (Pass to take one)", title_justify="left", show_lines=True)
        t.add_column("Group", no_wrap=True)
        t.add_column("Cards")
        t.add_column("Top card's power")
        for g in v["muster"]:
            t.add_row(group_top(g), counted(g["cards"]), esc(g["top"]["text"]))
        return t

    def _hand(self, v: dict, viewer: int) -> RenderableType:
        me = v["seats"][viewer]
        hand = me.get("hand", [])
        t = Table(show_edge=False, pad_edge=False)
        t.add_column("Cards", no_wrap=True)
        t.add_column("Rules")
        for slug, n in Counter(hand).items():
            t.add_row(f"{n}× {kind_markup(slug)}" if n > 1 else kind_markup(slug), kind_text(slug))
        if not hand:
            t.add_row("(no cards)", "")
        parts: list[RenderableType] = [t]
        if me["god"]:
            g = GODS[GOD_OF_SLUG[me["god"]]]
            state = "already invoked" if me["invoked"] else "invoke once, during Ragnarok"
            parts.append(Text.from_markup(f"[italic]Your God {esc(g.name)} ({state}):[/italic] {esc(g.text)}"))
        return Panel(Group(*parts), title=f"Your hand — {esc(self.seat_name(viewer))} "
                                          f"({plural(len(hand), 'card')})", title_align="left")

    # ------------------------------------------------------------------ decisions
    def explain(self, state: State, d: Decision) -> str:
        c = d.context
        k = d.kind
        if k == "deploy":
            return (f"Deployment: choose card {c['placed'] + 1} of {c['party_size']} to place face-down in your "
                    f"Raiding Party (left to right). Nobody else sees which.")
        if k == "turn":
            return ("Your action: Withdraw, Reinforce, Inspire, Promote, Invoke (Ragnarok) — or Pass and "
                    "take a Muster Group (you take no more actions this round).")
        if k == "reinforce":
            return (f"Reinforce: you turned up slot {c['flipped']}. Now add a card from your hand face-up at "
                    f"either end of your Party.")
        if k == "angleland":
            return ("Angleland (red Outpost): give the First Player token to a player of your choice, or "
                    "keep it.")
        if k == "sax":
            return "Sax (yellow Outpost): you may add a discarded Raider face-up at either end of your Party."
        if k == "loki":
            return f"Loki: place a Glory token on a card of your Party ({c['glory_left']} left; not on a Jarl)."
        if k == "freya":
            return f"Freya: you drew {kind_markup(c.get('card'))}. Place it face-down at which end of your Party?"
        if k == "saga":
            return f"Saga: turn face-up one card of {self.who(c['opponent'])}'s Raiding Party."
        if k == "hel":
            return "Hel: choose a discarded Raider or Jarl and where it goes in your Party (face-up)."
        return esc(k)

    def option_row(self, state: State, d: Decision, v: dict, o: str) -> tuple[str, str]:
        k = d.kind
        party = v["seats"][d.player]["party"]

        def slot(i: int, seat: int = d.player) -> str:
            p = v["seats"][seat]["party"]
            return slot_markup(p[i]) if 0 <= i < len(p) else "?"

        if k == "deploy":
            return f"{kind_markup(o)} face-down", kind_text(o)
        if k == "turn":
            op, _, arg = o.partition(":")
            if op == "withdraw":
                return f"[bold]Withdraw[/bold] slot {arg} — {slot(int(arg))} — to your hand", esc(ACTION_TEXT["withdraw"])
            if op == "reinforce":
                return (f"[bold]Reinforce[/bold]: turn up slot {arg} — {slot(int(arg))} — then add a card",
                        esc(ACTION_TEXT["reinforce"]))
            if op == "inspire":
                return f"[bold]Inspire[/bold]: 1 Glory on slot {arg} — {slot(int(arg))}", esc(ACTION_TEXT["inspire"])
            if op == "promote":
                return f"[bold]Promote[/bold]: the Champion token on the Jarl in slot {arg}", esc(ACTION_TEXT["promote"])
            if op == "invoke":
                g = GODS[GOD_OF_SLUG[arg]]
                return f"[bold]Invoke {esc(g.name)}[/bold]", esc(g.text)
            if op == "pass":
                if not arg:
                    return "[bold]Pass[/bold]", "You take no further actions this round."
                for g in v["muster"]:
                    if g["group"] == arg:
                        return (f"[bold]Pass[/bold] and take {group_top(g)} with {counted(g['cards'])}",
                                esc(g["top"]["text"]))
        if k in ("reinforce", "sax"):
            if o == "skip":
                return "Do not use Sax", ""
            card, _, end = o.partition(":")
            src = " from the discard pile" if k == "sax" else ""
            return f"{kind_markup(card)}{src} face-up at the [bold]{end}[/bold] end", kind_text(card)
        if k == "angleland":
            if o == "keep":
                return "Keep the First Player token", ""
            return f"Give the First Player token to {self.who(int(o.partition(':')[2]))}", ""
        if k == "loki":
            i = int(o.partition(":")[2])
            return f"Slot {i} — {slot(i)}", ""
        if k == "saga":
            i = int(o.partition(":")[2])
            q = d.context.get("opponent", d.player)
            return f"Slot {i} of {self.who(q)}'s Party — {slot(i, q)}", ""
        if k == "freya":
            return f"The [bold]{esc(o)}[/bold] end", ""
        if k == "hel":
            card, _, pos = o.partition(":")
            i = int(pos)
            where = "at the right end" if i >= len(party) else f"before slot {i}"
            return f"{kind_markup(card)} {where}", kind_text(card)
        return esc(state.describe(o)), ""

    def aliases(self, state: State, d: Decision, option: str) -> list[str]:
        if option in KIND_OF_SLUG:
            return [KINDS[KIND_OF_SLUG[option]].name.lower()]
        return []

    # ------------------------------------------------------------------ moves and log
    def decision_label(self, kind: str) -> str:
        return LABEL.get(kind, kind)

    def public_move(self, state: State, d: Decision, action: str) -> str | None:
        if d.kind == "deploy":
            return None
        label, _ = self.option_row(state, d, state.view(None), action)
        return label

    def hidden_move(self, d: Decision) -> str:
        if d.kind == "deploy":
            return "deploys a card face-down"
        return super().hidden_move(d)

    def format_event(self, e: Event, viewer: int | None) -> str | None:
        d = e.data
        k = e.kind
        who = lambda key="player": self.who(d.get(key), viewer)  # noqa: E731
        if k == "setup":
            outs = ", ".join(f"{esc(OUTPOST_NAME[c])} ({colour_markup(c)})" for c in d["outposts"])
            return f"Setup: Outposts in play: {outs}. {self.who(d['first_player'], viewer)} is First Player."
        if k == "hand":
            return f"{who()} starting hand: {counted(d['hand'])}"
        if k == "round":
            name = ROUND_NAMES[d["round"]].capitalize()
            line = (f"[bold]══ Round {d['round']}: {name} — Outposts worth {ROUND_VP[d['round']]} VP; "
                    f"First Player {self.who(d['first_player'], viewer)} ══[/bold]")
            if d.get("muster"):
                groups = "; ".join(f"{self._group_name(g['group'])}: {counted(g['cards'])}" for g in d["muster"])
                line += f"\n  Muster Groups: {groups}"
            return line
        if k == "deploy":
            return f"{who()} deploys {kind_markup(d['card'])} face-down in slot {d['slot']}"
        if k == "deployed":
            return f"{who()} has deployed {plural(d['count'], 'card')} face-down"
        if k == "pass":
            if d.get("group"):
                return f"{who()} passes and takes {self._group_name(d['group'])}: {counted(d['cards'])}"
            return f"{who()} passes"
        if k == "flip":
            return f"{who()} turns up slot {d['slot']}: {kind_markup(d['card'])}"
        if k == "reinforce":
            return f"{who()} adds {kind_markup(d['card'])} face-up at the {esc(d['end'])} end"
        if k == "draw":
            return f"  ({who()} drew {counted(d['cards'])})"
        if k == "first-player":
            if d["recipient"] == d["player"]:
                return f"{who()} keeps the First Player token (Angleland)"
            return f"{who()} gives the First Player token to {who('recipient')} (Angleland)"
        if k == "inspire":
            return f"{who()} inspires slot {d['slot']}: +1 Glory token"
        if k == "invoke":
            return f"{who()} invokes {esc(GODS[GOD_OF_SLUG[d['god']]].name)}"
        if k == "odin":
            return f"{who()} gains {d['vp']} VP (Odin)"
        if k == "withdraw":
            lost = f" ({plural(d['glory_lost'], 'Glory token')} back to the supply)" if d.get("glory_lost") else ""
            return f"{who()} withdraws the face-down card in slot {d['slot']}{lost}"
        if k == "saga":
            return f"{who()} (Saga) turns up slot {d['slot']} of {who('opponent')}'s Party: {kind_markup(d['card'])}"
        if k == "promote":
            return f"{who()} places the Champion token on the Jarl in slot {d['slot']}"
        if k == "sax":
            if d.get("card") is None:
                return f"{who()} does not use Sax"
            return f"{who()} (Sax) adds the discarded {kind_markup(d['card'])} at the {esc(d['end'])} end"
        if k == "freya":
            return f"{who()} (Freya) places the drawn card face-down at the {esc(d['end'])} end"
        if k == "tyr":
            return f"{who()} (Tyr) draws {plural(d['count'], 'card')}"
        if k == "hel":
            return f"{who()} (Hel) places the discarded {kind_markup(d['card'])} face-up at position {d['position']}"
        if k == "thor":
            return f"{who()} (Thor) takes {kind_markup(d['card'])} into their hand"
        if k == "nornir":
            return f"{who()} (Nornir) takes back {plural(d['glory'], 'Glory token')}"
        if k == "loki":
            return f"{who()} (Loki) places a Glory token on slot {d['slot']}"
        if k == "resolution":
            return self._resolution(d, viewer)
        if k == "game-end":
            vp = ", ".join(f"{self.who(p, viewer)} {x}" for p, x in enumerate(d["vp"]))
            return (f"[bold]Game over.[/bold] VP: {vp}. Winner {who('winner')} by "
                    f"{esc(DECIDED_BY.get(d['decided_by'], d['decided_by']))}.")
        parts = "; ".join(f"{key} {esc(val)}" for key, val in d.items())
        return f"{esc(k)}: {parts}"

    def _group_name(self, group: str) -> str:
        if group in KIND_OF_SLUG:
            return kind_markup(group)
        if group in GOD_OF_SLUG:
            return f"[bold]{esc(GODS[GOD_OF_SLUG[group]].name)}[/bold]"
        return esc(group)

    def _resolution(self, d: dict, viewer: int | None) -> str:
        name = ROUND_NAMES[d["round"]].capitalize()
        lines = [f"[bold]Resolution of {name}[/bold]"]
        for p, party in enumerate(d["parties"]):
            lines.append(f"  {self.who(p, viewer)}'s Party: " + ", ".join(kind_markup(s) for s in party))
        for colour, pts in d["raid_points"].items():
            o = d["outposts"].get(colour, {})
            ctrl = self.who(o["controller"], viewer) if o.get("controller") is not None else "nobody"
            scores = ", ".join(f"P{p} {x}" for p, x in enumerate(pts))
            lines.append(f"  {colour_markup(colour)} {esc(OUTPOST_NAME[colour])}: Raid Points {scores} → "
                         f"{ctrl} ({esc(OUTPOST_RESULT.get(o.get('decided_by'), o.get('decided_by')))})")
        lines.append("  VP this round: " + ", ".join(f"{self.who(p, viewer)} +{x}" for p, x in enumerate(d["vp"])))
        lines.append("  Glory for lost battles: " + ", ".join(f"{self.who(p, viewer)} +{x}" for p, x in enumerate(d["glory"])))
        if d.get("frankenland_draw"):
            f = d["frankenland_draw"]
            lines.append(f"  Frankenland: {self.who(f['player'], viewer)} draws {plural(f['count'], 'card')}")
        return "\n".join(lines)

    def help_text(self) -> str:
        return esc(HELP)

    # ------------------------------------------------------------------ commands
    def commands(self) -> dict[str, Command]:
        return {"gods": Command("gods", "every God's power", self._gods),
                "outposts": Command("outposts", "every Outpost's power in full", self._outposts_text)}

    def _outposts_text(self, state: State, viewer: int | None, arg: str) -> list[RenderableType]:
        t = Table(title="Outposts", title_justify="left", show_lines=True)
        t.add_column("Outpost", no_wrap=True)
        t.add_column("Power")
        for o in OUTPOSTS:
            t.add_row(f"{colour_markup(o.colour_name)} {esc(o.name)}", esc(o.text))
        return [t]

    def _gods(self, state: State, viewer: int | None, arg: str) -> list[RenderableType]:
        t = Table(title="Gods (Summer Muster Groups; invoke once, in Ragnarok)", title_justify="left",
                  show_lines=True)
        t.add_column("God", no_wrap=True)
        t.add_column("Power")
        for g in GODS:
            t.add_row(f"[bold]{esc(g.name)}[/bold]", esc(g.text))
        return [t]

    # ------------------------------------------------------------------ end
    def end_screen(self, state: State) -> list[RenderableType]:
        v = state.view(None)
        t = Table(title="Final score", title_justify="left")
        t.add_column("")
        for p in range(self.n):
            t.add_column(self.who(p) + f"\n{esc(self.seats[p].kind)}", justify="right")
        per_round = [[0] * self.n for _ in range(ROUNDS)]
        for rep in v["resolutions"]:
            per_round[rep["round"] - 1] = rep["vp"]
        for r in range(ROUNDS):
            t.add_row(f"{ROUND_NAMES[r + 1].capitalize()} VP", *[str(x) for x in per_round[r]])
        vp = [s["vp"] for s in v["seats"]]
        other = [vp[p] - sum(per_round[r][p] for r in range(ROUNDS)) for p in range(self.n)]
        if any(other):
            t.add_row("Odin VP", *[str(x) for x in other])
        t.add_section()
        t.add_row("[bold]Total VP[/bold]", *[f"[bold]{x}[/bold]" for x in vp])
        t.add_section()
        t.add_row("Unused Glory (tie-break 2)", *[str(s["glory"]) for s in v["seats"]])
        t.add_row("Cards in hand (tie-break 3)", *[str(s["hand_size"]) for s in v["seats"]])
        tb = v["tie_breaker"]
        t.add_row("Tie Breaker token (tie-break 1)", *["yes" if p == tb else "" for p in range(self.n)])
        t.add_row("First Player", *["yes" if p == v["first_player"] else "" for p in range(self.n)])
        res = v.get("result") or {}
        winner = res.get("winner")
        line = (f"[bold]Winner: {self.who(winner)}[/bold] with {vp[winner]} VP, by "
                f"{esc(DECIDED_BY.get(res.get('decided_by'), res.get('decided_by')))}."
                if winner is not None else "No winner.")
        return [t, Text.from_markup(line)]
