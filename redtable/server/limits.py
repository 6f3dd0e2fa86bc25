"""What one client may cost the server: sizes, rates and counts, all in one tunable place.

A *client* is the address a request comes from (``request.client.host``; behind a trusted
reverse proxy, the last address it appends to ``X-Forwarded-For``, see
:attr:`Limits.trust_proxy`). Buckets are keyed on the address's network (:func:`network_key`):
an IPv4 address is its own (/32), an IPv6 address counts with its /64, the block one
subscriber is handed, so that the 2^64 addresses of one line are one client. Rates are token
buckets: a bucket holds up to ``burst`` tokens and refills at ``per_second``; each request
takes one, and a request that finds the bucket empty is refused with 429 and a
``Retry-After`` telling when a token will be there.
``docs/security.md`` explains each number.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache

from . import metrics
from .errors import ApiError


@dataclass(frozen=True, slots=True)
class Rate:
    burst: float
    per_second: float


@dataclass(frozen=True)
class Limits:
    body_bytes: int = 64 * 1024  # an HTTP request body (413 above)
    ws_message_bytes: int = 64 * 1024  # one WebSocket message (the socket is closed, 1009)
    send_queue_bytes: int = 4 * 1024 * 1024  # queued for a client that does not read: then dropped
    ws_auth_seconds: float = 10.0  # a new WebSocket must authenticate within this time
    spectators_per_game: int = 100
    sockets_per_client: int = 64  # open WebSockets from one address
    live_games_per_client: int = 20  # unfinished games created by one address
    presence_seconds: float = 0.5  # presence notices are merged over this window
    trust_proxy: bool = False  # take the client address from X-Forwarded-For
    hash_workers: int = 0  # password hashes computed at once (0: one per core; hashpool.py)
    hash_queue: int = 8  # password hashes waiting for a worker; past that a 503 with Retry-After
    hash_memory_mb: int = 256  # memory the running hashes may hold: workers x argon2's memory_cost fits in it
    rates: dict[str, Rate] = field(
        default_factory=lambda: {
            "create": Rate(10, 10 / 60),  # new games
            "join": Rate(20, 1.0),  # invites exchanged for tokens
            "decide": Rate(30, 10.0),  # decisions and undos (HTTP and WebSocket)
            "ws_connect": Rate(30, 2.0),  # WebSockets opened
            "ws_message": Rate(60, 20.0),  # WebSocket messages of any kind
            "read": Rate(240, 60.0),  # game state, log, replay and lobby reads
            "heavy": Rate(20, 2.0),  # scoring a position, a finished game's record
            "chat": Rate(6, 0.5),  # chat messages: per seat, or per address for spectators (chat.py)
            "mute": Rate(10, 0.5),  # a seat muting or unmuting in the chat
            "login": Rate(10, 10 / 60),  # log-in attempts from one address (accounts.py)
            "register": Rate(5, 5 / 600),  # accounts created from one address
            "report": Rate(5, 5 / 600),  # reports to the moderators, per address and per account (moderation.py)
            "friends": Rate(30, 30 / 600),  # follows, blocks and invitations, per account (friends_api.py)
        }
    )

    def relaxed(self, factor: float = 1000.0) -> Limits:
        """These limits with every rate and count multiplied (tests and benchmarks that are one client)."""
        return replace(
            self,
            rates={k: Rate(r.burst * factor, r.per_second * factor) for k, r in self.rates.items()},
            spectators_per_game=int(self.spectators_per_game * factor),
            sockets_per_client=int(self.sockets_per_client * factor),
            live_games_per_client=int(self.live_games_per_client * factor),
        )


@lru_cache(maxsize=4096)
def network_key(client: str) -> str:
    """The key a client's buckets are kept under: an IPv4 address as it is (/32), an IPv6 one as its
    /64 (an IPv4-mapped IPv6 address as the IPv4 one); anything that is no address unchanged."""
    try:
        ip = ipaddress.ip_address(client)
    except ValueError:
        return client
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def rate_limited(kind: str, wait: float, what: str | None = None) -> ApiError:
    """The 429 of bucket ``kind``: come back in ``wait`` seconds (rounded up, at least 1)."""
    secs = max(1, math.ceil(wait))
    metrics.rate_refused(kind)
    what = what or f"{kind.replace('_', ' ')} requests"
    return ApiError(
        429,
        "rate_limited",
        f"too many {what} from your address; try again in {secs} s",
        retry_after=secs,
        limit=kind,
        headers={"Retry-After": str(secs)},
    )


class RateLimiter:
    """Token buckets per (client, kind); memory stays bounded by forgetting full buckets."""

    def __init__(self, limits: Limits, max_entries: int = 200_000) -> None:
        self.limits = limits
        self.buckets: dict[tuple[str, str], list[float]] = {}
        self.max_entries = max_entries
        self.refused = 0

    def take(self, client: str, kind: str, now: float | None = None) -> None:
        """Take one token, or raise the 429 that says when to come back."""
        wait = self.try_take(client, kind, now)
        if wait > 0:
            raise rate_limited(kind, wait)

    def try_take(self, client: str, kind: str, now: float | None = None) -> float:
        """0 if a token was taken, else the seconds until one is there."""
        rate = self.limits.rates[kind]
        now = time.monotonic() if now is None else now
        key = (network_key(client), kind)
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= self.max_entries:
                self.prune(now)
            b = self.buckets[key] = [rate.burst, now]
        else:
            b[0] = min(rate.burst, b[0] + (now - b[1]) * rate.per_second)
            b[1] = now
        if b[0] >= 1.0:
            b[0] -= 1.0
            return 0.0
        self.refused += 1
        return (1.0 - b[0]) / rate.per_second if rate.per_second > 0 else 3600.0

    def prune(self, now: float | None = None) -> int:
        """Forget buckets that have refilled (they hold no information)."""
        now = time.monotonic() if now is None else now
        rates = self.limits.rates
        gone = [
            k
            for k, (tokens, last) in self.buckets.items()
            if tokens + (now - last) * rates[k[1]].per_second >= rates[k[1]].burst
        ]
        for k in gone:
            del self.buckets[k]
        if len(self.buckets) >= self.max_entries:  # still full: a flood of addresses; start over
            self.buckets.clear()
        return len(gone)
