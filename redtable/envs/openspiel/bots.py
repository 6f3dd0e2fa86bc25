"""Bots on the OpenSpiel games: OpenSpiel's searches at a time budget, and redtable's bots.

* :class:`TimedISMCTSBot`, :class:`TimedMCTSBot`: OpenSpiel's own Python ``ISMCTSBot`` and
  ``MCTSBot``, unchanged except that a search stops at a wall-clock deadline instead of
  after a fixed number of simulations (so that bots compare at equal time per decision).
  The deadline is checked where each simulation starts (``sample_root_state``, the tree
  policy), and the search then ends exactly as OpenSpiel's would after that many
  simulations. At least two simulations always run, which is what OpenSpiel's final
  move selection needs. The ISMCTS bot's re-deals draw from its own seeded generator
  (through OpenSpiel's ``set_resampler`` hook) rather than a clock-seeded sampler.
* :class:`DeterminizedBot`: gives a perfect-information bot (MCTSBot) one re-deal of the
  state from the deciding seat's information state (``resample_from_infostate``) at each
  decision, so that it never reads hidden cards or the pre-drawn future. MCTSBot on the
  real state would (see the package docstring): ``make_bot("openspiel:mcts-omniscient")``
  is that, as a reference.
* :class:`RedtableBot`: any redtable bot (``heuristic``, ``ismcts:0.1s``...) as a
  ``pyspiel.Bot``; it reads the engine state through the core protocol as it always does.
* :func:`play_game`: one game from a seed with one bot per seat, timing every decision.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts as os_mcts

from ...bots import Bot
from ...bots import make_bot as make_redtable_bot
from ...core import InvalidOptions
from .games import RedtableGame, RedtableState, deal

UCT_C = 0.7  # the exploration constant of redtable's ISMCTS (returns in [0, 1])
_UNBOUNDED = 1 << 40  # "max_simulations" when a deadline ends the search


class _OutOfTime(Exception):
    def __init__(self, root=None) -> None:
        super().__init__("search deadline")
        self.root = root


def _check_seconds(seconds: float) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(f"seconds must be a positive number of seconds per decision, got {seconds!r}")
    return float(seconds)


class _TimedSearch:
    """What the two timed searches share: OpenSpiel's defaults they start from, and their budget."""

    seconds: float
    _deadline: float
    last_simulations: int

    @staticmethod
    def _defaults(evaluator: Any, random_state: np.random.RandomState | None) -> tuple[Any, np.random.RandomState]:
        """The evaluator and generator to hand OpenSpiel: those given, else a new generator and one
        random rollout per leaf drawn from it (so a seeded bot is reproducible)."""
        random_state = random_state if random_state is not None else np.random.RandomState()
        return evaluator or os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state), random_state

    def _budget(self, seconds: float) -> None:
        """``seconds`` per decision; no search has run yet."""
        self.seconds = _check_seconds(seconds)
        self._deadline = float("inf")
        self.last_simulations = 0


