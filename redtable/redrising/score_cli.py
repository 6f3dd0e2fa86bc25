"""``redtable score red-rising FILE [--json]``: score a finished physical game.

The input file is JSON::

    {"players": [{"name": "Ann", "hand": ["Darrow", {"card": "Bridge", "as_color": "red"},
                                          {"card": "Cyther", "as_name": "Sevro"},
                                          {"card": "Hacker", "face_down": true}],
                  "fleet": 4, "helium": 2, "influence": 3, "sovereign": false,
                  "extra_points": 0},
                 ...],
     "locations": {"jupiter": [...], "mars": [...], "luna": [...], "institute": [...]},
     "banished": [...],
     "neutral_influence": 0}

Card names match case-insensitively (printed name or slug); location lists run bottom to
top and their entries may also be ``{"card": …, "face_down": true}``. ``extra_points``
(optional) are points from end-of-game abilities such as Hacker's reveal. Everything is
validated here, at the edge: any problem prints one message naming the offending value
and where it is to stderr, prints nothing on stdout, and returns exit code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .cards import COLOR, COLOR_NAMES, COLOR_OF_NAME, GRAY, NAME, ORANGE, card_index, close_names
from .scoring import FinalPlayer, FinalPosition, PlayerScore, score_position, winners

LOCATIONS = ("jupiter", "mars", "luna", "institute")
PLAYER_KEYS = ("name", "hand", "fleet", "helium", "influence", "sovereign", "extra_points")
TOP_KEYS = ("players", "locations", "banished", "neutral_influence")
ROW_LABELS = (("cards", "CARDS"), ("fleet", "FLEET"), ("helium", "HELIUM"), ("sovereignty", "SOVEREIGNTY"),
              ("influence", "INFLUENCE"), ("excess_cards", "EXCESS CARDS"), ("total", "TOTAL"))


class InputError(ValueError):
    """A problem in the input file, with where it is."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)


def _show(value: Any) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _keys(obj: Any, where: str, allowed: tuple[str, ...], what: str) -> dict:
    if not isinstance(obj, dict):
        raise InputError(where, f"expected {what} (a JSON object), got {_show(obj)}")
    for k in obj:
        if k not in allowed:
            raise InputError(where, f"unknown key {k!r}; expected: {', '.join(allowed)}")
    return obj


def _int(obj: dict, key: str, where: str, lo: int, hi: int | None, default: int = 0) -> int:
    value = obj.get(key, default)
    where = f"{where}.{key}" if where else key
    if isinstance(value, bool) or not isinstance(value, int):
        rng = f"{lo}-{hi}" if hi is not None else f">= {lo}"
        raise InputError(where, f"expected an integer {rng}, got {_show(value)}")
    if value < lo or (hi is not None and value > hi):
        rng = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
        raise InputError(where, f"must be {rng}, got {value}")
    return value


