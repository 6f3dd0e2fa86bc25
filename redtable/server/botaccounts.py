"""Bot accounts and API tokens: how an outside program plays on the server as an account.

* A **bot account** is an account with a row in ``redtable_bot_accounts``. Its owner makes it
  one (``POST /api/account/bot``) only while it has never held a seat (as on Lichess: a bot's
  games are never mixed with a person's); an admin may do it at any time (``redtable admin
  bot``). It is irreversible: nothing removes the row but erasing the account.
* An **API token** is ``rtb_`` + 256 random bits (:func:`new_token`), shown once at creation;
  storage keeps its sha256 (a copy of the database plays as nobody), its first characters (the
  *prefix*, to tell tokens apart in a list), its scopes, when it was made and last used. It is
  sent as ``Authorization: Bearer`` only (``tokens.py`` refuses any ``token`` in a URL, and the
  prefix keeps it apart from a seat token in the same header). Revoking deletes the row.
* **Scopes**: ``read`` (GET requests as the account) and ``bot:play`` (writes as the account:
  sitting, quick play, accepting a challenge; only a bot account's token may carry it). A token
  never manages tokens or the account: those routes want the session cookie.

What a token authenticates is an :class:`~redtable.server.accounts.Account`, exactly as a session
cookie does (``accounts.current_account``): the routes, their validation and their rate limits
are the people's. The seat the account takes is played with the seat token the answer carries,
over the seat's HTTP routes and WebSocket, as any seat.

The tables' account columns are named ``account_id`` so that erasing an account (``erasure.py``)
deletes its bot row and its tokens.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .errors import ApiError
from .store import Store, metadata, seats_table
from .tokens import API_TOKEN_PREFIX, sha

SCOPES = ("read", "bot:play")
TOKENS_PER_ACCOUNT = 20
LABEL_MAX = 60
PREFIX_CHARS = len(API_TOKEN_PREFIX) + 6
#: How often a token's ``last_used_at`` is written at most (seconds): not a write per request.
LAST_USED_EVERY = 60.0

bot_accounts_table = Table(
    "redtable_bot_accounts",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("made_at", Float, nullable=False),
    Column("made_by", String(16), nullable=False),  # "owner" or "admin"
)

api_tokens_table = Table(
    "redtable_api_tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("account_id", Integer, nullable=False),
    Column("prefix", String(16), nullable=False),
    Column("label", String(LABEL_MAX), nullable=False),
    Column("scopes", String(64), nullable=False),  # space-separated, from SCOPES
    Column("created_at", Float, nullable=False),
    Column("last_used_at", Float, nullable=True),
    Index("redtable_api_tokens_account", "account_id"),
)


def new_token() -> str:
    """An API token: the prefix that tells it from a seat token, then 256 random bits."""
    return API_TOKEN_PREFIX + secrets.token_urlsafe(32)


def check_scopes(scopes: list[str]) -> list[str]:
    bad = [s for s in scopes if s not in SCOPES]
    if bad or not scopes:
        raise ApiError(
            422, "bad_scope", f"scopes are one or more of {', '.join(SCOPES)}", scopes=list(SCOPES), reason="unknown"
        )
    return sorted(set(scopes))


# ---------------------------------------------------------------------- bot accounts (blocking)
def is_bot(store: Store, account_id: int) -> bool:
    b = bot_accounts_table.c
    with store.engine.connect() as conn:
        return conn.execute(select(b.account_id).where(b.account_id == account_id)).first() is not None


def bot_ids(conn: Any, account_ids: list[int]) -> set[int]:
    """Which of ``account_ids`` are bot accounts (inside the caller's transaction)."""
    if not account_ids:
        return set()
    b = bot_accounts_table.c
    return {r[0] for r in conn.execute(select(b.account_id).where(b.account_id.in_(account_ids)))}


def has_played(store: Store, account_id: int) -> bool:
    s = seats_table.c
    with store.engine.connect() as conn:
        return conn.execute(select(s.game_id).where(s.account_id == account_id).limit(1)).first() is not None


def make_bot(store: Store, account_id: int, by: str, *, force: bool = False) -> bool:
    """Make the account a bot account (True), or say it was one (False). The owner (not
    ``force``) is refused (409 ``bot_after_games``) once the account held a seat."""
    if not force and has_played(store, account_id):
        raise ApiError(
            409,
            "bot_after_games",
            "an account that has played games cannot become a bot account: make a new account for your bot",
        )
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(bot_accounts_table).values(account_id=account_id, made_at=time.time(), made_by=by))
    except IntegrityError:
        return False
    return True


