"""Table clocks: what a table's clock option means and how each seat's time runs out.

Two kinds (``docs/server.md``, "Clocks"):

* **real-time**: every seat has a bank (``bank_s``, for example 180 s) that runs while the
  game waits for that seat, and gets ``increment_s`` back after each of its own decisions
  (a Fischer clock: 3 min + 20 s per decision);
* **turn-based**: each decision gets ``per_decision_h`` hours of its own; nothing carries over.

Time runs for the seat the game *waits on*: the seat of the pending decision when a person
holds it, a block window the server answers for it included (the seat holds nothing to
block with; were its time to stop, the clock would tell the table so: the server's "no" is
charged and credited as the seat's own). It never runs for a bot, before the table is
full, or after the end. Everything here is pure
arithmetic on wall-clock seconds (``now`` is passed in), so a test drives it with any clock,
and a process that loads the game after a restart computes the same deadline from the
stored bank and start time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import ApiError, clip

#: Bounds of the options: a table can neither be unplayably fast nor park a seat for ever.
REALTIME_BANK_S = (30, 3600)
REALTIME_INCREMENT_S = (0, 120)
TURN_HOURS = (1, 168)
#: What an option left out means.
DEFAULT_BANK_S = 180
DEFAULT_INCREMENT_S = 20
DEFAULT_HOURS = 24
#: The speeds a lobby shows and quick play is grouped by (a table without a clock: "none").
SPEEDS = ("realtime", "turn", "none")


def invalid_clock(message: str, **details: Any) -> ApiError:
    allowed = (
        f'{{"kind": "realtime", "bank_s": {REALTIME_BANK_S[0]}-{REALTIME_BANK_S[1]}, '
        f'"increment_s": {REALTIME_INCREMENT_S[0]}-{REALTIME_INCREMENT_S[1]}}}, '
        f'{{"kind": "turn", "per_decision_h": {TURN_HOURS[0]}-{TURN_HOURS[1]}}} or {{"kind": "none"}} (or null)'
    )
    return ApiError(422, "invalid_clock", f"{message}; a clock is {allowed}", **details)


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A table's clock option, validated (nominal seconds and hours, before any test scaling)."""

    kind: str  # "realtime" | "turn"
    bank_s: int = 0
    increment_s: int = 0
    per_decision_h: int = 0

    def to_json(self) -> dict[str, Any]:
        if self.kind == "realtime":
            return {"kind": "realtime", "bank_s": self.bank_s, "increment_s": self.increment_s}
        return {"kind": "turn", "per_decision_h": self.per_decision_h}

    @classmethod
    def from_json(cls, raw: Any) -> ClockSpec | None:
        """A spec stored with a game (trusted: it was checked by :func:`parse_clock` when created)."""
        if not isinstance(raw, dict) or raw.get("kind") not in ("realtime", "turn"):
            return None
        return cls(
            raw["kind"],
            int(raw.get("bank_s", 0)),
            int(raw.get("increment_s", 0)),
            int(raw.get("per_decision_h", 0)),
        )


def _bounded_int(raw: dict[str, Any], key: str, default: int, bounds: tuple[int, int]) -> int:
    value = raw.get(key, default)
    if type(value) is not int:
        raise invalid_clock(f"clock.{key} must be a whole number, got {clip(value, 40)}", option=key)
    lo, hi = bounds
    if not lo <= value <= hi:
        raise invalid_clock(f"clock.{key} must be {lo}-{hi}, got {value}", option=key)
    return value


