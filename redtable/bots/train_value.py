"""Train the expert bot's learned evaluation (:mod:`.learned_value`) from self-play games.

The shipped models were made with (5 and 7 minutes with 2 workers here; ``--workers``
splits the games, the result does not depend on it)::

    python -m redtable.bots.train_value red-rising --players 2,3,4 --games 300 --workers 2
    python -m redtable.bots.train_value red-north --players 2,3,4 --games 600 --workers 2

A player count without weights (Red Rising 5 and 6) uses the nearest one that has them.

Data: game ``i`` (``i`` in ``0..games-1``) at each player count is dealt from seed ``i`` and
played by ``heuristic`` bots (seeded by the game), with one decision in ten (drawn from a
generator seeded by the game) taken at random instead, so that the positions are varied
and not only the heuristic's. Every position where a turn starts (the search evaluates
positions there) is one example: each seat's features and the game's final win shares.
Games with ``i % 5 == 0`` are held out and reported (log-loss of the model against the
hand-made evaluation's softmax); the weights are then refitted on all the games.

Fit: maximum likelihood of the conditional logit (softmax over seats of a linear score)
with an L2 penalty, on standardised features, by a fixed number of full-batch Adam steps
from zero: the same data gives the same weights. numpy only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ..core import make_game
from .evaluation import evaluator_for
from .learned_value import LinearValue, learned, learned_titles, model_path
from .registry import make_bot

RANDOM_MOVES = 0.1


def game_examples(job: tuple[str, int, int]) -> tuple[list[list[list[float]]], list[float], list[float], list[float]]:
    """The examples of one self-play game: (features per position, phases, estimates' totals, win shares)."""
    game_name, players, index = job
    st = make_game(game_name, players).new_initial_state(index)
    rnd = random.Random(index * 1000 + players)
    bots = [make_bot("heuristic", seed=index * 7 + s) for s in range(players)]
    spec = learned(game_name)
    assert spec is not None, game_name
    featurize = spec.featurizer()
    stop = evaluator_for(game_name).stop_kind
    feats: list[list[list[float]]] = []
    phases: list[float] = []
    while True:
        d = st.decision()
        if d is None:
            break
        if d.kind == stop:
            rows, phase = featurize(st)
            feats.append(rows)
            phases.append(phase)
        if rnd.random() < RANDOM_MOVES:
            a = d.options[rnd.randrange(len(d.options))]
        else:
            a = bots[d.player].choose(st)
        st.apply(a)
    return feats, phases, list(st.returns()), list(st.scores())


def collect(game_name: str, players: int, games: int, workers: int) -> dict[str, np.ndarray]:
    """Examples of ``games`` self-play games: X (positions x seats x features), phase, Y (win
    shares of the game each position is from) and the game index G."""
    jobs = [(game_name, players, i) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            results = list(ex.map(game_examples, jobs, chunksize=4))
    else:
        results = [game_examples(j) for j in jobs]
    X, PH, Y, G = [], [], [], []
    for i, (feats, phases, returns, _) in enumerate(results):
        X += feats
        PH += phases
        Y += [returns] * len(feats)
        G += [i] * len(feats)
    return {"X": np.array(X, float), "phase": np.array(PH, float), "Y": np.array(Y, float), "G": np.array(G)}


def design(X: np.ndarray, phase: np.ndarray) -> np.ndarray:
    """The model's inputs: the features and the features times the phase."""
    return np.concatenate([X, X * phase[:, None, None]], axis=2)


def softmax(S: np.ndarray) -> np.ndarray:
    S = S - S.max(axis=1, keepdims=True)
    E = np.exp(S)
    return E / E.sum(axis=1, keepdims=True)


def log_loss(U: np.ndarray, Y: np.ndarray) -> float:
    return float(-(Y * np.log(np.clip(U, 1e-6, 1.0))).sum(axis=1).mean())


def fit(Z: np.ndarray, Y: np.ndarray, l2: float = 1e-3, steps: int = 3000, lr: float = 0.05) -> np.ndarray:
    """Weights of the standardised inputs; returns the raw-input coefficients (mean folded away)."""
    flat = Z.reshape(-1, Z.shape[2])
    sd = flat.std(axis=0) + 1e-9
    Zs = Z / sd
    w = np.zeros(Z.shape[2])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, steps + 1):
        U = softmax(Zs @ w)
        grad = -np.einsum("npk,np->k", Zs, Y - U) / len(Zs) + l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w / sd


def train(game_name: str, players: int, games: int, workers: int, log=print) -> tuple[list[float], list[float], dict]:
    t0 = time.perf_counter()
    data = collect(game_name, players, games, workers)
    Z = design(data["X"], data["phase"])
    Y, G = data["Y"], data["G"]
    test = (G % 5) == 0
    w = fit(Z[~test], Y[~test])
    held = log_loss(softmax(Z[test] @ w), Y[test])
    k = data["X"].shape[2]
    uniform = log_loss(np.full(Y[test].shape, 1.0 / players), Y[test])
    w = fit(Z, Y)
    report = {
        "players": players,
        "games": games,
        "positions": int(len(Y)),
        "held_out_log_loss": round(held, 4),
        "uniform_log_loss": round(uniform, 4),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    log(json.dumps(report))
    return [float(x) for x in w[:k]], [float(x) for x in w[k:]], report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", choices=sorted(learned_titles()))
    ap.add_argument("--players", default="2,3,4", help="player counts, comma-separated (one weight vector each)")
    ap.add_argument("--games", type=int, default=300, help="self-play games per player count")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None, help="the model file (default: the package's)")
    args = ap.parse_args(argv)
    try:
        counts = sorted({int(x) for x in args.players.split(",")})
    except ValueError:
        sys.exit(f"--players: comma-separated player counts, got {args.players!r}")
    weights = {}
    reports: list[dict[str, Any]] = []
    for p in counts:
        a, b, rep = train(args.game, p, args.games, args.workers)
        weights[p] = (a, b)
        reports.append(rep)
    out = args.out or Path(str(model_path(args.game)))
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "trained_by": f"python -m redtable.bots.train_value {args.game} --players {args.players} --games {args.games}",
        "training": reports,
    }
    out.write_text(json.dumps(LinearValue(args.game, weights).to_json(meta), indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
