"""The expert's review of one seat's decisions in a finished game.

For each decision of the seat that had a choice (a single option is no decision), the
expert (:class:`~redtable.bots.expert.ExpertBot`, a fresh one per decision) searches from
that moment **through the seat's eyes only**: the search reads the real state through
``decision()`` and ``resample(seat, rng)`` alone, so every determinization is a re-deal of
what the seat could not see, consistent with what it had seen; the cards revealed later,
or at the end, never enter. The review of a decision is therefore a function of the seat's
information set, the budget and the seed (tested: re-dealing everything hidden from the
seat leaves it unchanged).

From the search's root (per option: visits and summed utility of the seat, a win chance
in [0, 1]):

* ``preferred``: the option the expert plays (most visits: its own choice at that budget);
* ``win_preferred`` / ``win_taken``: the mean utility of the preferred and the taken option;
  when the search visited the taken option too little to say (fewer than an eighth of its
  iterations), a second search whose first move is always the taken option adds a quarter
  budget of estimates to it;
* ``win_before``: the root's value, the visit-weighted mean over all options (what the seat
  could expect before choosing);
* ``mark``: the loss ``win_preferred - win_taken`` over 5 points is a mistake, over 15 a
  blunder.

The chances are the search's mapped by the title's calibration (:mod:`.calibration`;
``calibrated=False``: the raw ones, which the calibration bench fits the map to).

The taken and the preferred option are then played forward from the same re-deals of the
seat's information set by the search's own playout policy (its MAST statistics, a random
move otherwise) to a horizon, the end of the round or of the turn (:mod:`.consequences`):

* ``why``: the facts the seat can know (the Sovereign token, Helium, Influence, the Fleet
  Track, VP, Outposts...) in which the preferred option does better, for the words;
* games played in rounds that end in a scoring (``State.round_number()``, Red North's
  Resolution) also get the expected VP the seat scores at the end of the round after each.

Budget: iterations (deterministic given the seed; the tests use them) or seconds per
decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots.common import CanonicalRng, seed_of
from ..bots.expert import ExpertBot
from ..bots.ismcts import Node, TurnStartPlayout
from ..core import Action, GameRecord, State, make_game
from ..core.errors import RedtableError
from .calibration import calibrate
from .consequences import Consequence, compare, facts_of, play_forward

MISTAKE = 0.05  # a loss of more than 5 points of winning chances
BLUNDER = 0.15  # more than 15
DEFAULT_BUDGET = "0.2s"
MIN_SHARE = 8  # the taken option needs 1/MIN_SHARE of the visits, else a search of its own
EXTRA_SHARE = 4  # that search's budget: 1/EXTRA_SHARE of the decision's
ROUND_SAMPLES = 24  # re-deals per option for the expected VP of a round (iteration budgets scale it)


class ReviewCancelled(RedtableError):
    """The review was stopped (its client left, or the server shuts down)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Search per decision: ``iterations`` (deterministic) or ``seconds`` (wall clock)."""

    iterations: int | None = None
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"0.2s"``, ``"250ms"``, ``"400it"`` (as bot specs write budgets)."""
        from ..bots.registry import parse_budget

        iterations, seconds = parse_budget(text)
        return cls(iterations, seconds)

    def part(self, share: int) -> Budget:
        if self.iterations is not None:
            return Budget(max(16, self.iterations // share), None)
        return Budget(None, (self.seconds or 0.0) / share)

    def text(self) -> str:
        return f"{self.iterations}it" if self.iterations is not None else f"{self.seconds:g}s"


def mark_of(loss: float) -> str | None:
    """``None``, ``"mistake"`` (more than 5 points lost) or ``"blunder"`` (more than 15)."""
    if loss > BLUNDER:
        return "blunder"
    if loss > MISTAKE:
        return "mistake"
    return None


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """The review of one decision (the words are rendered from it by the front ends)."""

    step: int  # its index in the record's actions
    player: int
    kind: str  # the decision's kind (as the game names it)
    taken: Action
    preferred: Action
    win_before: float
    win_taken: float
    win_preferred: float
    round: int | None = None  # a game in rounds: the round, and the expected VP at its end
    vp_taken: float | None = None
    vp_preferred: float | None = None
    why: tuple[Consequence, ...] = ()  # what the preferred option does better (:mod:`.consequences`)

    @property
    def loss(self) -> float:
        return max(0.0, self.win_preferred - self.win_taken)

    @property
    def mark(self) -> str | None:
        return mark_of(self.loss)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "step": self.step,
            "taken": self.taken,
            "preferred": self.preferred,
            "win_before": round(self.win_before, 4),
            "win_taken": round(self.win_taken, 4),
            "win_preferred": round(self.win_preferred, 4),
            "mark": self.mark,
            "why": [c.to_json() for c in self.why],
        }
        if self.round is not None:  # Red North: the round and what the choices score at its Resolution
            out["round"] = self.round
            out["vp_taken"] = None if self.vp_taken is None else round(self.vp_taken, 3)
            out["vp_preferred"] = None if self.vp_preferred is None else round(self.vp_preferred, 3)
        return out


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    decisions: tuple[DecisionReview, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": [d.to_json() for d in self.decisions]}


def _mean(node: Node | None) -> float:
    return node.w / node.n if node is not None and node.n else 0.0


def review_decision(
    state: State, taken: Action, budget: Budget, seed: int = 0, step: int = 0, calibrated: bool = True
) -> DecisionReview:
    """Review the pending decision of ``state`` whose seat took ``taken``.

    Reads ``state`` only through ``pending()``/``decision()`` and ``resample(seat, ...)``
    (the bots' contract): nothing the seat could not know."""
    d = state.pending()
    seat = d.player
    if taken not in d.options:
        raise RedtableError(f"step {step}: {taken!r} is not one of the options")
    bot = ExpertBot(seed=seed_of(seed, step), iterations=budget.iterations, seconds=budget.seconds)
    preferred = bot.choose(state)
    root = bot.last_root
    assert root is not None  # a decision with a choice was searched
    kids = root.children
    visits = sum(ch.n for ch in kids.values())
    win_before = sum(ch.w for ch in kids.values()) / visits if visits else 0.0
    win_preferred = _mean(kids.get(preferred))
    if taken == preferred:
        win_taken = win_preferred
    else:
        ch = kids.get(taken)
        n, w = (ch.n, ch.w) if ch is not None else (0, 0.0)
        if n * MIN_SHARE < max(visits, 1):
            extra = budget.part(EXTRA_SHARE)
            bot.iterations, bot.seconds = extra.iterations, extra.seconds
            forced = bot.search(state, seat, None, only=taken).children.get(taken)
            if forced is not None:
                n, w = n + forced.n, w + forced.w
        win_taken = w / n if n else 0.0
    forward = Forward(bot, state, seat, budget, seed_of(seed, step, 3))
    probe = state.resample(seat, CanonicalRng(seed_of(seed, step, 2)))  # the seat's view, as a bot reads it
    gains_t, facts_t = forward(taken)
    why: tuple[Consequence, ...]
    if preferred == taken:
        gains_p, why = gains_t, ()
    else:
        gains_p, facts_p = forward(preferred)
        now = facts_of(probe, seat)
        why = tuple(compare(now, facts_t, facts_p)) if now is not None else ()
    rnd = vp_taken = vp_preferred = None
    if probe.round_number() is not None:  # a game in rounds: the VP expected at the round's end
        rnd = probe.round_number()
        vp_taken, vp_preferred = sum(gains_t) / len(gains_t), sum(gains_p) / len(gains_p)
    if calibrated:
        win_before, win_taken, win_preferred = (calibrate(probe, p) for p in (win_before, win_taken, win_preferred))
    return DecisionReview(
        step, seat, d.kind, taken, preferred, win_before, win_taken, win_preferred, rnd, vp_taken, vp_preferred, why
    )


class Forward:
    """An option played forward from re-deals of ``seat``'s information set to the horizon
    (:func:`.consequences.play_forward`), with the search's playout statistics (``bot``'s,
    after its search): ``forward(option)`` is ``(VP gains, facts)`` per re-deal, the same
    re-deals for every option."""

    def __init__(self, bot: ExpertBot, state: State, seat: int, budget: Budget, seed: int) -> None:
        playout = bot.playout_policy
        self.stats = playout.stats if isinstance(playout, TurnStartPlayout) and playout.eps else None
        self.stop_kind = bot.evaluator.stop_kind
        self.samples = ROUND_SAMPLES if budget.iterations is None else max(4, min(64, budget.iterations // 16))
        self.state, self.seat, self.seed = state, seat, seed

    def __call__(self, option: Action) -> tuple[list[float], list[dict[str, float]]]:
        return play_forward(self.state, self.seat, option, self.samples, self.seed, self.stats, self.stop_kind)


def decision_steps(record: GameRecord, seat: int) -> list[int]:
    """The steps of the record where ``seat`` had a choice (more than one option)."""
    st = make_game(record.game, record.players, **record.options).new_initial_state(record.seed)
    out = []
    for i, a in enumerate(record.actions):
        d = st.pending()
        if d.player == seat and len(d.options) > 1:
            out.append(i)
        st.apply(a)
    return out


def review_record(
    record: GameRecord,
    seat: int,
    budget: Budget,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    calibrated: bool = True,
) -> Review:
    """Review every decision of ``seat`` in a finished game's record. ``progress(done, total)``
    after each decision; ``cancelled()`` true stops the review (:class:`ReviewCancelled`)."""
    from ..core import replay

    final = replay(record)  # checks every step
    if not final.is_terminal():
        raise RedtableError("the game is not finished: only a finished game is reviewed")
    if not 0 <= seat < record.players:
        raise RedtableError(f"seat must be from 0 to {record.players - 1}, got {seat}")
    steps = set(decision_steps(record, seat))
    total = len(steps)
    if progress is not None:
        progress(0, total)
    st = make_game(record.game, record.players, **record.options).new_initial_state(record.seed)
    out: list[DecisionReview] = []
    for i, a in enumerate(record.actions):
        if i in steps:
            if cancelled is not None and cancelled():
                raise ReviewCancelled("the review was stopped")
            out.append(review_decision(st, a, budget, seed, i, calibrated))
            if progress is not None:
                progress(len(out), total)
        st.apply(a)
    return Review(seat, tuple(out))
