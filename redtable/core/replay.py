"""Saved games: options + seed + actions, as JSON; replaying one checks every step."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import IllegalAction, RedtableError, ReplayError
from .protocol import State
from .registry import make_game

FORMAT = "redtable-game/1"


@dataclass(slots=True)
class GameRecord:
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, state: State, seed: int) -> "GameRecord":
        opts = dict(state.game.options())
        players = opts.pop("players")
        return cls(state.game.name, players, seed, opts, list(state.history))

    def to_json(self, state: State | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT, "game": self.game, "players": self.players,
            "seed": self.seed, "options": self.options, "actions": self.actions,
        }
        if state is not None:
            out["events"] = [e.to_json() for e in state.events]
            if state.is_terminal():
                out["result"] = {"scores": state.scores(), "winners": state.winners()}
        return out

    @classmethod
    def from_json(cls, data: Any) -> "GameRecord":
        if not isinstance(data, dict):
            raise ReplayError(f"a saved game is a JSON object, got {type(data).__name__}")
        if data.get("format", FORMAT) != FORMAT:
            raise ReplayError(f"unknown format {data.get('format')!r}; expected {FORMAT!r}")
        for key, typ in (("game", str), ("players", int), ("seed", int), ("actions", list)):
            if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
                raise ReplayError(f"field {key!r} must be a {typ.__name__}, got {data.get(key)!r}")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise ReplayError(f"field 'options' must be an object, got {options!r}")
        for i, a in enumerate(data["actions"]):
            if not isinstance(a, str):
                raise ReplayError(f"action must be a string, got {a!r}", step=i)
        return cls(data["game"], data["players"], data["seed"], options, list(data["actions"]))

    def save(self, path: str | Path, state: State | None = None) -> None:
        Path(path).write_text(json.dumps(self.to_json(state)))

    @classmethod
    def load(cls, path: str | Path) -> "GameRecord":
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, UnicodeDecodeError) as e:
            raise ReplayError(f"cannot read {path}: {e}") from None
        except json.JSONDecodeError as e:
            raise ReplayError(f"{path} is not valid JSON: {e}") from None
        return cls.from_json(data)


def replay(record: GameRecord) -> State:
    """Rebuild the state by applying every action; an illegal step is named in the error."""
    try:
        game = make_game(record.game, record.players, **record.options)
    except TypeError as e:
        raise ReplayError(f"bad options for {record.game}: {e}") from None
    except RedtableError as e:
        raise ReplayError(str(e)) from None
    state = game.new_initial_state(record.seed)
    for i, action in enumerate(record.actions):
        try:
            state.apply(action)
        except IllegalAction as e:
            raise ReplayError(str(e), step=i) from None
    return state
