"""Table chat: the players' channel and the spectators' channel of every game.

Two channels per table, so that no kibitzing reaches the players while they play:

* ``players``: the seats write; seats and spectators read.
* ``spectators``: spectators write and read; a seat reads it only once the game is over
  (until then nothing of it is ever sent to a seat's socket or answered to a seat's token).
  Spectators are anonymous, so a player who also opens a socket without a token reads it
  like anyone else: this is the documented limit (``docs/security.md``), not a leak of the
  game, since the spectators see only what every spectator sees.

Each channel has its own cap of stored messages (:data:`GAME_MAX`) and its writers their own
rate buckets (a seat's, or a spectator's address), so the spectators filling theirs never
silences the players.

A message is plain text: never markup (the page shows it with ``textContent``), cleaned
here of control, format (bidi overrides, zero-width) and other invisible characters, its
white space collapsed, and at most :data:`TEXT_MAX` characters once cleaned; one that holds
an invisible filler, a glyph drawn many letters wide or a pile of combining marks
(``textrules.py``) is refused. Writing is
rate-limited (``limits.py``, the ``chat`` bucket: per seat for the players, per address for
spectators). A seat shows as its seat (the page names it); a spectator as its account's
name when logged in (``accounts.py``), else as a guest with a random tag for this socket.

A seat can mute another seat or the spectators: their messages are then never delivered to
that seat, live or in the history. Mutes are stored per seat (``redtable_chat_mutes``), so
they follow the player to every device and survive reloads. Two seats whose accounts block
one another (``friends.py``) read none of each other's lines the same way, both ways, without
it showing as a mute (the blocked one learns nothing of the block from the chat).

Messages are stored with their game (``redtable_chat``, on the store's metadata) with the
game's step when they were written, so a replay shows the chat as it was at each step
(``GET /api/games/{id}/chat``). Writes go through the group committer like decisions. In a
fleet (``fleet.py``) the writing process publishes ``<game>:c:<process>:<id>`` after the
commit and the others read that row and deliver it to their own sockets under the same
rules (``<game>:u:<process>:<seat>`` for a changed mute); a notice lost on the bus loses
only the live delivery: the history (sent on every connect) has the message.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text, delete, func, insert, select
from sqlalchemy.engine import Connection

from .accounts import accounts_table, current_account, username_key
from .errors import ApiError, clip
from .friends import hidden_seats
from .limits import rate_limited
from .sanctions import check_account
from .store import EXTRA_WRITES, Store, metadata, run_blocking, seats_table
from .textrules import problem

if TYPE_CHECKING:
    from .conn import Conn
    from .live import Hub, LiveGame

log = logging.getLogger("redtable.server.chat")

TEXT_MAX = 300  # characters of a message, once cleaned
RAW_MAX = 4 * TEXT_MAX  # characters sent: anything longer is refused before it is looked at
HISTORY = 100  # messages sent on connect
PAGE_MAX = 500  # messages one history request may ask for
GAME_MAX = 5000  # messages a table keeps per channel: a bound on what one game can store, whatever the rates allow
CHANNELS = ("players", "spectators")
SPECTATORS = "spectators"  # the mute target that silences every spectator

chat_table = Table(
    "redtable_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), nullable=False),
    Column("channel", String(12), nullable=False),
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("author", String(64), nullable=True),  # a spectator's account name or guest tag (seats: their name then)
    Column("guest", Boolean, nullable=False),
    Column("text", Text, nullable=False),
    Column("step", Integer, nullable=False),  # the game's step when it was written (the replay's clock)
    Column("at", Float, nullable=False),
    Column("removed_at", Float, nullable=True),  # a moderator removed it (moderation.py): shown as removed
    Index("redtable_chat_game", "game_id", "id"),
)

mutes_table = Table(
    "redtable_chat_mutes",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),  # who does not want to read
    Column("target", String(12), primary_key=True),  # a seat's number, or "spectators"
    Column("at", Float, nullable=False),
)


# ---------------------------------------------------------------------- clean text
def _zwj_joins(text: str, i: int) -> bool:
    """A zero-width joiner inside an emoji sequence (👩‍❤️‍👨) is kept: it joins two pictographs."""
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    pict = ("So",)
    return (
        before != ""
        and after != ""
        and (unicodedata.category(before) in pict or before == "\ufe0f")
        and unicodedata.category(after) in pict
    )


def clean_text(text: Any) -> str:
    """The message as it is stored and shown: NFC, no invisible or direction-changing characters,
    white space collapsed to single spaces, trimmed; refused if empty or over TEXT_MAX."""
    if not isinstance(text, str):
        raise ApiError(422, "malformed", f"'text' must be a string of 1-{TEXT_MAX} characters, got {clip(text, 40)}")
    if len(text) > RAW_MAX:
        raise ApiError(
            422,
            "message_too_long",
            f"a message may be at most {TEXT_MAX} characters, got {len(text)}",
            max=TEXT_MAX,
            length=len(text),
        )
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    space = False
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if ch.isspace() or cat in ("Zs", "Zl", "Zp"):
            space = True
            continue
        if cat in ("Cc", "Cs", "Co", "Cn") or (cat == "Cf" and not (ch == "\u200d" and _zwj_joins(text, i))):
            continue  # controls, bidi marks and overrides, zero-width characters, unassigned code points
        if space and out:
            out.append(" ")
        space = False
        out.append(ch)
    clean = "".join(out)
    if not clean:
        raise ApiError(422, "empty_message", "the message is empty (once invisible characters and spaces are left out)")
    bad = problem(clean.replace("\u200d", ""))  # (the joiners left are inside emoji sequences)
    if bad is not None:
        raise ApiError(422, "bad_text", f"a message may not hold {bad}")
    if len(clean) > TEXT_MAX:
        raise ApiError(
            422,
            "message_too_long",
            f"a message may be at most {TEXT_MAX} characters, got {len(clean)}",
            max=TEXT_MAX,
            length=len(clean),
        )
    return clean


def check_channel(channel: Any) -> str:
    if channel not in CHANNELS:
        raise ApiError(
            422,
            "bad_channel",
            f"'channel' must be 'players' or 'spectators', got {clip(channel, 40)}",
            channels=list(CHANNELS),
        )
    return str(channel)


def may_write(seat: int | None, channel: str) -> None:
    """Seats write in the players' channel, spectators in theirs: nothing else."""
    if seat is not None and channel != "players":
        raise ApiError(
            403,
            "spectators_only",
            "the spectators' channel is written by spectators; seats write in the players' channel",
            channel=channel,
        )
    if seat is None and channel != SPECTATORS:
        raise ApiError(
            403,
            "seats_only",
            "the players' channel is written by the seats; spectators write in the spectators' channel",
            channel=channel,
        )


