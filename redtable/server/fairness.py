"""Fair deals and tell-free block windows: what players can check and what they cannot read.

**Commit and reveal.** A game's seed fixes every shuffle and die roll. At creation the
server publishes ``seed_commitment = sha256("<seed>:<salt>")`` (hex; the salt is 16 random
bytes as hex) in the game's public info; the finished game's ``/record`` carries ``seed``
and ``salt``, so anybody can recompute the digest and replay the deal from the seed.

**Block windows.** When every opponent who could block gets a window whether or not they
hold a blocker, a seat with nothing to block with is answered for by the server, after a
wait drawn from how long people take to say "no" to a block (:class:`HumanDelays`), so
the wait tells nothing either; only while the seat is at the table, and on the seat's
clock as its own decision (``live.py``, ``tables.py``), so neither presence nor the clock
tells.
"""

from __future__ import annotations

import hashlib
import math
import random
import secrets
from collections import deque

# Decision kinds that are block windows (Red Rising): one opponent may reveal a blocker.
WINDOW_KINDS = frozenset({"block", "block_sovereign"})


def new_salt() -> str:
    return secrets.token_hex(16)


def seed_commitment(seed: int, salt: str) -> str:
    """The published digest of a game's seed: sha256 of the UTF-8 string ``"<seed>:<salt>"``."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


class HumanDelays:
    """How long people take to decline a block window; the server waits as long for a seat that cannot block.

    Starts from a prior (log-normal, median ``median`` seconds) and, once ``min_samples``
    people's answers have been seen, draws from the latest ``keep`` of them (each clipped
    to ``[low, high]``), so the automatic "no" has the same distribution as a person's.
    The generator is the operating system's: the draws must not be predictable.
    """

    def __init__(
        self,
        median: float = 2.5,
        sigma: float = 0.6,
        low: float | None = None,
        high: float | None = None,
        keep: int = 500,
        min_samples: int = 30,
    ) -> None:
        self.mu = math.log(median)
        self.sigma = sigma
        self.low = median / 4 if low is None else low
        self.high = median * 8 if high is None else high
        self.samples: deque[float] = deque(maxlen=keep)
        self.min_samples = min_samples
        self.rng = random.SystemRandom()

    def observe(self, seconds: float) -> None:
        """A person declined a block window after ``seconds``."""
        if seconds > 0 and math.isfinite(seconds):
            self.samples.append(min(self.high, max(self.low, seconds)))

    def draw(self) -> float:
        if len(self.samples) >= self.min_samples:
            return self.samples[self.rng.randrange(len(self.samples))]
        return min(self.high, max(self.low, self.rng.lognormvariate(self.mu, self.sigma)))
