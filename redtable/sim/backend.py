"""What a backend of :func:`~redtable.sim.parallel.run_games` is, and the pieces every
backend's workers share.

A *backend* runs chunks of game indices somewhere and yields each finished chunk as a
list of ``(index, result)`` pairs, in any order, with :class:`Tick` progress reports in
between (see :mod:`.parallel` for the protocol of ticks and heartbeats)::

    backend(task, chunks, workers) -> Iterator[list[tuple[int, Any]] | Tick]

A backend may also have ``prepare(address, workers)``: connect (to a cluster at
``address``) before any game starts, raising ``ValueError`` with what to do about a
missing library or an unreachable cluster.

This module imports nothing of the package: :mod:`.parallel` (which chooses a backend by
name) and every backend (:mod:`.ray_backend`...) import it, and never each other the
other way round.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

Chunk = list[int]
Task = Callable[[int], Any]

TICK_SECONDS = 0.02  # a worker reports finished games at most this often
POLL_SECONDS = 0.1  # a backend waiting for results looks at the reports this often


class Tick(NamedTuple):
    """``done`` games of the chunk starting at index ``first`` have finished (the chunk's own
    result is still to come); ``first is None``: nothing new, the backend is waiting."""

    first: int | None
    done: int


HEARTBEAT = Tick(None, 0)

Output = Iterator["list[tuple[int, Any]] | Tick"]


class Backend(Protocol):
    """Runs the chunks (a plain generator function is a backend)."""

    def __call__(self, task: Task, chunks: list[Chunk], workers: int) -> Output: ...


@runtime_checkable
class Preparable(Protocol):
    """A backend that connects before the first game (``--address`` goes to it)."""

    def prepare(self, address: str | None, workers: int | None) -> None: ...


class Reporter:
    """``reporter(first, done)`` in a worker: passes it on to ``send`` unless the last report
    went less than ``every`` seconds ago (a later report carries the count)."""

    def __init__(self, send: Callable[[int, int], None], every: float = TICK_SECONDS) -> None:
        self.send = send
        self.every = every
        self.last = float("-inf")

    def __call__(self, first: int, done: int) -> None:
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self.send(first, done)


def run_chunk(
    task: Task, chunk: Sequence[int], report: Callable[[int, int], None] | None = None
) -> list[tuple[int, Any]]:
    """Play the games of one chunk (in whatever process this is called); ``report(first
    index of the chunk, games done)`` after each game."""
    out = []
    for i in chunk:
        out.append((i, task(i)))
        if report is not None:
            report(chunk[0], len(out))
    return out
