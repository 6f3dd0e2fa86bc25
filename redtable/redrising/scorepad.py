"""Scoring a physical game of Red Rising without JSON: the short text form and the interactive scorepad.

The short text form has one player a line::

    Ann: Darrow, Mustang, Trigg as red, Cyther as Sevro | fleet 6 helium 4 influence 7 sovereign
    Bob: Sevro, Eo, Hacker face down | fleet 3 helium 2 influence 2 extra 5
    on jupiter: Arlus, Aja
    banished: Harmony
    neutral 3

``NAME: cards | tokens``: cards are separated by commas; a Gray card may count ``as`` a
colour and an Orange card ``as`` another character (left out, the scorer picks the best);
``face down`` marks a face-down card. The tokens are ``fleet N``, ``helium N``,
``influence N``, ``sovereign`` and ``extra N`` (points from end-of-game abilities such as
Hacker's), each optional. ``on LOCATION: cards`` lists the cards left on a location
(bottom to top), ``banished: cards`` the banished pile, ``neutral N`` the 2-player neutral
house's Influence (3 unless given). Empty lines and lines starting with ``#`` are skipped.
Keywords may also be written in Ukrainian or Polish (``флот``, ``flota``...).

The interactive scorepad (:func:`interactive`) asks for the same, player by player, with
Tab completion of card names, suggestions for typos, and the running total.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from rich.markup import escape

from ..i18n import get_lang, tr
from .board import NEUTRAL_INFLUENCE_2P
from .cards import CARDS, COLOR, COLOR_NAMES, GRAY, NAME, ORANGE, card_index, close_names
from .gallery import card_name

LOCATION_WORDS = {
    "jupiter": "jupiter",
    "mars": "mars",
    "luna": "luna",
    "institute": "institute",
    "the institute": "institute",
    "юпітер": "jupiter",
    "марс": "mars",
    "місяць": "luna",
    "інститут": "institute",
    "jowisz": "jupiter",
    "instytut": "institute",
}
TOKEN_WORDS = {
    "fleet": "fleet",
    "флот": "fleet",
    "flota": "fleet",
    "helium": "helium",
    "гелій": "helium",
    "hel": "helium",
    "influence": "influence",
    "вплив": "influence",
    "wpływ": "influence",
    "wplyw": "influence",
    "sovereign": "sovereign",
    "володарювання": "sovereign",
    "suweren": "sovereign",
    "extra": "extra_points",
    "points": "extra_points",
    "бонус": "extra_points",
    "dodatkowe": "extra_points",
}
BANISHED_WORDS = ("banished", "вигнані", "odrzucone")
NEUTRAL_WORDS = ("neutral", "нейтральний", "neutralny")
AS_WORDS = (" as ", " як ", " jako ")
FACE_DOWN_WORDS = ("face down", "face-down", "facedown", "долілиць", "zakryta")
MAX_LINES = 200
CARD_NAMES = [c.name for c in CARDS]


class TextError(ValueError):
    """A problem in the text form, with its line."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}" if line else message)


@cache
def _local_names() -> dict[str, int]:
    """Every card by its Ukrainian and Polish name, lower-case (the text form takes them too)."""
    return {card_name(i, lang).lower(): i for lang in ("uk", "pl") for i in range(len(CARDS))}


@cache
def _local_colours() -> dict[str, str]:
    """A colour's Ukrainian or Polish name, lower-case, to its English name."""
    from ..i18n.pl import MESSAGES as PL
    from ..i18n.uk import MESSAGES as UK

    return {words[c].lower(): c for words in (UK, PL) for c in COLOR_NAMES if c in words}


def _card(name: str, line: int) -> int:
    try:
        return card_index(name)
    except KeyError:
        if name.strip().lower() in _local_names():
            return _local_names()[name.strip().lower()]
        lang = get_lang()
        if lang != "en" and len(name) <= 100:  # suggestions in the language the player reads
            import difflib

            mine = {card_name(i, lang).lower(): card_name(i, lang) for i in range(len(CARDS))}
            hints = [mine[h] for h in difflib.get_close_matches(name.strip().lower(), list(mine), n=3, cutoff=0.5)]
        else:
            hints = close_names(name) if len(name) <= 100 else []
        hint = f"; did you mean: {', '.join(hints)}?" if hints else ""
        shown = name if len(name) <= 60 else name[:60] + "…"
        raise TextError(line, f"unknown card {shown!r}{hint}") from None