def parse_clock(raw: Any) -> ClockSpec | None:
    """A client's clock option, checked: None (no clock) or a :class:`ClockSpec`; ApiError otherwise."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise invalid_clock(f"clock must be an object or null, got {clip(raw, 40)}")
    kind = raw.get("kind")
    known = {"realtime": {"kind", "bank_s", "increment_s"}, "turn": {"kind", "per_decision_h"}, "none": {"kind"}}
    if kind not in known:
        raise invalid_clock(f"clock.kind must be realtime, turn or none, got {clip(kind, 40)}", option="kind")
    extra = sorted(set(raw) - known[kind])
    if extra:
        raise invalid_clock(f"a {kind} clock takes no {clip(extra[0], 40)}", option=str(extra[0])[:40])
    if kind == "none":
        return None
    if kind == "realtime":
        bank = _bounded_int(raw, "bank_s", DEFAULT_BANK_S, REALTIME_BANK_S)
        inc = _bounded_int(raw, "increment_s", DEFAULT_INCREMENT_S, REALTIME_INCREMENT_S)
        return ClockSpec("realtime", bank_s=bank, increment_s=inc)
    return ClockSpec("turn", per_decision_h=_bounded_int(raw, "per_decision_h", DEFAULT_HOURS, TURN_HOURS))


def speed_of(spec: ClockSpec | None) -> str:
    """What the lobby calls the table's pace: realtime, turn or none."""
    return spec.kind if spec is not None else "none"


@dataclass(slots=True)
class Clock:
    """The running clock of one game: each seat's bank, and whose time runs since when.

    ``scale`` multiplies every duration of the spec (1 in service; tests shorten a
    3-minute bank to a fraction of a second). ``version`` is the game version the values
    were computed at: a deadline acts only while the game is still at that version.
    """

    spec: ClockSpec
    players: int
    scale: float = 1.0
    banks: list[float] = field(default_factory=list)
    running: int | None = None
    since: float | None = None
    version: int = 0

    def __post_init__(self) -> None:
        if not self.banks:
            self.banks = [self.bank_seconds] * self.players

    @property
    def bank_seconds(self) -> float:
        return self.spec.bank_s * self.scale if self.spec.kind == "realtime" else 0.0

    @property
    def increment_seconds(self) -> float:
        return self.spec.increment_s * self.scale if self.spec.kind == "realtime" else 0.0

    @property
    def per_decision_seconds(self) -> float:
        return self.spec.per_decision_h * 3600.0 * self.scale

    def deadline(self) -> float | None:
        """When the running seat's time is up (wall-clock seconds), or None if no time runs."""
        if self.running is None or self.since is None:
            return None
        if self.spec.kind == "realtime":
            return self.since + max(0.0, self.banks[self.running])
        return self.since + self.per_decision_seconds

    def remaining(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (turn-based: of the running decision; a waiting
        seat shows a full decision's time)."""
        if self.spec.kind == "turn":
            if seat == self.running and self.since is not None:
                return max(0.0, self.since + self.per_decision_seconds - now)
            return self.per_decision_seconds
        bank = self.banks[seat]
        if seat == self.running and self.since is not None:
            bank -= now - self.since
        return max(0.0, bank)

    def advance(self, now: float, version: int, decided_by: int | None, next_seat: int | None) -> None:
        """A change was made at ``now`` (the game is at ``version`` after it): the running seat is
        charged the time it took, gets its increment back if it was the one that decided
        (``decided_by``; None for an undo or a change the server made), and the clock runs for
        ``next_seat`` (None: nobody is waited on)."""
        if self.running is not None and self.since is not None and self.spec.kind == "realtime":
            spent = max(0.0, now - self.since)
            self.banks[self.running] = max(0.0, self.banks[self.running] - spent)
            if decided_by == self.running:
                self.banks[self.running] += self.increment_seconds
        self.running = next_seat
        self.since = now if next_seat is not None else None
        self.version = version

    def expire(self, seat: int) -> None:
        """``seat`` ran out of time: its bank is empty and its time stops."""
        if 0 <= seat < len(self.banks):
            self.banks[seat] = 0.0
        if self.running == seat:
            self.running = None
            self.since = None

    def public(self, now: float) -> dict[str, Any]:
        """What every seat and spectator sees: the option, each seat's time left, whose time
        runs and when it runs out, and the server's clock (a page ticks from its offset)."""
        return {
            **self.spec.to_json(),
            "remaining": [round(self.remaining(s, now), 3) for s in range(self.players)],
            "running": self.running,
            "deadline": self.deadline(),
            "now": now,
        }

    def stored(self) -> dict[str, Any]:
        """The values kept in storage (``tabledb``): any process resumes the clock from them."""
        return {
            "banks": [round(b, 4) for b in self.banks],
            "running": self.running,
            "since": self.since,
            "deadline": self.deadline(),
            "version": self.version,
        }
