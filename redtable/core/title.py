"""A title as one value: what every consumer needs to know about a game, in one place.

Each rules package exports one :class:`Title` (``redtable/redrising/title.py``'s
``TITLE``); :mod:`redtable.core.registry` lists them. A consumer that needs something of
a title (its engine, the action codec of the environments, the bots' evaluation and
tuning, the terminal renderer, the analysis of a tournament...) reads it from the value,
never by comparing the title's name.

Most parts live in a higher layer than the rules (the codec in ``envs``, the evaluation in
``bots``): a title names them by a dotted path, ``"package.module:attribute"``, resolved
on first use by :meth:`Title.load`, so that importing the registry imports no engine, bot,
numpy or front end. A part may also be given as the object itself (a title defined in a
test). A part a title leaves out falls back to the game-agnostic default of
:data:`DEFAULTS`, the one place where defaults are filled; a part with no default is None.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

LANGS = ("en", "uk", "pl")

# The game-agnostic part used when a title leaves one out (None: the consumer has no
# generic version, and says so when asked for the title's).
DEFAULTS: dict[str, str] = {
    "evaluator": "redtable.bots.evaluation:Evaluator",
    "analysis": "redtable.sim.titleanalysis:Analysis",
    "env_renderer": "redtable.envs.render:render_generic",
}

# The tuning of the evaluating bots when a title gives none for a bot (per bot name).
BOT_DEFAULTS: dict[str, dict[str, Any]] = {
    "heuristic": {"samples": 4, "budget": 40, "opp_weight": 0.5},
    "ismcts": {"c": 0.7, "playout": "random", "cutoff": 0},
    "expert": {"c": 0.7, "reuse": 1, "leaf": "playout", "turns": 8, "mast": 0.0},
    # the policy network's training recipe (bots/train_policy.py)
    "policy": {"games": 30, "teacher": "expert:30it", "epochs": 20, "rl_games": 600, "eval_games": 100},
}


def resolve(ref: Any) -> Any:
    """The object a part names: ``"module:attribute"`` (imported now), else ``ref`` itself."""
    if not isinstance(ref, str):
        return ref
    module, _, attr = ref.partition(":")
    if not attr:
        raise ValueError(f"a title's part is named 'module:attribute', got {ref!r}")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True, eq=False)
class Title:
    """Everything a consumer reads about one title (see the module docstring).

    Parts (a dotted path or the object):

    * ``game``: the :class:`~redtable.core.protocol.Game` class;
    * ``codec``: a function of no argument returning the environments' ``ActionCodec``;
      ``encoder``: the observation encoder (``encode(view)``); ``observer``: the class of
      the incremental observer (``observe(state, seat)``, equal to the encoder's);
      ``env_renderer``: ``(view, last) -> str`` for an environment's ``render()``;
      ``openspiel``: the OpenSpiel ``GameDef``; ``gym_id``: the Gymnasium id registered;
    * ``evaluator``: the bots' ``Evaluator`` class; ``learned``: the learned evaluation's
      ``(features, phase formula, featurizer class)``; ``bot_defaults``: per bot name
      (``heuristic``, ``ismcts``, ``expert``), its tuning for this title;
    * ``terminal``: the terminal's renderer (``render_view(view, ...)``);
    * ``web_module``: the page's module that draws the title (``static/js/<name>.js``);
      ``rules_page``, ``cards_page``: ``(lang) -> dict`` for the page's rules and card
      gallery; ``final_hands``: ``async (state, off_loop) -> list`` of the revealed hands
      and extras; ``running_score``: ``(view, events, seat) -> dict``; ``score_events``:
      the event kinds the running score reads;
    * ``analysis``: the balance analysis of many games (``redtable.sim.titleanalysis``);
    * ``review_facts``: ``(view, seat) -> {fact: number}``, the seat's public facts the review's
      sentences compare (``redtable.review.consequences``; none: the review says no consequence);
      ``review_calibration``: per number of players, per round (None: a title without rounds),
      the review's ``(slope, intercept)`` map of the search's chances (``redtable.review.calibration``).
    """

    name: str
    game: Any
    players: tuple[int, int]
    display: Mapping[str, str] = field(default_factory=dict)
    codec: Any = None
    encoder: Any = None
    observer: Any = None
    env_renderer: Any = None
    openspiel: Any = None
    gym_id: str | None = None
    evaluator: Any = None
    learned: Any = None
    bot_defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    terminal: Any = None
    web_module: str | None = None
    rules_page: Any = None
    cards_page: Any = None
    final_hands: Any = None
    running_score: Any = None
    score_events: tuple[str, ...] = ()
    analysis: Any = None
    review_facts: Any = None
    review_calibration: Mapping[int, Mapping[int | None, tuple[float, float]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        lo, hi = self.players
        if not 1 <= lo <= hi:
            raise ValueError(f"{self.name}: players must be (min, max) with 1 <= min <= max, got {self.players}")

    def has(self, part: str) -> bool:
        """Whether the title gives ``part`` or a default fills it."""
        return getattr(self, part) is not None or part in DEFAULTS

    def load(self, part: str) -> Any:
        """The object of ``part`` (its default when the title leaves it out; None if none)."""
        if part not in _PARTS:
            raise AttributeError(f"a title has no part {part!r}")
        key = (self, part)
        try:
            return _loaded[key]
        except KeyError:
            pass
        ref = getattr(self, part)
        if ref is None:
            ref = DEFAULTS.get(part)
        obj = None if ref is None else resolve(ref)
        _loaded[key] = obj
        return obj

    def display_name(self, lang: str = "en") -> str:
        """The title's name in ``lang`` (English, then the name, when not given)."""
        return self.display.get(lang) or self.display.get("en") or self.name

    def tuning(self, bot: str) -> Mapping[str, Any]:
        """The tuning of bot ``bot`` for this title (the title's, else :data:`BOT_DEFAULTS`)."""
        got = self.bot_defaults.get(bot)
        return got if got is not None else BOT_DEFAULTS.get(bot, {})


_PARTS = {f.name for f in fields(Title)}
_loaded: dict[tuple[Title, str], Any] = {}
