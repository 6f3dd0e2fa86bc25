"""Red Rising scoring speed: ``score_position`` and ``hand_bonuses`` on fixed final positions.

Run::

    python bench/bench_scoring.py                          # this tree
    python bench/bench_scoring.py --against /tmp/old/redtable   # and an older copy, side by side

Two fixed sets of final positions (the same for every run and every version):

* ``games``: the final positions of random-bot games (2-6 players, seeds 0..), what the
  engine scores at every game end;
* ``deals``: random deals (hands of 3-9 cards drawn from all 112, tokens, locations, a
  banished pile, now and then a face-down card): Grays and Oranges are frequent, so the
  scorer's colour and name search runs more often than in play.

``hand_bonuses`` is timed on every hand of the ``games`` set that holds no Gray or
Orange (what the bots' evaluation calls thousands of times a decision).

``--against DIR`` loads the ``redtable`` package copy in ``DIR`` under another name in the
same process, checks that it scores every position exactly as this tree does (totals,
rows, choices, per-card points), and alternates the timings of the two (the machine may
be busy: times are this process's CPU time, each number is the best of ``--rounds``
rounds, and the rounds interleave).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from redtable.core import Rng  # noqa: E402
from redtable.redrising.cards import NUM_CARDS  # noqa: E402
from redtable.redrising.game import RedRising  # noqa: E402


# ------------------------------------------------------------------ the positions, as plain data
def _plain(pos) -> dict:
    return {
        "players": [
            dict(
                hand=list(p.hand),
                fleet=p.fleet,
                helium=p.helium,
                influence=p.influence,
                sovereign=p.sovereign,
                extra_points=p.extra_points,
                name=p.name,
                face_down=sorted(p.face_down),
            )
            for p in pos.players
        ],
        "locations": [list(loc) for loc in pos.locations],
        "banished": list(pos.banished),
        "neutral_influence": pos.neutral_influence,
        "face_down_on_locations": sorted(pos.face_down_on_locations),
    }


def game_positions(count: int) -> list[dict]:
    out = []
    for seed in range(count):
        players = 2 + seed % 5
        st = RedRising(players).new_initial_state(seed)
        rng = Rng(seed ^ 0x5C0)
        while st.decision() is not None:
            opts = st.decision().options
            st.apply(opts[rng.below(len(opts))])
        out.append(_plain(st.final_position()))
    return out


def deal_positions(count: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        players = rng.randint(2, 6)
        deck = list(range(NUM_CARDS))
        rng.shuffle(deck)
        ps = []
        for k in range(players):
            hand = [deck.pop() for _ in range(rng.randint(3, 9))]
            down = [c for c in hand if rng.random() < 0.04]
            ps.append(
                dict(
                    hand=hand,
                    fleet=rng.randint(0, 10),
                    helium=rng.randint(0, 9),
                    influence=rng.randint(0, 10),
                    sovereign=False,
                    extra_points=0,
                    name=f"p{k}",
                    face_down=down,
                )
            )
        ps[rng.randrange(players)]["sovereign"] = True
        locations = [[deck.pop() for _ in range(rng.randint(0, 4))] for _ in range(4)]
        banished = [deck.pop() for _ in range(rng.randint(0, 12))]
        tops = [loc[-1] for loc in locations if loc]
        down_locs = [c for c in tops if rng.random() < 0.1]
        out.append(
            {
                "players": ps,
                "locations": locations,
                "banished": banished,
                "neutral_influence": rng.choice([0, 0, 3]) if players == 2 else 0,
                "face_down_on_locations": down_locs,
            }
        )
    return out


def build(scoring: ModuleType, data: dict):
    """A ``FinalPosition`` of the given scoring module's own classes."""
    players = [
        scoring.FinalPlayer(
            hand=list(p["hand"]),
            fleet=p["fleet"],
            helium=p["helium"],
            influence=p["influence"],
            sovereign=p["sovereign"],
            extra_points=p["extra_points"],
            name=p["name"],
            face_down=frozenset(p["face_down"]),
        )
        for p in data["players"]
    ]
    return scoring.FinalPosition(
        players=players,
        locations=tuple(list(loc) for loc in data["locations"]),
        banished=list(data["banished"]),
        neutral_influence=data["neutral_influence"],
        face_down_on_locations=frozenset(data["face_down_on_locations"]),
    )


