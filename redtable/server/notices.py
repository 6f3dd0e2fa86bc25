"""The one door of notifications to an account: every kind (your turn, invited, a rematch
offered, a table started, a real-time game waiting) is announced here, and this module decides
by the account's settings (``notifydb.Settings``) which channels (Web Push: ``push.py``;
e-mail: ``notifymail.py``) carry it.

Callers state the fact, never the channel, so a new kind or a new channel changes this module
only. The invariants kept here:

* **Once per event across a fleet**: before a channel sends, the event is claimed in storage
  (``notifydb.claim``: one winner among processes), so two processes that both saw it send one
  push and one e-mail, not two.
* **Turn e-mails at most once per game per hour** per account (the claim of ``(game)`` is
  taken over only an hour after the last), and none when the account chose the daily digest.
* **Never a card**: a notification names the game, its title, a seat's name, who invited or
  offered; the facts given here hold nothing else.
* A notification never takes a game down: every failure is logged and swallowed.

The clock (``Notifier.clock``) is injectable: tests move time without sleeping.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import notifydb as db
from .push import notify_account, payload
from .store import Store, run_blocking

log = logging.getLogger("redtable.server.notices")

#: Seconds between two "waiting" notifications of one game to one account.
WAITING_GAP = 600.0


@dataclass(frozen=True)
class Fact:
    """What happened, for one account: the kind, the game (its id and title), the seat's name,
    who did it (an invitation, an offer) and the event's key (one notification per key)."""

    kind: str
    game_id: str
    game: str
    name: str
    event: str
    by: str | None = None


