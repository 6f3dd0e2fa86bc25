"""An ASGI app served by uvicorn on a free loopback port, in a thread of the test process."""

from __future__ import annotations

import threading
import time
from typing import Any, Self

from kit.net import free_port


class UvicornThread:
    """``uvicorn.Server`` for ``app`` in a daemon thread; ``config`` adds to uvicorn's options."""

    def __init__(self, app: Any, **config: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        config.setdefault("log_level", "warning")
        config.setdefault("lifespan", "on")
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, **config))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> Self:
        """Start serving and wait (up to 20 s) until uvicorn says it has started."""
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