def card_entry(item: str, line: int, in_hand: bool = True) -> Any:
    """One card of the text form as the JSON form has it: a name, or {"card": …, options}."""
    text = item.strip()
    opts: dict[str, Any] = {}
    low = text.lower()
    for word in FACE_DOWN_WORDS:
        for form in (f"({word})", word):
            if low.endswith(" " + form):
                text = text[: -len(form) - 1].strip()
                low = text.lower()
                opts["face_down"] = True
                break
    as_what = None
    for word in AS_WORDS:
        i = low.find(word)
        if i > 0:
            text, as_what = text[:i].strip(), text[i + len(word) :].strip()
            break
    if not text:
        raise TextError(line, "an empty card name (two commas in a row?)")
    idx = _card(text, line)
    if as_what is not None:
        if not in_hand:
            raise TextError(line, f"only a card in a hand may count as something else ({NAME[idx]} as {as_what})")
        if COLOR[idx] == GRAY:
            opts["as_color"] = _local_colours().get(as_what.lower(), as_what.lower())
        elif COLOR[idx] == ORANGE:
            other = _card(as_what, line)
            opts["as_name"] = as_what if as_what.strip().lower() == NAME[other].lower() else NAME[other]
        else:
            raise TextError(
                line,
                f"{NAME[idx]} is {COLOR_NAMES[COLOR[idx]].capitalize()}: only a Gray card "
                f"counts as another colour and only an Orange card as another character",
            )
    return {"card": NAME[idx], **opts} if opts else NAME[idx]


def _cards(text: str, line: int, in_hand: bool = True) -> list:
    items = [x for x in re.split(r"[,;]", text)]
    if len(items) == 1 and not items[0].strip():
        return []
    return [card_entry(x, line, in_hand) for x in items]


def _tokens(text: str, line: int, player: dict) -> None:
    words = [w for w in re.split(r"[\s,;:=]+", text.strip()) if w]
    i = 0
    while i < len(words):
        word = words[i].lower()
        key = TOKEN_WORDS.get(word)
        if key is None:
            from ..core.jsonfile import suggest

            raise TextError(
                line,
                f"unknown word {word[:40]!r}{suggest(word, list(TOKEN_WORDS)[::3])}; "
                f"after '|' come fleet N, helium N, influence N, sovereign, extra N",
            )
        if key == "sovereign":
            player["sovereign"] = True
            i += 1
            continue
        if i + 1 >= len(words) or not re.fullmatch(r"-?\d{1,6}", words[i + 1]):
            raise TextError(line, f"{word} needs a number, e.g. '{word} 3'")
        player[key] = int(words[i + 1])
        i += 2


def parse_text(text: str) -> tuple[dict, dict[str, int]]:
    """The JSON form of a final position written in the text form, and the line of each of
    its parts (``players[0]``, ``locations.mars``, ``banished``, ``neutral_influence``)."""
    data: dict[str, Any] = {"players": []}
    lines: dict[str, int] = {}
    count = 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        count += 1
        if count > MAX_LINES:
            raise TextError(n, f"more than {MAX_LINES} lines; a final position has at most 12")
        if any(c in line for c in "\x00\x1b"):
            raise TextError(n, "a line cannot contain control characters")
        head, colon, rest = line.partition(":")
        key = head.strip().lower()
        first = key.split(" ", 1)
        if first[0] in NEUTRAL_WORDS:
            m = re.fullmatch(r"\D*?(\d{1,3})", line)
            if not m:
                raise TextError(n, "write the neutral house's Influence as 'neutral 3'")
            data["neutral_influence"] = int(m.group(1))
            lines["neutral_influence"] = n
            continue
        if not colon:
            raise TextError(
                n, "expected 'NAME: cards | tokens' (or 'on LOCATION: cards', 'banished: cards', 'neutral N')"
            )
        if key in BANISHED_WORDS:
            data["banished"] = _cards(rest, n, in_hand=False)
            lines["banished"] = n
            continue
        if first[0] in ("on", "at", "у", "в", "na") and len(first) == 2 and first[1] in LOCATION_WORDS:
            where = LOCATION_WORDS[first[1]]
            data.setdefault("locations", {})[where] = _cards(rest, n, in_hand=False)
            lines[f"locations.{where}"] = n
            continue
        cards_text, bar, tokens = rest.partition("|")
        player: dict[str, Any] = {"name": head.strip(), "hand": _cards(cards_text, n)}
        if bar:
            _tokens(tokens, n, player)
        lines[f"players[{len(data['players'])}]"] = n
        data["players"].append(player)
    if not data["players"]:
        raise TextError(
            0,
            "no players: write one player a line, e.g. 'Ann: Darrow, Mustang | fleet 6 helium 4 influence 7 sovereign'",
        )
    return data, lines


def where_in_text(where: str, lines: dict[str, int]) -> str:
    """A JSON path of the JSON form (``players[1].hand[3]``) as a place in the text form."""
    m = re.match(r"(players\[\d+\]|locations\.\w+|banished|neutral_influence)(.*)", where)
    if not m or m.group(1) not in lines:
        return where
    line = f"line {lines[m.group(1)]}"
    rest = m.group(2)
    c = re.match(r"(?:\.hand)?\[(\d+)\]", rest)
    if c:
        return f"{line}, card {int(c.group(1)) + 1}"
    if rest.startswith("."):
        return f"{line}, {rest[1:]}"
    return line


