"""A bound on every HTTP request head, in size and in time (uvicorn's httptools protocol, bounded).

httptools gathers a header that has not ended by concatenating what arrives, with no cap:
one client sending ten 10 MB headers that never end holds 100 MB of the server and costs
it seconds of CPU (the concatenation is quadratic), and a client that sends a header a byte
a minute (slowloris) holds a connection for ever. Here a request head (request line and
headers) may be at most :attr:`BoundedHttpToolsProtocol.head_bytes` (answered 431 and
closed past that, before the parser sees the excess) and must be complete within
:attr:`head_seconds` of the connection opening or of the previous request ending
(answered 408 and closed). Bodies are bounded by :class:`redtable.server.edge.Edge`.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_BYTES = 16 * 1024
HEAD_SECONDS = 10.0


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    head_bytes = HEAD_BYTES
    head_seconds = HEAD_SECONDS
    # Set when the connection opens; None while no head is awaited (between a head's end and the request's).
    _head_timer: asyncio.TimerHandle | None

    def connection_made(self, transport) -> None:  # noqa: ANN001
        super().connection_made(transport)
        self._head = 0  # bytes of the current request head so far; -1 once it is complete
        self._tail = b""  # the last 3 bytes seen, to find a head's end across reads
        self._requests = 0
        self._head_timer = self.loop.call_later(self.head_seconds, self._head_late)

    def data_received(self, data: bytes) -> None:
        if self._head >= 0:
            seen = self._tail + data
            end = seen.find(b"\r\n\r\n")
            self._head += len(data) if end < 0 else max(0, end + 4 - len(self._tail))
            self._tail = seen[-3:]
            if self._head > self.head_bytes:
                self._refuse(b"431 Request Header Fields Too Large")
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._head = -1
        self._cancel_head_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._requests += 1
        self._head, self._tail = 0, b""  # the next request on this connection starts
        if self.transport is not None and not self.transport.is_closing():
            self._cancel_head_timer()
            self._head_timer = self.loop.call_later(self.head_seconds, self._head_late)

    def connection_lost(self, exc) -> None:  # noqa: ANN001
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _cancel_head_timer(self) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self._head > 0:  # a head begun and not finished in time
            self._refuse(b"408 Request Timeout")
        elif self._head == 0 and self._requests == 0 and self.transport is not None:
            self.transport.close()  # a connection that never said anything
        # (an idle keep-alive connection is uvicorn's to close: timeout_keep_alive)

    def _refuse(self, status: bytes) -> None:
        self._cancel_head_timer()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"HTTP/1.1 " + status + b"\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            self.transport.close()
