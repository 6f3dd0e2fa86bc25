"""Build exact Red Rising positions for tests, tutorials and the score calculator.

``scenario`` returns a state at the start of a chosen player's turn with the given hands,
locations, deck top, banished pile and tokens; every card not named goes to the deck
below the named top cards, so all 112 cards are always in exactly one place.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core import Decision, Rng
from .board import HOUSE_NAMES, LOCATION_OF_NAME
from .cards import SLUG, card_index
from .engine import RRState, Turn


def _ids(names: Iterable[str]) -> list[int]:
    return [card_index(n) for n in names]


def scenario(
    players: int = 2,
    *,
    hands: dict[int, list[str]] | None = None,
    locations: dict[str, list[str]] | None = None,
    deck_top: list[str] | None = None,
    banished: list[str] | None = None,
    houses: list[str] | None = None,
    fleet: list[int] | None = None,
    helium: list[int] | None = None,
    influence: list[int] | None = None,
    sovereign: int = -1,
    current: int = 0,
    first: int = 0,
    neutral: int | None = None,
    seed: int = 0,
    variant: bool = False,
    facedown: dict[str, int] | None = None,
    rest: str = "deck",
    block_windows: bool = False,
) -> RRState:
    """A position where ``current`` is about to take a turn.

    ``locations`` lists cards bottom to top; ``deck_top`` lists the deck from the top down.
    ``rest`` says where the cards not named go: under the deck top ("deck") or to the
    banished pile ("banished", for an exhausted deck). ``block_windows``: the game option.
    """
    from .game import RedRising

    game = RedRising(players, multiplayer_variant=variant, block_windows=block_windows)
    st = RRState.__new__(RRState)
    st.game, st.n, st.rng, st.variant = game, players, Rng(seed), variant
    hs = houses or [h for h in ("diana", "jupiter", "mars", "minerva", "apollo", "ceres")][:players]
    st.houses = tuple(HOUSE_NAMES.index(h) for h in hs)
    st.start_hand = tuple(5 + (h == HOUSE_NAMES.index("ceres")) for h in st.houses)
    st.hands = [_ids((hands or {}).get(p, [])) for p in range(players)]
    st.locs = [[], [], [], []]
    for name, cards in (locations or {}).items():
        st.locs[LOCATION_OF_NAME[name]] = _ids(cards)
    st.banished = _ids(banished or [])
    top = _ids(deck_top or [])
    used = set(top) | set(st.banished) | {c for h in st.hands for c in h} | {c for loc in st.locs for c in loc}
    named = len(top) + len(st.banished) + sum(map(len, st.hands)) + sum(map(len, st.locs))
    if len(used) != named:
        raise ValueError("a card is named twice in the scenario")
    others = [c for c in range(112) if c not in used]
    if rest == "banished":
        st.banished += others
        others = []
    st.deck = others + top[::-1]
    st.fleet = list(fleet or [0] * players)
    st.helium = list(helium or [0] * players)
    st.influence = list(influence or [0] * players)
    st.neutral = (3 if players == 2 else 0) if neutral is None else neutral
    st.sovereign = sovereign
    st.facedown = {card_index(k): v for k, v in (facedown or {}).items()}
    st.known = [set(h) for h in st.hands]
    st.turns = [0] * players
    st.end_triggered = False
    st.apollo_extra = False
    st.turn_stack = []
    st.stack = []
    st.dec = None
    st.history = []
    st.events = []
    st.eog_done = set()
    st.final = None
    st.final_winners = None
    st.phase = "play"
    st.first = first
    public = {c for loc in st.locs for c in loc if c not in st.facedown} | set(st.banished)
    for p in range(players):  # as in a real game: your hand, face-up and banished cards, what you placed face down
        st.known[p] |= public
        st.known[p].update(c for c, q in st.facedown.items() if q == p)
    st.push(("turn_start", current, True), {"p": current})
    st.run()
    return st


def play(st: RRState, *actions: str) -> RRState:
    """Apply actions in order (each must be legal); returns the state for chaining."""
    for a in actions:
        st.apply(a)
    return st


def hand_names(st: RRState, p: int) -> list[str]:
    return sorted(SLUG[c] for c in st.hands[p])


def location_names(st: RRState, loc: str) -> list[str]:
    return [SLUG[c] for c in st.locs[LOCATION_OF_NAME[loc]]]


# ---------------------------------------------------------------------- twins for the "no tells" tests
def swap_hidden(st: RRState, a: int, b: int) -> None:
    """Exchange two cards lying in places hidden from every seat but their holders (a hand
    or the deck), keeping the holders' ``known`` sets right."""

    def place(c: int) -> tuple[list[int], int | None]:
        for q, h in enumerate(st.hands):
            if c in h:
                return h, q
        return st.deck, None

    (la, qa), (lb, qb) = place(a), place(b)
    ia, ib = la.index(a), lb.index(b)
    la[ia], lb[ib] = b, a
    for q, old, new in ((qa, a, b), (qb, b, a)):
        if q is not None:
            st.known[q].discard(old)
            st.known[q].add(new)


def hidden_from_all_but_holder(st: RRState, c: int) -> bool:
    holders = [q for q, h in enumerate(st.hands) if c in h]
    if not holders and c not in st.deck:
        return False
    return all(c not in k for q, k in enumerate(st.known) if q not in holders)


def twin_window_states(seed: int, players: int) -> tuple[RRState, RRState, int, int] | None:
    """Two mid-game states (``block_windows`` on) at seat ``a``'s action that differ only in
    the target's hidden hand: in the first the target ``q`` (the next seat) holds Judge, in
    the second no blocker at all; ``a`` holds Aja. Both come from the seed and the same
    random decisions (``history``), then hidden cards are exchanged, so every other seat's
    view is the same in both. None when the seed's position does not allow it."""
    from .cards import BY_SLUG
    from .game import RedRising
    from .rules import BLOCK_SOVEREIGN, BLOCK_STEAL_BANISH

    st = RedRising(players, block_windows=True).new_initial_state(seed)
    rng = Rng(seed)

    def pending() -> Decision:
        d = st.decision()
        assert d is not None  # (a game lasts longer than these few random decisions)
        return d

    for _ in range(6 * players):
        d = pending()
        st.apply(d.options[rng.below(len(d.options))])
    while pending().kind != "action":
        d = pending()
        st.apply(d.options[rng.below(len(d.options))])
    a = pending().player
    q = (a + 1) % players
    cards = {c for c in list(BLOCK_STEAL_BANISH) + [BY_SLUG["aja"]]}
    if not all(hidden_from_all_but_holder(st, c) for c in cards) or len(st.hands[q]) < 2:
        return None
    spare = [c for c in st.deck if hidden_from_all_but_holder(st, c) and c not in cards and c not in BLOCK_SOVEREIGN][
        :8
    ]
    aja = BY_SLUG["aja"]
    if aja not in st.hands[a]:
        swap_hidden(st, aja, next(c for c in st.hands[a] if c != aja and c not in cards))
    for c in BLOCK_STEAL_BANISH:  # nobody holds a blocker: the target holds none ...
        if c not in st.deck:
            swap_hidden(st, c, spare.pop())
    st.run()  # the pending action decision again, from the new hand
    without = st.clone()
    judge = BY_SLUG["judge"]  # ... or Judge, from the deck, in place of one of their cards (not the first)
    swap_hidden(st, judge, st.hands[q][1])
    st.run()
    return st, without, a, q


__all__ = [
    "scenario",
    "play",
    "hand_names",
    "location_names",
    "Turn",
    "swap_hidden",
    "hidden_from_all_but_holder",
    "twin_window_states",
]
