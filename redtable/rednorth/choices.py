"""The option strings of Red North's sub-decisions (Outposts after Deployment, Reinforce's
card, the Gods' follow-up choices), precomputed: see :mod:`.actions` for the vocabulary.

Apart from :mod:`.actions` (which names the Gods in its turn options) so that the God and
Outpost effects (:mod:`.effects`) can use them while :mod:`.gods` is built from those effects.
"""

from __future__ import annotations

from .cards import IS_RAIDER, JARL, KIND_SLUG, NKINDS

MAX_SLOTS = 40  # far above any reachable Party size; larger indices are built on demand

LEFT, RIGHT = 0, 1
ENDS = ("left", "right")

SLOT = tuple(f"slot:{i}" for i in range(MAX_SLOTS))
SLOT_OF = {s: i for i, s in enumerate(SLOT)}
CARD_END = tuple((f"{KIND_SLUG[k]}:left", f"{KIND_SLUG[k]}:right") for k in range(NKINDS))
CARD_END_OF = {CARD_END[k][e]: (k, e) for k in range(NKINDS) for e in (LEFT, RIGHT)}
CARD_POS = tuple(tuple(f"{KIND_SLUG[k]}:{i}" for i in range(MAX_SLOTS + 1)) for k in range(NKINDS))
CARD_POS_OF = {CARD_POS[k][i]: (k, i) for k in range(NKINDS) for i in range(MAX_SLOTS + 1)}
HEL_KINDS = tuple(k for k in range(NKINDS) if IS_RAIDER[k] or k == JARL)
RAIDER_KINDS = tuple(k for k in range(NKINDS) if IS_RAIDER[k])
SKIP = "skip"
KEEP = "keep"
GIVE = tuple(f"give:{i}" for i in range(8))
GIVE_OF = {s: i for i, s in enumerate(GIVE)}
