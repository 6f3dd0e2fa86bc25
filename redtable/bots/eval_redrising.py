"""Red Rising evaluation: the scorepad value of every player's hand and tokens, plus progress.

Used on determinizations only (resampled states, see :mod:`.common`): it reads their
hands, locations and tokens directly, which is fast and leaks nothing.

The estimate of a player's final score is the scorepad as if the game ended now:
CARDS (core values + end-game bonuses of :mod:`redtable.redrising.bonuses` against the
current board), FLEET, HELIUM, SOVEREIGNTY, INFLUENCE (ranked), EXCESS CARDS, plus
``progress``: what the Fleet Track position is worth in the turns left (the track is
convex: a step from 6 to 7 is worth 7 points, a plain token 3).

Exact Gray colour / Orange name choices need the scorer's search (~150 µs per hand);
with ``exact=False`` each Gray counts :data:`GRAY_BONUS` and each Orange
:data:`ORANGE_BONUS` instead, about their mean gain over random final hands (15 and 12
points); with ``exact=True`` hands holding a Gray or an Orange go through
:func:`~redtable.redrising.scoring.score_position` (cached like the others).

Speed: a hand's bonuses are cached under the sorted hand plus only the parts of the board
its cards' bonuses read (tokens, cards on locations, location tops, banished pile),
found by walking each card's bonus encoding once at import.
"""

from __future__ import annotations

from typing import Any

from ..redrising import bonuses as _bonuses
from ..redrising.bonuses import Board, Hand, hand_bonuses
from ..redrising.cards import COLOR, GRAY, NUM_CARDS, ORANGE, VALUE
from ..redrising.scoring import FLEET_VP, FinalPlayer, FinalPosition, score_position

MASK = tuple(1 << COLOR[c] for c in range(NUM_CARDS))
GRAY_BONUS = 12
ORANGE_BONUS = 10
EXTRA = tuple(GRAY_BONUS if COLOR[c] == GRAY else ORANGE_BONUS if COLOR[c] == ORANGE else 0 for c in range(NUM_CARDS))
BASE = tuple(VALUE[c] + EXTRA[c] for c in range(NUM_CARDS))
CHOOSER = tuple(COLOR[c] in (GRAY, ORANGE) for c in range(NUM_CARDS))
HAND_LIMIT = 7
THRESHOLD = 7

# What each card's end-game bonus reads besides the hand.
TOK, LOC, TOP, BAN = 1, 2, 4, 8
ALL = TOK | LOC | TOP | BAN
_HAND_ONLY = {
    "AllCards",
    "AllDifferent",
    "AllOf",
    "AnyOf",
    "C",
    "DistinctColors",
    "Each",
    "Except",
    "Gain",
    "HandSize",
    "IgnoreLosses",
    "InHand",
    "InRange",
    "N",
    "OnlyOne",
    "Or",
    "Points",
    "Unless",
    "ValueTest",
    "With",
    "WithBoth",
    "WithButNot",
    "WithNo",
    "WithOneNotBoth",
    "WithOnly",
}
_BOARD = {
    "_Fleet": TOK,
    "_Helium": TOK,
    "_Influence": TOK,
    "Most": TOK,
    "Least": TOK,
    "OpponentMore": TOK,
    "SameAsOpponent": TOK,
    "Have": TOK,
    "HaveNone": TOK,
    "OnLocations": LOC,
    "BestTopValue": TOP,
    "EmptyOrFaceDownTop": TOP,
    "Banished": BAN,
}


def _reads(obj, seen: set) -> int:
    """Board parts read by a bonus encoding; an unknown primitive is assumed to read all."""
    if id(obj) in seen or obj is None or isinstance(obj, (int, str, float, bool)):
        return 0
    seen.add(id(obj))
    if isinstance(obj, (tuple, list, set, frozenset)):
        out = 0
        for x in obj:
            out |= _reads(x, seen)
        return out
    name = type(obj).__name__
    out = _BOARD.get(name, 0)
    if name not in _BOARD and name not in _HAND_ONLY:
        return ALL
    for cls in type(obj).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if hasattr(obj, slot):
                out |= _reads(getattr(obj, slot), seen)
    if hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            out |= _reads(v, seen)
    return out


def _card_reads() -> tuple[int, ...]:
    try:
        return tuple(_reads(_bonuses.BONUSES[c], set()) for c in range(NUM_CARDS))
    except Exception:  # pragma: no cover - an encoding we cannot walk: no caching shortcuts
        return (ALL,) * NUM_CARDS


READS = _card_reads()


def influence_rows(tokens: list[int], neutral: int) -> list[int]:
    """The Influence row per player (same rule as ``scoring.influence_points``)."""
    first = second = 0
    for t in tokens:
        if t > first:
            first, second = t, first
        elif first > t > second:
            second = t
    if neutral > first:
        first, second = neutral, first
    elif first > neutral > second:
        second = neutral
    return [t * (4 if t == first else 2 if t == second else 1) if t > 0 else 0 for t in tokens]


def turns_left(st) -> float:
    """A rough number of turns each player still has."""
    if st.end_triggered:
        return 0.5
    fl, he, inf = st.fleet, st.helium, st.influence
    best = 99
    for p in range(st.n):
        a = THRESHOLD - fl[p]
        b = THRESHOLD - he[p]
        c = THRESHOLD - inf[p]
        a = a if a > 0 else 0
        b = b if b > 0 else 0
        c = c if c > 0 else 0
        two = a + b + c - max(a, b, c)
        if two < best:
            best = two
    glob = max(0, THRESHOLD - max(fl)) + max(0, THRESHOLD - max(he)) + max(0, THRESHOLD - max(inf))
    return min(best * 1.5, glob * 3.0 / max(1, st.n - 1) + 1, 30.0) + 0.5


