"""Sanctions on an account (mute, suspend, ban) and the refusals they make.

Low in the server's layers so that the modules that refuse a write (``accounts.py``'s
writes, ``chat.py``'s lines, the log-in) read it without importing moderation, which
imports them; ``moderation.py`` sets and lifts the sanctions and keeps the audit log.
A sanction is read from the database at every check, so every process of a fleet agrees.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Column, Float, Integer, String, Table, Text, or_, select

from .errors import ApiError
from .store import Store, metadata

SANCTIONS = ("mute", "suspend", "ban")

sanctions_table = Table(
    "redtable_sanctions",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("kind", String(12), primary_key=True),  # mute, suspend, ban
    Column("until", Float, nullable=True),  # None: until lifted
    Column("reason", Text, nullable=False),
    Column("action_id", Integer, nullable=True),
    Column("at", Float, nullable=False),
)


@dataclass(frozen=True, slots=True)
class Sanction:
    kind: str
    until: float | None
    reason: str


def active_sanctions(store: Store, account_id: int, now: float | None = None) -> dict[str, Sanction]:
    """The account's sanctions in force now, by kind."""
    now = time.time() if now is None else now
    s = sanctions_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(s.kind, s.until, s.reason).where(s.account_id == account_id, or_(s.until.is_(None), s.until > now))
        ).all()
    return {r.kind: Sanction(r.kind, r.until, r.reason) for r in rows}


def _until_text(until: float | None) -> str:
    return "until lifted" if until is None else f"until {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(until))}"


def blocked(sanctions: dict[str, Sanction], what: str) -> ApiError | None:
    """The refusal of ``what`` (chat, write, login) for an account under ``sanctions``, or None."""
    if "ban" in sanctions:
        b = sanctions["ban"]
        return ApiError(403, "banned", "this account is banned from this server", until=b.until, reason=b.reason)
    if what == "login":
        return None
    if "suspend" in sanctions:
        s = sanctions["suspend"]
        return ApiError(
            403,
            "suspended",
            f"this account is suspended {_until_text(s.until)}: it cannot create tables, sit, or write",
            until=s.until,
            reason=s.reason,
        )
    if what == "chat" and "mute" in sanctions:
        m = sanctions["mute"]
        return ApiError(403, "muted", f"this account is muted in every chat {_until_text(m.until)}", until=m.until)
    return None


def check_account(store: Store, account_id: int, what: str) -> None:
    """Raise the refusal of ``what`` for this account, if a sanction forbids it (blocking)."""
    err = blocked(active_sanctions(store, account_id), what)
    if err is not None:
        raise err
