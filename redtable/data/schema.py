"""The open-data row: one finished game, the same fields in Parquet and in JSON Lines.

``docs/data.md`` documents every field; this module is its single source: :data:`FIELDS`
(name, type, meaning) is what the docs table, the Parquet schema and the row check all
read, so a field added here is added everywhere. A change that a reader of older files
would misread bumps :data:`SCHEMA_VERSION` (written into every row).

Encodings that differ between the two formats, and why:

* ``options`` is a JSON object in a JSONL row and a JSON *string* in Parquet (each title has
  its own options, and one Parquet column needs one type); :func:`normalize` turns both into
  a dict.
* ``created_at`` / ``finished_at`` are ISO-8601 UTC strings in JSONL and UTC timestamps
  (milliseconds) in Parquet; :func:`normalize` turns both into aware datetimes.

Everything else (the action list, seats, scores) is the same value in both.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

#: The version of the row's layout; every row carries it in ``schema_version``.
SCHEMA_VERSION = 1

#: (name, type as documented, meaning) of a seat's fields, in order.
SEAT_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("seat", "int", "the seat, 0-based; seat i decides when a decision's player is i"),
    ("kind", "string", "human (an account), guest (no account) or bot"),
    ("bot", "string or null", "the bot preset of a bot seat (e.g. ismcts:0.2s)"),
    (
        "player",
        "string or null",
        "an account's pseudonym, stable within one export directory; null for guests and bots",
    ),
    ("username", "string or null", "the account's name, only when its player opted in (public_games)"),
    ("score", "float or null", "the final score"),
    ("place", "int or null", "1 = first; equal places tie (forfeited seats come last)"),
    ("mu_before", "float or null", "the seat's rating (OpenSkill mu) before a rated game"),
    ("sigma_before", "float or null", "its uncertainty before the game"),
    ("mu_after", "float or null", "mu after the game"),
    ("sigma_after", "float or null", "sigma after the game"),
)

#: (name, type as documented, meaning) of a row's fields, in order.
FIELDS: tuple[tuple[str, str, str], ...] = (
    ("schema_version", "int", f"the layout of this row; this document describes version {SCHEMA_VERSION}"),
    ("source", "string", "server (redtable export) or simulate (redtable simulate --save-games)"),
    ("game_id", "string", "the game's id in this data set (a server's ids are pseudonymised)"),
    ("game", "string", "the title: red-rising or red-north"),
    ("players", "int", "number of seats"),
    ("options", "object", "the game's options besides the player count (Parquet: a JSON string)"),
    ("seed", "int", "the seed the game was dealt from"),
    ("salt", "string or null", "a server game's salt: sha256 of '<seed>:<salt>' is seed_commitment"),
    ("seed_commitment", "string or null", "the digest the server published when it dealt the game"),
    ("seed_chosen", "bool", "the creator chose the seed (never in a rated game)"),
    ("actions", "list<string>", "every decision in order (undone ones left out): replaying them from the seed"),
    ("decisions", "int", "len(actions)"),
    ("scores", "list<float> or null", "final score per seat"),
    ("winners", "list<int>", "the winning seats (a shared win lists several)"),
    ("forfeited", "list<int>", "seats whose time ran out in a rated game"),
    ("rated", "bool", "a rated game whose ratings still stand"),
    ("seats", "list<seat>", "one entry per seat, below"),
    ("created_at", "timestamp or null", "when the game was created (UTC; JSONL: ISO-8601)"),
    ("finished_at", "timestamp or null", "when it finished (UTC; JSONL: ISO-8601)"),
)

FIELD_NAMES = tuple(f[0] for f in FIELDS)
SEAT_NAMES = tuple(f[0] for f in SEAT_FIELDS)
_TIMES = ("created_at", "finished_at")


class DataError(ValueError):
    """A row or a file that is not in this format; the message names the field or the file."""


def iso(t: float | None) -> str | None:
    """Unix seconds as the ISO-8601 UTC text a JSONL row holds (milliseconds, like Parquet's)."""
    if t is None:
        return None
    return datetime.fromtimestamp(round(t, 3), UTC).isoformat(timespec="milliseconds")


def normalize(row: dict[str, Any]) -> dict[str, Any]:
    """A row read from either format as one Python value: ``options`` a dict, times aware
    datetimes. Checks the version and that every field is present."""
    import json

    version = row.get("schema_version")
    if version != SCHEMA_VERSION:
        raise DataError(f"schema_version {version!r} is not {SCHEMA_VERSION}, the version this redtable reads")
    missing = [k for k in FIELD_NAMES if k not in row]
    if missing:
        raise DataError(f"a row lacks the fields {', '.join(missing)}")
    out = {k: row[k] for k in FIELD_NAMES}
    if isinstance(out["options"], str):
        out["options"] = json.loads(out["options"])
    for k in _TIMES:
        v = out[k]
        if isinstance(v, str):
            out[k] = datetime.fromisoformat(v)
        elif isinstance(v, datetime) and v.tzinfo is None:
            out[k] = v.replace(tzinfo=UTC)
    out["seats"] = [{k: s.get(k) for k in SEAT_NAMES} for s in out["seats"]]
    return out


def arrow_schema() -> Any:
    """The Parquet file's schema (pyarrow: the ``data`` extra)."""
    import pyarrow as pa

    seat = pa.struct(
        [
            ("seat", pa.int32()),
            ("kind", pa.string()),
            ("bot", pa.string()),
            ("player", pa.string()),
            ("username", pa.string()),
            ("score", pa.float64()),
            ("place", pa.int32()),
            ("mu_before", pa.float64()),
            ("sigma_before", pa.float64()),
            ("mu_after", pa.float64()),
            ("sigma_after", pa.float64()),
        ]
    )
    ts = pa.timestamp("ms", tz="UTC")
    types = {
        "schema_version": pa.int32(),
        "source": pa.string(),
        "game_id": pa.string(),
        "game": pa.string(),
        "players": pa.int32(),
        "options": pa.string(),
        "seed": pa.int64(),
        "salt": pa.string(),
        "seed_commitment": pa.string(),
        "seed_chosen": pa.bool_(),
        "actions": pa.list_(pa.string()),
        "decisions": pa.int32(),
        "scores": pa.list_(pa.float64()),
        "winners": pa.list_(pa.int32()),
        "forfeited": pa.list_(pa.int32()),
        "rated": pa.bool_(),
        "seats": pa.list_(seat),
        "created_at": ts,
        "finished_at": ts,
    }
    assert tuple(types) == FIELD_NAMES and tuple(seat.names) == SEAT_NAMES  # one field list (FIELDS)
    return pa.schema([(name, types[name]) for name in FIELD_NAMES], metadata={"schema_version": str(SCHEMA_VERSION)})