def text_form(data: dict) -> str:
    """The text form of a final position given in its JSON form (as the interactive scorepad
    builds it), to keep or score again."""

    def card(c: Any) -> str:
        if isinstance(c, str):
            return c
        text = c["card"]
        if "as_color" in c:
            text += f" as {c['as_color']}"
        if "as_name" in c:
            text += f" as {c['as_name']}"
        if c.get("face_down"):
            text += " face down"
        return text

    out = []
    for p in data["players"]:
        tokens = [f"{k} {p[k]}" for k in ("fleet", "helium", "influence") if p.get(k)]
        if p.get("sovereign"):
            tokens.append("sovereign")
        if p.get("extra_points"):
            tokens.append(f"extra {p['extra_points']}")
        out.append(
            f"{p['name']}: " + ", ".join(card(c) for c in p["hand"]) + (" | " + " ".join(tokens) if tokens else "")
        )
    for loc, cards in (data.get("locations") or {}).items():
        if cards:
            out.append(f"on {loc}: " + ", ".join(card(c) for c in cards))
    if data.get("banished"):
        out.append("banished: " + ", ".join(card(c) for c in data["banished"]))
    if "neutral_influence" in data and len(data["players"]) == 2 and data["neutral_influence"] != NEUTRAL_INFLUENCE_2P:
        out.append(f"neutral {data['neutral_influence']}")
    return "\n".join(out)


# ====================================================================== the interactive scorepad


class Leave(Exception):
    """End of input or Ctrl-C at a prompt."""


def _completer():
    """Tab completion of card names for readline, case-insensitively on the start of the name."""
    state: dict[str, list[str]] = {}
    lang = get_lang()
    names = CARD_NAMES if lang == "en" else [card_name(i, lang) for i in range(len(CARDS))] + CARD_NAMES

    def complete(text: str, i: int):
        if i == 0:
            low = text.lower()
            state["hits"] = [n for n in names if n.lower().startswith(low)] or [
                n for n in names if low and low in n.lower()
            ]
        hits = state.get("hits", [])
        return hits[i] if i < len(hits) else None

    return complete


def setup_readline() -> Callable[[], None]:
    """Tab completes card names while the scorepad asks for them; returns the undo."""
    try:
        import readline
    except ImportError:  # pragma: no cover - no readline (Windows): typing works, without completion
        return lambda: None
    old = readline.get_completer(), readline.get_completer_delims()
    readline.set_completer(_completer())
    readline.set_completer_delims(",")
    doc = getattr(readline, "__doc__", "") or ""
    readline.parse_and_bind("bind ^I rl_complete" if "libedit" in doc else "tab: complete")

    def undo() -> None:
        readline.set_completer(old[0])
        readline.set_completer_delims(old[1])

    return undo


