"""Open data: finished games as Parquet / JSON Lines rows, and replaying them (``docs/data.md``).

    from redtable.data import read_rows, replay_row, views
    for row in read_rows("export/"):
        final = replay_row(row)              # the state after every action, each one checked

``schema`` holds the field list and version, ``files`` the part files, ``replay`` the
replay through the core protocol, ``rows`` the making of a row from a played game.
"""

from __future__ import annotations

from .files import FORMATS, read_rows, write_part
from .replay import check, decisions, record, replay_row, states, views
from .schema import FIELDS, SCHEMA_VERSION, DataError, normalize

__all__ = [
    "FIELDS",
    "FORMATS",
    "SCHEMA_VERSION",
    "DataError",
    "check",
    "decisions",
    "normalize",
    "read_rows",
    "record",
    "replay_row",
    "states",
    "views",
    "write_part",
]
