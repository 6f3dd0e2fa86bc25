"""Hidden information of a Red Rising position: re-deals of what a seat cannot see
(:meth:`HiddenInfo.resample`, for search bots) and the tripwires that prove no code reads
it (:meth:`HiddenInfo.arm_hidden`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..core import HiddenDict, HiddenList, HiddenRead, HiddenSet, Rng
from .board import (
    LOCATION_NAMES,
)
from .cards import VALUE

if TYPE_CHECKING:
    from .engine import RRState

from .state import RRStateBase


class HiddenInfo(RRStateBase):
    """A seat's information set: re-deals and tripwires."""

    __slots__ = ()

    # ------------------------------------------------------------------ information sets
    def resample(self, player: int, rng: Rng) -> RRState:
        """A state ``player`` cannot tell from this one, with every hidden card re-dealt.

        Hidden places are the other hands, the deck and face-down cards; a card in them
        stays put when ``player`` knows where it is (a card they saw go there). The other
        cards are shuffled among the remaining hidden slots, so hand sizes and the deck
        size are kept. Future chance is re-seeded from ``rng``.
        """
        st = self.clone()
        known = self.known[player]
        slots: list[tuple[list[int], int]] = []
        for q in range(st.n):
            if q != player:
                hand = st.hands[q]
                slots += [(hand, i) for i, c in enumerate(hand) if c not in known]
        deck = st.deck
        slots += [(deck, i) for i, c in enumerate(deck) if c not in known]
        facedown = st.facedown
        if facedown:
            for loc in st.locs:
                slots += [(loc, i) for i, c in enumerate(loc) if c in facedown and c not in known]
        old = [place[i] for place, i in slots]
        new = old[:]
        rng.shuffle(new)
        moved = {c: d for c, d in zip(old, new, strict=True) if c != d}  # the permutation, without fixed points
        for (place, i), card in zip(slots, new, strict=True):
            place[i] = card
        if facedown:
            st.facedown = {moved.get(c, c): q for c, q in facedown.items()}
        # known sets: {moved.get(c, c) for c in k}, with set operations
        st.known = [
            k.difference(moved) | {moved[c] for c in k.intersection(moved)} if not k.isdisjoint(moved) else k
            for k in st.known
        ]
        st.rng = Rng(rng.next64())
        return st

    def arm_hidden(self, player: int) -> list[str]:
        """:meth:`State.arm_hidden`: tripwires on all that ``player`` may not know.

        ``player`` surely knows where a card is when it is in their own hand, face up on a
        location, banished, or a card their ``known`` set names on the deck or face down
        (one they saw there). A card in another seat's hand never counts as surely known,
        even one ``player`` once saw go there (a steal may have moved it since, unseen).

        Armed: every other seat's hand (every card hidden; its size is public), the deck and
        each location (a card is hidden unless surely known or face up there; sizes and
        places are public), the face-down map (``facedown``: asking about a card not surely
        known), the other seats' ``known`` sets (write-only), and every pending frame of the
        turn program whose node or context holds a card not surely known or a choice
        ``player`` did not see (running it trips)."""
        trips: list[str] = []
        others: set[int] = set()
        for q in range(self.n):
            if q != player:
                others.update(self.hands[q])
        sure = frozenset(self.known[player].difference(others))

        def not_sure(c) -> bool:
            return c not in sure

        fd = HiddenDict.arm(self.facedown, trips, "face-down cards", not_sure)
        raw_facedown = dict.__contains__

        def hidden_on_board(c) -> bool:
            return raw_facedown(fd, c) and c not in sure

        _arm_frames(self.stack, player, sure, trips)
        self.facedown = fd
        self.hands = [
            h if q == player else HiddenList.arm(h, trips, f"hand of p{q}", None, not_sure, False)
            for q, h in enumerate(self.hands)
        ]
        self.deck = HiddenList.arm(self.deck, trips, "deck", not_sure, not_sure, True)
        self.locs = [
            HiddenList.arm(loc, trips, LOCATION_NAMES[i], hidden_on_board, not_sure, True)
            for i, loc in enumerate(self.locs)
        ]
        # a HiddenSet stands for the set it guards (every read of it trips)
        self.known = [
            k if q == player else cast("set[int]", HiddenSet(k, trips, f"what p{q} knows"))
            for q, k in enumerate(self.known)
        ]
        return trips


# ====================================================================== tripwires (arm_hidden)
# What a turn program frame may hold, for RRState.arm_hidden: context keys holding public
# facts (seats, locations, choices every seat saw logged, colours as they lay on the board),
# keys holding a card or a tuple of cards (public when surely known), choices of the acting
# seat that no event tells the others (public to that seat only), and the node items that
# are cards. Any other key makes the frame hidden: a new key must be classified here.
_CTX_PUBLIC = frozenset(("p", "q", "loc", "lead", "dest", "origin", "colors", "gold_count", "under_color", "c_col"))
_CTX_CARD = frozenset(("c", "src"))
_CTX_CARDS = frozenset(("looked", "shown"))
_CTX_OWN_CHOICE = frozenset(("color",))  # choose_color: not logged
_NODE_CARD = {"deploy": 1, "ability": 1, "ability_end": 1}
_NODE_CARDS = {"lowcaste_to_bottom": 1}


def _arm_frames(stack: list, player: int, sure: frozenset, trips: list[str]) -> None:
    """Replace each pending frame that holds something hidden from ``player`` by one whose
    step trips when it runs."""
    for i, (_, node, ctx) in enumerate(stack):
        if _frame_public(node, ctx, player, sure):
            continue

        def tripped(st, node, ctx, answer, _name=node[0]):
            trips.append(f"turn program: step {_name!r} holds hidden information")
            raise HiddenRead(trips[-1])

        stack[i] = (tripped, node, ctx)


def _frame_public(node: tuple, ctx: dict, player: int, sure: frozenset) -> bool:
    """Whether nothing in a frame is hidden from ``player`` (``sure``: the cards whose place
    they surely know)."""
    i = _NODE_CARD.get(node[0])
    if i is not None and node[i] not in sure:
        return False
    i = _NODE_CARDS.get(node[0])
    if i is not None and not sure.issuperset(node[i]):
        return False
    for k, v in ctx.items():
        if k in _CTX_PUBLIC:
            continue
        if k in _CTX_CARD:
            if v not in sure:
                return False
        elif k in _CTX_CARDS:
            if not sure.issuperset(v):
                return False
        elif k == "value":  # a bound card's value
            if ctx.get("c") not in sure or v != VALUE[ctx["c"]]:
                return False
        elif k == "named":  # Roque: seen by the two players involved only
            if player != ctx.get("p") and player != ctx.get("q"):
                return False
        elif k in _CTX_OWN_CHOICE:
            if player != ctx.get("p"):
                return False
        else:
            return False
    return True
