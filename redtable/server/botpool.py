"""The server's bots think in worker processes: bounded presets, fair scheduling, deadlines.

A client picks a bot among :data:`PRESETS` (:func:`check_preset` refuses anything else,
naming them). :class:`BotPool` answers ``await pool.choose(game_key, spec, seed, state)``
from the server's event loop:

* **Lanes.** ``random`` (and any decision with a single option) is answered inline, in
  the server process: it costs microseconds. ``heuristic`` (milliseconds) goes to the
  *fast* lane, ISMCTS presets (up to a second or two) to the *search* lane. Each lane has
  its own worker processes (``fast_workers``, default 1; ``workers``, default
  ``max(1, os.cpu_count() - 1)``), so a heuristic bot answers in its usual time however
  many searches are queued. Search workers run at a lower OS priority (``search_nice``)
  so that on a busy machine the server and the fast lane win the CPU. A fast job may
  borrow an idle search worker; a search job never takes a fast worker.
* **Fairness.** Every game has its own FIFO queue and at most one job in flight. Games
  with a job waiting are served round-robin (one job per game per turn), and priority 0
  (games with people) always before priority 1 (all-bot games), and both before priority
  2: the reviews of finished games (:mod:`.searchjobs`, one decision per job, in the search
  lane only), which take a search worker only when no bot waits for one.
* **Deadlines.** A think may take its preset's :func:`preset_deadline` (the budget plus a
  margin) from the moment a worker starts it. Past it the answer is abandoned, the
  caller gets the fallback (what ``make_bot("random", seed)`` plays: a deterministic pick
  among the legal options), a warning is logged, and the worker is killed and replaced.
  A worker that crashes is replaced the same way.
* **Determinism.** The bot is created per decision as ``make_bot(spec, seed)`` with the
  caller's seed, so the pool plays exactly what ``make_bot(spec, seed).choose(state)``
  plays in process (for iteration- or non-search bots; a time budget is wall-clock).

How the state reaches the worker: pass ``game_seed`` (the seed the game was dealt with)
and the worker rebuilds the state from (game, options, game_seed, actions), keeping the
last state per ``game_key`` so that it applies only the new actions. Without it the
state is pickled, which costs more (about 0.5 ms in the event loop for a late Red Rising
state; ``bench/bench_botpool.py`` prints both) and fails for some Red Rising states (an
ability in progress holds the engine's local functions): such a decision gets the
fallback. The server should always pass ``game_seed``.

Use from the server (``Hub``)::

    pool = BotPool()                                   # Hub.__init__
    await pool.start()                                 # Hub.start
    spec = check_preset(seat_bot)                      # creating a game: ValueError -> 422
    action = await pool.choose(game.id, spec, Rng(game.seed).derive(seat + 1, game.step),
                               game.state, priority=0 if people else 1, game_seed=game.seed)
    await pool.stop()                                  # Hub.stop

The pool belongs to the event loop that starts it, which must support ``add_reader``
(the default loops on Linux and macOS; uvloop too).
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import logging
import multiprocessing
import os
import time
from dataclasses import dataclass
from typing import Any, Literal

from ..core import RedtableError, State
from . import metrics
from .searchjobs import REVIEW_PRIORITY

log = logging.getLogger("redtable.server.botpool")

# ---------------------------------------------------------------------- presets
#: The bots a client may seat, cheapest first. Each think is bounded: no budget above 1 s.
PRESETS: tuple[str, ...] = ("random", "heuristic", "ismcts:0.2s", "ismcts:1s", "expert:1s")
#: Other accepted spellings and the preset they mean.
ALIASES: dict[str, str] = {"ismcts": "ismcts:1s", "expert": "expert:1s"}
#: What a preset's think normally takes, in seconds (ISMCTS, expert: its wall-clock budget).
THINK_SECONDS: dict[str, float] = {
    "random": 0.0,
    "heuristic": 0.05,
    "ismcts:0.2s": 0.2,
    "ismcts:1s": 1.0,
    "expert:1s": 1.0,
}
#: Slack on top of the think time before a think is abandoned (a busy machine, the
#: state's rebuild, a slow first move).
DEADLINE_MARGIN = 1.5
#: Deadline of a spec that is not a preset (tests, simulations, old stored games).
DEFAULT_DEADLINE = 5.0

LANE_INLINE, LANE_FAST, LANE_SEARCH = "inline", "fast", "search"
_LANES = (LANE_FAST, LANE_SEARCH)
# the order in which a free worker of each lane looks at the queues: (lane, priority)
_ORDER = {
    LANE_FAST: ((LANE_FAST, 0), (LANE_FAST, 1)),
    LANE_SEARCH: ((LANE_SEARCH, 0), (LANE_FAST, 0), (LANE_SEARCH, 1), (LANE_FAST, 1), (LANE_SEARCH, REVIEW_PRIORITY)),
}
_START_FAILURES_BROKEN = 3  # workers dying before they are ready, in a row: the pool is broken


def _normal(spec: Any) -> str | None:
    if not isinstance(spec, str):
        return None
    key = spec.strip().lower()
    return ALIASES.get(key, key)


def check_preset(spec: Any) -> str:
    """The preset ``spec`` names (``"ismcts"`` -> ``"ismcts:1s"``); ValueError naming the presets if none."""
    key = _normal(spec)
    if key in PRESETS:
        return key
    aliases = ", ".join(f"{a!r} means {p!r}" for a, p in ALIASES.items())
    raise ValueError(f"bot {spec!r} is not offered; choose one of: {', '.join(PRESETS)} ({aliases})")


def preset_deadline(spec: str) -> float:
    """Seconds a think of ``spec`` may take once a worker starts it (its budget plus :data:`DEADLINE_MARGIN`)."""
    key = _normal(spec)
    if key in THINK_SECONDS:
        return THINK_SECONDS[key] + DEADLINE_MARGIN
    return DEFAULT_DEADLINE


def lane_of(spec: str) -> str:
    """Where ``spec`` thinks: ``"inline"`` (random), ``"fast"`` (the heuristic preset), else ``"search"``."""
    key = _normal(spec)
    if key == "random":
        return LANE_INLINE
    if key == "heuristic":
        return LANE_FAST
    return LANE_SEARCH


def legacy_preset(spec: str | None) -> str:
    """The preset closest to a spec stored before presets existed (``ismcts:600s`` -> ``ismcts:1s``).

    For games saved with any spec ``make_bot`` accepted: the heuristic with options plays
    as ``heuristic``, any ISMCTS as ``ismcts:0.2s`` (a time budget of at most 0.5 s) or
    ``ismcts:1s``, any expert as ``expert:1s``, anything else as ``random``.
    """
    try:
        return check_preset(spec)
    except ValueError:
        pass
    key = _normal(spec) or "random"
    name, _, rest = key.partition(":")
    if name == "heuristic":
        return "heuristic"
    if name == "expert":
        return "expert:1s"
    if name == "ismcts":
        from ..bots import parse_budget

        budget = rest.split(":")[0] if rest and "=" not in rest.split(":")[0] else None
        try:
            _, seconds = parse_budget(budget) if budget else (None, None)
        except RedtableError:
            seconds = None
        return "ismcts:0.2s" if seconds is not None and seconds <= 0.5 else "ismcts:1s"
    return "random"


# ---------------------------------------------------------------------- the worker process
_CACHE_SIZE = 256  # states kept per worker (one per game_key, least recently used dropped)


def _replayed(cache: collections.OrderedDict, payload: tuple) -> State:
    """The state of ``payload`` = (game_key, game, options, seed, actions), from the cache when it can."""
    from ..core import game_class

    key, name, options, seed, actions = payload
    entry = cache.pop(key, None)
    state = None
    if entry is not None and entry[0] == name and entry[1] == options and entry[2] == seed:
        cached = entry[3]
        n = len(cached.history)
        if n <= len(actions) and cached.history == actions[:n]:
            state = cached
            for a in actions[n:]:
                state.apply(a)
    if state is None:
        state = game_class(name)(**options).new_initial_state(seed)
        for a in actions:
            state.apply(a)
    cache[key] = (name, options, seed, state)
    while len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)
    return state.clone()


def _worker_main(conn, lane: str, nice: int) -> None:
    """A worker: answers (job_id, spec, seed, how, payload) with (job_id, "ok"|"error", action|message, seconds)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass
    from ..bots import make_bot
    from ..core import GAMES, game_class, title

    for name in GAMES:  # import the engines and their evaluations before saying ready
        game_class(name)
        title(name).load("evaluator")

    cache: collections.OrderedDict = collections.OrderedDict()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        job_id, spec, seed, how, payload, task = msg
        t0 = time.perf_counter()
        action: Any  # the bot's action, or a task's JSON
        reply: tuple[Any, str, Any, float]
        try:
            if how == "replay":
                try:
                    state = _replayed(cache, payload)
                except BaseException:
                    cache.pop(payload[0], None)
                    raise
            else:
                state = payload
            if task is not None:  # a review of this decision, or a hint, as JSON (searchjobs.py)
                from .searchjobs import perform

                action = perform(state, seed, task)
            else:
                action = make_bot(spec, seed).choose(state)
            reply = (job_id, "ok", action, time.perf_counter() - t0)
        except Exception as e:  # noqa: BLE001 - reported to the server, which plays the fallback
            reply = (job_id, "error", f"{type(e).__name__}: {e}", time.perf_counter() - t0)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


