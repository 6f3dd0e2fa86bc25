"""Run many games over several processes, with results independent of the worker count.

A *task* is a picklable callable ``task(index) -> result`` (a module-level function, or
an instance of a module-level class with ``__call__``) that plays game ``index`` from
its own seed (``game_seed(seed, index)``). Because a game never depends on which process
plays it or on what that process played before, ``run_games`` returns the same list for
any ``workers``: it sorts the results by index.

Work is cut into *chunks* of consecutive indices; a *backend* (the interface and the
worker-side pieces every backend shares are in :mod:`.backend`) runs chunks somewhere and
yields each finished chunk as a list of ``(index, result)`` pairs, in any order::

    def backend(task, chunks, workers) -> Iterator[list[tuple[int, Any]] | Tick]

Progress is per game, not per chunk: while a chunk runs, its worker reports each game it
finishes (at most one message per :data:`TICK_SECONDS` per worker), and the backend yields
a :class:`Tick` ``(first index of the chunk, games of it done)`` for it; while it waits it
yields a heartbeat ``Tick(None, 0)`` every :data:`POLL_SECONDS` so that a progress display
can show time passing. A backend that yields only chunks still works (progress then moves
per chunk).

``"local"`` runs in this process (``workers == 1``) or in a ``multiprocessing`` pool;
``"ray"`` runs chunks as Ray tasks on a local Ray or a cluster (:mod:`.ray_backend`,
imported only when used: the dependencies run ``parallel -> ray_backend -> backend``).
Another backend (a cluster queue...) is one more entry in
:data:`BACKENDS` (:func:`register_backend`) and callers only pass its name.

The pool uses the ``fork`` start method on Linux (fast start, nothing to re-import) and
works the same under ``spawn`` (the default on macOS and Windows; or
``REDTABLE_START_METHOD=spawn``): tasks and the chunk runner are module-level and
picklable, and nothing relies on state inherited from the parent.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .backend import (
    HEARTBEAT,
    POLL_SECONDS,
    TICK_SECONDS,
    Backend,
    Chunk,
    Output,
    Preparable,
    Reporter,
    Task,
    Tick,
    run_chunk,
)

__all__ = [
    "BACKENDS",
    "HEARTBEAT",
    "POLL_SECONDS",
    "TICK_SECONDS",
    "Backend",
    "Chunk",
    "Reporter",
    "Tick",
    "default_workers",
    "local_backend",
    "make_chunks",
    "prepare_backend",
    "register_backend",
    "run_chunk",
    "run_games",
    "start_method",
]


def make_chunks(indices: Sequence[int], workers: int, chunk_size: int | None = None) -> list[Chunk]:
    """Consecutive slices of ``indices``: small enough to balance the load and show progress
    (about 32 chunks per worker, so slow games such as search bots' go one by one), big
    enough (up to 64 games) that sending them costs little next to playing them."""
    n = len(indices)
    if chunk_size is None:
        chunk_size = max(1, min(64, n // (max(1, workers) * 32)))
    return [list(indices[k : k + chunk_size]) for k in range(0, n, chunk_size)]


def default_workers() -> int:
    return os.cpu_count() or 1


def start_method() -> str:
    """``REDTABLE_START_METHOD`` if set, else ``fork`` on Linux, else ``spawn`` (macOS, Windows)."""
    wanted = os.environ.get("REDTABLE_START_METHOD")
    methods = mp.get_all_start_methods()
    if wanted:
        if wanted not in methods:
            raise ValueError(f"REDTABLE_START_METHOD={wanted!r}; this platform has {methods}")
        return wanted
    return "fork" if sys.platform.startswith("linux") and "fork" in methods else "spawn"


def local_backend(
    task: Callable[[int], Any], chunks: list[Chunk], workers: int, method: str | None = None
) -> Iterator[list[tuple[int, Any]] | Tick]:
    """This process, game by game, for one worker; else a process pool fed chunk by chunk,
    whose workers report each finished game on a queue."""
    workers = min(workers, len(chunks))
    if workers <= 1:
        for chunk in chunks:
            for i in chunk:
                yield [(i, task(i))]
        return
    ctx = mp.get_context(method or start_method())
    ticks = ctx.Queue()
    # leaving the block (all done, an error, Ctrl-C, the caller dropping us) terminates the pool
    with ctx.Pool(workers, initializer=_init_worker, initargs=(ticks,)) as pool:
        jobs = pool.imap_unordered(_star_run_chunk, [(task, c) for c in chunks])
        for _ in chunks:
            while True:
                try:
                    done = jobs.next(timeout=POLL_SECONDS)
                except mp.TimeoutError:
                    done = None
                yield from _drain(ticks)
                if done is not None:
                    yield done
                    break
                yield HEARTBEAT
    ticks.close()


def _drain(ticks) -> Iterator[Tick]:
    while True:
        try:
            first, done = ticks.get_nowait()
        except (queue.Empty, OSError, EOFError):
            return
        yield Tick(first, done)


_worker_report = None  # in a pool worker: where finished games are reported


def _init_worker(ticks) -> None:
    """Ctrl-C is the parent's to handle: it stops the pool, and no worker prints a traceback.
    A worker never waits at exit for reports the parent no longer reads."""
    global _worker_report
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ticks.cancel_join_thread()
    _worker_report = Reporter(lambda first, done: ticks.put((first, done)))


def _star_run_chunk(args: tuple[Callable[[int], Any], Chunk]) -> list[tuple[int, Any]]:
    return run_chunk(*args, report=_worker_report)


class _RayOnFirstUse:
    """The Ray backend (:mod:`.ray_backend`), imported when a run or ``prepare`` needs it:
    Ray is optional, and importing it is slow."""

    def __call__(self, task: Task, chunks: list[Chunk], workers: int) -> Output:
        from .ray_backend import ray_backend

        return ray_backend(task, chunks, workers)

    def prepare(self, address: str | None, workers: int | None) -> None:
        from .ray_backend import connect

        connect(address, workers)


BACKENDS: dict[str, Backend] = {"local": local_backend, "ray": _RayOnFirstUse()}


def register_backend(name: str, backend: Backend) -> None:
    """Make ``run_games(..., backend=name)`` use ``backend`` (e.g. a Ray backend)."""
    BACKENDS[name] = backend


def prepare_backend(name: str, address: str | None = None, workers: int | None = None) -> None:
    """Check ``name`` and connect its backend before any game starts, so that a missing
    library or an unreachable cluster is reported at once with what to do about it.

    A backend with ``prepare(address, workers)`` (:class:`~.backend.Preparable`) does the
    connecting: for Ray, ``address`` names a cluster to join; without one, Ray starts
    locally with ``workers`` CPUs. Other backends take no address. Raises ``ValueError``
    naming the problem and what is allowed.
    """
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; known backends: {', '.join(BACKENDS)}")
    backend = BACKENDS[name]
    if isinstance(backend, Preparable):
        backend.prepare(address, workers)
    elif address is not None:
        clusters = " or ".join(f"--backend {n}" for n, b in BACKENDS.items() if isinstance(b, Preparable))
        raise ValueError(f"--address joins a cluster and needs {clusters or 'a cluster backend'}, not {name!r}")


def run_games(
    task: Callable[[int], Any],
    indices: Iterable[int],
    workers: int = 1,
    backend: str = "local",
    *,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Any]:
    """``[task(i) for i in sorted(indices)]``, spread over ``workers``.

    ``progress(done)`` is called in this process with the number of games finished so far
    (never decreasing): as games finish, each worker's games one by one (or a few at once
    when they end within :data:`TICK_SECONDS`), and with an unchanged count about every
    :data:`POLL_SECONDS` while the workers play on. The result does not depend on
    ``workers``, ``backend`` or ``chunk_size`` (as long as ``task`` itself is deterministic).
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    try:
        run = BACKENDS[backend]
    except KeyError:
        raise ValueError(f"unknown backend {backend!r}; known backends: {', '.join(BACKENDS)}") from None
    order = sorted(indices)
    if not order:
        return []
    chunks = make_chunks(order, workers, chunk_size)
    results: dict[int, Any] = {}
    partial: dict[int, int] = {}  # first index of a running chunk -> its games reported done
    for item in run(task, chunks, workers):
        if isinstance(item, Tick):
            if item.first is not None and item.first not in results:
                partial[item.first] = max(partial.get(item.first, 0), item.done)
        else:
            results.update(item)
            for i, _ in item:
                partial.pop(i, None)
        if progress is not None:
            progress(len(results) + sum(partial.values()))
    return [results[i] for i in order]
