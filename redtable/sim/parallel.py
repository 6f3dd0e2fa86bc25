"""Run many games over several processes, with results independent of the worker count.

A *task* is a picklable callable ``task(index) -> result`` (a module-level function, or
an instance of a module-level class with ``__call__``) that plays game ``index`` from
its own seed (``game_seed(seed, index)``). Because a game never depends on which process
plays it or on what that process played before, ``run_games`` returns the same list for
any ``workers``: it sorts the results by index.

Work is cut into *chunks* of consecutive indices; a *backend* runs chunks somewhere and
yields each finished chunk as a list of ``(index, result)`` pairs, in any order::

    def backend(task, chunks, workers) -> Iterator[list[tuple[int, Any]]]

``"local"`` runs in this process (``workers == 1``) or in a ``multiprocessing`` pool;
``"ray"`` runs chunks as Ray tasks on a local Ray or a cluster (:mod:`.ray_backend`,
imported only when used). Another backend (a cluster queue...) is one more entry in
:data:`BACKENDS` (:func:`register_backend`) and callers only pass its name.

The pool uses the ``fork`` start method on Linux (fast start, nothing to re-import) and
works the same under ``spawn`` (the default on macOS and Windows; or
``REDTABLE_START_METHOD=spawn``): tasks and the chunk runner are module-level and
picklable, and nothing relies on state inherited from the parent.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
from typing import Any, Callable, Iterable, Iterator, Sequence

Chunk = list[int]
Backend = Callable[[Callable[[int], Any], list[Chunk], int], Iterator[list[tuple[int, Any]]]]


def run_chunk(task: Callable[[int], Any], chunk: Sequence[int]) -> list[tuple[int, Any]]:
    """Play the games of one chunk (in whatever process this is called)."""
    return [(i, task(i)) for i in chunk]


def make_chunks(indices: Sequence[int], workers: int, chunk_size: int | None = None) -> list[Chunk]:
    """Consecutive slices of ``indices``: small enough to balance the load and show progress
    (about 32 chunks per worker, so slow games such as search bots' go one by one), big
    enough (up to 64 games) that sending them costs little next to playing them."""
    n = len(indices)
    if chunk_size is None:
        chunk_size = max(1, min(64, n // (max(1, workers) * 32)))
    return [list(indices[k:k + chunk_size]) for k in range(0, n, chunk_size)]


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


def local_backend(task: Callable[[int], Any], chunks: list[Chunk], workers: int,
                  method: str | None = None) -> Iterator[list[tuple[int, Any]]]:
    """This process for one worker, else a process pool fed chunk by chunk."""
    workers = min(workers, len(chunks))
    if workers <= 1:
        for chunk in chunks:
            yield run_chunk(task, chunk)
        return
    ctx = mp.get_context(method or start_method())
    # leaving the block (all done, an error, Ctrl-C, the caller dropping us) terminates the pool
    with ctx.Pool(workers, initializer=_ignore_sigint) as pool:
        jobs = pool.imap_unordered(_star_run_chunk, [(task, c) for c in chunks])
        yield from jobs


def _ignore_sigint() -> None:
    """Ctrl-C is the parent's to handle: it stops the pool, and no worker prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _star_run_chunk(args: tuple[Callable[[int], Any], Chunk]) -> list[tuple[int, Any]]:
    return run_chunk(*args)


def _ray_backend(task: Callable[[int], Any], chunks: list[Chunk], workers: int
                 ) -> Iterator[list[tuple[int, Any]]]:
    from .ray_backend import ray_backend

    yield from ray_backend(task, chunks, workers)


BACKENDS: dict[str, Backend] = {"local": local_backend, "ray": _ray_backend}


def register_backend(name: str, backend: Backend) -> None:
    """Make ``run_games(..., backend=name)`` use ``backend`` (e.g. a Ray backend)."""
    BACKENDS[name] = backend


def prepare_backend(name: str, address: str | None = None, workers: int | None = None) -> None:
    """Check ``name`` and connect its backend before any game starts, so that a missing
    library or an unreachable cluster is reported at once with what to do about it.

    ``address`` names a cluster to join (Ray only); without one, Ray starts locally with
    ``workers`` CPUs. Raises ``ValueError`` naming the problem and what is allowed.
    """
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; known backends: {', '.join(BACKENDS)}")
    if name == "ray":
        from .ray_backend import connect

        connect(address, workers)
    elif address is not None:
        raise ValueError(f"--address joins a cluster and needs --backend ray, not {name!r}")


def run_games(task: Callable[[int], Any], indices: Iterable[int], workers: int = 1,
              backend: str = "local", *, chunk_size: int | None = None,
              progress: Callable[[int], None] | None = None) -> list[Any]:
    """``[task(i) for i in sorted(indices)]``, spread over ``workers``.

    ``progress(done)`` is called in this process with the number of games finished so far,
    after each chunk. The result does not depend on ``workers``, ``backend`` or
    ``chunk_size`` (as long as ``task`` itself is deterministic).
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
    for done in run(task, chunks, workers):
        results.update(done)
        if progress is not None:
            progress(len(results))
    return [results[i] for i in order]