# ---------------------------------------------------------------------- the pool
def _percentiles(xs) -> dict:
    """p50 and p99 in milliseconds of recent waits (empty: zeros)."""
    s = sorted(xs)
    if not s:
        return {"p50": 0.0, "p99": 0.0}
    return {"p50": round(s[len(s) // 2] * 1e3, 2), "p99": round(s[min(len(s) - 1, int(len(s) * 0.99))] * 1e3, 2)}


class BotPoolClosed(RuntimeError):
    """The pool was stopped: no more answers."""


@dataclass(eq=False)
class _Job:
    id: int
    game_key: str
    spec: str
    seed: int
    state: State
    game_seed: int | None
    priority: int
    lane: str
    deadline: float
    fut: asyncio.Future
    submitted: float
    started: float = 0.0
    task: tuple[Any, ...] | None = None  # not a bot's think: ("review", taken, step, budget) or ("hint", budget)

    def fallback(self) -> str:
        from ..bots import make_bot

        return make_bot("random", self.seed).choose(self.state)


class ReviewFailed(RuntimeError):
    """A review or hint job ended without an answer (its worker crashed or overran)."""


@dataclass(eq=False)
class _Worker:
    proc: Any
    conn: Any
    lane: str
    ready: bool = False
    job: _Job | None = None
    timer: asyncio.TimerHandle | None = None
    jobs: int = 0
    fd: int = -1


class BotPool:
    """Worker processes that play bots' decisions for many games at once (see the module doc).

    ``workers``: search-lane processes (default ``max(1, os.cpu_count() - 1)``);
    ``fast_workers``: processes reserved for the heuristic (default 1; 0 lets fast jobs
    share the search workers); ``context``: the multiprocessing start method
    (``"spawn"`` or ``"forkserver"``; never ``"fork"``: the server has threads);
    ``search_nice``: how much lower the search workers' OS priority is (0: the same).
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        fast_workers: int = 1,
        context: Literal["spawn", "forkserver"] = "spawn",
        search_nice: int = 10,
        start_timeout: float = 60.0,
    ) -> None:
        if context == "fork":
            raise ValueError("the bot pool never forks the server: use 'spawn' or 'forkserver'")
        n = max(1, (os.cpu_count() or 2) - 1) if workers is None else int(workers)
        if n < 1 or fast_workers < 0:
            raise ValueError("a bot pool needs at least one search worker and no negative fast workers")
        self.sizes = {LANE_SEARCH: n, LANE_FAST: int(fast_workers)}
        self.search_nice = search_nice
        self.start_timeout = start_timeout
        # One call per method: typeshed types get_context(<a union of names>) as the bare BaseContext (no Process).
        self._ctx = multiprocessing.get_context("spawn") if context == "spawn" else multiprocessing.get_context(context)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._workers: list[_Worker] = []
        self._pending: dict[str, collections.deque[_Job]] = {}
        self._rings: dict[tuple[str, int], collections.deque[str]] = {
            (lane, p): collections.deque() for lane in _LANES for p in (0, 1, REVIEW_PRIORITY)
        }
        self._ringed: dict[str, tuple[str, int]] = {}
        self._busy_games: set[str] = set()
        self._ids = itertools.count(1)
        self._valid_specs: set[str] = set()
        self._started = False
        self.fallbacks_by_game: dict[str, int] = {}
        self._closed = False
        self._start_failures = 0
        self._respawns: list[asyncio.TimerHandle] = []
        self._reapers: set[asyncio.Task] = set()
        self.counts: collections.Counter[str] = collections.Counter()
        # recent queue waits, s
        self._waits: dict[str, collections.deque[float]] = {lane: collections.deque(maxlen=1000) for lane in _LANES}

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The loop start() runs on: workers are spawned and watched only once the pool started."""
        if self._loop is None:
            raise RuntimeError("the bot pool is not started")
        return self._loop

    # -------------------------------------------------------------- lifecycle
    async def start(self, wait: bool = True) -> None:
        """Start the workers (and with ``wait``, until they are ready or ``start_timeout`` passes)."""
        if self._closed:
            raise BotPoolClosed("the bot pool was stopped")
        if not self._started:
            self._started = True
            self._loop = asyncio.get_running_loop()
            for lane in _LANES:
                for _ in range(self.sizes[lane]):
                    self._spawn(lane)
        if wait:
            end = time.monotonic() + self.start_timeout
            while not self._closed and not all(w.ready for w in self._workers) and time.monotonic() < end:
                await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """Kill every worker and fail every waiting ``choose`` with :class:`BotPoolClosed`. Never hangs."""
        if self._closed:
            return
        self._closed = True
        for h in self._respawns:
            h.cancel()
        for t in self._reapers:
            t.cancel()
        workers, self._workers = self._workers, []
        jobs = [w.job for w in workers if w.job is not None]
        for w in workers:
            self._discard(w)
        for q in self._pending.values():
            jobs.extend(q)
        self._pending.clear()
        self._ringed.clear()
        self._busy_games.clear()
        for ring in self._rings.values():
            ring.clear()
        for job in jobs:
            if not job.fut.done():
                job.fut.set_exception(BotPoolClosed("the bot pool was stopped"))
                job.fut.exception()  # retrieved: nobody may be waiting any more
        end = time.monotonic() + 2.0
        while any(w.proc.is_alive() for w in workers) and time.monotonic() < end:
            await asyncio.sleep(0.01)
        for w in workers:
            self._reap(w)

    # -------------------------------------------------------------- the API
    async def choose(
        self,
        game_key: str,
        spec: str,
        seed: int,
        state: State,
        *,
        priority: int = 0,
        deadline: float | None = None,
        game_seed: int | None = None,
    ) -> str:
        """The action ``make_bot(spec, seed)`` picks for ``state``'s pending decision.

        ``priority`` 0 (a game with people) is served before 1 (bots only). ``deadline``:
        seconds the think may take once started (default :func:`preset_deadline`); past
        it the fallback is returned. ``game_seed``: the seed ``state``'s game was dealt
        with; given, the worker rebuilds and caches the state instead of unpickling it.
        The caller may change ``state`` as soon as this is called (it is copied).
        """
        if self._closed:
            raise BotPoolClosed("the bot pool was stopped")
        if priority not in (0, 1):
            raise ValueError(f"priority is 0 (a game with people) or 1 (bots only), got {priority!r}")
        d = state.decision()
        if d is None:
            raise ValueError("the game is over: there is no decision to choose for")
        if deadline is not None and not deadline > 0:
            raise ValueError(f"a deadline is a positive number of seconds, got {deadline!r}")
        spec = _normal(spec) or spec
        self._check_spec(spec)
        lane = lane_of(spec)
        if len(d.options) == 1 or lane == LANE_INLINE:
            from ..bots import make_bot

            self.counts["inline"] += 1
            return d.options[0] if len(d.options) == 1 else make_bot(spec, seed).choose(state)
        if not self._started:
            await self.start(wait=False)
        loop = self._running_loop()
        job = _Job(
            next(self._ids),
            game_key,
            spec,
            seed,
            state.clone(),
            game_seed,
            priority,
            lane,
            preset_deadline(spec) if deadline is None else float(deadline),
            loop.create_future(),
            time.monotonic(),
        )
        if self._start_failures >= _START_FAILURES_BROKEN and not any(w.ready for w in self._workers):
            self._fell_back(job)
            return job.fallback()
        return await self._run_job(job)

    async def run_task(
        self, game_key: str, state: State, task: tuple, deadline: float, seed: int, game_seed: int, priority: int
    ) -> Any:
        """A :mod:`.searchjobs` task (not a bot's think) on ``state``, in the search lane at
        ``priority``: its JSON answer, or :class:`ReviewFailed` (a crash, an overrun)."""
        if self._closed:
            raise BotPoolClosed("the bot pool was stopped")
        if not self._started:
            await self.start(wait=False)
        loop = self._running_loop()
        job = _Job(
            next(self._ids),
            game_key,
            task[0],
            seed,
            state.clone(),
            game_seed,
            priority,
            LANE_SEARCH,
            deadline,
            loop.create_future(),
            time.monotonic(),
            task=task,
        )
        return await self._run_job(job)

    async def _run_job(self, job: _Job) -> Any:
        """Queue ``job`` and wait for its answer; a caller that stops waiting withdraws it."""
        self._enqueue(job)
        self._pump()
        try:
            return await job.fut
        except asyncio.CancelledError:
            self._withdraw(job)
            raise

    def stats(self) -> dict:
        """Queue lengths, workers (alive, ready, busy) per lane, counters since the start, and the
        p50/p99 queue wait (submit to start) of each lane's last 1,000 jobs."""
        queued = {f"p{p}": 0 for p in (0, 1, REVIEW_PRIORITY)}
        by_lane = {lane: 0 for lane in _LANES}
        for q in self._pending.values():
            for job in q:
                queued[f"p{job.priority}"] += 1
                by_lane[job.lane] += 1
        return {
            "workers": {lane: sum(1 for w in self._workers if w.lane == lane) for lane in _LANES},
            "ready": {lane: sum(1 for w in self._workers if w.lane == lane and w.ready) for lane in _LANES},
            "busy": {lane: sum(1 for w in self._workers if w.lane == lane and w.job is not None) for lane in _LANES},
            "queued": queued,
            "queued_by_lane": by_lane,
            "games_waiting": len(self._pending),
            "in_flight": len(self._busy_games),
            "jobs_done": self.counts["done"],
            "inline": self.counts["inline"],
            "timeouts": self.counts["timeouts"],
            "crashes": self.counts["crashes"],
            "errors": self.counts["errors"],
            "fallbacks": self.counts["fallbacks"],
            "restarts": self.counts["restarts"],
            "think_seconds": round(self.counts["think_us"] / 1e6, 3),
            "wait_ms": {lane: _percentiles(self._waits[lane]) for lane in _LANES},
        }

    def worker_pids(self, lane: str | None = None) -> list[int]:
        """The process ids of the live workers (of one lane)."""
        return [w.proc.pid for w in self._workers if lane is None or w.lane == lane]

    # -------------------------------------------------------------- queues
    def _check_spec(self, spec: str) -> None:
        if spec in self._valid_specs:
            return
        from ..bots import make_bot

        try:
            make_bot(spec, 0)
        except RedtableError as e:
            raise ValueError(str(e)) from None
        self._valid_specs.add(spec)

    def _ring(self, g: str) -> None:
        head = self._pending[g][0]
        key = (head.lane, head.priority)
        self._rings[key].append(g)
        self._ringed[g] = key

    def _enqueue(self, job: _Job) -> None:
        g = job.game_key
        q = self._pending.get(g)
        if q is None:
            q = self._pending[g] = collections.deque()
        q.append(job)
        if g not in self._busy_games and g not in self._ringed:
            self._ring(g)

    def _take(self, lane: str) -> _Job | None:
        for key in _ORDER[lane]:
            ring = self._rings[key]
            if ring:
                g = ring.popleft()
                del self._ringed[g]
                q = self._pending[g]
                job = q.popleft()
                if not q:
                    del self._pending[g]
                self._busy_games.add(g)
                return job
        return None

    def _finish(self, job: _Job) -> None:
        g = job.game_key
        self._busy_games.discard(g)
        if g in self._pending and g not in self._ringed:
            self._ring(g)

    def _withdraw(self, job: _Job) -> None:
        """The caller gave up on ``job``: drop it if it still waits (a think in flight runs out)."""
        g = job.game_key
        q = self._pending.get(g)
        if q is None or job not in q:
            return
        was_head = q[0] is job
        q.remove(job)
        if was_head and g in self._ringed:
            self._rings[self._ringed.pop(g)].remove(g)
        if not q:
            del self._pending[g]
        elif g not in self._busy_games and g not in self._ringed:
            self._ring(g)

    def _pump(self) -> None:
        """Give waiting jobs to free workers (fast workers first, so fast jobs borrow search workers last)."""
        if self._closed:
            return
        for w in sorted(self._workers, key=lambda w: w.lane != LANE_FAST):
            if w.ready and w.job is None:
                job = self._take(w.lane)
                if job is not None:
                    self._send(w, job)

    # -------------------------------------------------------------- workers
    def _spawn(self, lane: str) -> None:
        if self._closed:
            return
        parent, child = self._ctx.Pipe(duplex=True)
        nice = self.search_nice if lane == LANE_SEARCH else 0
        proc = self._ctx.Process(
            target=_worker_main, args=(child, lane, nice), name=f"redtable-bot-{lane}", daemon=True
        )
        try:
            proc.start()
        except Exception:  # noqa: BLE001
            log.exception("cannot start a %s bot worker", lane)
            parent.close()
            child.close()
            self._start_failed(lane)
            return
        child.close()
        w = _Worker(proc, parent, lane, fd=parent.fileno())
        self._workers.append(w)
        self._running_loop().add_reader(w.fd, self._on_readable, w)

    def _start_failed(self, lane: str) -> None:
        self._start_failures += 1
        if self._start_failures >= _START_FAILURES_BROKEN and not any(w.ready for w in self._workers):
            log.error("bot workers keep dying before they are ready; bots play their fallback until one starts")
            for q in list(self._pending.values()):
                for job in list(q):
                    self._withdraw(job)
                    if job.task is not None:
                        self._answer(job, None)
                        continue
                    self._fell_back(job)
                    if not job.fut.done():
                        job.fut.set_result(job.fallback())
        delay = min(10.0, 0.25 * 2**self._start_failures)
        self._respawns = [h for h in self._respawns if not h.cancelled()]
        self._respawns.append(self._running_loop().call_later(delay, self._spawn, lane))

    def _send(self, w: _Worker, job: _Job) -> None:
        payload: tuple[str, str, dict[str, Any], int, list[str]] | State  # a replay's recipe, or the state itself
        if job.game_seed is not None:
            st = job.state
            how, payload = "replay", (job.game_key, st.game.name, st.game.options(), job.game_seed, list(st.history))
        else:
            how, payload = "state", job.state
        w.job = job
        job.started = time.monotonic()
        self._waits[job.lane].append(job.started - job.submitted)
        try:
            w.conn.send((job.id, job.spec, job.seed, how, payload, job.task))
        except (OSError, EOFError):
            self._lost(w, "could not be reached")
            return
        except Exception as e:  # noqa: BLE001 - the state does not pickle: the job fails, the worker is fine
            w.job = None
            log.warning(
                "bot %s of game %s: cannot send the state (%s; pass game_seed); it plays the fallback",
                job.spec,
                job.game_key,
                e,
            )
            self._answer(job, None)
            return
        w.timer = self._running_loop().call_later(job.deadline, self._overrun, w, job)

    def _on_readable(self, w: _Worker) -> None:
        try:
            msg = w.conn.recv()
        except Exception:  # noqa: BLE001 - EOF: the worker died
            self._lost(w, "crashed")
            return
        if msg[0] == "ready":
            w.ready = True
            self._start_failures = 0
            self._pump()
            return
        job_id, status, value, seconds = msg
        job = w.job
        if job is None or job.id != job_id:
            return
        w.job = None
        w.jobs += 1
        if w.timer is not None:
            w.timer.cancel()
            w.timer = None
        self.counts["think_us"] += int(seconds * 1e6)
        metrics.bot_thought(w.lane, seconds)
        if job.task is not None:
            self.counts[("reviewed" if job.task[0] == "review" else "hints") if status == "ok" else "errors"] += 1
            if status != "ok":
                log.warning("review of %s failed: %s", job.game_key, value)
            self._answer(job, value if status == "ok" else None)
        elif status == "ok" and value in job.state.pending().options:
            self.counts["done"] += 1
            self._answer(job, value)
        else:
            self.counts["errors"] += 1
            log.warning(
                "bot %s of game %s failed (%s); it plays the fallback",
                job.spec,
                job.game_key,
                value if status != "ok" else f"illegal action {value!r}",
            )
            self._answer(job, None)
        self._pump()

    def _fell_back(self, job: _Job) -> None:
        """Count a fallback, for the pool and for its game (the server shows it at the table)."""
        self.counts["fallbacks"] += 1
        self.fallbacks_by_game[job.game_key] = self.fallbacks_by_game.get(job.game_key, 0) + 1

    def take_fallbacks(self, game_key: str) -> int:
        """How many of ``game_key``'s thinks ended in the fallback since the last call."""
        return self.fallbacks_by_game.pop(game_key, 0)

    def _answer(self, job: _Job, action: Any) -> None:
        if action is None and job.task is not None:  # no fallback for a review or a hint: it failed
            if not job.fut.done():
                job.fut.set_exception(ReviewFailed(f"the review of {job.game_key} got no answer"))
            self._finish(job)
            return
        if action is None:
            self._fell_back(job)
            action = job.fallback()
        if not job.fut.done():
            job.fut.set_result(action)
        self._finish(job)

    def _overrun(self, w: _Worker, job: _Job) -> None:
        if w.job is not job:
            return
        self.counts["timeouts"] += 1
        log.warning(
            "bot %s of game %s overran its %.2f s deadline; it plays the fallback and worker %s is replaced",
            job.spec,
            job.game_key,
            job.deadline,
            w.proc.pid,
        )
        self._lost(w, None)

    def _lost(self, w: _Worker, why: str | None) -> None:
        """Kill ``w`` (overran, crashed), answer its job with the fallback, start another worker."""
        if w not in self._workers:
            return
        self._workers.remove(w)
        job, w.job = w.job, None
        self._discard(w)
        reaper = self._running_loop().create_task(self._reap_later(w))
        self._reapers.add(reaper)
        reaper.add_done_callback(self._reapers.discard)
        if why is not None:
            if w.ready:
                self.counts["crashes"] += 1
            log.warning(
                "bot worker %s (%s lane) %s%s; it is replaced",
                w.proc.pid,
                w.lane,
                why,
                f" while playing {job.spec} in game {job.game_key}" if job else "",
            )
        if job is not None:
            self._answer(job, None)
        if self._closed:
            return
        if w.ready:
            self.counts["restarts"] += 1
            self._spawn(w.lane)
        else:
            self._start_failed(w.lane)
        self._pump()

    def _discard(self, w: _Worker) -> None:
        if w.timer is not None:
            w.timer.cancel()
            w.timer = None
        if self._loop is not None and w.fd >= 0:
            try:
                self._loop.remove_reader(w.fd)
            except Exception:  # noqa: BLE001 - the loop is closing
                pass
        try:
            w.proc.kill()
        except Exception:  # noqa: BLE001 - already gone
            pass
        try:
            w.conn.close()
        except Exception:  # noqa: BLE001
            pass

    @staticmethod
    def _reap(w: _Worker) -> None:
        try:
            if not w.proc.is_alive():
                w.proc.join(0)
                w.proc.close()
        except Exception:  # noqa: BLE001
            pass

    async def _reap_later(self, w: _Worker) -> None:
        end = time.monotonic() + 5.0
        while w.proc.is_alive() and time.monotonic() < end:
            await asyncio.sleep(0.02)
        self._reap(w)
