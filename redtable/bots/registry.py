"""The bot specs: which bots exist and how a spec string builds one (:func:`make_bot`).

A spec is ``name[:budget][:key=value...]``: ``random``, ``heuristic:samples=4``,
``ismcts:2000it``, ``ismcts:0.5s:c=0.5``, ``expert:1s``, ``policy``. Every bot is registered here explicitly, in
:data:`BOTS` (one :class:`BotKind` each: the options it takes and how to build it), so
that this module sits above the bots and nothing below imports it: the dependencies run
``registry -> heuristic / ismcts / expert / random_bot -> base``. Another bot is one more entry
(:func:`register_bot`), and callers only pass its name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core import InvalidOptions
from .base import Bot
from .expert import LEAVES, ExpertBot
from .heuristic import HeuristicBot
from .ismcts import PLAYOUTS, ISMCTSBot
from .random_bot import RandomBot

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_BUDGET = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)(it|s|ms)?$")

OPTION_TYPES: dict[str, Callable[[str], object]] = {
    "c": float,
    "playout": str,
    "cutoff": int,
    "horizon": int,
    "samples": int,
    "budget": int,
    "opp_weight": float,
    "exact": int,
    "temperature": float,
    "margin": float,
    "reuse": int,
    "leaf": str,
    "turns": int,
    "mast": float,
}
"""Every ``key=value`` option any bot takes, with the type its value is read as."""

EVAL_OPTIONS = ("exact", "temperature", "margin")
"""Options that go to the game's evaluator (``eval_options``), not to the bot itself."""

DEFAULT_ITERATIONS = 1000


