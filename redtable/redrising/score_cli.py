"""``redtable score red-rising [FILE] [--json]``: score a finished physical game.

Three ways to give the final position: with no FILE (and a terminal), an interactive
scorepad asks for it player by player (:func:`redtable.redrising.scorepad.interactive`);
a FILE (or ``-``, or piped standard input) in the short text form, one player a line
(:mod:`redtable.redrising.scorepad`)::

    Ann: Darrow, Mustang, Trigg as red, Cyther as Sevro | fleet 6 helium 4 influence 7 sovereign

or JSON (a file ending in ``.json``, or any input starting with ``{``), as the web UI's
score calculator shows and loads it::

    {"players": [{"name": "Ann", "hand": ["Darrow", {"card": "Bridge", "as_color": "red"},
                                          {"card": "Cyther", "as_name": "Sevro"},
                                          {"card": "Hacker", "face_down": true}],
                  "fleet": 4, "helium": 2, "influence": 3, "sovereign": false,
                  "extra_points": 0},
                 ...],
     "locations": {"jupiter": [...], "mars": [...], "luna": [...], "institute": [...]},
     "banished": [...],
     "neutral_influence": 3}

``neutral_influence`` is the 2-player neutral house's Influence on the Institute: the rulebook
places 3 tokens of an unused house there at setup, so a 2-player file without the key counts 3
(give 0 to leave them out); it is refused in other games.

Card names match case-insensitively (printed name or slug); location lists run bottom to
top and their entries may also be ``{"card": …, "face_down": true}``. ``extra_points``
(optional) are points from end-of-game abilities such as Hacker's reveal. Everything is
validated here, at the edge: any problem prints one message naming the offending value
and where it is to stderr, prints nothing on stdout, and returns exit code 2. The file is
read by :func:`redtable.core.jsonfile.read_json_file`: at most 1 MB, nested at most 32
levels; echoed values are clipped to 200 characters.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

import typer

from ..core.jsonfile import (
    JsonFileError,
    LongInt,
    clip,
    decode_utf8,
    parse_json,
    quote,
    read_limited,
    show,
    suggest,
)
from ..i18n import get_lang, tr
from .board import NEUTRAL_INFLUENCE_2P
from .cards import COLOR, COLOR_NAMES, COLOR_OF_NAME, GRAY, NAME, ORANGE, card_index, close_names
from .gallery import card_name
from .scoring import FinalPlayer, FinalPosition, PlayerScore, score_position, winners

LOCATIONS = ("jupiter", "mars", "luna", "institute")
PLAYER_KEYS = ("name", "hand", "fleet", "helium", "influence", "sovereign", "extra_points")
TOP_KEYS = ("players", "locations", "banished", "neutral_influence")
LIMIT_BYTES = 1 << 20  # a six-player final position is about 2 KB
MAX_DEPTH = 32  # a final position nests 5 levels
MAX_COUNT = 999  # Helium and extra points have no printed limit; this one is far above any game
MAX_NAME_CHARS = 100
ROW_LABELS = (
    ("cards", "CARDS"),
    ("fleet", "FLEET"),
    ("helium", "HELIUM"),
    ("sovereignty", "SOVEREIGNTY"),
    ("influence", "INFLUENCE"),
    ("excess_cards", "EXCESS CARDS"),
    ("total", "TOTAL"),
)
MSGIDS = tuple(label for _, label in ROW_LABELS)  # translated through the catalogs


class InputError(ValueError):
    """A problem in the input file, with where it is."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)


def _show(value: Any) -> str:
    return show(value)


def _keys(obj: Any, where: str, allowed: tuple[str, ...], what: str) -> dict:
    if not isinstance(obj, dict):
        raise InputError(where, f"expected {what} (a JSON object), got {_show(obj)}")
    for k in obj:
        if k not in allowed:
            raise InputError(where, f"unknown key {quote(k)}{suggest(k, allowed)}; expected: {', '.join(allowed)}")
    return obj


