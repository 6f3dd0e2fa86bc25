"""The storage of notifications (``notices.py``): each account's per-kind settings, the claims
that make a notification go out once across a fleet (and turn e-mails at most once per game per
hour), and the single-use one-click unsubscribe tokens of e-mails.

* ``redtable_notify_settings``: one row per account that changed a default (JSON, bounded by
  :class:`Settings`); no row means :data:`DEFAULTS`.
* ``redtable_notify_sent``: ``(account, channel:kind, subject)`` -> when it was last sent. A
  sender *claims* the row before it sends (one ``INSERT`` or a conditional ``UPDATE`` of a row
  older than the gap): whichever process wins sends, the others do nothing. The subject is a
  game (turn e-mails, once an hour), an event (a rematch offer, a table's start) or a day
  (the digest).
* ``redtable_unsub_tokens``: an unsubscribe link's token, kept only as its sha256, for one
  kind, spent by one ``DELETE`` (used once across a fleet), expiring after :data:`UNSUB_SECONDS`.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sqlalchemy import Column, Float, Index, Integer, String, Table, delete, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .store import Store, metadata

#: Every kind of notification. ``digest`` is an e-mail only (one a day listing the games waiting on you).
KINDS = ("your_turn", "waiting", "invited", "rematch_offered", "table_started")
EMAIL_KINDS = (*KINDS, "digest")
UNSUB_SECONDS = 60 * 24 * 3600.0  # an unsubscribe link works this long (once)
TURN_MAIL_GAP = 3600.0  # at most one turn e-mail per game per hour per account


class KindSwitches(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    your_turn: StrictBool = True
    waiting: StrictBool = True
    invited: StrictBool = True
    rematch_offered: StrictBool = True
    table_started: StrictBool = True


class EmailSwitches(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    your_turn: StrictBool = True
    waiting: StrictBool = False  # (a real-time game: by the time the mail is read, the clock ran)
    invited: StrictBool = True
    rematch_offered: StrictBool = False
    table_started: StrictBool = False


class Settings(BaseModel):
    """An account's notification settings: Web Push per kind, e-mail per kind, and the daily digest
    (one e-mail a day listing the turn-based games waiting on you) instead of per-game turn e-mails."""

    model_config = ConfigDict(extra="forbid", strict=True)
    push: KindSwitches = Field(default_factory=KindSwitches, description="Web Push, per kind")
    email: EmailSwitches = Field(default_factory=EmailSwitches, description="e-mail, per kind")
    digest: StrictBool = Field(default=False, description="one e-mail a day instead of an e-mail per game's turn")

    def wants(self, channel: str, kind: str) -> bool:
        if channel == "email" and kind == "digest":
            return self.digest
        if channel == "email" and kind == "your_turn" and self.digest:
            return False  # the digest replaces the per-game turn e-mails
        return bool(getattr(getattr(self, channel), kind))


DEFAULTS = Settings()

settings_table = Table(
    "redtable_notify_settings",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("settings", String(1024), nullable=False),
    Column("updated_at", Float, nullable=False),
)

sent_table = Table(
    "redtable_notify_sent",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("kind", String(32), primary_key=True),  # channel:kind
    Column("subject", String(64), primary_key=True),  # a game id, an event, a day
    Column("sent_at", Float, nullable=False),
    Column("claim", String(24), nullable=False),  # who claimed it last (a random value of the sender)
    Index("redtable_notify_sent_at", "sent_at"),
)

unsub_table = Table(
    "redtable_unsub_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("redtable_unsub_tokens_expiry", "expires_at"),
)


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# ---------------------------------------------------------------------- settings
def read_settings(store: Store, account_id: int) -> Settings:
    c = settings_table.c
    with store.engine.connect() as conn:
        raw = conn.execute(select(c.settings).where(c.account_id == account_id)).scalar()
    return DEFAULTS if raw is None else parse(raw)


def parse(raw: str) -> Settings:
    """A stored row's settings (a row another redtable version wrote with other fields: the defaults)."""
    try:
        return Settings.model_validate_json(raw)
    except ValueError:
        return DEFAULTS


