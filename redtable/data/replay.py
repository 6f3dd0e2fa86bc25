"""Replaying a data set's row through the core protocol: states, per-seat views, a check.

A row is a whole game: title, options, seed and actions. :func:`record` makes it the
core's :class:`~redtable.core.replay.GameRecord` (every field checked, a server game's
seed checked against its published commitment), and the core's ``replay`` applies every
action, refusing an illegal one. Nothing here knows a title: everything goes through
``Game``/``State``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core import GameRecord, State, make_game
from ..core import replay as core_replay
from ..core.errors import RedtableError
from .schema import DataError


def record(row: dict[str, Any]) -> GameRecord:
    """The row's game as a saved-game record (:class:`DataError` if the core refuses it)."""
    data: dict[str, Any] = {
        "game": row["game"],
        "players": row["players"],
        "seed": row["seed"],
        "options": row["options"],
        "actions": list(row["actions"]),
    }
    if row.get("seed_commitment"):
        data["salt"], data["seed_commitment"] = row.get("salt"), row["seed_commitment"]
    try:
        return GameRecord.from_json(data)
    except RedtableError as e:
        raise DataError(f"game {row.get('game_id')}: {e}") from None


def replay_row(row: dict[str, Any]) -> State:
    """The final state of the row's game, every action checked."""
    try:
        return core_replay(record(row))
    except RedtableError as e:
        raise DataError(f"game {row.get('game_id')}: {e}") from None


def states(row: dict[str, Any]) -> Iterator[State]:
    """The initial state, then the state after each action (each an independent clone)."""
    rec = record(row)
    state = make_game(rec.game, rec.players, **rec.options).new_initial_state(rec.seed)
    yield state.clone()
    for i, action in enumerate(rec.actions):
        try:
            state.apply(action)
        except RedtableError as e:
            raise DataError(f"game {row.get('game_id')}: step {i}: {e}") from None
        yield state.clone()


def decisions(row: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any], tuple[str, ...], str]]:
    """For every action: (the seat that took it, that seat's view then, its options, the
    action). The view is what the seat could see when it decided: imitation-learning pairs."""
    rec = record(row)
    state = make_game(rec.game, rec.players, **rec.options).new_initial_state(rec.seed)
    for i, action in enumerate(rec.actions):
        d = state.decision()
        if d is None:
            raise DataError(f"game {row.get('game_id')}: step {i}: the game is over, yet actions follow")
        yield d.player, state.view(d.player), d.options, action
        try:
            state.apply(action)
        except RedtableError as e:
            raise DataError(f"game {row.get('game_id')}: step {i}: {e}") from None


def views(row: dict[str, Any], seat: int | None) -> Iterator[dict[str, Any]]:
    """What ``seat`` (None: a spectator) saw at the start and after each action."""
    for state in states(row):
        yield state.view(seat)


def check(row: dict[str, Any]) -> State:
    """Replay the row and check its recorded result against the engine's: a finished game's
    scores, and its winners unless a seat forfeited (then the server ranked it last)."""
    state = replay_row(row)
    if state.is_terminal():
        if row["scores"] is not None and [float(s) for s in state.scores()] != [float(s) for s in row["scores"]]:
            raise DataError(f"game {row.get('game_id')}: replayed scores {state.scores()} != recorded {row['scores']}")
        if not row["forfeited"] and sorted(state.winners()) != sorted(row["winners"]):
            raise DataError(f"game {row.get('game_id')}: replayed winners {state.winners()} != {row['winners']}")
    elif not row["forfeited"]:
        raise DataError(f"game {row.get('game_id')}: the actions stop before the end and no seat forfeited")
    return state
