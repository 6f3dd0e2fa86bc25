"""OpenSpiel's bots against redtable's on the OpenSpiel adapter, at equal time per decision.

    python bench/bench_openspiel.py --table                 # the README's table (about 45 minutes here)
    python bench/bench_openspiel.py --game red-north --a openspiel:ismcts --b heuristic --games 40
    python bench/bench_openspiel.py --speed                 # the adapter's own costs

Strength: N games of bot A against bot B in the other seats, seats rotated (game i puts
A in seat i mod players), deals from seeds start..start+N-1 (``redtable.envs.openspiel.deal``:
the redtable games of those seeds). Bot specs (:func:`redtable.envs.openspiel.make_bot`):

* ``openspiel:ismcts``: OpenSpiel's own Python ISMCTSBot (random-rollout evaluation,
  uct_c 0.7), re-dealing the hidden cards through ``resample_from_infostate``;
* ``openspiel:mcts``: OpenSpiel's MCTSBot on one re-deal of the state per decision (from
  the seat's information state), so that it never reads hidden cards;
* ``openspiel:mcts-omniscient``: MCTSBot on the real state: it reads the other hands, the
  deck and the pre-drawn die rolls (a reference, not a fair player);
* ``heuristic``, ``ismcts`` (redtable's; ``ismcts`` searches the same time).

The OpenSpiel bots stop searching at a deadline of ``--seconds`` (0.1 s) per decision,
as redtable's ISMCTS does; the heuristic bot takes what it takes (a few milliseconds).
Forced moves are not asked of any bot. The table gives A's win share (a shared victory
counts 1/k) with its 95% Wilson interval, the parity share (1/players), the mean
seconds each side spent per decision and the mean number of simulations (OpenSpiel) or
iterations (redtable) each search ran per decision. The machine's two cores are shared
with other jobs, so a search's simulations per decision vary with the load; all bots of a
game run in the same process, at the same load.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redtable.envs.openspiel as ros  # noqa: E402
from redtable.core import make_game  # noqa: E402
from redtable.envs.openspiel.bots import make_bot, play_game  # noqa: E402
from redtable.sim.stats import wilson_interval  # noqa: E402

# The README's table: (game, players, A, B, games)
TABLE = [
    ("red-north", 2, "openspiel:ismcts", "heuristic", 40),
    ("red-north", 2, "openspiel:ismcts", "ismcts", 40),
    ("red-north", 2, "openspiel:mcts", "heuristic", 40),
    ("red-north", 2, "openspiel:mcts", "ismcts", 40),
    ("red-north", 2, "openspiel:mcts-omniscient", "ismcts", 40),
    ("red-rising", 2, "openspiel:ismcts", "heuristic", 30),
    ("red-rising", 2, "openspiel:ismcts", "ismcts", 30),
    ("red-rising", 2, "openspiel:mcts", "heuristic", 30),
    ("red-rising", 2, "openspiel:mcts", "ismcts", 30),
]


def match(
    game_name: str, players: int, a: str, b: str, games: int, seconds: float, start: int = 0, progress: bool = True
) -> dict:
    """Play the games of one row; returns its numbers (and the per-game results)."""
    game = ros.load(game_name, players=players)
    share = 0.0
    dec = {"a": 0, "b": 0}
    secs = {"a": 0.0, "b": 0.0}
    sims = {"a": 0, "b": 0}
    score_a: list[float] = []
    score_b: list[float] = []
    rows = []
    t0 = time.perf_counter()
    for i in range(start, start + games):
        seat_a = i % players
        bots = [make_bot(a if s == seat_a else b, game, seed=i * 101 + s, seconds=seconds) for s in range(players)]
        r = play_game(game, bots, seed=i)
        share += r.returns[seat_a]
        for s in range(players):
            side = "a" if s == seat_a else "b"
            dec[side] += r.decisions[s]
            secs[side] += r.seconds[s]
            sims[side] += r.simulations[s]
            (score_a if side == "a" else score_b).append(r.scores[s])
        rows.append(
            {
                "seed": i,
                "seat_a": seat_a,
                "returns": r.returns,
                "scores": r.scores,
                "decisions": r.decisions,
                "seconds": r.seconds,
                "simulations": r.simulations,
            }
        )
        if progress:
            done = i - start + 1
            print(
                f"  {game_name} {a} vs {b}: {done}/{games} games, A {share:.1f}, {time.perf_counter() - t0:.0f}s",
                file=sys.stderr,
                flush=True,
            )
    lo, hi = wilson_interval(share, games)
    return {
        "game": game_name,
        "players": players,
        "a": a,
        "b": b,
        "games": games,
        "start": start,
        "seconds_budget": seconds,
        "win_a": share / games,
        "ci": [lo, hi],
        "parity": 1 / players,
        "sec_per_decision": {k: secs[k] / max(dec[k], 1) for k in secs},
        "sims_per_decision": {k: sims[k] / max(dec[k], 1) for k in sims},
        "mean_score": {"a": sum(score_a) / len(score_a), "b": sum(score_b) / len(score_b)},
        "wall_seconds": time.perf_counter() - t0,
        "per_game": rows,
    }


def _sims(spec: str, value: float) -> str:
    return "-" if spec.startswith(("heuristic", "random")) else f"{value:,.0f}"


def print_table(results: list[dict]) -> None:
    print(
        "| game | A vs B | games | A win share | 95% CI | parity | s/decision A / B | "
        "simulations/decision A / B | mean score A / B |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        lo, hi = r["ci"]
        vs = f"{r['a']} vs {r['b']}" if r["players"] == 2 else f"{r['a']} vs {r['players'] - 1} {r['b']}"
        s, m = r["sec_per_decision"], r["sims_per_decision"]
        unit = " VP" if r["game"] == "red-north" else ""
        print(
            f"| {make_game(r['game'], r['players']).title} {r['players']}p | {vs} | {r['games']} | "
            f"{100 * r['win_a']:.1f}% | {100 * lo:.1f}–{100 * hi:.1f} | {100 * r['parity']:.0f}% | "
            f"{s['a']:.3f} / {s['b']:.3f} | {_sims(r['a'], m['a'])} / {_sims(r['b'], m['b'])} | "
            f"{r['mean_score']['a']:.1f} / {r['mean_score']['b']:.1f}{unit} |"
        )


# ---------------------------------------------------------------------- the adapter's costs
def speed(seconds: float) -> None:
    """Random play through the pyspiel API against the engine alone, and the costs of the
    calls a search makes (clone, re-deal, information-state string, tensors)."""
    import pyspiel

    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for name, players in (("red-rising", 4), ("red-north", 2)):
        game = ros.load(name, players=players)
        core = make_game(name, players)
        rng = random.Random(0)
        steps = 0
        t0 = time.process_time()
        seed = 0
        while time.process_time() - t0 < seconds:
            st = ros.deal(game, seed)
            seed += 1
            while not st.is_terminal():
                st.apply_action(rng.choice(st.legal_actions()))
                steps += 1
        adapter = steps / (time.process_time() - t0)
        steps = 0
        t0 = time.process_time()
        seed = 0
        while time.process_time() - t0 < seconds:
            es = core.new_initial_state(seed)
            seed += 1
            while not es.is_terminal():
                es.apply(rng.choice(es.decision().options))
                steps += 1
        engine = steps / (time.process_time() - t0)
        st = ros.deal(game, 1)
        for _ in range(40 if name == "red-rising" else 12):
            st.apply_action(rng.choice(st.legal_actions()))
        p = st.current_player()
        costs = {}
        for label, fn in (
            ("clone", st.clone),
            ("resample_from_infostate", lambda st=st, p=p: st.resample_from_infostate(p, sampler)),
            ("information_state_string", lambda st=st, p=p: st.information_state_string(p)),
            ("observation_tensor", lambda st=st, p=p: st.observation_tensor(p)),
            ("information_state_tensor", lambda st=st, p=p: st.information_state_tensor(p)),
            ("legal_actions", st.legal_actions),
        ):
            n = 300
            t0 = time.process_time()
            for _ in range(n):
                fn()
            costs[label] = (time.process_time() - t0) / n * 1e6
        print(
            f"{name} {players}p: random play {adapter:,.0f} decisions/s through pyspiel, "
            f"{engine:,.0f} on the engine alone"
        )
        print("  " + ", ".join(f"{k} {v:,.0f} µs" for k, v in costs.items()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", action="store_true", help="play every row of the README's table")
    ap.add_argument("--speed", action="store_true", help="measure the adapter's own costs")
    ap.add_argument("--game", choices=("red-rising", "red-north"), default="red-north")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--a", default="openspiel:ismcts", help="the bot measured")
    ap.add_argument("--b", default="heuristic", help="the bot in every other seat")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--start", type=int, default=0, help="seed of the first game")
    ap.add_argument("--seconds", type=float, default=0.1, help="search time per decision")
    ap.add_argument("--json", metavar="FILE", help="also write every result (and game) as JSON")
    args = ap.parse_args(argv)
    if args.games < 1 or args.seconds <= 0:
        ap.error("--games must be at least 1 and --seconds positive")
    if args.speed:
        speed(max(args.seconds * 20, 1.0))
        return 0
    rows = TABLE if args.table else [(args.game, args.players, args.a, args.b, args.games)]
    results = []
    for game_name, players, a, b, games in rows:
        results.append(match(game_name, players, a, b, games, args.seconds, start=args.start))
        print_table(results[-1:])
        sys.stdout.flush()
    if len(results) > 1:
        print("\nAll rows:")
        print_table(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
