"""The expert bot: information-set MCTS with a learned evaluation, and its tree kept between decisions.

The search is :mod:`.ismcts`'s, the same loop (:class:`~.ismcts.SearchBot`; one tree over
the bot's information set, a fresh determinization per iteration, UCB with availability
counts, the most visited option played) with other components (:meth:`ExpertBot.components`: a
:class:`~.ismcts.TurnStartPlayout`, a :class:`~.ismcts.LearnedLeaf` or the game evaluation, a
:class:`~.ismcts.ReusedTree`), changed in two ways, each measured against ``ismcts`` at equal CPU time per
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

from .evaluation import Evaluator
from .ismcts import (
    FreshTree,
    GameEvaluation,
    Leaf,
    LearnedLeaf,
    MastStats,
    Node,
    Playout,
    ReusedTree,
    SearchBot,
    TreeStore,
    TurnStartPlayout,
)
from .learned_value import load_value

LEAVES = ("learned", "playout")
MAST_DECAY = 0.5  # weight of a MAST statistic from an earlier search, per search since

__all__ = ["LEAVES", "MAST_DECAY", "ExpertBot", "Node"]


class ExpertBot(SearchBot):
    """``expert``: the ISMCTS loop with turn-start playouts (MAST moves with ``mast``), the
    learned model at their end (``leaf="learned"``) and tree reuse (``reuse``)."""

    name = "expert"
    # per title (its bot_defaults["expert"]): exploration constant, tree reuse, leaf
    # evaluation, turn starts before the model, share of MAST moves in the playouts
    TUNING = "expert"
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
        if leaf is not None and leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}, got {leaf!r}")
        if turns is not None and turns < 1:
            raise ValueError(f"turns must be at least 1, got {turns!r}")
        if mast is not None and not 0.0 <= mast <= 1.0:
            raise ValueError(f"mast must be a probability between 0 and 1, got {mast!r}")
        self._init_search(seed, iterations, seconds, c)
        self.reuse = reuse
        self.leaf = leaf
        self.turns = turns
        self.mast = mast
        self._init_evaluation(game, evaluator, eval_options)
        # MAST: decision kind -> action -> [mean reward of the seat that played it, weight],
        # kept across searches (and games)
        self._mast: MastStats = {}

    def components(self) -> tuple[Playout, Leaf, TreeStore]:
        ev = self.evaluator
        model = load_value(self._set_for or "") if self.leaf_ == "learned" else None
        leaf: Leaf = GameEvaluation(ev) if model is None else LearnedLeaf(ev, model.utilities)
        turns = self.turns_ if model is not None else 0  # 0: play to the end
        playout = TurnStartPlayout(ev.stop_kind, turns, self.mast_, self._mast, MAST_DECAY)
        tree: TreeStore = ReusedTree() if self.reuse_ else FreshTree()
        return playout, leaf, tree