def interactive(console, ask: Callable[[str], str], score: Callable[[dict], list]) -> dict:
    """Ask for a final position player by player; returns its JSON form.

    ``ask(prompt)`` reads a line (raising :class:`Leave` at the end of input); ``score(data)``
    scores a JSON form (raising ValueError) for the running totals.
    """
    from rich.text import Text

    say = lambda markup: console.print(Text.from_markup(markup))  # noqa: E731
    say(
        "[bold]"
        + tr("Red Rising scorepad")
        + "[/bold] — "
        + tr(
            "type each player's final hand and tokens. Tab completes a card name; Enter on an empty card "
            "ends a hand; 'undo' takes back the last card."
        )
    )

    def number(prompt: str, lo: int, hi: int, default: int) -> int:
        while True:
            raw = ask(tr("{prompt} [{default}]: ", prompt=prompt, default=default)).strip()
            if not raw:
                return default
            if re.fullmatch(r"\d{1,4}", raw) and lo <= int(raw) <= hi:
                return int(raw)
            say(tr("  A number from {lo} to {hi}, please.", lo=lo, hi=hi))

    n = number(tr("How many players (2-6)?"), 2, 6, 2)
    data: dict[str, Any] = {"players": []}
    if n == 2:
        data["neutral_influence"] = NEUTRAL_INFLUENCE_2P
    used: set[int] = set()
    for k in range(n):
        default = tr("Player {n}", n=k + 1)
        while True:
            name = ask(tr("Player {n}'s name [{default}]: ", n=k + 1, default=default)).strip() or default
            if len(name) > 100 or any(ord(c) < 32 for c in name):
                say(tr("  A name of at most 100 characters, please."))
            elif any(p["name"].lower() == name.lower() for p in data["players"]):
                say(tr("  {name} is already at the table.", name=escape(name)))
            else:
                break
        player: dict[str, Any] = {"name": name, "hand": []}
        data["players"].append(player)
        say(
            tr(
                "[bold]{name}[/bold]'s cards, one a line (e.g. 'Darrow', 'Trigg as red', 'Cyther as Sevro'):",
                name=escape(name),
            )
        )
        while True:
            raw = ask(tr("  card {n}: ", n=len(player["hand"]) + 1)).strip()
            if not raw:
                break
            if raw.lower() == "undo":
                if player["hand"]:
                    gone = player["hand"].pop()
                    used.discard(card_index(gone if isinstance(gone, str) else gone["card"]))
                    say(tr("  taken back"))
                continue
            entries = []
            try:
                for item in re.split(r"[,;]", raw):
                    entries.append(card_entry(item, 0))
            except TextError as e:
                say("  " + tr("not counted: {problem}", problem=escape(e.message)))
                continue
            taken = False
            for entry in entries:
                idx = card_index(entry if isinstance(entry, str) else entry["card"])
                if idx in used:
                    say("  " + tr("{card} is already counted", card=card_name(idx, get_lang())))
                    taken = True
            if taken:
                continue
            for entry in entries:
                idx = card_index(entry if isinstance(entry, str) else entry["card"])
                used.add(idx)
                player["hand"].append(entry)
                if isinstance(entry, str) and COLOR[idx] == GRAY:
                    say(
                        "  "
                        + tr(
                            "{card} is Gray: it counts as the best other colour unless you write '{card} as COLOUR'",
                            card=card_name(idx, get_lang()),  # (the text form takes it)
                        )
                    )
                elif isinstance(entry, str) and COLOR[idx] == ORANGE:
                    say(
                        "  "
                        + tr(
                            "{card} is Orange: it takes the best character's name unless you write '{card} as NAME'",
                            card=card_name(idx, get_lang()),  # (the text form takes it)
                        )
                    )
            _running(say, score, data, player)
        player["fleet"] = number(tr("  Fleet Track (0-10)"), 0, 10, 0)
        player["helium"] = number(tr("  Helium"), 0, 999, 0)
        player["influence"] = number(tr("  Influence on the Institute (0-10)"), 0, 10, 0)
        if not any(p.get("sovereign") for p in data["players"]):
            yes = ask(tr("  Does {name} hold the Sovereign token? [y/N]: ", name=name)).strip().lower()
            if yes in ("y", "yes", "т", "так", "t", "tak"):
                player["sovereign"] = True
        extra = number(tr("  Points from end-of-game abilities (e.g. Hacker)"), 0, 999, 0)
        if extra:
            player["extra_points"] = extra
        _running(say, score, data, player)
    if n == 2:
        data["neutral_influence"] = number(
            tr("Neutral house's Influence on the Institute"), 0, 10, NEUTRAL_INFLUENCE_2P
        )
    say(tr("Cards left on the locations and banished count for some bonuses (Enter: none)."))
    for loc, title in (
        ("jupiter", tr("Jupiter")),
        ("mars", tr("Mars")),
        ("luna", tr("Luna")),
        ("institute", tr("The Institute")),
        ("banished", tr("Banished")),
    ):
        while True:
            raw = ask(tr("  {place} (bottom to top, commas): ", place=title)).strip()
            try:
                cards = _cards(raw, 0, in_hand=False)
            except TextError as e:
                say("  " + tr("not counted: {problem}", problem=escape(e.message)))
                continue
            idxs = [card_index(c) for c in cards]
            twice = [card_name(i, get_lang()) for i in idxs if i in used]
            if twice:
                say("  " + tr("{card} is already counted", card=twice[0]))
                continue
            used.update(idxs)
            if cards:
                if loc == "banished":
                    data["banished"] = cards
                else:
                    data.setdefault("locations", {})[loc] = cards
            break
    return data


def _running(say, score, data: dict, player: dict) -> None:
    """The running total of ``player`` with the players entered so far."""
    probe = {**data, "players": list(data["players"])}
    while len(probe["players"]) < 2:
        probe["players"].append({"name": "\u2063", "hand": []})
    if len(probe["players"]) != 2:
        probe.pop("neutral_influence", None)
    try:
        scores = score(probe)
    except ValueError:
        return
    s = scores[data["players"].index(player)]
    say(
        "  "
        + tr(
            "[bold]{name}: {total}[/bold] so far (cards {cards}, Fleet {fleet}, Helium {helium}, "
            "Sovereignty {sovereignty}, Influence {influence}, excess cards {excess})",
            name=escape(player["name"]),
            total=s.total,
            cards=s.cards,
            fleet=s.fleet,
            helium=s.helium,
            sovereignty=s.sovereignty,
            influence=s.influence,
            excess=s.excess_cards,
        )
    )
