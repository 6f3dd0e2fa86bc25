"""``redtable export``: a server's finished games as an open data set, incrementally.

The rows are ``redtable/data``'s (``docs/data.md``): options, seed and salt, the actions
that stand (undone ones left out, so replaying them from the seed gives the game), the
result, each seat's rating before and after (when the game was rated), the dates.

Invariants:

* **Incremental.** ``_export_state.json`` in the output directory keeps the last exported
  position, ``(finished_at, game id)``; a run exports the games after it, in that order,
  as one new part per format, and moves the position only once the parts are in place (a run
  that stopped between the two is redone into the same part number: no game twice). A
  game counts once it finished ``settle`` seconds ago, so a game a process was committing
  while the export read (its ``finished_at`` is taken just before its commit) is not
  skipped by the next run.
* **Anonymous.** No username, account id, display name or server game id is written, unless
  the account opted in (``publicgames.py``): then its username is. An account's seats carry
  a pseudonym (``p`` + 16 hex of HMAC-SHA256 under a random key made with the directory's
  state file), the same across the runs into one directory and unrelated between two
  directories; a game's id likewise. The key is in the state file: publish the parts,
  never that file (readers of Parquet data sets skip names starting with ``_``).
* **One writer.** A run holds an exclusive lock on ``.export.lock`` in the directory; a second
  run into it at the same time is refused, as is a directory with parts but no state file
  (whose pseudonyms could not continue).
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import and_, inspect, or_, select
from sqlalchemy.engine import Connection

from ..data.files import PartWriter, part_numbers
from ..data.rows import empty_seat
from ..data.schema import SCHEMA_VERSION, DataError
from .accounts import accounts_table
from .publicgames import public_accounts, public_games_table
from .ratings import history_table, places_of
from .store import Store, actions_table, games_table, seats_table

STATE_FILE = "_export_state.json"
LOCK_FILE = ".export.lock"
STATE_FORMAT = "redtable-export-state/1"
PAGE = 500  # games read per query


@dataclass(slots=True)
class ExportState:
    key: bytes
    finished_at: float | None = None
    game_id: str | None = None
    games: int = 0
    parts: int = 0  # the parts written; the next run writes part ``parts + 1``

    def to_json(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "schema_version": SCHEMA_VERSION,
            "key": self.key.hex(),
            "finished_at": self.finished_at,
            "game_id": self.game_id,
            "games": self.games,
            "parts": self.parts,
            "warning": "private: this key links pseudonyms to accounts; publish the part files, never this file",
        }

    def pseudonym(self, prefix: str, value: str) -> str:
        return prefix + hmac.new(self.key, f"{prefix}:{value}".encode(), hashlib.sha256).hexdigest()[:16]


def load_state(directory: Path) -> ExportState:
    """The directory's state, or a new one (a fresh key) when it has none."""
    path = directory / STATE_FILE
    if not path.exists():
        if part_numbers(directory):
            raise DataError(
                f"{directory} holds parts of a data set but not its {STATE_FILE} (its pseudonyms' key): "
                "export into a new directory"
            )
        return ExportState(secrets.token_bytes(32))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"format {data.get('format')!r}")
        return ExportState(
            bytes.fromhex(data["key"]), data["finished_at"], data["game_id"], int(data["games"]), int(data["parts"])
        )
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise DataError(f"{path} is not an export's state file ({e}); move it away to start a new data set") from None


def save_state(directory: Path, state: ExportState) -> None:
    tmp = directory / f".{STATE_FILE}.tmp"
    tmp.write_text(json.dumps(state.to_json(), indent=1), encoding="utf-8")
    os.chmod(tmp, 0o600)
    os.replace(tmp, directory / STATE_FILE)


def _finished_after(state: ExportState, since: float | None, until: float) -> Any:
    g = games_table.c
    cond = and_(g.status == "finished", g.finished_at.isnot(None), g.finished_at <= until)
    if since is not None:
        cond = and_(cond, g.finished_at >= since)
    if state.finished_at is not None:
        cond = and_(
            cond,
            or_(g.finished_at > state.finished_at, and_(g.finished_at == state.finished_at, g.id > state.game_id)),
        )
    return cond


