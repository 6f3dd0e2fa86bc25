"""Tables: open seats, the start when full, clocks and their timeouts, abandoned tables.

The hub (``live.py``) calls a :class:`TableService` at a few points (a game created, a
decision checked and committed, a change heard from another process); everything a table
adds to a game lives here, in memory as the game's :class:`TableState` and in storage in
``tabledb.py``.

* **Open tables** (``"open": true`` at creation) list their free seats in the lobby; anyone
  takes one with ``POST /api/games/{id}/sit``. A table *starts when its last seat is taken*
  (``gated``): until then its ``status`` is ``waiting``, nobody (no person, no bot, no server
  answer) can decide and no time runs. So are open tables, quick play's, tables with a clock
  and every game created with a seat for a person since invites wait for friends (its
  settings say ``"gated": true``; an invite game stored before that plays as it always did).
  The table page is a waiting room meanwhile: the creator re-issues an invite
  (``Hub.reissue_invite``), puts a bot in a seat nobody took or in all of them
  (:meth:`TableService.fill_bots`), and the game starts when the last one is filled.
* **Clocks** (``clocks.py``) run for the seat the game waits on. When a seat's time is up,
  exactly one process acts on it: the one whose conditional ``UPDATE`` claimed the deadline
  (``tabledb.claim``), working under the game's lock on the version the deadline was set
  at. Unrated: a bot (:data:`TIMEOUT_BOT`) takes the seat, whose kind becomes a bot. Rated:
  the seat forfeits; with two players the game ends there and the other wins; with more, a
  bot plays the seat on (a "zombie": the seat stays the account's, so the ratings rank it
  last, and the others' places stand by the final result). A rated seat whose time runs
  out before every person made a first move *aborts* the game instead: it closes
  (``abandoned``, reason ``aborted``) and nobody is rated (``fairplay.py``). A rated game
  always has a clock (``ratings.check_ratable``), so leaving one is a loss on time.
* **Ready**: a rated open table whose last seat is taken asks every person to confirm
  (``readycheck.py``); whoever does not within its limit loses the seat, and the table
  waits again. It starts when everyone confirmed.
* **Unrated rated tables**: when a person sits at a rated table, the seated accounts are
  compared (``fairplay.py``: same network or device); a game marked so says ``unrated``
  (the reason) in every snapshot, before it starts, and is never rated.
* **Abandoned tables** close (status ``abandoned``, leaving the lobby, the reason in every
  snapshot) when no person acted for ``idle`` seconds (real-time and clockless tables 10
  minutes, turn-based 3 days) while the table waited on a person or for its seats to
  fill. A table whose clock runs is never closed for that (its clock decides), and a table
  of bots only never is (the server plays every move, so it ends by itself).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

from . import clientdb, fairplay, readycheck, tabledb
from .clocks import Clock, ClockSpec, parse_clock, speed_of
from .errors import ApiError
from .store import run_blocking
from .validate import check_name

if TYPE_CHECKING:
    from .live import Hub, LiveGame

log = logging.getLogger("redtable.server.tables")

#: The preset that takes a seat whose time ran out (unrated) or plays a forfeited seat on (rated).
TIMEOUT_BOT = "heuristic"
#: Seconds without a person acting after which a table closes, by its speed.
IDLE_SECONDS = {"realtime": 600.0, "none": 600.0, "turn": 3 * 24 * 3600.0}
#: Seconds a process may work on a claimed deadline before another takes it over.
CLAIM_SECONDS = 30.0
#: The share of a seat's time left that the server may spend before declining its empty block window.
WINDOW_SHARE = 0.8
#: A replica's clock may differ from the stored deadline by this much (processes' clocks).
GRACE_SECONDS = 0.05


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


# ---------------------------------------------------------------------- one game's table, in memory
class TableState:
    """What a table adds to one live game: open seats, the start gate, the clock, forfeits, closure."""

    __slots__ = (
        "open",
        "gated",
        "rated",
        "speed",
        "clock",
        "forfeits",
        "closed",
        "ended",
        "unrated",
        "moved",
        "confirm",
    )

    def __init__(self, settings: dict[str, Any], players: int) -> None:
        spec = ClockSpec.from_json(settings.get("clock"))
        self.open = bool(settings.get("open", False))
        self.rated = bool(settings.get("rated", False))
        # tables that start when full: open ones, quick play's, any with a clock (a clock needs everyone
        # there), and every game made since invites wait for friends ("gated" in its settings)
        self.gated = self.open or spec is not None or any(bool(settings.get(k)) for k in ("quickplay", "gated"))
        self.gated = self.gated or bool(settings.get("rematch_of"))  # a rematch starts when all accept (rematch.py)
        self.speed = speed_of(spec)
        scale = float(settings.get("clock_scale", 1.0))
        self.clock = Clock(spec, players, scale) if spec is not None else None
        self.forfeits: list[int] = []
        self.closed: dict[str, Any] | None = None  # why an abandoned table was closed
        self.ended: dict[str, Any] | None = None  # the result of a game that ended by a forfeit
        self.unrated: str | None = None  # why a rated table is not rated after all (fairplay.py)
        self.moved: set[int] = set()  # seats whose first move this process stored (fairplay.first_move)
        self.confirm: dict[str, Any] | None = None  # a rated open table's "ready" round (readycheck.py)

    @classmethod
    def load(cls, game: LiveGame, status: str, result: dict[str, Any] | None, extra: dict[str, Any]) -> TableState:
        """The table of a game loaded from storage (its row in ``extra["table"]``, if any)."""
        tbl = cls(game.settings, game.players)
        tbl.unrated = extra.get("unrated")
        tbl.confirm = extra.get("ready_check")
        row = extra.get("table")
        if status == "abandoned":
            tbl.closed = (result or {}).get("closed") or {"reason": "inactive"}
        elif status == "finished" and not game.state.is_terminal():
            tbl.ended = result or {}
        if row is not None:
            tbl.forfeits = [int(s) for s in row.get("forfeits") or []]
            clk = tbl.clock
            if clk is not None and row.get("banks") and len(row["banks"]) == game.players:
                clk.banks = [float(b) for b in row["banks"]]
                if row.get("version") == game.version:
                    clk.running, clk.since, clk.version = (
                        row.get("running_seat"),
                        row.get("running_since"),
                        game.version,
                    )
        tbl.zombify(game)
        if tbl.clock is not None and tbl.clock.version != game.version and not tbl.over:
            # stored before the last change (a process stopped in between): time runs afresh now
            tbl.clock.advance(time.time(), game.version, None, tbl.waiting_on(game))
        return tbl

    def zombify(self, game: LiveGame) -> None:
        """A forfeited seat of a rated game is played by a bot (the seat stays its account's)."""
        for s in self.forfeits:
            if 0 <= s < len(game.seats):
                game.seats[s].kind, game.seats[s].bot = "bot", TIMEOUT_BOT
        game.humans = sum(1 for s in game.seats if s.kind == "human")

    @property
    def over(self) -> bool:
        return self.closed is not None or self.ended is not None

    def ready(self, game: LiveGame) -> bool:
        """Whether the game may be played: a table that starts when full has every seat taken
        (and, at a rated open table, every person confirmed: readycheck.py)."""
        if not self.gated:
            return True
        return self.full(game) and (not self.needs_confirm or (self.confirm is not None and self.confirm["done"]))

    def full(self, game: LiveGame) -> bool:
        return all(s.kind == "bot" or s.joined_at is not None for s in game.seats)

    @property
    def needs_confirm(self) -> bool:
        return self.rated and self.open

    def seated(self, game: LiveGame) -> int:
        return sum(1 for s in game.seats if s.kind == "bot" or s.joined_at is not None)

    def waiting_on(self, game: LiveGame) -> int | None:
        """The seat whose person the game waits for now (its time runs), or None.

        A block window the server answers for the seat (it holds no blocker) counts as the
        person's: were its time to stop there, the clock would tell the table who holds one."""
        if self.over or not self.ready(game):
            return None
        d = game.state.decision()
        if d is None or game.seats[d.player].kind != "human":
            return None
        return d.player

    def status(self, game: LiveGame) -> str:
        """``waiting`` (for its seats to be taken, or its people to confirm), ``active``,
        ``finished`` or ``abandoned``. Storage says ``active`` for a waiting table too (it is
        unfinished: the lobby, my games and the sweeps read it so)."""
        if self.closed is not None:
            return "abandoned"
        if self.ended is not None or game.state.is_terminal():
            return "finished"
        return "active" if self.ready(game) else "waiting"

    @staticmethod
    def host(game: LiveGame) -> dict[str, Any] | None:
        """Who invited the others (the join page says it): the seat the creator took (the first
        person's seat, the lobby's "you") and a name: the creator's account, else that seat's name."""
        h = game.settings.get("host")
        if not isinstance(h, dict):
            return None
        seat = h.get("seat")
        name = h.get("name")
        if isinstance(seat, int) and 0 <= seat < len(game.seats) and not h.get("account"):
            name = game.seats[seat].name or name
        return {"seat": seat, "name": name}

    def final_result(self, state: Any) -> dict[str, Any]:
        """A finished game's result; a rated game's forfeited seats are ranked after everyone
        (``forfeited``, read by ``ratings.places_of``) and win nothing."""
        if self.ended is not None:
            return self.ended
        out: dict[str, Any] = {"scores": state.scores(), "winners": state.winners()}
        if self.forfeits:
            out["forfeited"] = sorted(self.forfeits)
            winners = [w for w in out["winners"] if w not in self.forfeits]
            if not winners:  # the best of the others (the engine's winner forfeited)
                scores = out["scores"]
                rest = [s for s in range(len(scores)) if s not in self.forfeits]
                best = max((scores[s] for s in rest), default=None)
                winners = [s for s in rest if scores[s] == best]
            out["winners"] = winners
        return out

    def public(self, game: LiveGame) -> dict[str, Any]:
        """What every reader of the game sees of its table (in snapshots and updates)."""
        return {
            "ready": self.ready(game),
            "seated": self.seated(game),
            "clock": self.clock.public(time.time()) if self.clock is not None else None,
            "forfeited": sorted(self.forfeits),
            "closed": self.closed,
            "unrated": self.unrated if self.rated else None,
            "confirm": self.confirm_public(),
        }

    def confirm_public(self) -> dict[str, Any] | None:
        c = self.confirm
        if c is None or c["done"] or c["until"] is None or self.over:
            return None
        return {"until": c["until"], "ready": c["ready"], "now": time.time()}

    def info(self) -> dict[str, Any]:
        """The table's options (the public game info): open seats, speed, the clock option."""
        return {
            "open": self.open,
            "speed": self.speed,
            "clock": self.clock.spec.to_json() if self.clock is not None else None,
        }


# ---------------------------------------------------------------------- the service
class TableService:
    """The hub's tables: creation options, the start gate, clocks and their timers, abandonment,
    sitting at open tables, the creator's bots, quick play (``quickplay.py``) and "my games"."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.clock_scale = 1.0
        self.idle_seconds = dict(IDLE_SECONDS)
        self.sweep_seconds = 1.0
        self.ready_seconds = readycheck.READY_SECONDS
        self.claim_seconds = CLAIM_SECONDS
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.task: asyncio.Task | None = None
        self.counts = {"timeouts": 0, "forfeits": 0, "closed": 0, "stale_claims": 0}
        from .quickplay import QuickPlay

        self.quick = QuickPlay(self)

    def configure(
        self,
        *,
        clock_scale: float | None = None,
        idle_seconds: dict[str, float] | None = None,
        sweep_seconds: float | None = None,
        quick_bots_after: float | None = None,
    ) -> None:
        """Tests shorten time: every clock option is multiplied by ``clock_scale`` (stored with
        each game created, so a restarted process runs it the same), the idle limits, the
        sweep interval and quick play's wait before it offers bots are replaced."""
        if quick_bots_after is not None:
            if not 0 <= quick_bots_after <= 3600:
                raise ValueError(f"quick_bots_after must be 0-3600 seconds, got {quick_bots_after}")
            self.quick.bots_after = float(quick_bots_after)
        if clock_scale is not None:
            if not 0 < clock_scale <= 1:
                raise ValueError(f"clock_scale must be above 0 and at most 1, got {clock_scale}")
            self.clock_scale = clock_scale
        if idle_seconds:
            self.idle_seconds.update(idle_seconds)
        if sweep_seconds is not None:
            self.sweep_seconds = sweep_seconds

    def op(self, fn: Callable[[Any, Any], Any]) -> tuple:
        """A write of ``tabledb`` for the group committer (it runs in the batch's transaction)."""
        return ("table", fn, self.hub.store)

    # -------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        if tabledb.load_table not in self.hub.store.load_hooks:
            self.hub.store.load_hooks.append(tabledb.load_table)
        if fairplay.load_unrated not in self.hub.store.load_hooks:
            self.hub.store.load_hooks.append(fairplay.load_unrated)
        if readycheck.load_check not in self.hub.store.load_hooks:
            self.hub.store.load_hooks.append(readycheck.load_check)
        await run_blocking(fairplay.ensure, self.hub.store)
        await run_blocking(readycheck.ensure, self.hub.store)
        await run_blocking(tabledb.ensure_tables, self.hub.store, self.idle_seconds["none"], time.time())
        await run_blocking(clientdb.ensure, self.hub.store)
        self.task = asyncio.create_task(self._sweep())
        if self.hub.fleet is None:  # (a fleet's leases bring them back)
            self._spawn(self._resume_zombies())

    async def _resume_zombies(self) -> None:
        """After a restart, rated games whose forfeited seats a bot plays on carry on (their seats
        are still people's in storage, so the hub's own resume does not see them)."""
        for gid in await run_blocking(tabledb.zombie_games, self.hub.store):
            self.hub.after_change(await self.hub.get(gid))

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
        for h in self.timers.values():
            h.cancel()
        self.timers.clear()

    # -------------------------------------------------------------- creation (Hub.create)
    def settings_for(self, table: dict[str, Any] | None, seats: list[dict[str, Any]]) -> dict[str, Any]:
        """The table's options checked, as entries of the game's settings (``open``, ``clock``)."""
        if not table:
            return {}
        out: dict[str, Any] = {}
        spec = parse_clock(table.get("clock"))
        if spec is not None:
            out["clock"] = spec.to_json()
            if self.clock_scale != 1.0:
                out["clock_scale"] = self.clock_scale
        if table.get("open"):
            if not any(s["type"] == "human" for s in seats):
                raise ApiError(
                    422, "invalid_table", "an open table needs a seat for a person (its bots need nobody to join)"
                )
            out["open"] = True
        if table.get("quickplay"):
            out["quickplay"] = True
        if table.get("rematch_of"):  # (rematch.py: made by the server, never by a client's body)
            out["rematch_of"] = str(table["rematch_of"])
        return out

    def created(self, game: LiveGame, client: str = "") -> asyncio.Future:
        """The new game's table row, submitted now (it joins the game's own write in one batch),
        and the row that counts it against its creator's live games (``clientdb.py``)."""
        now = time.time()
        tbl = game.table
        row = tabledb.new_row(game.id, tbl.open, tbl.speed, tbl.rated, now + self.idle_limit(tbl), now)
        if client:
            self._bg(self.op(clientdb.made(game.id, [clientdb.client_key(client)], now)), f"the creator of {game.id}")
        fut = self.hub.writer.submit(self.op(tabledb.insert_table(row)))
        fut.add_done_callback(lambda f: None if f.cancelled() else f.exception())  # (read: never "unretrieved")
        return fut

    async def live_games(self, client: str) -> int:
        """The client's unfinished games and waiting quick-play tickets, in storage (any process's)."""
        return await run_blocking(clientdb.live_games, self.hub.store, clientdb.client_key(client))

    async def stored(self, fut: asyncio.Future) -> None:
        """Wait for a write :meth:`created` submitted; a failure is a 503 with a request id (details logged)."""
        try:
            await fut
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001
            from .errors import storage_error

            rid = secrets.token_hex(6)
            log.error("storing a table failed (request %s): %s", rid, e)
            raise storage_error(rid) from None

    def idle_limit(self, tbl: TableState) -> float:
        return self.idle_seconds.get(tbl.speed, self.idle_seconds["none"])

    # -------------------------------------------------------------- hooks of the hub
    def check_turn(self, game: LiveGame, seat: int, by_server: bool) -> None:
        """Refuse a decision the table does not allow now (before the hub's own checks)."""
        tbl = game.table
        if tbl.closed is not None:
            raise ApiError(
                409,
                "table_closed",
                f"this table was closed ({tbl.closed.get('reason', 'inactive')}): nobody can decide any more",
                reason=tbl.closed.get("reason"),
                version=game.version,
            )
        if tbl.ended is not None:
            raise ApiError(
                409,
                "game_over",
                "the game is over; nothing more can be decided",
                version=game.version,
                result=tbl.ended,
            )
        if not tbl.ready(game):
            raise ApiError(
                409,
                "table_not_full",
                f"the game starts when every seat is taken ({tbl.seated(game)} of {game.players} so far)",
                seated=tbl.seated(game),
                players=game.players,
                version=game.version,
            )
        if not by_server and game.seats[seat].kind == "bot":
            raise ApiError(
                409,
                "seat_played_by_bot",
                f"seat {seat} is played by a bot now (its time ran out)",
                seat=seat,
                version=game.version,
            )

    def window_wait(self, game: LiveGame, seat: int, wait: float) -> float:
        """How long the server waits before it declines ``seat``'s empty block window: ``wait``
        (a person's time to say no), but never so long that the seat's time runs out on a
        window it could not answer itself (at most :data:`WINDOW_SHARE` of what it has left)."""
        clk = game.table.clock
        if clk is None or clk.running != seat:
            return wait
        return max(0.0, min(wait, WINDOW_SHARE * clk.remaining(seat, time.time())))

    def server_may_move(self, game: LiveGame) -> bool:
        """Bots and the server's window answers wait for a full table and stop when it is over."""
        return game.table.ready(game) and not game.table.over

    def changed(self, game: LiveGame, decided_by: int | None, by_person: bool, remote: bool = False) -> None:
        """After a decision or undo (committed here, or ``remote``: heard from another process):
        charge the time it took, run the clock for the seat waited on next, store it (the
        process that made the change does) and set this process's timer."""
        tbl = game.table
        clk = tbl.clock
        if tbl.rated and by_person and not remote and decided_by is not None and decided_by not in tbl.moved:
            tbl.moved.add(decided_by)  # (an abort before every person moved is unrated: fairplay.py)
            self._bg(self.op(fairplay.first_move(game.id, decided_by, time.time())), f"a first move in {game.id}")
        if clk is None or tbl.over:
            return
        now = time.time()
        waiting = tbl.waiting_on(game)
        clk.advance(now, game.version, decided_by if by_person else None, waiting)
        if not remote:
            self.persist(game, idle_at=now + self.idle_limit(tbl) if by_person else None)
            self.turn_push(game, waiting, decided_by)
        self.arm(game)

    def turn_push(self, game: LiveGame, seat: int | None, decided_by: int | None) -> None:
        """The game now waits on another seat: a turn-based game tells its account ("your turn"), a
        real-time one only when that seat's player is away (no page or socket of theirs open):
        ``notices.py`` decides the channels. Told by the process that committed the change (and
        ``notices`` claims each event in storage: once in a fleet)."""
        clk = game.table.clock
        if seat is None or seat == decided_by or clk is None or game.seats[seat].kind != "human":
            return
        from . import notices

        if clk.spec.kind == "turn":
            notices.soon(self.hub, notices.your_turn(self.hub, game, seat))
        elif not game.present(seat, self.hub.present_seconds):
            notices.soon(self.hub, notices.waiting(self.hub, game, seat))

    def left(self, game: LiveGame, seat: int) -> None:
        """The seat's last socket here closed. A real-time game that waits on it tells its account
        if it stays away (no page or socket of its own, here or on another process) a while."""
        clk = game.table.clock
        if clk is None or clk.spec.kind != "realtime" or game.table.over or game.table.waiting_on(game) != seat:
            return
        version = game.version

        def still() -> bool:
            return not game.evicted and game.version == version and not game.table.over

        from . import notices

        notices.when_away(self.hub, game, seat, still)

    def persist(self, game: LiveGame, idle_at: float | None = None) -> None:
        """Store the game's clock (in the background: a later write never loses to an older one)."""
        clk = game.table.clock
        if clk is None:
            if idle_at is not None:
                self._bg(self.op(tabledb.set_idle_at(game.id, idle_at)), f"the idle time of {game.id}")
            return
        self._bg(self.op(tabledb.write_clock(game.id, clk.stored(), idle_at)), f"the clock of {game.id}")

    def _bg(self, op: tuple, what: str) -> None:
        fut = self.hub.writer.submit(op)

        def done(f: asyncio.Future) -> None:
            if not f.cancelled() and f.exception() is not None:
                log.warning("storing %s failed: %s", what, f.exception())

        fut.add_done_callback(done)

    def arm(self, game: LiveGame) -> None:
        """This process's timer at the running deadline (the sweep is the safety net: any
        process, after a restart, from storage)."""
        old = self.timers.pop(game.id, None)
        if old is not None:
            old.cancel()
        clk = game.table.clock
        deadline = clk.deadline() if clk is not None and not game.table.over and not game.finished else None
        if clk is None or deadline is None:
            return
        loop = asyncio.get_running_loop()
        version = clk.version
        self.timers[game.id] = loop.call_later(
            max(0.0, deadline - time.time()) + 0.005, lambda: self._spawn(self.on_clock_due(game.id, version))
        )

    def heard(self, game: LiveGame) -> None:
        """Another process changed the table (a timeout, a closure, seats filled): read it again."""
        self._spawn(self.refresh(game))

    def publish(self, game: LiveGame) -> None:
        fleet = self.hub.fleet
        if fleet is not None:
            fleet.bus.publish(f"{game.id}:t:{fleet.tag}")

    def _spawn(self, coro: Any) -> asyncio.Task:
        return self.hub.spawn(coro, "a table's work")

    @staticmethod
    def notice(game: LiveGame, code: str, message: str, **fields: Any) -> None:
        """Tell every connection here (in the page's language from ``code``), then send fresh snapshots."""
        text = _dumps({"type": "notice", "code": code, "game_id": game.id, "message": message, **fields})
        for c in game.conns:
            c.want_state()
            c.push(text)

    # -------------------------------------------------------------- reading another process's change
    async def refresh(self, game: LiveGame) -> None:
        got = await run_blocking(tabledb.read_table, self.hub.store, game.id)
        if got is None:
            return
        unrated = None
        if game.table.rated and game.table.unrated is None:  # (a seat taken through another process)
            unrated = await run_blocking(fairplay.unrated_reason, self.hub.store, game.id)
        notices: list[tuple[str, str, dict[str, Any]]] = []
        async with game.lock:
            if game.evicted:
                return
            tbl = game.table
            for seat, kind, bot, name, joined_at, invite_hash in got["seats"]:
                s = game.seats[seat]
                if s.kind == "human" and kind == "bot" and s.joined_at is not None:
                    notices.append(("timeout_bot", f"seat {seat}'s time ran out: a bot plays it now", {"seat": seat}))
                s.kind, s.bot = kind, bot if kind == "bot" else None
                s.name, s.joined_at, s.invite_hash = name, joined_at, invite_hash
            game.by_invite = {s.invite_hash: s.index for s in game.seats if s.invite_hash}
            for seat in got["forfeits"]:
                if seat not in tbl.forfeits:
                    notices.append(("timeout_forfeit", f"seat {seat}'s time ran out: it forfeits", {"seat": seat}))
            tbl.forfeits = list(got["forfeits"])
            tbl.zombify(game)
            if tbl.needs_confirm:  # (read under the lock: an older refresh never undoes a newer one's start)
                tbl.confirm = await run_blocking(readycheck.read, self.hub.store, game.id)
                if self.hub.fleet is not None:  # (seats freed there: their tokens revoked)
                    await self.hub.reload_seats_locked(game)
            if unrated is not None and tbl.unrated is None:
                tbl.unrated = unrated
                notices.append(("unrated", f"this game will not be rated: {unrated}", {"reason": unrated}))
            clk = tbl.clock
            if clk is not None and got["banks"] and got["version"] >= clk.version:
                clk.banks = [float(b) for b in got["banks"]]
                clk.running, clk.since, clk.version = got["running_seat"], got["running_since"], got["version"]
            if got["status"] == "abandoned" and tbl.closed is None:
                tbl.closed = (got["result"] or {}).get("closed") or {"reason": "inactive"}
                notices.append(("table_closed", "this table was closed", {"reason": tbl.closed.get("reason")}))
            elif got["status"] == "finished" and tbl.ended is None and not game.state.is_terminal():
                tbl.ended = got["result"] or {}
            if got["status"] != "active" and game.finished_at is None:
                game.finished_at = got["finished_at"]
            for code, message, fields in notices:
                self.notice(game, code, message, **fields)
            for c in game.conns:
                c.want_state()
        self.arm(game)
        self.hub.after_change(game)

    # -------------------------------------------------------------- the start, when the last seat is taken
    async def _start_locked(self, game: LiveGame) -> None:
        """The table just filled up (under the game's lock): the clock starts, bots may move."""
        tbl = game.table
        now = time.time()
        if tbl.clock is not None:
            tbl.clock.advance(now, game.version, None, tbl.waiting_on(game))
            self.turn_push(game, tbl.waiting_on(game), None)
        self.persist(game, idle_at=now + self.idle_limit(tbl))
        from . import notices

        turn = tbl.waiting_on(game) if tbl.clock is not None and tbl.clock.spec.kind == "turn" else None
        notices.soon(self.hub, notices.table_started(self.hub, game, told=turn))  # (that seat hears "your turn")
        fleet = self.hub.fleet
        if fleet is not None and self.hub.server_turn(game):  # bots move first: this process plays them
            t0 = time.monotonic()
            leased = await self.hub.write(
                self.op(tabledb.lease_for(game.id, fleet.me, fleet.lease_seconds)), "taking a lease"
            )
            fleet.note_lease(game.id, bool(leased), t0)
        for c in game.conns:
            c.want_state()
        self.publish(game)
        self.arm(game)

    async def seat_taken(self, game: LiveGame) -> None:
        """A person took a seat (under the game's lock): a rated table compares its accounts
        (``fairplay.py``: said before it starts), and the table starts if it was the last."""
        tbl = game.table
        if tbl.rated and tbl.unrated is None:
            why = await self.hub.write(self.op(fairplay.check_seated(game.id, time.time())), "comparing the seats")
            if why is not None:
                tbl.unrated = why
                self.notice(game, "unrated", f"this game will not be rated: {why}", reason=why)
                self.publish(game)
        if tbl.gated and tbl.needs_confirm and tbl.full(game) and not tbl.ready(game):
            await self._ask_ready_locked(game)
        if tbl.gated and tbl.ready(game):
            await self._start_locked(game)

    # -------------------------------------------------------------- "ready" at a rated open table (readycheck.py)
    async def _ask_ready_locked(self, game: LiveGame) -> None:
        until = time.time() + self.ready_seconds
        got = await self.hub.write(self.op(readycheck.begin(game.id, until)), "asking the table to confirm")
        if got is None:  # (everyone confirmed once already)
            got = await run_blocking(readycheck.read, self.hub.store, game.id)
        game.table.confirm = got
        self.notice(game, "ready_check", "the table is full: confirm you are ready", until=until)
        self.publish(game)

    async def confirm_ready(self, game: LiveGame, token: str | None) -> dict[str, Any]:
        """``POST /api/games/{id}/ready``: this seat's person is ready; the last one starts the table."""
        seat = await self.hub.seat_of(game, token)
        if seat is None:
            raise ApiError(401, "missing_token", "send your seat token: 'Authorization: Bearer <token>'")
        tbl = game.table
        async with game.lock:
            c = tbl.confirm
            if c is None or c["done"] or c["until"] is None or not tbl.needs_confirm:
                raise ApiError(409, "no_ready_check", "this table is not waiting for its players to confirm")
            people = [s.index for s in game.seats if s.kind == "human"]
            state, started = await self.hub.write(
                self.op(readycheck.confirm(game.id, seat, people)), "confirming a seat"
            )
            if state is not None:
                tbl.confirm = state
            if started:
                await self._start_locked(game)
            else:
                for conn in game.conns:
                    conn.want_state()
                self.publish(game)
        self.hub.after_change(game)
        return {"game_id": game.id, "seat": seat, "ready": (tbl.confirm or {}).get("ready", []), "started": started}

    async def on_ready_due(self, gid: str, round_: int) -> None:
        """A confirmation's limit passed: free the seats of those who did not confirm (once)."""
        game = await self.hub.get(gid)
        async with game.lock:
            freed = await self.hub.write(self.op(readycheck.expire(gid, round_, time.time())), "freeing seats")
            if not freed:
                return
            for i in freed:
                s = game.seats[i]
                s.joined_at, s.name = None, None
            game.by_token = {h: x for h, x in game.by_token.items() if x not in freed}
            game.table.confirm = None
            for conn in list(game.conns):
                if conn.seat in freed:
                    conn.end(
                        _dumps({"type": "error", "error": "not_ready", "message": "you did not confirm in time"}),
                        4010,
                        "not ready",
                    )
                else:
                    conn.want_state()
            self.notice(game, "ready_timeout", "not everyone confirmed: the table waits again", seats=freed)
            if self.hub.fleet is not None:
                self.hub.fleet.after_meta(gid)
            game.announce_presence()
            self.publish(game)
        self.hub.after_change(game)

    async def seat_person(
        self,
        game: LiveGame,
        seat: int,
        token_hash: str,
        name: str | None,
        account: tuple[int, bool] | None,
    ) -> bool:
        """Give a free seat to a person (its device token's hash; bound to an account): False if
        someone took it first. The table starts if this was its last free seat."""
        from . import store as store_module

        bound: tuple[type[Exception], ...] = tuple(x for x in [getattr(store_module, "SeatBound", None)] if x)
        at = time.time()
        async with game.lock:
            s = game.seats[seat]
            if s.kind != "human" or s.joined_at is not None:
                return False
            try:
                ok = await self.hub.writer.submit(self.op(tabledb.sit(game.id, seat, token_hash, name, at, account)))
            except bound as e:  # (accounts.py: this account holds another seat of the table)
                raise ApiError(
                    409,
                    "already_seated",
                    "your account already holds a seat at this table",
                    seat=getattr(e, "seat", None),
                ) from None
            except Exception as e:  # noqa: BLE001
                from .errors import storage_error

                rid = secrets.token_hex(6)
                log.error("taking seat %d of %s failed (request %s): %s", seat, game.id, rid, e)
                raise storage_error(rid) from None
            if not ok:
                return False
            s.joined_at, s.name, s.invite_hash = at, name, None
            game.by_token[token_hash] = seat
            game.by_invite = {x.invite_hash: x.index for x in game.seats if x.invite_hash}
            if self.hub.fleet is not None:
                self.hub.fleet.after_meta(game.id)
            game.announce_presence()
            await self.seat_taken(game)  # (the last seat: the table starts)
        self.hub.after_change(game)
        return True

    async def sit(
        self, game: LiveGame, name: Any, account: Any, held_token: str | None, client: str = ""
    ) -> dict[str, Any]:
        """``POST /api/games/{id}/sit``: a free seat of an open table for this person, in one click.

        One seat a person: an account holds one seat of a table (``accounts.py``), and a guest
        one per address (``client``; ``clientdb.py``, in storage, so across a fleet), so nobody
        fills a stranger's table alone. A rated table's seat shows its account's name."""
        from .tokens import new_secret, sha

        tbl = game.table
        if not tbl.open:
            raise ApiError(409, "not_open", "this table has no open seats: its players join with their invites")
        if game.finished:
            raise ApiError(409, "game_over", "this table's game is over", version=game.version)
        if tbl.rated and account is None:
            raise ApiError(401, "login_required", "a rated table's seats are taken by logged-in accounts: log in first")
        if account is not None:  # not at a table of someone blocked, either way (friends.py)
            from .friends import check_may_sit

            await run_blocking(check_may_sit, self.hub.store, game.id, account.id)
        if held_token:
            try:
                seat = await self.hub.seat_of(game, held_token)
            except ApiError:
                seat = None
            if seat is not None:
                raise ApiError(409, "already_seated", f"you already hold seat {seat} of this table", seat=seat)
        name = check_name(name)
        if account is not None and (name is None or tbl.rated):
            name = account.username
        if self.hub.fleet is not None:
            await self.hub.reload_seats(game)  # seats taken through another process a moment ago
        guest = clientdb.client_key(client) if client and account is None else None
        if guest is not None:
            await self._claim_guest_seat(game, guest)
        token = new_secret()
        got: int | None = None
        try:
            for s in list(game.seats):
                if s.kind != "human" or s.joined_at is not None:
                    continue
                bind = (account.id, True) if account is not None else None
                if await self.seat_person(game, s.index, sha(token), name, bind):
                    got = s.index
                    break
        finally:
            if guest is not None:
                await self.hub.write(self.op(clientdb.set_guest_seat(game.id, guest, got)), "taking a seat")
        if got is None:
            raise ApiError(409, "table_full", f"every seat of this table is taken ({game.players} of {game.players})")
        return {
            "game_id": game.id,
            "seat": got,
            "token": token,
            "name": name,
            "ready": tbl.ready(game),
            "url": f"/api/games/{game.id}",
            "ws_url": f"/api/games/{game.id}/ws",
        }

    async def _claim_guest_seat(self, game: LiveGame, key: str) -> None:
        """This address's one guest seat at the table, or 409 ``already_seated`` naming the one it holds."""
        from sqlalchemy.exc import IntegrityError

        try:
            await self.hub.writer.submit(self.op(clientdb.claim_guest_seat(game.id, key, time.time())))
        except IntegrityError:
            seat = await run_blocking(clientdb.guest_seat, self.hub.store, game.id, key)
            raise ApiError(
                409,
                "already_seated",
                f"your address already holds seat {seat} of this table as a guest; a guest takes one seat "
                "a table (log in to take a seat as an account)",
                seat=seat,
            ) from None
        except Exception as e:  # noqa: BLE001
            from .errors import storage_error

            rid = secrets.token_hex(6)
            log.error("claiming a guest seat of %s failed (request %s): %s", game.id, rid, e)
            raise storage_error(rid) from None

    async def fill_bots(self, game: LiveGame, creator_key: str | None, bot: Any, seats: list[int] | None) -> dict:
        """``POST /api/games/{id}/fill-bots``: the creator puts bot presets in seats nobody took."""
        from .botpool import check_preset
        from .tokens import sha

        if not creator_key or not game.creator_hash or not secrets.compare_digest(sha(creator_key), game.creator_hash):
            raise ApiError(
                403, "not_creator", "only the table's creator (with the creator_key the creation answered) may add bots"
            )
        try:
            preset = check_preset(bot)
        except ValueError as e:
            raise ApiError(422, "invalid_bot", str(e)) from None
        if game.finished:
            raise ApiError(409, "game_over", "this table's game is over", version=game.version)
        if self.hub.fleet is not None:
            await self.hub.reload_seats(game)
        free = [s.index for s in game.seats if s.kind == "human" and s.joined_at is None]
        if seats is None:
            wanted = free
        else:
            for i in seats:
                if not 0 <= i < game.players:
                    raise ApiError(404, "unknown_seat", f"seat must be 0-{game.players - 1}, got {i}")
                if game.seats[i].kind == "bot":
                    raise ApiError(409, "bot_seat", f"seat {i} is a bot's already", seat=i)
                if i not in free:
                    raise ApiError(409, "seat_taken", f"seat {i} was taken by a person", seat=i)
            wanted = sorted(set(seats))
        if not wanted:
            raise ApiError(409, "no_free_seats", "no seat is free: every seat has a person or a bot")
        async with game.lock:
            done = await self.hub.write(
                self.op(tabledb.fill_seats(game.id, dict.fromkeys(wanted, preset))), "adding bots"
            )
            for i in done:
                s = game.seats[i]
                s.kind, s.bot, s.invite_hash = "bot", preset, None
            game.humans = sum(1 for s in game.seats if s.kind == "human")
            game.by_invite = {x.invite_hash: x.index for x in game.seats if x.invite_hash}
            if done:
                self.publish(game)
                if self.hub.fleet is not None:
                    self.hub.fleet.after_meta(game.id)
                game.announce_presence()
                for c in game.conns:
                    c.want_state()
                await self.seat_taken(game)  # (full: a rated open table asks its people first, others start)
        self.hub.after_change(game)
        return {"game_id": game.id, "seats": done, "bot": preset, "ready": game.table.ready(game)}

    # -------------------------------------------------------------- timeouts
    async def _claim(self, gid: str, version: int, what: str) -> bool:
        now = time.time()
        op = self.op(tabledb.claim(gid, version, now, now + self.claim_seconds, what))
        return bool(await self.hub.write(op, "claiming a deadline"))

    async def on_clock_due(self, gid: str, version: int) -> None:
        """A clock ran out (this process's timer or the sweep): act once, across processes."""
        if not await self._claim(gid, version, "clock"):
            return
        game = await self.hub.get(gid)
        async with game.lock:
            if self.hub.fleet is not None:
                await self.hub.catch_up_locked(game)
            clk = game.table.clock
            if game.evicted or game.finished or clk is None:
                return
            now = time.time()
            seat = clk.running
            if game.version != version or seat is None or clk.remaining(seat, now) > GRACE_SECONDS:
                self.counts["stale_claims"] += 1  # the stored clock was behind this replica: store it right
                self.persist(game)
                self.arm(game)
                return
            await self._time_out_locked(game, seat, now)
        self.arm(game)
        self.hub.after_change(game)

    async def _time_out_locked(self, game: LiveGame, seat: int, now: float) -> None:
        tbl = game.table
        if tbl.rated and await run_blocking(fairplay.not_moved, self.hub.store, game.id):
            await self._abort_locked(game, seat, now)
            return
        if tbl.rated:
            forfeits = sorted({*tbl.forfeits, seat})
            rest = [s for s in range(game.players) if s not in forfeits]
            if len(rest) <= 1:  # nobody left to play against: the game ends, the other wins
                result = {
                    "scores": game.state.scores(),
                    "winners": rest,
                    "forfeited": forfeits,
                    "reason": "timeout",
                }
                done = await self.hub.write(self.op(tabledb.end_game(game.id, "finished", result, now)), "a forfeit")
                if done:
                    self.counts["timeouts"] += 1
                    self.counts["forfeits"] += 1
                    tbl.forfeits, tbl.ended = forfeits, result
                    game.finished_at = now
                    if tbl.clock is not None:
                        tbl.clock.expire(seat)
                    self.notice(game, "timeout_forfeit", f"seat {seat}'s time ran out: it forfeits", seat=seat)
                    self.publish(game)
                    self.hub.rate_finished(game)
                return
        fleet = self.hub.fleet
        lease = (fleet.me, fleet.lease_seconds) if fleet is not None else None
        t0 = time.monotonic()
        done, leased = await self.hub.write(
            self.op(tabledb.seat_to_bot(game.id, seat, TIMEOUT_BOT, tbl.rated, lease)), "a timeout"
        )
        if not done:
            return
        self.counts["timeouts"] += 1
        if fleet is not None:
            fleet.note_lease(game.id, leased, t0)
        if tbl.rated:
            self.counts["forfeits"] += 1
            tbl.forfeits = sorted({*tbl.forfeits, seat})
            tbl.zombify(game)
        else:
            game.seats[seat].kind, game.seats[seat].bot = "bot", TIMEOUT_BOT
            game.humans = sum(1 for s in game.seats if s.kind == "human")
        if tbl.clock is not None:
            tbl.clock.expire(seat)
        code, what = ("timeout_forfeit", "it forfeits") if tbl.rated else ("timeout_bot", "a bot plays it now")
        self.notice(game, code, f"seat {seat}'s time ran out: {what}", seat=seat)
        self.publish(game)

    async def _abort_locked(self, game: LiveGame, seat: int, now: float) -> None:
        """A rated seat's time ran out before every person moved: the game closes, rated for nobody."""
        tbl = game.table
        closed = {"reason": "aborted", "seat": seat, "at": now}
        done = await self.hub.write(
            self.op(tabledb.end_game(game.id, "abandoned", {"closed": closed}, now)), "an abort"
        )
        if not done:
            return
        self.counts["timeouts"] += 1
        self.counts["aborted"] = self.counts.get("aborted", 0) + 1
        tbl.closed = closed
        game.finished_at = now
        if tbl.clock is not None:
            tbl.clock.expire(seat)
        self.notice(game, "game_aborted", f"seat {seat}'s time ran out before everyone moved: not rated", seat=seat)
        self.publish(game)

    # -------------------------------------------------------------- abandoned tables
    async def on_idle_due(self, gid: str) -> None:
        """A table's idle time is up: close it if it waits on a person who did not act, once."""
        if not await self._claim(gid, 0, "idle"):
            return
        game = await self.hub.get(gid)
        later: float | None = None
        async with game.lock:
            if self.hub.fleet is not None:
                await self.hub.catch_up_locked(game)
            if game.evicted or game.finished:
                return
            tbl = game.table
            now = time.time()
            limit = self.idle_limit(tbl)
            people = [s.index for s in game.seats if s.kind == "human"]
            ready = tbl.ready(game)
            clk = tbl.clock
            if not people:  # bots only: the server plays every move, the game ends by itself
                later = now + limit
            elif ready and clk is not None and clk.running is not None:  # its clock decides
                later = (clk.deadline() or now) + limit
            elif ready and tbl.waiting_on(game) is None:  # a bot is to move
                later = now + limit
            else:
                last = await run_blocking(tabledb.last_person_act, self.hub.store, gid, people)
                if last + limit > now:
                    later = last + limit
                else:
                    closed = {"reason": "inactive" if ready else "unfilled", "idle_s": limit, "at": now}
                    done = await self.hub.write(
                        self.op(tabledb.end_game(gid, "abandoned", {"closed": closed}, now)), "closing a table"
                    )
                    if done:
                        self.counts["closed"] += 1
                        tbl.closed = closed
                        game.finished_at = now
                        old = self.timers.pop(gid, None)
                        if old is not None:
                            old.cancel()
                        self.notice(game, "table_closed", "this table was closed", reason=closed["reason"])
                        self.publish(game)
        if later is not None:
            await self.hub.write(self.op(tabledb.set_idle_at(gid, later)), "the idle time of a table")

    # -------------------------------------------------------------- the sweep (every process)
    async def _sweep(self) -> None:
        """Deadlines and idle times that are due, from storage: after a restart, for games no
        process holds in memory, and under every process's own timers."""
        last_queue = 0.0
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                now = time.time()
                clocks, idle = await run_blocking(tabledb.due, self.hub.store, now)
                for gid, version in clocks:
                    await self._guard(self.on_clock_due(gid, version), gid)
                for gid in idle:
                    await self._guard(self.on_idle_due(gid), gid)
                for gid, round_ in await run_blocking(readycheck.due, self.hub.store, now):
                    await self._guard(self.on_ready_due(gid, round_), gid)
                if now - last_queue > 30:
                    last_queue = now
                    await self.quick.expire(now)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001
                log.exception("the tables' sweep failed; it runs again")

    @staticmethod
    async def _guard(coro: Any, gid: str) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except ApiError as e:
            log.warning("table %s: %s", gid, e.message)
        except Exception:  # noqa: BLE001
            log.exception("the deadline of table %s failed; its claim expires and it is tried again", gid)

    # -------------------------------------------------------------- the lobby and "my games"
    async def open_tables(self) -> list[dict[str, Any]]:
        return await run_blocking(tabledb.open_tables, self.hub.store)

    def summary(self, game: LiveGame, seat: int | None) -> dict[str, Any]:
        """One game as "my games" lists it: whose turn, my time left, whether it is over."""
        d = game.decision_for(seat)
        mine = (
            d is not None and seat is not None and d["player"] == seat and not d.get("auto") and game.status == "active"
        )
        tbl = game.table
        return {
            **game.info(),
            "seat": seat,
            "status": game.status,
            "ready": tbl.ready(game),
            "seated": tbl.seated(game),
            "turn": d["player"] if d is not None else None,
            "my_turn": mine,
            "step": game.step,
            "seats": game.seats_public(),
            "clock": tbl.clock.public(time.time()) if tbl.clock is not None else None,
            "closed": tbl.closed,
            "result": game.result(),
        }

    async def _held(self, held: list[tuple[str, str]]) -> list[tuple[str, int | None, str | None]]:
        """The held (game, token) pairs as (game, seat, None) when the token is its seat's, else
        (game, None, why): checked by hash in storage before any game is loaded."""
        from .tokens import sha
        from .validate import valid_game_id

        hashed = [(gid, sha(tok)) for gid, tok in held if valid_game_id(gid)]
        seats, games = await run_blocking(tabledb.held_seats, self.hub.store, hashed)
        out: list[tuple[str, int | None, str | None]] = []
        for gid, tok in held:
            seat = seats.get((gid, sha(tok))) if valid_game_id(gid) else None
            why = None if seat is not None else "bad_token" if gid in games else "unknown_game"
            out.append((gid, seat, why))
        return out

    async def my_games(self, account: Any, held: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """The account's active games and those of the seat tokens a browser holds (``held``)."""
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        pairs: list[tuple[str, int | None, str | None]] = []
        if account is not None:
            for gid, seat in await run_blocking(tabledb.account_games, self.hub.store, account.id):
                pairs.append((gid, seat, None))
        pairs += await self._held(held)
        for gid, seat, why in pairs:
            if gid in seen:
                continue
            if why is not None:
                out.append({"game_id": gid, "gone": True, "error": why})
                continue
            try:
                game = await self.hub.get(gid)
            except ApiError as e:
                if e.status >= 500:
                    raise
                out.append({"game_id": gid, "gone": True, "error": e.code})
                continue
            seen.add(gid)
            if game.tutorial:  # a lesson is private: neither listed nor counted
                continue
            out.append(self.summary(game, seat))
        return out