class RREval:
    """Score estimates for the seats of a Red Rising determinization."""

    def __init__(self, progress: float = 1.0, exact: bool = False) -> None:
        self.progress = progress
        self.exact = exact
        self._cache: dict = {}

    def card_points(self, st, p: int, parts: dict) -> int:
        """Core values + bonuses (+ the Gray/Orange allowance) of ``p``'s hand, cached."""
        hand = st.hands[p]
        reads = 0
        chooser = False
        for c in hand:
            reads |= READS[c]
            if CHOOSER[c]:
                chooser = True
        exact = chooser and self.exact
        if exact:
            reads = ALL  # the scorer builds the whole board
        key_hand = tuple(sorted(hand))
        if reads == 0:
            key: tuple[Any, ...] = key_hand
        else:
            fields: list[Any] = [key_hand]
            if reads & TOK:
                tok = parts.get("tok")
                if tok is None:
                    tok = parts["tok"] = (
                        tuple(st.fleet),
                        tuple(st.helium),
                        tuple(st.influence),
                        st.sovereign,
                        st.neutral,
                    )
                fields.append(p)
                fields.append(tok)
            if reads & LOC:
                lm = parts.get("loc")
                if lm is None:
                    fd = st.facedown
                    lm = parts["loc"] = tuple(sorted(0 if c in fd else MASK[c] for loc in st.locs for c in loc))
                fields.append(lm)
            if reads & TOP:
                tops = parts.get("top")
                if tops is None:
                    fd = st.facedown
                    tops = parts["top"] = tuple((VALUE[loc[-1]], loc[-1] in fd) if loc else None for loc in st.locs)
                fields.append(tops)
            if reads & BAN:
                ban = parts.get("ban")
                if ban is None:
                    ban = parts["ban"] = tuple(sorted(MASK[c] for c in st.banished))
                fields.append(ban)
            key = tuple(fields)
        cache = self._cache
        v = cache.get(key)
        if v is not None:
            return v
        n = st.n
        if exact:
            v = self._exact(st, p, key_hand)
            if len(cache) > 300_000:
                cache.clear()
            cache[key] = v
            return v
        b = Board()
        if reads & TOK:
            fleet, helium, influence = st.fleet, st.helium, st.influence
            b.fleet, b.helium, b.influence, b.sovereign = fleet[p], helium[p], influence[p], st.sovereign == p
            b.opp_fleet = tuple(fleet[q] for q in range(n) if q != p)
            b.opp_helium = tuple(helium[q] for q in range(n) if q != p)
            b.opp_influence = tuple(influence[q] for q in range(n) if q != p)
            b.neutral_influence = st.neutral
        if reads & LOC:
            b.location_masks = parts["loc"]
        if reads & TOP:
            b.tops = parts["top"]
        if reads & BAN:
            b.banished_masks = parts["ban"]
        v = sum(hand_bonuses(Hand(key_hand, tuple(MASK[c] for c in key_hand), key_hand), b))
        for c in hand:
            v += BASE[c]
        if len(cache) > 300_000:
            cache.clear()
        cache[key] = v
        return v

    @staticmethod
    def _exact(st, p: int, hand: tuple[int, ...]) -> int:
        """The scorer's CARDS row for ``p``'s hand, with the best Gray colours and Orange names."""
        fleet, helium, influence, sov = st.fleet, st.helium, st.influence, st.sovereign
        players = [
            FinalPlayer(
                hand=list(hand) if q == p else [],
                fleet=fleet[q],
                helium=helium[q],
                influence=influence[q],
                sovereign=sov == q,
            )
            for q in range(st.n)
        ]
        jupiter, mars, luna, institute = (list(loc) for loc in st.locs)
        pos = FinalPosition(
            players=players,
            locations=(jupiter, mars, luna, institute),
            banished=list(st.banished),
            neutral_influence=st.neutral,
            face_down_on_locations=frozenset(st.facedown),
        )
        return score_position(pos)[p].cards

    def estimates(self, st, only: int | None = None) -> list[float]:
        """Estimated final scores of every seat (``only``: that seat's alone, others 0)."""
        n = st.n
        fleet, helium = st.fleet, st.helium
        infl = influence_rows(st.influence, st.neutral)
        sov = st.sovereign
        progress = self.progress
        left = -1.0
        parts: dict = {}
        out = [0.0] * n
        for p in range(n) if only is None else (only,):
            hand = st.hands[p]
            f = fleet[p]
            v = self.card_points(st, p, parts) + FLEET_VP[f] + 3 * helium[p] + infl[p]
            if sov == p:
                v += 10
            if len(hand) > HAND_LIMIT:
                v -= 10 * (len(hand) - HAND_LIMIT)
            if progress and f >= 2:
                # what the next fleet steps would add over a plain 3-point token
                gain = (FLEET_VP[f + 2 if f < 9 else 10] - FLEET_VP[f]) * 0.5 - 3
                if gain > 0:
                    if left < 0:
                        left = turns_left(st)
                    v += progress * (left if left < 2.0 else 2.0) * gain
            out[p] = v
        return out
