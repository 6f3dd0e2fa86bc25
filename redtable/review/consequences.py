"""What an option would have done: the facts a seat can know that come out differently after
the preferred option than after the one taken (the review's ``why``).

Both options are played forward from the same re-deals of the deciding seat's information
set (``resample(seat)``, as the search does: nothing the seat could not know enters), with
the same random numbers for both (common random numbers: the difference is the options',
not the deals'), by the playout policy the review's round VP uses (:func:`play_forward`).
They are played up to a **horizon**: in a game played in rounds that end in a scoring (Red
North's Resolution) the end of the round, else the end of the turn (the next decision of
the kind that starts a turn, the evaluator's ``stop_kind``: what the option itself does,
its follow-up choices and any block included).

At the horizon the seat's **public facts** are read from its own view (``state.view(seat)``,
the engine's structured data, never a sentence): each title's ``review_facts`` part names its
reader (this module's ``red_rising_facts``, ``red_north_facts``).
A fact is a number per re-deal (a count, or 1/0 for holding a token); the means over the
re-deals after each option are compared, and a fact is **notable** when the preferred
option's mean is better by at least the fact's unit (:data:`UNITS`: a quarter of the deals
for a token, half a count otherwise, so that a rounded difference is at least one). The
notable facts, best first, are the ``why`` of a decision: ``[{"fact", "taken", "preferred",
"now"}]`` (the means after each option, and the value at the decision, which says whether a
token is kept or taken). The front ends word them (``review.why.*`` in the page's catalogs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..bots.common import CanonicalRng
from ..core import Action, State

MastRows = dict[str, dict[str, list[float]]]


def red_rising_facts(view: dict[str, Any], seat: int) -> dict[str, float]:
    from ..redrising.scoring import (
        EXCESS_CARD_VP,
        FLEET_VP,
        HAND_LIMIT,
        HELIUM_VP,
        SOVEREIGN_VP,
        influence_points,
    )

    players = view["players"]
    me = players[seat]
    infl = influence_points([p["influence"] for p in players], int(view.get("neutral_influence") or 0))[seat]
    points = (
        FLEET_VP[me["fleet"]]
        + HELIUM_VP * me["helium"]
        + (SOVEREIGN_VP if me["sovereign"] else 0)
        + infl
        + EXCESS_CARD_VP * max(0, me["hand_size"] - HAND_LIMIT)
    )
    return {
        "sovereign": 1.0 if me["sovereign"] else 0.0,
        "influence": float(me["influence"]),
        "helium": float(me["helium"]),
        "fleet": float(me["fleet"]),
        "points": float(points),  # the public rows of the running score: fleet, helium, sovereignty, influence, excess
        "cards": float(me["hand_size"]),
    }


def red_north_facts(view: dict[str, Any], seat: int) -> dict[str, float]:
    me = view["seats"][seat]
    return {
        "vp": float(me["vp"]),
        "outposts": float(sum(o["controller"] == seat for o in view["outposts"])),
        "champion": 1.0 if view["champion"]["holder"] == seat else 0.0,
        "glory": float(me["glory"]),
        "cards": float(me["hand_size"]),
    }


#: how much better the preferred option's mean must be for the fact to be said
UNITS: dict[str, float] = {"sovereign": 0.25, "champion": 0.25}
COUNT_UNIT = 0.5
SAID = 2  # at most this many facts in a sentence (the rest stay in the data)


@dataclass(frozen=True, slots=True)
class Consequence:
    fact: str
    taken: float  # the fact's mean at the horizon after the option taken
    preferred: float  # after the preferred option
    now: float  # at the decision

    def to_json(self) -> dict[str, Any]:
        return {
            "fact": self.fact,
            "taken": round(self.taken, 3),
            "preferred": round(self.preferred, 3),
            "now": self.now,
        }


def facts_of(state: State, seat: int) -> dict[str, float] | None:
    """The seat's public facts in its view of ``state`` (None: a title without a reader)."""
    view = state.view(seat)
    from ..core.registry import title

    read = title(str(view.get("game"))).load("review_facts")
    return None if read is None else read(view, seat)


def play_forward(
    state: State, seat: int, option: Action, samples: int, seed: int, stats: MastRows | None, stop_kind: str
) -> tuple[list[float], list[dict[str, float]]]:
    """Per re-deal of ``seat``'s information set: the VP it gains by the horizon after
    ``option`` and its facts there. The rest is played with the best MAST option half of the
    time (``stats``: the search's), else a random one; one random stream per call, so two
    options played with the same ``seed`` meet the same deals."""
    rng = CanonicalRng(seed)
    gains: list[float] = []
    facts: list[dict[str, float]] = []
    for _ in range(samples):
        det = state.resample(seat, rng).for_search()
        r0 = det.round_number()
        base = det.scores()[seat]
        det.apply(option)
        d = det.decision()
        while d is not None and (det.round_number() == r0 if r0 is not None else d.kind != stop_kind):
            opts = d.options
            pick = opts[0]
            if len(opts) > 1:
                pick = opts[rng.below(len(opts))]
                row = stats.get(d.kind) if stats is not None else None
                if row is not None and rng.below(2):
                    pick = max(opts, key=lambda o: row[o][0] if o in row else 0.5)
            det.apply(pick)
            d = det.decision()
        gains.append(det.scores()[seat] - base)
        got = facts_of(det, seat)
        if got is not None:
            facts.append(got)
    return gains, facts


def _mean(rows: list[dict[str, float]], key: str) -> float:
    return sum(r[key] for r in rows) / len(rows)


def compare(
    now: dict[str, float], taken: list[dict[str, float]], preferred: list[dict[str, float]]
) -> list[Consequence]:
    """The notable facts in which ``preferred`` beats ``taken`` (see the module doc), in the
    reader's order of importance."""
    if not taken or not preferred:
        return []
    out = []
    for key in now:
        t, p = _mean(taken, key), _mean(preferred, key)
        if p - t >= UNITS.get(key, COUNT_UNIT):
            out.append(Consequence(key, t, p, now[key]))
    return out
