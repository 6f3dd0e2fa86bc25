"""Deleting an account: what goes, what stays (anonymised), in one transaction.

Invariant: after :func:`erase` no row of any table holds the account's id, its username or
anything secret of it, and no other player's record is lost.

Which columns hold an account id is read from the metadata (:func:`account_columns`): a
column named ``account_id`` or ``*_account_id``, one listed in :data:`OTHER_ACCOUNT_COLUMNS`,
or one whose ``info`` says ``{"account": True}``. The default for such a column is that its
rows go, so a new table keyed by ``account_id`` (settings, follows) is erased with no change
here. The rows that stay are declared in :data:`KEPT` (the reason beside each) and lose the
link instead: their account id becomes NULL and any name of the account the label
``deleted player #N``.

* The **seats** of finished and running games stay (the other players' records and replays
  need them) named by the label, without the account; a running game's seat was handed to a
  bot before (``selfservice.py``, as a suspension does); a seat at a table still waiting for
  players (stored ``active`` with no decision made yet) is freed, as a seat whose player did
  not confirm. Every device token of those seats is revoked.
* **Chat** lines the account wrote go, except those a report already filed names (the
  moderators' evidence): those stay, their author the label.
* **Reports** stay (moderation), the account's side of them anonymised; so does the
  moderators' log of actions.
* **Ratings** and their history go: the account leaves the leaderboard; the other players'
  ratings and their history rows stay as they are.
* The tables it made stop naming it as their host (``settings.host``: the label), and the
  moderators' log details stop naming its rating keys (``a:<id>``: the tag).
* Everything else goes: sessions, e-mail address and links, push subscriptions, known
  devices, sanctions, notices, roles, quick-play tickets, rate buckets, log-in failures.

The label's number is random, not the account id: SQLite may give a deleted account's id to
the next new account, and the label must never point at it.
"""

from __future__ import annotations

import importlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Column, Connection, Table, and_, case, delete, exists, or_, select, tuple_, update

from .store import Store, actions_table, games_table, metadata, seats_table, tokens_table

#: Columns holding an account id whose name does not say so (table, column).
OTHER_ACCOUNT_COLUMNS = frozenset({("redtable_mod_actions", "actor_id"), ("redtable_reports", "closed_by")})
LABEL = "deleted player #{n}"


def label(n: int) -> str:
    return LABEL.format(n=n)


def is_account_column(table: Table, column: Column) -> bool:
    name = column.name
    return (
        name == "account_id"
        or name.endswith("_account_id")
        or (table.name, name) in OTHER_ACCOUNT_COLUMNS
        or bool(column.info.get("account"))
    )


def account_columns(tables: dict[str, Table] | None = None) -> list[tuple[Table, Column]]:
    """Every (table, column) of the metadata that holds an account id (the accounts' own ``id`` too)."""
    from . import schema

    for name in schema.MODEL_MODULES:  # (every table on the metadata, as the schema makes them)
        importlib.import_module(f"{__package__}.{name}")
    tables = metadata.tables if tables is None else tables
    out = []
    for t in sorted(tables.values(), key=lambda t: t.name):
        if t.name == "redtable_accounts":
            out.append((t, t.c.id))
            continue
        out.extend((t, c) for c in t.columns if is_account_column(t, c))
    return out


@dataclass(frozen=True, slots=True)
class Gone:
    """What one erasure did: the games whose seats changed (their in-memory copies refresh)."""

    label: str
    freed: list[tuple[str, int]]  # seats of waiting tables, free again
    renamed: list[tuple[str, int]]  # seats of running or finished games, now the label's
    hosts: list[str]  # games whose settings named the account as their host, now the label
    counts: dict[str, int]


@dataclass(frozen=True, slots=True)
class Ctx:
    conn: Connection
    account_id: int
    username: str
    label: str
    tag: str  # "d:<n>": the label in the "a:<id>" columns of the moderation tables
    now: float


Rule = Callable[[Ctx, Table, Column], int]


def _anonymise(**values: str | None) -> Rule:
    """Keep the rows; the account column NULL, and these columns set (``"{label}"``, ``"{tag}"``)."""

    def run(x: Ctx, t: Table, c: Column) -> int:
        vals: dict[str, Any] = {c.name: None}
        for k, v in values.items():
            vals[k] = v.format(label=x.label, tag=x.tag) if v is not None else None
        return x.conn.execute(update(t).where(c == x.account_id).values(**vals)).rowcount

    return run


