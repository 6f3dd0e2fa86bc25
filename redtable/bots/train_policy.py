"""Train the ``policy`` bot's network (:mod:`.policy`): imitation of the expert, then self-play RL.

    python -m redtable.bots.train_policy red-north
    python -m redtable.bots.train_policy red-rising
    python -m redtable.bots.train_policy red-north --quick --out /tmp/p.npz   # a minute's smoke run

Everything runs on the CPU with numpy; the same arguments give the same weights (the
number of ``--workers`` does not change them). The defaults are what made the shipped
files (``redtable/bots/data/policy-<game>.npz``, whose ``meta`` records the arguments and
the measured results).

1. **Imitation data.** Game ``i`` (``i < --games``) is dealt from seed ``i`` and played
   by ``--teacher`` bots on every seat (the expert at a small search budget by default),
   seeded by the game. At every decision the example is the deciding seat's observation,
   the legal actions and the teacher's choice; one move in ten (drawn from a generator
   seeded by the game) is then played at random instead of the teacher's choice, so that
   the data also covers positions the teacher would not reach (the label stays the
   teacher's choice).
2. **Imitation fit.** The network (one tanh hidden layer of ``--hidden`` units, a softmax
   over the legal actions only) is fitted by minibatch Adam on the cross-entropy of the
   teacher's choices, ``--epochs`` passes; games with ``i % 5 == 0`` are held out and
   their top-1 agreement with the teacher is reported.
3. **Self-play RL.** REINFORCE: the learner (sampling from its softmax) plays one seat,
   alternating, of ``--rl-games`` 2-player games against a frozen copy of itself (greedy),
   refreshed every ``--refresh`` updates; reward 1 for a win, 0 otherwise, minus a running
   mean baseline; one Adam step per ``--rl-batch`` games.
4. **Gate.** The network after RL plays ``--eval-games`` games against the network after
   imitation (both greedy, seats alternated); it is kept only if it wins at least half of
   them, and the file records the share. (Against the bots: ``bench/bench_policy.py``.)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ..core import make_game
from ..core.registry import title, titles
from ..envs.actions import codec
from ..envs.fast import observer
from .policy import PolicyBot, PolicyNet
from .registry import make_bot

RANDOM_MOVES = 0.1
DATA_DIR = Path(__file__).resolve().parent / "data"

QUICK: dict[str, Any] = {"games": 3, "epochs": 2, "rl_games": 8, "rl_batch": 4, "eval_games": 4, "hidden": 16}


# ---------------------------------------------------------------------------- 1. data
def teacher_game(job: tuple[str, int, str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One self-play game of the teacher: (observations float16 [n, F], legal masks uint8 [n, A],
    the teacher's action indices [n])."""
    game, players, teacher, index = job
    st = make_game(game, players).new_initial_state(index)
    rnd = random.Random(index * 1000 + players)
    bots = [make_bot(teacher, seed=index * 7 + s, game=game) for s in range(players)]
    ob, cd = observer(game), codec(game)
    xs, ms, acts = [], [], []
    while (d := st.decision()) is not None:
        choice = bots[d.player].choose(st)
        xs.append(ob.observe(st, d.player).astype(np.float16))
        ms.append(cd.shared_mask(d.options).astype(np.uint8))
        acts.append(cd.index[choice])
        if rnd.random() < RANDOM_MOVES:
            choice = d.options[rnd.randrange(len(d.options))]
        st.apply(choice)
    return np.array(xs), np.array(ms), np.array(acts, dtype=np.int32)


