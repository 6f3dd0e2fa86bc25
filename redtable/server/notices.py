"""The one door of notifications to an account: every kind (your turn, invited, a rematch
offered, a table started, a real-time game waiting) is announced here, and this module decides
by the account's settings which channels (Web Push: ``push.py``; e-mail: ``emails.py``) carry it.

Callers state the fact, never the channel, so a new kind or a new channel changes this module
only.
"""

from __future__ import annotations

from typing import Any


async def invited(hub: Any, account_id: int, table_id: str, game: str, inviter: str) -> None:
    """``inviter`` invited the account to the table ``table_id`` (a game of ``game``)."""
