"""An SQLite database file: where a URL puts it, and a consistent copy of it while it is written.

Below both ``schema.py`` (an SQLite file is copied aside before a migration) and ``backup.py``
(``redtable db backup``), so that neither imports the other.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url


class BackupError(Exception):
    """A backup, restore or check that cannot be done; the message says why and what to do."""


def sqlite_path(url: str) -> Path:
    db = make_url(url).database or ""
    if not db or db == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up; name a file: --db sqlite:///FILE")
    return Path(db).expanduser()


def sqlite_backup(src: Path, out: Path, pages: int = 1024) -> None:
    """Copy the database ``src`` into the new file ``out`` with the online backup API.

    ``pages`` at a time: between steps the source's writers go on (a step that sees a write
    restarts the copy from that snapshot, as the API does), so a busy server is not stalled.
    """
    if not src.is_file():
        raise BackupError(f"no database file at {src}")
    tmp = out.with_name(out.name + ".partial")
    tmp.unlink(missing_ok=True)
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True, timeout=30)
    try:
        target = sqlite3.connect(tmp)
        try:
            source.backup(target, pages=pages)
            target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            target.close()
    finally:
        source.close()
    os.replace(tmp, out)
