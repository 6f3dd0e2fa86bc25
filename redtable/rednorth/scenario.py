"""Set up a Red North position by hand: for scenario tests, puzzles and debugging.

Slots are written as short strings: ``"raider-red"`` is face down, ``"+raider-red"`` face
up, ``"+raider-red/2"`` face up with 2 Glory tokens, ``"+jarl!"`` a face-up Jarl with the
Champion token. These helpers write the state's fields directly; they do not keep the
card counts of the box (a scenario may conjure cards).
"""

from __future__ import annotations

from .cards import COLOUR_OF_NAME, KIND_OF_SLUG, KIND_SLUG, NCOLOURS, NKINDS, counts_to_slugs
from .game import TURN, RedNorthState
from .party import CHAMP, GLORY_SHIFT, KIND_MASK, UP


def parse_slot(spec: str) -> int:
    up = spec.startswith("+")
    spec = spec.lstrip("+")
    champion = spec.endswith("!")
    spec = spec.rstrip("!")
    glory = 0
    if "/" in spec:
        spec, g = spec.split("/")
        glory = int(g)
    return KIND_OF_SLUG[spec] | (UP if up else 0) | (CHAMP if champion else 0) | (glory << GLORY_SHIFT)


def slot_spec(s: int) -> str:
    out = ("+" if s & UP else "") + KIND_SLUG[s & KIND_MASK]
    if s >> GLORY_SHIFT:
        out += f"/{s >> GLORY_SHIFT}"
    if s & CHAMP:
        out += "!"
    return out


def set_colours(state: RedNorthState, *names: str) -> None:
    """Make exactly these colours (Outposts) in play."""
    cols = tuple(sorted(COLOUR_OF_NAME[n] for n in names))
    state.colours = cols
    state.in_play = tuple(c in cols for c in range(NCOLOURS))
    state._dec = None


def set_owner(state: RedNorthState, colour: str, seat: int | None) -> None:
    state.owner[COLOUR_OF_NAME[colour]] = -1 if seat is None else seat
    state._dec = None


def set_hand(state: RedNorthState, p: int, slugs: list[str]) -> None:
    h = [0] * NKINDS
    for s in slugs:
        h[KIND_OF_SLUG[s]] += 1
    state.hands[p] = h
    state.hand_n[p] = len(slugs)
    state.known[p] = [0] * NKINDS
    state._dec = None


def set_party(state: RedNorthState, p: int, specs: list[str]) -> None:
    state.parties[p] = [parse_slot(s) for s in specs]
    state._dec = None


def party(state: RedNorthState, p: int) -> list[str]:
    return [slot_spec(s) for s in state.parties[p]]


def hand(state: RedNorthState, p: int) -> list[str]:
    return counts_to_slugs(state.hands[p])


def goto_turn(state: RedNorthState, actor: int, round: int | None = None, passed: tuple[int, ...] = ()) -> None:
    """Jump to the Player Actions phase with ``actor`` to act (Ragnarok has no Muster Groups)."""
    if round is not None:
        state.round = round
        if round == 3:
            state.muster = []
    state.phase = TURN
    state.actor = actor
    state.passed = [q in passed for q in range(state.P)]
    state._dec = None


def resolve_now(state: RedNorthState, actor: int = 0) -> None:
    """Everybody but ``actor`` has passed; ``actor`` passes now, which runs the Resolution."""
    goto_turn(state, actor, passed=tuple(q for q in range(state.P) if q != actor))
    opts = state.pending().options
    state.apply(next(o for o in opts if o.startswith("pass")))  # in Spring/Summer: the first group


def refresh(state: RedNorthState) -> None:
    """Forget the cached decision after writing fields directly."""
    state._dec = None
