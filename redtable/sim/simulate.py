"""Play many games with bots and collect statistics (the `redtable simulate` command)."""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..core import GameRecord, Rng, make_game
from ..data.files import write_part
from ..data.rows import simulated_row


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: independent of how games are spread over workers."""
    return Rng(seed).derive(index) & 0x7FFFFFFF


@dataclass(slots=True)
class GameResult:
    index: int
    seed: int
    summary: dict[str, Any] | None
    decisions: int
    seconds: float
    error: str | None = None
    record: dict | None = None
    bots: list[str] = field(default_factory=list)  # the bot spec of each seat
    decision_seconds: list[float] = field(default_factory=list)  # time in choose(), per seat
    decision_counts: list[int] = field(default_factory=list)  # choose() calls, per seat


def play_one(
    game_name: str,
    players: int,
    options: dict,
    index: int,
    seed: int,
    bots: list[str] | None = None,
    keep_record: bool = False,
    on_state: Callable | None = None,
) -> GameResult:
    game = make_game(game_name, players, **options)
    gseed = game_seed(seed, index)
    specs = bots or ["random"]
    seat_specs = [specs[i % len(specs)] for i in range(players)]
    seats = [make_bot(seat_specs[i], seed=gseed * 7 + i) for i in range(players)]
    spent = [0.0] * players
    calls = [0] * players
    clock = time.perf_counter
    t0 = clock()
    state = game.new_initial_state(gseed)
    try:
        while True:
            d = state.decision()
            if d is None:
                break
            p = d.player
            t = clock()
            action = seats[p].choose(state)
            spent[p] += clock() - t
            calls[p] += 1
            state.apply(action)
            if on_state is not None:
                on_state(state)
        summary = state.summary()
        err = None
    except Exception:  # a simulation reports engine errors instead of dying on the first
        summary, err = None, traceback.format_exc(limit=8)
    dt = clock() - t0
    record = GameRecord.of(state, gseed).to_json(state) if keep_record else None
    return GameResult(index, gseed, summary, len(state.history), dt, err, record, seat_specs, spent, calls)


@dataclass(slots=True, frozen=True)
class SimulateTask:
    """Play game ``index`` of a simulation (picklable, for :func:`~redtable.sim.parallel.run_games`).

    With ``save_dir`` and the ``json`` format the worker writes the game's log itself and
    returns no record; with ``jsonl`` or ``parquet`` it returns the game's data-set row
    (``redtable/data``) in ``record``, and :func:`simulate` writes them all as one part.
    """

    game: str
    players: int
    options: dict
    seed: int
    bots: list[str] | None = None
    save_dir: str | None = None
    save_format: str = "json"

    def __call__(self, index: int) -> GameResult:
        save_dir = self.save_dir
        r = play_one(
            self.game, self.players, self.options, index, self.seed, self.bots, keep_record=save_dir is not None
        )
        if save_dir is not None and r.record is not None:
            if self.save_format == "json":
                Path(save_dir, f"game-{index:05d}.json").write_text(json.dumps(r.record))
                r.record = None
            else:
                r.record = simulated_row(r.record, f"sim-{self.seed}-{index:05d}", r.bots)
        return r


@dataclass(slots=True)
class SimulationReport:
    game: str
    players: int
    games: int
    seed: int
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        summaries = [r.summary for r in self.results if r.summary is not None]
        decisions = sum(r.decisions for r in self.results)
        scores = [s for summary in summaries for s in summary["scores"]]
        out: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "errors": len(self.results) - len(summaries),
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else 0.0,
            "decisions": decisions,
            "decisions_per_second": round(decisions / self.seconds, 1) if self.seconds else 0.0,
            "mean_score": round(sum(scores) / len(scores), 3) if scores else 0.0,
            "mean_decisions_per_game": round(decisions / max(1, len(self.results)), 2),
            "mean_decision_seconds": _mean_decision_seconds(self.results),
        }
        game = make_game(self.game, self.players)
        out.update(game.summarize(summaries))
        errors = [{"game": r.index, "seed": r.seed, "error": r.error} for r in self.results if r.error]
        if errors:
            out["error_details"] = errors[:20]
        return out


def _mean_decision_seconds(results: list[GameResult]) -> float:
    calls = sum(sum(r.decision_counts) for r in results)
    return round(sum(sum(r.decision_seconds) for r in results) / calls, 8) if calls else 0.0


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    options: dict | None = None,
    bots: list[str] | None = None,
    save_dir: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    workers: int = 1,
    backend: str = "local",
    save_format: str = "json",
) -> SimulationReport:
    """Play games ``0..games-1`` (game ``i`` from ``game_seed(seed, i)``) over ``workers``
    processes; everything but the timings is the same for any ``workers``.

    ``save_dir`` keeps every game: one JSON log per game (``save_format`` ``json``), or one
    new part of a data set (``jsonl`` or ``parquet``: ``docs/data.md``)."""
    from .parallel import run_games

    options = options or {}
    make_game(game_name, players, **options)  # validate options before starting
    report = SimulationReport(game_name, players, games, seed)
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
    task = SimulateTask(
        game_name,
        players,
        options,
        seed,
        list(bots) if bots else None,
        None if save_dir is None else str(save_dir),
        save_format,
    )
    t0 = time.perf_counter()
    report.results = run_games(task, range(games), workers, backend, progress=progress)
    report.seconds = time.perf_counter() - t0
    if save_dir is not None and save_format != "json":
        rows = (r.record for r in sorted(report.results, key=lambda r: r.index) if r.record is not None)
        write_part(Path(save_dir), rows, [save_format])
        for r in report.results:
            r.record = None
    return report
