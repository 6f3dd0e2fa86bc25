"""Errors shared by every game and every consumer of the core protocol."""

from __future__ import annotations

from collections.abc import Iterable


class RedtableError(Exception):
    """Base of every error the project raises on purpose."""


class IllegalAction(RedtableError):
    """An action that is not among the current decision's options.

    The state is left exactly as it was; ``legal`` carries the options that were allowed
    so that every front end can show them.
    """

    def __init__(self, action: object, legal: Iterable[object], player: int | None = None, kind: str = "") -> None:
        self.action = action
        self.legal = tuple(legal)
        self.player = player
        self.kind = kind
        shown = ", ".join(map(str, self.legal[:40])) + (" …" if len(self.legal) > 40 else "")
        who = f" for player {player}" if player is not None else ""
        super().__init__(
            f"illegal action {action!r}{who} at decision {kind or '?'}; legal: {shown or 'none (game over)'}"
        )


class GameOver(RedtableError):
    """A decision was asked of a game that is over (:meth:`~redtable.core.protocol.State.pending`)."""


class InvalidOptions(RedtableError):
    """Game options (player count, variants) outside what the game allows."""


class ReplayError(RedtableError):
    """A saved game that cannot be replayed: malformed, or an action illegal at its step."""

    def __init__(self, message: str, step: int | None = None) -> None:
        self.step = step
        super().__init__(message if step is None else f"step {step}: {message}")
