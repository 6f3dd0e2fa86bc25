"""Saved games: options + seed + actions, as JSON; replaying one checks every step."""

from __future__ import annotations

import hashlib
import inspect
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import IllegalAction, RedtableError, ReplayError
from .jsonfile import JsonFileError, LongInt, clip, quote, read_json_file, show, suggest
from .protocol import Game, State
from .registry import GAMES, game_class, make_game

FORMAT = "redtable-game/1"
REQUIRED_KEYS = ("game", "players", "seed", "actions")
TOP_KEYS = (
    "format",
    "game",
    "players",
    "seed",
    "options",
    "actions",
    "events",
    "result",
    "salt",
    "seed_commitment",
    "seed_chosen_by_creator",
    "hints",
)  # the last four: a server's record (hints: where the expert's hints were used, redtable.server.hints)
LIMIT_BYTES = 16 << 20  # a 300-decision game with its events is about 15 KB
MAX_DEPTH = 64  # a saved game nests 6 levels
MIN_SEED, MAX_SEED = -(1 << 63), (1 << 64) - 1  # Rng keeps the seed modulo 2**64
MAX_ACTION_CHARS = 200  # the longest action is about 20 characters
MAX_OPTION_CHARS = 200


def _kind(value: Any) -> str:
    names = {
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
        LongInt: "a number",
    }
    return f"{names.get(type(value), type(value).__name__)} ({show(value, 60)})"


def _int(
    value: Any, field: str, lo: int, hi: int, context: str = "", lo_text: str | None = None, hi_text: str | None = None
) -> int:
    """``value`` if it is an integer (not a boolean, a float or a :class:`LongInt`) from ``lo`` to ``hi``."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ReplayError(
            f"field {field!r} must be an integer from {lo_text or lo} to {hi_text or hi}{context}, got {show(value)}"
        )
    return value


def _check_commitment(seed: int, salt: Any, commitment: Any) -> None:
    """A server's record carries the ``seed_commitment`` it published when it dealt the game,
    sha256 of ``"<seed>:<salt>"``; the revealed seed must match it."""
    if commitment is None:
        return
    if not (isinstance(salt, str) and isinstance(commitment, str) and len(salt) <= 200 and len(commitment) <= 200):
        raise ReplayError(
            f"'salt' and 'seed_commitment' must be strings of at most 200 characters (as a "
            f"server's record has them), got {show(salt)} and {show(commitment)}"
        )
    if hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() != commitment.lower():
        raise ReplayError(
            "the seed does not match the seed_commitment published when the game was "
            "created: sha256 of '<seed>:<salt>' differs"
        )


@dataclass(slots=True)
class GameRecord:
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, state: State, seed: int) -> GameRecord:
        opts = dict(state.game.options())
        players = opts.pop("players")
        return cls(state.game.name, players, seed, opts, list(state.history))

    def to_json(self, state: State | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "actions": self.actions,
        }
        if state is not None:
            out["events"] = [e.to_json() for e in state.events]
            if state.is_terminal():
                out["result"] = {"scores": state.scores(), "winners": state.winners()}
        return out

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record from decoded JSON, every field checked; :class:`ReplayError` names the
        field, what it holds (clipped) and what is allowed."""
        if not isinstance(data, dict):
            raise ReplayError(
                f"a saved game is a JSON object with the keys {', '.join(REQUIRED_KEYS)}; got {_kind(data)}"
            )
        if data.get("format", FORMAT) != FORMAT:
            raise ReplayError(f"unknown format {show(data['format'])}; expected {FORMAT!r}")
        for key in data:
            if key not in TOP_KEYS:
                raise ReplayError(
                    f"unknown key {quote(key)}{suggest(key, TOP_KEYS)}; a saved game has the keys {', '.join(TOP_KEYS)}"
                )
        for key in REQUIRED_KEYS:
            if key not in data:
                raise ReplayError(f"missing key {key!r}; a saved game has the keys {', '.join(REQUIRED_KEYS)}")
        game = data["game"]
        if not isinstance(game, str) or game not in GAMES:
            raise ReplayError(
                f"field 'game' must be one of {', '.join(map(repr, GAMES))}, got {show(game)}{suggest(game, GAMES)}"
            )
        klass = game_class(game)
        lo, hi = getattr(klass, "min_players", 1), getattr(klass, "max_players", 64)
        players = _int(data["players"], "players", lo, hi, f" for {game}")
        seed = _int(data["seed"], "seed", MIN_SEED, MAX_SEED, "", "-2**63", "2**64-1")
        _check_commitment(seed, data.get("salt"), data.get("seed_commitment"))
        options = cls._options(klass, data.get("options", {}))
        actions = data["actions"]
        if not isinstance(actions, list):
            raise ReplayError(f"field 'actions' must be a list of strings, got {show(actions)}")
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise ReplayError(f"action must be a string, got {show(a)}", step=i)
            if len(a) > MAX_ACTION_CHARS:
                raise ReplayError(
                    f"action {show(a)} is too long; an action has at most {MAX_ACTION_CHARS} characters", step=i
                )
        return cls(game, players, seed, options, list(actions))

    @staticmethod
    def _options(klass: type[Game], options: Any) -> dict[str, Any]:
        """The game options: names the game's constructor takes, each value small. The game
        itself checks the values (with :class:`~redtable.core.errors.InvalidOptions`)."""
        if not isinstance(options, dict):
            raise ReplayError(f"field 'options' must be an object, got {show(options)}")
        names = [
            p.name
            for p in inspect.signature(klass).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("self", "players")
        ]
        for key, value in options.items():
            if key not in names:
                allowed = ", ".join(names) if names else "none"
                raise ReplayError(
                    f"unknown option {quote(key)} for {klass.name}{suggest(key, names)}; its options are: {allowed}"
                )
            text = show(value, limit=10 * MAX_OPTION_CHARS)
            if len(text) > MAX_OPTION_CHARS:
                raise ReplayError(
                    f"option {key!r} is too large ({show(value)}); an option's value is "
                    f"at most {MAX_OPTION_CHARS} characters of JSON"
                )
        return dict(options)

    def save(self, path: str | Path, state: State | None = None) -> None:
        Path(path).write_text(json.dumps(self.to_json(state)))

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a saved game (at most :data:`LIMIT_BYTES`); any problem is a :class:`ReplayError`
        that starts with the file's name."""
        try:
            data = read_json_file(path, limit_bytes=LIMIT_BYTES, max_depth=MAX_DEPTH, what="a saved game")
        except JsonFileError as e:
            raise ReplayError(str(e)) from None
        try:
            return cls.from_json(data)
        except ReplayError as e:
            named = ReplayError(f"{clip(str(path))}: {e}")
            named.step = e.step
            raise named from None


def replay(record: GameRecord) -> State:
    """Rebuild the state by applying every action; an illegal step is named in the error."""
    try:
        game = make_game(record.game, record.players, **record.options)
    except (TypeError, ValueError) as e:
        raise ReplayError(f"bad options for {record.game}: {clip(str(e), 2 * MAX_OPTION_CHARS)}") from None
    except RedtableError as e:
        raise ReplayError(str(e)) from None
    state = game.new_initial_state(record.seed)
    for i, action in enumerate(record.actions):
        try:
            state.apply(action)
        except IllegalAction as e:
            raise ReplayError(str(e), step=i) from None
    return state
