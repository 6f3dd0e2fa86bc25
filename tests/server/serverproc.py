"""``ServerProcess`` lives in the shared test kit (``tests/kit/procs.py``); this name stays for its importers."""

from kit.procs import ServerProcess

__all__ = ["ServerProcess"]
