"""The phases of a Red North turn flow: the name of a phase is the kind of the decision it
asks for (``deploy``, ``turn``, ``loki``...), so this table is also the decision vocabulary.

Its own module so that the engine's parts (turn flow, resolution, the God and Outpost
effects in :mod:`.effects`) share it without importing each other.
"""

from __future__ import annotations

DEPLOY, ANGLELAND, SAX, TURN, REINFORCE_CARD, LOKI_SLOT, FREYA_END, SAGA_SLOT, HEL_PLACE, OVER = range(10)
PHASE_NAMES = ("deploy", "angleland", "sax", "turn", "reinforce", "loki", "freya", "saga", "hel", "over")
