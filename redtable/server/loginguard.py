"""Friction against password guessing that never locks the owner out.

A hard lock (10 failures: no log-in for ten minutes) lets any stranger keep an owner out with
one wrong password a minute. Instead, in storage so that every process of a fleet sees it:

* **Failures** per username (any case; unknown names too, so an answer does not tell which
  names exist), forgotten after ``FAILURES_WINDOW``; every key's old rows are pruned.
* **A delay that grows with them**: after ``DELAY_AFTER`` failures a try waits
  ``2^(failures - DELAY_AFTER + 1)`` seconds (2, 4, 8, ...) from the last one, at most ``DELAY_MAX`` (429
  ``login_delay``, saying how many failures and how long).
* **A proof of work** after ``CHALLENGE_AFTER`` failures: the server issues a challenge (a
  random string stored with its difficulty, good for ``CHALLENGE_SECONDS``, redeemed once); the
  page finds a nonce such that ``sha256(challenge + ":" + nonce)`` starts with ``bits`` zero
  bits (``POW_BITS_MIN``-``POW_BITS_MAX``: a second or a few in a browser), which makes each
  guess cost the guesser and bounds how many run at once.
* **Known devices** pass both: a browser that logged in to the account before carries its
  device id (``devices.py``; the id's sha256 is stored with the account, ``DEVICES_PER_ACCOUNT``
  newest kept), and the right password from it logs in at once whatever strangers did. A device
  cookie logs nobody in by itself: it only spares its holder the friction.

A try is counted as a failure before its hash is checked (and forgotten if it succeeds), so
that tries sent at once see each other's; a try the hashing pool refused never got this far.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, delete, func, insert, select, update

from .store import metadata

USERNAME_MAX = 24
FAILURES_WINDOW = 900.0
DELAY_AFTER = 3
DELAY_MAX = 30.0
CHALLENGE_AFTER = 5
POW_BITS_MIN, POW_BITS_MAX = 16, 20
CHALLENGE_SECONDS = 300.0
DEVICES_PER_ACCOUNT = 20
CHALLENGE_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
NONCE_RE = re.compile(r"^[0-9]{1,20}$")

# (the table's name and first columns are older than this module: accounts.py kept them)
failures_table = Table(
    "redtable_login_failures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username_key", String(USERNAME_MAX), nullable=False),
    Column("at", Float, nullable=False),
    Index("redtable_login_failures_key", "username_key", "at"),
    Index("redtable_login_failures_at", "at"),
)

challenges_table = Table(
    "redtable_login_challenges",
    metadata,
    Column("challenge_hash", String(64), primary_key=True),
    Column("username_key", String(USERNAME_MAX), nullable=False),
    Column("bits", Integer, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("redtable_login_challenges_expiry", "expires_at"),
)

devices_table = Table(
    "redtable_known_devices",
    metadata,
    Column("device_hash", String(64), primary_key=True),
    Column("account_id", Integer, primary_key=True),
    Column("last_used", Float, nullable=False),
    Index("redtable_known_devices_account", "account_id", "last_used"),
)


@dataclass(frozen=True, slots=True)
class Friction:
    """What a log-in at one username faces now: ``wait`` seconds first, then a proof of ``bits`` (0: none)."""

    failures: int
    wait: float
    bits: int


def delay_for(failures: int) -> float:
    return 0.0 if failures < DELAY_AFTER else min(DELAY_MAX, 2.0 ** (failures - DELAY_AFTER + 1))


def bits_for(failures: int) -> int:
    if failures < CHALLENGE_AFTER:
        return 0
    return min(POW_BITS_MAX, POW_BITS_MIN + (failures - CHALLENGE_AFTER) // 3)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------------- failures (blocking: run off the loop)
def friction(store: Any, key: str, now: float | None = None) -> Friction:
    """The friction at ``key`` from the failures every process stored in the window."""
    now = time.time() if now is None else now
    f = failures_table.c
    with store.engine.connect() as conn:
        n, last = conn.execute(
            select(func.count(), func.max(f.at)).where(f.username_key == key, f.at > now - FAILURES_WINDOW)
        ).one()
    n = int(n or 0)
    wait = max(0.0, last + delay_for(n) - now) if n and last is not None else 0.0
    return Friction(n, wait, bits_for(n))


def record_failure(store: Any, key: str, now: float | None = None) -> int:
    """One more failure at ``key`` (its row id); every key's failures older than the window go."""
    now = time.time() if now is None else now
    f = failures_table.c
    with store.engine.begin() as conn:
        conn.execute(delete(failures_table).where(f.at <= now - FAILURES_WINDOW))
        got = conn.execute(insert(failures_table).values(username_key=key, at=now))
        pk = got.inserted_primary_key
    assert pk is not None
    return int(pk[0])


