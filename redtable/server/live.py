"""Live games: states in memory, decisions checked, committed, then announced to every seat.

The :class:`Hub` owns every game the server has in memory. A game is loaded from storage
(seed + decision log, replayed) the first time it is needed and kept while in use; a game
left idle is only dropped from memory (never from storage) and comes back on the next
request. Per game, one ``asyncio.Lock`` serialises decisions and undos: check (token,
turn, version, legality) -> apply to a copy of the state -> append to the log through the
group committer and wait for the commit -> swap the copy in -> announce to every
connection, each seat with its own view. Until the commit every reader sees the previous
state and version. A refused request changes nothing; after a failed commit the game is
dropped from memory and reloaded from storage on its next use.

On PostgreSQL the hub is one process of a fleet (``fleet.py``): a game in memory is a
replica that other processes' decisions reach through the bus (:meth:`Hub.on_note`,
:meth:`Hub.catch_up`); its own decisions are committed only on the version they were made
on (a lost race is ``stale_version``), and bots and empty block windows are played by the
process holding the game's lease. SQLite runs none of this: one process, no bus, no extra
query.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import orjson

from ..core import GAMES, IllegalAction, RedtableError, State, make_game
from ..core.rng import Rng
from .chat import Chat, Room
from .conn import Conn
from .errors import ApiError, bad_token, storage_error, unknown_game
from .fairness import WINDOW_KINDS, HumanDelays, new_salt, seed_commitment
from .limits import Limits, RateLimiter
from .store import GameRow, GroupCommitter, InviteGone, SeatRow, Store, VersionConflict, run_blocking
from .tables import TableService, TableState
from .tokens import new_secret, sha
from .undo import undo_check
from .validate import check_name, clip, valid_game_id

log = logging.getLogger("redtable.server")

MAX_SEED = (1 << 63) - 1
SNAPSHOT_EVERY = 16  # replay steps are served from a copy of the state kept every this many steps
#: Seconds a seat that read its game over HTTP counts as at the table (for players without a WebSocket).
PRESENT_SECONDS = 30.0
#: How often the server looks whether an away seat whose empty block window waits came back.
PRESENT_POLL = 0.25


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def request_id() -> str:
    """A short id a client can quote and the log holds beside the details it was not told."""
    return secrets.token_hex(6)


# ---------------------------------------------------------------------- games
@dataclass(slots=True)
class Seat:
    index: int
    kind: str  # "human" | "bot"
    bot: str | None
    name: str | None
    invite_hash: str | None
    joined_at: float | None

    def public(self, connected: bool) -> dict:
        return {
            "seat": self.index,
            "type": self.kind,
            "bot": self.bot,
            "name": self.name,
            "joined": self.kind == "bot" or self.joined_at is not None,
            "connected": self.kind == "bot" or connected,
        }


class LiveGame:
    """A game in memory: its state, its log and who listens."""

    def __init__(self, row: GameRow, limits: Limits | None = None) -> None:
        self.id = row.id
        self.name = row.game
        self.players = row.players
        self.seed = row.seed
        self.options = row.options
        self.settings = row.settings
        self.undo_allowed = bool(row.settings.get("undo", False))
        self.bot_delay = float(row.settings.get("bot_delay", 0.0))
        self.salt: str | None = row.settings.get("salt")
        self.commitment: str | None = row.settings.get("seed_commitment")
        self.seed_chosen = bool(row.settings.get("seed_chosen_by_creator", False))
        self.tutorial = bool(row.settings.get("tutorial", False))  # a private lesson (learn.js)
        self.creator_hash: str | None = row.settings.get("creator_hash")
        self.created_at = row.created_at
        self.finished_at = row.finished_at
        from .botpool import legacy_preset

        # a bot stored before presets existed plays as the nearest preset (never an unbounded think)
        self.seats = [
            Seat(s.seat, s.kind, legacy_preset(s.bot) if s.kind == "bot" else None, s.name, s.invite_hash, s.joined_at)
            for s in row.seats
        ]
        self.humans = sum(1 for s in self.seats if s.kind == "human")
        # every device's token (hash -> seat); games from before per-device tokens had one per seat
        self.by_token = {s.token_hash: s.seat for s in row.seats if s.token_hash}
        self.by_token.update({t.token_hash: t.seat for t in row.tokens})
        self.by_invite = {s.invite_hash: s.index for s in self.seats if s.invite_hash}
        active = [a for a in row.actions if not a.undone]
        self.rows = row.actions[-1].seq if row.actions else 0
        self.version = len(row.actions) + sum(1 for a in row.actions if a.undone)
        self.actions = [a.action for a in active]
        self.step_seats = [a.seat for a in active]
        self.seqs = [a.seq for a in active]
        self.undoable = [a.undoable for a in active]
        self.state, self.marks, self.checkpoints = self.rebuild(self.actions)
        # open seats, the start when full, the clock, forfeits, closure (tables.py)
        self.table = TableState.load(self, row.status, row.result, getattr(row, "extra", {}))
        self.lock = asyncio.Lock()
        self.conns: list[Conn] = []
        self.bot_task: asyncio.Task | None = None
        self.window_task: asyncio.Task | None = None
        self.asked_at = time.monotonic()  # when the pending decision was announced
        self.presence_handle: asyncio.TimerHandle | None = None
        self.presence_seconds = limits.presence_seconds if limits else 0.5
        self.last_active = time.monotonic()
        self.seen: dict[int, float] = {}  # seat -> when it last read the whole game (HTTP or WebSocket)
        self.evicted = False
        # fleet: the newest version heard of (caught up when used), the catch-up under way,
        # the other processes' presence (tag -> (seats, spectators, heard at)) and who hears ours
        self.known = self.version
        self.catching: asyncio.Future | None = None  # a batch catching it up is under way
        self.more = False  # heard of more while that batch ran
        self.remote: dict[str, tuple[frozenset, int, float]] = {}
        self.on_presence: Callable[[LiveGame], None] | None = None
        self.chat: Room | None = None  # the table's chat state here (chat.py), loaded on first use

    # -------------------------------------------------------------- rebuilding
    def rebuild(self, actions: list[str]) -> tuple[State, list[int], dict[int, State]]:
        """The state from the seed and ``actions``, the event count after setup and each step,
        and the states every SNAPSHOT_EVERY steps (replay reads start from them)."""
        game = make_game(self.name, self.players, **self.options)
        state = game.new_initial_state(self.seed)
        marks = [len(state.events)]
        checkpoints = {0: state.clone()}
        for i, a in enumerate(actions, 1):
            state.apply(a)
            marks.append(len(state.events))
            if i % SNAPSHOT_EVERY == 0:
                checkpoints[i] = state.clone()
        return state, marks, checkpoints

    def replay_plan(self, step: int) -> tuple[State, list[str]]:
        """The kept state nearest below ``step`` and the decisions from there (read on the loop)."""
        base = step - step % SNAPSHOT_EVERY
        while base not in self.checkpoints:  # pragma: no cover - every multiple is kept
            base -= SNAPSHOT_EVERY
        return self.checkpoints[base], self.actions[base:step]

    # -------------------------------------------------------------- facts
    @property
    def step(self) -> int:
        return len(self.actions)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal() or self.table.over  # (ended by a forfeit, or closed)

    @property
    def status(self) -> str:
        return self.table.status(self)  # waiting, active, finished or abandoned

    @property
    def started(self) -> bool:
        return bool(self.actions)

    @property
    def block_windows(self) -> bool:
        return bool(self.options.get("block_windows", False))

    def idle_window(self, state: State | None = None) -> str | None:
        """The declining action of a block window its decider cannot use (the server answers it)."""
        fn = getattr(state or self.state, "idle_window", None)
        return fn() if fn is not None else None

    def seat_of_token(self, token: str | None) -> int | None:
        if not token:
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise bad_token()
        seat = self.by_token.get(sha(token))
        if seat is None:
            raise bad_token()
        return seat

    def local_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def connected_seats(self) -> set[int]:
        """Seats connected here or (fleet) to another process that reported them lately."""
        on = self.local_seats()
        if self.remote:
            now = time.monotonic()
            for tag, (seats, _, at) in list(self.remote.items()):
                if now - at > 25.0:
                    del self.remote[tag]
                else:
                    on |= seats
        return on

    def spectator_count(self) -> int:
        """Spectators here and (fleet) those other processes reported lately."""
        here = sum(1 for c in self.conns if c.seat is None)
        now = time.monotonic()
        return here + sum(n for _, n, at in self.remote.values() if now - at <= 25.0)

    def present(self, seat: int, within: float) -> bool:
        """Whether ``seat``'s player is at the table: a bot, connected (here or, in a fleet,
        to another process), or read the game as the seat within ``within`` seconds."""
        if self.seats[seat].kind != "human" or seat in self.connected_seats():
            return True
        return time.monotonic() - self.seen.get(seat, float("-inf")) <= within

    def seats_public(self) -> list[dict]:
        on = self.connected_seats()
        return [s.public(s.index in on) for s in self.seats]

    def can_undo(self, seat: int | None) -> bool:
        return (
            self.undo_allowed
            and seat is not None
            and bool(self.actions)
            and not self.finished
            and self.step_seats[-1] == seat
            and self.undoable[-1]
        )

    def result(self) -> dict | None:
        if not self.finished or self.table.closed is not None:
            return None
        return self.table.final_result(self.state)

    def decision_for(self, seat: int | None, state: State | None = None) -> dict | None:
        if state is None and (self.table.over or not self.table.ready(self)):
            return None  # a table not full yet, or over: nobody decides
        state = state or self.state
        d = state.decision()
        if d is None:
            return None
        if seat is not None and seat == d.player and self.seats[seat].kind != "bot":  # (a bot plays a timed-out seat)
            out = d.to_json()
            if self.idle_window(state) is not None:
                out["auto"] = True  # nothing to block with: the server answers for this seat
            return out
        return {"player": d.player, "kind": d.kind}

    def events_for(
        self,
        seat: int | None,
        start: int = 0,
        stop: int | None = None,
        state: State | None = None,
        reveal: bool = False,
    ) -> list[dict]:
        """The events ``seat`` may read; ``reveal`` (a replay of a finished game, whose record
        is public) every event, the private ones too."""
        evs = (state or self.state).events
        if reveal and self.finished:
            return [e.to_json() for e in evs[start:stop]]
        return [e.to_json() for e in evs[start:stop] if e.to is None or (seat is not None and seat in e.to)]

    def info(self) -> dict:
        return {
            "game_id": self.id,
            "game": self.name,
            "title": type(self.state.game).title,
            "players": self.players,
            "options": self.options,
            "undo": self.undo_allowed,
            "bot_delay": self.bot_delay,
            "created_at": self.created_at,
            "seed_chosen_by_creator": self.seed_chosen,
            "seed_commitment": self.commitment,
            "rated": bool(self.settings.get("rated", False)),
            "tutorial": self.tutorial,
            "host": self.table.host(self),  # who invited the others (tables.py)
            **self.table.info(),  # open, speed, clock (tables.py)
        }

    def snapshot(self, seat: int | None, events: bool = True) -> dict:
        """Everything ``seat`` (None: a spectator) may know of the game now (read by the seat:
        it is at the table, see :meth:`present`)."""
        if seat is not None:
            self.seen[seat] = time.monotonic()
        out = {
            "type": "state",
            **self.info(),
            "version": self.version,
            "step": self.step,
            "status": self.status,
            "seat": seat,
            "seats": self.seats_public(),
            "view": self.state.view(seat),
            "decision": self.decision_for(seat),
            "can_undo": self.can_undo(seat),
            "result": self.result(),
            **self.table.public(self),  # ready, seated, clock, forfeited, closed
        }
        if events:
            out["events"] = self.events_for(seat)
        return out

    def snapshot_text(self, seat: int | None, extra: dict) -> str | None:
        """A connection's pending snapshot, built when it is sent (see :class:`Conn`)."""
        if self.evicted:
            return None
        return _dumps({**self.snapshot(seat), **extra} if extra else self.snapshot(seat))

    def update(self, seat: int | None, by: int | None, req_id: Any = None) -> dict:
        """The change made by the last step, as ``seat`` may see it.

        The decider's own copy carries the decision (``action``) and the request ``id`` it
        was sent with: receiving it is the acknowledgement that the decision was committed.
        """
        out = {
            "type": "update",
            "game_id": self.id,
            "version": self.version,
            "step": self.step,
            "by": by,
            "status": self.status,
            "view": self.state.view(seat),
            "decision": self.decision_for(seat),
            "events": self.events_for(seat, self.marks[-2]),
            "can_undo": self.can_undo(seat),
            "result": self.result(),
            **self.table.public(self),
        }
        if seat is not None and seat == by:
            out["action"] = self.actions[-1]
            if req_id is not None:
                out["id"] = req_id
        return out

    # -------------------------------------------------------------- live messages
    def broadcast(self, make: Callable[[int | None], dict]) -> None:
        """Send each connection its own update (built once per seat)."""
        cache: dict[int | None, str] = {}
        for c in self.conns:
            text = cache.get(c.seat)
            if text is None:
                text = cache[c.seat] = _dumps(make(c.seat))
            c.push(text, update=True)

    def announce_presence(self, local: bool = True) -> None:
        """Tell every connection who is here: merged over ``presence_seconds`` (a connect storm sends one).

        ``local``: the change is this process's (a connection came or went, a seat joined),
        so the other processes of a fleet hear of it too; a report heard from them is only
        passed on to the connections here."""
        if self.evicted:
            return
        if local:
            self.presence_dirty = True
        if self.presence_handle is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover
            return
        self.presence_handle = loop.call_later(self.presence_seconds, self._send_presence)

    presence_dirty = False

    def _send_presence(self) -> None:
        self.presence_handle = None
        if self.presence_dirty and self.on_presence is not None:
            self.on_presence(self)
        self.presence_dirty = False
        msg = _dumps(
            {"type": "presence", "game_id": self.id, "seats": self.seats_public(), "spectators": self.spectator_count()}
        )
        for c in self.conns:
            c.push(msg)


