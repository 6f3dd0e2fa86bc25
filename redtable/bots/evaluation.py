"""Game-specific evaluation of determinizations: a title's ``evaluator`` part (its
:class:`~redtable.core.title.Title`), the game-agnostic :class:`Evaluator` by default.

An :class:`Evaluator` turns a determinization (a resampled state, never the real one) into

* ``estimates(det)``: an estimated final score per seat (game points: Red Rising
  scorepad points, Red North VP);
* ``utilities(det)``: a reward per seat in [0, 1] for search: for a finished game a mix
  of the game's returns (win share) and a softmax of the final scores (weight
  ``margin``), else a softmax of the estimates;
* ``value(det, p, opp_weight)``: seat ``p``'s estimate minus ``opp_weight`` times the
  best opponent's (what a greedy choice maximises);
* ``stop_kind``: the decision kind that starts a player's turn (a good place to cut a
  look-ahead off: nothing is half done there).
"""

from __future__ import annotations

from typing import Any

from ..core import GAMES, InvalidOptions, State, title
from ..rednorth.title import TITLE as RED_NORTH
from ..redrising.title import TITLE as RED_RISING
from .base import Bot
from .common import softmax_utilities
from .eval_rednorth import RNEval
from .eval_redrising import RREval


class Evaluator:
    name = "generic"
    stop_kind = ""
    temperature = 1.0

    def __init__(self, margin: float = 0.0) -> None:
        self.margin = margin

    def estimates(self, det) -> list[float]:
        if det.is_terminal():
            return list(det.scores())
        return [0.0] * det.game.players

    def value(self, det, p: int, opp_weight: float = 0.0) -> float:
        """Seat ``p``'s estimate minus ``opp_weight`` times the best opponent's."""
        est = self.estimates(det)
        if not opp_weight or len(est) < 2:
            return est[p]
        return est[p] - opp_weight * max(e for q, e in enumerate(est) if q != p)

    def utilities(self, det) -> list[float]:
        if det.is_terminal():
            ret = det.returns()
            if not self.margin:
                return ret
            soft = softmax_utilities(list(det.scores()), self.temperature)
            m = self.margin
            return [(1 - m) * r + m * s for r, s in zip(ret, soft, strict=True)]
        return softmax_utilities(self.estimates(det), self.temperature)


class RedRisingEvaluator(Evaluator):
    name = RED_RISING.name
    stop_kind = "action"

    def __init__(
        self, margin: float = 0.3, temperature: float = 12.0, progress: float = 1.0, exact: bool = False
    ) -> None:
        super().__init__(margin)
        self.temperature = temperature
        self.rr = RREval(progress=progress, exact=exact)

    def estimates(self, det) -> list[float]:
        if det.is_terminal():
            return list(det.scores())
        return self.rr.estimates(det)

    def value(self, det, p: int, opp_weight: float = 0.0) -> float:
        if opp_weight or det.is_terminal():
            return super().value(det, p, opp_weight)
        return self.rr.estimates(det, only=p)[p]


class RedNorthEvaluator(Evaluator):
    name = RED_NORTH.name
    stop_kind = "turn"

    def __init__(self, margin: float = 0.0, temperature: float = 1.5, exact: bool = False, **kw) -> None:
        super().__init__(margin)  # ``exact`` is Red Rising's; accepted so one spec fits both games
        self.temperature = temperature
        self.rn = RNEval(temperature=temperature, **kw)

    def estimates(self, det) -> list[float]:
        return self.rn.estimates(det)

    def utilities(self, det) -> list[float]:
        if det.is_terminal():
            ret = det.returns()
            if not self.margin:
                return ret
            soft = softmax_utilities(self.rn.estimates(det), self.temperature)
            m = self.margin
            return [(1 - m) * r + m * s for r, s in zip(ret, soft, strict=True)]
        return softmax_utilities(self.rn.estimates(det), self.temperature)


def evaluator_for(game_name: str | None, **kw) -> Evaluator:
    if game_name is None:
        return Evaluator()
    if game_name not in GAMES:
        raise InvalidOptions(f"no evaluation for game {game_name!r}; known: {', '.join(GAMES)}")
    cls: type[Evaluator] = title(game_name).load("evaluator")
    return cls(**kw)


class EvaluatingBot(Bot):
    """A bot that judges positions with its game's :class:`Evaluator` and whose tuning
    depends on the game: the title's tuning for the bot's ``TUNING`` name
    (:meth:`~redtable.core.title.Title.tuning`) maps a parameter to its default, used (as
    ``self.<parameter>_``) wherever the bot was not given a value for it.

    The game is known only once the bot sees a state (unless given as ``game``), so
    :meth:`_setup` runs at each decision and does its work again only for a new game.
    """

    TUNING = ""  # the bot's name in a title's bot_defaults

    def _init_evaluation(
        self, game: str | None, evaluator: Evaluator | None, eval_options: dict[str, Any] | None
    ) -> None:
        self.game = game
        # a given evaluator is kept; else the game-agnostic one until _setup knows the game
        self.evaluator = evaluator if evaluator is not None else Evaluator()
        self.eval_options = eval_options or {}
        self._fixed_evaluator = evaluator is not None
        self._set_for: str | None = None

    def _setup(self, state: State) -> None:
        """Evaluation and defaults for the game being played (the first time, or a new game)."""
        name = self.game or state.game.name
        if name == self._set_for:
            return
        self._set_for = name
        if not self._fixed_evaluator:
            self.evaluator = evaluator_for(name, **self.eval_options)
        for key, default in title(name).tuning(self.TUNING).items():
            given = getattr(self, key)
            setattr(self, key + "_", default if given is None else given)
