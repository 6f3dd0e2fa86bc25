"""Run ``python -m redtable.server`` with an event-loop lag probe (bench/bench_abuse.py --loop-probe).

    python bench/_loopprobe.py OUT_FILE -- <the redtable.server arguments>

The server is the real one, unchanged: this only adds, inside its event loop, a task that
sleeps 5 ms at a time and writes to OUT_FILE every wake-up that came more than 15 ms late:
``wall_clock lag_seconds cpu_seconds runq_seconds``: during that late interval the loop's
thread ran ``cpu_seconds`` (a callback keeping the loop busy), waited ``runq_seconds``
runnable for a core (the machine was busy), and spent the rest asleep inside a call
(blocking I/O, or waiting for the GIL another thread held).

It also writes to OUT_FILE.calls every call the loop makes into the bot pool's pipes
(``BotPool._send``, ``BotPool._on_readable``) that took more than 5 ms: ``wall_clock name
seconds cpu_seconds runq_seconds``.
"""

from __future__ import annotations

import asyncio
import runpy
import sys
import threading
import time


def _runq_wait() -> float:
    """Seconds this thread has waited, runnable, for a CPU (Linux schedstat; 0 elsewhere)."""
    try:
        with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


async def probe(path: str, every: float = 0.005, report_over: float = 0.015) -> None:
    with open(path, "w", buffering=1) as out:
        while True:
            t0 = time.perf_counter()
            c0 = time.thread_time()
            w0 = _runq_wait()
            await asyncio.sleep(every)
            lag = time.perf_counter() - t0 - every
            if lag > report_over:
                out.write(f"{time.time():.4f} {lag:.4f} {time.thread_time() - c0:.4f} {_runq_wait() - w0:.4f}\n")


def timed(path: str, over: float = 0.005) -> None:
    """Also time the synchronous calls the event loop makes into the bot pool's pipes (they must not block)."""
    from redtable.server import botpool

    out = open(path, "w", buffering=1)

    def wrap(cls, name: str) -> None:
        fn = getattr(cls, name)

        def timed_call(*args, **kwargs):
            t0 = time.perf_counter()
            c0 = time.thread_time()
            w0 = _runq_wait()
            try:
                return fn(*args, **kwargs)
            finally:
                dt = time.perf_counter() - t0
                if dt > over:
                    out.write(
                        f"{time.time():.4f} {name} {dt:.4f} {time.thread_time() - c0:.4f} {_runq_wait() - w0:.4f}\n"
                    )

        setattr(cls, name, timed_call)

    for name in ("_on_readable", "_send"):
        if hasattr(botpool.BotPool, name):
            wrap(botpool.BotPool, name)


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[2] != "--":
        raise SystemExit(__doc__)
    path = sys.argv[1]
    import uvicorn.server

    serve = uvicorn.server.Server.serve

    async def serve_with_probe(self, *args, **kwargs):
        task = asyncio.ensure_future(probe(path))
        try:
            return await serve(self, *args, **kwargs)
        finally:
            task.cancel()

    uvicorn.server.Server.serve = serve_with_probe
    timed(path + ".calls")
    sys.argv = ["redtable.server", *sys.argv[3:]]
    runpy.run_module("redtable.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