def _report_target(x: Ctx, t: Table, c: Column) -> int:
    """A report about the account: the target ``a:<id>`` becomes the tag (a message's ``m:<chat id>``,
    a seat's ``s:<game>:<seat>`` stay: they name no account)."""
    mine = t.c.target == f"a:{x.account_id}"
    return x.conn.execute(
        update(t).where(c == x.account_id).values({c.name: None, "target": case((mine, x.tag), else_=t.c.target)})
    ).rowcount


def _seats(x: Ctx, t: Table, c: Column) -> int:
    return 0  # (done first, by _erase_seats: the chat needs the seats before their link goes)


#: The account columns whose rows stay, and why; every other account column's rows are deleted.
KEPT: dict[tuple[str, str], Rule] = {
    # the other players' game records and replays
    ("redtable_seats", "account_id"): _seats,
    # moderation: a report filed, and the moderators' log, outlive the account (anonymised)
    ("redtable_reports", "reporter_account_id"): _anonymise(reporter="{tag}"),
    ("redtable_reports", "target_account_id"): _report_target,
    ("redtable_reports", "closed_by"): _anonymise(),
    ("redtable_mod_actions", "account_id"): _anonymise(),
    ("redtable_mod_actions", "actor_id"): _anonymise(actor="{label}"),
}

#: Columns holding the account's *username* (not its id), and what becomes of their rows.
NAME_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("redtable_roles", "granted_by", "label"),
    ("redtable_site", "updated_by", "label"),
    ("redtable_login_failures", "username_key", "delete"),
    ("redtable_login_challenges", "username_key", "delete"),
)


def erase(store: Store, account_id: int, n: int | None = None, now: float | None = None) -> Gone | None:
    """Delete the account and everything of it, anonymise what stays; one transaction. None: no such account."""
    from .accounts import accounts_table, username_key

    now = time.time() if now is None else now
    n = secrets.randbelow(900_000) + 100_000 if n is None else n
    a = accounts_table.c
    with store.engine.begin() as conn:
        row = conn.execute(select(a.username).where(a.id == account_id).with_for_update()).first()
        if row is None:
            return None
        x = Ctx(conn, account_id, row.username, label(n), f"d:{n}", now)
        counts: dict[str, int] = {}
        freed, renamed, seats = _erase_seats(x)
        counts["redtable_chat"] = _erase_chat(x, seats)
        for t, c in account_columns():
            if t.name == "redtable_accounts":
                continue
            rule = KEPT.get((t.name, c.name))
            got = rule(x, t, c) if rule is not None else conn.execute(delete(t).where(c == account_id)).rowcount
            counts[f"{t.name}.{c.name}"] = got
        for table, column, how in NAME_COLUMNS:
            nt = metadata.tables.get(table)
            if nt is None:
                continue
            key = username_key(x.username) if column == "username_key" else x.username
            where = nt.c[column] == key
            q = delete(nt).where(where) if how == "delete" else update(nt).where(where).values({column: x.label})
            counts[f"{table}.{column}"] = conn.execute(q).rowcount
        counts["redtable_rate_buckets"] = _erase_buckets(x)
        hosts = _erase_hosts(x)
        counts["redtable_games.settings"] = len(hosts)
        counts["redtable_mod_actions.detail"] = _erase_keys(x)
        conn.execute(delete(accounts_table).where(a.id == account_id))
    return Gone(x.label, freed, renamed, hosts, counts)


def _erase_seats(x: Ctx) -> tuple[list[tuple[str, int]], list[tuple[str, int]], list[tuple[str, int]]]:
    """Free the account's seats at waiting tables, rename the others; revoke their device tokens."""
    s, g, tk, act = seats_table.c, games_table.c, tokens_table.c, actions_table.c
    # a table still waiting for its seats is stored "active" with no decision made (tables.py)
    begun = exists().where(act.game_id == s.game_id)
    waiting = and_(g.status == "active", s.kind == "human", ~begun)
    rows = x.conn.execute(
        select(s.game_id, s.seat, waiting.label("waiting"))
        .select_from(seats_table.join(games_table, g.id == s.game_id))
        .where(s.account_id == x.account_id)
    ).all()
    freed = [(r.game_id, r.seat) for r in rows if r.waiting]
    renamed = [(r.game_id, r.seat) for r in rows if not r.waiting]
    for gid, seat in freed:
        x.conn.execute(
            update(seats_table)
            .where(s.game_id == gid, s.seat == seat)
            .values(account_id=None, name=None, joined_at=None, token_hash=None)
        )
    if renamed:
        x.conn.execute(
            update(seats_table)
            .where(s.account_id == x.account_id)
            .values(account_id=None, name=x.label, token_hash=None)
        )
    every = freed + renamed
    for chunk in _chunks(every):
        x.conn.execute(
            update(tokens_table)
            .where(tuple_(tk.game_id, tk.seat).in_(chunk), tk.revoked_at.is_(None))
            .values(revoked_at=x.now)
        )
    return freed, renamed, every


