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
import time
from pathlib import Path
from typing import Self

import httpx
from srvkit import free_port


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
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.02)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed (what a crash does)."""
        assert self.proc is not None, "kill() before start()"
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """SIGINT (a clean shutdown), a kill after 20 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