def readable(seat: int | None, finished: bool) -> tuple[str, ...]:
    """The channels ``seat`` (None: a spectator) may read: seats never read the spectators while the game runs."""
    return CHANNELS if seat is None or finished else ("players",)


def mute_key(target: int | str) -> str:
    return str(target)


def target_of(key: str) -> int | str:
    return int(key) if key.isdigit() else key


# ---------------------------------------------------------------------- storage
def _write_chat(conn: Connection, op: tuple) -> int:
    """("chat", row): the message; answers its id."""
    key = conn.execute(insert(chat_table).values(**op[1])).inserted_primary_key
    if key is None:  # pragma: no cover - every dialect we run answers the new id
        raise RuntimeError("the database did not answer the chat message's id")
    return int(key[0])


def _write_mute(conn: Connection, op: tuple) -> None:
    """("chat_mute", game_id, seat, target, on, at): set or clear one mute."""
    _, game_id, seat, target, on, at = op
    m = mutes_table.c
    conn.execute(delete(mutes_table).where(m.game_id == game_id, m.seat == seat, m.target == target))
    if on:
        conn.execute(insert(mutes_table).values(game_id=game_id, seat=seat, target=target, at=at))


EXTRA_WRITES["chat"] = _write_chat
EXTRA_WRITES["chat_mute"] = _write_mute