def _rows(conn: Connection, state: ExportState, games: Sequence[Any], tables: set[str]) -> Iterator[dict[str, Any]]:
    """The rows of one page of games (in its order)."""
    ids = [r.id for r in games]
    s, a, h = seats_table.c, actions_table.c, history_table.c
    seats: dict[str, list[Any]] = {i: [] for i in ids}
    for r in conn.execute(select(seats_table).where(s.game_id.in_(ids)).order_by(s.game_id, s.seat)):
        seats[r.game_id].append(r)
    actions: dict[str, list[str]] = {i: [] for i in ids}
    for r in conn.execute(
        select(a.game_id, a.action).where(a.game_id.in_(ids), a.undone.is_(False)).order_by(a.game_id, a.seq)
    ):
        actions[r.game_id].append(r.action)
    ratings: dict[tuple[str, int], Any] = {}
    if history_table.name in tables:
        for r in conn.execute(select(history_table).where(h.game_id.in_(ids), h.account_id.isnot(None))):
            ratings[(r.game_id, r.account_id)] = r
    accounts = {r.account_id for rows in seats.values() for r in rows if r.account_id is not None}
    public = public_accounts(conn, accounts) if public_games_table.name in tables else set()
    names = {}
    if public:
        ac = accounts_table.c
        names = {r.id: r.username for r in conn.execute(select(ac.id, ac.username).where(ac.id.in_(sorted(public))))}
    for g in games:
        yield _row(state, g, seats[g.id], actions[g.id], ratings, names)


def _row(
    state: ExportState,
    g: Any,
    seat_rows: list[Any],
    actions: list[str],
    ratings: dict[tuple[str, int], Any],
    names: dict[int, str],
) -> dict[str, Any]:
    settings = orjson.loads(g.settings) if g.settings else {}
    result = orjson.loads(g.result) if g.result else {}
    scores = result.get("scores")
    try:
        place = places_of(result, g.players)
    except (ValueError, TypeError):
        place = None
    seats = []
    history = []
    for r in seat_rows:
        kind = "bot" if r.kind == "bot" else "guest" if r.account_id is None else "human"
        seat = empty_seat(r.seat, kind)
        if kind == "bot":
            seat["bot"] = r.bot
        elif kind == "human":
            seat["player"] = state.pseudonym("p", str(r.account_id))
            seat["username"] = names.get(r.account_id)
            rating = ratings.get((g.id, r.account_id))
            if rating is not None:
                history.append(rating)
                seat["mu_before"], seat["sigma_before"] = rating.mu_before, rating.sigma_before
                seat["mu_after"], seat["sigma_after"] = rating.mu_after, rating.sigma_after
        if scores is not None and r.seat < len(scores):
            seat["score"] = float(scores[r.seat])
        if place is not None and r.seat < len(place):
            seat["place"] = place[r.seat]
        seats.append(seat)
    return {
        "schema_version": SCHEMA_VERSION,
        "source": "server",
        "game_id": state.pseudonym("g", g.id),
        "game": g.game,
        "players": g.players,
        "options": orjson.loads(g.options) if g.options else {},
        "seed": g.seed,
        "salt": settings.get("salt"),
        "seed_commitment": settings.get("seed_commitment"),
        "seed_chosen": bool(settings.get("seed_chosen_by_creator")),
        "actions": actions,
        "decisions": len(actions),
        "scores": [float(x) for x in scores] if scores is not None else None,
        "winners": [int(w) for w in result.get("winners") or []],
        "forfeited": [int(w) for w in result.get("forfeited") or []],
        "rated": bool(settings.get("rated")) and not settings.get("ratings_undone") and bool(history),
        "seats": seats,
        "created_at": g.created_at,
        "finished_at": g.finished_at,
    }


def export(
    store: Store,
    out: Path,
    formats: list[str],
    since: float | None = None,
    settle: float = 60.0,
    now: float | None = None,
    page: int = PAGE,
) -> dict[str, Any]:
    """Export the games finished since the directory's last run (read ``page`` at a time); what was written."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / LOCK_FILE, "a+b") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DataError(f"another export is writing into {out}; wait for it to end") from None
        return _export(store, out, formats, since, settle, now, page)


def _export(
    store: Store, out: Path, formats: list[str], since: float | None, settle: float, now: float | None, page: int
) -> dict[str, Any]:
    state = load_state(out)
    until = (time.time() if now is None else now) - settle
    writer = PartWriter(out, state.parts + 1, formats)
    g = games_table.c
    try:
        with store.engine.connect() as conn:
            tables = set(inspect(conn).get_table_names(schema=store.schema))
            if games_table.name not in tables:
                raise DataError("this database holds no redtable games (no redtable_games table)")
            while True:
                games = conn.execute(
                    select(games_table)
                    .where(_finished_after(state, since, until))
                    .order_by(g.finished_at, g.id)
                    .limit(page)
                ).all()
                if not games:
                    break
                for row in _rows(conn, state, games, tables):
                    writer.add(row)
                state.finished_at, state.game_id = games[-1].finished_at, games[-1].id
    except BaseException:
        writer.abort()
        raise
    if not writer.rows:
        writer.abort()
        save_state(out, state)  # a first run keeps its key
        return {"games": 0, "files": [], "total": state.games}
    files = writer.commit()
    state.games += writer.rows
    state.parts += 1
    save_state(out, state)
    return {"games": writer.rows, "files": [str(f) for f in files], "total": state.games}
