"""Web Push: a browser subscribes (``POST /api/push/subscriptions``, logged in) and is told,
with the tab closed, what ``notices.py`` decides it should hear (your turn, a game waiting on
you, an invitation, a rematch offered, a table started): this module is the channel only.

* VAPID keys: generated on the first start and kept in the database (``redtable_push_keys``,
  one row, so every process of a fleet signs with the same key), or given by the operator
  (``REDTABLE_VAPID_KEY``: a PEM file's path). ``GET /api/push/key`` is the public key the page
  subscribes with.
* A payload names the game, its title and whose turn it is, never a card: it is encrypted for
  the browser (RFC 8291, aes128gcm, pywebpush) but it leaves this server for the browser's
  push service.
* Expired subscriptions (the push service answers 404 or 410) are dropped.
* One push per event: ``notices.py`` claims the event in storage before sending, so one process
  of a fleet sends it.
* An endpoint must be ``https://`` (a push service); ``app.state.push_loopback`` (tests only)
  also allows ``http://127.0.0.1``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from sqlalchemy import Column, Float, Index, Integer, String, Table, delete, insert, select
from sqlalchemy.exc import IntegrityError

from ..core import registry
from . import metrics
from .apimodels import PushKey, Subscribed
from .apischema import errors
from .errors import ApiError
from .store import Store, metadata, run_blocking

log = logging.getLogger("redtable.server.push")

ENDPOINT_MAX = 1024
SUBSCRIPTIONS_PER_ACCOUNT = 10
LANGS = ("en", "uk", "pl")

push_keys_table = Table(
    "redtable_push_keys",
    metadata,
    Column("id", Integer, primary_key=True),  # always 1
    Column("private_pem", String(1024), nullable=False),
    Column("created_at", Float, nullable=False),
)

push_subscriptions_table = Table(
    "redtable_push_subscriptions",
    metadata,
    Column("endpoint", String(ENDPOINT_MAX), primary_key=True),
    Column("account_id", Integer, nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("redtable_push_subscriptions_account", "account_id"),
)

TEXTS = {
    "your_turn": {
        "en": ("{title}: your turn", "{name}, the table waits for you."),
        "uk": ("{title}: ваш хід", "{name}, стіл чекає на вас."),
        "pl": ("{title}: twój ruch", "{name}, stół czeka na ciebie."),
    },
    "waiting": {
        "en": ("{title}: the table waits for you", "{name}, a real-time game waits on your move."),
        "uk": ("{title}: стіл чекає на вас", "{name}, гра в реальному часі чекає на ваш хід."),
        "pl": ("{title}: stół czeka na ciebie", "{name}, gra w czasie rzeczywistym czeka na twój ruch."),
    },
    "invited": {
        "en": ("{title}: an invitation", "{by} invites you to a table."),
        "uk": ("{title}: запрошення", "{by} запрошує вас за стіл."),
        "pl": ("{title}: zaproszenie", "{by} zaprasza cię do stołu."),
    },
    "rematch_offered": {
        "en": ("{title}: a rematch?", "{by} offers a rematch."),
        "uk": ("{title}: реванш?", "{by} пропонує реванш."),
        "pl": ("{title}: rewanż?", "{by} proponuje rewanż."),
    },
    "table_started": {
        "en": ("{title}: the game has started", "{name}, the table you joined has started."),
        "uk": ("{title}: гра почалася", "{name}, стіл, за який ви сіли, почав гру."),
        "pl": ("{title}: gra się zaczęła", "{name}, gra przy twoim stole się zaczęła."),
    },
}

router = APIRouter(tags=["push"])


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------------- keys
def vapid_pem(store: Store) -> str:
    """The server's VAPID private key (PEM): the operator's file, else the database's, made once."""
    path = os.environ.get("REDTABLE_VAPID_KEY")
    if path:
        with open(path, encoding="ascii") as f:
            return f.read()
    k = push_keys_table.c
    with store.engine.connect() as conn:
        pem = conn.execute(select(k.private_pem).where(k.id == 1)).scalar()
    if pem:
        return pem
    from py_vapid import Vapid

    v = Vapid()
    v.generate_keys()
    try:
        with store.engine.begin() as conn:
            conn.execute(
                insert(push_keys_table).values(id=1, private_pem=v.private_pem().decode(), created_at=time.time())
            )
    except IntegrityError:  # another process made it first: its key is the fleet's
        pass
    with store.engine.connect() as conn:
        return conn.execute(select(k.private_pem).where(k.id == 1)).scalar_one()