def _int(obj: dict, key: str, where: str, lo: int, hi: int, default: int = 0) -> int:
    value = obj.get(key, default)
    where = f"{where}.{key}" if where else key
    if isinstance(value, LongInt) or (isinstance(value, int) and not isinstance(value, bool) and not lo <= value <= hi):
        raise InputError(where, f"must be from {lo} to {hi}, got {_show(value)}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(where, f"expected an integer {lo}-{hi}, got {_show(value)}")
    return value


def _card_name(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise InputError(where, f"expected a card name (a string), got {_show(value)}")
    try:
        return card_index(value)
    except KeyError:
        hints = close_names(value) if len(value) <= 100 else []
        hint = f"; did you mean: {', '.join(hints)}?" if hints else ""
        raise InputError(where, f"unknown card {quote(value)}{hint}") from None


class _Parser:
    def __init__(self) -> None:
        self.seen: dict[int, str] = {}

    def card(self, entry: Any, where: str, in_hand: bool) -> tuple[int, dict]:
        """A card entry: a name, or an object with "card" and options."""
        opts: dict = {}
        if isinstance(entry, dict):
            allowed = ("card", "as_color", "as_name", "face_down") if in_hand else ("card", "face_down")
            _keys(entry, where, allowed, "a card")
            if "card" not in entry:
                raise InputError(where, "missing key 'card'")
            card = _card_name(entry["card"], f"{where}.card")
            opts = {k: v for k, v in entry.items() if k != "card"}
        else:
            card = _card_name(entry, where)
        if card in self.seen:
            raise InputError(where, f"{NAME[card]} appears twice (also at {self.seen[card]})")
        self.seen[card] = where
        if "face_down" in opts and not isinstance(opts["face_down"], bool):
            raise InputError(f"{where}.face_down", f"expected true or false, got {_show(opts['face_down'])}")
        if "as_color" in opts:
            self._as_color(card, opts, where)
        if "as_name" in opts:
            self._as_name(card, opts, where)
        return card, opts

    def _as_color(self, card: int, opts: dict, where: str) -> None:
        value = opts["as_color"]
        if COLOR[card] != GRAY:
            raise InputError(
                f"{where}.as_color",
                f"only Gray cards may count as another colour; {NAME[card]} is {COLOR_NAMES[COLOR[card]].capitalize()}",
            )
        if opts.get("face_down"):
            raise InputError(f"{where}.as_color", f"{NAME[card]} is face down, so it has no colour")
        others = [c for c in COLOR_NAMES if c != "gray"]
        if not isinstance(value, str) or value.strip().lower() not in others:
            raise InputError(
                f"{where}.as_color", f"expected a colour other than gray ({', '.join(others)}), got {_show(value)}"
            )
        opts["as_color"] = COLOR_OF_NAME[value.strip().lower()]

    def _as_name(self, card: int, opts: dict, where: str) -> None:
        if COLOR[card] != ORANGE:
            raise InputError(
                f"{where}.as_name",
                f"only Orange cards may take another character's name; "
                f"{NAME[card]} is {COLOR_NAMES[COLOR[card]].capitalize()}",
            )
        opts["as_name"] = _card_name(opts["as_name"], f"{where}.as_name")

    def cards(self, value: Any, where: str, in_hand: bool) -> list[tuple[int, dict]]:
        if not isinstance(value, list):
            raise InputError(where, f"expected a list of cards, got {_show(value)}")
        return [self.card(e, f"{where}[{i}]", in_hand) for i, e in enumerate(value)]

    def player(self, obj: Any, k: int) -> FinalPlayer:
        where = f"players[{k}]"
        _keys(obj, where, PLAYER_KEYS, "a player")
        name = obj.get("name", f"Player {k + 1}")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{where}.name", f"expected a non-empty string, got {_show(name)}")
        if len(name.strip()) > MAX_NAME_CHARS:
            raise InputError(f"{where}.name", f"a name has at most {MAX_NAME_CHARS} characters, got {_show(name)}")
        if any(unicodedata.category(c) == "Cc" for c in name):
            raise InputError(f"{where}.name", f"a name cannot contain control characters, got {_show(name)}")
        if "hand" not in obj:
            raise InputError(where, "missing key 'hand'")
        hand = self.cards(obj["hand"], f"{where}.hand", in_hand=True)
        sovereign = obj.get("sovereign", False)
        if not isinstance(sovereign, bool):
            raise InputError(f"{where}.sovereign", f"expected true or false, got {_show(sovereign)}")
        return FinalPlayer(
            hand=[c for c, _ in hand],
            fleet=_int(obj, "fleet", where, 0, 10),
            helium=_int(obj, "helium", where, 0, MAX_COUNT),  # Helium has no limit (rulebook)
            influence=_int(obj, "influence", where, 0, 10),
            sovereign=sovereign,
            extra_points=_int(obj, "extra_points", where, 0, MAX_COUNT),
            name=name.strip(),
            face_down=frozenset(c for c, o in hand if o.get("face_down")),
            as_color={c: o["as_color"] for c, o in hand if "as_color" in o} or None,
            as_name={c: o["as_name"] for c, o in hand if "as_name" in o} or None,
        )


def parse_position(data: Any) -> FinalPosition:
    """A validated :class:`FinalPosition` from the decoded JSON, or :class:`InputError`."""
    _keys(data, "", TOP_KEYS, "the final position")
    p = _Parser()
    players = data.get("players")
    if not isinstance(players, list):
        raise InputError("players", f"expected a list of 2-6 players, got {_show(players)}")
    if not 2 <= len(players) <= 6:
        raise InputError("players", f"Red Rising is for 2-6 players, got {len(players)}")
    final = [p.player(obj, k) for k, obj in enumerate(players)]
    names: dict[str, int] = {}
    for k, fp in enumerate(final):
        if fp.name.lower() in names:
            raise InputError(f"players[{k}].name", f"{fp.name!r} is also the name of players[{names[fp.name.lower()]}]")
        names[fp.name.lower()] = k
    holders = [k for k, fp in enumerate(final) if fp.sovereign]
    if len(holders) > 1:
        raise InputError(
            f"players[{holders[1]}].sovereign",
            f"only one player can hold the Sovereign token (players[{holders[0]}] holds it too)",
        )
    locs = _keys(data.get("locations", {}), "locations", LOCATIONS, "the locations")
    piles = {name: p.cards(locs.get(name, []), f"locations.{name}", in_hand=False) for name in LOCATIONS}
    banished = p.cards(data.get("banished", []), "banished", in_hand=False)
    for i, (_card, o) in enumerate(banished):
        if o.get("face_down"):
            raise InputError(f"banished[{i}].face_down", "banished cards are face up")
    # The rulebook (Setup, and Scoring: Influence) always places 3 Influence tokens of an unused
    # house on the Institute in a 2-player game; no card moves them, so they are there at the end
    # unless the file says otherwise.
    neutral = _int(data, "neutral_influence", "", 0, 10, default=NEUTRAL_INFLUENCE_2P if len(final) == 2 else 0)
    if neutral and len(final) != 2:
        raise InputError(
            "neutral_influence", f"the neutral house only plays in 2-player games, this file has {len(final)} players"
        )
    return FinalPosition(
        players=final,
        locations=tuple([c for c, _ in piles[name]] for name in LOCATIONS),  # type: ignore[arg-type]
        banished=[c for c, _ in banished],
        neutral_influence=neutral,
        face_down_on_locations=frozenset(c for pile in piles.values() for c, o in pile if o.get("face_down")),
    )


def load_position(path: Path | str) -> FinalPosition:
    """The final position in ``path``: JSON (a ``.json`` file, or text starting with ``{`` or
    ``[``) or the short text form; ``-`` reads standard input."""
    shown = clip(str(path))
    try:
        if str(path) == "-":
            raw = sys.stdin.buffer.read(LIMIT_BYTES + 1)
            if len(raw) > LIMIT_BYTES:
                raise JsonFileError(
                    "-", "the input is too large (more than 1 MB); the limit for a final position is 1 MB"
                )
            shown = "standard input"
        else:
            raw = read_limited(path, LIMIT_BYTES, "a final position")
        text = decode_utf8(raw, shown)
    except JsonFileError as e:
        raise InputError(shown if str(path) != "-" else "standard input", e.problem) from None
    return position_of_text(text, shown, json_file=str(path).lower().endswith(".json"))


def position_of_text(text: str, shown: str, json_file: bool = False) -> FinalPosition:
    """A validated position from the text of a file: JSON or the short text form."""
    from .scorepad import TextError, parse_text, where_in_text

    start = text.lstrip()[:1]
    if json_file or start in ("{", "["):
        try:
            data = parse_json(text, shown, MAX_DEPTH)
        except JsonFileError as e:
            raise InputError(shown, e.problem) from None
        try:
            return parse_position(data)
        except InputError as e:
            raise InputError(f"{shown}: {e.where}" if e.where else shown, e.message) from None
    if not text.strip():
        raise InputError(shown, "the file is empty; expected a final position (JSON or the text form)")
    try:
        data, lines = parse_text(text)
        return parse_position(data)
    except TextError as e:
        raise InputError(f"{shown}: line {e.line}" if e.line else shown, e.message) from None
    except InputError as e:
        message = PATH.sub(lambda m: where_in_text(m.group(0), lines), e.message)
        raise InputError(f"{shown}: {where_in_text(e.where, lines)}" if e.where else shown, message) from None


PATH = re.compile(r"players\[\d+\](?:\.hand)?(?:\[\d+\])?(?:\.\w+)?|locations\.\w+(?:\[\d+\])?|banished(?:\[\d+\])?")


def result_json(pos: FinalPosition, scores: list[PlayerScore], wins: list[int]) -> dict:
    return {
        "players": [
            {
                "name": s.name,
                "cards": s.cards,
                "fleet": s.fleet,
                "helium": s.helium,
                "sovereignty": s.sovereignty,
                "influence": s.influence,
                "excess_cards": s.excess_cards,
                "total": s.total,
                "choices": s.choices,
            }
            for s in scores
        ],
        "winners": [scores[k].name for k in wins],
    }


def _print_scorepad(pos: FinalPosition, scores: list[PlayerScore], wins: list[int]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(file=sys.stdout, highlight=False)
    table = Table(title=tr("Red Rising: final scores"))
    table.add_column("")
    for k, s in enumerate(scores):
        header = escape(s.name) + ("\n" + tr("(winner)") if k in wins else "")
        table.add_column(header, justify="right", style="bold" if k in wins else None)
    for key, label in ROW_LABELS:
        end = key == "total"
        table.add_row(
            f"[bold]{tr(label)}[/bold]" if end else tr(label),
            *(str(s.row(key)) for s in scores),
            end_section=key == "excess_cards",
        )
    console.print(table)
    names = ", ".join(escape(scores[k].name) for k in wins)
    if len(wins) > 1:
        line = tr("Winner: {names} (shared victory)", names=names)
    elif sum(1 for s in scores if s.total == scores[wins[0]].total) > 1:
        line = tr("Winner: {names} (tie broken by the Sovereign token)", names=names)
    else:
        line = tr("Winner: {names}", names=names)
    console.print(line)
    lang = get_lang()
    shown = lambda card: card_name(card, lang)  # noqa: E731  (the gallery's name in the chosen language)
    colour = lambda c: tr(c).capitalize() if lang == "en" else tr(c)  # noqa: E731  (as the terminal's game says it)
    for s in scores:
        parts = [
            tr("{card} counts as {color}", card=shown(card), color=colour(color))
            for card, color in s.choices["as_color"].items()
        ]
        parts += [
            tr("{card} is named {other}", card=shown(card), other=shown(other))
            for card, other in s.choices["as_name"].items()
        ]
        if parts:
            console.print(escape(f"{s.name}: " + "; ".join(parts)))
    for s in scores:
        detail = ", ".join(f"{shown(card)} {pts}" for card, pts in s.card_points.items()) or tr("no cards")
        console.print("[dim]" + escape(tr("{name} cards: {detail}", name=s.name, detail=detail)) + "[/dim]")


def score_file(path: Path | str, as_json: bool) -> int:
    """Score the final position in ``path`` (JSON or the text form; ``-`` for standard input);
    print it; return the exit code (0, or 2 on a bad file, with the message on stderr and
    nothing on stdout)."""
    try:
        pos = load_position(path)
        scores = score_position(pos)
    except (InputError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    _print_result(pos, scores, as_json)
    return 0


def _print_result(pos: FinalPosition, scores: list[PlayerScore], as_json: bool) -> None:
    wins = winners(pos, scores)
    if as_json:
        print(json.dumps(result_json(pos, scores, wins)))
    else:
        _print_scorepad(pos, scores, wins)


def score_interactive(as_json: bool) -> int:
    """The interactive scorepad at the terminal; then the scorepad (or JSON) and the text form."""
    from rich.console import Console
    from rich.markup import escape

    from .scorepad import Leave, interactive, setup_readline, text_form

    console = Console(highlight=False, stderr=as_json)  # with --json only the result is on stdout

    def ask(prompt: str) -> str:
        try:  # input() itself, so that readline knows the prompt (Tab completion, an empty line)
            if as_json:
                sys.stderr.write(prompt)
                sys.stderr.flush()
                return input()
            return input(prompt)
        except EOFError:
            raise Leave(1) from None
        except KeyboardInterrupt:
            raise Leave(130) from None

    undo = setup_readline()
    try:
        data = interactive(console, ask, lambda d: score_position(parse_position(d)))
    except Leave as e:
        console.print("\n" + tr("Scorepad left unfinished: nothing scored."))
        return e.args[0]
    finally:
        undo()
    try:
        pos = parse_position(data)
        scores = score_position(pos)
    except (InputError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    _print_result(pos, scores, as_json)
    console.print(tr("The same position in the text form (redtable score red-rising FILE reads it):"))
    console.print(escape(text_form(data)), soft_wrap=True)
    return 0


SCORE_HELP = """Score a finished physical game of Red Rising from the final hands and tokens.

Three ways to give the final position:

\b
redtable score red-rising
  an interactive scorepad: player by player, card names with Tab
  completion and typo suggestions, the tokens and the running total
\b
redtable score red-rising final.txt     (- reads standard input)
  the short text form, one player a line, for example:
  Ann: Darrow, Mustang, Trigg as red | fleet 6 helium 4 influence 7 sovereign
  Bob: Sevro, Cyther as Eo, Hacker face down | helium 2 influence 2 extra 5
  on mars: Evey
  banished: Harmony
\b
  A Gray card may count 'as' a colour and an Orange card 'as' another
  character (left out, the best choice is made). The tokens, each
  optional: fleet N, helium N, influence N, sovereign, extra N (points of
  end-of-game abilities such as Hacker's). 'on LOCATION:' and 'banished:'
  list the cards left there; 'neutral N' is the 2-player neutral house's
  Influence (3 unless given).
\b
redtable score red-rising final.json
  JSON, as the web UI's score calculator (redtable serve, then "Score
  calculator", #/calc) shows, saves and loads it, for example:
  {"players": [{"name": "Ann", "fleet": 6, "helium": 4, "influence": 7,
                "hand": ["Darrow", {"card": "Trigg", "as_color": "red"}],
                "sovereign": true},
               {"name": "Bob", "hand": ["Sevro"], "helium": 2}]}
"""


def score_command(
    game: str = typer.Argument(..., help="red-rising"),
    file: Path | None = typer.Argument(
        None,
        help="the final position: the text form or JSON (- reads standard input; none: the "
        "interactive scorepad, or standard input when it is not a terminal)",
    ),
    as_json: bool = typer.Option(False, "--json", help="print JSON instead of the scorepad"),
    lang: str | None = typer.Option(
        None, "--lang", "-l", help="language of the scorepad: en, uk or pl (default: from LANG)"
    ),
) -> None:
    from ..cliutil import check_game, fail
    from ..i18n import resolve, set_lang

    check_game(game)
    if game != "red-rising":
        fail(f"scoring a physical game is available for red-rising, not {game!r}")
    try:
        set_lang(resolve(lang))
    except ValueError as e:
        fail(str(e))
    if file is None:
        raise typer.Exit(score_interactive(as_json) if sys.stdin.isatty() else score_file("-", as_json))
    raise typer.Exit(score_file(file, as_json))


score_command.__doc__ = SCORE_HELP