def teacher_data(
    game: str, players: int, teacher: str, games: int, workers: int, cache: Path | None = None
) -> list[tuple]:
    """Every teacher game (:func:`teacher_game`); with ``cache``, each game is kept there as a
    file and read back by a later run with the same game, player count and teacher."""
    jobs = [(game, players, teacher, i) for i in range(games)]

    def path(i: int) -> Path | None:
        if cache is None:
            return None
        return cache / f"{game}-{players}p-{teacher.replace(':', '_')}-{i}.npz"

    out: dict[int, tuple] = {}
    for i in range(games):
        p = path(i)
        if p is not None and p.exists():
            with np.load(p) as z:
                out[i] = (z["x"], z["m"], z["a"])
    todo = [j for j in jobs if j[3] not in out]
    done: Iterator[tuple]
    if workers <= 1 or len(todo) <= 1:
        done = map(teacher_game, todo)
        pool = None
    else:
        pool = ProcessPoolExecutor(workers)
        done = pool.map(teacher_game, todo)
    try:
        for job, result in zip(todo, done, strict=True):
            out[job[3]] = result
            p = path(job[3])
            if p is not None:
                p.parent.mkdir(parents=True, exist_ok=True)
                np.savez(p, x=result[0], m=result[1], a=result[2])
    finally:
        if pool is not None:
            pool.shutdown()
    return [out[i] for i in range(games)]


