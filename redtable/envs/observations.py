"""Fixed-size float32 observations built from ``state.view(seat)`` only.

An encoder reads nothing but the JSON a seat may see (the core protocol's ``view``), so an
observation can never leak hidden information: two states the seat cannot tell apart
(``state.resample(seat, rng)``) give equal views and therefore equal observations
(``tests/envs/test_observations.py``). Every feature lies in ``[0, 1]`` (counts are
scaled and clipped), seats are absolute (seat ``i`` of the view is block ``i``; the
observer's own seat is one-hot in ``me``), and tables are padded to the game's largest
player count, so one policy can be fed any player count.

:class:`Layout` names the segments of a vector (``layout.describe()`` prints them);
:data:`RED_RISING` and :data:`RED_NORTH` are the two encoders.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import GAMES, title
from ..rednorth.title import TITLE as RED_NORTH_TITLE
from ..redrising.title import TITLE as RED_RISING_TITLE


class Layout:
    """Named, contiguous segments of a flat feature vector."""

    def __init__(self) -> None:
        self.segments: dict[str, tuple[int, int]] = {}
        self.size = 0

    def add(self, name: str, n: int) -> int:
        if name in self.segments:
            raise ValueError(f"segment {name!r} defined twice")
        start = self.size
        self.segments[name] = (start, n)
        self.size += n
        return start

    def __getitem__(self, name: str) -> int:
        return self.segments[name][0]

    def slice(self, name: str) -> slice:
        start, n = self.segments[name]
        return slice(start, start + n)

    def describe(self) -> str:
        width = max(len(k) for k in self.segments)
        lines = [f"{k:<{width}}  {s:>5}  {n:>5}" for k, (s, n) in self.segments.items()]
        return "\n".join([f"{'segment':<{width}}  {'start':>5}  {'size':>5}", *lines, f"total {self.size}"])


def clip01(x: float) -> float:
    """``x`` clipped to [0, 1]."""
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


class Encoder:
    """Turn a view dict into a float32 vector of ``size`` features in [0, 1]."""

    game: str
    layout: Layout
    max_players: int

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: dict[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        # Filled as a Python list (item assignment is several times cheaper than on an array).
        x = [0.0] * self.size
        self._fill(view, x)
        if out is None:
            return np.array(x, dtype=np.float32)
        out[:] = x
        return out

    def _fill(self, view: dict[str, Any], x: list[float]) -> None:  # pragma: no cover
        raise NotImplementedError


# ============================================================================ Red Rising
class RedRisingEncoder(Encoder):
    """Red Rising: seats, card places (per card), locations, the pending decision.

    ===================  ======  ===========================================================
    segment              size    features
    ===================  ======  ===========================================================
    me                   6       one-hot own seat
    present              6       seats in the game
    first, turn          6 + 6   first player; whose turn it is
    globals              7       deck size/112, neutral Influence/3, end triggered,
                                 multiplayer variant, phase one-hot (play/end/over)
    seats                6x15    house one-hot, hand size/16, Fleet/10, Helium/10,
                                 Influence/10, Sovereign, turns taken/30, each of the
                                 three >= 7 thresholds
    cards                112x13  per card: in my hand, banished, on location (one-hot 4),
                                 top of its location, depth from the top/10, index from
                                 the bottom/30, face down (known to me), named by the
                                 decision context (``card``), the context's other card
                                 (``placing``/``revealed``), not seen anywhere
    locations            4x3     size/30, anonymous face-down cards/4, top card anonymous
    colours              6x14    colour counts/5 of my hand and each location, of the
                                 banished pile/8
    decision             39      kind one-hot (31 + unknown), deciding seat, I decide
    context              32      a seat named by the context (attacker, thief, target...),
                                 named colours, a location named (one-hot), hand/deck
                                 source, the moving card's location and index, ``left``
    ===================  ======  ===========================================================
    """

    game = RED_RISING_TITLE.name

    def __init__(self) -> None:
        from ..redrising.board import HOUSE_NAMES, LOCATION_NAMES
        from ..redrising.cards import COLOR, COLOR_NAMES, NUM_CARDS, SLUG

        self.max_players = 6
        self.houses = {h: i for i, h in enumerate(HOUSE_NAMES)}
        self.locs = {loc: i for i, loc in enumerate(LOCATION_NAMES)}
        self.loc_names = LOCATION_NAMES
        self.colors = {c: i for i, c in enumerate(COLOR_NAMES)}
        self.cards = {s: i for i, s in enumerate(SLUG)}
        self.color_of_slug = {s: COLOR[i] for i, s in enumerate(SLUG)}
        self.ncards = NUM_CARDS
        self.kinds = {k: i for i, k in enumerate(RR_DECISION_KINDS)}
        self.phases = {"play": 0, "end_of_game": 1, "over": 2}
        P, L = self.max_players, Layout()
        L.add("me", P)
        L.add("present", P)
        L.add("first", P)
        L.add("turn", P)
        L.add("globals", 7)
        self.seat_f = 15
        L.add("seats", P * self.seat_f)
        self.card_f = 13
        L.add("cards", NUM_CARDS * self.card_f)
        L.add("locations", 4 * 3)
        L.add("colours", 6 * 14)
        L.add("decision", len(RR_DECISION_KINDS) + 1 + P + 1)
        L.add("context", P + 14 + 4 + 2 + 4 + 1 + 1)
        self.layout = L

    def _fill(self, v: dict[str, Any], x: list[float]) -> None:
        L = self.layout
        me = v["you"]
        players = v["players"]
        if me is not None:
            x[L["me"] + me] = 1.0
        for p in players:
            x[L["present"] + p["seat"]] = 1.0
        x[L["first"] + v["first_player"]] = 1.0
        if v.get("current_turn") is not None:
            x[L["turn"] + v["current_turn"]] = 1.0
        g = L["globals"]
        x[g] = clip01(v["deck_size"] / 112.0)
        x[g + 1] = clip01(v["neutral_influence"] / 3.0)
        x[g + 2] = float(bool(v["end_triggered"]))
        x[g + 3] = float(bool(v.get("variant")))
        x[g + 4 + self.phases.get(v.get("phase", ""), 0)] = 1.0

        sf = self.seat_f
        col = L["colours"]
        for p in players:
            b = L["seats"] + p["seat"] * sf
            x[b + self.houses[p["house"]]] = 1.0
            x[b + 6] = clip01(p["hand_size"] / 16.0)
            x[b + 7] = clip01(p["fleet"] / 10.0)
            x[b + 8] = clip01(p["helium"] / 10.0)
            x[b + 9] = clip01(p["influence"] / 10.0)
            x[b + 10] = float(bool(p["sovereign"]))
            x[b + 11] = clip01(p["turns"] / 30.0)
            x[b + 12] = float(p["fleet"] >= 7)
            x[b + 13] = float(p["helium"] >= 7)
            x[b + 14] = float(p["influence"] >= 7)

        cf = self.card_f
        cb = L["cards"]
        cards = self.cards
        colors = self.colors
        seen = [False] * self.ncards
        hand = next((p.get("hand") for p in players if p["seat"] == me), None) or []
        for cj in hand:
            c = cards.get(cj.get("card"))
            if c is not None:
                x[cb + c * cf] = 1.0
                seen[c] = True
                x[col + colors[cj["color"]]] += 0.2
        for slug in v["banished"]:
            c = cards[slug]
            x[cb + c * cf + 1] = 1.0
            seen[c] = True
            x[col + 5 * 14 + self.color_of_slug[slug]] += 0.125
        lb = L["locations"]
        for li, name in enumerate(self.loc_names):
            pile = v["locations"][name]
            n = len(pile)
            anon = 0
            for i, cj in enumerate(pile):
                c = cards.get(cj.get("card"))
                if c is None:
                    anon += 1
                    continue
                seen[c] = True
                o = cb + c * cf
                x[o + 2 + li] = 1.0
                x[o + 6] = float(i == n - 1)
                x[o + 7] = min((n - 1 - i) * 0.1, 1.0)
                x[o + 8] = min(i / 30.0, 1.0)
                x[o + 9] = float(bool(cj.get("face_down")))
                if not cj.get("face_down"):
                    x[col + (1 + li) * 14 + colors[cj["color"]]] += 0.2
            x[lb + li * 3] = clip01(n / 30.0)
            x[lb + li * 3 + 1] = clip01(anon / 4.0)
            x[lb + li * 3 + 2] = float(n > 0 and pile[-1].get("card") is None)
        for i in range(col, col + 6 * 14):
            if x[i] > 1.0:
                x[i] = 1.0
        for c in range(self.ncards):
            if not seen[c]:
                x[cb + c * cf + 12] = 1.0

        d = v.get("decision")
        db = L["decision"]
        nk = len(RR_DECISION_KINDS)
        if d is not None:
            x[db + self.kinds.get(d["kind"], nk)] = 1.0
            x[db + nk + 1 + d["player"]] = 1.0
            mine = d["player"] == me and "options" in d
            x[db + nk + 1 + self.max_players] = float(mine)
            ctx = d.get("context") if mine else None
            if ctx:
                self._context(ctx, x)

    def _context(self, ctx: dict[str, Any], x: list[float]) -> None:
        cb, cf = self.layout["cards"], self.card_f
        card, others = self.context_cards(ctx)
        if card is not None:
            x[cb + card * cf + 10] = 1.0
        for c in others:
            x[cb + c * cf + 11] = 1.0
        b = self.layout["context"]
        seg = self.context_segment(ctx)
        x[b : b + len(seg)] = seg

    def context_cards(self, ctx: dict[str, Any]) -> tuple[int | None, list[int]]:
        """The card a decision's context names (``card``) and its other cards
        (``placing``/``revealed``), as card indices."""
        cards = self.cards
        card = ctx.get("card")
        c = cards.get(card) if isinstance(card, str) else None
        slugs = []
        if isinstance(ctx.get("placing"), str):
            slugs.append(ctx["placing"])
        if isinstance(ctx.get("revealed"), list):
            slugs += ctx["revealed"]
        others = [cards[s] for s in slugs if s in cards]
        return c, others

    def context_segment(self, ctx: dict[str, Any]) -> list[float]:
        """The ``context`` segment of a decision's context (see the class doc). Each key
        writes its own features, so the keys present are visited in any order."""
        P = self.max_players
        x = [0.0] * self.layout.segments["context"][1]
        locs = self.locs
        for key, val in ctx.items():
            kind = _CONTEXT_KEYS.get(key)
            if kind is None:
                continue
            if kind == 0:  # a seat
                if isinstance(val, int) and not isinstance(val, bool) and 0 <= val < P:
                    x[val] = 1.0
            elif kind == 1:  # named colours
                if isinstance(val, list):
                    for n in val:
                        if n in self.colors:
                            x[P + self.colors[n]] = 1.0
            elif kind == 2:  # a place
                if val in locs:
                    x[P + 14 + locs[val]] = 1.0
                elif val == "hand":
                    x[P + 18] = 1.0
                elif val == "deck":
                    x[P + 19] = 1.0
            elif kind == 3:  # the moving card: "<location>:<index>" or an index
                if isinstance(val, str) and ":" in val:
                    loc, _, i = val.partition(":")
                    if loc in locs and i.isdigit():
                        x[P + 20 + locs[loc]] = 1.0
                        x[P + 24] = clip01(int(i) / 30.0)
                elif isinstance(val, int) and not isinstance(val, bool):
                    x[P + 24] = clip01(val / 30.0)
            elif isinstance(val, int) and not isinstance(val, bool):  # left
                x[P + 25] = clip01(val / 3.0)
        return x


# The context keys the Red Rising encoder reads, by what they name.
_CONTEXT_KEYS = {
    **dict.fromkeys(("attacker", "thief", "target", "lender", "for", "by"), 0),
    "named": 1,
    **dict.fromkeys(("location", "deployed", "source"), 2),
    "moving": 3,
    "left": 4,
}


# Every decision kind the Red Rising engine asks (the ``Decision(..., kind, ...)`` calls of
# redtable/redrising); an unknown future kind falls in an extra "unknown" slot.
RR_DECISION_KINDS = (
    "action",
    "banish_from_hand",
    "banish_from_location",
    "banish_top",
    "block",
    "block_sovereign",
    "bottom_order",
    "ceres_banish_hand",
    "choose_banished",
    "choose_card",
    "choose_color",
    "choose_hand",
    "choose_one",
    "choose_opponent",
    "deck_end",
    "deploy_location",
    "die_face",
    "end_of_game_order",
    "facedown_card",
    "gain",
    "loan_shark",
    "may",
    "move_location",
    "name_card",
    "name_color",
    "order_under",
    "place_location",
    "reveal",
    "reveal_from_hand",
    "scout_location",
    "steal_choice",
)


# ============================================================================ Red North
class RedNorthEncoder(Encoder):
    """Red North: round and tokens, Outposts, piles, Muster Groups, seats and Parties.

    ===================  ======  ===========================================================
    segment              size    features
    ===================  ======  ===========================================================
    me, present          4 + 4   one-hot own seat; seats in the game
    globals              34      round one-hot (3), phase one-hot (10), to act (4), first
                                 player (4), Tie Breaker (4 + none), Champion holder
                                 (4 + none), Champion placed, deck size/60, round VP/3
    outposts             5x7     per colour: in play, printed points/9, controller
                                 one-hot (4 + none)
    discard              11      count of each card kind/11
    set_aside            6       the set-aside Hero (5 colours + none)
    muster               13x12   per possible group (5 Heroes, 8 Gods): offered, count
                                 of each card kind/3
    seats                4x198   hand size/20, Glory/10, VP/20, God one-hot (8 + none),
                                 invoked, passed, publicly known hidden cards per kind/6,
                                 own hand per kind/6 (own seat only), and 10 Party slots
                                 of (occupied, face up, kind one-hot 11 + unknown,
                                 Glory/3, Champion)
    pending              37      sub-decision one-hot (deploy, reinforce, loki, freya,
                                 saga, hel), cards placed/3, flipped slot one-hot (10),
                                 Glory left/2, Freya's card (11, to its player only),
                                 Saga's opponents (4) and the current one (4)
    ===================  ======  ===========================================================
    """

    game = RED_NORTH_TITLE.name

    def __init__(self) -> None:
        from ..rednorth.actions import GOD_HEAD, PASS_GROUP, group_slug
        from ..rednorth.cards import COLOURS, KIND_SLUG, NKINDS
        from ..rednorth.game import PHASE_NAMES
        from ..rednorth.gods import GODS
        from .actions import RN_MAX_PARTY

        self.max_players = 4
        self.max_party = RN_MAX_PARTY
        self.nkinds = NKINDS
        self.kinds = {s: i for i, s in enumerate(KIND_SLUG)}
        self.colours = {c: i for i, c in enumerate(COLOURS)}
        self.phases = {p: i for i, p in enumerate(PHASE_NAMES)}
        self.gods = {g.slug: i for i, g in enumerate(GODS)}
        self.groups = {group_slug(h): i for i, h in enumerate(sorted(PASS_GROUP))}
        self.pending = {a: i for i, a in enumerate(("deploy", "reinforce", "loki", "freya", "saga", "hel"))}
        assert len(self.groups) == 13 and GOD_HEAD > 0
        P, L = self.max_players, Layout()
        L.add("me", P)
        L.add("present", P)
        L.add("globals", 3 + len(PHASE_NAMES) + P + P + (P + 1) + (P + 1) + 3)
        L.add("outposts", 5 * (2 + P + 1))
        L.add("discard", NKINDS)
        L.add("set_aside", 6)
        L.add("muster", len(self.groups) * (1 + NKINDS))
        self.slot_f = 2 + NKINDS + 1 + 2
        self.seat_f = 3 + len(GODS) + 1 + 2 + 2 * NKINDS + RN_MAX_PARTY * self.slot_f
        L.add("seats", P * self.seat_f)
        L.add("pending", 6 + 1 + RN_MAX_PARTY + 1 + NKINDS + P + P)
        self.layout = L

    def _fill(self, v: dict[str, Any], x: list[float]) -> None:
        L = self.layout
        P = self.max_players
        me = v["player"]
        n = v["players"]
        if me is not None:
            x[L["me"] + me] = 1.0
        for q in range(n):
            x[L["present"] + q] = 1.0
        g = L["globals"]
        x[g + min(max(v["round"], 1), 3) - 1] = 1.0
        g += 3
        x[g + self.phases[v["phase"]]] = 1.0
        g += len(self.phases)
        if v.get("to_act") is not None:
            x[g + v["to_act"]] = 1.0
        g += P
        x[g + v["first_player"]] = 1.0
        g += P
        tb = v.get("tie_breaker")
        x[g + (P if tb is None else tb)] = 1.0
        g += P + 1
        ch = v["champion"]
        x[g + (P if ch["holder"] is None else ch["holder"])] = 1.0
        g += P + 1
        x[g] = float(bool(ch["placed"]))
        x[g + 1] = clip01(v["deck_size"] / 60.0)
        x[g + 2] = clip01(v["round_vp"] / 3.0)

        ob = L["outposts"]
        of = 2 + P + 1
        for o in v["outposts"]:
            b = ob + self.colours[o["colour"]] * of
            x[b] = 1.0
            x[b + 1] = clip01(o["points"] / 9.0)
            x[b + 2 + (P if o["controller"] is None else o["controller"])] = 1.0
        kinds = self.kinds
        _counts(x, L["discard"], kinds, v["discard"], 11.0)
        sa = v.get("set_aside_hero")
        x[L["set_aside"] + (kinds[sa] - 5 if sa is not None else 5)] = 1.0
        mb = L["muster"]
        mf = 1 + self.nkinds
        for grp in v["muster"]:
            b = mb + self.groups[grp["group"]] * mf
            x[b] = 1.0
            _counts(x, b + 1, kinds, grp["cards"], 3.0)

        sf, slf = self.seat_f, self.slot_f
        K = self.nkinds
        ngods = len(self.gods)
        for seat in v["seats"]:
            b = L["seats"] + seat["seat"] * sf
            x[b] = clip01(seat["hand_size"] / 20.0)
            x[b + 1] = clip01(seat["glory"] / 10.0)
            x[b + 2] = clip01(seat["vp"] / 20.0)
            god = seat.get("god")
            x[b + 3 + (self.gods[god] if god is not None else ngods)] = 1.0
            b += 3 + ngods + 1
            x[b] = float(bool(seat["invoked"]))
            x[b + 1] = float(bool(seat["passed"]))
            b += 2
            _counts(x, b, kinds, seat["known_hidden"], 6.0)
            b += K
            _counts(x, b, kinds, seat.get("hand") or (), 6.0)
            b += K
            for i, slot in enumerate(seat["party"][: self.max_party]):
                o = b + i * slf
                x[o] = 1.0
                x[o + 1] = float(bool(slot["face_up"]))
                card = slot.get("card")
                x[o + 2 + (kinds[card] if card is not None else K)] = 1.0
                x[o + 3 + K] = clip01(slot["glory"] / 3.0)
                x[o + 4 + K] = float(bool(slot["champion"]))
        pend = v.get("pending")
        if pend:
            b = L["pending"]
            x[b + self.pending[pend["action"]]] = 1.0
            b += 6
            if pend["action"] == "deploy":
                x[b] = clip01(pend.get("placed", 0) / 3.0)
            b += 1
            if pend["action"] == "reinforce":
                f = pend.get("flipped")
                if isinstance(f, int) and 0 <= f < self.max_party:
                    x[b + f] = 1.0
            b += self.max_party
            if pend["action"] == "loki":
                x[b] = clip01(pend.get("glory_left", 0) / 2.0)
            b += 1
            card = pend.get("card") if pend["action"] == "freya" else None
            if card is not None:
                x[b + kinds[card]] = 1.0
            b += K
            if pend["action"] == "saga":
                opps = pend.get("opponents") or []
                for q in opps:
                    x[b + q] = 1.0
                if opps:
                    x[b + P + opps[0]] = 1.0


def _counts(x: list[float], base: int, index: dict[str, int], slugs, scale: float) -> None:
    """x[base + index[s]] = min(count of s / scale, 1) for each slug s of ``slugs``."""
    counts: dict[str, int] = {}
    for s in slugs:
        counts[s] = counts.get(s, 0) + 1
    for s, n in counts.items():
        x[base + index[s]] = min(n / scale, 1.0)


RED_RISING = RedRisingEncoder()
RED_NORTH = RedNorthEncoder()


def encoder(game: str) -> Encoder:
    """The observation encoder of the title ``game`` (its ``encoder`` part)."""
    enc = title(game).load("encoder") if game in GAMES else None
    if enc is None:
        raise ValueError(f"no observation encoder for game {game!r}")
    return enc