def _upsert(store: Store) -> Any:
    return pg_insert if store.dialect == "postgresql" else sqlite_insert


def write_settings(store: Store, account_id: int, settings: Settings, now: float | None = None) -> None:
    now = time.time() if now is None else now
    values = {"settings": settings.model_dump_json(), "updated_at": now}
    stmt = _upsert(store)(settings_table).values(account_id=account_id, **values)
    with store.engine.begin() as conn:
        conn.execute(stmt.on_conflict_do_update(index_elements=["account_id"], set_=values))


def switch_off(store: Store, account_id: int, kind: str) -> None:
    """E-mails of ``kind`` off (an unsubscribe link)."""
    s = read_settings(store, account_id)
    if kind == "digest":
        s = s.model_copy(update={"digest": False})
    else:
        s = s.model_copy(update={"email": s.email.model_copy(update={kind: False})})
    write_settings(store, account_id, s)


def digest_accounts(store: Store) -> list[int]:
    """The accounts that asked for the daily digest."""
    c = settings_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(c.account_id, c.settings).where(c.settings.like('%"digest":true%'))).all()
    return [r.account_id for r in rows if parse(r.settings).digest]


# ---------------------------------------------------------------------- once across a fleet
def claim(store: Store, account_id: int, kind: str, subject: str, now: float, gap: float = 0.0) -> bool:
    """True for the one caller that may send (``kind``, ``subject``) to the account now: no send
    of it before, or the last one at least ``gap`` seconds ago (``gap=0``: only ever once).

    One upsert: the row is made, or taken over only when it is old enough; the caller's random
    ``claim`` read back says whose it is (a driver's row count of an upsert is not to be trusted)."""
    c = sent_table.c
    mine = secrets.token_hex(12)
    subject = subject[:64]
    stmt = _upsert(store)(sent_table).values(account_id=account_id, kind=kind, subject=subject, sent_at=now, claim=mine)
    stale = c.sent_at <= now - gap if gap > 0 else c.sent_at < -1.0  # (gap 0: never taken over)
    stmt = stmt.on_conflict_do_update(
        index_elements=["account_id", "kind", "subject"], set_={"sent_at": now, "claim": mine}, where=stale
    )
    with store.engine.begin() as conn:
        conn.execute(stmt)
        got = conn.execute(
            select(c.claim).where(c.account_id == account_id, c.kind == kind, c.subject == subject)
        ).scalar()
    return got == mine


def forget_sent(store: Store, before: float) -> int:
    """Drop claims older than ``before`` (their gap is long over)."""
    with store.engine.begin() as conn:
        return conn.execute(delete(sent_table).where(sent_table.c.sent_at < before)).rowcount


# ---------------------------------------------------------------------- unsubscribe tokens
def new_unsub_token(store: Store, account_id: int, kind: str, now: float | None = None) -> str:
    now = time.time() if now is None else now
    token = secrets.token_urlsafe(32)
    with store.engine.begin() as conn:
        conn.execute(delete(unsub_table).where(unsub_table.c.expires_at < now))  # the expired go as new ones come
        conn.execute(
            insert(unsub_table).values(
                token_hash=digest_of(token), account_id=account_id, kind=kind, expires_at=now + UNSUB_SECONDS
            )
        )
    return token


def spend_unsub_token(store: Store, token: str, now: float | None = None) -> tuple[int, str] | None:
    """(account id, kind) once for a live token; None when unknown, spent or expired."""
    now = time.time() if now is None else now
    t = unsub_table.c
    h = digest_of(token)
    with store.engine.begin() as conn:
        row = conn.execute(select(t.account_id, t.kind, t.expires_at).where(t.token_hash == h)).first()
        if row is None:
            return None
        gone = conn.execute(delete(unsub_table).where(t.token_hash == h))
        if gone.rowcount != 1 or row.expires_at < now:  # another process spent it first, or too late
            return None
    return row.account_id, row.kind


def dumps(settings: Settings) -> dict[str, Any]:
    return json.loads(settings.model_dump_json())
