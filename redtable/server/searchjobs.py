"""Search jobs that are not a bot's think, run by the bot pool's search workers: the decisions
of a game's review, and a hint while learning (:mod:`redtable.review`).

A job is a task tuple the worker performs (:func:`perform`) on the state it rebuilt:
``("review", taken, step, budget)`` or ``("hint", budget)``. :func:`review` runs at the pool's
lowest priority (a review waits for every bot), :func:`hint` at a person's (someone waits
at the table). Both answer JSON, never a fallback: a job without an answer raises
:class:`~.botpool.ReviewFailed`.
"""

from __future__ import annotations

from typing import Any

from ..core import State

REVIEW_PRIORITY = 2  # the pool's priority of a review's decisions: after every bot's think (0, 1)
MARGIN = 5.0  # seconds of slack on top of a job's search (a review's decision searches up to 1.25 budgets)


def deadline(budget: str) -> float:
    from ..review import Budget

    b = Budget.parse(budget)
    return MARGIN + (60.0 if b.seconds is None else 1.25 * b.seconds)


def perform(state: State, seed: int, task: tuple) -> dict[str, Any]:
    """In a worker: the task's JSON answer."""
    from ..review import Budget, hint, review_decision

    if task[0] == "hint":
        return hint(state, Budget.parse(task[1]), seed, len(state.history))
    _, taken, step, budget = task
    return review_decision(state, taken, Budget.parse(budget), seed, step).to_json()


async def review(
    pool: Any, key: str, state: State, taken: str, budget: str, seed: int, step: int, game_seed: int
) -> dict[str, Any]:
    """The review of ``state``'s pending decision, whose seat took ``taken``, as JSON
    (:func:`redtable.review.review_decision`); ``key`` is the review's queue in the pool."""
    task = ("review", taken, step, budget)
    return await pool.run_task(key, state, task, deadline(budget), seed, game_seed, REVIEW_PRIORITY)


async def hint(pool: Any, key: str, state: State, budget: str, seed: int, game_seed: int) -> dict[str, Any]:
    """The expert's hint for ``state``'s pending decision (:func:`redtable.review.hint`)."""
    return await pool.run_task(key, state, ("hint", budget), deadline(budget), seed, game_seed, 0)
