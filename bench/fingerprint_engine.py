"""Behaviour fingerprints of the Red Rising engine and the bots, to check pure speed-ups.

A speed-up that changes no behaviour must leave every fingerprint identical::

    python bench/fingerprint_engine.py --out /tmp/fp_before.json      # before the change
    python bench/fingerprint_engine.py --out /tmp/fp_after.json       # after
    python bench/fingerprint_engine.py --compare /tmp/fp_before.json /tmp/fp_after.json

    python bench/fingerprint_engine.py --quick --out F.json           # fewer seeds / positions
    python bench/fingerprint_engine.py --block-windows --out F.json   # also games with block_windows on

Fingerprints:

* ``random``: random-bot Red Rising games, 4p and 2p for seeds 0..199 (``--quick``: 0..39),
  3p/5p/6p a few each (plus the multiplayer variant): final scores, winners, the number
  of decisions, a hash of the action list, a hash of the whole event log (as JSON), of
  the final scorepad (rows and Gray/Orange choices) and of every seat's final ``view``
  (``summary()`` is left out: it is built from the log and the state, and other work
  changes its keys);
* ``resample``: hashes of ``resample(seat, Rng(k))`` states (hands, deck, locations,
  face-down cards, known sets, view of the seat) at positions of random games;
* ``ismcts``: ``make_bot("ismcts:300it", seed=s)``'s choice and root statistics
  (visits, rounded mean reward, availability of every child) at positions of Red
  Rising 4p and Red North 2p games (``--quick``: fewer positions);
* ``ismcts_games``: complete games with every seat ``ismcts:100it`` (Red Rising 4p and
  2p, Red North 2p): scores and action-list hash;
* ``heuristic_games``: a couple of complete heuristic-bot games (Red Rising 4p, Red North 2p).
* ``block_windows`` (only with ``--block-windows``, so that the default output stays
  comparable with older files): random-bot Red Rising games with the ``block_windows``
  option on (4p and 3p), fingerprinted like ``random``.
* ``rednorth`` (only with ``--rednorth``, which fingerprints Red North alone, in about
  half a minute): random-bot Red North games, 2p/3p/4p over 150 seeds each (final scores,
  winners, decisions, hashes of the action list, the event log and every seat's final
  view), and hashes of ``resample(seat, Rng(k))`` states (hands, deck, Parties, known
  sets, the pending card, the generator, the seat's view and decision) at positions of
  random 2p/3p/4p games; ISMCTS root statistics at 2p positions, and complete heuristic
  and ``ismcts:50it`` games for 2-4 players::

      python bench/fingerprint_engine.py --rednorth --out /tmp/fp_rn_before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redtable.bots import make_bot  # noqa: E402
from redtable.core import Rng, make_game  # noqa: E402
from redtable.core.protocol import Event  # noqa: E402


def h(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def events_json(st) -> list:
    return [e.to_json() if isinstance(e, Event) else repr(e) for e in st.events]


def random_game(game_name: str, players: int, seed: int, variant: bool = False, windows: bool = False) -> dict:
    if variant or windows:
        from redtable.redrising.game import RedRising

        game = RedRising(players, multiplayer_variant=variant, block_windows=windows)
    else:
        game = make_game(game_name, players)
    st = game.new_initial_state(seed)
    bot = make_bot("random", seed=seed * 7 + 1)
    while True:
        d = st.decision()
        if d is None:
            break
        st.apply(bot.choose(st))
    out = {
        "scores": st.scores(),
        "winners": st.winners(),
        "decisions": len(st.history),
        "actions": h(st.history),
        "events": h(events_json(st)),
        "views": h([st.view(p) for p in [None, *range(players)]]),
    }
    if getattr(st, "final", None):
        out["scorepad"] = h(
            [
                [
                    s.cards,
                    s.fleet,
                    s.helium,
                    s.sovereignty,
                    s.influence,
                    s.excess_cards,
                    s.total,
                    s.choices,
                    s.card_points,
                ]
                for s in st.final
            ]
        )
    return out


def positions(game_name: str, players: int, seed: int, count: int, every: int = 9) -> list:
    """Positions with a real choice along a random game."""
    st = make_game(game_name, players).new_initial_state(seed)
    rng = Rng(seed + 12345)
    out = []
    k = 0
    while len(out) < count:
        d = st.decision()
        if d is None:
            break
        if len(d.options) > 1:
            k += 1
            if k % every == 0:
                out.append(st.clone())
        st.apply(d.options[rng.below(len(d.options))])
    return out


def resample_fp(seeds) -> list:
    out = []
    for seed in seeds:
        for players in (2, 4, 5):
            for st in positions("red-rising", players, seed, count=4, every=13):
                seat = st.decision().player
                for k in range(3):
                    r = st.resample(seat, Rng(k * 31 + seed))
                    out.append(
                        h(
                            [
                                r.hands,
                                r.deck,
                                r.locs,
                                sorted(r.facedown.items()),
                                [sorted(x) for x in r.known],
                                r.rng.state,
                                r.view(seat),
                                r.decision().to_json(),
                            ]
                        )
                    )
    return out


def rednorth_fp(seeds: int = 150) -> dict:
    """The ``rednorth`` section: random games and re-deals of Red North (see the docstring)."""
    out: dict = {f"rn{p}": [random_game("red-north", p, s) for s in range(seeds)] for p in (2, 3, 4)}
    res = []
    for seed in range(10):
        for players in (2, 3, 4):
            for st in positions("red-north", players, seed, count=5, every=4):
                seat = st.decision().player
                for k in range(3):
                    r = st.resample(seat, Rng(k * 31 + seed))
                    res.append(
                        h(
                            [
                                r.hands,
                                r.deck,
                                r.parties,
                                r.known,
                                r.sub,
                                r.rng.state,
                                r.view(seat),
                                r.decision().to_json(),
                            ]
                        )
                    )
    out["resample"] = res
    out["texts"] = rednorth_texts()
    out["ismcts"] = ismcts_fp("red-north", 2, range(3), 3)
    out["bot_games"] = [
        bot_game("red-north", p, spec, s) for p in (2, 3, 4) for spec in ("heuristic", "ismcts:50it") for s in range(2)
    ]
    return out


def rednorth_texts() -> dict:
    """Everything Red North renders in words: the cards endpoint and the rules page in
    en/uk/pl, and ``describe()`` of every option at every decision of a few random games."""
    from redtable.rednorth.gallery import gallery
    from redtable.web.rules_data import red_north_rules

    out: dict = {lang: [gallery(lang), red_north_rules(lang)] for lang in ("en", "uk", "pl")}
    said = []
    for players in (2, 3, 4):
        for seed in range(15):
            st = make_game("red-north", players).new_initial_state(seed)
            rng = Rng(seed + 777)
            while (d := st.decision()) is not None:
                said.append([st.describe(o) for o in d.options])
                st.apply(d.options[rng.below(len(d.options))])
    out["describe"] = h(said)
    out["describe_sample"] = said[::97]
    return out


def ismcts_fp(game_name: str, players: int, seeds, count: int) -> list:
    out = []
    for seed in seeds:
        for i, st in enumerate(positions(game_name, players, seed, count=count)):
            bot = make_bot("ismcts:300it", seed=seed * 10 + i)
            a = bot.choose(st)
            root = bot.last_root
            stats = (
                {k: (ch.n, round(ch.w / ch.n, 9) if ch.n else 0.0, ch.avail) for k, ch in sorted(root.children.items())}
                if root
                else None
            )
            out.append({"choice": a, "stats": stats})
    return out


def bot_game(game_name: str, players: int, spec: str, seed: int) -> dict:
    st = make_game(game_name, players).new_initial_state(seed)
    bots = [make_bot(spec, seed=seed * 101 + s) for s in range(players)]
    while True:
        d = st.decision()
        if d is None:
            break
        st.apply(bots[d.player].choose(st))
    return {"scores": st.scores(), "winners": st.winners(), "decisions": len(st.history), "actions": h(st.history)}


def fingerprint(quick: bool, windows: bool = False) -> dict:
    t0 = time.perf_counter()
    n = 40 if quick else 200
    fp: dict = {"random": {}}
    for players in (4, 2):
        fp["random"][f"rr{players}"] = [random_game("red-rising", players, s) for s in range(n)]
    for players in (3, 5, 6):
        fp["random"][f"rr{players}"] = [random_game("red-rising", players, s) for s in range(10)]
    fp["random"]["rr4_variant"] = [random_game("red-rising", 4, s, variant=True) for s in range(10)]
    fp["random"]["rn2"] = [random_game("red-north", 2, s) for s in range(20)]
    print(f"random games {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    fp["resample"] = resample_fp(range(3 if quick else 8))
    print(f"resample {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    fp["ismcts"] = {
        "rr4": ismcts_fp("red-rising", 4, range(2 if quick else 4), 3),
        "rn2": ismcts_fp("red-north", 2, range(2 if quick else 4), 3),
    }
    print(f"ismcts positions {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    fp["ismcts_games"] = {
        "rr4": [bot_game("red-rising", 4, "ismcts:100it", 0)],
        "rr2": [bot_game("red-rising", 2, "ismcts:100it", 1)],
        "rn2": [bot_game("red-north", 2, "ismcts:100it", s) for s in range(2)],
    }
    print(f"ismcts games {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    fp["heuristic_games"] = {
        "rr4": [bot_game("red-rising", 4, "heuristic", 3)],
        "rn2": [bot_game("red-north", 2, "heuristic", 3)],
    }
    if windows:
        fp["block_windows"] = {
            f"rr{players}": [
                random_game("red-rising", players, s, windows=True) for s in range(n if players == 4 else 20)
            ]
            for players in (4, 3)
        }
    print(f"total {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return fp


def compare(a: dict, b: dict, path: str = "") -> int:
    """Print the differences; return how many."""
    if isinstance(a, dict) and isinstance(b, dict):
        n = 0
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                print(f"{path}/{k}: only in {'first' if k in a else 'second'}")
                n += 1
            else:
                n += compare(a[k], b[k], f"{path}/{k}")
        return n
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return sum(compare(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b, strict=True)))
    if a != b:
        print(f"{path}: {a!r} != {b!r}")
        return 1
    return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="write the fingerprints to this JSON file")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--block-windows", action="store_true", help="also fingerprint games with block_windows on")
    ap.add_argument("--rednorth", action="store_true", help="fingerprint Red North alone (random games, re-deals)")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two fingerprint files")
    args = ap.parse_args()
    if args.compare:
        a, b = (json.loads(Path(p).read_text()) for p in args.compare)
        n = compare(a, b)
        print("identical" if n == 0 else f"{n} differences")
        sys.exit(1 if n else 0)
    fp = {"rednorth": rednorth_fp()} if args.rednorth else fingerprint(args.quick, args.block_windows)
    text = json.dumps(fp, sort_keys=True, indent=1)
    if args.out:
        Path(args.out).write_text(text)
    print(h(fp))


if __name__ == "__main__":
    main()
