"""Single-observer information-set Monte Carlo tree search (Cowling, Powley, Whitehouse 2012).

One tree over the bot's information set: a node is a sequence of actions from the current
decision; its children are keyed by action strings. Each iteration

1. *determinizes*: ``state.resample(me, rng)`` deals every card the bot cannot see at
   random, consistently with what it has seen (:class:`~.common.CanonicalRng` makes the
   deal depend on the information set and the seed only), and re-seeds future chance;
   the determinization is marked ``for_search()`` (it may skip what only a real game
   needs, such as the event log; play is unchanged);
2. *selects* down the tree with the determinization's legal actions only: among the
   children available here, the one with the best UCB value for the player who decides
   at that node (multi-player: each edge's statistics are from the mover's perspective),
   where the exploration term uses the child's *availability* count (how many times it
   was legal when its parent was visited) instead of the parent's visits;
3. *expands* one untried legal action;
4. *plays out*, then scores the position reached with the game evaluation
   (:mod:`.evaluation`; a finished game scores its returns mixed with its score margin):

   * ``playout="greedy"`` (Red Rising's default): each decision up to the start of the
     next turn (the evaluator's ``stop_kind``, at most ``cutoff`` decisions) goes to the
     option with the best evaluation for the player deciding (the turn is finished the
     way the heuristic bot would finish it);
   * ``playout="cutoff"``: the same with random actions;
   * ``playout="random"`` (the default of both games): random actions to the end of the
     game (with ``horizon`` > 0: for at least ``horizon`` decisions, then up to the
     start of a turn, and the evaluation scores the position reached).

   Measured at equal time against heuristic opponents (``bench/bench_bots.py``): Red
   Rising 4p at 0.5 s, random to the end 71.7% wins, horizon=32 56.7%, greedy 39.2%
   (60 games each; at 0.2 s: random 52.5%, greedy 45%, cutoff 27.5%, 40 games each);
   Red North 2p at 0.1 s, random to the end 74% vs cutoff 60% (80 games each). The real
   end of the game (its timing, end-of-game abilities, exact scoring) is worth more than
   the 5x more iterations the evaluation cut-offs allow;
5. *back-propagates* the reward vector (utilities in [0, 1] per seat).

Forced moves (a single option) are applied without a node. The move played is the root
child with the most visits (ties: the better mean, then the first option).

Budget: ``iterations`` per decision, or ``seconds`` (wall clock; then the bot is not
deterministic). With an iteration budget and a seed the bot is deterministic.
"""

from __future__ import annotations

import math
import time

from ..core import Action, State
from .common import CanonicalRng, seed_of
from .evaluation import EvaluatingBot, Evaluator


class Node:
    __slots__ = ("children", "n", "w", "avail")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 1


PLAYOUTS = ("cutoff", "greedy", "random")


