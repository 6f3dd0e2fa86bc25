"""The one test kit of tests/ and bench/: loopback ports, servers in a thread or a process of their own.

``tests/conftest.py`` puts ``tests/`` on the path (``import kit``); a bench script adds it itself
(``sys.path.insert(0, str(ROOT / "tests"))``). The folders' own helpers (``tests/server/srvkit.py``,
``tests/web/webkit.py``, ``tests/server/fleetkit.py``) build on these and re-export ``free_port``.

* :func:`net.free_port`, :func:`net.wait_http`: a free loopback port; wait until a URL answers.
* :class:`threaded.UvicornThread`: an ASGI app served by uvicorn in a thread of the test process.
* :class:`procs.ServerProcess`: ``python -m redtable.server`` in a process a test can kill;
  :func:`procs.stop_process`: SIGINT, then a kill.
"""

from kit.net import free_port, wait_http
from kit.procs import ServerProcess, stop_process

__all__ = ["ServerProcess", "free_port", "stop_process", "wait_http"]
