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

**One search loop, three components.** :class:`SearchBot` runs the loop above for every
search bot; what differs between bots is three pluggable parts, built per game
(:meth:`SearchBot.components`) once the game's evaluator is known:

* the **playout policy** (:class:`Playout`): how a determinization goes on from the
  expanded node (:class:`RandomPlayout`, :class:`GreedyPlayout`, :class:`CutoffPlayout`
  here; :class:`TurnStartPlayout` with MAST moves for the expert);
* the **leaf evaluation** (:class:`Leaf`): the reward vector of the position the playout
  reached (:class:`GameEvaluation`: the game's evaluator; :class:`LearnedLeaf`: a
  learned model where the playout stopped early);
* the **tree store** (:class:`TreeStore`): the root a search starts from and what is kept
  for the next decision (:class:`FreshTree`: a new tree per decision; :class:`ReusedTree`:
  the subtree of the action played, :mod:`.expert`'s tree reuse).

``ismcts`` is the preset :class:`ISMCTSBot` (a fresh tree, the game evaluation, the playout
of ``playout``); ``expert`` (:mod:`.expert`) is another preset of the same loop.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..core import Action, Decision, State
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

# --------------------------------------------------------------------------- components
Reward = Sequence[float]
#: MAST statistics: decision kind -> action -> [mean reward of the seat that played it, weight]
MastStats = dict[str, dict[str, list[float]]]


class Playout:
    """A playout policy: plays a determinization on from the node a search iteration expanded.

    :meth:`start` is called at the start of each search (with the search's random numbers),
    :meth:`run` once per iteration that has a decision left; it returns the state reached
    (the same object, or another one) and that state's decision (``None`` at the end of the
    game). A policy that learns from the iterations' rewards keeps a list in ``trace``: the
    loop appends ``(kind, action, player)`` for every tree step, the policy for every
    playout move, and :meth:`learn` gets the iteration's reward (and empties the list).
    """

    trace: list[tuple[str, str, int]] | None = None

    def start(self, rng: CanonicalRng) -> None:
        self.rng = rng

    def run(self, det: State, dd: Decision) -> tuple[State, Decision | None]:
        raise NotImplementedError

    def learn(self, reward: Reward) -> None:
        """Learn from the reward of the iteration whose moves are in ``trace``."""


class RandomPlayout(Playout):
    """Random moves to the end of the game (with ``horizon`` > 0: for at least ``horizon``
    decisions, then up to the next decision of kind ``stop_kind``)."""

    def __init__(self, stop_kind: str, horizon: int = 0) -> None:
        self.stop_kind = stop_kind
        self.horizon = horizon

    def run(self, det: State, dd: Decision) -> tuple[State, Decision | None]:
        # the hottest loop: bound methods, and ``below(n)`` inlined (the same numbers:
        # CanonicalRng.below is random.Random.randrange)
        getrandbits = self.rng.getrandbits
        horizon = self.horizon
        stop_kind = self.stop_kind
        decision = det.decision
        apply = det.apply
        steps = 0
        d: Decision | None = dd
        while d is not None:
            if horizon and steps >= horizon and d.kind == stop_kind:
                break
            opts = d.options
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
            d = decision()
        return det, d


class CutoffPlayout(Playout):
    """Random moves up to the next decision of kind ``stop_kind``, at most ``cutoff``."""

    def __init__(self, stop_kind: str, cutoff: int) -> None:
        self.stop_kind = stop_kind
        self.cutoff = cutoff

    def run(self, det: State, dd: Decision) -> tuple[State, Decision | None]:
        below = self.rng.below
        stop_kind = self.stop_kind
        cutoff = self.cutoff
        steps = 0
        d: Decision | None = dd
        while d is not None and d.kind != stop_kind and steps < cutoff:
            opts = d.options
            det.apply(opts[below(len(opts))] if len(opts) > 1 else opts[0])
            steps += 1
            d = det.decision()
        return det, d


class GreedyPlayout(Playout):
    """Up to the next decision of kind ``stop_kind`` (at most ``cutoff``), each decision to
    the option with the best ``value(state, player)`` for the seat deciding."""

    def __init__(self, stop_kind: str, cutoff: int, value: Callable[[State, int], float]) -> None:
        self.stop_kind = stop_kind
        self.cutoff = cutoff
        self.value = value

    def run(self, det: State, dd: Decision) -> tuple[State, Decision | None]:
        stop_kind = self.stop_kind
        cutoff = self.cutoff
        value = self.value
        steps = 0
        d: Decision | None = dd
        while d is not None and d.kind != stop_kind and steps < cutoff:
            opts = d.options
            if len(opts) == 1:
                det.apply(opts[0])
            else:
                p = d.player
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
            d = det.decision()
        return det, d


class TurnStartPlayout(Playout):
    """Random moves to the end of the game, or (``turns`` > 0) up to the ``turns``-th
    decision of kind ``stop_kind``; with ``mast`` > 0, a move is, with that probability,
    the option with the best mean reward in the MAST statistics ``stats`` (move-average
    sampling: per decision kind and action, the mean reward of the seat that played it in
    earlier iterations, tree steps and playout moves; each search halves the weight of the
    statistics gathered before it, ``decay``)."""

    def __init__(
        self, stop_kind: str, turns: int = 0, mast: float = 0.0, stats: MastStats | None = None, decay: float = 0.5
    ) -> None:
        self.stop_kind = stop_kind
        self.turns = turns
        self.eps = int(mast * 1024)  # MAST moves per 1024 playout decisions
        self.stats: MastStats = {} if stats is None else stats
        self.decay = decay
        self.trace = [] if self.eps else None

    def start(self, rng: CanonicalRng) -> None:
        self.rng = rng
        if self.eps:  # older searches' statistics count half as much as the coming one's
            decay = self.decay
            for kind_stats in self.stats.values():
                for weighted in kind_stats.values():
                    weighted[1] *= decay

    def run(self, det: State, dd: Decision) -> tuple[State, Decision | None]:
        getrandbits = self.rng.getrandbits
        limit = self.turns
        stop_kind = self.stop_kind
        eps = self.eps
        mast = self.stats
        trace = self.trace
        decision = det.decision
        apply = det.apply
        seen = 0
        d: Decision | None = dd
        while d is not None:
            if limit and d.kind == stop_kind:
                seen += 1
                if seen >= limit:
                    break
            opts = d.options
            n = len(opts)
            if n > 1:
                pick: str | None = None
                if eps and getrandbits(10) < eps:
                    stats = mast.get(d.kind)
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
                if trace is not None:
                    trace.append((d.kind, pick, d.player))
                apply(pick)
            else:
                apply(opts[0])
            d = decision()
        return det, d

    def learn(self, reward: Reward) -> None:
        trace = self.trace
        if not trace:
            return
        mast = self.stats
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
        trace.clear()


class Leaf:
    """A leaf evaluation: the reward vector (a utility in [0, 1] per seat) of the state a
    playout reached, given that state's decision (``None``: the game is over)."""

    def value(self, det: State, dd: Decision | None) -> Reward:
        raise NotImplementedError


class GameEvaluation(Leaf):
    """The game's evaluation (:mod:`.evaluation`): a finished game scores its returns (mixed
    with its score margin), an unfinished one its estimated win chances."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.utilities = evaluator.utilities

    def value(self, det: State, dd: Decision | None) -> Reward:
        return self.utilities(det)


class LearnedLeaf(Leaf):
    """A learned model (``utilities(state)``, :mod:`.learned_value`) where the playout
    stopped early; the game's evaluation at the end of the game."""

    def __init__(self, evaluator: Evaluator, model_utilities: Callable[[State], Reward]) -> None:
        self.utilities = evaluator.utilities
        self.model = model_utilities

    def value(self, det: State, dd: Decision | None) -> Reward:
        return self.utilities(det) if dd is None else self.model(det)


class TreeStore:
    """Where a search's tree comes from and what is kept of it: a fresh tree per decision."""

    def root(self, state: State, me: int) -> Node | None:
        """The root to search from (``None``: a new one)."""
        return None

    def keep(self, state: State, me: int, action: Action, child: Node | None, seed: int) -> None:
        """After a search chose ``action`` (``child``: its node)."""

    def forget(self) -> None:
        """A decision was taken without a search (a forced move)."""


class FreshTree(TreeStore):
    """A new tree at every decision."""


class ReusedTree(TreeStore):
    """Tree reuse: after choosing, keep the subtree of the action played and one
    determinization of the information set (dealt from ``seed``) with that action applied;
    at the next decision, if the game shows the seat exactly what that determinization shows
    (the same view and the same decision), the subtree becomes the new root."""

    def __init__(self) -> None:
        self._carry: tuple[Node, int, Any, Decision] | None = None

    def keep(self, state: State, me: int, action: Action, child: Node | None, seed: int) -> None:
        self._carry = None
        if child is None or not child.children:
            return
        det = state.resample(me, CanonicalRng(seed))
        det.apply(action)
        dd = det.decision()
        if dd is not None and dd.player == me:
            self._carry = (child, me, det.view(me), dd)

    def root(self, state: State, me: int) -> Node | None:
        carry, self._carry = self._carry, None
        if carry is None:
            return None
        child, seat, view, dd = carry
        if seat != me or state.decision() != dd or state.view(me) != view:
            return None
        return child

    def forget(self) -> None:
        self._carry = None


# --------------------------------------------------------------------------- the search
class SearchBot(EvaluatingBot):
    """The one ISMCTS loop; a subclass is a preset: its parameters, per-game defaults
    (its ``TUNING`` name in a title's ``bot_defaults``) and :meth:`components`."""

    #: The clock of a time budget: wall clock; a benchmark may set ``time.process_time`` on
    #: an instance so that a budget is CPU time, which other jobs on the machine do not shrink.
    clock = staticmethod(time.perf_counter)
    c_: float

    def _init_search(self, seed: int, iterations: int | None, seconds: float | None, c: float | None) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.decisions = 0
        self.last_iterations = 0
        self.last_reused = 0  # visits the last search started from (0: a fresh tree)
        self.last_root: Node | None = None
        self._built_for: str | None = None
        self.playout_policy: Playout = Playout()
        self.leaf_eval: Leaf = Leaf()
        self.tree: TreeStore = FreshTree()

    def components(self) -> tuple[Playout, Leaf, TreeStore]:
        """The playout policy, leaf evaluation and tree store for the game being played
        (called once the game's parameters ``*_`` and evaluator are set)."""
        raise NotImplementedError

    def choose(self, state: State) -> Action:
        d = state.pending()
        if len(d.options) == 1:
            self.tree.forget()
            return d.options[0]
        self._setup(state)
        if self._built_for != self._set_for:
            self.playout_policy, self.leaf_eval, self.tree = self.components()
            self._built_for = self._set_for
        self.decisions += 1
        me = d.player
        root = self.tree.root(state, me)
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
        self.tree.keep(state, me, action, kids.get(action), seed_of(self.seed, self.decisions, 1))
        return action

    def search(self, state: State, me: int, root: Node | None = None, only: Action | None = None) -> Node:
        """Run the search from ``state`` for seat ``me`` (into ``root``, else a new tree) and
        return the root. ``only``: every iteration's first move at the root is that option
        (a review's estimate of an option the search itself visits too little)."""
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
        playout = self.playout_policy
        playout.start(rng)
        run = playout.run
        trace = playout.trace
        learn = playout.learn
        leaf = self.leaf_eval.value
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and (done & 7) == 0 and done and clock() >= deadline:
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
                if only is not None and node is root:
                    opts = (only,)
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
                    if trace is not None:
                        trace.append((dd.kind, a, dd.player))
                    break
                ch = kids[best]
                det.apply(best)
                path.append((ch, dd.player))
                if trace is not None:
                    trace.append((dd.kind, best, dd.player))
                node = ch
            # --- playout, then the leaf's value
            dd = det.decision()
            if dd is not None:
                det, dd = run(det, dd)
            reward = leaf(det, dd)
            # --- back-propagation
            for ch, pl in path:
                ch.n += 1
                ch.w += reward[pl]
            if trace is not None:
                learn(reward)
            done += 1
        self.last_iterations = done
        self.last_root = root
        return root


class ISMCTSBot(SearchBot):
    """``ismcts``: a fresh tree per decision, the playout ``playout``, the game's evaluation."""

    name = "ismcts"
    # per title (its bot_defaults["ismcts"]): exploration constant, playout, cutoff
    # (decisions of a greedy/cutoff playout)
    TUNING = "ismcts"
    # the parameters in use for the game being played (given, else the title's): set by _setup
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
        if playout is not None and playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, got {playout!r}")
        self._init_search(seed, iterations, seconds, c)
        self.playout = playout
        self.cutoff = cutoff
        self.horizon = horizon
        self._init_evaluation(game, evaluator, eval_options)

    def components(self) -> tuple[Playout, Leaf, TreeStore]:
        ev = self.evaluator
        playout: Playout
        if self.playout_ == "random":
            playout = RandomPlayout(ev.stop_kind, self.horizon)
        elif self.playout_ == "greedy":
            playout = GreedyPlayout(ev.stop_kind, self.cutoff_, ev.value)
        else:
            playout = CutoffPlayout(ev.stop_kind, self.cutoff_)
        return playout, GameEvaluation(ev), FreshTree()
