"""Play many games with bots and collect statistics (the `redtable simulate` command)."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..bots import make_bot
from ..core import GameRecord, Rng, make_game


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


def play_one(game_name: str, players: int, options: dict, index: int, seed: int,
             bots: list[str] | None = None, keep_record: bool = False,
             on_state: Callable | None = None) -> GameResult:
    game = make_game(game_name, players, **options)
    gseed = game_seed(seed, index)
    specs = bots or ["random"] * players
    seats = [make_bot(specs[i % len(specs)], seed=gseed * 7 + i) for i in range(players)]
    t0 = time.perf_counter()
    state = game.new_initial_state(gseed)
    try:
        while True:
            d = state.decision()
            if d is None:
                break
            state.apply(seats[d.player].choose(state))
            if on_state is not None:
                on_state(state)
        summary = state.summary()
        err = None
    except Exception:  # a simulation reports engine errors instead of dying on the first
        summary, err = None, traceback.format_exc(limit=8)
    dt = time.perf_counter() - t0
    record = GameRecord.of(state, gseed).to_json(state) if keep_record else None
    return GameResult(index, gseed, summary, len(state.history), dt, err, record)


@dataclass(slots=True)
class SimulationReport:
    game: str
    players: int
    games: int
    seed: int
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        ok = [r for r in self.results if r.summary is not None]
        decisions = sum(r.decisions for r in self.results)
        scores = [s for r in ok for s in r.summary["scores"]]
        out: dict[str, Any] = {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "errors": len(self.results) - len(ok),
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else 0.0,
            "decisions": decisions,
            "decisions_per_second": round(decisions / self.seconds, 1) if self.seconds else 0.0,
            "mean_score": round(sum(scores) / len(scores), 3) if scores else 0.0,
            "mean_decisions_per_game": round(decisions / max(1, len(self.results)), 2),
        }
        game = make_game(self.game, self.players)
        out.update(game.summarize([r.summary for r in ok]))
        errors = [{"game": r.index, "seed": r.seed, "error": r.error} for r in self.results if r.error]
        if errors:
            out["error_details"] = errors[:20]
        return out


def simulate(game_name: str, players: int, games: int, seed: int, options: dict | None = None,
             bots: list[str] | None = None, save_dir: str | Path | None = None,
             progress: Callable[[int], None] | None = None) -> SimulationReport:
    options = options or {}
    make_game(game_name, players, **options)  # validate options before starting
    report = SimulationReport(game_name, players, games, seed)
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    for i in range(games):
        r = play_one(game_name, players, options, i, seed, bots, keep_record=save_dir is not None)
        if save_dir is not None:
            import json
            Path(save_dir, f"game-{i:05d}.json").write_text(json.dumps(r.record))
            r.record = None
        report.results.append(r)
        if progress:
            progress(i + 1)
    report.seconds = time.perf_counter() - t0
    return report
