"""The parallel runner: order, chunks, backends, spawn; simulate over several workers."""

import itertools
import json
import time

import pytest

from redtable.sim import parallel
from redtable.sim.parallel import make_chunks, register_backend, run_games
from redtable.sim.simulate import SimulateTask, game_seed, simulate
from redtable.sim.tournament import TournamentTask


def square(i):
    return i * i


@pytest.mark.multiprocess
def test_results_come_back_sorted_by_index_for_any_worker_count():
    for workers in (1, 2, 3):
        for chunk in (None, 1, 7):
            assert run_games(square, range(30), workers, chunk_size=chunk) == [i * i for i in range(30)]
    assert run_games(square, [5, 1, 3], 2) == [1, 9, 25]
    assert run_games(square, [], 4) == []


def slow_square(i):
    time.sleep(0.15)
    return i * i


@pytest.mark.multiprocess
def test_progress_counts_up_to_the_number_of_games():
    for workers in (1, 2):
        seen = []
        assert run_games(square, range(20), workers, chunk_size=3, progress=seen.append) == [i * i for i in range(20)]
        assert seen == sorted(seen) and seen[-1] == 20


@pytest.mark.multiprocess
@pytest.mark.parametrize("workers", [1, 2])
def test_progress_moves_per_game_inside_a_chunk(workers):
    """Chunks of 5 slow games: every count 1..10 is reported, one game at a time, long before
    a chunk ends; while the workers play the count is repeated so a display can tick on."""
    seen = []
    t0 = time.monotonic()
    stamps = []

    def progress(done):
        seen.append(done)
        stamps.append(time.monotonic() - t0)

    assert run_games(slow_square, range(10), workers, chunk_size=5, progress=progress) == [i * i for i in range(10)]
    assert seen == sorted(seen) and seen[-1] == 10
    assert set(range(1, 11)) <= set(seen)
    # never the jump of a whole chunk: a chunk's games show one by one as they end
    assert all(b - a <= 1 for a, b in itertools.pairwise(seen))
    # ... and as they end: the first game shows long before the end (its chunk takes 0.75 s)
    assert stamps[seen.index(1)] < stamps[-1] - 0.3
    if workers == 2:
        assert len(seen) > len(set(seen))  # heartbeats while waiting


def test_late_reports_of_a_finished_chunk_are_not_counted_twice(monkeypatch):
    def backend(task, chunks, workers):
        for chunk in chunks:
            yield parallel.Tick(chunk[0], 1)
            done = parallel.run_chunk(task, chunk)
            yield done
            yield parallel.Tick(chunk[0], len(chunk))  # arrives after the chunk itself
            yield parallel.HEARTBEAT

    monkeypatch.setitem(parallel.BACKENDS, "late", backend)
    seen = []
    assert run_games(square, range(7), 1, "late", chunk_size=3, progress=seen.append) == [i * i for i in range(7)]
    assert seen == [1, 3, 3, 3, 4, 6, 6, 6, 7, 7, 7, 7]


def test_chunks_cover_the_indices_in_order():
    chunks = make_chunks(list(range(1000)), 4)
    assert [i for c in chunks for i in c] == list(range(1000))
    assert max(map(len, chunks)) <= 64 and len(chunks) >= 4 * 8
    assert make_chunks([1, 2, 3], 8) == [[1], [2], [3]]


def test_bad_workers_or_backend_are_refused():
    with pytest.raises(ValueError, match="at least 1"):
        run_games(square, range(3), 0)
    with pytest.raises(ValueError, match="'cluster'.*local, ray"):
        run_games(square, range(3), 2, backend="cluster")


def test_another_backend_plugs_in_without_touching_callers(monkeypatch):
    calls = []

    def reversed_backend(task, chunks, workers):
        calls.append((len(chunks), workers))
        for chunk in reversed(chunks):  # finishes in any order: run_games sorts
            yield parallel.run_chunk(task, chunk)

    monkeypatch.setitem(parallel.BACKENDS, "test", reversed_backend)
    assert run_games(square, range(10), 2, backend="test", chunk_size=3) == [i * i for i in range(10)]
    assert calls == [(4, 2)]
    register_backend("test", reversed_backend)


@pytest.mark.multiprocess
def test_spawned_workers_give_the_same_games(monkeypatch):
    task = TournamentTask("red-north", 2, {}, 11, ("random", "random"))
    forked = run_games(task, range(4), 1)
    monkeypatch.setenv("REDTABLE_START_METHOD", "spawn")
    assert parallel.start_method() == "spawn"
    spawned = run_games(task, range(4), 2, chunk_size=2)
    assert [(s, r.summary) for s, r in spawned] == [(s, r.summary) for s, r in forked]
    assert [r.seed for _, r in spawned] == [game_seed(11, i) for i in range(4)]


def _stable(data):
    return {
        k: v
        for k, v in data.items()
        if k not in ("seconds", "games_per_second", "decisions_per_second", "mean_decision_seconds")
    }


@pytest.mark.multiprocess
def test_simulate_over_two_workers_matches_one(tmp_path):
    one = simulate("red-north", 3, 16, 2)  # the old positional signature still works
    two = simulate("red-north", 3, 16, 2, workers=2, save_dir=tmp_path)
    assert _stable(two.to_json()) == _stable(one.to_json())
    assert [r.summary for r in two.results] == [r.summary for r in one.results]
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 16
    assert json.loads(files[5].read_text())["seed"] == game_seed(2, 5)
    assert all(r.record is None for r in two.results)


def test_decision_time_is_measured_per_seat():
    r = SimulateTask("red-rising", 3, {}, 1)(0)
    assert len(r.decision_seconds) == len(r.decision_counts) == 3
    assert sum(r.decision_counts) == r.decisions and all(t >= 0 for t in r.decision_seconds)
    assert r.bots == ["random"] * 3
