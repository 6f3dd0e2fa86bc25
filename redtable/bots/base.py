"""What every bot implements, and the registry of bot specs (:func:`make_bot`)."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod

from ..core import Action, InvalidOptions, State


class Bot(ABC):
    name: str = "bot"

    @abstractmethod
    def choose(self, state: State) -> Action:
        """Pick one of ``state.decision().options`` for ``state.decision().player``.

        A bot may read ``state.decision()`` and ``state.view(player)`` (and, for search,
        ``state.resample(player, rng)``); nothing else of the state. Search bots clone,
        apply and evaluate the resampled states only.
        """


BOT_NAMES = ("random", "heuristic", "ismcts")
_BUDGET = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)(it|s|ms)?$")
_KNOWN_OPTIONS = {"c": float, "playout": str, "cutoff": int, "horizon": int, "samples": int,
                  "budget": int, "opp_weight": float, "exact": int, "temperature": float,
                  "margin": float}
_EVAL_OPTIONS = ("exact", "temperature", "margin")


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """``"2000it"`` / ``"2000"`` -> (2000, None); ``"0.5s"`` -> (None, 0.5); ``"250ms"`` -> (None, 0.25)."""
    m = _BUDGET.match(text.strip().lower())
    if not m:
        raise InvalidOptions(f"bad search budget {text!r}: use e.g. 2000it, 0.5s or 250ms")
    num, unit = m.group(1), m.group(2) or "it"
    if unit == "it":
        if "." in num or int(num) <= 0:
            raise InvalidOptions(f"bad iteration budget {text!r}: a positive whole number of iterations")
        return int(num), None
    seconds = float(num) / (1000.0 if unit == "ms" else 1.0)
    if seconds <= 0:
        raise InvalidOptions(f"bad time budget {text!r}: must be positive")
    return None, seconds


def _parse_options(name: str, fields: list[str], spec: str) -> dict:
    out: dict = {}
    for f in fields:
        key, eq, value = f.partition("=")
        if not eq or key not in _KNOWN_OPTIONS:
            raise InvalidOptions(f"bad option {f!r} in bot spec {spec!r}; "
                                 f"options are key=value with key in {', '.join(_KNOWN_OPTIONS)}")
        try:
            out[key] = _KNOWN_OPTIONS[key](value)
        except ValueError:
            raise InvalidOptions(f"bad value for {key!r} in bot spec {spec!r}: {value!r}") from None
    if name == "ismcts" and not set(out) <= {"c", "playout", "cutoff", "horizon", *_EVAL_OPTIONS}:
        raise InvalidOptions("ismcts takes the options c, playout, cutoff, horizon, exact, "
                             f"temperature, margin (spec {spec!r})")
    if name == "heuristic" and not set(out) <= {"samples", "budget", "opp_weight", "exact"}:
        raise InvalidOptions(f"heuristic takes the options samples, budget, opp_weight, exact (spec {spec!r})")
    if "playout" in out and out["playout"] not in ("cutoff", "greedy", "random"):
        raise InvalidOptions(f"playout must be 'cutoff', 'greedy' or 'random' (spec {spec!r})")
    return out


def make_bot(spec: str, seed: int = 0, game: str | None = None) -> Bot:
    """A bot from its spec: ``random``, ``heuristic``, ``ismcts``, ``ismcts:2000it``, ``ismcts:0.5s``.

    Grammar: ``name[:budget][:key=value...]``. The budget (ISMCTS only) is iterations
    (``2000it`` or ``2000``) or time per decision (``0.5s``, ``250ms``); the default is
    1000 iterations (~3 s a decision in a 4-player Red Rising game, 0.2 s in Red North).
    Tuning options: ``ismcts:1s:c=0.5:playout=greedy:cutoff=8:horizon=32`` (also
    ``exact=1``, ``temperature=12``, ``margin=0.3`` for the evaluation),
    ``heuristic:samples=4:budget=100:opp_weight=0.5:exact=1``. Evaluation options go to
    the game's evaluator (``exact``: Red Rising's exact Gray/Orange scoring). ``game``
    (``"red-rising"`` / ``"red-north"``) fixes the evaluation; by default it follows
    ``state.game.name``.
    """
    from .heuristic import HeuristicBot
    from .ismcts import ISMCTSBot
    from .random_bot import RandomBot

    if not isinstance(spec, str) or not spec.strip():
        raise InvalidOptions(f"bad bot spec {spec!r}; known bots: {', '.join(BOT_NAMES)}")
    fields = spec.strip().split(":")
    name = fields[0].strip().lower()
    if name not in BOT_NAMES:
        raise InvalidOptions(f"unknown bot {spec!r}; known bots: {', '.join(BOT_NAMES)}")
    rest = [f.strip() for f in fields[1:]]
    budget = None
    if rest and "=" not in rest[0]:
        budget = rest.pop(0)
    options = _parse_options(name, rest, spec)
    if name == "random":
        if budget is not None or options:
            raise InvalidOptions(f"the random bot takes no budget or options (spec {spec!r})")
        return RandomBot(seed=seed)
    eval_options = {k: options.pop(k) for k in _EVAL_OPTIONS if k in options}
    if "exact" in eval_options:
        eval_options["exact"] = bool(eval_options["exact"])
    if name == "heuristic":
        if budget is not None:
            raise InvalidOptions(f"the heuristic bot takes no search budget (spec {spec!r})")
        return HeuristicBot(seed=seed, game=game, eval_options=eval_options, **options)
    iterations, seconds = parse_budget(budget) if budget is not None else (1000, None)
    return ISMCTSBot(seed=seed, iterations=iterations, seconds=seconds, game=game,
                     eval_options=eval_options, **options)