class TimedISMCTSBot(_TimedSearch, os_ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot with ``seconds`` of search per decision. ``last_simulations``:
    how many simulations the last search ran."""

    def __init__(
        self,
        game,
        seconds: float,
        uct_c: float = UCT_C,
        evaluator=None,
        random_state: np.random.RandomState | None = None,
        **kwargs,
    ) -> None:
        evaluator, random_state = self._defaults(evaluator, random_state)
        super().__init__(game, evaluator, uct_c, _UNBOUNDED, random_state=random_state, **kwargs)
        self._budget(seconds)
        # OpenSpiel's default re-deal draws from a new pyspiel.UniformProbabilitySampler
        # per simulation, seeded from the clock; drawing from the bot's own generator makes
        # a seeded bot's re-deals reproducible (OpenSpiel's resampler hook, same algorithm).
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, self._uniform))

    def _uniform(self) -> float:
        return float(self._random_state.uniform())

    def sample_root_state(self, state):
        root = self._root_node
        if root is not None and root.total_visits > 0 and time.perf_counter() >= self._deadline:
            raise _OutOfTime()
        return super().sample_root_state(state)

    def run_search(self, state):
        self._deadline = time.perf_counter() + self.seconds
        self._root_node = None
        try:
            policy = super().run_search(state)
        except _OutOfTime:
            policy = self.get_final_policy(state, self._root_node)
        root = self._root_node
        self.last_simulations = 0 if root is None else root.total_visits + 1
        return policy


class TimedMCTSBot(_TimedSearch, os_mcts.MCTSBot):
    """OpenSpiel's MCTSBot with ``seconds`` of search per decision, on whatever state it is
    given (wrap it in :class:`DeterminizedBot` to keep it from reading hidden cards)."""

    def __init__(
        self,
        game,
        seconds: float,
        uct_c: float = UCT_C,
        evaluator=None,
        random_state: np.random.RandomState | None = None,
        **kwargs,
    ) -> None:
        evaluator, random_state = self._defaults(evaluator, random_state)
        super().__init__(game, uct_c, _UNBOUNDED, evaluator, random_state=random_state, **kwargs)
        self._budget(seconds)

    def _apply_tree_policy(self, root, state):
        if root.children and root.explore_count >= 2 and time.perf_counter() >= self._deadline:
            raise _OutOfTime(root)
        return super()._apply_tree_policy(root, state)

    def mcts_search(self, state):
        self._deadline = time.perf_counter() + self.seconds
        try:
            root = super().mcts_search(state)
        except _OutOfTime as stop:
            root = stop.root
        self.last_simulations = root.explore_count
        return root


class DeterminizedBot(pyspiel.Bot):
    """Runs ``inner`` on one re-deal of the state per decision, made from the deciding
    seat's information state; forced moves are played without asking it."""

    def __init__(self, inner: pyspiel.Bot, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.inner = inner
        self._rs = np.random.RandomState(seed)

    def _uniform(self) -> float:
        return float(self._rs.uniform())

    def step(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        world = state.resample_from_infostate(state.current_player(), self._uniform)
        return self.inner.step(world)

    def restart_at(self, state) -> None:
        pass

    @property
    def last_simulations(self) -> int:
        return getattr(self.inner, "last_simulations", 0)


class RedtableBot(pyspiel.Bot):
    """A redtable bot (a spec such as ``"heuristic"`` or ``"ismcts:0.1s"``, or a
    :class:`~redtable.bots.Bot`) playing a redtable OpenSpiel game."""

    def __init__(self, game: RedtableGame, bot: str | Bot, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.spec = game.spec
        self.bot = make_redtable_bot(bot, seed=seed, game=game.spec.d.name) if isinstance(bot, str) else bot

    def step(self, state: RedtableState) -> int:
        return self.spec.codec.encode(self.bot.choose(state.redtable_state()))

    def restart_at(self, state) -> None:
        pass

    @property
    def last_simulations(self) -> int:
        return getattr(self.bot, "last_iterations", 0)


OPENSPIEL_SPECS = ("openspiel:ismcts", "openspiel:mcts", "openspiel:mcts-omniscient")


def make_bot(spec: str, game: RedtableGame, seed: int = 0, seconds: float = 0.1) -> pyspiel.Bot:
    """A bot for ``game`` from a spec, searching ``seconds`` per decision.

    ``openspiel:ismcts`` (OpenSpiel's ISMCTSBot), ``openspiel:mcts`` (its MCTSBot on one
    re-deal per decision), ``openspiel:mcts-omniscient`` (its MCTSBot on the real state: it
    reads the hidden cards and the pre-drawn chance; a reference, not a fair player), all
    with random-rollout evaluation and ``uct_c`` 0.7; or a redtable bot spec (``random``,
    ``heuristic``, ``ismcts``, ``expert``: a search bot without a budget gets ``seconds``)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(
            f"bad bot spec {spec!r}; OpenSpiel bots: {', '.join(OPENSPIEL_SPECS)}, or a redtable "
            "bot spec (random, heuristic, ismcts...)"
        )
    spec = spec.strip()
    seconds = _check_seconds(seconds)
    if spec.startswith("openspiel:"):
        rs = np.random.RandomState(seed % (1 << 32))
        if spec == "openspiel:ismcts":
            return TimedISMCTSBot(game, seconds, random_state=rs)
        if spec == "openspiel:mcts":
            return DeterminizedBot(TimedMCTSBot(game, seconds, random_state=rs), seed=seed % (1 << 32))
        if spec == "openspiel:mcts-omniscient":
            return TimedMCTSBot(game, seconds, random_state=rs)
        raise ValueError(f"unknown OpenSpiel bot {spec!r}; known: {', '.join(OPENSPIEL_SPECS)}")
    if spec.split(":")[0].strip().lower() in ("ismcts", "expert") and (
        spec.count(":") == 0 or "=" in spec.split(":")[1]
    ):
        head, _, rest = spec.partition(":")
        spec = f"{head}:{seconds:g}s" + (f":{rest}" if rest else "")
    try:
        return RedtableBot(game, spec, seed=seed)
    except InvalidOptions as e:
        raise ValueError(f"{e}; OpenSpiel bots: {', '.join(OPENSPIEL_SPECS)}") from None


@dataclass
class GameResult:
    """One finished game: ``returns`` per seat (1/k to each of k winners), the engine's
    ``winners`` and ``scores``, and per seat the decisions with a choice and the seconds
    its bot spent on them."""

    seed: int
    returns: list[float]
    winners: list[int]
    scores: list[float]
    decisions: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)


def play_game(game: RedtableGame, bots: list[pyspiel.Bot], seed: int) -> GameResult:
    """Deal ``game`` with ``seed`` and let ``bots[seat]`` decide for each seat. Forced
    moves (one legal action) are played without asking the bot, so the timings count
    real decisions only."""
    n = game.num_players()
    if len(bots) != n:
        raise ValueError(f"play_game needs one bot per seat: {n} for this game, got {len(bots)}")
    state = deal(game, seed)
    decisions = [0] * n
    seconds = [0.0] * n
    sims = [0] * n
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        t = time.perf_counter()
        action = bots[p].step(state)
        seconds[p] += time.perf_counter() - t
        decisions[p] += 1
        sims[p] += int(getattr(bots[p], "last_simulations", 0) or 0)
        if action not in legal:
            raise RuntimeError(f"bot of seat {p} chose {action}, not a legal action ({legal})")
        state.apply_action(action)
    es = state.redtable_state()
    finished = es.decision() is None
    return GameResult(
        seed=seed,
        returns=list(state.returns()),
        winners=es.winners() if finished else [],
        scores=es.scores() if finished else [0.0] * n,
        decisions=decisions,
        seconds=seconds,
        simulations=sims,
    )