# ---------------------------------------------------------------------- tokens (blocking)
def create_token(store: Store, account_id: int, label: str, scopes: list[str]) -> dict[str, Any]:
    """A new token for the account: its row's public facts and the token itself (shown this once)."""
    scopes = check_scopes(scopes)
    if "bot:play" in scopes and not is_bot(store, account_id):
        raise ApiError(403, "not_bot_account", "the bot:play scope is for bot accounts: make this account a bot first")
    token = new_token()
    now = time.time()
    t = api_tokens_table.c
    with store.engine.begin() as conn:
        n = conn.execute(select(func.count()).select_from(api_tokens_table).where(t.account_id == account_id))
        if n.scalar_one() >= TOKENS_PER_ACCOUNT:
            raise ApiError(
                409, "tokens_full", f"an account has at most {TOKENS_PER_ACCOUNT} tokens: revoke one first",
                max=TOKENS_PER_ACCOUNT,
            )  # fmt: skip
        got = conn.execute(
            insert(api_tokens_table).values(
                token_hash=sha(token),
                account_id=account_id,
                prefix=token[:PREFIX_CHARS],
                label=label,
                scopes=" ".join(scopes),
                created_at=now,
                last_used_at=None,
            )
        )
        pk = got.inserted_primary_key
        assert pk is not None
    row = {"id": int(pk[0]), "prefix": token[:PREFIX_CHARS], "label": label, "scopes": scopes}
    return {**row, "created_at": now, "last_used_at": None, "token": token}


def list_tokens(store: Store, account_id: int) -> list[dict[str, Any]]:
    """The account's tokens, newest first: never the token, only its prefix."""
    t = api_tokens_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(t.id, t.prefix, t.label, t.scopes, t.created_at, t.last_used_at)
            .where(t.account_id == account_id)
            .order_by(t.id.desc())
        ).all()
    return [
        {
            "id": r.id,
            "prefix": r.prefix,
            "label": r.label,
            "scopes": r.scopes.split(),
            "created_at": r.created_at,
            "last_used_at": r.last_used_at,
        }
        for r in rows
    ]


def revoke_token(store: Store, account_id: int, token_id: int) -> bool:
    t = api_tokens_table.c
    with store.engine.begin() as conn:
        return bool(conn.execute(delete(api_tokens_table).where(t.id == token_id, t.account_id == account_id)).rowcount)


def _accounts() -> Table:
    """The accounts' table, by name: ``accounts.py`` asks this module for a token's account, so
    this one does not import it back (the table is on the shared metadata once the app runs)."""
    return metadata.tables["redtable_accounts"]


def token_account(store: Store, token: str, scope: str, now: float | None = None) -> tuple[int, str] | None:
    """(account id, username) of a token that carries ``scope`` (``bot:play`` also grants
    ``read``), or None for an unknown or revoked token; 403 ``token_scope`` for a token without
    it. Notes when the token was last used (at most once a minute)."""
    accounts_table = _accounts()

    now = time.time() if now is None else now
    t, a = api_tokens_table.c, accounts_table.c
    with store.engine.connect() as conn:
        row = conn.execute(
            select(t.id, t.scopes, t.last_used_at, a.id.label("account_id"), a.username)
            .select_from(api_tokens_table.join(accounts_table, a.id == t.account_id))
            .where(t.token_hash == sha(token))
        ).first()
    if row is None:
        return None
    have = set(row.scopes.split())
    if scope not in have and not (scope == "read" and "bot:play" in have):
        raise ApiError(403, "token_scope", f"this API token lacks the {scope} scope", scope=scope)
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_EVERY:
        with store.engine.begin() as conn:
            conn.execute(update(api_tokens_table).where(t.id == row.id).values(last_used_at=now))
    return row.account_id, row.username


def account_seat(store: Store, game_id: str, account_id: int) -> int | None:
    """The seat of ``game_id`` the account holds (``seats.account_id``), or None."""
    s = seats_table.c
    with store.engine.connect() as conn:
        row = conn.execute(select(s.seat).where(s.game_id == game_id, s.account_id == account_id)).first()
    return None if row is None else int(row[0])


def bot_seats(store: Store, game_id: str) -> list[dict[str, Any]]:
    """The seats of a game held by bot accounts (seat, username): the game is a *bot game* when any."""
    accounts_table = _accounts()

    s, a, b = seats_table.c, accounts_table.c, bot_accounts_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(s.seat, a.username)
            .join(accounts_table, a.id == s.account_id)
            .join(bot_accounts_table, b.account_id == s.account_id)
            .where(s.game_id == game_id)
            .order_by(s.seat)
        ).all()
    return [{"seat": r[0], "username": r[1]} for r in rows]
