"""One WebSocket subscriber and what waits to be sent to it, bounded in bytes and in snapshots.

A client that stops reading must not make the server hold its messages forever: once
about ``limit`` bytes are queued for it, it is dropped (it reconnects and gets a fresh
snapshot). Snapshots (the whole game as the seat sees it) are the big messages, so at most
one is ever pending per connection: asking for one (``sync``, an undo) only marks the
connection, and the snapshot is built when it is about to be sent, from the newest state;
the updates queued before it are dropped, since the snapshot holds them.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any


class Conn:
    """A seat (int) or a spectator (None) listening to one game, with its outgoing queue."""

    __slots__ = (
        "seat",
        "client",
        "send",
        "closed",
        "ended",
        "limit",
        "items",
        "bytes",
        "state_extra",
        "snapshot",
        "wake",
        "close_reason",
        "token_hash",
        "refused",
        "close_code",
        "final",
        "chat",
    )

    def __init__(
        self,
        seat: int | None,
        send: Callable,
        *,
        client: str = "",
        limit: int = 4 * 1024 * 1024,
        snapshot: Callable[[int | None, dict], str | None] | None = None,
        token_hash: str | None = None,
    ) -> None:
        self.seat = seat
        self.token_hash = token_hash  # which device's token (signing out other devices ends the others)
        self.refused = 0  # messages refused in a row
        self.client = client
        self.send = send
        self.closed = False
        self.ended = asyncio.Event()  # the owner closes the socket when this is set
        self.limit = limit
        self.items: deque[tuple[bool, str]] = deque()  # (is_update, text)
        self.bytes = 0
        self.state_extra: dict | None = None  # a snapshot is pending (with these extra fields)
        self.snapshot = snapshot
        self.wake = asyncio.Event()
        self.close_reason = "closed by the server"
        self.close_code = 4008
        self.final: str | None = None  # a last message (why), sent before the close
        self.chat: Any = None  # how a spectator signs in the chat (chat.Author), set when it connects

    # -------------------------------------------------------------- queueing (event loop)
    def push(self, text: str, update: bool = False) -> None:
        """Queue one message; ``update``: superseded by a later snapshot."""
        if self.closed:
            return
        if self.bytes + len(text) > self.limit:
            self.end(reason="too slow: messages piled up unread")
            return
        self.items.append((update, text))
        self.bytes += len(text)
        self.wake.set()

    def want_state(self, **extra: Any) -> None:
        """Ask for a snapshot to be sent (built when sent, from the newest state; one at most)."""
        if self.closed:
            return
        if self.state_extra is None:
            self.state_extra = extra
        else:
            self.state_extra.update(extra)
        self._drop_updates()  # their memory is freed now, not when the snapshot goes
        self.wake.set()

    def _drop_updates(self) -> None:
        """Forget the queued updates: the pending snapshot holds what they say."""
        if self.items:
            self.items = deque(it for it in self.items if not it[0])
            self.bytes = sum(len(t) for _, t in self.items)

    def end(self, final: str | None = None, code: int | None = None, reason: str | None = None) -> None:
        """Stop sending; the owner sends ``final`` (if any) and closes with ``code``/``reason``."""
        if not self.closed:
            if final is not None:
                self.final = final
            if code is not None:
                self.close_code = code
            if reason is not None:
                self.close_reason = reason
            self.closed = True
            self.items.clear()
            self.bytes = 0
            self.state_extra = None
            self.wake.set()
            self.ended.set()

    # -------------------------------------------------------------- sending
    async def pump(self) -> None:
        """Send what is queued, in order, until the connection ends (the owner closes the socket)."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while not self.closed and (self.items or self.state_extra is not None):
                if self.state_extra is not None:
                    extra, self.state_extra = self.state_extra, None
                    self._drop_updates()  # (also those queued since it was asked for: built now, it has them)
                    text = self.snapshot(self.seat, extra) if self.snapshot else None
                    if text is not None:
                        await self.send(text)
                    continue
                _, text = self.items.popleft()
                self.bytes -= len(text)
                await self.send(text)
            if self.closed:
                return