def public_key(pem: str) -> str:
    """The applicationServerKey a page subscribes with (base64url, uncompressed P-256 point)."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from py_vapid import Vapid

    v = Vapid.from_pem(pem.encode())
    return b64url(v.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


# ---------------------------------------------------------------------- subscriptions
def subscribe(store: Store, account_id: int, endpoint: str, p256dh: str, auth: str, lang: str) -> None:
    s = push_subscriptions_table.c
    with store.engine.begin() as conn:
        conn.execute(delete(push_subscriptions_table).where(s.endpoint == endpoint))
        conn.execute(
            insert(push_subscriptions_table).values(
                endpoint=endpoint, account_id=account_id, p256dh=p256dh, auth=auth, lang=lang, created_at=time.time()
            )
        )
        rows = conn.execute(select(s.endpoint).where(s.account_id == account_id).order_by(s.created_at.desc())).all()
        for old in rows[SUBSCRIPTIONS_PER_ACCOUNT:]:  # the oldest go past the limit
            conn.execute(delete(push_subscriptions_table).where(s.endpoint == old.endpoint))


def unsubscribe(store: Store, account_id: int, endpoint: str) -> int:
    s = push_subscriptions_table.c
    with store.engine.begin() as conn:
        return conn.execute(
            delete(push_subscriptions_table).where(s.endpoint == endpoint, s.account_id == account_id)
        ).rowcount


def subscriptions_of(store: Store, account_id: int) -> list[dict[str, str]]:
    s = push_subscriptions_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(s.endpoint, s.p256dh, s.auth, s.lang).where(s.account_id == account_id)).all()
    return [{"endpoint": r.endpoint, "p256dh": r.p256dh, "auth": r.auth, "lang": r.lang} for r in rows]


def drop(store: Store, endpoint: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(push_subscriptions_table).where(push_subscriptions_table.c.endpoint == endpoint))


def seat_account(store: Store, game_id: str, seat: int) -> int | None:
    from .store import seats_table

    c = seats_table.c
    with store.engine.connect() as conn:
        return conn.execute(select(c.account_id).where(c.game_id == game_id, c.seat == seat)).scalar()


# ---------------------------------------------------------------------- sending
def title_of(game: str, lang: str) -> str:
    """A title's name in ``lang`` (its id when unknown)."""
    if game not in registry.GAMES:
        return game
    return registry.title(game).display.get(lang, game)


def payload(kind: str, lang: str, game_id: str, game: str, name: str, by: str | None = None) -> dict[str, Any]:
    """What a push carries: the game, its title, whose turn (and who invited or offered); never a card."""
    title = title_of(game, lang)
    head, body = TEXTS[kind].get(lang) or TEXTS[kind]["en"]
    out = {
        "kind": kind,
        "game_id": game_id,
        "game": game,
        "turn": name,
        "title": head.format(title=title, name=name, by=by or ""),
        "body": body.format(title=title, name=name, by=by or ""),
        "url": f"/#/game/{game_id}",
    }
    if by is not None:
        out["by"] = by
    return out


def send_one(pem: str, sub: dict[str, str], data: dict[str, Any], contact: str) -> str:
    """Send one push (blocking): "sent", "gone" (404/410: the subscription expired) or "failed"."""
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    info = {"endpoint": sub["endpoint"], "keys": {"p256dh": sub["p256dh"], "auth": sub["auth"]}}
    try:
        webpush(
            info,
            data=json.dumps(data),
            vapid_private_key=Vapid.from_pem(pem.encode()),
            vapid_claims={"sub": contact},
            timeout=10,
            ttl=24 * 3600,
        )
    except WebPushException as e:
        status = e.response.status_code if e.response is not None else None
        if status in (404, 410):
            return "gone"
        log.warning("a push was refused by %s: %s", urlsplit(sub["endpoint"]).hostname, status)
        return "failed"
    except Exception as e:  # noqa: BLE001  (a push service that cannot be reached)
        log.warning("a push could not be sent to %s: %s", urlsplit(sub["endpoint"]).hostname, type(e).__name__)
        return "failed"
    return "sent"


