"""Run game chunks as Ray tasks: one machine's cores, or a whole Ray cluster.

``run_games(..., backend="ray")`` sends every chunk as one Ray task (one CPU each) and
yields the chunks as they finish; ``run_games`` sorts the results by game index, and each
game is played from its own seed, so a run gives the same games as the local backend.
While a chunk runs, its task reports each finished game to a small actor (no CPU of its
own) that this process reads while it waits, so progress moves per game here too.

:func:`connect` joins the cluster at ``address`` (``"auto"``, ``"ray://host:10001"``,
``"host:6379"``), or, with no address, starts a private local Ray with ``workers`` CPUs.
Every node needs the same ``redtable`` version installed (``pip install 'redtable[ray]'``):
the task is pickled here and unpickled there.

Ray is an optional dependency: nothing imports it until a Ray run starts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .backend import HEARTBEAT, POLL_SECONDS, Chunk, Reporter, Tick, run_chunk

INSTALL_HINT = "the ray backend needs Ray: pip install 'redtable[ray]'"

_remote_run_chunk = None  # the Ray remote function, made on first use
_ticks_actor = None  # the Ray actor class that collects reports, made on first use


class TickBox:
    """Collects ``(first, done)`` reports from the chunk tasks; the driver takes them."""

    def __init__(self) -> None:
        self.items: list[tuple[int, int]] = []

    def put(self, first: int, done: int) -> None:
        self.items.append((first, done))

    def take(self) -> list[tuple[int, int]]:
        out, self.items = self.items, []
        return out


def run_chunk_reporting(task: Callable[[int], Any], chunk: Chunk, box: Any = None) -> list[tuple[int, Any]]:
    """A chunk in a Ray task, reporting its finished games to the actor ``box``."""
    report = None if box is None else Reporter(lambda first, done: box.put.remote(first, done))
    return run_chunk(task, chunk, report)


def _ray():
    try:
        import ray
    except ImportError:
        raise ValueError(INSTALL_HINT) from None
    return ray


def connect(address: str | None = None, workers: int | None = None) -> None:
    """Join the Ray cluster at ``address``, or start a local Ray with ``workers`` CPUs.

    Does nothing if this process is already connected (e.g. a test or a notebook called
    ``ray.init`` itself). A cluster that cannot be reached raises ``ValueError`` naming it.
    """
    ray = _ray()
    if ray.is_initialized():
        return
    kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": "WARNING", "log_to_driver": False}
    if address is None:
        kwargs["num_cpus"] = workers
    try:
        ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = f"the Ray cluster at {address!r}" if address else "a local Ray"
        raise ValueError(f"could not start or join {where}: {e}") from None


def ray_backend(
    task: Callable[[int], Any], chunks: list[Chunk], workers: int
) -> Iterator[list[tuple[int, Any]] | Tick]:
    """All chunks as Ray tasks; Ray's scheduler spreads them over the cluster's CPUs.

    The task is put in the object store once, not once per chunk. Leaving early (an
    error, Ctrl-C, the caller dropping the iterator) cancels what has not finished.
    """
    global _remote_run_chunk, _ticks_actor
    ray = _ray()
    connect(None, workers)
    if _remote_run_chunk is None:
        _remote_run_chunk = ray.remote(num_cpus=1, max_retries=0)(run_chunk_reporting)
        _ticks_actor = ray.remote(num_cpus=0)(TickBox)
    box = _ticks_actor.remote()
    task_ref = ray.put(task)
    pending = [_remote_run_chunk.remote(task_ref, chunk, box) for chunk in chunks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=POLL_SECONDS)
            for first, n in ray.get(box.take.remote()):
                yield Tick(first, n)
            for ref in done:
                yield ray.get(ref)
            if not done:
                yield HEARTBEAT
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        ray.kill(box)
