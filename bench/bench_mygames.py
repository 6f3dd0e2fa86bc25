"""What ``POST /api/my/games`` costs a stranger who lists guessed tokens.

    python bench/bench_mygames.py             # 50 stored games of up to 60 decisions each
    python bench/bench_mygames.py --games 20

A test server (``tests/server/srvkit.py``: in this process, on a fresh SQLite file) stores
``--games`` Red North games, each played at random for up to 60 decisions, then evicts them
from memory. One request lists one guessed token per game (the body's maximum is 50 seats);
the script prints its best time of five and how many games the server read from storage to
answer it. The tokens are checked by hash before any game is loaded, so the answer should
read none.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the shared test kit, which srvkit uses

from srvkit import Api, Backend, start_server  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50, help="stored games, one guessed token each (1-50)")
    args = ap.parse_args()
    n = max(1, min(50, args.games))
    b = Backend("sqlite", tempfile.mkdtemp())
    srv = start_server(b)
    api = Api(srv.base)
    rnd = random.Random(1)
    held = []
    try:
        for g in range(n):
            info, toks = api.new_game("red-north", ("human", "human"), seed=g)
            gid = info["game_id"]
            for _ in range(60):
                st = api.state(gid)
                if st["status"] != "active" or st["decision"] is None:
                    break
                mine = api.state(gid, toks[st["decision"]["player"]])
                api.decide(
                    gid, toks[st["decision"]["player"]], rnd.choice(mine["decision"]["options"]), mine["version"]
                )
            held.append(gid)
        loads: list[str] = []
        real = srv.hub.store.load_game

        def counting(gid, *a, **k):
            loads.append(gid)
            return real(gid, *a, **k)

        srv.hub.store.load_game = counting
        best = float("inf")
        body = {"seats": [{"game_id": g, "token": f"guess-{i}"} for i, g in enumerate(held)]}
        for _ in range(5):
            srv.call(lambda: srv.hub.evict_idle(now=1e18))
            loads.clear()
            t0 = time.perf_counter()
            r = api.http.post("/api/my/games", json=body)
            best = min(best, time.perf_counter() - t0)
            assert r.status_code == 200, r.text
        print(f"{n} guessed tokens over {n} stored games: best of 5 {best * 1000:.1f} ms, games loaded {len(loads)}")
    finally:
        api.close()
        srv.stop()
        b.cleanup()


if __name__ == "__main__":
    main()
