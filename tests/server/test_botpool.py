"""The bot pool: presets, legal and deterministic answers, fair scheduling, deadlines, crashes, stop."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import time

import pytest

from redtable.bots import make_bot
from redtable.core import make_game
from redtable.server.botpool import (
    PRESETS,
    BotPool,
    BotPoolClosed,
    check_preset,
    lane_of,
    legacy_preset,
    preset_deadline,
)

pytestmark = pytest.mark.multiprocess  # (the pool's workers are processes; most tests start a pool)


def state_after(game: str, players: int, seed: int, steps: int):
    """A state ``steps`` random moves in, where the decision has at least two options."""
    s = make_game(game, players).new_initial_state(seed)
    bot = make_bot("random", seed)
    n = 0
    while n < steps or len(s.decision().options) < 2:
        s.apply(bot.choose(s))
        n += 1
    return s


def picklable(state) -> bool:
    try:
        pickle.dumps(state)
    except Exception:  # noqa: BLE001
        return False
    return True


def run(coro_fn, *args, **kwargs):
    """Run ``coro_fn(pool)`` with a started pool, stopping it after (and checking stop is quick)."""

    async def main():
        pool = BotPool(*args, **kwargs)
        await pool.start()
        try:
            return await coro_fn(pool)
        finally:
            t = time.monotonic()
            await pool.stop()
            assert time.monotonic() - t < 3.0

    return asyncio.run(main())


# ---------------------------------------------------------------------- presets
def test_presets_accepted_and_refused_with_the_list():
    for p in PRESETS:
        assert check_preset(p) == p
    assert check_preset(" Heuristic ") == "heuristic"
    assert check_preset("ismcts") == "ismcts:1s"
    for bad in (
        "ismcts:600s",
        "ismcts:1000000000it",
        "ismcts:2000it",
        "heuristic:budget=100000",
        "alphazero",
        "",
        None,
        3,
    ):
        with pytest.raises(ValueError) as e:
            check_preset(bad)
        for p in PRESETS:
            assert p in str(e.value)
    assert all(preset_deadline(p) <= 3.0 for p in PRESETS)
    assert preset_deadline("ismcts:1s") > 1.0 and preset_deadline("ismcts:0.2s") > 0.2
    assert [lane_of(p) for p in PRESETS] == ["inline", "fast", "search", "search", "search"]
    assert check_preset("expert") == "expert:1s" and preset_deadline("expert:1s") > 1.0
    assert legacy_preset("expert:5000it") == "expert:1s"
    assert legacy_preset("ismcts:600s") == "ismcts:1s"
    assert legacy_preset("ismcts:250ms") == "ismcts:0.2s"
    assert legacy_preset("ismcts:5000it:c=0.5") == "ismcts:1s"
    assert legacy_preset("heuristic:samples=4") == "heuristic"
    assert legacy_preset(None) == "random"


# ---------------------------------------------------------------------- answers
def test_choose_is_legal_and_plays_as_make_bot_in_both_games():
    cases = [("red-rising", 4, 3, 11), ("red-north", 2, 5, 7), ("red-north", 4, 9, 3)]

    async def go(pool):
        for game, players, game_seed, steps in cases:
            s = state_after(game, players, game_seed, steps)
            for k in range(6):  # a few consecutive decisions: the worker's cached state moves on
                seed = 1000 * game_seed + k
                expected = make_bot("heuristic", seed).choose(s)
                key = f"{game}-{players}"
                assert await pool.choose(key, "heuristic", seed, s, game_seed=game_seed) == expected
                if picklable(s):  # without game_seed the state is pickled (not every state can be)
                    assert await pool.choose(key + "-pickled", "heuristic", seed, s) == expected
                assert await pool.choose(key, "random", seed, s) == make_bot("random", seed).choose(s)
                if k == 0:  # a search bot with an iteration budget is deterministic too
                    ism = "ismcts:30it"
                    assert await pool.choose(key, ism, seed, s, game_seed=game_seed, priority=1) == make_bot(
                        ism, seed
                    ).choose(s)
                    a = await pool.choose(key, "ismcts:0.2s", seed, s, game_seed=game_seed)
                    assert a in s.decision().options
                s.apply(expected)
                while s.decision() is not None and len(s.decision().options) < 2:
                    s.apply(s.decision().options[0])
        st = pool.stats()
        assert st["timeouts"] == st["crashes"] == st["errors"] == 0
        assert st["jobs_done"] >= 3 * 6 + 3 * 2
        assert st["inline"] >= 3 * 6
        with pytest.raises(ValueError):
            await pool.choose("x", "ismcts:bogus", 1, s)
        with pytest.raises(ValueError):
            await pool.choose("x", "heuristic", 1, s, priority=2)
        with pytest.raises(ValueError):
            await pool.choose("x", "heuristic", 1, s, deadline=0)
        assert set(st["wait_ms"]) == {"fast", "search"} and st["wait_ms"]["fast"]["p99"] >= 0

    run(go, 1)


def test_a_state_that_does_not_pickle_is_replayed_from_the_game_seed():
    # a Red Rising ability in progress can hold the engine's local functions: find such a state
    s = make_game("red-rising", 4).new_initial_state(24)
    bot = make_bot("random", 24)
    while picklable(s) or len(s.decision().options) < 2:  # 17 moves in
        s.apply(bot.choose(s))

    async def go(pool):
        assert await pool.choose("g", "heuristic", 2, s, game_seed=24) == make_bot("heuristic", 2).choose(s)
        assert await pool.choose("g", "heuristic", 2, s) == make_bot("random", 2).choose(s)  # the fallback
        assert pool.stats()["fallbacks"] == 1 and pool.worker_pids("search")

    run(go, 1, fast_workers=0)


def test_a_game_over_has_no_decision():
    s = make_game("red-north", 2).new_initial_state(1)
    bot = make_bot("random", 1)
    while not s.is_terminal():
        s.apply(bot.choose(s))

    async def go(pool):
        with pytest.raises(ValueError):
            await pool.choose("g", "heuristic", 1, s)

    run(go, 1, fast_workers=0)


# ---------------------------------------------------------------------- fairness
def test_round_robin_between_games_and_people_first():
    s = state_after("red-north", 2, 2, 4)
    order: list[str] = []

    async def go(pool):
        async def job(key, priority, spec="heuristic"):
            await pool.choose(key, spec, 1, s, priority=priority, game_seed=2)
            order.append(key)

        async def blocked(jobs):
            """Submit ``jobs`` while the only worker thinks 0.2 s, then wait for them all."""
            blocker = asyncio.create_task(job("blocker", 1, "ismcts:0.2s"))
            while pool.stats()["busy"]["search"] == 0:
                await asyncio.sleep(0.005)
            tasks = []
            for key, priority in jobs:
                tasks.append(asyncio.create_task(job(key, priority)))
                await asyncio.sleep(0)  # submitted in this order
            await asyncio.sleep(0.01)
            assert pool.stats()["busy"]["search"] == 1 and pool.stats()["in_flight"] == 1
            await asyncio.gather(blocker, *tasks)

        # two games, three jobs each, all submitted by game A first: served alternately
        await blocked([("A", 1)] * 3 + [("B", 1)] * 3)
        assert order == ["blocker", "A", "B", "A", "B", "A", "B"]
        # a game with a person (priority 0) behind six all-bot games is served next
        order.clear()
        await blocked([(f"bots{i}", 1) for i in range(6)] + [("person", 0)])
        assert order[:2] == ["blocker", "person"]
        assert sorted(order[2:]) == [f"bots{i}" for i in range(6)]
        st = pool.stats()
        assert st["queued"] == {"p0": 0, "p1": 0, "p2": 0} and st["in_flight"] == 0

    run(go, 1, fast_workers=0)


def test_a_game_has_one_job_in_flight_and_a_withdrawn_job_leaves_the_queue():
    s = state_after("red-north", 2, 2, 4)

    async def go(pool):
        tasks = [asyncio.create_task(pool.choose("solo", "ismcts:0.2s", i, s, game_seed=2)) for i in range(3)]
        await asyncio.sleep(0.1)
        st = pool.stats()
        assert st["busy"]["search"] == 1 and st["in_flight"] == 1 and st["queued"]["p0"] == 2
        tasks[2].cancel()
        await asyncio.sleep(0)
        assert pool.stats()["queued"]["p0"] == 1
        for t in tasks[:2]:
            assert await t in s.decision().options
        with pytest.raises(asyncio.CancelledError):
            await tasks[2]
        assert pool.stats()["games_waiting"] == 0 and pool.stats()["jobs_done"] == 2

    run(go, 2, fast_workers=0)


# ---------------------------------------------------------------------- deadlines and crashes
def test_an_overrun_plays_the_fallback_and_the_pool_carries_on():
    s = state_after("red-rising", 4, 4, 20)

    async def go(pool):
        (pid,) = pool.worker_pids()
        t = time.monotonic()
        a = await pool.choose("g", "ismcts:1s", 77, s, deadline=0.15, game_seed=4)
        assert time.monotonic() - t < 0.9  # the think alone takes 1 s
        assert a == make_bot("random", 77).choose(s)  # the deterministic fallback
        st = pool.stats()
        assert st["timeouts"] == 1 and st["fallbacks"] == 1 and st["restarts"] == 1
        assert pid not in pool.worker_pids() and len(pool.worker_pids()) == 1
        assert await pool.choose("g", "heuristic", 5, s, game_seed=4) == make_bot("heuristic", 5).choose(s)

    run(go, 1, fast_workers=0)


def test_a_killed_worker_is_replaced():
    s = state_after("red-north", 4, 6, 10)

    async def go(pool):
        (fast,) = pool.worker_pids("fast")
        (search,) = pool.worker_pids("search")
        # killed in the middle of a think: the caller gets the fallback at once
        task = asyncio.create_task(pool.choose("g", "ismcts:1s", 8, s, game_seed=6))
        while pool.stats()["busy"]["search"] == 0:
            await asyncio.sleep(0.005)
        t = time.monotonic()
        os.kill(search, signal.SIGKILL)
        assert await task == make_bot("random", 8).choose(s)
        assert time.monotonic() - t < 0.9
        # killed while idle
        os.kill(fast, signal.SIGKILL)
        until = time.monotonic() + 60  # (a new worker imports the engines: seconds on a busy machine)
        while time.monotonic() < until:
            if pool.stats()["crashes"] == 2 and all(pool.stats()["ready"].values()):
                break
            await asyncio.sleep(0.01)
        st = pool.stats()
        assert st["crashes"] == 2 and st["restarts"] == 2 and st["ready"] == {"fast": 1, "search": 1}
        assert fast not in pool.worker_pids() and search not in pool.worker_pids()
        assert await pool.choose("g", "heuristic", 9, s, game_seed=6) == make_bot("heuristic", 9).choose(s)
        assert await pool.choose("g", "ismcts:30it", 9, s, game_seed=6) == make_bot("ismcts:30it", 9).choose(s)

    run(go, 1)


def test_stop_is_clean():
    s = state_after("red-north", 2, 3, 6)

    async def go():
        pool = BotPool(1, fast_workers=1)
        await pool.start()
        pids = pool.worker_pids()
        thinking = asyncio.create_task(pool.choose("a", "ismcts:1s", 1, s, game_seed=3))
        waiting = asyncio.create_task(pool.choose("b", "ismcts:1s", 1, s, game_seed=3))
        while pool.stats()["busy"]["search"] == 0:
            await asyncio.sleep(0.005)
        t = time.monotonic()
        await pool.stop()
        assert time.monotonic() - t < 2.5
        for task in (thinking, waiting):
            with pytest.raises(BotPoolClosed):
                await task
        with pytest.raises(BotPoolClosed):
            await pool.choose("c", "heuristic", 1, s)
        await pool.stop()  # twice is fine
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)  # gone and reaped
        assert pool.worker_pids() == []

    asyncio.run(go())


def test_fallbacks_are_counted_per_game():
    from redtable.server.botpool import BotPool

    pool = BotPool(1)

    class J:
        game_key = "g1"

    pool._fell_back(J())
    pool._fell_back(J())
    assert pool.take_fallbacks("g1") == 2 and pool.take_fallbacks("g1") == 0 and pool.take_fallbacks("g2") == 0


def test_a_review_waits_for_every_bot_and_answers_the_in_process_review():
    """Reviews (priority 2) take the search worker only when no bot's think waits; a review job
    answers what ``review_decision`` answers in this process (an iteration budget is exact)."""
    from redtable.review import Budget, review_decision
    from redtable.server import searchjobs

    s = state_after("red-north", 2, 2, 4)
    order: list[str] = []

    async def go(pool):
        async def job(key, priority, spec="heuristic"):
            await pool.choose(key, spec, 1, s, priority=priority, game_seed=2)
            order.append(key)

        async def review(key):
            got = await searchjobs.review(pool, key, s, s.decision().options[0], "12it", 3, 4, 2)
            order.append(key)
            return got

        blocker = asyncio.create_task(job("blocker", 1, "ismcts:0.2s"))
        while pool.stats()["busy"]["search"] == 0:
            await asyncio.sleep(0.005)
        tasks = [asyncio.create_task(review("review"))]
        await asyncio.sleep(0)
        tasks += [asyncio.create_task(job(f"bots{i}", 1)) for i in range(2)] + [asyncio.create_task(job("person", 0))]
        await asyncio.sleep(0.01)
        assert pool.stats()["queued"]["p2"] == 1
        got = (await asyncio.gather(blocker, *tasks))[1]
        assert order[0] == "blocker" and order[-1] == "review" and order[1] == "person"
        return got

    got = run(go, 1, fast_workers=0)
    assert got == review_decision(s, s.decision().options[0], Budget(iterations=12), 3, 4).to_json()