_COLUMNS = (
    chat_table.c.id,
    chat_table.c.channel,
    chat_table.c.seat,
    chat_table.c.author,
    chat_table.c.guest,
    chat_table.c.text,
    chat_table.c.step,
    chat_table.c.at,
    chat_table.c.removed_at,
)


def _message(r: Any) -> dict:
    out = {
        "chat_id": r[0],
        "channel": r[1],
        "seat": r[2],
        "author": r[3],
        "guest": bool(r[4]),
        "text": r[5],
        "step": r[6],
        "at": r[7],
    }
    if r[8] is not None:  # removed by a moderator: everyone reads that it was, never what it said
        out["text"], out["removed"] = "", True
    return out


def read_history(
    store: Any,
    game_id: str,
    channels: tuple[str, ...],
    muted: frozenset[str],
    before: int | None = None,
    limit: int = HISTORY,
) -> tuple[list[dict], bool]:
    """The newest ``limit`` messages (oldest first) of ``channels`` before id ``before``, without
    the muted authors'; and whether older ones remain."""
    c = chat_table.c
    q = select(*_COLUMNS).where(c.game_id == game_id, c.channel.in_(channels))
    seats = [int(k) for k in muted if k.isdigit()]
    if seats:
        q = q.where((c.seat.is_(None)) | (c.seat.not_in(seats)))
    if SPECTATORS in muted:
        q = q.where(c.seat.is_not(None))
    if before is not None:
        q = q.where(c.id < before)
    with store.engine.connect() as conn:
        rows = conn.execute(q.order_by(c.id.desc()).limit(limit + 1)).all()
    more = len(rows) > limit
    return [_message(r) for r in reversed(rows[:limit])], more


def read_messages(store: Any, game_id: str, ids: list[int]) -> list[dict]:
    """Messages by id (another process wrote them), oldest first."""
    c = chat_table.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(*_COLUMNS).where(c.game_id == game_id, c.id.in_(ids)).order_by(c.id)).all()
    return [_message(r) for r in rows]


def read_mutes(store: Any, game_id: str) -> dict[int, set[str]]:
    m = mutes_table.c
    out: dict[int, set[str]] = {}
    with store.engine.connect() as conn:
        for seat, target in conn.execute(select(m.seat, m.target).where(m.game_id == game_id)):
            out.setdefault(seat, set()).add(target)
    return out


def count_messages(store: Any, game_id: str) -> dict[str, int]:
    """The messages stored per channel (each channel has its own cap: the spectators filling
    theirs never silences the players)."""
    c = chat_table.c
    out = dict.fromkeys(CHANNELS, 0)
    with store.engine.connect() as conn:
        q = select(c.channel, func.count()).where(c.game_id == game_id).group_by(c.channel)
        for channel, n in conn.execute(q):
            out[channel] = int(n)
    return out


# ---------------------------------------------------------------------- one table's chat in memory
@dataclass
class Room:
    """A game's chat state in this process: each seat's mutes, and the ids delivered lately (a
    message heard twice on the bus is delivered once)."""

    mutes: dict[int, set[str]] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHANNELS, 0))  # stored, per channel
    # (this process's count: the ones it wrote, read or heard of)
    seen: deque[int] = field(default_factory=lambda: deque(maxlen=512))
    pending: set[int] = field(default_factory=set)  # ids heard on the bus, to read and deliver
    reading: asyncio.Task | None = None
    # per seat, the seats whose lines it never reads because one of the two accounts blocked the
    # other (friends.py); read again before each delivery, never shown as the seat's mutes
    hidden: dict[int, frozenset[str]] = field(default_factory=dict)

    def muted(self, seat: int | None) -> frozenset[str]:
        return frozenset(self.mutes.get(seat, ())) if seat is not None else frozenset()

    def unread(self, seat: int | None) -> frozenset[str]:
        """What ``seat`` never reads: its mutes and the seats a block hides."""
        if seat is None:
            return frozenset()
        return self.muted(seat) | self.hidden.get(seat, frozenset())


@dataclass(slots=True)
class Author:
    """How a spectator's socket signs its messages: an account's name, or a guest's random tag."""

    name: str
    guest: bool