# ---------------------------------------------------------------------- the hub
class Hub:
    def __init__(
        self,
        store: Store,
        *,
        idle_seconds: float = 900.0,
        limits: Limits | None = None,
        bot_pool: Any = None,
        gc_freeze: bool = False,
        allow_chosen_seeds: bool = False,
        window_median: float = 2.5,
        fleet: Any = None,
    ) -> None:
        self.store = store
        self.fleet = fleet  # a Fleet on PostgreSQL (several processes may serve the games); None on SQLite
        self.gc_freeze = gc_freeze
        self.limits = limits or Limits()
        self.limiter = RateLimiter(self.limits)
        self.allow_chosen_seeds = allow_chosen_seeds  # tests only: a seed for games of several people
        self.writer = GroupCommitter(store)
        self.games: dict[str, LiveGame] = {}
        self.loading: dict[str, asyncio.Future] = {}
        self.idle_seconds = idle_seconds
        self.pool = bot_pool
        self.heavy = ThreadPoolExecutor(2, thread_name_prefix="redtable-heavy")
        self.delays: dict[str, HumanDelays] = {}
        self.window_median = window_median  # seconds: the prior of a person's "no" to a block window
        self.present_seconds = PRESENT_SECONDS  # an HTTP reader counts as at the table this long
        self.sockets: Counter[str] = Counter()
        self.heard: dict[str, int] = {}  # fleet: versions heard of for games being loaded
        self._behind: set[LiveGame] = set()  # fleet: replicas to catch up in the next batch
        self._behind_task: asyncio.Task | None = None
        self.tasks: list[asyncio.Task] = []
        self.decisions = 0
        self.started = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.chat = Chat(self)  # the table chat (chat.py)
        self.tables = TableService(self)  # open seats, clocks, abandoned tables, quick play (tables.py)
        from .rematch import Rematches

        self.rematch = Rematches(self)  # a finished table's rematch offers (rematch.py)
        self.notifier: Any = None  # every kind of notification's one door (notices.Notifier, set by the app)

    # -------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        if self.started:
            return
        self.started = True
        self.loop = loop = asyncio.get_running_loop()
        from . import accounts, ratings  # noqa: F401  (their tables join the metadata create_tables makes)

        await run_blocking(self.store.create_tables)
        self.writer.start(loop)
        if self.pool is None:  # its worker processes start with the first bot that thinks
            from .botpool import BotPool

            self.pool = BotPool()
        await self.tables.start()  # (before any game loads: their tables load with them)
        await self.rematch.start()
        if self.fleet is not None:  # the sweeper finds the games that wait for the server (leases)
            await self.fleet.start(
                on_note=self.on_note,
                on_resync=self._resync,
                serving=self._serving,
                on_claimed=self._claimed,
                renewing=self._renewing,
            )
        else:
            self.tasks.append(asyncio.create_task(self._resume_bots()))
        self.tasks.append(asyncio.create_task(self._sweep()))
        from .ratings import rate_pending

        self.tasks.append(asyncio.create_task(rate_pending(self.store)))  # rated games a stopped process left
        if self.gc_freeze:
            self.tasks.append(asyncio.create_task(self._gc_policy()))

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        for g in list(self.games.values()):
            for task in (g.bot_task, g.window_task):
                if task is not None:
                    task.cancel()
            for c in list(g.conns):
                c.end()
        await self.tables.stop()
        if self.fleet is not None:
            await self.fleet.stop()
        await self.writer.aclose()
        if self.pool is not None:
            await self.pool.stop()
        self.heavy.shutdown(wait=False, cancel_futures=True)
        self.started = False

    async def off_loop(self, fn: Callable, *args) -> Any:
        """Run CPU-heavy work (replays, records, scoring) off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.heavy, fn, *args)

    async def _resume_bots(self) -> None:
        """After a restart, games whose bots were to move (or whose window the server answers) carry on."""
        try:
            ids = await run_blocking(self.store.active_bot_game_ids)
            for gid in ids:
                try:
                    g = await self.get(gid)
                except Exception:  # noqa: BLE001
                    log.exception("cannot resume game %s", gid)
                    continue
                self.after_change(g)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001
            log.exception("resuming bot games failed")

    async def _gc_policy(self, every: float = 1.0, full_every: float = 600.0) -> None:
        """Keep the cyclic garbage collector's pauses short (the served process only).

        Live games are hundreds of thousands of long-lived objects; a full collection walks
        all of them (~100 ms with 250 games) and stalls every game. So, every second, what
        has survived so far is frozen (``gc.freeze``: the collector no longer walks it;
        objects still die normally when unreferenced), and the young-generation passes stay
        small. Every ten minutes everything is unfrozen and collected once, so cyclic
        garbage that was frozen cannot pile up.
        """
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(every)
            if time.monotonic() - last_full >= full_every:
                gc.unfreeze()
                gc.collect()
                last_full = time.monotonic()
            gc.freeze()

    async def _sweep(self) -> None:
        """Drop from memory (not from storage) the games nobody used for a while; forget full buckets."""
        while True:
            await asyncio.sleep(max(1.0, min(60.0, self.idle_seconds / 4)))
            self.evict_idle()
            self.limiter.prune()

    def evict_idle(self, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        n = 0
        for gid, g in list(self.games.items()):
            busy = (
                g.conns
                or g.lock.locked()
                or (g.bot_task is not None and not g.bot_task.done())
                or (g.window_task is not None and not g.window_task.done())
                or (g.catching is not None and not g.catching.done())
                or (self.fleet is not None and self.fleet.holds(gid))
            )
            if not busy and now - g.last_active >= self.idle_seconds:
                g.evicted = True
                del self.games[gid]
                n += 1
        return n

    # -------------------------------------------------------------- finding games
    async def get(self, game_id: Any) -> LiveGame:
        g = self.games.get(game_id) if isinstance(game_id, str) else None
        if g is not None:
            g.last_active = time.monotonic()
            if self.fleet is not None:  # read your writes: a request answers from the version in storage
                await self._confirm(g)
            return g
        if not valid_game_id(game_id):  # before any query: nothing odd reaches the database
            raise unknown_game(game_id)
        fut = self.loading.get(game_id)
        if fut is None:
            fut = self.loading[game_id] = asyncio.get_running_loop().create_future()
            try:
                try:
                    row = await run_blocking(self.store.load_game, game_id)
                except Exception:
                    rid = request_id()
                    log.exception("loading game %s failed (request %s)", game_id, rid)
                    raise storage_error(rid) from None
                g = None
                if row is not None:
                    g = self._adopt(LiveGame(row, self.limits))
                fut.set_result(g)
            except BaseException as e:
                fut.set_exception(e)
                fut.exception()  # mark retrieved
                raise
            finally:
                self.loading.pop(game_id, None)
        g = await asyncio.shield(fut)
        if g is None:
            raise unknown_game(game_id)
        if g.known > g.version and self.fleet is not None:  # heard of while it was loading
            await self.catch_up(g)
        return g

    async def _confirm(self, g: LiveGame) -> None:
        """Catch ``g`` up if storage holds a newer version than this replica (one indexed read):
        a client that decided through another process a moment ago, before its notice
        arrived here, must never read the game as it was."""
        try:
            v = (await self.fleet.versions([g.id])).get(g.id)
        except Exception:  # noqa: BLE001
            rid = request_id()
            log.exception("reading the version of %s failed (request %s)", g.id, rid)
            raise storage_error(rid) from None
        if v is not None and v > g.known:
            g.known = v
        if g.known > g.version:
            await self.catch_up(g)

    def _adopt(self, g: LiveGame) -> LiveGame:
        """A game just loaded from storage joins the games in memory."""
        self.games[g.id] = g
        if self.fleet is not None:
            g.known = max(g.version, self.heard.pop(g.id, 0))
            g.on_presence = self._publish_presence
        elif not g.finished and (g.idle_window() is not None):
            self.after_change(g)  # a window the server answers was pending when the game left memory
        return g

    # -------------------------------------------------------------- creating and joining
    def _check_options(self, game: str, players: int, options: dict, humans: int) -> dict:
        """The game's options with the client's, each of the default's type; unknown names refused."""
        try:
            defaults = make_game(game, players).options()
        except RedtableError as e:
            raise ApiError(422, "invalid_options", clip(str(e), 300)) from None
        defaults.pop("players", None)
        if len(options) > 32:
            raise ApiError(422, "invalid_options", f"at most 32 options, got {len(options)}")
        for k, v in options.items():
            if k not in defaults:
                raise ApiError(
                    422,
                    "invalid_options",
                    f"unknown option {clip(k, 40)} for {game}; known: {', '.join(sorted(defaults))}",
                    known=sorted(defaults),
                )
            want = type(defaults[k])
            if type(v) is not want and not (want is float and type(v) is int):
                raise ApiError(
                    422,
                    "invalid_options",
                    f"option {k} must be {want.__name__} (like {defaults[k]!r}), got {clip(v, 40)}",
                    option=k,
                )
        opts = dict(options)
        if "block_windows" in defaults and "block_windows" not in opts:
            opts["block_windows"] = humans >= 2  # on by default when two or more people play
        return opts

    async def create(
        self,
        game: str,
        seats: list[dict],
        options: dict,
        seed: int | None,
        undo: bool,
        bot_delay: float,
        client: str = "",
        rated: bool = False,
        account: Any = None,
        table: dict | None = None,
        gid: str | None = None,
        tutorial: bool = False,
        first: int | None = None,
    ) -> dict:
        """``table``: the table's options (``open``, ``clock``; quick play's ``quickplay``: tables.py);
        ``gid``: the id a quick-play match chose; ``tutorial``: a private lesson (one person, bots);
        ``first``: the seat the deal starts with (a rematch's rotation: ``rematch.seed_starting``)."""
        from .botpool import check_preset

        if game not in GAMES:
            raise ApiError(
                422,
                "unknown_title",
                f"unknown game {clip(game, 40)}; known games: {', '.join(GAMES)}",
                games=list(GAMES),
            )
        humans = sum(1 for s in seats if s["type"] == "human")
        names = []
        for i, s in enumerate(seats):
            names.append(check_name(s.get("name"), f"seats[{i}].name"))
            if rated and s["type"] == "human":  # a rated seat shows its account's name (Hub.join), not one given
                names[-1] = None
            if s["type"] == "bot":
                try:
                    s["bot"] = check_preset(s["bot"] or "random")
                except ValueError as e:
                    raise ApiError(422, "invalid_bot", f"seat {i}: {e}", seat=i) from None
            elif s.get("bot") is not None:
                raise ApiError(422, "malformed", f"seat {i} is a person's: it takes no 'bot'", seat=i)
        if tutorial and (humans != 1 or rated or (table or {}).get("open")):
            raise ApiError(
                422,
                "bad_tutorial",
                f"a tutorial game is one person against bots, neither rated nor open (this one has {humans} "
                f"human seats, rated={bool(rated)}, open={bool((table or {}).get('open'))})",
            )
        if rated:  # every seat a logged-in account's (Hub.join) or a rated bot's; no seed, no undo
            from .ratings import check_ratable

            check_ratable(game, seats, seed, undo, account, (table or {}).get("clock"))
        opts = self._check_options(game, len(seats), options, humans)
        table_settings = self.tables.settings_for(table, seats)  # open, clock (checked: tables.py, clocks.py)
        try:
            g = make_game(game, len(seats), **opts)
        except TypeError as e:
            raise ApiError(422, "invalid_options", f"bad options for {game}: {clip(str(e), 200)}") from None
        except RedtableError as e:
            raise ApiError(422, "invalid_options", clip(str(e), 300)) from None
        given_seed = seed is not None
        if given_seed and humans >= 2 and not self.allow_chosen_seeds:
            raise ApiError(
                422,
                "seed_not_allowed",
                "a seed chosen by the creator is allowed only where at most "
                f"one person plays (practice against bots, replaying a known deal); this game has "
                f"{humans} human seats",
                humans=humans,
            )
        if client and self.limits.live_games_per_client:
            unfinished = await self.tables.live_games(client)  # (in storage: the whole fleet's)
            if unfinished >= self.limits.live_games_per_client:
                raise ApiError(
                    429,
                    "too_many_games",
                    f"your address already has {unfinished} unfinished games here "
                    f"(at most {self.limits.live_games_per_client}); finish or leave some first",
                    headers={"Retry-After": "60"},
                    retry_after=60,
                )
        if seed is None:
            from .rematch import seed_starting

            seed = secrets.randbits(63) if first is None else seed_starting(g, first)
        salt = new_salt()
        creator_key = new_secret()
        gid = gid or secrets.token_urlsafe(8)
        now = time.time()
        invites: list[str | None] = []
        seat_rows = []
        for i, s in enumerate(seats):
            invite = new_secret() if s["type"] == "human" else None
            invites.append(invite)
            seat_rows.append(
                {
                    "game_id": gid,
                    "seat": i,
                    "kind": s["type"],
                    "bot": s["bot"] if s["type"] == "bot" else None,
                    "name": names[i],
                    "invite_hash": sha(invite) if invite else None,
                    "token_hash": None,
                    "joined_at": None,
                }
            )
        opts = dict(g.options())
        opts.pop("players", None)
        settings = {
            "undo": bool(undo),
            "bot_delay": float(bot_delay),
            "seed_chosen_by_creator": given_seed,
            "salt": salt,
            "seed_commitment": seed_commitment(seed, salt),
            "creator_hash": sha(creator_key),
            "rated": bool(rated),
            **table_settings,
        }
        if tutorial:
            settings["tutorial"] = True
        if humans:  # the game starts when every person's seat is taken (tables.py: a waiting room until then)
            settings["gated"] = True
        first = next((i for i, s in enumerate(seats) if s["type"] == "human"), None)
        if account is not None and getattr(account, "id", None) is not None:  # (blocks: friends.py)
            settings["creator_account"] = account.id
        if first is not None and not (table or {}).get("quickplay"):  # who invites (the join page says it)
            by_account = account is not None and bool(getattr(account, "username", ""))
            settings["host"] = {
                "seat": first,
                "name": account.username if by_account else names[first],
                "account": by_account,
            }
        game_row = {
            "id": gid,
            "game": game,
            "players": len(seats),
            "seed": seed,
            "options": _dumps(opts),
            "settings": _dumps(settings),
            "status": "active",
            "created_at": now,
            "finished_at": None,
            "result": None,
        }
        row = GameRow(
            gid,
            game,
            len(seats),
            seed,
            opts,
            settings,
            "active",
            now,
            None,
            None,
            [SeatRow(r["seat"], r["kind"], r["bot"], r["name"], r["invite_hash"], None, None) for r in seat_rows],
            [],
        )
        live = LiveGame(row, self.limits)
        table_row = self.tables.created(live, client)  # (submitted first: one batch with the game's write)
        if self.fleet is None:
            await self.write(("game", game_row, seat_rows), "creating a game")
        else:  # the version decisions are checked against; the lease if the server moves first
            t0 = time.monotonic()
            got = await self.write(
                ("game", {**game_row, "version": 0}, seat_rows, self.server_turn(live)), "creating a game"
            )
            self.fleet.note_lease(gid, bool(got and got.get("lease")), t0)
            live.on_presence = self._publish_presence
        await self.tables.stored(table_row)
        self.games[gid] = live
        self.after_change(live)
        out = {
            **live.info(),
            "version": live.version,
            "status": live.status,
            "ws_url": f"/api/games/{gid}/ws",
            "url": f"/api/games/{gid}",
            "creator_key": creator_key,
            "seats": [
                {**live.seats[i].public(False), "invite": inv, "invite_url": f"/join/{gid}#{inv}" if inv else None}
                for i, inv in enumerate(invites)
            ],
        }
        if given_seed:
            out["seed"] = seed
        return out

    async def write(self, op: tuple, what: str) -> Any:
        """Commit one write; a failure reaches the client as a generic 503 with a request id."""
        try:
            return await self.writer.submit(op)
        except (asyncio.CancelledError, InviteGone):
            raise
        except Exception as e:  # noqa: BLE001
            rid = request_id()
            log.error("%s failed (request %s): %s", what, rid, e)
            raise storage_error(rid) from None

    async def join(self, game: LiveGame, invite: Any, name: Any, account: Any = None) -> dict:
        """Exchange a seat's invite for a new token for this device (each device its own).

        ``account`` (logged in): the seat is bound to it (``accounts.bind_seat``; a rated
        game's seats only so), and its username is the seat's name unless one is given."""
        from .accounts import bind_seat

        seat = game.by_invite.get(sha(invite)) if isinstance(invite, str) else None
        if seat is None and self.fleet is not None and isinstance(invite, str):
            await self.reload_seats(game)  # issued by another process a moment ago?
            seat = game.by_invite.get(sha(invite))
        if seat is None:
            raise ApiError(403, "bad_invite", "this invite is not (or no longer) for a seat of this game")
        name = check_name(name)
        s = game.seats[seat]
        if account is not None and s.joined_at is None:  # a new seat: not at a table of someone blocked (friends.py)
            from .friends import check_may_sit

            await run_blocking(check_may_sit, self.store, game.id, account.id)
        if name is None and account is not None and s.name is None and not game.started:
            name = account.username
        if account is not None and game.settings.get("rated"):  # a rated seat shows its account's name
            name = account.username
        if name is not None and name != s.name and game.started:
            raise ApiError(
                409,
                "game_started",
                "a seat's name can change only before the first decision; join without a name (or with the same one)",
            )
        token = new_secret()
        th = sha(token)
        at = time.time()
        async with game.lock:
            if seat != game.by_invite.get(sha(invite)):  # signed out meanwhile
                raise ApiError(403, "bad_invite", "this invite is not (or no longer) for a seat of this game")
            await bind_seat(self, game, seat, account)
            if self.fleet is None:
                await self.write(("token", game.id, seat, th, at), "joining a seat")
            else:  # only while the invite is still the seat's: another process may have replaced it
                try:
                    await self.write(("token", game.id, seat, th, at, sha(invite)), "joining a seat")
                except InviteGone:
                    self.spawn(self.reload_seats(game), f"re-reading the seats of {game.id}")
                    raise ApiError(
                        403, "bad_invite", "this invite is not (or no longer) for a seat of this game"
                    ) from None
                self.fleet.after_meta(game.id)
            game.by_token[th] = seat
            if s.joined_at is None or (name and name != s.name):
                joined = s.joined_at or at
                new_name = name or s.name
                await self.write(("join", game.id, seat, new_name, joined), "joining a seat")
                if self.fleet is not None:
                    self.fleet.after_meta(game.id)
                first = s.joined_at is None
                s.joined_at, s.name = joined, new_name
                game.announce_presence()
                if first:  # the last seat of a table that starts when full: it starts (tables.py)
                    await self.tables.seat_taken(game)
        self.after_change(game)
        return {
            "game_id": game.id,
            "seat": seat,
            "token": token,
            "name": s.name,
            "ws_url": f"/api/games/{game.id}/ws",
            "url": f"/api/games/{game.id}",
        }

    async def sign_out_others(self, game: LiveGame, seat: int, token: str) -> dict:
        """Revoke every other device's token of ``seat`` and replace its invite (the old link dies)."""
        keep = sha(token)
        invite = new_secret()
        async with game.lock:
            await self.write(("revoke", game.id, seat, keep, sha(invite), time.time()), "signing out devices")
            if self.fleet is not None:  # the other processes close that seat's other devices too
                self.fleet.after_meta(game.id)
            gone = [h for h, s in game.by_token.items() if s == seat and h != keep]
            for h in gone:
                del game.by_token[h]
            for h, s in list(game.by_invite.items()):
                if s == seat:
                    del game.by_invite[h]
            game.by_invite[sha(invite)] = seat
            game.seats[seat].invite_hash = sha(invite)
            for c in list(game.conns):
                if c.seat == seat and c.token_hash != keep:
                    c.end(
                        _dumps(
                            {
                                "type": "error",
                                "error": "signed_out",
                                "message": "this device was signed out of its seat",
                            }
                        ),
                        4010,
                        "signed out",
                    )
        return {
            "game_id": game.id,
            "seat": seat,
            "signed_out": len(gone),
            "invite": invite,
            "invite_url": f"/join/{game.id}#{invite}",
        }

    async def reissue_invite(self, game: LiveGame, seat: Any, creator_key: str | None) -> dict:
        """The creator replaces the invite of a seat nobody has taken yet."""
        if not creator_key or not game.creator_hash or not secrets.compare_digest(sha(creator_key), game.creator_hash):
            raise ApiError(
                403,
                "not_creator",
                "only the game's creator (with the creator_key the creation answered) may re-issue an invite",
            )
        if not isinstance(seat, int) or not 0 <= seat < game.players:
            raise ApiError(404, "unknown_seat", f"seat must be 0-{game.players - 1}")
        if self.fleet is not None:  # the seat may have been taken through another process
            await self.reload_seats(game)
        s = game.seats[seat]
        if s.kind != "human":
            raise ApiError(409, "bot_seat", f"seat {seat} is a bot's: it has no invite")
        if s.joined_at is not None:
            raise ApiError(409, "seat_taken", f"seat {seat} was taken; its player can sign out other devices")
        invite = new_secret()
        async with game.lock:
            await self.write(("invite", game.id, seat, sha(invite)), "re-issuing an invite")
            if self.fleet is not None:
                self.fleet.after_meta(game.id)
            for h, x in list(game.by_invite.items()):
                if x == seat:
                    del game.by_invite[h]
            game.by_invite[sha(invite)] = seat
            s.invite_hash = sha(invite)
        return {"game_id": game.id, "seat": seat, "invite": invite, "invite_url": f"/join/{game.id}#{invite}"}

    # -------------------------------------------------------------- decisions
    def _check_turn(self, game: LiveGame, seat: int, version: int) -> Any:
        """The pending decision if ``seat`` may decide it at ``version``; else the refusal."""
        d = game.state.decision()
        if d is None:
            raise ApiError(
                409,
                "game_over",
                "the game is over; nothing more can be decided",
                version=game.version,
                result=game.result(),
            )
        if d.player != seat:
            raise ApiError(
                409,
                "not_your_turn",
                f"seat {seat} cannot decide now: seat {d.player} is to decide ({d.kind})",
                version=game.version,
                waiting_for=d.player,
                kind=d.kind,
            )
        if version != game.version:
            raise ApiError(
                409,
                "stale_version",
                f"you saw version {version} but the game is at version {game.version}; "
                "read the game again and decide on what you see",
                version=game.version,
                legal=list(d.options),
                decision=d.to_json(),
            )
        return d

    async def decide(
        self,
        game: LiveGame,
        seat: int,
        action: Any,
        version: Any,
        origin: Conn | None = None,
        req_id: Any = None,
        by_server: bool = False,
    ) -> dict:
        """Check, apply, commit, announce. Returns what ``seat`` sees after the decision."""
        if not isinstance(version, int) or isinstance(version, bool):
            d = game.state.decision()
            extra: dict[str, Any] = (
                {"legal": list(d.options), "decision": d.to_json()} if d is not None and d.player == seat else {}
            )
            raise ApiError(
                422,
                "malformed",
                f"'version' must be an integer, got {clip(version, 40)}",
                version=game.version,
                **extra,
            )
        async with game.lock:
            if game.evicted:  # pragma: no cover - only after hours idle with a request in flight
                game = await self.get(game.id)
                return await self.decide(game, seat, action, version, origin, req_id, by_server)
            if self.fleet is not None and (version > game.version or game.known > game.version):
                await self.catch_up_locked(game)  # the client saw a version another process made
            self.tables.check_turn(game, seat, by_server)  # a table closed, not full, a seat a bot took
            d = self._check_turn(game, seat, version)
            if not isinstance(action, str) or action not in d.options:
                raise ApiError(
                    422,
                    "illegal_action" if isinstance(action, str) else "malformed",
                    f"{clip(action)} is not a legal choice for {d.kind}"
                    if isinstance(action, str)
                    else f"'action' must be a string, got {clip(action, 40)}",
                    version=game.version,
                    legal=list(d.options),
                    decision=d.to_json(),
                )
            if not by_server and game.idle_window() is not None:
                raise ApiError(
                    409,
                    "answered_by_server",
                    "you hold nothing to block with: the server declines "
                    "this window for you after a while, so the table cannot tell",
                    version=game.version,
                )
            if not by_server and d.kind in WINDOW_KINDS and game.block_windows and game.seats[seat].kind == "human":
                self._delays(game).observe(time.monotonic() - game.asked_at)
            # the server's "no" to an empty window is the seat's own decision on the clock (its
            # time, its increment), as a person's "no" would be: the clock tells no blocker
            as_person = not by_server or (game.idle_window() is not None and game.seats[seat].kind == "human")
            undoable = False
            if game.undo_allowed:
                undoable = undo_check(game.state, action, salt=game.seed ^ game.step)[0]
            # The decision is applied to a copy, swapped in once committed: until then every
            # reader sees the last committed state with its version.
            state = game.state.clone()
            try:
                state.apply(action)
            except IllegalAction as e:  # pragma: no cover - checked above
                raise ApiError(422, "illegal_action", clip(str(e)), version=game.version, legal=list(e.legal)) from None
            seq = game.rows + 1
            finished = state.is_terminal()
            result = game.table.final_result(state) if finished else None  # (forfeited seats ranked last)
            row = {
                "game_id": game.id,
                "seq": seq,
                "seat": seat,
                "action": action,
                "undoable": undoable,
                "undone": False,
                "at": time.time(),
            }
            if self.fleet is None:
                op: tuple = ("action", row, result)
            else:  # committed only on this version; the lease follows whoever the server must answer for
                op = ("action", row, result, (game.version, "take" if self.server_turn(game, state) else "release"))
            t0 = time.monotonic()
            try:
                got = await self.writer.submit(op)
            except asyncio.CancelledError:  # the commit may still happen: reload from storage
                self._drop(game)
                raise
            except VersionConflict:  # another process decided first: this replica catches up, the client is stale
                self.fleet.counts["conflicts"] += 1
                await self.catch_up_locked(game)
                self._check_turn(game, seat, version)
                raise ApiError(
                    409, "stale_version", "the game moved on while this decision was being stored", version=game.version
                ) from None
            except Exception as e:  # noqa: BLE001
                rid = request_id()
                log.error("commit of %s #%d failed (request %s): %s", game.id, seq, rid, e)
                self._drop(game)
                raise storage_error(rid) from None
            game.state = state
            game.rows = seq
            game.version += 1
            game.actions.append(action)
            game.step_seats.append(seat)
            game.seqs.append(seq)
            game.undoable.append(undoable)
            game.marks.append(len(state.events))
            if game.step % SNAPSHOT_EVERY == 0:
                game.checkpoints[game.step] = state  # never changed again: the next decision copies it
            game.last_active = game.asked_at = time.monotonic()
            if finished:
                game.finished_at = time.time()
                self.rate_finished(game)
            self.decisions += 1
            if self.fleet is not None:
                game.known = max(game.known, game.version)
                self.fleet.note_lease(game.id, bool(got and got.get("lease")), t0)
                self.fleet.after_commit(game.id, game.version)
            self.tables.changed(game, seat, as_person)  # the clocks (before the updates that show them)
            game.broadcast(lambda s: game.update(s, seat, req_id))
        self.after_change(game)
        return game.update(seat, seat)

    def rate_finished(self, game: LiveGame) -> None:
        """A rated game just finished: its accounts' ratings move, once across processes (ratings.py)."""
        if game.settings.get("rated"):
            from .ratings import rate_game

            self.spawn(rate_game(self.store, game.id), f"rating game {game.id}")

    def server_turn(self, game: LiveGame, state: State | None = None) -> bool:
        """Whether the server is to move in ``state``: a bot's decision, or a block window it answers."""
        if not self.tables.server_may_move(game):
            return False  # a table not full yet, or over
        state = state or game.state
        d = state.decision()
        return d is not None and (game.seats[d.player].kind == "bot" or game.idle_window(state) is not None)

    def _delays(self, game: LiveGame) -> HumanDelays:
        d = self.delays.get(game.name)
        if d is None:
            d = self.delays[game.name] = HumanDelays(self.window_median)
        return d

    async def undo(
        self, game: LiveGame, seat: int, version: Any, origin: Conn | None = None, req_id: Any = None
    ) -> dict:
        if not isinstance(version, int) or isinstance(version, bool):
            raise ApiError(
                422, "malformed", f"'version' must be an integer, got {clip(version, 40)}", version=game.version
            )
        async with game.lock:
            if self.fleet is not None and (version > game.version or game.known > game.version):
                await self.catch_up_locked(game)
            if not game.undo_allowed:
                raise ApiError(409, "undo_disabled", "this game was created without undo", version=game.version)
            if version != game.version:
                raise ApiError(
                    409,
                    "stale_version",
                    f"you saw version {version} but the game is at version {game.version}",
                    version=game.version,
                )
            if game.finished:
                raise ApiError(409, "game_over", "a finished game cannot be undone", version=game.version)
            if not game.actions:
                raise ApiError(409, "nothing_to_undo", "no decision has been made yet", version=game.version)
            if game.step_seats[-1] != seat:
                raise ApiError(
                    409,
                    "not_your_decision",
                    f"the last decision was seat {game.step_seats[-1]}'s: an undo never crosses "
                    "another player's decision",
                    version=game.version,
                )
            if not game.undoable[-1]:
                raise ApiError(
                    409,
                    "undo_forbidden",
                    "your last decision used chance, ended your part of the turn or could have "
                    "depended on hidden information; it stands",
                    version=game.version,
                )
            seq = game.seqs[-1]
            actions = game.actions[:-1]
            rebuilt = await self.off_loop(game.rebuild, actions)  # from the seed and the log minus the last one
            op: tuple = ("undo", game.id, seq)
            if self.fleet is not None:  # committed only on this version; a person decides next: no lease
                op = ("undo", game.id, seq, (game.version, "release"))
            try:
                got = await self.writer.submit(op)
            except asyncio.CancelledError:
                self._drop(game)
                raise
            except VersionConflict:
                self.fleet.counts["conflicts"] += 1
                await self.catch_up_locked(game)
                raise ApiError(
                    409, "stale_version", "the game moved on while this undo was being stored", version=game.version
                ) from None
            except Exception as e:  # noqa: BLE001
                rid = request_id()
                log.error("undo of %s #%d failed (request %s): %s", game.id, seq, rid, e)
                self._drop(game)
                raise storage_error(rid) from None
            game.state, game.marks, game.checkpoints = rebuilt
            game.actions = actions
            del game.step_seats[-1], game.seqs[-1], game.undoable[-1]
            game.version += 1
            game.last_active = game.asked_at = time.monotonic()
            if self.fleet is not None:
                game.known = max(game.known, game.version)
                self.fleet.note_lease(game.id, bool(got and got.get("lease")), time.monotonic())
                self.fleet.after_commit(game.id, game.version)
            self.tables.changed(game, None, False)  # an undo: the clock runs for whoever decides now
            for c in game.conns:
                if c.seat == seat and c is origin and req_id is not None:
                    c.want_state(reason="undo", by=seat, id=req_id)
                else:
                    c.want_state(reason="undo", by=seat)
        self.after_change(game)
        return game.snapshot(seat)

    def _drop(self, game: LiveGame) -> None:
        """After a failed commit storage may or may not hold the decision: forget the game, reload it on next use."""
        game.evicted = True
        if self.games.get(game.id) is game:
            del self.games[game.id]
        for c in list(game.conns):
            c.end(
                _dumps(
                    {
                        "type": "error",
                        "error": "storage_unavailable",
                        "message": "the server lost its storage; reconnect to carry on",
                    }
                ),
                1011,
                "storage",
            )

    # -------------------------------------------------------------- who moves next
    def after_change(self, game: LiveGame) -> None:
        """After every change: the server answers an unusable block window; bots play their turns."""
        if game.evicted or not self.tables.server_may_move(game):
            return  # (a table not full yet, or over: nothing moves)
        if self.fleet is not None and not self.fleet.holds(game.id):
            return  # another process answers for the server in this game (or nobody needs to)
        idle = game.idle_window()
        if idle is not None:
            if game.window_task is None or game.window_task.done():
                game.window_task = asyncio.create_task(self._answer_window(game, idle))
            return
        self._kick_bots(game)

    async def _answer_window(self, game: LiveGame, action: str) -> None:
        """Decline a block window for a seat that holds no blocker, after a person's wait, and
        only while its player is at the table: a person away cannot say no either, so the
        window of an away seat waits for them (its clock runs, the table may close) whether
        or not they hold a blocker, and presence tells nothing."""
        version = game.version
        d = game.state.decision()
        if d is None:
            return

        def gone() -> bool:
            return game.evicted or game.version != version or game.finished

        while True:
            await asyncio.sleep(self.tables.window_wait(game, d.player, self._delays(game).draw()))
            if gone():
                return
            if game.present(d.player, self.present_seconds):
                break
            while not game.present(d.player, self.present_seconds):  # back: a person's wait again
                await asyncio.sleep(PRESENT_POLL)
                if gone():
                    return
        if self.fleet is not None and not self.fleet.holds(game.id):
            return  # the lease went elsewhere meanwhile: the holder answers
        try:
            await self.decide(game, d.player, action, version, by_server=True)
        except ApiError as e:
            if e.code != "stale_version":
                log.warning("declining a window in %s failed: %s", game.id, e.message)

    @staticmethod
    def _bot_failed(game: LiveGame, seat: int, spec: str) -> None:
        """Tell the table that a bot's think failed (the details are in the log): it played a random move."""
        notice = _dumps(
            {
                "type": "notice",
                "code": "bot_failed",
                "game_id": game.id,
                "seat": seat,
                "bot": spec,
                "message": f"the bot of seat {seat} ({spec}) failed to think in time; it plays a "
                "random legal move this time",
            }
        )
        for c in game.conns:
            c.push(notice)

    def _kick_bots(self, game: LiveGame) -> None:
        if game.bot_task is not None and not game.bot_task.done():
            return
        d = game.state.decision()
        if d is not None and game.seats[d.player].kind == "bot" and not game.evicted:
            game.bot_task = asyncio.create_task(self._run_bots(game))

    async def _run_bots(self, game: LiveGame) -> None:
        failures = 0
        while not game.evicted:
            if self.fleet is not None and not self.fleet.holds(game.id):
                return
            d = game.state.decision()
            if (
                d is None
                or game.seats[d.player].kind != "bot"
                or game.idle_window() is not None
                or not self.tables.server_may_move(game)
            ):
                return
            started = time.monotonic()
            if game.bot_delay:
                await asyncio.sleep(game.bot_delay)
            version, seat = game.version, d.player
            if game.state.decision() is not d:
                continue
            spec = game.seats[seat].bot or "random"
            seed = Rng(game.seed).derive(seat + 1, game.step)
            try:
                action = await self.pool.choose(
                    game.id, spec, seed, game.state, priority=0 if game.humans else 1, game_seed=game.seed
                )
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001
                log.exception("bot %s of game %s failed; it plays at random", spec, game.id)
                action = d.options[Rng(version).below(len(d.options))]
                self._bot_failed(game, seat, spec)
            else:
                take = getattr(self.pool, "take_fallbacks", None)
                if take is not None and take(game.id):  # overran its deadline, or its worker died (logged)
                    self._bot_failed(game, seat, spec)
            if d.kind in WINDOW_KINDS and game.block_windows:  # a bot's block answer takes a person's time too
                wait = self._delays(game).draw() - (time.monotonic() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
            if game.version != version:
                continue
            try:
                await self.decide(game, seat, action, version, by_server=True)
                failures = 0
            except ApiError as e:
                if e.code == "stale_version":
                    continue
                failures += 1
                log.warning("bot move refused in %s: %s", game.id, e.message)
                if failures > 3:
                    return
                await asyncio.sleep(0.5 * failures)

    # -------------------------------------------------------------- fleet: hearing the other processes
    def on_note(self, payload: str) -> None:
        """A notice from the bus (``fleet.py``): a game's new version, its seats or tokens changed,
        another process's presence report, or a request for ours. Runs on the event loop."""
        gid, _, rest = payload.partition(":")
        g = self.games.get(gid)
        if rest.isdigit():
            v = int(rest)
            if g is None:
                if gid in self.loading:  # caught up once loaded
                    self.heard[gid] = max(self.heard.get(gid, 0), v)
                return
            if v > g.known:
                g.known = v
            if g.known > g.version and (g.conns or self._working(g)):
                self._spawn_catch_up(g)
            return  # a game nobody watches here is caught up when next used (Hub.get)
        if g is None:
            return
        if rest.startswith(("c:", "u:", "r:")):  # a chat message, a seat's mutes, a removed message (chat.py)
            self.chat.on_note(g, rest)
        elif rest == "r":  # a rematch offer changed (rematch.py)
            self.rematch.heard(g)
        elif rest.startswith("f:"):  # a friend invited the account of a seat here (friends_api.py)
            from .friends_api import heard

            heard(g, rest, self.fleet.tag)
        elif rest.startswith("t:"):  # a table changed: a timeout, a closure, bots seated (tables.py)
            if rest != f"t:{self.fleet.tag}":
                self.tables.heard(g)
        elif rest.startswith("m"):
            if rest != f"m:{self.fleet.tag}":  # (our own change is in memory already)
                self.spawn(self.reload_seats(g), f"re-reading the seats of {gid}")
        elif rest == "q":
            if g.conns:
                self._publish_presence(g)
        elif rest.startswith("p:"):
            parts = rest.split(":")
            if len(parts) != 4 or parts[1] == self.fleet.tag:
                return
            try:
                bits, spectators = int(parts[2]), int(parts[3])
            except ValueError:
                return
            seats = frozenset(i for i in range(g.players) if bits >> i & 1)
            old = g.remote.get(parts[1])
            if seats or spectators:
                g.remote[parts[1]] = (seats, max(0, spectators), time.monotonic())
            else:
                g.remote.pop(parts[1], None)
            if old is None or old[:2] != (seats, spectators):
                g.announce_presence(local=False)

    def _working(self, g: LiveGame) -> bool:
        """Whether this process makes the server's moves in ``g`` (its replica must stay current)."""
        return (
            self.fleet.holds(g.id)
            or (g.bot_task is not None and not g.bot_task.done())
            or (g.window_task is not None and not g.window_task.done())
        )

    def spawn(self, coro, what: str) -> asyncio.Task:
        async def run() -> None:
            try:
                await coro
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001
                log.exception("%s failed", what)

        return asyncio.create_task(run())

    def _spawn_catch_up(self, g: LiveGame) -> None:
        """Catch ``g`` up soon: the games heard of in one turn of the event loop are read from
        storage in one statement (a burst of notices costs one round trip, not one each)."""
        if g.catching is not None and not g.catching.done():
            g.more = True  # the running one reads again when it is done
            return
        self._behind.add(g)
        if self._behind_task is None or self._behind_task.done():
            self._behind_task = self.spawn(self._catch_up_behind(), "catching up games")

    async def _catch_up_behind(self) -> None:
        await asyncio.sleep(0)  # the rest of this loop turn's notices join the batch
        while self._behind:
            games = [g for g in self._behind if not g.evicted][:500]
            self._behind.difference_update(games)
            if not games:
                continue
            done = asyncio.get_running_loop().create_future()
            for g in games:
                g.catching, g.more = done, False
            try:
                read = await self.fleet.read_since_many([(g.id, g.rows) for g in games])
            except Exception:  # noqa: BLE001
                log.exception("catching up %d games failed; the next notice or poll retries", len(games))
                read = {}
            for g in games:
                try:
                    async with g.lock:
                        if g.evicted:
                            continue
                        got = read.get(g.id)
                        if got is not None and got[2] == g.rows:  # nothing of it was applied meanwhile
                            await self._apply_caught(g, got[0], got[1])
                        elif g.known > g.version:
                            await self.catch_up_locked(g)
                except Exception:  # noqa: BLE001
                    log.exception("catching up game %s failed", g.id)
                if g.more and g.known > g.version and not g.evicted:
                    self._behind.add(g)
            done.set_result(None)

    async def catch_up(self, g: LiveGame) -> None:
        """Bring the replica ``g`` to the version in storage (see :meth:`catch_up_locked`)."""
        async with g.lock:
            if not g.evicted:
                await self.catch_up_locked(g)

    async def catch_up_locked(self, g: LiveGame) -> None:
        """Apply what other processes committed since this replica's last row, in order, and tell
        this process's connections exactly what the deciding process told its own.

        One statement reads the version and the new rows (one snapshot). If the version moved
        by as much as the new rows account for, each new decision is applied and announced
        (``update``); if not, decisions were undone meanwhile: the replica is rebuilt from the
        seed and the log, and every connection gets a fresh ``state`` (``reason: "undo"``).
        """
        try:
            version, rows = await self.fleet.read_since(g.id, g.rows)
        except Exception:  # noqa: BLE001
            rid = request_id()
            log.exception("catching up game %s failed (request %s)", g.id, rid)
            raise storage_error(rid) from None
        await self._apply_caught(g, version, rows)

    async def _apply_caught(self, g: LiveGame, version: int | None, rows: list) -> None:
        """Apply what storage holds after this replica's last row (read as one snapshot); under the lock."""
        if version is None or version <= g.version:
            return  # (a notice heard during the read stays known: its batch reads again)
        self.fleet.counts["catch_ups"] += 1
        fresh = [r for r in rows if not r.undone]
        gone = (version - g.version) - len(rows) - (len(rows) - len(fresh))  # older decisions undone since
        try:
            if gone == 0 and len(fresh) == len(rows):
                for r in rows:
                    self._apply_remote(g, r)
            elif 0 <= gone <= len(g.actions):
                await self._rebuild_remote(g, gone, rows, fresh, version)
            else:
                raise RuntimeError(
                    f"storage is at version {version}, this replica at {g.version} with "
                    f"{len(rows)} new rows: they do not add up"
                )
        except Exception as e:  # noqa: BLE001  (never expected: the engine is deterministic)
            log.error("the replica of %s could not follow storage (%s); it is reloaded", g.id, e)
            self._drop(g)
            return
        g.known = max(g.known, g.version)
        if g.finished and g.finished_at is None:
            g.finished_at = time.time()
            self.rate_finished(g)  # (the process that finished it rates it too: whichever comes first, once)
        self.after_change(g)

    def _apply_remote(self, g: LiveGame, r) -> None:
        """One decision another process committed, applied here as the decider applied it."""
        state = g.state.clone()  # (a kept replay state is never changed)
        state.apply(r.action)
        g.state = state
        g.rows = r.seq
        g.version += 1
        g.actions.append(r.action)
        g.step_seats.append(r.seat)
        g.seqs.append(r.seq)
        g.undoable.append(r.undoable)
        g.marks.append(len(state.events))
        if g.step % SNAPSHOT_EVERY == 0:
            g.checkpoints[g.step] = state
        g.last_active = g.asked_at = time.monotonic()
        self.tables.changed(g, r.seat, g.seats[r.seat].kind == "human", remote=True)  # (the decider stores it)
        g.broadcast(lambda s: g.update(s, r.seat))

    async def _rebuild_remote(self, g: LiveGame, gone: int, rows: list, fresh: list, version: int) -> None:
        keep = len(g.actions) - gone
        undone_seats = [r.seat for r in rows if r.undone] or g.step_seats[keep : keep + 1]
        actions = g.actions[:keep] + [r.action for r in fresh]
        rebuilt = await self.off_loop(g.rebuild, actions)
        g.state, g.marks, g.checkpoints = rebuilt
        g.actions = actions
        g.step_seats = g.step_seats[:keep] + [r.seat for r in fresh]
        g.seqs = g.seqs[:keep] + [r.seq for r in fresh]
        g.undoable = g.undoable[:keep] + [r.undoable for r in fresh]
        if rows:
            g.rows = rows[-1].seq
        g.version = version
        g.last_active = g.asked_at = time.monotonic()
        self.fleet.counts["rebuilds"] += 1
        by = undone_seats[-1] if undone_seats else None
        self.tables.changed(g, None, False, remote=True)
        for c in g.conns:
            c.want_state(reason="undo", by=by)

    async def reload_seats(self, g: LiveGame) -> None:
        """Re-read the seats and device tokens another process changed; close the sockets of
        devices signed out there. Under the game's lock: a join of this process is either
        committed before the read or starts after it, never overwritten by an older read."""
        async with g.lock:
            await self.reload_seats_locked(g)

    async def reload_seats_locked(self, g: LiveGame) -> None:
        seats, tokens = await self.fleet.seats_and_tokens(g.id)
        changed = False
        for seat, name, invite_hash, token_hash, joined_at in seats:
            s = g.seats[seat]
            if (s.name, s.joined_at) != (name, joined_at):
                changed = True
            s.name, s.joined_at, s.invite_hash = name, joined_at, invite_hash
            if token_hash:  # (a game from before per-device tokens)
                tokens.setdefault(token_hash, seat)
        g.by_token = tokens
        g.by_invite = {s.invite_hash: s.index for s in g.seats if s.invite_hash}
        for c in list(g.conns):
            if c.seat is not None and c.token_hash is not None and tokens.get(c.token_hash) != c.seat:
                c.end(
                    _dumps(
                        {"type": "error", "error": "signed_out", "message": "this device was signed out of its seat"}
                    ),
                    4010,
                    "signed out",
                )
        if changed:
            g.announce_presence(local=False)

    def _publish_presence(self, g: LiveGame) -> None:
        self.fleet.publish_presence(g.id, g.local_seats(), sum(1 for c in g.conns if c.seat is None))

    _presence_at = 0.0

    def _serving(self) -> list[str]:
        """The games whose replicas must stay current here (polled by the fleet); every
        ``presence_every`` seconds this process also repeats its presence in each."""
        now = time.monotonic()
        repeat = now - self._presence_at >= self.fleet.presence_every
        if repeat:
            self._presence_at = now
        out = []
        for gid, g in self.games.items():
            if g.conns or self._working(g):
                out.append(gid)
                if repeat and g.conns:
                    self._publish_presence(g)
        return out

    def _renewing(self) -> list[str]:
        """The games whose leases this process is using (a bot thinking, a window waiting)."""
        return [
            gid
            for gid, g in self.games.items()
            if (g.bot_task is not None and not g.bot_task.done())
            or (g.window_task is not None and not g.window_task.done())
        ]

    def _resync(self) -> None:
        """The bus reconnected: notices may have been missed; re-read every replica's version."""
        ids = list(self.games)

        async def run() -> None:
            for i in range(0, len(ids), 5000):
                for gid, v in (await self.fleet.versions(ids[i : i + 5000])).items():
                    if v is not None:
                        self.on_note(f"{gid}:{v}")

        self.spawn(run(), "re-reading versions after the bus reconnected")

    async def _claimed(self, gid: str) -> None:
        """This process claimed an expired lease: catch up, and play on if the server is to move."""
        g = await self.get(gid)
        await self.catch_up(g)
        if g.evicted or g.finished or not self.server_turn(g):
            await self.fleet.release([gid])
            return
        log.info("took over the server's moves in game %s", gid)
        self.after_change(g)

    # -------------------------------------------------------------- connections
    def attach(self, game: LiveGame, conn: Conn) -> None:
        conn.snapshot = game.snapshot_text
        game.conns.append(conn)
        game.last_active = time.monotonic()
        conn.want_state()
        self.chat.attached(game, conn)  # the chat's recent history, after the snapshot
        game.announce_presence()
        if self.fleet is not None and len(game.conns) == 1:
            self.fleet.ask_presence(game.id)  # who is connected to the other processes?

    def detach(self, game: LiveGame, conn: Conn) -> None:
        conn.end()
        try:
            game.conns.remove(conn)
        except ValueError:
            return
        game.last_active = time.monotonic()
        game.announce_presence()
        if conn.seat is not None and conn.seat not in game.local_seats():
            self.tables.left(game, conn.seat)  # (a real-time game left waiting on it: notices.py)

    def spectators(self, game: LiveGame) -> int:
        return game.spectator_count()

    async def seat_of(self, game: LiveGame, token: str | None) -> int | None:
        """The seat of ``token`` (None: a spectator); in a fleet, a token just made by another
        process is looked up in storage before it is refused."""
        try:
            return game.seat_of_token(token)
        except ApiError:
            if self.fleet is None or not isinstance(token, str) or len(token) > 200:
                raise
        try:
            seat = await self.fleet.token_seat(game.id, sha(token))
        except Exception:  # noqa: BLE001
            rid = request_id()
            log.exception("looking up a token of %s failed (request %s)", game.id, rid)
            raise storage_error(rid) from None
        if seat is None:
            raise bad_token()
        game.by_token[sha(token)] = seat
        return seat

    async def handle(self, game: LiveGame, conn: Conn, raw: str | bytes | None) -> None:
        """One client message over the WebSocket; any refusal goes back as an error message."""
        req_id = None
        try:
            self.limiter.take(conn.client, "ws_message")
            if raw is not None and len(raw) > self.limits.ws_message_bytes:
                raise ApiError(413, "too_large", f"a message may be at most {self.limits.ws_message_bytes} bytes")
            try:
                msg = orjson.loads(raw) if raw is not None else None
            except orjson.JSONDecodeError:
                raise ApiError(
                    400, "malformed", 'messages are JSON objects like {"type": "decide", "action": "...", "version": 3}'
                ) from None
            if not isinstance(msg, dict):
                raise ApiError(400, "malformed", "messages are JSON objects with a 'type'")
            req_id = msg.get("id")
            if req_id is not None and not (
                isinstance(req_id, (int, str)) and not isinstance(req_id, bool) and len(str(req_id)) <= 64
            ):
                req_id = None
                raise ApiError(400, "malformed", "'id' must be a string or integer of at most 64 characters")
            kind = msg.get("type")
            if kind == "decide" or kind == "undo":
                if conn.seat is None:
                    raise ApiError(403, "spectator", "spectators watch; connect with a seat's token to play")
                if game.evicted:
                    raise ApiError(409, "reconnect", "the game was reloaded; reconnect")
                self.limiter.take(conn.client, "decide")
                if kind == "decide":
                    await self.decide(game, conn.seat, msg.get("action"), msg.get("version"), conn, req_id)
                else:
                    await self.undo(game, conn.seat, msg.get("version"), conn, req_id)
            elif kind == "sync":
                conn.want_state()  # one pending snapshot at most, built when sent
            elif kind == "chat" or kind == "mute":
                await self.chat.handle(game, conn, msg, req_id)
            elif kind == "ping":
                conn.push(_dumps({"type": "pong", "id": req_id, "version": game.version}))
            else:
                raise ApiError(
                    400,
                    "unknown_type",
                    f"unknown message type {clip(kind, 40)}; send decide, undo, sync, ping, chat or mute",
                )
        except ApiError as e:
            conn.refused += 1
            if conn.refused > 50:  # a client that keeps sending what is refused is cut off
                conn.end(_dumps({"type": "error", "id": req_id, **e.body()}), 4029, "too many refused messages")
                return
            conn.push(_dumps({"type": "error", "id": req_id, **e.body()}))
        else:
            conn.refused = 0

    # -------------------------------------------------------------- reading
    def log_for(self, game: LiveGame, seat: int | None) -> dict:
        steps = []
        for i in range(game.step):
            entry = {
                "step": i + 1,
                "seat": game.step_seats[i],
                "events": game.events_for(seat, game.marks[i], game.marks[i + 1], reveal=True),
            }
            if seat is not None and game.step_seats[i] == seat:
                entry["action"] = game.actions[i]
            steps.append(entry)
        return {
            "game_id": game.id,
            "game": game.name,
            "seat": seat,
            "version": game.version,
            "steps": game.step,
            "status": game.status,
            "setup": game.events_for(seat, 0, game.marks[0], reveal=True),
            "log": steps,
            "result": game.result(),
            "decision": game.decision_for(seat),
        }

    async def replay_step(self, game: LiveGame, seat: int | None, step: int) -> dict:
        """The game as ``seat`` saw it after ``step`` decisions: from the nearest kept state, off the loop."""
        if not 0 <= step <= game.step:
            raise ApiError(404, "unknown_step", f"step must be 0-{game.step}, got {step}", steps=game.step)
        steps = game.step
        by = game.step_seats[step - 1] if step > 0 else None
        action = game.actions[step - 1] if step > 0 else None
        lo = game.marks[step - 1] if step > 0 else 0
        hi = game.marks[step]
        base, todo = (game.state, []) if step == steps else game.replay_plan(step)

        def build() -> dict:
            state = base
            if todo:
                state = base.clone()
                for a in todo:
                    state.apply(a)
            out = {
                "game_id": game.id,
                "step": step,
                "steps": steps,
                "seat": seat,
                "by": by,
                "view": state.view(seat),
                "decision": game.decision_for(seat, state),
                "events": game.events_for(seat, lo, hi, state, reveal=True),
            }
            if step > 0 and seat is not None and by == seat:
                out["action"] = action
            if finished:  # every hand as it was at this step (the record, public now, tells them)
                out["hands"] = [_own_hand(state.view(p), p) for p in range(game.players)]
            return out

        finished = game.finished
        return await self.off_loop(build)

    async def record(self, game: LiveGame) -> dict:
        from ..core import GameRecord

        if not game.finished:
            raise ApiError(
                409,
                "game_not_finished",
                "the full record (seed and every decision) is published when the game is over",
                version=game.version,
            )
        rec = GameRecord(game.name, game.players, game.seed, dict(game.options), list(game.actions))
        state = game.state
        out = await self.off_loop(rec.to_json, state)
        out["salt"] = game.salt
        out["seed_commitment"] = game.commitment
        out["seed_chosen_by_creator"] = game.seed_chosen
        return out


def _own_hand(view: dict, seat: int) -> list:
    """The hand in ``seat``'s own view: a title's view lists its seats under ``players`` (Red
    Rising) or ``seats`` (Red North), the viewer's entry with its ``hand``."""
    rows = view.get("players") if isinstance(view.get("players"), list) else view.get("seats")
    return list((rows or [{}] * (seat + 1))[seat].get("hand") or [])