async def notify_account(store: Store, account_id: int, kind: str, make: Any, contact: str) -> int:
    """Push ``make(lang)`` to every browser of the account; the expired are dropped. Pushes sent."""
    subs = await run_blocking(subscriptions_of, store, account_id)
    if not subs:
        return 0
    pem = await run_blocking(vapid_pem, store)
    sent = 0
    for sub in subs:
        result = await asyncio.to_thread(send_one, pem, sub, make(sub["lang"]), contact)
        if result == "gone":
            await run_blocking(drop, store, sub["endpoint"])
        elif result == "sent":
            sent += 1
            metrics.push_sent(kind)
    return sent


# ---------------------------------------------------------------------- API
class Keys(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    p256dh: StrictStr = Field(..., min_length=80, max_length=100, description="the browser's P-256 key (base64url)")
    auth: StrictStr = Field(..., min_length=16, max_length=32, description="the browser's auth secret (base64url)")


class Subscription(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)  # (a browser's PushSubscription.toJSON() adds fields)
    endpoint: StrictStr = Field(..., max_length=ENDPOINT_MAX, description="the push service's https:// URL")
    keys: Keys
    lang: StrictStr | None = Field(None, max_length=8, description="the notifications' language: en, uk or pl")


class Endpoint(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    endpoint: StrictStr = Field(..., max_length=ENDPOINT_MAX)


def check_endpoint(request: Request, endpoint: str) -> str:
    parts = urlsplit(endpoint)
    loopback = (
        getattr(request.app.state, "push_loopback", False) and parts.scheme == "http" and parts.hostname == "127.0.0.1"
    )
    if not (parts.scheme == "https" and parts.hostname) and not loopback:
        raise ApiError(422, "bad_push_endpoint", "a push endpoint is the https:// URL of a browser's push service")
    return endpoint


def check_key(text: str, size: int, what: str) -> str:
    try:
        raw = unb64url(text)
    except ValueError:
        raw = b""
    if len(raw) != size:
        raise ApiError(422, "bad_push_endpoint", f"keys.{what} is {size} bytes in base64url")
    return text


@router.get("/api/push/key", response_model=PushKey)
async def push_key(request: Request) -> Response:
    """The server's VAPID public key (``applicationServerKey`` for ``pushManager.subscribe``)."""
    pem = await run_blocking(vapid_pem, request.app.state.store)
    return JSONResponse({"public_key": public_key(pem)})


@router.post(
    "/api/push/subscriptions", status_code=201, response_model=Subscribed, responses=errors(401, 403, 409, 422)
)
async def push_subscribe(request: Request, body: Subscription) -> Response:
    """This browser's push subscription, for the logged-in account (at most 10 browsers each)."""
    from .emails import logged_in

    account = await logged_in(request)
    endpoint = check_endpoint(request, body.endpoint)
    check_key(body.keys.p256dh, 65, "p256dh")
    check_key(body.keys.auth, 16, "auth")
    lang = body.lang if body.lang in LANGS else "en"
    await run_blocking(subscribe, request.app.state.store, account.id, endpoint, body.keys.p256dh, body.keys.auth, lang)
    return JSONResponse({"subscribed": True}, status_code=201)


@router.post("/api/push/unsubscribe", response_model=Subscribed, responses=errors(401, 403))
async def push_unsubscribe(request: Request, body: Endpoint) -> Response:
    """Forget this browser's subscription."""
    from .emails import logged_in

    account = await logged_in(request)
    gone = await run_blocking(unsubscribe, request.app.state.store, account.id, body.endpoint)
    return JSONResponse({"subscribed": False, "removed": gone})
