"""Loopback ports and waiting for a server to answer (standard library and httpx only: bench/ imports it)."""

from __future__ import annotations

import socket
import subprocess
import time

import httpx


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(
    url: str, proc: subprocess.Popen | None = None, timeout: float = 60.0, every: float = 0.02, **get_kw
) -> None:
    """Return once ``GET url`` answers 200; raise RuntimeError after ``timeout`` seconds, or at once
    when ``proc`` (the server's process, if it has one) has exited."""
    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited (status {proc.returncode}) before {url} answered")
        try:
            if httpx.get(url, timeout=1, **get_kw).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer within {timeout} s")
        time.sleep(every)
