"""The password hashing of a request: its place in the app's bounded hashing pool (``hashpool.py``)
and the hash computed there. The account routes (``accounts_api.py``) and the e-mail routes'
password reset and change (``emails.py``) share it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from starlette.requests import Request

from . import accounts as acc
from .hashpool import HashPool, HashPoolFull, busy_error
from .limits import Limits


def hash_pool_for(limits: Limits) -> HashPool:
    """The app's hashing pool, sized by ``limits`` (a cap smaller than one hash is refused at start)."""
    return HashPool(
        limits.hash_workers or os.cpu_count() or 1,
        limits.hash_queue,
        limits.hash_memory_mb << 20,
        acc.HASHER.memory_cost * 1024,  # (argon2 counts KiB)
    )


def _pool(request: Request) -> HashPool:
    pool = getattr(request.app.state, "hash_pool", None)
    if pool is None:
        pool = request.app.state.hash_pool = hash_pool_for(request.app.state.hub.limits)
    return pool


@contextlib.contextmanager
def hashing_place(request: Request) -> Iterator[None]:
    """A place in the hashing pool for this whole request, or the 503 at once (``hashpool.py``)."""
    try:
        with _pool(request).place():
            yield
    except HashPoolFull as e:  # (only taking the place raises it)
        raise busy_error(e) from None


async def hash_off(request: Request, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` on a hashing thread (the request holds its :func:`hashing_place`)."""
    return await _pool(request).compute(fn, *args)
