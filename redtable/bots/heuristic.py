"""A fast greedy player: the best option for the rest of its own turn, by a game evaluation.

For each option the bot looks ahead over its *own* following decisions (the deploy
location and the gain after choosing a card in Red Rising; the card added after a
Reinforce, the three cards of a Deployment in Red North), up to the start of its next turn
or until somebody else decides, and scores the position reached with the game's
evaluation (:mod:`.evaluation`): its estimated final score minus ``opp_weight`` times the
best opponent's. The look-ahead is exhaustive within a budget of positions per option,
split evenly between the options at each level.

Hidden cards are handled by averaging over ``samples`` determinizations (``resample``
with a :class:`~.common.CanonicalRng`): the value of an option is the mean, over the
determinizations, of the best continuation in each. A card drawn from the deck is
therefore valued as the bot will see it once drawn.
"""

from __future__ import annotations

from ..core import Action, State
from .common import CanonicalRng, seed_of
from .evaluation import EvaluatingBot, Evaluator


class HeuristicBot(EvaluatingBot):
    name = "heuristic"
    # per title (its bot_defaults["heuristic"]): determinizations, positions looked at per
    # option, opponent weight
    TUNING = "heuristic"
    # the parameters in use for the game being played (given, else the title's): set by _setup
    samples_: int
    budget_: int
    opp_weight_: float

    def __init__(
        self,
        seed: int = 0,
        game: str | None = None,
        samples: int | None = None,
        budget: int | None = None,
        opp_weight: float | None = None,
        evaluator: Evaluator | None = None,
        eval_options: dict | None = None,
    ) -> None:
        self.seed = seed
        self.samples = samples
        self.budget = budget
        self.opp_weight = opp_weight
        self._init_evaluation(game, evaluator, eval_options)
        self.decisions = 0

    def objective(self, det, p: int) -> float:
        return self.evaluator.value(det, p, self.opp_weight_)

    def _search(self, det, p: int, budget: int) -> float:
        d = det.decision()
        if d is None or d.player != p or d.kind == self.evaluator.stop_kind:
            return self.objective(det, p)
        opts = d.options
        if budget < len(opts):
            return self.objective(det, p)
        per = budget // len(opts) - 1
        best = float("-inf")
        for a in opts:
            c = det.clone()
            c.apply(a)
            v = self._search(c, p, per)
            if v > best:
                best = v
        return best

    def values(self, state: State) -> dict[Action, float]:
        """The mean look-ahead value of each option of the bot's pending decision."""
        self._setup(state)
        d = state.pending()
        p = d.player
        opts = d.options
        totals = [0.0] * len(opts)
        self.decisions += 1
        for k in range(self.samples_):
            det = state.resample(p, CanonicalRng(seed_of(self.seed, self.decisions, k)))
            for i, a in enumerate(opts):
                c = det.clone()
                c.apply(a)
                totals[i] += self._search(c, p, self.budget_)
        return {a: t / self.samples_ for a, t in zip(opts, totals, strict=True)}

    def choose(self, state: State) -> Action:
        d = state.pending()
        if len(d.options) == 1:
            return d.options[0]
        vals = self.values(state)
        best = max(vals.values())
        return next(a for a in d.options if vals[a] >= best - 1e-9)