def _erase_chat(x: Ctx, seats: list[tuple[str, int]]) -> int:
    """The account's chat lines (its seats' lines, its lines as a logged-in spectator) and its
    seats' mutes go; a line a report names stays, signed by the label."""
    chat = metadata.tables.get("redtable_chat")
    if chat is None:
        return 0
    c = chat.c
    where = chat_lines(chat, x.username, seats)
    reports = metadata.tables.get("redtable_reports")
    n = 0
    if reports is not None:
        named = select(reports.c.chat_id).where(reports.c.chat_id.isnot(None))
        n += x.conn.execute(update(chat).where(where, c.id.in_(named)).values(author=x.label)).rowcount
        where = and_(where, c.id.notin_(named))
    n += x.conn.execute(delete(chat).where(where)).rowcount
    mutes = metadata.tables.get("redtable_chat_mutes")
    if mutes is not None:
        for ch in _chunks(seats):
            x.conn.execute(delete(mutes).where(tuple_(mutes.c.game_id, mutes.c.seat).in_(ch)))
    return n


def chat_lines(chat: Table, username: str, seats: list[tuple[str, int]]) -> Any:
    """Where the account's chat lines are: at its seats (the players' channel), and signed with
    its name as a logged-in spectator (``chat.py``)."""
    c = chat.c
    mine = [and_(c.guest.is_(False), c.seat.is_(None), c.author == username)]
    mine += [and_(c.channel == "players", tuple_(c.game_id, c.seat).in_(ch)) for ch in _chunks(seats)]
    return or_(*mine)


def _erase_hosts(x: Ctx) -> list[str]:
    """The tables the account made name it as their host (``settings.host``, ``live.py``): the label now."""
    g = games_table.c
    out = []
    needle = orjson.dumps({"name": x.username}).decode()[1:-1]  # '"name":"<username>"', as stored
    for gid, raw in x.conn.execute(select(g.id, g.settings).where(g.settings.contains(needle, autoescape=True))):
        settings = orjson.loads(raw)
        host = settings.get("host")
        if isinstance(host, dict) and host.get("account") and host.get("name") == x.username:
            host["name"] = x.label
            x.conn.execute(update(games_table).where(g.id == gid).values(settings=orjson.dumps(settings).decode()))
            out.append(gid)
    return out


def _erase_keys(x: Ctx) -> int:
    """The account's rating keys (``a:<id>``, ``v:<id>``, ``o:<id>``) in the moderators' log details (an undo of
    ratings lists the keys it changed): the tag now."""
    actions = metadata.tables.get("redtable_mod_actions")
    if actions is None:
        return 0
    d = actions.c.detail
    keys = [f'"{k}:{x.account_id}"' for k in ("a", "v", "o")]  # (o: a bot account's, botaccounts.py)
    n = 0
    for rid, raw in x.conn.execute(select(actions.c.id, d).where(or_(*(d.contains(k, autoescape=True) for k in keys)))):
        for k in keys:
            raw = raw.replace(k, f'"{x.tag}"')
        n += x.conn.execute(update(actions).where(actions.c.id == rid).values(detail=raw)).rowcount
    return n


def _erase_buckets(x: Ctx) -> int:
    """The account's own rate buckets (kept under ``#<id>``: ``emails.py``, ``selfservice.py``)."""
    from .limits import network_key
    from .sharedlimits import buckets_table

    return x.conn.execute(delete(buckets_table).where(buckets_table.c.key == network_key(f"#{x.account_id}"))).rowcount


def _chunks(items: list[tuple[str, int]], size: int = 200) -> list[list[tuple[str, int]]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