class Notifier:
    """The app's notifications: its store, its mailer (None: no e-mail), the origin of links."""

    def __init__(
        self, store: Store, mailer: Any = None, public_url: str | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.mailer = mailer
        self.public_url = public_url
        self.clock = clock
        self.contact = os.environ.get("REDTABLE_VAPID_CONTACT", "mailto:redtable@localhost")
        self.tasks: set[asyncio.Task] = set()
        self.timers: set[asyncio.TimerHandle] = set()

    async def tell(self, account_id: int, fact: Fact) -> None:
        """Carry ``fact`` to the account by the channels its settings choose (each once across a fleet)."""
        try:
            settings = await run_blocking(db.read_settings, self.store, account_id)
            now = self.clock()
            gap = WAITING_GAP if fact.kind == "waiting" else 0.0
            if settings.wants("push", fact.kind) and await run_blocking(
                db.claim, self.store, account_id, f"push:{fact.kind}", fact.event, now, gap
            ):
                await notify_account(
                    self.store,
                    account_id,
                    fact.kind,
                    lambda lang: payload(fact.kind, lang, fact.game_id, fact.game, fact.name, fact.by),
                    self.contact,
                )
            if self.mailer is not None and settings.wants("email", fact.kind):
                from .notifymail import mail_fact, recipient

                to = await run_blocking(recipient, self.store, account_id)  # (a verified address only)
                subject, mail_gap = fact.event, gap
                if fact.kind == "your_turn":  # one per game per hour, whatever the version
                    subject, mail_gap = fact.game_id, db.TURN_MAIL_GAP
                if to is not None and await run_blocking(
                    db.claim, self.store, account_id, f"email:{fact.kind}", subject, now, mail_gap
                ):
                    await mail_fact(self, account_id, fact, to)
        except Exception:  # noqa: BLE001  (a notification never takes a game down)
            log.exception("a notification (%s) of %s failed", fact.kind, fact.game_id)

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background (a caller under a game's lock does not wait)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def after(self, seconds: float, make: Callable[[], Any]) -> None:
        """In ``seconds``, run the coroutine ``make()`` answers (None: nothing to do then)."""

        def due() -> None:
            self.timers.discard(handle)
            coro = make()
            if coro is not None:
                self.spawn(coro)

        handle = asyncio.get_running_loop().call_later(seconds, due)
        self.timers.add(handle)

    async def drain(self) -> None:
        """Wait for the notifications under way (the ones still to be looked at later are not)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def close(self) -> None:
        """At the server's stop: the later checks are dropped, the notifications under way finish."""
        for handle in self.timers:
            handle.cancel()
        self.timers.clear()
        await self.drain()


def _notifier(hub: Any) -> Notifier | None:
    return getattr(hub, "notifier", None)


async def _seat_account(hub: Any, game: Any, seat: int) -> int | None:
    from .push import seat_account

    return await run_blocking(seat_account, hub.store, game.id, seat)


def _name(game: Any, seat: int) -> str:
    return game.seats[seat].name or f"#{seat + 1}"


# ---------------------------------------------------------------------- the facts callers state
async def your_turn(hub: Any, game: Any, seat: int) -> None:
    """A turn-based game now waits on ``seat`` (told by the process that committed the change)."""
    n = _notifier(hub)
    account_id = await _seat_account(hub, game, seat) if n is not None else None
    if n is not None and account_id is not None:
        await n.tell(account_id, Fact("your_turn", game.id, game.name, _name(game, seat), f"{game.id}:{game.version}"))


async def waiting(hub: Any, game: Any, seat: int) -> None:
    """A real-time game waits on ``seat`` while no page or socket of that seat is open."""
    n = _notifier(hub)
    account_id = await _seat_account(hub, game, seat) if n is not None else None
    if n is not None and account_id is not None:
        await n.tell(account_id, Fact("waiting", game.id, game.name, _name(game, seat), game.id))


def when_away(hub: Any, game: Any, seat: int, still: Callable[[], bool]) -> None:
    """``seat`` left a real-time game that waits on it: if, a moment later (the time a page counts
    as open after its last read), the game still waits (``still``) and the seat is still away,
    it is told the game waits."""
    n = _notifier(hub)
    if n is None:
        return

    def check() -> Any:
        if still() and not game.present(seat, hub.present_seconds):
            return waiting(hub, game, seat)
        return None

    n.after(hub.present_seconds + 0.5, check)


async def table_started(hub: Any, game: Any, told: int | None = None) -> None:
    """The table has started (its last seat was taken): the people who joined it and are away
    (no page, no socket) hear it; not the one whose sitting started it (the seat taken last), nor
    ``told`` (a seat told otherwise: "your turn")."""
    n = _notifier(hub)
    people = [s for s in game.seats if s.kind == "human" and s.joined_at is not None]
    if n is None or not people:
        return
    last = max(people, key=lambda s: s.joined_at or 0.0).index
    for s in people:
        if s.index in (last, told) or game.present(s.index, hub.present_seconds):
            continue
        account_id = await _seat_account(hub, game, s.index)
        if account_id is not None:
            await n.tell(account_id, Fact("table_started", game.id, game.name, _name(game, s.index), game.id))


async def rematch_offered(hub: Any, game: Any, new_game_id: str, by_seat: int) -> None:
    """The seat ``by_seat`` of the finished ``game`` offered a rematch (table ``new_game_id``):
    every other person's account hears it."""
    n = _notifier(hub)
    if n is None:
        return
    by = _name(game, by_seat)
    for seat in range(game.players):
        if seat == by_seat or game.seats[seat].kind != "human":
            continue
        account_id = await _seat_account(hub, game, seat)
        if account_id is not None:
            fact = Fact("rematch_offered", game.id, game.name, _name(game, seat), new_game_id, by=by)
            await n.tell(account_id, fact)


async def invited(hub: Any, account_id: int, table_id: str, game: str, inviter: str) -> None:
    """``inviter`` invited the account to the table ``table_id`` (a game of ``game``). Sent in the
    background: the inviter's answer never waits for a push service or the mail server."""
    n = _notifier(hub)
    if n is not None:
        n.spawn(n.tell(account_id, Fact("invited", table_id, game, "", f"{table_id}:{inviter}"[:64], by=inviter)))


def soon(hub: Any, coro: Any) -> None:
    """Run one of the facts above in the background (a caller under a game's lock does not wait)."""
    n = _notifier(hub)
    if n is None:
        coro.close()
    else:
        n.spawn(coro)
