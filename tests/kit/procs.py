"""A real server process for the tests that must kill one: ``python -m redtable.server`` on a free port.

The fleet tests (``fleetkit.Proc``) and the crash test (``test_crash.Server``) both need a
server that a test can SIGKILL mid-play and start again; they differ only in the options
they pass (:meth:`ServerProcess.server_args`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Self

from kit.net import free_port, wait_http


def stop_process(proc: subprocess.Popen, sig: int = signal.SIGINT, wait: float = 20) -> None:
    """Send ``sig`` (a clean shutdown) and wait ``wait`` seconds, then kill."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class ServerProcess:
    """One ``python -m redtable.server`` on a loopback port; its stderr is appended to ``log``."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def server_args(self) -> list[str]:
        """The options after ``--port``, read at each start (a test may change them before a restart)."""
        return []

    def start(self) -> Self:
        """Start the process and wait (up to 60 s) until ``/api/health`` answers."""
        cmd = [
            sys.executable,
            "-m",
            "redtable.server",
            "--port",
            str(self.port),
            "--log-level",
            "warning",
            "--rate-scale",  # the clients play as fast as they can, from one address
            "1000",
            *self.server_args(),
        ]
        with open(self.log, "a") as err:  # the child holds its own copy of the descriptor
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_http(f"{self.base}/api/health", self.proc, timeout=60)
        except RuntimeError as e:
            raise RuntimeError(f"{e}: {self.log.read_text()[-3000:]}") from None
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed (what a crash does)."""
        assert self.proc is not None, "kill() before start()"
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """SIGINT (a clean shutdown), a kill after 20 s."""
        if self.proc is not None:
            stop_process(self.proc, signal.SIGINT, 20)