async def account_name(websocket: Any) -> str | None:
    """The logged-in account's name of this socket (``accounts.py``: its session cookie), or None."""
    try:
        account = await current_account(websocket)
    except Exception:  # noqa: BLE001  (no account is a guest: chat never fails for it)
        log.exception("reading the account of a chat socket failed")
        return None
    name = getattr(account, "username", None) if account is not None else None
    return name if isinstance(name, str) and name else None


class Chat:
    """The hub's chat: messages and mutes from sockets, history, delivery here and across the fleet."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.loading: dict[str, asyncio.Future] = {}

    @property
    def store(self) -> Any:
        return self.hub.store

    # -------------------------------------------------------------- per game
    async def room(self, game: LiveGame) -> Room:
        """The game's chat state, loaded from storage on first use (once, however many ask)."""
        if game.chat is not None:
            return game.chat
        fut = self.loading.get(game.id)
        if fut is None:
            fut = self.loading[game.id] = asyncio.get_running_loop().create_future()
            try:
                mutes = await run_blocking(read_mutes, self.store, game.id)
                count = await run_blocking(count_messages, self.store, game.id)
                if game.chat is None:
                    game.chat = Room(mutes=mutes, count=count)
                fut.set_result(game.chat)
            except BaseException as e:
                fut.set_exception(e)
                fut.exception()
                raise
            finally:
                self.loading.pop(game.id, None)
        room: Room = await asyncio.shield(fut)
        return room

    async def identify(self, conn: Conn, websocket: Any) -> None:
        """A spectator's signature in the chat, fixed for the socket's life (seats sign as their seat)."""
        if conn.seat is not None:
            return
        name = await account_name(websocket)
        conn.chat = Author(name, False) if name else Author(secrets.token_hex(2), True)

    # -------------------------------------------------------------- messages from a socket
    async def handle(self, game: LiveGame, conn: Conn, msg: dict, req_id: Any) -> None:
        """``{"type": "chat", "channel": ..., "text": ...}`` or ``{"type": "mute", "target": ..., "muted": bool}``."""
        if msg.get("type") == "mute":
            await self.mute(game, conn, msg.get("target"), msg.get("muted", True), req_id)
            return
        channel = check_channel(msg.get("channel"))
        may_write(conn.seat, channel)
        text = clean_text(msg.get("text"))
        who = f"seat:{game.id}:{conn.seat}" if conn.seat is not None else conn.client
        wait = self.hub.limiter.try_take(who, "chat")
        if wait > 0:
            raise rate_limited("chat", wait, "chat messages")
        sig = conn.chat if isinstance(conn.chat, Author) and not conn.chat.guest else None
        # a muted, suspended or banned account writes nothing (sanctions.py)
        await run_blocking(check_chat_writer, self.store, game.id, conn.seat, sig.name if sig else None)
        await self.post(game, conn.seat, channel, text, conn, req_id)

    async def post(
        self, game: LiveGame, seat: int | None, channel: str, text: str, origin: Conn | None = None, req_id: Any = None
    ) -> dict:
        """Store one message, then deliver it here and tell the other processes."""
        room = await self.room(game)
        if room.count[channel] >= GAME_MAX:
            raise ApiError(
                409,
                "chat_full",
                f"this table's {channel} channel holds its {GAME_MAX} messages; no more can be added",
                channel=channel,
            )
        if seat is not None:
            author, guest = game.seats[seat].name, False
        else:
            sig = origin.chat if origin is not None and isinstance(origin.chat, Author) else None
            author, guest = (sig.name, sig.guest) if sig is not None else (secrets.token_hex(2), True)
        row = {
            "game_id": game.id,
            "channel": channel,
            "seat": seat,
            "author": author,
            "guest": guest,
            "text": text,
            "step": game.step,
            "at": time.time(),
        }
        chat_id = await self.hub.write(("chat", row), "storing a chat message")
        room.count[channel] += 1
        await self._read_blocks(game, room)
        message = {"chat_id": chat_id, **{k: v for k, v in row.items() if k != "game_id"}}
        room.seen.append(chat_id)
        self.deliver(game, room, message, origin, req_id)
        if self.hub.fleet is not None:
            self.hub.fleet.bus.publish(f"{game.id}:c:{self.hub.fleet.tag}:{chat_id}")
        game.last_active = time.monotonic()
        return message

    async def mute(self, game: LiveGame, conn: Conn, target: Any, on: Any, req_id: Any) -> None:
        seat = conn.seat
        if seat is None:
            raise ApiError(403, "spectator", "spectators cannot mute; connect with a seat's token to mute")
        if not isinstance(on, bool):
            raise ApiError(422, "malformed", f"'muted' must be true or false, got {clip(on, 40)}")
        others = [s.index for s in game.seats if s.index != seat and s.kind == "human"]
        if target != SPECTATORS and not (isinstance(target, int) and not isinstance(target, bool) and target in others):
            allowed = ", ".join([*map(str, others), "'spectators'"])
            raise ApiError(
                422,
                "bad_target",
                f"'target' must be another person's seat or 'spectators' ({allowed}), got {clip(target, 40)}",
                allowed=[*others, SPECTATORS],
            )
        wait = self.hub.limiter.try_take(f"seat:{game.id}:{seat}", "mute")
        if wait > 0:
            raise rate_limited("mute", wait, "mutes")
        room = await self.room(game)
        key = mute_key(target)
        await self.hub.write(("chat_mute", game.id, seat, key, on, time.time()), "storing a mute")
        mine = room.mutes.setdefault(seat, set())
        if on:
            mine.add(key)
        else:
            mine.discard(key)
        await self.refresh_seat(game, room, seat, req_id, conn)
        if self.hub.fleet is not None:
            self.hub.fleet.bus.publish(f"{game.id}:u:{self.hub.fleet.tag}:{seat}")

    async def _read_blocks(self, game: LiveGame, room: Room) -> None:
        """The seats a block hides from each other (``friends.py``: read now, as blocks change any time)."""
        room.hidden = await run_blocking(hidden_seats, self.store, game.id)

    # -------------------------------------------------------------- delivery
    @staticmethod
    def sees(game: LiveGame, room: Room, seat: int | None, message: dict) -> bool:
        """Whether the socket of ``seat`` may receive ``message`` now."""
        if message["channel"] not in readable(seat, game.finished):
            return False  # the spectators' channel never reaches a seat while the game runs
        muted = room.unread(seat)
        author = message["seat"]
        return not (muted and (SPECTATORS if author is None else str(author)) in muted)

    def deliver(
        self, game: LiveGame, room: Room, message: dict, origin: Conn | None = None, req_id: Any = None
    ) -> None:
        text = orjson.dumps({"type": "chat", "game_id": game.id, **message}).decode()
        for c in game.conns:
            if not self.sees(game, room, c.seat, message):
                continue
            if c is origin and req_id is not None:
                c.push(orjson.dumps({"type": "chat", "game_id": game.id, **message, "id": req_id}).decode())
            else:
                c.push(text)

    async def history(self, game: LiveGame, seat: int | None, before: int | None = None, limit: int = HISTORY) -> dict:
        """What ``seat`` may read of the chat (newest ``limit`` before ``before``), with its mutes."""
        room = await self.room(game)
        await self._read_blocks(game, room)
        muted = room.muted(seat)
        channels = readable(seat, game.finished)
        messages, more = await run_blocking(
            read_history, self.store, game.id, channels, room.unread(seat), before, limit
        )
        return {
            "game_id": game.id,
            "seat": seat,
            "channels": list(channels),
            "write": "players" if seat is not None else SPECTATORS,
            "max": TEXT_MAX,
            "messages": messages,
            "more": more,
            "muted": sorted((target_of(k) for k in muted), key=str),
        }

    def attached(self, game: LiveGame, conn: Conn) -> None:
        """A socket connected: send it the recent history (its own message, after the snapshot)."""
        self.hub.spawn(self._send_history(game, conn), f"sending the chat history of {game.id}")

    async def _send_history(self, game: LiveGame, conn: Conn, req_id: Any = None) -> None:
        out = await self.history(game, conn.seat)
        if req_id is not None:
            out["id"] = req_id
        conn.push(orjson.dumps({"type": "chat_history", **out}).decode())

    async def refresh_seat(
        self, game: LiveGame, room: Room, seat: int, req_id: Any = None, origin: Conn | None = None
    ) -> None:
        """The seat's mutes changed: each of its sockets here gets its history again, as filtered now."""
        conns = [c for c in game.conns if c.seat == seat]
        if not conns:
            return
        out = await self.history(game, seat)
        text = orjson.dumps({"type": "chat_history", **out}).decode()
        for c in conns:
            if c is origin and req_id is not None:
                c.push(orjson.dumps({"type": "chat_history", **out, "id": req_id}).decode())
            else:
                c.push(text)

    # -------------------------------------------------------------- the fleet
    def on_note(self, game: LiveGame, rest: str) -> None:
        """``c:<process>:<id>`` (a message) or ``u:<process>:<seat>`` (a seat's mutes) from another process."""
        parts = rest.split(":")
        if len(parts) != 3 or parts[1] == self.hub.fleet.tag or not parts[2].isdigit():
            return
        if not game.conns:
            if parts[0] == "u" and game.chat is not None:
                game.chat = None  # reloaded when next used
            return
        n = int(parts[2])
        if parts[0] == "c":
            self.hub.spawn(self._heard_message(game, n), f"delivering chat of {game.id}")
        elif parts[0] == "r":
            self.removed(game, n)
        elif parts[0] == "u":
            self.hub.spawn(self._heard_mute(game, n), f"re-reading the mutes of {game.id}")

    async def _heard_message(self, game: LiveGame, chat_id: int) -> None:
        room = await self.room(game)
        if chat_id in room.seen:
            return
        room.pending.add(chat_id)
        if room.reading is not None and not room.reading.done():
            return  # the running read takes it next
        room.reading = asyncio.current_task()
        while room.pending:
            ids = sorted(room.pending)
            room.pending.clear()
            await self._read_blocks(game, room)
            for message in await run_blocking(read_messages, self.store, game.id, ids):
                if message["chat_id"] in room.seen:
                    continue
                room.seen.append(message["chat_id"])
                room.count[message["channel"]] = room.count.get(message["channel"], 0) + 1
                self.deliver(game, room, message)

    def removed(self, game: LiveGame, chat_id: int, publish: bool = False) -> None:
        """A moderator removed a message (``moderation.py``): every socket here shows it as removed;
        ``publish``: the other processes are told (``<game>:r:<process>:<id>``)."""
        text = orjson.dumps({"type": "chat_removed", "game_id": game.id, "chat_id": chat_id}).decode()
        for c in game.conns:
            c.push(text)
        if publish and self.hub.fleet is not None:
            self.hub.fleet.bus.publish(f"{game.id}:r:{self.hub.fleet.tag}:{chat_id}")

    async def _heard_mute(self, game: LiveGame, seat: int) -> None:
        room = await self.room(game)
        mutes = await run_blocking(read_mutes, self.store, game.id)
        room.mutes[seat] = mutes.get(seat, set())
        await self.refresh_seat(game, room, seat)


def chat_writer_account(store: Store, game_id: str, seat: int | None, username: str | None) -> int | None:
    """The account behind a chat line: the seat's bound account, or a spectator's logged-in name."""
    with store.engine.connect() as conn:
        if seat is not None:
            s = seats_table.c
            return conn.execute(select(s.account_id).where(s.game_id == game_id, s.seat == seat)).scalar()
        if username:
            a = accounts_table.c
            return conn.execute(select(a.id).where(a.username_key == username_key(username))).scalar()
    return None


def check_chat_writer(store: Store, game_id: str, seat: int | None, username: str | None) -> None:
    """Refuse a chat line from a muted, suspended or banned account (read at every line: a fleet agrees),
    and from a spectator's socket whose account was deleted since it connected (``erasure.py``)."""
    account_id = chat_writer_account(store, game_id, seat, username)
    if account_id is not None:
        check_account(store, account_id, "chat")
    elif seat is None and username:
        raise ApiError(403, "account_deleted", "this socket's account was deleted: reconnect to watch as a guest")