@dataclass(frozen=True)
class BotSpec:
    """A parsed spec: the bot's name, its search budget (as written) and its options."""

    text: str
    name: str
    budget: str | None
    options: dict[str, object]

    def split_eval_options(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the bot's own options, the evaluator's), ``exact`` made a bool."""
        own = dict(self.options)
        evals = {k: own.pop(k) for k in EVAL_OPTIONS if k in own}
        if "exact" in evals:
            evals["exact"] = bool(evals["exact"])
        return own, evals


@dataclass(frozen=True)
class BotKind:
    """One kind of bot: its spec name, the options and budget it accepts, and its builder
    ``build(spec, seed, game) -> Bot`` (called with a spec already checked against these)."""

    name: str
    build: Callable[[BotSpec, int, str | None], Bot]
    options: tuple[str, ...] = ()
    takes_budget: bool = False
    summary: str = ""


def _random(spec: BotSpec, seed: int, game: str | None) -> Bot:
    return RandomBot(seed=seed)


def _heuristic(spec: BotSpec, seed: int, game: str | None) -> Bot:
    own, evals = spec.split_eval_options()
    return HeuristicBot(seed=seed, game=game, eval_options=evals, **own)


def _ismcts(spec: BotSpec, seed: int, game: str | None) -> Bot:
    own, evals = spec.split_eval_options()
    iterations, seconds = parse_budget(spec.budget) if spec.budget is not None else (DEFAULT_ITERATIONS, None)
    return ISMCTSBot(seed=seed, iterations=iterations, seconds=seconds, game=game, eval_options=evals, **own)


def _expert(spec: BotSpec, seed: int, game: str | None) -> Bot:
    own, evals = spec.split_eval_options()
    iterations, seconds = parse_budget(spec.budget) if spec.budget is not None else (DEFAULT_ITERATIONS, None)
    return ExpertBot(seed=seed, iterations=iterations, seconds=seconds, game=game, eval_options=evals, **own)


BOTS: dict[str, BotKind] = {}
"""Spec name -> :class:`BotKind`, in the order error messages list them."""


def register_bot(kind: BotKind) -> None:
    """Make ``make_bot(kind.name + ...)`` build this kind of bot (a new name, or a replacement)."""
    unknown = [k for k in kind.options if k not in OPTION_TYPES]
    if unknown:
        raise ValueError(f"bot {kind.name!r}: unknown options {unknown}; known: {', '.join(OPTION_TYPES)}")
    if not _NAME.match(kind.name):
        raise ValueError(f"bot name {kind.name!r}: lower case letters, digits, '_' or '-', starting with a letter")
    BOTS[kind.name] = kind


register_bot(BotKind("random", _random, summary="uniformly random legal play"))
register_bot(
    BotKind(
        "heuristic",
        _heuristic,
        options=("samples", "budget", "opp_weight", "exact"),
        summary="greedy: the best option for the rest of its own turn, by the game's evaluation",
    )
)
register_bot(
    BotKind(
        "ismcts",
        _ismcts,
        options=("c", "playout", "cutoff", "horizon", *EVAL_OPTIONS),
        takes_budget=True,
        summary="information-set Monte Carlo tree search",
    )
)
register_bot(
    BotKind(
        "expert",
        _expert,
        options=("c", "reuse", "leaf", "turns", "mast", *EVAL_OPTIONS),
        takes_budget=True,
        summary="the strongest: ISMCTS with a learned evaluation that keeps its tree between decisions",
    )
)


def _policy(spec: BotSpec, seed: int, game: str | None) -> Bot:
    try:
        from .policy import PolicyBot  # numpy and the shipped weights load only when a policy bot is made
    except ImportError as e:  # numpy is not a core dependency
        raise InvalidOptions(f"the policy bot needs numpy (pip install 'redtable[rl]'): {e}") from None

    temperature = spec.options.get("temperature", 0.0)
    return PolicyBot(seed=seed, game=game, temperature=temperature if isinstance(temperature, float) else 0.0)


register_bot(
    BotKind(
        "policy",
        _policy,
        options=("temperature",),
        summary="a trained network, one forward pass a move (imitation of the expert, then self-play)",
    )
)


def bot_names() -> tuple[str, ...]:
    return tuple(BOTS)


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


def _parse_options(fields: list[str], spec: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in fields:
        key, eq, value = f.partition("=")
        if not eq or key not in OPTION_TYPES:
            raise InvalidOptions(
                f"bad option {f!r} in bot spec {spec!r}; options are key=value with key in {', '.join(OPTION_TYPES)}"
            )
        try:
            out[key] = OPTION_TYPES[key](value)
        except ValueError:
            raise InvalidOptions(f"bad value for {key!r} in bot spec {spec!r}: {value!r}") from None
    return out


def parse_spec(spec: str) -> tuple[BotKind, BotSpec]:
    """Check a spec against the registered bots; InvalidOptions names what is wrong and what is allowed."""
    known = ", ".join(BOTS)
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidOptions(f"bad bot spec {spec!r}; known bots: {known}")
    fields = spec.strip().split(":")
    name = fields[0].strip().lower()
    kind = BOTS.get(name)
    if kind is None:
        raise InvalidOptions(f"unknown bot {spec!r}; known bots: {known}")
    rest = [f.strip() for f in fields[1:]]
    budget = rest.pop(0) if rest and "=" not in rest[0] else None
    options = _parse_options(rest, spec)
    if not kind.options and not kind.takes_budget and (budget is not None or options):
        raise InvalidOptions(f"the {name} bot takes no budget or options (spec {spec!r})")
    if not set(options) <= set(kind.options):
        raise InvalidOptions(f"{name} takes the options {', '.join(kind.options)} (spec {spec!r})")
    if budget is not None and not kind.takes_budget:
        raise InvalidOptions(f"the {name} bot takes no search budget (spec {spec!r})")
    if budget is not None:
        parse_budget(budget)
    if "playout" in options and options["playout"] not in PLAYOUTS:
        raise InvalidOptions(f"playout must be {_either(PLAYOUTS)} (spec {spec!r})")
    if "leaf" in options and options["leaf"] not in LEAVES:
        raise InvalidOptions(f"leaf must be {_either(LEAVES)} (spec {spec!r})")
    turns = options.get("turns")
    if isinstance(turns, int) and turns < 1:
        raise InvalidOptions(f"turns must be at least 1 (spec {spec!r})")
    mast = options.get("mast")
    if isinstance(mast, float) and not 0.0 <= mast <= 1.0:
        raise InvalidOptions(f"mast must be a probability between 0 and 1 (spec {spec!r})")
    return kind, BotSpec(spec, name, budget, options)


def _either(words: tuple[str, ...]) -> str:
    quoted = [repr(w) for w in words]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else quoted[0]


def make_bot(spec: str, seed: int = 0, game: str | None = None) -> Bot:
    """A bot from its spec: ``random``, ``heuristic``, ``ismcts``, ``ismcts:2000it``, ``ismcts:0.5s``.

    Grammar: ``name[:budget][:key=value...]``. The budget (ISMCTS and expert) is iterations
    (``2000it`` or ``2000``) or time per decision (``0.5s``, ``250ms``); the default is
    1000 iterations (~3 s a decision in a 4-player Red Rising game, 0.2 s in Red North).
    Tuning options: ``ismcts:1s:c=0.5:playout=greedy:cutoff=8:horizon=32`` (also
    ``exact=1``, ``temperature=12``, ``margin=0.3`` for the evaluation),
    ``heuristic:samples=4:budget=100:opp_weight=0.5:exact=1``,
    ``expert:1s:c=0.7:leaf=learned:turns=8:reuse=1:mast=0.5`` (:mod:`.expert`). Evaluation options go to
    the game's evaluator (``exact``: Red Rising's exact Gray/Orange scoring). ``game``
    (a title's name) fixes the evaluation; by default it follows
    ``state.game.name``.
    """
    kind, parsed = parse_spec(spec)
    return kind.build(parsed, seed, game)
