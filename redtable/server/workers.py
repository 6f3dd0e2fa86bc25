"""``redtable serve --workers N``: N server processes on one machine sharing one port.

Each worker is a whole server (``python -m redtable.server ... --reuse-port``) that binds
the port itself with ``SO_REUSEPORT``: the kernel spreads new connections over the
workers' sockets, and no accept queue is shared. The workers are a fleet on one
PostgreSQL database (``fleet.py``): any of them serves any game, so it does not matter
which one a client reaches, and a worker that dies loses no game (its clients reconnect to
the others; its bots are taken over when its leases expire).

This module is the supervisor, the parent process: it checks that the port is free,
starts the workers, restarts one that dies (after a pause that grows while workers keep
dying), and on SIGINT or SIGTERM asks every worker to stop gracefully (each hands its
leases over) and waits for them. Secrets never go on a command line (``ps`` shows it to
every user of the machine): the database and bus URLs reach the workers in their
environment (``REDTABLE_DB``, ``REDTABLE_BUS``).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

START_GRACE = 10.0  # a worker that dies sooner than this after its start counts as failing to start
GIVE_UP_AFTER = 5  # that many failed starts in a row: the supervisor exits
STOP_SECONDS = 20.0  # how long a graceful stop may take before the workers are killed


def port_free(host: str, port: int) -> str | None:
    """None if ``host:port`` can be listened on, else why not (another program holds it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
            s.listen(1)
        except OSError as e:
            return e.strerror or str(e)
    return None


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` that other workers may bind too (``SO_REUSEPORT``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.bind((host, port))
    s.set_inheritable(True)
    return s


class Supervisor:
    """Starts ``n`` workers with ``argv`` (and ``env``), keeps them running, stops them on a signal."""

    def __init__(self, argv: list[str], n: int, env: dict[str, str], echo=print) -> None:
        self.argv = argv
        self.n = n
        self.env = env
        self.echo = echo
        self.procs: dict[int, subprocess.Popen] = {}
        self.started: dict[int, float] = {}
        self.failures = 0
        self.stopping = False

    def spawn(self, i: int) -> None:
        env = {**self.env, "REDTABLE_WORKER": str(i)}  # its --metrics-port is the given one + i (metrics.py)
        self.procs[i] = subprocess.Popen(self.argv, env=env, process_group=0)  # Ctrl-C reaches only us
        self.started[i] = time.monotonic()

    def _stop(self, signum, frame) -> None:  # noqa: ANN001
        self.stopping = True

    def run(self) -> int:
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGTERM, self._stop)
        for i in range(self.n):
            self.spawn(i)
        self.echo(f"{self.n} workers: " + ", ".join(str(p.pid) for p in self.procs.values()))
        code = 0
        restart_at: dict[int, float] = {}
        while not self.stopping:
            time.sleep(0.2)
            now = time.monotonic()
            for i, p in list(self.procs.items()):
                if i in restart_at:
                    if now >= restart_at[i]:
                        del restart_at[i]
                        self.spawn(i)
                    continue
                rc = p.poll()
                if rc is None:
                    if now - self.started[i] > START_GRACE:
                        self.failures = 0
                    continue
                early = now - self.started[i] < START_GRACE
                self.failures = self.failures + 1 if early else 0
                if self.failures >= GIVE_UP_AFTER:
                    self.echo(
                        f"error: workers keep exiting right after they start (last: code {rc}); "
                        "see their messages above"
                    )
                    self.stopping = True
                    code = 1
                    break
                pause = min(30.0, 0.5 * 2**self.failures)
                self.echo(f"worker {p.pid} exited (code {rc}); another starts in {pause:.1f} s")
                restart_at[i] = now + pause
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        end = time.monotonic() + STOP_SECONDS
        for p in self.procs.values():
            try:
                p.wait(max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        return code


def worker_argv(options: list[str]) -> list[str]:
    """The command of one worker: this server with ``options``, binding the shared port itself."""
    return [sys.executable, "-m", "redtable.server", *options, "--workers", "1", "--reuse-port"]


def worker_env(db: str, bus: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env["REDTABLE_DB"] = db
    if bus:
        env["REDTABLE_BUS"] = bus
    else:
        env.pop("REDTABLE_BUS", None)
    return env
