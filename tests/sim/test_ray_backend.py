"""The Ray backend gives the same games as the local one (on a local Ray with 2 CPUs).

Everything that needs Ray is in one test, so that one pytest worker starts Ray once.
"""

import itertools
import json

import pytest
from typer.testing import CliRunner

from redtable.cli import app
from redtable.sim import parallel
from redtable.sim.analyze import analyze, collect
from redtable.sim.parallel import prepare_backend, run_games
from redtable.sim.report import dumps_numbers
from redtable.sim.simulate import simulate
from redtable.sim.tournament import tournament

runner = CliRunner()


def _stable(data):
    """A report without its timings (which differ from run to run)."""
    timing = ("seconds", "games_per_second", "decisions_per_second", "mean_decision_seconds")
    if isinstance(data, dict):
        return {k: _stable(v) for k, v in data.items() if k not in timing}
    if isinstance(data, list):
        return [_stable(v) for v in data]
    return data


def cube(i):
    return i**3


def slow_cube(i):
    import time

    time.sleep(0.3)
    return i**3


def test_backend_names_and_address_are_checked_before_anything_runs():
    with pytest.raises(ValueError, match="unknown backend 'slurm'; known backends: local, ray"):
        prepare_backend("slurm")
    with pytest.raises(ValueError, match="--address .* needs --backend ray"):
        prepare_backend("local", "10.0.0.1:6379")
    result = runner.invoke(app, ["simulate", "red-north", "-p", "2", "-n", "2", "--backend", "slurm"])
    assert result.exit_code == 2 and "known backends: local, ray" in result.output
    result = runner.invoke(
        app, ["tournament", "red-north", "--bots", "random,heuristic", "-n", "2", "--address", "auto"]
    )
    assert result.exit_code == 2 and "needs --backend ray" in result.output


def test_missing_ray_is_reported_with_the_install_command(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(ValueError, match=r"pip install 'redtable\[ray\]'"):
        prepare_backend("ray")


@pytest.mark.multiprocess
def test_ray_backend_matches_the_local_backend():
    ray = pytest.importorskip("ray")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level="WARNING",
        log_to_driver=False,
        object_store_memory=100 * 1024 * 1024,
    )
    try:
        assert run_games(cube, range(25), 2, "ray", chunk_size=3) == [i**3 for i in range(25)]
        seen = []
        run_games(cube, range(10), 2, "ray", chunk_size=4, progress=seen.append)
        assert seen[-1] == 10 and seen == sorted(seen)
        seen = []  # progress per game inside chunks of 3, reported by the Ray tasks
        assert run_games(slow_cube, range(6), 2, "ray", chunk_size=3, progress=seen.append) == [i**3 for i in range(6)]
        assert seen == sorted(seen) and seen[-1] == 6 and set(range(1, 7)) <= set(seen)
        assert all(b - a <= 1 for a, b in itertools.pairwise(seen)) and len(seen) > 6

        for game, players in (("red-rising", 4), ("red-north", 3)):
            local = simulate(game, players, 8, 5, bots=["heuristic", "random"], workers=2)
            remote = simulate(game, players, 8, 5, bots=["heuristic", "random"], workers=2, backend="ray")
            assert [r.summary for r in remote.results] == [r.summary for r in local.results]
            assert _stable(remote.to_json()) == _stable(local.to_json())

        local_t = tournament("red-north", 2, ["ismcts:30it", "heuristic"], 6, seed=3, workers=2)
        ray_t = tournament("red-north", 2, ["ismcts:30it", "heuristic"], 6, seed=3, workers=2, backend="ray")
        assert ray_t.seatings == local_t.seatings
        assert _stable(ray_t.to_json()) == _stable(local_t.to_json())

        # the commands, joining the Ray this process already runs
        args = [
            "tournament",
            "red-rising",
            "--bots",
            "heuristic,random",
            "-p",
            "3",
            "-n",
            "6",
            "--seed",
            "9",
            "--json",
            "-w",
            "2",
        ]
        on_ray = runner.invoke(app, args + ["--backend", "ray"])
        here = runner.invoke(app, args)
        assert on_ray.exit_code == 0, on_ray.output
        assert _stable(json.loads(on_ray.output)) == _stable(json.loads(here.output))
        analyses = []
        for backend in ("ray", "local"):
            col = collect("red-rising", [2, 3], 4, 8, ["heuristic", "random"], workers=2, backend=backend)
            analyses.append(dumps_numbers(analyze(col)))
        assert analyses[0] == analyses[1]
        sim = ["simulate", "red-north", "-p", "2", "-n", "5", "--json", "-w", "2"]
        assert _stable(json.loads(runner.invoke(app, sim + ["--backend", "ray"]).output)) == _stable(
            json.loads(runner.invoke(app, sim).output)
        )
    finally:
        ray.shutdown()
        parallel_ray = __import__("redtable.sim.ray_backend", fromlist=["_remote_run_chunk"])
        parallel_ray._remote_run_chunk = None
    assert "ray" in parallel.BACKENDS