# ------------------------------------------------------------------ the versions
class Version:
    """One ``redtable`` package's scoring and bonuses modules, with the inputs built for them."""

    def __init__(self, label: str, package: str, game_data: list[dict], deal_data: list[dict]) -> None:
        self.label = label
        self.scoring = importlib.import_module(f"{package}.redrising.scoring")
        self.bonuses = importlib.import_module(f"{package}.redrising.bonuses")
        self.games = [build(self.scoring, d) for d in game_data]
        self.deals = [build(self.scoring, d) for d in deal_data]
        cards = importlib.import_module(f"{package}.redrising.cards")
        chooser = {c for c in range(NUM_CARDS) if cards.COLOR[c] in (cards.GRAY, cards.ORANGE)}
        self.hands = []  # (Hand, Board) of every game hand without a Gray or an Orange
        for pos in self.games:
            shared = self.scoring._shared_board(pos)
            for k, p in enumerate(pos.players):
                if not chooser & set(p.hand):
                    self.hands.append((self.bonuses.Hand.plain(p.hand), self.scoring._board(pos, k, shared)))

    def results(self, positions) -> list:
        return [
            [(s.total, s.cards, s.influence, s.choices, s.card_points) for s in self.scoring.score_position(p)]
            for p in positions
        ]

    def time_positions(self, positions) -> float:
        score = self.scoring.score_position
        t0 = time.process_time()
        for p in positions:
            score(p)
        return (time.process_time() - t0) / len(positions)

    def time_hands(self, repeat: int = 20) -> float:
        hb = self.bonuses.hand_bonuses
        hands = self.hands
        t0 = time.process_time()
        for _ in range(repeat):
            for h, b in hands:
                hb(h, b)
        return (time.process_time() - t0) / (repeat * len(hands))


def load_copy(directory: Path, name: str = "redtable_before") -> str:
    """Import the ``redtable`` package copy in ``directory`` as ``name`` (relative imports
    inside it then resolve within the copy)."""
    init = directory / "__init__.py"
    if not init.is_file():
        raise SystemExit(f"--against {directory}: no __init__.py there (give the copied redtable/ directory)")
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(directory)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="final positions of random games (default 300)")
    ap.add_argument("--deals", type=int, default=300, help="random deals (default 300)")
    ap.add_argument("--rounds", type=int, default=7, help="timing rounds; each number is the best (default 7)")
    ap.add_argument("--against", type=Path, help="a copy of an older redtable/ package to compare with")
    args = ap.parse_args()

    game_data, deal_data = game_positions(args.games), deal_positions(args.deals)
    versions = [Version("this tree", "redtable", game_data, deal_data)]
    if args.against is not None:
        versions.append(Version(f"{args.against}", load_copy(args.against.resolve()), game_data, deal_data))
        for what in ("games", "deals"):
            a, b = (v.results(getattr(v, what)) for v in versions)
            if a != b:
                bad = next(i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)
                raise SystemExit(f"the two versions score {what} position {bad} differently:\n{a[bad]}\n{b[bad]}")
        print(f"identical scorepads on all {len(game_data)} game and {len(deal_data)} deal positions")

    best = {(v.label, k): float("inf") for v in versions for k in ("games", "deals", "hands")}
    for r in range(args.rounds):
        for v in versions if r % 2 == 0 else versions[::-1]:
            best[v.label, "games"] = min(best[v.label, "games"], v.time_positions(v.games))
            best[v.label, "deals"] = min(best[v.label, "deals"], v.time_positions(v.deals))
            best[v.label, "hands"] = min(best[v.label, "hands"], v.time_hands())
    print(f"{'version':<40} {'score_position games':>20} {'score_position deals':>21} {'hand_bonuses':>13}")
    for v in versions:
        print(
            f"{v.label:<40} {best[v.label, 'games'] * 1e6:>17.1f} µs {best[v.label, 'deals'] * 1e6:>18.1f} µs "
            f"{best[v.label, 'hands'] * 1e6:>10.2f} µs"
        )
    if len(versions) == 2:
        a, b = versions[0].label, versions[1].label
        print(
            "this tree / older: "
            + ", ".join(f"{k} {best[a, k] / best[b, k]:.3f}" for k in ("games", "deals", "hands"))
            + "  (below 1: faster)"
        )
    print(
        f"({len(versions[0].games)} game positions, {len(versions[0].deals)} deals, "
        f"{len(versions[0].hands)} hands without Gray or Orange; best of {args.rounds} rounds)"
    )


if __name__ == "__main__":
    main()