def clear_failures(store: Any, key: str) -> None:
    """The right password was given: the username's failures are forgotten."""
    with store.engine.begin() as conn:
        conn.execute(delete(failures_table).where(failures_table.c.username_key == key))


# ---------------------------------------------------------------------- proof of work
def leading_zero_bits(digest: bytes) -> int:
    n = 0
    for byte in digest:
        if byte:
            return n + 8 - byte.bit_length()
        n += 8
    return n


def proof_ok(challenge: str, nonce: str, bits: int) -> bool:
    return leading_zero_bits(hashlib.sha256(f"{challenge}:{nonce}".encode()).digest()) >= bits


def issue_challenge(store: Any, key: str, bits: int, now: float | None = None) -> str:
    """A new challenge for a log-in at ``key``, stored (by its sha256) with its difficulty; expired ones go."""
    now = time.time() if now is None else now
    challenge = secrets.token_urlsafe(24)
    c = challenges_table.c
    with store.engine.begin() as conn:
        conn.execute(delete(challenges_table).where(c.expires_at <= now))
        conn.execute(
            insert(challenges_table).values(
                challenge_hash=_sha(challenge), username_key=key, bits=bits, expires_at=now + CHALLENGE_SECONDS
            )
        )
    return challenge


def redeem(store: Any, key: str, challenge: Any, nonce: Any, bits: int, now: float | None = None) -> bool:
    """Whether ``nonce`` solves a live challenge issued for ``key`` at ``bits`` or more; a solved challenge
    is used up (one delete: of two processes redeeming it at once, one wins)."""
    if not isinstance(challenge, str) or not isinstance(nonce, str):
        return False
    if not CHALLENGE_RE.fullmatch(challenge) or not NONCE_RE.fullmatch(nonce):
        return False
    now = time.time() if now is None else now
    c = challenges_table.c
    h = _sha(challenge)
    with store.engine.begin() as conn:
        row = conn.execute(
            select(c.bits).where(c.challenge_hash == h, c.username_key == key, c.expires_at > now)
        ).first()
        if row is None or row.bits < bits or not proof_ok(challenge, nonce, row.bits):
            return False
        return conn.execute(delete(challenges_table).where(c.challenge_hash == h)).rowcount == 1


# ---------------------------------------------------------------------- known devices
def device_known(store: Any, device: str | None, account_id: int) -> bool:
    if not device or len(device) > 100:
        return False
    d = devices_table.c
    with store.engine.connect() as conn:
        row = conn.execute(
            select(d.account_id).where(d.device_hash == _sha(device), d.account_id == account_id)
        ).first()
    return row is not None


def remember_device(store: Any, device: str, account_id: int, now: float | None = None) -> None:
    """Remember that ``account_id`` logged in from ``device`` (the browser's id, ``devices.py``);
    the account keeps its ``DEVICES_PER_ACCOUNT`` most recently used."""
    now = time.time() if now is None else now
    d = devices_table.c
    h = _sha(device)
    with store.engine.begin() as conn:
        got = conn.execute(
            update(devices_table).where(d.device_hash == h, d.account_id == account_id).values(last_used=now)
        )
        if got.rowcount == 1:
            return
        conn.execute(insert(devices_table).values(device_hash=h, account_id=account_id, last_used=now))
        ranked = conn.execute(
            select(d.device_hash).where(d.account_id == account_id).order_by(d.last_used.desc())
        ).scalars()
        stale = list(ranked)[DEVICES_PER_ACCOUNT:]
        if stale:
            conn.execute(delete(devices_table).where(d.account_id == account_id, d.device_hash.in_(stale)))
