"""The compiled bonuses (bonuses.compile / BONUS_FNS) score exactly as the clauses they come from.

Each primitive's plain evaluation (``value`` / ``holds`` / ``match``) is the reference;
the fast evaluators are built from the same objects. These tests compare the two on every
card, on random hands that exercise what the fast paths specialise on (Gray extra colours,
renamed Oranges, face-down cards, FRESH names, duplicate names, Artisan Chef's
cancelling), and compare whole scorepads computed both ways.
"""

from __future__ import annotations

import random

import pytest

from redtable.redrising import bonuses as B
from redtable.redrising import scoring
from redtable.redrising.bonuses import (
    BONUS_FNS,
    BONUSES,
    CLAUSE_FNS,
    FRESH,
    Board,
    C,
    Cond,
    Form,
    Hand,
    N,
    Or,
    With,
    hand_bonuses,
    reference_hand_bonuses,
)
from redtable.redrising.cards import COLOR, COLOR_NAMES, GRAY, NUM_CARDS, ORANGE, card_index
from redtable.redrising.scoring import FinalPlayer, FinalPosition, score_position

NCOLORS = len(COLOR_NAMES)
GRAYS = [c for c in range(NUM_CARDS) if COLOR[c] == GRAY]
ORANGES = [c for c in range(NUM_CARDS) if COLOR[c] == ORANGE]
CHEF = card_index("Artisan Chef")


def random_hand(rng: random.Random, must: int | None = None) -> Hand:
    """Cards with the colours and names they might count as after the scorer's choices."""
    cards = rng.sample(range(NUM_CARDS), rng.randint(0, 9))
    if must is not None and must not in cards:
        cards.insert(rng.randrange(len(cards) + 1), must)
    if rng.random() < 0.15 and cards:
        cards.append(rng.choice(cards))  # the same card twice (duplicate names)
    masks, names = [], []
    for c in cards:
        m = 1 << COLOR[c]
        if COLOR[c] == GRAY and rng.random() < 0.6:
            m |= 1 << rng.randrange(NCOLORS)  # a Gray counted as another colour too
        if rng.random() < 0.07:
            m = 0  # face down
        masks.append(m)
        n = c
        if COLOR[c] == ORANGE and rng.random() < 0.6:
            n = FRESH if rng.random() < 0.25 else rng.randrange(NUM_CARDS)
        names.append(n)
    letters = frozenset(rng.sample("ABCDEFGHIJKLMNOPQRSTUVWXYZ", rng.randint(0, 5)))
    return Hand(tuple(cards), tuple(masks), tuple(names), letters)


def random_board(rng: random.Random) -> Board:
    opp = rng.randint(1, 5)
    down = rng.random() < 0.2

    def top():
        r = rng.random()
        return None if r < 0.15 else (rng.randint(0, 60), down and r < 0.3)

    return Board(
        fleet=rng.randint(0, 10),
        helium=rng.randint(0, 9),
        influence=rng.randint(0, 10),
        sovereign=rng.random() < 0.3,
        opp_fleet=tuple(rng.randint(0, 10) for _ in range(opp)),
        opp_helium=tuple(rng.randint(0, 9) for _ in range(opp)),
        opp_influence=tuple(rng.randint(0, 10) for _ in range(opp)),
        neutral_influence=rng.choice([0, 0, 3, 5]),
        location_masks=tuple(
            0 if rng.random() < 0.1 else 1 << rng.randrange(NCOLORS) for _ in range(rng.randint(0, 16))
        ),
        tops=tuple(top() for _ in range(4)),
        banished_masks=tuple(1 << rng.randrange(NCOLORS) for _ in range(rng.randint(0, 14))),
    )


@pytest.mark.parametrize("card", range(NUM_CARDS))
def test_every_compiled_clause_equals_its_reference(card):
    rng = random.Random(1000 + card)
    assert len(CLAUSE_FNS[card]) == len(BONUSES[card])
    for _ in range(150):
        h = random_hand(rng, must=card)
        b = random_board(rng)
        for i, c in enumerate(h.cards):
            if c != card:
                continue
            want = [cl.value(h, i, b) for cl in BONUSES[card]]
            assert [fn(h, i, b) for fn in CLAUSE_FNS[card]] == want, (B.NAME[card], h, i)
            assert BONUS_FNS[card](h, i, b) == sum(want)


def test_compiled_conditions_agree_in_truth_with_their_reference():
    """Conditions compile to truth tests (With, WithNo, Have...), checked by themselves too."""
    rng = random.Random(5)
    conds = []

    def walk(obj):
        if isinstance(obj, Cond):
            conds.append(obj)
        for slot in getattr(type(obj), "__slots__", ()):
            v = getattr(obj, slot, None)
            for x in v if isinstance(v, tuple) else (v,):
                if isinstance(x, (Cond, B.Clause)):
                    walk(x)

    for clauses in BONUSES:
        for cl in clauses:
            walk(cl)
    assert len(conds) > 80
    for _ in range(300):
        h, b = random_hand(rng), random_board(rng)
        for cond in conds:
            test = cond.compile()
            for i in range(len(h.cards)):
                assert bool(test(h, i, b)) == bool(cond.holds(h, i, b)), (cond, h, i)


def test_hand_bonuses_equal_the_reference_including_artisan_chef():
    rng = random.Random(11)
    for k in range(3000):
        h = random_hand(rng, must=CHEF if k % 3 == 0 else None)
        b = random_board(rng)
        assert hand_bonuses(h, b) == reference_hand_bonuses(h, b), h


