"""The backend interface (sim/backend.py): one-way imports, preparing a cluster backend."""

import ast
from pathlib import Path

import pytest

from redtable.sim import backend, parallel
from redtable.sim.parallel import prepare_backend, run_games

SIM = Path(__file__).resolve().parents[2] / "redtable" / "sim"


def _imports(name: str) -> set[str]:
    tree = ast.parse((SIM / name).read_text(encoding="utf-8"))
    return {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level}


def test_backends_import_the_interface_never_the_runner():
    assert _imports("backend.py") == set()
    assert _imports("ray_backend.py") == {"backend"}
    assert {"backend", "ray_backend"} <= _imports("parallel.py")


def test_the_runner_re_exports_the_interface_pieces():
    assert parallel.Tick is backend.Tick and parallel.run_chunk is backend.run_chunk
    assert parallel.HEARTBEAT == backend.Tick(None, 0)
    assert isinstance(parallel.BACKENDS["ray"], backend.Preparable)
    assert not isinstance(parallel.BACKENDS["local"], backend.Preparable)


def double(i):
    return 2 * i


class QueueBackend:
    """A cluster backend: connects in prepare, then runs the chunks (here, in this process)."""

    def __init__(self):
        self.prepared = []

    def prepare(self, address, workers):
        if address == "nowhere:1":
            raise ValueError("could not reach the queue at 'nowhere:1'")
        self.prepared.append((address, workers))

    def __call__(self, task, chunks, workers):
        for chunk in chunks:
            yield backend.run_chunk(task, chunk)


def test_a_preparable_backend_gets_the_address_and_runs(monkeypatch):
    queue = QueueBackend()
    monkeypatch.setitem(parallel.BACKENDS, "queue", queue)
    prepare_backend("queue", "host:9", 3)
    assert queue.prepared == [("host:9", 3)]
    with pytest.raises(ValueError, match="nowhere:1"):
        prepare_backend("queue", "nowhere:1")
    assert run_games(double, range(5), 2, backend="queue", chunk_size=2) == [0, 2, 4, 6, 8]
    # a backend without prepare takes no address; the message names those that do
    with pytest.raises(ValueError, match="needs --backend ray or --backend queue, not 'local'"):
        prepare_backend("local", "host:9")
    prepare_backend("local")


def test_a_worker_reporter_sends_at_most_every_interval():
    sent = []
    report = backend.Reporter(lambda first, done: sent.append((first, done)), every=3600)
    for done in range(1, 5):
        report(10, done)
    assert sent == [(10, 1)]
    assert backend.run_chunk(double, [4, 5], report=lambda first, done: sent.append((first, done))) == [(4, 8), (5, 10)]
    assert sent[1:] == [(4, 1), (4, 2)]
