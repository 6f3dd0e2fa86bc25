"""The expert bot: information-set MCTS with a learned evaluation, and its tree kept between decisions.

The search is :mod:`.ismcts`'s (one tree over the bot's information set, a fresh
determinization per iteration, UCB with availability counts, the most visited option
played), changed in two ways, each measured against ``ismcts`` at equal CPU time per
decision (``bench/bench_expert.py``; the README has the tables):

1. **Short playouts and a learned evaluation** (``leaf="learned"``, Red Rising's default).
   An iteration plays random moves from the expanded node only until the ``turns``-th
   start of a turn (8 by default: four rounds of a 2-player game, two of a 4-player one),
   or the end of the game if that comes first, and then scores the position with a model
   fitted on self-play games (:mod:`.learned_value`: a softmax over the seats of a linear
   score of each seat's hand value, tokens, Fleet progress and turn order, weighted by the
   phase of the game). In Red Rising a random playout to the end costs about a
   millisecond and predicts the winner worse than the model (log-loss 0.62 against 0.57
   in 2-player games), so an iteration is 2-4 times cheaper and its value less noisy.
   **This is what made the difference**: against ``ismcts`` at 0.05 s per decision in
   2-player Red Rising, 100 games each, the expert won 49% with ``turns=1`` (the model at
   the very next turn start: the value then misses what the opponents may take next), 79%
   with ``turns=4`` and 83% with ``turns=8``; mixing the model with a full playout's result
   won 56%, and playouts that deploy the least and gain the most valuable card half of
   the time (instead of random moves) 74% (with ``turns=4``).
2. **Tree reuse** (``reuse=1``). Red Rising's compound effects and Red North's Deployments
   are several decisions in a row by the same seat. After choosing, the bot keeps the
   subtree of the action played and one determinization of its information set with that
   action applied; at the next decision, if the game shows the seat exactly what that
   determinization shows (the same view and the same decision: nothing hidden was
   revealed, nobody else acted in between), the subtree's statistics become the new
   root's and the search goes on from them. Otherwise (a card drawn, an opponent's turn)
   the search starts afresh. The stored determinization depends on the information set
   and the seed only, so reuse never depends on hidden cards (tested).

3. **MAST playouts** (``mast``: Red North's default 0.5). Move-average sampling: the bot
   keeps, per decision kind and action string, the mean reward of the seat that played it
   in its playouts and tree paths (older searches' weights halved at each search), and a
   playout move is, with probability ``mast``, the option with the best mean instead of a
   random one. In Red North an action string means the same in every position (a card
   kind, a Party slot, a God), so the statistics carry over.

Red North's default is ``leaf="playout"`` (random playouts to the end, which are short
there: the model saves little time and its features predict the winner poorly, log-loss
0.64 against 0.69 for a coin) with tree reuse and MAST. Against ``ismcts`` at 0.05 s,
200 games each: tree reuse alone 55.5%, with MAST 0.5 (the default) see the README;
``leaf="learned"`` 52.5%; exploration constants 0.5 and 1.0 49.5% and 54%; a
score-margin reward (``margin=0.3``) 41% of 138.

Budget: ``iterations`` per decision, or ``seconds`` (``clock``, wall clock by default).
With an iteration budget and a seed the bot is deterministic: the same sequence of states
gives the same choices.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..core import Action, Decision, State
from .common import CanonicalRng, seed_of
from .evaluation import EvaluatingBot, Evaluator
from .learned_value import load_value

LEAVES = ("learned", "playout")
MAST_DECAY = 0.5  # weight of a MAST statistic from an earlier search, per search since


class Node:
    __slots__ = ("children", "n", "w", "avail")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 1


class ExpertBot(EvaluatingBot):
    name = "expert"
    # per game: exploration constant, tree reuse, leaf evaluation, turn starts before the
    # model, share of MAST moves in the playouts
    GAME_DEFAULTS: dict[str, dict[str, Any]] = {
        "red-rising": {"c": 0.7, "reuse": 1, "leaf": "learned", "turns": 8, "mast": 0.0},
        "red-north": {"c": 0.7, "reuse": 1, "leaf": "playout", "turns": 8, "mast": 0.5},
    }
    FALLBACK: dict[str, Any] = {"c": 0.7, "reuse": 1, "leaf": "playout", "turns": 8, "mast": 0.0}
    #: The clock of a time budget (a benchmark may set ``time.process_time``: CPU time).
    clock = staticmethod(time.perf_counter)
    c_: float
    reuse_: int
    leaf_: str
    turns_: int
    mast_: float

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        game: str | None = None,
        c: float | None = None,
        reuse: int | None = None,
        leaf: str | None = None,
        turns: int | None = None,
        mast: float | None = None,
        evaluator: Evaluator | None = None,
        eval_options: dict | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        if leaf is not None and leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}, got {leaf!r}")
        if turns is not None and turns < 1:
            raise ValueError(f"turns must be at least 1, got {turns!r}")
        if mast is not None and not 0.0 <= mast <= 1.0:
            raise ValueError(f"mast must be a probability between 0 and 1, got {mast!r}")
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.reuse = reuse
        self.leaf = leaf
        self.turns = turns
        self.mast = mast
        self._init_evaluation(game, evaluator, eval_options)
        self.decisions = 0
        self.last_iterations = 0
        self.last_reused = 0  # visits the last search started from (0: a fresh tree)
        self.last_root: Node | None = None
        self._carry: tuple[Node, int, dict[str, Any], Decision] | None = None
        # MAST: decision kind -> action -> [mean reward of the seat that played it, weight]
        self._mast: dict[str, dict[str, list[float]]] = {}

    def choose(self, state: State) -> Action:
        d = state.pending()
        if len(d.options) == 1:
            self._carry = None
            return d.options[0]
        self._setup(state)
        self.decisions += 1
        me = d.player
        root = self._reused_root(state, me)
        self.last_reused = root.n if root is not None else 0
        root = self.search(state, me, root)
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
        action = best if best is not None else d.options[0]
        self._remember(state, me, action, kids.get(action))
        return action

    # ------------------------------------------------------------------ tree reuse
    def _remember(self, state: State, me: int, action: Action, child: Node | None) -> None:
        """Keep the subtree of ``action`` and what the seat should see next if nothing hidden
        is revealed: the view and decision of a determinization with ``action`` applied."""
        self._carry = None
        if not self.reuse_ or child is None or not child.children:
            return
        det = state.resample(me, CanonicalRng(seed_of(self.seed, self.decisions, 1)))
        det.apply(action)
        dd = det.decision()
        if dd is not None and dd.player == me:
            self._carry = (child, me, det.view(me), dd)

    def _reused_root(self, state: State, me: int) -> Node | None:
        carry, self._carry = self._carry, None
        if carry is None:
            return None
        child, seat, view, dd = carry
        if seat != me or state.decision() != dd or state.view(me) != view:
            return None
        return child

    # ------------------------------------------------------------------ search
    def search(self, state: State, me: int, root: Node | None = None) -> Node:
        rng = CanonicalRng(seed_of(self.seed, self.decisions))
        if root is None:
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
        model = load_value(self._set_for or "") if self.leaf_ == "learned" else None
        value = model.utilities if model is not None else utilities
        limit = self.turns_ if model is not None else 0  # 0: play to the end
        eps = int(self.mast_ * 1024)  # MAST moves per 1024 playout decisions
        mast = self._mast
        if eps:  # older searches' statistics count half as much as the coming one's
            for kind_stats in mast.values():
                for weighted in kind_stats.values():
                    weighted[1] *= MAST_DECAY
        trace: list[tuple[str, str, int]] = []
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and (done & 7) == 0 and done and clock() >= deadline:
                break
            det = state.resample(me, rng).for_search()
            node = root
            path = []
            if eps:
                trace = []
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
                    if eps:
                        trace.append((dd.kind, a, dd.player))
                    break
                ch = kids[best]
                det.apply(best)
                path.append((ch, dd.player))
                if eps:
                    trace.append((dd.kind, best, dd.player))
                node = ch
            # --- playout: random (or MAST) moves to the end, or to the limit-th turn start (then
            # the model)
            dd = det.decision()
            decision = det.decision
            apply = det.apply
            seen = 0
            while dd is not None:
                if limit and dd.kind == stop_kind:
                    seen += 1
                    if seen >= limit:
                        break
                opts = dd.options
                n = len(opts)
                if n > 1:
                    pick: str | None = None
                    if eps and getrandbits(10) < eps:
                        stats = mast.get(dd.kind)
                        if stats is not None:  # the option with the best mean so far (unknown: 0.5)
                            best_v = -1.0
                            for o in opts:
                                got = stats.get(o)
                                v = 0.5 if got is None else got[0]
                                if v > best_v:
                                    best_v = v
                                    pick = o
                    if pick is None:
                        # ``below(n)`` inlined (the same numbers)
                        k = n.bit_length()
                        r = getrandbits(k)
                        while r >= n:
                            r = getrandbits(k)
                        pick = opts[r]
                    if eps:
                        trace.append((dd.kind, pick, dd.player))
                    apply(pick)
                else:
                    apply(opts[0])
                dd = decision()
            reward = utilities(det) if dd is None else value(det)
            # --- back-propagation
            for ch, pl in path:
                ch.n += 1
                ch.w += reward[pl]
            for kind, act, pl in trace:
                row = mast.get(kind)
                if row is None:
                    row = mast[kind] = {}
                cell = row.get(act)
                x = reward[pl]
                if cell is None:
                    row[act] = [x, 1.0]
                else:
                    cell[1] += 1.0
                    cell[0] += (x - cell[0]) / cell[1]
            done += 1
        self.last_iterations = done
        self.last_root = root
        return root