def _card_name(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise InputError(where, f"expected a card name (a string), got {_show(value)}")
    try:
        return card_index(value)
    except KeyError:
        hints = close_names(value)
        hint = f"; did you mean: {', '.join(hints)}?" if hints else ""
        raise InputError(where, f"unknown card {value!r}{hint}") from None


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
            raise InputError(f"{where}.as_color", f"only Gray cards may count as another colour; "
                             f"{NAME[card]} is {COLOR_NAMES[COLOR[card]].capitalize()}")
        if opts.get("face_down"):
            raise InputError(f"{where}.as_color", f"{NAME[card]} is face down, so it has no colour")
        others = [c for c in COLOR_NAMES if c != "gray"]
        if not isinstance(value, str) or value.strip().lower() not in others:
            raise InputError(f"{where}.as_color",
                             f"expected a colour other than gray ({', '.join(others)}), got {_show(value)}")
        opts["as_color"] = COLOR_OF_NAME[value.strip().lower()]

    def _as_name(self, card: int, opts: dict, where: str) -> None:
        if COLOR[card] != ORANGE:
            raise InputError(f"{where}.as_name", f"only Orange cards may take another character's name; "
                             f"{NAME[card]} is {COLOR_NAMES[COLOR[card]].capitalize()}")
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
        if "hand" not in obj:
            raise InputError(where, "missing key 'hand'")
        hand = self.cards(obj["hand"], f"{where}.hand", in_hand=True)
        sovereign = obj.get("sovereign", False)
        if not isinstance(sovereign, bool):
            raise InputError(f"{where}.sovereign", f"expected true or false, got {_show(sovereign)}")
        return FinalPlayer(
            hand=[c for c, _ in hand],
            fleet=_int(obj, "fleet", where, 0, 10),
            helium=_int(obj, "helium", where, 0, None),  # Helium has no limit (rulebook)
            influence=_int(obj, "influence", where, 0, 10),
            sovereign=sovereign,
            extra_points=_int(obj, "extra_points", where, 0, None),
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
        raise InputError(f"players[{holders[1]}].sovereign",
                         f"only one player can hold the Sovereign token (players[{holders[0]}] holds it too)")
    locs = _keys(data.get("locations", {}), "locations", LOCATIONS, "the locations")
    piles = {name: p.cards(locs.get(name, []), f"locations.{name}", in_hand=False) for name in LOCATIONS}
    banished = p.cards(data.get("banished", []), "banished", in_hand=False)
    for i, (c, o) in enumerate(banished):
        if o.get("face_down"):
            raise InputError(f"banished[{i}].face_down", "banished cards are face up")
    neutral = _int(data, "neutral_influence", "", 0, 10)
    if neutral and len(final) != 2:
        raise InputError("neutral_influence", f"the neutral house only plays in 2-player games, "
                         f"this file has {len(final)} players")
    return FinalPosition(
        players=final,
        locations=tuple([c for c, _ in piles[name]] for name in LOCATIONS),  # type: ignore[arg-type]
        banished=[c for c, _ in banished],
        neutral_influence=neutral,
        face_down_on_locations=frozenset(c for pile in piles.values() for c, o in pile if o.get("face_down")),
    )


def load_position(path: Path | str) -> FinalPosition:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(str(path), f"cannot read the file: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(str(path), f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    try:
        return parse_position(data)
    except InputError as e:
        raise InputError(f"{path}: {e.where}" if e.where else str(path), e.message) from None


def result_json(pos: FinalPosition, scores: list[PlayerScore], wins: list[int]) -> dict:
    return {
        "players": [{
            "name": s.name, "cards": s.cards, "fleet": s.fleet, "helium": s.helium,
            "sovereignty": s.sovereignty, "influence": s.influence, "excess_cards": s.excess_cards,
            "total": s.total, "choices": s.choices,
        } for s in scores],
        "winners": [scores[k].name for k in wins],
    }


def _print_scorepad(pos: FinalPosition, scores: list[PlayerScore], wins: list[int]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stdout, highlight=False)
    table = Table(title="Red Rising: final scores")
    table.add_column("")
    for k, s in enumerate(scores):
        header = f"{s.name}\n(winner)" if k in wins else s.name
        table.add_column(header, justify="right", style="bold" if k in wins else None)
    for key, label in ROW_LABELS:
        end = key == "total"
        table.add_row(f"[bold]{label}[/bold]" if end else label, *(str(s.row(key)) for s in scores),
                      end_section=key == "excess_cards")
    console.print(table)
    names = [scores[k].name for k in wins]
    shared = " (shared victory)" if len(names) > 1 else ""
    tie = ""
    if len(wins) == 1 and sum(1 for s in scores if s.total == scores[wins[0]].total) > 1:
        tie = " (tie broken by the Sovereign token)"
    console.print(f"Winner: {', '.join(names)}{shared}{tie}")
    for s in scores:
        parts = [f"{card} counts as {color.capitalize()}" for card, color in s.choices["as_color"].items()]
        parts += [f"{card} is named {other}" for card, other in s.choices["as_name"].items()]
        if parts:
            console.print(f"{s.name}: " + "; ".join(parts))
    for s in scores:
        detail = ", ".join(f"{card} {pts}" for card, pts in s.card_points.items()) or "no cards"
        console.print(f"[dim]{s.name} cards: {detail}[/dim]")


def score_file(path: Path | str, as_json: bool) -> int:
    """Score the final position in ``path``; print it; return the exit code (0, or 2 on
    a bad file, with the message on stderr and nothing on stdout)."""
    try:
        pos = load_position(path)
        scores = score_position(pos)
    except (InputError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    wins = winners(pos, scores)
    if as_json:
        print(json.dumps(result_json(pos, scores, wins)))
    else:
        _print_scorepad(pos, scores, wins)
    return 0