# ---------------------------------------------------------------------------- the learner
class Learner:
    """The network's parameters with Adam; gradients of masked-softmax objectives."""

    def __init__(self, F: int, A: int, hidden: int, rng: np.random.Generator, lr: float) -> None:
        self.p = {
            "W1": rng.normal(0.0, 1.0 / np.sqrt(F), (F, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": rng.normal(0.0, 0.1 / np.sqrt(hidden), (hidden, A)).astype(np.float32),
            "b2": np.zeros(A, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0
        self.lr = lr

    def net(self, meta: dict[str, Any] | None = None) -> PolicyNet:
        return PolicyNet({k: v.copy() for k, v in self.p.items()}, meta)

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.tanh(x @ self.p["W1"] + self.p["b1"])
        z = h @ self.p["W2"] + self.p["b2"]
        z = np.where(mask > 0, z, -1e9)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z) * (mask > 0)
        return h, e / e.sum(axis=1, keepdims=True)

    def step(self, x: np.ndarray, mask: np.ndarray, a: np.ndarray, weight: np.ndarray) -> float:
        """One Adam step ascending the mean of ``weight * log pi(a | x)``; returns the mean
        cross-entropy ``-log pi(a | x)`` before the step."""
        h, pi = self.forward(x, mask)
        rows = np.arange(len(a))
        ce = float(-np.log(np.maximum(pi[rows, a], 1e-12)).mean())
        dz = -pi
        dz[rows, a] += 1.0
        dz *= weight[:, None] / len(a)
        dh = (dz @ self.p["W2"].T) * (1.0 - h * h)
        grads = {"W2": h.T @ dz, "b2": dz.sum(0), "W1": x.T @ dh, "b1": dh.sum(0)}
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            self.p[k] += (self.lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return ce


# ---------------------------------------------------------------------------- 2. imitation
def fit_imitation(
    learner: Learner, data: list[tuple], epochs: int, batch: int, rng: np.random.Generator, log: Any
) -> dict[str, float]:
    train = [g for i, g in enumerate(data) if i % 5 != 0] or data
    held = [g for i, g in enumerate(data) if i % 5 == 0]
    X = np.concatenate([g[0] for g in train])
    M = np.concatenate([g[1] for g in train])
    Y = np.concatenate([g[2] for g in train])
    n = len(Y)
    for epoch in range(epochs):
        order = rng.permutation(n)
        losses = []
        for s in range(0, n, batch):
            idx = order[s : s + batch]
            losses.append(learner.step(X[idx].astype(np.float32), M[idx], Y[idx], np.ones(len(idx), np.float32)))
        log(f"  imitation epoch {epoch + 1}/{epochs}: train cross-entropy {np.mean(losses):.3f}")
    out = {"train_examples": float(n), "train_agreement": agreement(learner, X, M, Y)}
    if held:
        Xh = np.concatenate([g[0] for g in held])
        Mh = np.concatenate([g[1] for g in held])
        Yh = np.concatenate([g[2] for g in held])
        out.update(held_examples=float(len(Yh)), held_agreement=agreement(learner, Xh, Mh, Yh))
    return out


def agreement(learner: Learner, X: np.ndarray, M: np.ndarray, Y: np.ndarray) -> float:
    """How often the network's best legal action is the teacher's."""
    hits = 0
    for s in range(0, len(Y), 4096):
        _, pi = learner.forward(X[s : s + 4096].astype(np.float32), M[s : s + 4096])
        hits += int((pi.argmax(axis=1) == Y[s : s + 4096]).sum())
    return hits / max(1, len(Y))


# ---------------------------------------------------------------------------- 3. self-play RL
def selfplay_rl(
    learner: Learner, game: str, players: int, games: int, per_update: int, refresh: int, seed: int, log: Any
) -> dict[str, float]:
    g = make_game(game, players)
    ob, cd = observer(game), codec(game)
    rng = np.random.default_rng(seed)
    opponent = learner.net()
    baseline, wins, updates = 0.5, 0, 0
    bx: list[np.ndarray] = []
    bm: list[np.ndarray] = []
    ba: list[int] = []
    br: list[float] = []
    recent: list[float] = []
    for i in range(games):
        st = g.new_initial_state(1_000_000 + seed * 100_003 + i)
        me = i % players
        xs, ms, acts = [], [], []
        while (d := st.decision()) is not None:
            x = ob.observe(st, d.player)
            mask = cd.shared_mask(d.options)
            if d.player == me:
                _, pi = learner.forward(x[None, :], mask[None, :])
                a = min(int(np.searchsorted(pi[0].cumsum(), rng.random(), side="right")), cd.n - 1)
                if not mask[a]:  # rounding at the very top of the cumulative sum
                    a = int(np.flatnonzero(mask)[-1])
                xs.append(x.copy())
                ms.append(mask)
                acts.append(a)
            else:
                s = opponent.scores(x)
                legal = np.flatnonzero(mask)
                a = int(legal[s[legal].argmax()])
            st.apply(cd.actions[a])
        won = float(me in st.winners())
        wins += int(won)
        recent = (recent + [won])[-500:]
        bx += xs
        bm += ms
        ba += acts
        br += [won] * len(acts)
        baseline = 0.98 * baseline + 0.02 * won
        if (i + 1) % per_update == 0 and ba:
            adv = np.array(br, np.float32) - baseline
            learner.step(np.array(bx), np.array(bm), np.array(ba), adv)
            bx, bm, ba, br = [], [], [], []
            updates += 1
            if updates % refresh == 0:
                opponent = learner.net()
        if (i + 1) % max(1, games // 10) == 0:
            rate = float(np.mean(recent))
            log(f"  self-play game {i + 1}/{games}: learner (sampling) won {rate:.3f} of the last {len(recent)}")
    return {"rl_games": float(games), "rl_updates": float(updates), "rl_learner_win_rate": wins / max(1, games)}


# ---------------------------------------------------------------------------- 4. gate
def head_to_head(a: PolicyNet, b: PolicyNet, game: str, players: int, games: int, seed: int) -> float:
    """Network ``a``'s win share against ``b`` (both greedy): game ``i`` dealt from ``seed + i``,
    ``a`` on seat ``i % players``, ``b`` on the others."""
    g = make_game(game, players)
    wins = 0.0
    for i in range(games):
        st = g.new_initial_state(seed + i)
        me = i % players
        bots = [PolicyBot(net=a if s == me else b, game=game) for s in range(players)]
        while (d := st.decision()) is not None:
            st.apply(bots[d.player].choose(st))
        winners = st.winners()
        wins += 1.0 / len(winners) if me in winners else 0.0
    return wins / max(1, games)


# ---------------------------------------------------------------------------- the command
def train(args: argparse.Namespace, log: Any = print) -> PolicyNet:
    game, players = args.game, args.players
    F, A = observer(game).size, codec(game).n
    rng = np.random.default_rng(args.seed)
    learner = Learner(F, A, args.hidden, rng, args.lr)
    t0 = time.process_time()
    w0 = time.perf_counter()
    log(f"{game}, {players} players: {args.games} games of {args.teacher} self-play ({args.workers} workers)")
    data = teacher_data(game, players, args.teacher, args.games, args.workers, args.cache)
    data_wall = time.perf_counter() - w0
    log(f"  {sum(len(g[2]) for g in data)} decisions in {data_wall:.0f} s")
    meta: dict[str, Any] = {
        "game": game,
        "players": players,
        "teacher": args.teacher,
        "games": args.games,
        "hidden": args.hidden,
        "epochs": args.epochs,
        "seed": args.seed,
        "rl_games": args.rl_games,
        "command": "python -m redtable.bots.train_policy " + " ".join(args.argv),
    }
    meta.update(fit_imitation(learner, data, args.epochs, args.batch, rng, log))
    del data
    log(f"  imitation: held-out agreement with the teacher {meta.get('held_agreement', float('nan')):.3f}")
    imitation = learner.net()
    learner.lr = args.rl_lr
    learner.m = {k: np.zeros_like(v) for k, v in learner.p.items()}
    learner.v = {k: np.zeros_like(v) for k, v in learner.p.items()}
    learner.t = 0
    meta.update(selfplay_rl(learner, game, players, args.rl_games, args.rl_batch, args.refresh, args.seed, log))
    rl = learner.net()
    share = head_to_head(rl, imitation, game, players, args.eval_games, 50_000_000 + args.seed)
    log(f"  after self-play vs after imitation, {args.eval_games} games: {share:.3f}")
    kept = "rl" if share >= 0.5 else "imitation"
    meta.update(
        eval_games=args.eval_games,
        rl_vs_imitation=share,
        kept=kept,
        cpu_seconds_main=round(time.process_time() - t0, 1),
        wall_seconds=round(time.perf_counter() - w0, 1),
    )
    net = rl if kept == "rl" else imitation
    net.meta = meta
    return net


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m redtable.bots.train_policy", description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=sorted(t.name for t in titles()))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--teacher", default=None, help="the bot imitated (default: expert:30it)")
    ap.add_argument("--games", type=int, default=None, help="teacher self-play games")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=None)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--rl-games", type=int, default=None)
    ap.add_argument("--rl-batch", type=int, default=32, help="games per policy-gradient update")
    ap.add_argument("--rl-lr", type=float, default=3e-4)
    ap.add_argument("--refresh", type=int, default=10, help="updates between refreshes of the frozen opponent")
    ap.add_argument("--eval-games", type=int, default=None)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=None, help="keep the teacher's games here (a rerun reuses them)")
    ap.add_argument("--quick", action="store_true", help="a tiny run for tests (needs --out)")
    ap.add_argument("--out", type=Path, default=None, help="default: the package's data/policy-<game>.npz")
    args = ap.parse_args(argv)
    args.argv = argv
    base = dict(title(args.game).tuning("policy"))  # the title's recipe (its title.py), else the default
    if args.quick:
        if args.out is None:
            ap.error("--quick writes a toy network: give --out")
        base.update(QUICK)
        if "--hidden" not in argv:
            args.hidden = QUICK["hidden"]
        if "--rl-batch" not in argv:
            args.rl_batch = QUICK["rl_batch"]
    for key in ("games", "teacher", "epochs", "rl_games", "eval_games"):
        if getattr(args, key) is None:
            setattr(args, key, base[key])
    if args.out is None:
        args.out = DATA_DIR / f"policy-{args.game}.npz"
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    net = train(args, log=lambda s: print(s, flush=True))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    net.save(args.out)
    print(f"wrote {args.out}: {json.dumps(net.meta, sort_keys=True)}")


if __name__ == "__main__":
    main()