class ISMCTSBot(EvaluatingBot):
    name = "ismcts"
    # per game: exploration constant, playout, cutoff (decisions of a greedy/cutoff playout)
    GAME_DEFAULTS = {
        "red-rising": {"c": 0.7, "playout": "random", "cutoff": 12},
        "red-north": {"c": 0.7, "playout": "random", "cutoff": 8},
    }
    FALLBACK = {"c": 0.7, "playout": "random", "cutoff": 0}
    #: The clock of a time budget: wall clock; a benchmark may set ``time.process_time`` on
    #: an instance so that a budget is CPU time, which other jobs on the machine do not shrink.
    clock = staticmethod(time.perf_counter)
    # the parameters in use for the game being played (given, else GAME_DEFAULTS): set by _setup
    c_: float
    playout_: str
    cutoff_: int

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        game: str | None = None,
        c: float | None = None,
        playout: str | None = None,
        cutoff: int | None = None,
        horizon: int = 0,
        evaluator: Evaluator | None = None,
        eval_options: dict | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        if playout is not None and playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, got {playout!r}")
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.playout = playout
        self.cutoff = cutoff
        self.horizon = horizon
        self._init_evaluation(game, evaluator, eval_options)
        self.decisions = 0
        self.last_iterations = 0
        self.last_root: Node | None = None

    # ------------------------------------------------------------------ search
    def choose(self, state: State) -> Action:
        d = state.pending()
        if len(d.options) == 1:
            return d.options[0]
        self._setup(state)
        self.decisions += 1
        root = self.search(state, d.player)
        kids = root.children
        best = None
        best_key = None
        for a in d.options:
            ch = kids.get(a)
            if ch is None:
                continue
            key = (ch.n, ch.w / ch.n if ch.n else 0.0)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best if best is not None else d.options[0]

    def search(self, state: State, me: int) -> Node:
        rng = CanonicalRng(seed_of(self.seed, self.decisions))
        root = Node()
        iterations = self.iterations
        clock = self.clock
        deadline = None if self.seconds is None else clock() + self.seconds
        c = self.c_
        log = math.log
        sqrt = math.sqrt
        below = rng.below
        getrandbits = rng.getrandbits
        evaluator = self.evaluator
        utilities = evaluator.utilities
        stop_kind = evaluator.stop_kind
        random_playout = self.playout_ == "random"
        greedy_playout = self.playout_ == "greedy"
        value = evaluator.value
        cutoff = self.cutoff_
        horizon = self.horizon
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and (done & 7) == 0 and clock() >= deadline and done:
                break
            det = state.resample(me, rng).for_search()
            node = root
            path = []
            # --- selection and expansion
            while True:
                dd = det.decision()
                if dd is None:
                    break
                opts = dd.options
                if len(opts) == 1:
                    det.apply(opts[0])
                    continue
                kids = node.children
                untried = None
                best = opts[0]  # replaced by the first tried option (its value is above -1)
                best_v = -1.0
                for a in opts:
                    ch = kids.get(a)
                    if ch is None:
                        if untried is None:
                            untried = [a]
                        else:
                            untried.append(a)
                        continue
                    ch.avail += 1
                    if untried is None:
                        v = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n)
                        if v > best_v:
                            best_v = v
                            best = a
                if untried is not None:
                    a = untried[below(len(untried))] if len(untried) > 1 else untried[0]
                    ch = Node()
                    kids[a] = ch
                    det.apply(a)
                    path.append((ch, dd.player))
                    break
                ch = kids[best]
                det.apply(best)
                path.append((ch, dd.player))
                node = ch
            # --- playout
            dd = det.decision()
            if dd is not None:
                if random_playout:
                    # the hottest loop: bound methods, and ``below(n)`` inlined (the same
                    # numbers: CanonicalRng.below is random.Random.randrange)
                    decision = det.decision
                    apply = det.apply
                    steps = 0
                    while dd is not None:
                        if horizon and steps >= horizon and dd.kind == stop_kind:
                            break
                        opts = dd.options
                        n = len(opts)
                        if n > 1:
                            k = n.bit_length()
                            r = getrandbits(k)
                            while r >= n:
                                r = getrandbits(k)
                            apply(opts[r])
                        else:
                            apply(opts[0])
                        steps += 1
                        dd = decision()
                elif greedy_playout:
                    steps = 0
                    while dd is not None and dd.kind != stop_kind and steps < cutoff:
                        opts = dd.options
                        if len(opts) == 1:
                            det.apply(opts[0])
                        else:
                            p = dd.player
                            best_det = None
                            best_v = 0.0
                            for a in opts:
                                cl = det.clone()
                                cl.apply(a)
                                v = value(cl, p)
                                if best_det is None or v > best_v:
                                    best_det, best_v = cl, v
                            assert best_det is not None  # a decision has at least one option
                            det = best_det
                        steps += 1
                        dd = det.decision()
                else:
                    steps = 0
                    while dd is not None and dd.kind != stop_kind and steps < cutoff:
                        opts = dd.options
                        det.apply(opts[below(len(opts))] if len(opts) > 1 else opts[0])
                        steps += 1
                        dd = det.decision()
            reward = utilities(det)
            # --- back-propagation
            for ch, pl in path:
                ch.n += 1
                ch.w += reward[pl]
            done += 1
        self.last_iterations = done
        self.last_root = root
        return root
