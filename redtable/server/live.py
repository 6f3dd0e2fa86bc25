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
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

import orjson

from ..core import GAMES, IllegalAction, RedtableError, State, make_game
from ..core.rng import Rng
from .errors import ApiError, bad_token, storage_error, unknown_game
from .store import GameRow, GroupCommitter, SeatRow, Store, run_blocking
from .undo import undo_check

log = logging.getLogger("redtable.server")

MAX_SEED = (1 << 63) - 1
SEND_QUEUE_LIMIT = 2000  # messages waiting for one slow client before it is dropped (it resyncs)


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def token_for_invite(invite: str) -> str:
    """A seat's token follows from its invite, so joining again gives the same token back."""
    return hashlib.sha256(b"redtable-seat-token\0" + invite.encode()).hexdigest()[:43]


# ---------------------------------------------------------------------- connections
class Conn:
    """One WebSocket subscriber: a seat (int) or a spectator (None), with its outgoing queue."""

    __slots__ = ("seat", "queue", "send", "close", "closed")

    def __init__(self, seat: int | None, send: Callable, close: Callable) -> None:
        self.seat = seat
        self.queue: asyncio.Queue = asyncio.Queue()
        self.send = send
        self.close = close
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= SEND_QUEUE_LIMIT:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def end(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages in order until the connection ends."""
        q = self.queue
        send = self.send
        while True:
            text = await q.get()
            if text is None:
                break
            await send(text)
        if self.closed:
            await self.close()


# ---------------------------------------------------------------------- games
@dataclass(slots=True)
class Seat:
    index: int
    kind: str  # "human" | "bot"
    bot: str | None
    name: str | None
    invite_hash: str | None
    token_hash: str | None
    joined_at: float | None

    def public(self, connected: bool) -> dict:
        return {"seat": self.index, "type": self.kind, "bot": self.bot, "name": self.name,
                "joined": self.kind == "bot" or self.joined_at is not None,
                "connected": self.kind == "bot" or connected}


class LiveGame:
    """A game in memory: its state, its log and who listens."""

    def __init__(self, row: GameRow) -> None:
        self.id = row.id
        self.name = row.game
        self.players = row.players
        self.seed = row.seed
        self.options = row.options
        self.settings = row.settings
        self.undo_allowed = bool(row.settings.get("undo", False))
        self.bot_delay = float(row.settings.get("bot_delay", 0.0))
        self.created_at = row.created_at
        self.finished_at = row.finished_at
        self.seats = [Seat(s.seat, s.kind, s.bot, s.name, s.invite_hash, s.token_hash, s.joined_at)
                      for s in row.seats]
        self.by_token = {s.token_hash: s.index for s in self.seats if s.token_hash}
        self.by_invite = {s.invite_hash: s.index for s in self.seats if s.invite_hash}
        active = [a for a in row.actions if not a.undone]
        self.rows = row.actions[-1].seq if row.actions else 0
        self.version = len(row.actions) + sum(1 for a in row.actions if a.undone)
        self.actions = [a.action for a in active]
        self.step_seats = [a.seat for a in active]
        self.seqs = [a.seq for a in active]
        self.undoable = [a.undoable for a in active]
        self.state, self.marks = self.rebuild(self.actions)
        self.lock = asyncio.Lock()
        self.conns: list[Conn] = []
        self.bots: dict[int, Any] = {}
        self.bot_task: asyncio.Task | None = None
        self.last_active = time.monotonic()
        self.evicted = False

    # -------------------------------------------------------------- rebuilding
    def rebuild(self, actions: list[str]) -> tuple[State, list[int]]:
        """The state from the seed and ``actions``, and the event count after setup and each step."""
        game = make_game(self.name, self.players, **self.options)
        state = game.new_initial_state(self.seed)
        marks = [len(state.events)]
        for a in actions:
            state.apply(a)
            marks.append(len(state.events))
        return state, marks

    def state_at(self, step: int) -> State:
        return self.rebuild(self.actions[:step])[0]

    # -------------------------------------------------------------- facts
    @property
    def step(self) -> int:
        return len(self.actions)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    @property
    def status(self) -> str:
        return "finished" if self.finished else "active"

    def seat_of_token(self, token: str | None) -> int | None:
        if not token:
            return None
        seat = self.by_token.get(sha(token))
        if seat is None:
            raise bad_token()
        return seat

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def seats_public(self) -> list[dict]:
        on = self.connected_seats()
        return [s.public(s.index in on) for s in self.seats]

    def can_undo(self, seat: int | None) -> bool:
        return (self.undo_allowed and seat is not None and bool(self.actions) and not self.finished
                and self.step_seats[-1] == seat and self.undoable[-1])

    def result(self) -> dict | None:
        if not self.finished:
            return None
        return {"scores": self.state.scores(), "winners": self.state.winners()}

    def decision_for(self, seat: int | None, state: State | None = None) -> dict | None:
        d = (state or self.state).decision()
        if d is None:
            return None
        if seat is not None and seat == d.player:
            return d.to_json()
        return {"player": d.player, "kind": d.kind}

    def events_for(self, seat: int | None, start: int = 0, stop: int | None = None,
                   state: State | None = None) -> list[dict]:
        evs = (state or self.state).events
        return [e.to_json() for e in evs[start:stop] if e.to is None or (seat is not None and seat in e.to)]

    def info(self) -> dict:
        return {"game_id": self.id, "game": self.name, "title": type(self.state.game).title,
                "players": self.players, "options": self.options, "undo": self.undo_allowed,
                "bot_delay": self.bot_delay, "created_at": self.created_at}

    def snapshot(self, seat: int | None, events: bool = True) -> dict:
        """Everything ``seat`` (None: a spectator) may know of the game now."""
        out = {
            "type": "state", **self.info(), "version": self.version, "step": self.step, "status": self.status,
            "seat": seat, "seats": self.seats_public(), "view": self.state.view(seat),
            "decision": self.decision_for(seat), "can_undo": self.can_undo(seat), "result": self.result(),
        }
        if events:
            out["events"] = self.events_for(seat)
        return out

    def update(self, seat: int | None, by: int | None, req_id: Any = None) -> dict:
        """The change made by the last step, as ``seat`` may see it.

        The decider's own copy carries the decision (``action``) and the request ``id`` it
        was sent with: receiving it is the acknowledgement that the decision was committed.
        """
        out = {
            "type": "update", "game_id": self.id, "version": self.version, "step": self.step, "by": by,
            "status": self.status, "view": self.state.view(seat), "decision": self.decision_for(seat),
            "events": self.events_for(seat, self.marks[-2]), "can_undo": self.can_undo(seat),
            "result": self.result(),
        }
        if seat is not None and seat == by:
            out["action"] = self.actions[-1]
            if req_id is not None:
                out["id"] = req_id
        return out

    # -------------------------------------------------------------- live messages
    def broadcast(self, make: Callable[[int | None], dict]) -> None:
        """Send each connection its own message (built once per seat)."""
        cache: dict[int | None, str] = {}
        for c in self.conns:
            text = cache.get(c.seat)
            if text is None:
                text = cache[c.seat] = _dumps(make(c.seat))
            c.push(text)

    def announce_presence(self) -> None:
        msg = _dumps({"type": "presence", "game_id": self.id, "seats": self.seats_public(),
                      "spectators": sum(1 for c in self.conns if c.seat is None)})
        for c in self.conns:
            c.push(msg)


# ---------------------------------------------------------------------- the hub
class Hub:
    def __init__(self, store: Store, *, idle_seconds: float = 900.0, bot_threads: int = 1,
                 gc_freeze: bool = False) -> None:
        self.store = store
        self.gc_freeze = gc_freeze
        self.writer = GroupCommitter(store)
        self.games: dict[str, LiveGame] = {}
        self.loading: dict[str, asyncio.Future] = {}
        self.idle_seconds = idle_seconds
        self.bot_pool = ThreadPoolExecutor(max(1, bot_threads), thread_name_prefix="redtable-bot")
        self.tasks: list[asyncio.Task] = []
        self.decisions = 0
        self.started = False
        self.loop: asyncio.AbstractEventLoop | None = None

    # -------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        if self.started:
            return
        self.started = True
        self.loop = loop = asyncio.get_running_loop()
        await run_blocking(self.store.create_tables)
        self.writer.start(loop)
        self.tasks.append(asyncio.create_task(self._resume_bots()))
        self.tasks.append(asyncio.create_task(self._sweep()))
        if self.gc_freeze:
            self.tasks.append(asyncio.create_task(self._gc_policy()))

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        for g in list(self.games.values()):
            if g.bot_task is not None:
                g.bot_task.cancel()
            for c in list(g.conns):
                c.end()
        await self.writer.aclose()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.started = False

    async def _resume_bots(self) -> None:
        """After a restart, games whose bots were to move carry on by themselves."""
        try:
            ids = await run_blocking(self.store.active_bot_game_ids)
            for gid in ids:
                try:
                    g = await self.get(gid)
                except Exception:  # noqa: BLE001
                    log.exception("cannot resume game %s", gid)
                    continue
                self._kick_bots(g)
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
        """Drop from memory (not from storage) the games nobody used for a while."""
        while True:
            await asyncio.sleep(max(1.0, min(60.0, self.idle_seconds / 4)))
            self.evict_idle()

    def evict_idle(self, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        n = 0
        for gid, g in list(self.games.items()):
            busy = g.conns or g.lock.locked() or (g.bot_task is not None and not g.bot_task.done())
            if not busy and now - g.last_active >= self.idle_seconds:
                g.evicted = True
                del self.games[gid]
                n += 1
        return n

    # -------------------------------------------------------------- finding games
    async def get(self, game_id: str) -> LiveGame:
        g = self.games.get(game_id)
        if g is not None:
            g.last_active = time.monotonic()
            return g
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 32:
            raise unknown_game(str(game_id)[:40])
        fut = self.loading.get(game_id)
        if fut is None:
            fut = self.loading[game_id] = asyncio.get_running_loop().create_future()
            try:
                row = await run_blocking(self.store.load_game, game_id)
                g = None
                if row is not None:
                    g = LiveGame(row)
                    self.games[game_id] = g
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
        return g

    # -------------------------------------------------------------- creating and joining
    async def create(self, game: str, seats: list[dict], options: dict, seed: int | None,
                     undo: bool, bot_delay: float) -> dict:
        from ..bots import make_bot

        if game not in GAMES:
            raise ApiError(422, "unknown_title", f"unknown game {game!r}; known games: {', '.join(GAMES)}",
                           games=list(GAMES))
        try:
            g = make_game(game, len(seats), **options)
        except TypeError as e:
            raise ApiError(422, "invalid_options", f"bad options for {game}: {e}") from None
        except RedtableError as e:
            raise ApiError(422, "invalid_options", str(e)) from None
        for i, s in enumerate(seats):
            if s["type"] == "bot":
                try:
                    make_bot(s["bot"] or "random", 0)
                except RedtableError as e:
                    raise ApiError(422, "invalid_bot", f"seat {i}: {e}", seat=i) from None
        given_seed = seed is not None
        if seed is None:
            seed = secrets.randbits(63)
        gid = secrets.token_urlsafe(8)
        now = time.time()
        invites: list[str | None] = []
        seat_rows = []
        for i, s in enumerate(seats):
            invite = secrets.token_urlsafe(18) if s["type"] == "human" else None
            invites.append(invite)
            seat_rows.append({
                "game_id": gid, "seat": i, "kind": s["type"], "bot": (s["bot"] or "random") if s["type"] == "bot" else None,
                "name": s.get("name"), "invite_hash": sha(invite) if invite else None,
                "token_hash": sha(token_for_invite(invite)) if invite else None, "joined_at": None,
            })
        opts = dict(g.options())
        opts.pop("players", None)
        settings = {"undo": bool(undo), "bot_delay": float(bot_delay)}
        game_row = {"id": gid, "game": game, "players": len(seats), "seed": seed, "options": _dumps(opts),
                    "settings": _dumps(settings), "status": "active", "created_at": now, "finished_at": None,
                    "result": None}
        try:
            await self.writer.submit(("game", game_row, seat_rows))
        except Exception as e:  # noqa: BLE001
            raise ApiError(503, "storage_unavailable", f"the game was not created: {e}") from None
        row = GameRow(gid, game, len(seats), seed, opts, settings, "active", now, None, None,
                      [SeatRow(r["seat"], r["kind"], r["bot"], r["name"], r["invite_hash"], r["token_hash"], None)
                       for r in seat_rows], [])
        live = LiveGame(row)
        self.games[gid] = live
        self._kick_bots(live)
        out = {**live.info(), "version": live.version, "status": live.status,
               "ws_url": f"/api/games/{gid}/ws", "url": f"/api/games/{gid}",
               "seats": [{**live.seats[i].public(False),
                          "invite": inv, "invite_url": f"/join/{gid}/{inv}" if inv else None}
                         for i, inv in enumerate(invites)]}
        if given_seed:
            out["seed"] = seed
        return out

    async def join(self, game: LiveGame, invite: str, name: str | None) -> dict:
        seat = game.by_invite.get(sha(invite)) if isinstance(invite, str) else None
        if seat is None:
            raise ApiError(403, "bad_invite", "this invite is not for a seat of this game")
        s = game.seats[seat]
        token = token_for_invite(invite)
        if s.joined_at is None or (name and name != s.name):
            at = s.joined_at or time.time()
            new_name = name or s.name
            try:
                await self.writer.submit(("join", game.id, seat, new_name, at))
            except Exception as e:  # noqa: BLE001
                raise ApiError(503, "storage_unavailable", f"the seat was not joined: {e}") from None
            s.joined_at, s.name = at, new_name
            game.announce_presence()
        return {"game_id": game.id, "seat": seat, "token": token, "name": s.name,
                "ws_url": f"/api/games/{game.id}/ws?token={token}", "url": f"/api/games/{game.id}"}

    # -------------------------------------------------------------- decisions
    def _check_turn(self, game: LiveGame, seat: int, version: int) -> Any:
        """The pending decision if ``seat`` may decide it at ``version``; else the refusal."""
        d = game.state.decision()
        if d is None:
            raise ApiError(409, "game_over", "the game is over; nothing more can be decided",
                           version=game.version, result=game.result())
        if d.player != seat:
            raise ApiError(409, "not_your_turn",
                           f"seat {seat} cannot decide now: seat {d.player} is to decide ({d.kind})",
                           version=game.version, waiting_for=d.player, kind=d.kind)
        if version != game.version:
            raise ApiError(409, "stale_version",
                           f"you saw version {version} but the game is at version {game.version}; "
                           "read the game again and decide on what you see",
                           version=game.version, legal=list(d.options), decision=d.to_json())
        return d

    async def decide(self, game: LiveGame, seat: int, action: Any, version: Any,
                     origin: Conn | None = None, req_id: Any = None) -> dict:
        """Check, apply, commit, announce. Returns what ``seat`` sees after the decision."""
        if not isinstance(version, int) or isinstance(version, bool):
            d = game.state.decision()
            extra = {"legal": list(d.options), "decision": d.to_json()} if d is not None and d.player == seat else {}
            raise ApiError(422, "malformed", f"'version' must be an integer, got {version!r}",
                           version=game.version, **extra)
        async with game.lock:
            if game.evicted:  # pragma: no cover - only after hours idle with a request in flight
                game = await self.get(game.id)
                return await self.decide(game, seat, action, version, origin, req_id)
            d = self._check_turn(game, seat, version)
            if not isinstance(action, str) or action not in d.options:
                raise ApiError(422, "illegal_action" if isinstance(action, str) else "malformed",
                               f"{action!r} is not a legal choice for {d.kind}" if isinstance(action, str)
                               else f"'action' must be a string, got {action!r}",
                               version=game.version, legal=list(d.options), decision=d.to_json())
            undoable = False
            if game.undo_allowed:
                undoable = undo_check(game.state, action, salt=game.seed ^ game.step)[0]
            # The decision is applied to a copy, swapped in once committed: until then every
            # reader sees the last committed state with its version.
            state = game.state.clone()
            try:
                state.apply(action)
            except IllegalAction as e:  # pragma: no cover - checked above
                raise ApiError(422, "illegal_action", str(e), version=game.version, legal=list(e.legal)) from None
            seq = game.rows + 1
            finished = state.is_terminal()
            result = {"scores": state.scores(), "winners": state.winners()} if finished else None
            row = {"game_id": game.id, "seq": seq, "seat": seat, "action": action, "undoable": undoable,
                   "undone": False, "at": time.time()}
            try:
                await self.writer.submit(("action", row, result))
            except asyncio.CancelledError:  # the commit may still happen: reload from storage
                self._drop(game)
                raise
            except Exception as e:  # noqa: BLE001
                log.error("commit of %s #%d failed: %s", game.id, seq, e)
                self._drop(game)
                raise storage_error(str(e)) from None
            game.state = state
            game.rows = seq
            game.version += 1
            game.actions.append(action)
            game.step_seats.append(seat)
            game.seqs.append(seq)
            game.undoable.append(undoable)
            game.marks.append(len(state.events))
            game.last_active = time.monotonic()
            if finished:
                game.finished_at = time.time()
            self.decisions += 1
            game.broadcast(lambda s: game.update(s, seat, req_id))
        self._kick_bots(game)
        return game.update(seat, seat)

    async def undo(self, game: LiveGame, seat: int, version: Any, origin: Conn | None = None,
                   req_id: Any = None) -> dict:
        if not isinstance(version, int) or isinstance(version, bool):
            raise ApiError(422, "malformed", f"'version' must be an integer, got {version!r}", version=game.version)
        async with game.lock:
            if not game.undo_allowed:
                raise ApiError(409, "undo_disabled", "this game was created without undo", version=game.version)
            if version != game.version:
                raise ApiError(409, "stale_version",
                               f"you saw version {version} but the game is at version {game.version}",
                               version=game.version)
            if game.finished:
                raise ApiError(409, "game_over", "a finished game cannot be undone", version=game.version)
            if not game.actions:
                raise ApiError(409, "nothing_to_undo", "no decision has been made yet", version=game.version)
            if game.step_seats[-1] != seat:
                raise ApiError(409, "not_your_decision",
                               f"the last decision was seat {game.step_seats[-1]}'s: an undo never crosses "
                               "another player's decision", version=game.version)
            if not game.undoable[-1]:
                raise ApiError(409, "undo_forbidden",
                               "your last decision used chance or revealed hidden information; it stands",
                               version=game.version)
            seq = game.seqs[-1]
            actions = game.actions[:-1]
            state, marks = game.rebuild(actions)  # from the seed and the log minus the last decision
            try:
                await self.writer.submit(("undo", game.id, seq))
            except asyncio.CancelledError:
                self._drop(game)
                raise
            except Exception as e:  # noqa: BLE001
                self._drop(game)
                raise storage_error(str(e)) from None
            game.state, game.marks = state, marks
            game.actions = actions
            del game.step_seats[-1], game.seqs[-1], game.undoable[-1]
            game.version += 1
            game.last_active = time.monotonic()
            game.broadcast(lambda s: self._undo_message(game, s, seat, req_id))
        self._kick_bots(game)
        return game.snapshot(seat)

    @staticmethod
    def _undo_message(game: LiveGame, seat: int | None, by: int, req_id: Any) -> dict:
        out = {**game.snapshot(seat), "reason": "undo", "by": by}
        if seat == by and req_id is not None:
            out["id"] = req_id
        return out

    def _drop(self, game: LiveGame) -> None:
        """After a failed commit storage may or may not hold the decision: forget the game, reload it on next use."""
        game.evicted = True
        if self.games.get(game.id) is game:
            del self.games[game.id]
        for c in list(game.conns):
            c.push(_dumps({"type": "error", "error": "storage_unavailable",
                           "message": "the server lost its storage; reconnect to carry on"}))
            c.end()

    # -------------------------------------------------------------- bots
    def _kick_bots(self, game: LiveGame) -> None:
        if game.bot_task is not None and not game.bot_task.done():
            return
        d = game.state.decision()
        if d is not None and game.seats[d.player].kind == "bot" and not game.evicted:
            game.bot_task = asyncio.create_task(self._run_bots(game))

    def _bot(self, game: LiveGame, seat: int):
        from ..bots import make_bot

        bot = game.bots.get(seat)
        if bot is None:
            seed = Rng(game.seed).derive(seat + 1, game.step)
            bot = game.bots[seat] = make_bot(game.seats[seat].bot or "random", seed)
        return bot

    async def _run_bots(self, game: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        while not game.evicted:
            d = game.state.decision()
            if d is None or game.seats[d.player].kind != "bot":
                return
            if game.bot_delay:
                await asyncio.sleep(game.bot_delay)
            version, seat = game.version, d.player
            if game.state.decision() is not d:
                continue
            bot = self._bot(game, seat)
            try:
                if game.seats[seat].bot == "random":
                    action = bot.choose(game.state)
                else:
                    action = await loop.run_in_executor(self.bot_pool, bot.choose, game.state.clone())
            except Exception:  # noqa: BLE001
                log.exception("bot %s of game %s failed; it plays at random", game.seats[seat].bot, game.id)
                action = d.options[Rng(version).below(len(d.options))]
            if game.version != version:
                continue
            try:
                await self.decide(game, seat, action, version)
                failures = 0
            except ApiError as e:
                if e.code == "stale_version":
                    continue
                failures += 1
                log.warning("bot move refused in %s: %s", game.id, e.message)
                if failures > 3:
                    return
                await asyncio.sleep(0.5 * failures)

    # -------------------------------------------------------------- connections
    def attach(self, game: LiveGame, conn: Conn) -> None:
        game.conns.append(conn)
        game.last_active = time.monotonic()
        conn.push(_dumps(game.snapshot(conn.seat)))
        game.announce_presence()

    def detach(self, game: LiveGame, conn: Conn) -> None:
        conn.end()
        try:
            game.conns.remove(conn)
        except ValueError:
            return
        game.last_active = time.monotonic()
        game.announce_presence()

    async def handle(self, game: LiveGame, conn: Conn, raw: str | bytes | None) -> None:
        """One client message over the WebSocket; any refusal goes back as an error message."""
        req_id = None
        try:
            try:
                msg = orjson.loads(raw) if raw is not None else None
            except orjson.JSONDecodeError:
                raise ApiError(400, "malformed", "messages are JSON objects like "
                               '{"type": "decide", "action": "...", "version": 3}') from None
            if not isinstance(msg, dict):
                raise ApiError(400, "malformed", "messages are JSON objects with a 'type'")
            req_id = msg.get("id")
            kind = msg.get("type")
            if kind == "decide" or kind == "undo":
                if conn.seat is None:
                    raise ApiError(403, "spectator", "spectators watch; connect with a seat's token to play")
                if game.evicted:
                    raise ApiError(409, "reconnect", "the game was reloaded; reconnect")
                if kind == "decide":
                    await self.decide(game, conn.seat, msg.get("action"), msg.get("version"), conn, req_id)
                else:
                    await self.undo(game, conn.seat, msg.get("version"), conn, req_id)
            elif kind == "sync":
                conn.push(_dumps(game.snapshot(conn.seat)))
            elif kind == "ping":
                conn.push(_dumps({"type": "pong", "id": req_id, "version": game.version}))
            else:
                raise ApiError(400, "unknown_type", f"unknown message type {kind!r}; "
                               "send decide, undo, sync or ping")
        except ApiError as e:
            conn.push(_dumps({"type": "error", "id": req_id, **e.body()}))

    # -------------------------------------------------------------- reading
    def log_for(self, game: LiveGame, seat: int | None) -> dict:
        state = game.state
        steps = []
        for i in range(game.step):
            entry = {"step": i + 1, "seat": game.step_seats[i],
                     "events": game.events_for(seat, game.marks[i], game.marks[i + 1])}
            if seat is not None and game.step_seats[i] == seat:
                entry["action"] = game.actions[i]
            steps.append(entry)
        return {"game_id": game.id, "game": game.name, "seat": seat, "version": game.version, "steps": game.step,
                "status": game.status, "setup": game.events_for(seat, 0, game.marks[0]), "log": steps,
                "result": game.result(), "decision": game.decision_for(seat, state)}

    def replay_step(self, game: LiveGame, seat: int | None, step: int) -> dict:
        if not 0 <= step <= game.step:
            raise ApiError(404, "unknown_step", f"step must be 0-{game.step}, got {step}", steps=game.step)
        state = game.state if step == game.step else game.state_at(step)
        lo = game.marks[step - 1] if step > 0 else 0
        hi = game.marks[step]
        out = {"game_id": game.id, "step": step, "steps": game.step, "seat": seat,
               "by": game.step_seats[step - 1] if step > 0 else None,
               "view": state.view(seat), "decision": game.decision_for(seat, state),
               "events": game.events_for(seat, lo, hi, state)}
        if step > 0 and seat is not None and game.step_seats[step - 1] == seat:
            out["action"] = game.actions[step - 1]
        return out

    def record(self, game: LiveGame) -> dict:
        from ..core import GameRecord

        if not game.finished:
            raise ApiError(409, "game_not_finished",
                           "the full record (seed and every decision) is published when the game is over",
                           version=game.version)
        rec = GameRecord(game.name, game.players, game.seed, dict(game.options), list(game.actions))
        return rec.to_json(game.state)