def test_a_gold_with_lost_points_next_to_artisan_chef():
    # Sefi loses 5 per Gold; Karnus loses 15 with Mustang. With the Chef, Golds' losses are 0.
    cards = tuple(card_index(n) for n in ("Artisan Chef", "Karnus", "Mustang", "Sefi"))
    h = Hand.plain(cards)
    b = Board()
    assert hand_bonuses(h, b) == reference_hand_bonuses(h, b) == [10, 0, 15, -10]


# ------------------------------------------------------------------ selector forms


def test_selector_forms():
    red, gold = C(0), C(13)
    assert red.form() == Form(mask=1)
    darrow = N("Darrow")
    assert darrow.form() == Form(names=frozenset({card_index("Darrow")}))
    both = Or(red, darrow)
    assert both.form() == Form(mask=1, names=frozenset({card_index("Darrow")}))
    but = gold.but_not("Cassius")
    assert but.form() == Form(mask=1 << 13, exclude=frozenset({card_index("Cassius")}))
    nested = Or(but, red)  # an exception inside a union: the general predicate
    assert nested.form().pred is not None


def test_a_new_selector_without_a_form_still_compiles_correctly():
    class EvenValue(B.Sel):
        __slots__ = ()

        def match(self, mask, name):
            return name >= 0 and B.VALUE[name] % 2 == 0

    cond = With(EvenValue())
    rng = random.Random(3)
    test = cond.compile()
    points = cond.compile_points(7)
    for _ in range(200):
        h, b = random_hand(rng), random_board(rng)
        for i in range(len(h.cards)):
            assert test(h, i, b) == cond.holds(h, i, b)
            assert points(h, i, b) == (7 if cond.holds(h, i, b) else 0)


def test_a_subclass_that_changes_the_rule_never_inherits_a_fast_form():
    """WithNo compiles to a specialised loop; a subclass that redefines ``holds`` without
    its own ``compile`` must compile to its own rule, not to WithNo's loop."""

    class WithNoButReversed(B.WithNo):
        __slots__ = ()

        def holds(self, h, i, b):
            return not B.WithNo.holds(self, h, i, b)

    cond = WithNoButReversed(C(0))
    h = Hand.plain([card_index("Deanna"), card_index("Darrow")])
    assert cond.holds(h, 0, Board()) is True
    assert cond.compile()(h, 0, Board()) is True
    assert cond.compile_points(5)(h, 0, Board()) == 5
    assert B.Points(5, cond).compile()(h, 0, Board()) == 5


# ------------------------------------------------------------------ whole scorepads


def random_position(rng: random.Random) -> FinalPosition:
    players = rng.randint(2, 5)
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    ps = []
    for k in range(players):
        cards = [deck.pop() for _ in range(rng.randint(2, 8))]
        if rng.random() < 0.5:
            cards.append(next(c for c in deck if COLOR[c] in (GRAY, ORANGE)))
            deck.remove(cards[-1])
        down = frozenset(c for c in cards if rng.random() < 0.05)
        as_color = {
            c: rng.randrange(NCOLORS) for c in cards if COLOR[c] == GRAY and c not in down and rng.random() < 0.2
        }
        as_name = {c: rng.randrange(NUM_CARDS) for c in cards if COLOR[c] == ORANGE and rng.random() < 0.2}
        ps.append(
            FinalPlayer(
                hand=cards,
                fleet=rng.randint(0, 10),
                helium=rng.randint(0, 8),
                influence=rng.randint(0, 10),
                sovereign=False,
                name=f"p{k}",
                face_down=down,
                as_color=as_color or None,
                as_name=as_name or None,
            )
        )
    ps[rng.randrange(players)].sovereign = True
    locations = tuple([deck.pop() for _ in range(rng.randint(0, 4))] for _ in range(4))
    tops = [loc[-1] for loc in locations if loc]
    return FinalPosition(
        players=ps,
        locations=locations,
        banished=[deck.pop() for _ in range(rng.randint(0, 10))],
        neutral_influence=3 if players == 2 and rng.random() < 0.5 else 0,
        face_down_on_locations=frozenset(t for t in tops if rng.random() < 0.2),
    )


def test_scorepads_are_the_same_through_the_reference_evaluation(monkeypatch):
    rng = random.Random(2024)
    positions = [random_position(rng) for _ in range(150)]
    compiled = [score_position(p) for p in positions]

    # the same scorer, every clause evaluated by the plain reference instead
    reference_clauses = tuple(tuple((cl, cl.refs(), cl.value) for cl in BONUSES[c]) for c in range(NUM_CARDS))
    monkeypatch.setattr(scoring, "_CLAUSES", reference_clauses)
    monkeypatch.setattr(scoring, "hand_bonuses", reference_hand_bonuses)
    reference = [score_position(p) for p in positions]
    assert compiled == reference
    assert any(s.choices["as_color"] or s.choices["as_name"] for ss in compiled for s in ss)


def test_scorepads_of_the_data_files_are_unchanged():
    """The two worked examples in tests/redrising/data score as they always did."""
    from pathlib import Path

    from redtable.redrising.score_cli import load_position

    data = Path(__file__).parent / "data"
    for name in ("two_players.json", "three_players.json"):
        pos = load_position(data / name)
        compiled = score_position(pos)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(
                scoring,
                "_CLAUSES",
                tuple(tuple((cl, cl.refs(), cl.value) for cl in BONUSES[c]) for c in range(NUM_CARDS)),
            )
            mp.setattr(scoring, "hand_bonuses", reference_hand_bonuses)
            assert score_position(pos) == compiled
