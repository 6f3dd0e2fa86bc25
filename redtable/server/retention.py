"""Retention: what the server forgets, and when.

* the chat of a *finished* game, ``chat_days`` after it finished (a game still played
  keeps its chat, whatever its age);
* failed log-in rows (``loginguard.failures_table``), ``failure_days`` after they were
  written: they matter for a quarter of an hour (the log-in friction, which also prunes
  them when the next failure comes); this purge catches the rows no later failure swept;
* resolved and dismissed reports (``moderation.py``), ``report_days`` after they were closed
  (open reports stay; the audit log of what moderators did is never purged).

Finished games' records (seed, seats, decision log, result) and ratings are kept: replays,
profiles and ratings are built from them. ``redtable serve`` purges once an hour
(``--chat-days``, ``--login-failure-days``; 0 keeps forever); ``redtable db purge`` does it
once, from cron for instance.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select

log = logging.getLogger("redtable.server.retention")

DAY = 86400.0
DAYS_MAX = 36500


@dataclass(frozen=True)
class Retention:
    chat_days: float = 90.0
    failure_days: float = 30.0
    every_seconds: float = 3600.0
    report_days: float = 365.0

    def __post_init__(self) -> None:
        for name in ("chat_days", "failure_days", "report_days"):
            v = getattr(self, name)
            if not 0 <= v <= DAYS_MAX:
                raise ValueError(f"{name} must be 0 (keep forever) to {DAYS_MAX}, got {v}")


def purge(store: Any, retention: Retention, now: float | None = None) -> dict[str, int]:
    """Delete what ``retention`` says is old; answer how many rows of each kind went."""
    from .chat import chat_table as chat
    from .loginguard import failures_table as failures
    from .moderation import reports_table as reports
    from .store import games_table as games

    now = time.time() if now is None else now
    out = {"chat": 0, "login_failures": 0, "reports": 0}
    with store.engine.begin() as conn:
        if retention.chat_days > 0:
            done = select(games.c.id).where(
                games.c.finished_at.is_not(None), games.c.finished_at < now - retention.chat_days * DAY
            )
            out["chat"] = conn.execute(delete(chat).where(chat.c.game_id.in_(done))).rowcount or 0
        if retention.failure_days > 0:
            old = failures.c.at < now - retention.failure_days * DAY
            out["login_failures"] = conn.execute(delete(failures).where(old)).rowcount or 0
        if retention.report_days > 0:
            closed = reports.c.closed_at < now - retention.report_days * DAY
            out["reports"] = conn.execute(delete(reports).where(reports.c.status != "open", closed)).rowcount or 0
    return out


async def keep_purging(store: Any, retention: Retention) -> None:
    """The server's task: purge now and every ``every_seconds`` (failures are logged, never fatal)."""
    from .store import run_blocking

    while True:
        try:
            gone = await run_blocking(purge, store, retention)
            if any(gone.values()):
                log.info("retention purged %d chat lines and %d failed log-ins", gone["chat"], gone["login_failures"])
        except Exception:  # noqa: BLE001  (the database may be away a while: try again next time)
            log.exception("the retention purge failed")
        await asyncio.sleep(retention.every_seconds)
