"""Notification e-mails (``notices.py`` decides when): one fact's e-mail, and the daily digest.

* Only to a **verified** address (``emails.py``), in the address's language (en/uk/pl).
* Every e-mail carries a one-click unsubscribe for its kind (RFC 8058): the headers
  ``List-Unsubscribe: <https://.../api/unsubscribe/TOKEN>`` and
  ``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (a mail client POSTs there), and a link
  for people (``/#/unsubscribe/TOKEN``: a page that asks, then posts the token in a body). The
  token is new for each e-mail, single-use, expiring, kept as its sha256 (``notifydb``); the
  server logs routes by their template, never the path that holds it.
* **The digest** (:func:`digest_round`): the accounts that chose it get one e-mail a day listing
  the turn-based games waiting on them; the day (UTC) is claimed per account in storage, so a
  fleet whose every process runs the round sends it once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, select

from . import metrics
from . import notifydb as db
from .accounts import accounts_table
from .emails import emails_table
from .notifytext import render
from .push import title_of
from .store import Store, games_table, run_blocking, seats_table
from .tabledb import tables_table

if TYPE_CHECKING:
    from .notices import Fact, Notifier

log = logging.getLogger("redtable.server.notifymail")

DIGEST_LIMIT = 30  # games listed in one digest
DAY = 24 * 3600.0


def recipient(store: Store, account_id: int) -> tuple[str, str, str] | None:
    """(username, address, lang) of the account's verified address; None without one."""
    e, a = emails_table.c, accounts_table.c
    with store.engine.connect() as conn:
        row = conn.execute(
            select(a.username, e.address, e.lang)
            .select_from(emails_table.join(accounts_table, a.id == e.account_id))
            .where(e.account_id == account_id, e.verified_at.is_not(None))
        ).first()
    return None if row is None else (row.username, row.address, row.lang)


def waiting_games(store: Store, account_id: int, limit: int = DIGEST_LIMIT) -> list[tuple[str, str, str | None]]:
    """(game id, title, seat name) of the active turn-based games whose clock runs for the account's seat."""
    g, s, t = games_table.c, seats_table.c, tables_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(g.id, g.game, s.name)
            .select_from(
                tables_table.join(games_table, g.id == t.game_id).join(
                    seats_table, and_(s.game_id == t.game_id, s.seat == t.running_seat)
                )
            )
            .where(s.account_id == account_id, t.speed == "turn", g.status == "active")
            .order_by(t.running_since)
            .limit(limit)
        ).all()
    return [(r.id, r.game, r.name) for r in rows]


def _base(n: Notifier) -> str:
    return (n.public_url or "http://localhost").rstrip("/")


async def _send(n: Notifier, account_id: int, kind: str, to: str, subject: str, body: str, token: str) -> bool:
    headers = {
        "List-Unsubscribe": f"<{_base(n)}/api/unsubscribe/{token}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    return bool(await n.mailer.send(kind, n.mailer.message(to, subject, body, headers)))


async def mail_fact(n: Notifier, account_id: int, fact: Fact, to: tuple[str, str, str]) -> bool:
    """The e-mail of one fact to the account's verified address ``to`` (:func:`recipient`)."""
    username, address, lang = to
    token = await run_blocking(db.new_unsub_token, n.store, account_id, fact.kind)
    base = _base(n)
    subject, body = render(
        fact.kind,
        lang,
        title=title_of(fact.game, lang),
        name=fact.name or username,
        by=fact.by or "",
        link=f"{base}/#/game/{fact.game_id}",
        settings=f"{base}/#/account",
        unsub=f"{base}/#/unsubscribe/{token}",
    )
    return await _send(n, account_id, fact.kind, address, subject, body, token)


async def digest_one(n: Notifier, account_id: int, now: float) -> bool:
    """Today's digest to the account, if it has games waiting and nobody sent today's yet."""
    got = await run_blocking(recipient, n.store, account_id)
    if got is None:
        return False
    games = await run_blocking(waiting_games, n.store, account_id)
    if not games:
        return False
    day = time.strftime("%Y-%m-%d", time.gmtime(now))
    if not await run_blocking(db.claim, n.store, account_id, "email:digest", day, now):
        return False
    username, to, lang = got
    token = await run_blocking(db.new_unsub_token, n.store, account_id, "digest")
    base = _base(n)
    lines = "\n".join(f"- {title_of(game, lang)}: {base}/#/game/{gid}" for gid, game, _ in games)
    subject, body = render(
        "digest",
        lang,
        count=str(len(games)),
        games=lines,
        settings=f"{base}/#/account",
        unsub=f"{base}/#/unsubscribe/{token}",
    )
    return await _send(n, account_id, "digest", to, subject, body, token)


async def digest_round(n: Notifier) -> int:
    """One round of the digest over every account that chose it: e-mails sent."""
    if n.mailer is None:
        return 0
    now = n.clock()
    sent = 0
    for account_id in await run_blocking(db.digest_accounts, n.store):
        try:
            sent += await digest_one(n, account_id, now)
        except Exception:  # noqa: BLE001  (one account's failure never stops the others')
            log.exception("the digest of an account failed")
    await run_blocking(db.forget_sent, n.store, now - 3 * DAY)  # every gap is long over
    metrics.digest_round()
    return sent


async def keep_digesting(n: Notifier, every: float | None = None) -> Any:
    """The periodic job: a digest round every ``every`` seconds (default 15 minutes, or
    ``REDTABLE_DIGEST_SECONDS``); each account still gets one a day."""
    if every is None:
        try:
            every = max(0.05, float(os.environ.get("REDTABLE_DIGEST_SECONDS", "900")))
        except ValueError:
            log.warning("REDTABLE_DIGEST_SECONDS is not a number of seconds: the digest runs every 900 s")
            every = 900.0
    while True:
        try:
            await digest_round(n)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001
            log.exception("the digest round failed; it runs again")
        await asyncio.sleep(every)
