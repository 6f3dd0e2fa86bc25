"""Play Red Rising or Red North in OpenSpiel: OpenSpiel's bots against redtable's.

    pip install -e '.[openspiel]'
    python examples/openspiel_play.py                                   # Red North, 2 players
    python examples/openspiel_play.py --game red-rising --players 3 \\
        --bots openspiel:ismcts,heuristic,ismcts --seconds 0.2 --seed 7 --save game.json

What it shows, in order:

1. the games are ordinary pyspiel games once ``redtable.envs.openspiel`` is imported
   (``pyspiel.load_game("python_red_north", {"players": 2})``), and pass OpenSpiel's own
   ``random_sim_test`` (with serialization);
2. a game starts with eight chance nodes that draw the 64-bit seed; ``deal(game, seed)``
   plays them for a given seed, which is then the redtable game of that seed;
3. one game with a bot per seat (OpenSpiel's ISMCTSBot or MCTSBot, redtable's heuristic or
   ISMCTS, all at the same time per decision), printing each decision;
4. the information state the first seat plays from, and a re-deal of it;
5. serialization, and the redtable record of the game (``redtable replay game.json``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redtable.envs.openspiel as ros  # noqa: E402  (registers the games)
from redtable.envs.openspiel import deal, make_bot, record  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="OpenSpiel's bots against redtable's on a redtable game")
    ap.add_argument("--game", choices=("red-north", "red-rising"), default="red-north")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument(
        "--bots",
        default="openspiel:ismcts,heuristic",
        help="one spec per seat, comma-separated (repeated when fewer): openspiel:ismcts, "
        "openspiel:mcts, openspiel:mcts-omniscient, random, heuristic, ismcts",
    )
    ap.add_argument("--seconds", type=float, default=0.1, help="search time per decision")
    ap.add_argument("--seed", type=int, default=1, help="the deal (a redtable seed)")
    ap.add_argument("--quiet", action="store_true", help="print only the result")
    ap.add_argument("--save", metavar="FILE", help="write the redtable record of the game (for `redtable replay`)")
    args = ap.parse_args(argv)

    try:
        game = ros.load(args.game, players=args.players)
        specs = [s.strip() for s in args.bots.split(",")]
        specs = [specs[i % len(specs)] for i in range(args.players)]
        bots = [
            make_bot(spec, game, seed=args.seed * 10 + seat, seconds=args.seconds) for seat, spec in enumerate(specs)
        ]
    except ValueError as e:
        ap.error(str(e))
    say = (lambda *a: None) if args.quiet else print

    # 1. OpenSpiel's own checks of the game
    say(
        f"{game}: {game.num_distinct_actions()} actions, {game.max_chance_outcomes()} chance outcomes, "
        f"observation tensor {game.observation_tensor_size()}, information state tensor "
        f"{game.information_state_tensor_size()}"
    )
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    say("random_sim_test (with serialization): passed")

    # 2. the deal
    state = game.new_initial_state()
    say(f"before the deal: chance node? {state.is_chance_node()}, {len(state.chance_outcomes())} outcomes")
    state = deal(game, args.seed)
    say(f"dealt with seed {state.seed()}: chance actions {state.history()}")

    # 3. a game, one bot per seat
    first_info = None
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        if first_info is None and p == 0 and len(legal) > 1:
            first_info = state.clone()
        action = legal[0] if len(legal) == 1 else bots[p].step(state)
        kind = state.redtable_state().decision().kind
        say(
            f"  p{p} ({specs[p]}) {kind}: {state.action_to_string(p, action)}" + ("" if len(legal) > 1 else " (forced)")
        )
        state.apply_action(action)
    es = state.redtable_state()
    print(
        f"{game.spec.title}, {args.players} players, seed {args.seed}: scores {es.scores()}, "
        f"winners {[f'p{w} ({specs[w]})' for w in es.winners()]}, returns {state.returns()}"
    )

    # 4. an information state and a re-deal of it
    if first_info is not None and not args.quiet:
        text = first_info.information_state_string(0)
        print("\nseat 0's information state at its first choice:\n  " + text[:300] + " ...")
        world = first_info.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        same = world.information_state_string(0) == text
        print(
            f"a re-deal for seat 0: same information state {same}; seat 1's hand "
            f"{_hand(first_info, 1)} became {_hand(world, 1)}"
        )

    # 5. serialization and the redtable record
    copy = game.deserialize_state(state.serialize())
    say(f"\nserialize/deserialize: equal {str(copy) == str(state)} ({len(state.serialize())} characters)")
    if args.save:
        record(state).save(args.save, state.redtable_state())
        print(f"saved {args.save}: `redtable replay {args.save}` replays it")
    return 0


def _hand(state, seat: int) -> list:
    view = state.redtable_state().view(seat)
    if "seats" in view:  # Red North: counts per kind
        return view["seats"][seat].get("hand")
    return [c["card"] for c in view["players"][seat].get("hand", [])]


if __name__ == "__main__":
    raise SystemExit(main())
