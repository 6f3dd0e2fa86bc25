"""Password hashing in a pool of its own: bounded, memory-capped, and shedding load with a 503.

Invariant: at most ``workers`` argon2 computations run at once and at most ``queue`` more wait;
a request past that is refused at once (503 ``hashing_busy`` with a ``Retry-After``) instead of
queueing behind the others. Storage calls never share these threads (they run on the loop's
default executor), so a flood of log-ins slows log-ins only, never a session lookup or the lobby.

Why a pool of its own: argon2id is made to cost CPU and memory (argon2-cffi's default is 64 MiB
and three passes per hash). On the loop's default executor, 240 hashes queued ahead of every
storage call held a bystander's session lookup for 43 s and lifted the server's RSS by ~400 MB
(issue 24). Here the memory is counted: ``workers × memory_cost`` must fit ``memory_cap``, so a
cap smaller than the cores gives fewer workers, never more memory.

The threads run at a lower CPU priority (``nice`` +``NICE``, Linux threads are scheduled on
their own) so that, when the cores are busy, the event loop and the storage threads are served
first and a hash waits: log-ins get slower under load, the rest of the server does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .errors import ApiError

T = TypeVar("T")
NICE = 10


class HashPoolFull(Exception):
    """Every worker is busy and the queue is full; come back in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def _lower_priority() -> None:
    """Run this worker thread at a lower priority (Linux: per thread; elsewhere a no-op)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


class HashPool:
    """``workers`` threads for password hashes, ``queue`` waiting places, the rest refused."""

    def __init__(self, workers: int, queue: int, memory_cap: int, memory_per_hash: int) -> None:
        if memory_per_hash > memory_cap:
            raise ValueError(
                f"one password hash needs {memory_per_hash >> 20} MiB but the hashing memory cap is "
                f"{memory_cap >> 20} MiB: raise the cap or lower argon2's memory_cost"
            )
        self.workers = max(1, min(workers, memory_cap // memory_per_hash))
        self.queue = max(0, queue)
        self.memory_per_hash = memory_per_hash
        self.in_flight = 0  # running + waiting; only the event loop's thread changes it
        self.refused = 0
        self.seconds = 0.1  # a running estimate of one hash's time, for Retry-After
        self._pool = ThreadPoolExecutor(self.workers, "redtable-hash", initializer=_lower_priority)

    @property
    def memory_bytes(self) -> int:
        """The most memory the running hashes can hold at once (what the cap bounds)."""
        return self.workers * self.memory_per_hash

    def retry_after(self) -> int:
        """Seconds until the queue has likely drained (at least 1)."""
        return max(1, math.ceil(self.in_flight * self.seconds / self.workers))

    @contextlib.contextmanager
    def place(self) -> Iterator[None]:
        """Hold one of the ``workers + queue`` places, or :class:`HashPoolFull` at once when none is free.

        A request takes its place before any other work (its storage calls too) and keeps it to
        its end, so a flood is refused at the cost of a comparison and the requests that do get
        in are bounded, storage calls included."""
        if self.in_flight >= self.workers + self.queue:
            self.refused += 1
            raise HashPoolFull(self.retry_after())
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1

    async def compute(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a hashing thread, for a request that holds a :meth:`place`."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._timed, fn, args)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """A place and ``fn(*args)`` on a hashing thread, or :class:`HashPoolFull` when no place is free."""
        with self.place():
            return await self.compute(fn, *args)

    def _timed(self, fn: Callable[..., T], args: tuple) -> T:
        t0 = time.perf_counter()
        try:
            return fn(*args)
        finally:
            self.seconds = 0.8 * self.seconds + 0.2 * (time.perf_counter() - t0)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def busy_error(e: HashPoolFull) -> ApiError:
    """The 503 of a full hashing pool: what is true (the server is busy checking passwords), and when to retry."""
    return ApiError(
        503,
        "hashing_busy",
        f"the server is busy checking other passwords; try again in {e.retry_after} s",
        retry_after=e.retry_after,
        headers={"Retry-After": str(e.retry_after)},
    )
