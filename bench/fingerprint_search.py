"""Behaviour fingerprints of the search bots' components and of Red Rising's rules value.

The bots' part of ``fingerprint_engine.py`` covers ``ismcts`` with its default playout; this
covers what one search loop with pluggable components must keep: ``expert`` at positions of
Red Rising 4p and Red North 2p with each leaf (learned, playout), MAST, no tree reuse and a
short turn limit, ``ismcts`` with the greedy and cutoff playouts and a horizon (choice, root
statistics, iterations), whole games of ``expert`` (the tree reuse of every decision traced),
and the compiled ability tables (in their order) and the Red Rising action space::

    python bench/fingerprint_search.py /tmp/fps_before.json     # before a change
    python bench/fingerprint_search.py /tmp/fps_after.json      # after
    python bench/fingerprint_engine.py --compare /tmp/fps_before.json /tmp/fps_after.json

(``tables`` hashes the ability tables with their order: the order changed once, when the
shared table's duplicates of Boneriders, The Jackal, Cassius and Lawyer were removed.)
"""

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from fingerprint_engine import h, positions  # (this directory: the engine fingerprint's hash and positions)

from redtable.bots import make_bot
from redtable.core import make_game


def stats(root):
    return (
        {k: (ch.n, round(ch.w / ch.n, 9) if ch.n else 0.0, ch.avail) for k, ch in sorted(root.children.items())}
        if root
        else None
    )


def pos_fp(spec, g, p, seeds, count):
    out = []
    for seed in seeds:
        for i, st in enumerate(positions(g, p, seed, count)):
            bot = make_bot(spec, seed=seed * 10 + i)
            a = bot.choose(st)
            out.append({"choice": a, "stats": stats(bot.last_root), "it": bot.last_iterations})
    return out


def game_fp(g, p, spec, seed, trace=False):
    st = make_game(g, p).new_initial_state(seed)
    bots = [make_bot(spec, seed=seed * 101 + s) for s in range(p)]
    reused = []
    while (d := st.decision()) is not None:
        b = bots[d.player]
        a = b.choose(st)
        if trace:
            reused.append(
                (getattr(b, "last_reused", None), h(stats(b.last_root)) if getattr(b, "last_root", None) else None)
            )
        st.apply(a)
    out = {"scores": st.scores(), "decisions": len(st.history), "actions": h(st.history)}
    if trace:
        out["trace"] = h(reused)
    return out


def main():
    t0 = time.perf_counter()
    fp = {}
    from redtable.redrising import game  # noqa

    try:
        from redtable.redrising.rules import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME
    except ImportError:
        from redtable.redrising.engine import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH, DEPLOY, END_OF_GAME
    fp["tables"] = h(
        [
            list(DEPLOY.items()),
            list(END_OF_GAME.items()),
            sorted(BLOCK_STEAL_BANISH),
            list(BLOCK_SOVEREIGN.items()),
            len(DEPLOY),
        ]
    )
    from redtable.envs.actions import red_rising_actions

    fp["rr_actions"] = h(red_rising_actions())
    for g in ("red-rising", "red-north"):
        for spec in (
            "expert:150it",
            "expert:150it:leaf=playout",
            "expert:150it:mast=0.5",
            "expert:150it:reuse=0",
            "expert:150it:leaf=learned:turns=2",
        ):
            p = 4 if g == "red-rising" else 2
            fp[f"{g}/{spec}"] = pos_fp(spec, g, p, range(2), 3)
        for spec in ("ismcts:150it:playout=greedy", "ismcts:150it:playout=cutoff", "ismcts:150it:horizon=16"):
            p = 4 if g == "red-rising" else 2
            fp[f"{g}/{spec}"] = pos_fp(spec, g, p, range(2), 2)
    print("positions", time.perf_counter() - t0, file=sys.stderr)
    fp["games"] = {
        "rr2_expert": game_fp("red-rising", 2, "expert:40it", 1, True),
        "rn2_expert": [game_fp("red-north", 2, "expert:60it", s, True) for s in range(2)],
        "rn2_expert_mast": game_fp("red-north", 2, "expert:60it:mast=0.5:leaf=learned", 3, True),
        "rr2_ismcts_greedy": game_fp("red-rising", 2, "ismcts:30it:playout=greedy", 2),
    }
    print("total", time.perf_counter() - t0, file=sys.stderr)
    text = json.dumps(fp, sort_keys=True, indent=1)
    open(sys.argv[1], "w").write(text)
    print(h(fp))


main()
