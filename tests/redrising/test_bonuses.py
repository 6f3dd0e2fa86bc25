"""Every card's end-game VP clause: a hand where it applies and one where it does not.

Each case scores a real final position through ``score_position`` and reads the card's
own line of the scorepad breakdown (core value + bonus), so the whole path is covered.
"""

from __future__ import annotations

import pytest

from redtable.redrising import bonuses as B
from redtable.redrising.bonuses import BONUSES, ENCODING, bonus_text, has_bonus, refs
from redtable.redrising.cards import CARDS, GRAY, NAME, NUM_CARDS, VALUE, card_index
from redtable.redrising.scoring import FinalPlayer, FinalPosition, score_position

LOCS = ("jupiter", "mars", "luna", "institute")


def ci(name: str) -> int:
    return card_index(name)


def bonus(
    card: str,
    *others: str,
    opp: list[dict] | None = None,
    locations: dict | None = None,
    banished: tuple[str, ...] = (),
    face_down: tuple[str, ...] = (),
    loc_face_down: tuple[str, ...] = (),
    neutral: int = 0,
    as_color: dict | None = None,
    **me,
) -> int:
    """The bonus (card points minus core value) of ``card`` in a hand with ``others``."""
    hand = [ci(card)] + [ci(o) for o in others]
    players = [
        FinalPlayer(
            hand=hand,
            name="me",
            face_down=frozenset(ci(x) for x in face_down),
            as_color={ci(k): v for k, v in as_color.items()} if as_color else None,
            **me,
        )
    ]
    for k, o in enumerate(opp if opp is not None else [{}]):
        players.append(FinalPlayer(hand=[], name=f"opp{k}", **o))
    locations = locations or {}
    pos = FinalPosition(
        players=players,
        locations=tuple([ci(c) for c in locations.get(name, [])] for name in LOCS),
        banished=[ci(b) for b in banished],
        neutral_influence=neutral,
        face_down_on_locations=frozenset(ci(x) for x in loc_face_down),
    )
    s = score_position(pos)[0]
    return s.card_points[NAME[ci(card)]] - VALUE[ci(card)]


FULL = {"jupiter": ["Darrow"], "mars": ["Eo"], "luna": ["Arlus"], "institute": ["Harmony"]}
SIX = ("Banker", "Investor", "Justice", "Martyr", "Hacker", "Auctioneer")

# (card, other cards in hand, keyword arguments, expected bonus)
CASES = [
    # --- Red
    ("Arlus", (), {}, 25),
    ("Arlus", ("Aja",), {}, 0),
    ("Dancer", (), {}, 22),
    ("Dancer", ("Aja",), {}, 11),
    ("Dancer", ("Trigg",), {}, 11),
    ("Dancer", ("Trigg", "Aja"), {}, 0),
    ("Darrow", SIX, {}, 30),  # 7 cards including Darrow
    ("Darrow", SIX[:5], {}, 0),  # 6 cards
    ("Deanna", ("Eo",), {}, 26),
    ("Deanna", (), {}, 0),
    ("Deanna", ("Aja",), {}, 0),
    ("Eo", ("Darrow", "Deanna"), {}, 20),
    ("Eo", (), {}, 0),  # other Reds, not Eo himself
    ("Eo", ("Darrow", "Trigg"), {"as_color": {"Trigg": GRAY}}, 0),  # +10 - 10 (Gray)
    ("Eo", ("Darrow", "Bridge"), {"as_color": {"Bridge": GRAY}}, 10),  # except Bridge
    ("Harmony", ("Darrow", "Calliope", "Modjob", "Ragnar"), {}, 33),
    ("Harmony", (), {}, 33),
    ("Harmony", ("Darrow", "Aja"), {}, 0),
    ("Uncle Narol", ("Darrow", "Deanna", "Reporter"), {}, 40),
    ("Uncle Narol", ("Aja",), {}, 0),
    # --- Brown
    ("Artisan Chef", ("Aja", "Antonia"), {}, 10),
    ("Artisan Chef", ("Darrow",), {}, 0),
    ("Assassin", ("Ragnar", "Sefi"), {}, 20),
    ("Assassin", ("Darrow",), {}, 0),
    ("Gardener", ("Calliope", "Musician"), {}, 10),
    ("Gardener", ("Darrow",), {}, 0),
    ("Janitor", ("Codebreaker", "Hacker", "Orion"), {}, 15),  # rulebook: 2 Green + 1 Blue
    ("Janitor", ("Darrow",), {}, 0),
    ("Mess Hall Cook", ("Trigg", "Cyther"), {}, 10),
    ("Mess Hall Cook", ("Darrow",), {}, 0),
    ("Modjob", (), {}, 5),
    ("Modjob", ("Darrow", "Janitor"), {}, 15),  # including Modjob
    ("Nanny", ("CEO", "Judge", "Timony"), {}, 15),
    ("Nanny", ("Darrow",), {}, 0),
    # --- Pink
    ("Calliope", ("The Jackal",), {}, 20),
    ("Calliope", (), {}, 0),
    ("Conversationalist", ("Judge",), {}, 15),
    ("Conversationalist", ("CEO",), {}, 0),
    ("Evey", ("Darrow",), {}, 15),
    ("Evey", ("Mickey the Carver",), {}, -15),
    ("Evey", ("Darrow", "Mickey the Carver"), {}, 0),
    ("Evey", (), {}, 0),
    ("Garden-trained Rose", ("CEO", "Banker", "Sponsor"), {}, 14),  # binary: 3 Silvers still 14
    ("Garden-trained Rose", (), {}, 0),
    ("Masseuse", ("Timony",), {}, 16),
    ("Masseuse", (), {}, 0),
    ("Matteo", ("Calliope",), {}, 17),
    ("Matteo", ("Quicksilver",), {}, 17),
    ("Matteo", (), {}, 0),
    ("Theodora", ("Aja",), {}, 14),
    ("Theodora", ("Darrow",), {}, 14),
    ("Theodora", ("Aja", "Darrow"), {}, 0),
    ("Theodora", (), {}, 0),
    # --- Violet
    ("4D Painter", ("Darrow", "Aja"), {}, 31),
    ("4D Painter", (), {}, 31),
    ("4D Painter", ("Musician",), {}, 0),  # two Violets (itself included)
    ("Holo Host", (), {"influence": 3, "opp": [{"influence": 2}]}, 18),
    ("Holo Host", (), {"influence": 3, "opp": [{"influence": 3}]}, 18),
    ("Holo Host", (), {"influence": 2, "opp": [{"influence": 3}]}, 0),
    ("Holo Host", (), {"influence": 0, "opp": [{"influence": 0}]}, 0),  # nobody has the most
    ("Holo Host", (), {"influence": 2, "opp": [{"influence": 1}], "neutral": 3}, 0),  # neutral house has more
    ("Mickey the Carver", (), {"banished": ("Darrow",)}, 10),
    ("Mickey the Carver", ("Aja",), {}, 10),
    ("Mickey the Carver", ("Aja",), {"banished": ("Eo", "Darrow")}, 20),
    ("Mickey the Carver", ("Darrow",), {"banished": ("Aja",)}, 0),
    ("Musician", ("Darrow", "Lorn"), {}, 32),
    ("Musician", ("Deanna",), {}, 0),
    ("Reporter", (), {"helium": 3, "opp": [{"helium": 2}]}, 29),
    ("Reporter", (), {"helium": 3, "opp": [{"helium": 3}, {"helium": 1}]}, 29),
    ("Reporter", (), {"helium": 2, "opp": [{"helium": 3}]}, 0),
    ("Vlogger", (), {"fleet": 5, "opp": [{"fleet": 4}]}, 23),
    ("Vlogger", (), {"fleet": 4, "opp": [{"fleet": 5}]}, 0),
    ("Zanzibar", ("Deanna",), {}, 31),
    ("Zanzibar", (), {}, 31),
    ("Zanzibar", ("Darrow",), {}, 0),
    # --- Yellow
    ("Group Counselor", (), {"banished": ("Darrow", "Aja", "Eo")}, -3),
    ("Group Counselor", (), {}, 0),
    ("Pathologist", (), {"banished": ("Darrow", "Aja", "Eo", "Arlus")}, 0),
    ("Pathologist", (), {"banished": ("Darrow", "Aja", "Eo", "Arlus", "Lorn")}, 10),
    ("Pathologist", (), {"banished": tuple(NAME[i] for i in range(60, 69))}, 10),
    ("Pathologist", (), {"banished": tuple(NAME[i] for i in range(60, 70))}, 25),
    ("Researcher", (), {"banished": ("Darrow", "Aja", "Eo", "Arlus")}, 17),
    ("Researcher", (), {"banished": ("Darrow", "Aja", "Eo", "Arlus", "Lorn")}, 0),
    ("Surgeon", ("Aja", "Lorn"), {}, 10),
    ("Surgeon", ("Darrow",), {}, 0),
    # --- Green
    ("Codebreaker", ("Darrow", "Aja"), {}, 22),
    ("Codebreaker", ("Cassius",), {}, 0),  # C and C
    ("Codebreaker", ("The Howlers", "Tactus"), {}, 0),  # "The Howlers" is T
    ("Codebreaker", ("The Howlers", "Sevro"), {}, 22),
    ("Dataport Specialist", ("Orion",), {}, 26),
    ("Dataport Specialist", ("Darrow",), {}, 0),
    ("Developer", (), {"locations": {"jupiter": ["Aja"], "mars": ["Quicksilver", "Darrow"]}}, 15),
    ("Developer", (), {"locations": {"luna": ["Darrow", "Quicksilver"]}}, 40),
    ("Developer", (), {}, 0),
    ("Firewall Expert", (), {"locations": FULL}, 0),
    ("Firewall Expert", (), {"locations": {**FULL, "luna": []}}, 22),  # an empty location
    ("Firewall Expert", (), {"locations": FULL, "loc_face_down": ("Eo",)}, 22),  # a face-down top card
    ("Firewall Expert", (), {"locations": {**FULL, "mars": ["Eo", "Deanna"]}, "loc_face_down": ("Eo",)}, 0),
    ("Holo Designer", ("Musician",), {}, 28),
    ("Holo Designer", ("Darrow",), {}, 0),
    # --- Blue
    ("Invictus", (), {"fleet": 5, "opp": [{"fleet": 3}]}, 16),
    ("Invictus", (), {"fleet": 5, "opp": [{"fleet": 5}]}, 16),
    ("Invictus", (), {"fleet": 3, "opp": [{"fleet": 5}]}, -9),
    ("Invictus", (), {"fleet": 3, "opp": [{"fleet": 2}, {"fleet": 4}]}, -9),
    ("Invictus", (), {"fleet": 0, "opp": [{"fleet": 0}]}, 0),  # nobody has advanced
    ("Morning Star", (), {}, -15),
    ("Morning Star", ("Pelus",), {}, 0),
    ("Morning Star", ("Virga",), {}, 0),
    ("Orion", (), {"fleet": 7}, 7),
    ("Orion", ("The Pax",), {}, 10),
    ("Orion", ("Pax au Telemanus",), {"fleet": 3}, 13),
    ("Orion", (), {}, 0),
    ("Pelus", (), {"fleet": 4}, 0),
    ("Pelus", (), {"fleet": 5}, 20),
    ("Pelus", (), {"fleet": 7}, 20),
    ("Pelus", (), {"fleet": 8}, 35),
    ("Pelus", (), {"fleet": 10}, 35),
    ("Quietus", (), {"influence": 4, "opp": [{"influence": 4}]}, 16),
    ("Quietus", (), {"influence": 3, "opp": [{"influence": 4}]}, 0),
    ("The Pax", ("Sevro",), {}, 15),
    ("The Pax", ("Pelus",), {}, 15),
    ("The Pax", ("Aja",), {}, 0),
    ("Virga", (), {"fleet": 5}, 0),
    ("Virga", (), {"fleet": 6}, 15),
    ("Virga", (), {"fleet": 8}, 15),
    ("Virga", (), {"fleet": 9}, 30),
    ("Virga", (), {"fleet": 10}, 30),
    # --- Orange
    ("Aegis Craftsman", (), {}, 10),
    ("Aegis Craftsman", ("Aja",), {}, 20),
    ("Aegis Craftsman", ("Ragnar",), {}, 0),
    ("Aegis Craftsman", ("Aja", "Ragnar"), {}, 10),
    ("Artificer", ("Cyther", "Aja"), {}, 20),
    ("Artificer", ("Aja",), {}, 0),
    ("Artificer", ("Cyther",), {}, 0),
    ("Cyther", ("Orion",), {}, 16),
    ("Cyther", (), {}, 0),
    ("Gravboot Cobbler", ("Aja",), {}, 14),
    ("Gravboot Cobbler", ("Trigg",), {}, 14),
    ("Gravboot Cobbler", (), {}, 0),
    ("Pulse Armorer", ("Trigg",), {}, 17),
    ("Pulse Armorer", ("Darrow",), {}, 0),
    ("Pulse Fist Engineer", ("Ragnar",), {}, 18),
    ("Pulse Fist Engineer", (), {}, 0),
    ("Razor Designer", ("Aja",), {}, 13),
    ("Razor Designer", ("Aja", "Ragnar"), {}, 0),
    ("Razor Designer", (), {}, 0),
    # --- Gray: "on all locations" counts cards on the board, not in hand
    ("Bridge", ("Calliope",), {"locations": {"mars": ["Calliope", "Musician"], "luna": ["Evey", "Darrow"]}}, 15),
    ("Bridge", ("Calliope",), {"locations": {"mars": ["Darrow"]}}, 0),
    ("Bridge", (), {"locations": {"mars": ["Evey"]}, "loc_face_down": ("Evey",)}, 0),  # face down: no colour
    ("Colonel Valentin", (), {"locations": {"jupiter": ["Aja", "Lorn"], "institute": ["Nero"]}}, 15),
    ("Colonel Valentin", ("Aja",), {}, 0),
    ("Danto", (), {"locations": {"jupiter": ["Timony", "Judge"]}}, 10),
    ("Danto", (), {}, 0),
    ("Holiday", (), {"locations": {"luna": ["Cyther", "Orion", "Darrow"]}}, 10),
    ("Holiday", (), {}, 0),
    ("Sun Hwa", (), {"locations": {"luna": ["Ragnar"], "mars": ["Hacker"]}}, 10),
    ("Sun Hwa", (), {}, 0),
    ("Trigg", (), {"locations": {"luna": ["Danto"], "mars": ["Surgeon"]}}, 10),
    ("Trigg", (), {}, 0),
    ("Ugly Dan", (), {"locations": {"luna": ["Darrow"], "mars": ["Modjob"]}}, 10),
    ("Ugly Dan", (), {}, 0),
    # --- Obsidian
    ("Alfrun", ("Nero",), {}, 10),
    ("Alfrun", ("Nero", "Jopho"), {}, 20),
    ("Alfrun", (), {}, 0),
    ("Alia Snowsparrow", ("Aja", "Trigg", "Ragnar"), {}, 24),
    ("Alia Snowsparrow", ("Aja", "Darrow"), {}, 0),
    ("Helga", ("The Pax",), {}, 16),
    ("Helga", ("Pax au Telemanus",), {}, 16),
    ("Helga", (), {}, 0),
    ("Jopho", ("Alfrun", "Nero"), {}, 20),
    ("Jopho", ("Alfrun",), {}, 10),
    ("Jopho", (), {}, 0),
    ("Ragnar", ("Cyther", "Sefi"), {}, 20),
    ("Ragnar", ("Sefi",), {}, 10),
    ("Ragnar", (), {}, 0),
    ("Sefi", ("Ragnar",), {}, 20),
    ("Sefi", ("Aja", "Lorn"), {}, -10),
    ("Sefi", ("Ragnar", "Aja"), {}, 15),
    ("Sefi", (), {}, 0),
    ("Stained", (), {}, 15),
    ("Stained", ("Darrow",), {}, 15),
    ("Stained", ("Ragnar",), {}, 0),
    # --- Silver
    ("CEO", (), {"helium": 5}, 18),
    ("CEO", (), {"helium": 4}, 0),
    ("Loan Shark", SIX, {}, 7),
    ("Loan Shark", SIX[:5], {}, 0),
    ("Quicksilver", (), {"helium": 3, "opp": [{"helium": 4}]}, -30),
    ("Quicksilver", (), {"helium": 4, "opp": [{"helium": 4}, {"helium": 1}]}, 0),
    ("Sponsor", (), {"influence": 4}, 8),
    ("Sponsor", (), {}, 0),
    ("Stock Broker", (), {"helium": 3}, 15),
    ("Stock Broker", (), {"helium": 5}, 25),
    ("Stock Broker", (), {"helium": 8}, 25),
    ("Stock Broker", (), {}, 0),
    # --- White
    ("Judge", ("Darrow", "Aja", "Eo"), {}, 12),
    ("Judge", (), {}, 3),  # each of your cards, Judge too
    ("Magistrate", (), {"helium": 3, "influence": 3, "fleet": 3}, 15),
    ("Magistrate", (), {"helium": 2, "influence": 3, "fleet": 3}, 0),
    ("Magistrate", (), {"helium": 3, "influence": 2, "fleet": 3}, 0),
    ("Magistrate", (), {"helium": 3, "influence": 3, "fleet": 2}, 0),
    ("Orator", (), {}, 21),
    ("Orator", (), {"sovereign": True}, 0),
    ("Priestess", ("Lorn",), {}, 20),
    ("Priestess", (), {}, 20),
    ("Priestess", ("Aja",), {}, 0),
    ("Seer", (), {"sovereign": True}, 11),
    ("Seer", (), {}, 0),
    # --- Copper
    # Administrator: the printed card rewards the *least* Influence (Politician the most)
    ("Administrator", (), {"influence": 1, "opp": [{"influence": 2}, {"influence": 4}]}, 15),  # the least
    ("Administrator", (), {"influence": 2, "opp": [{"influence": 2}, {"influence": 5}]}, 15),  # tied for it
    ("Administrator", (), {"influence": 5, "opp": [{"influence": 2}]}, 0),  # not the least
    ("Administrator", (), {"influence": 3, "opp": [{"influence": 3}, {"influence": 1}]}, 0),  # tied, not least
    ("Administrator", (), {"influence": 0, "opp": [{"influence": 4}]}, 15),  # 0 tokens: the least
    ("Administrator", (), {"influence": 0, "opp": [{"influence": 0}, {"influence": 3}]}, 15),  # tied at 0
    ("Administrator", (), {"influence": 1, "opp": [{"influence": 0}]}, 0),  # an opponent at 0 has less
    ("Administrator", (), {"influence": 2, "opp": [{"influence": 4}], "neutral": 3}, 15),  # 2p: below the neutral
    ("Administrator", (), {"influence": 3, "opp": [{"influence": 5}], "neutral": 3}, 15),  # tied with the neutral
    ("Administrator", (), {"influence": 4, "opp": [{"influence": 5}], "neutral": 3}, 0),  # the neutral has less
    ("Bondilus", (), {"sovereign": True}, 5),
    ("Bondilus", ("Aja",), {}, 5),
    ("Bondilus", ("Aja",), {"sovereign": True}, 10),
    ("Bondilus", (), {}, 0),
    ("Diplomat", (), {"influence": 3, "opp": [{"influence": 5}, {"influence": 3}]}, 19),
    ("Diplomat", (), {"influence": 3, "opp": [{"influence": 4}]}, 0),
    ("Diplomat", (), {"influence": 3, "opp": [{"influence": 4}], "neutral": 3}, 0),  # the neutral house is no opponent
    ("Lawyer", ("Orator",), {}, 12),
    ("Lawyer", ("Judge",), {}, 22),  # two separate conditions
    ("Lawyer", ("Judge", "Orator"), {}, 34),
    ("Lawyer", ("Darrow",), {}, 0),
    ("Politician", (), {"influence": 5, "opp": [{"influence": 5}]}, 15),
    ("Politician", (), {"influence": 4, "opp": [{"influence": 5}]}, 0),
    ("Timony", (), {"influence": 4}, 12),
    ("Timony", (), {}, 0),
    # --- Gold
    ("Aja", ("Octavia",), {}, 15),
    ("Aja", ("Darrow",), {}, 0),
    ("Antonia", ("The Jackal",), {}, 15),
    ("Antonia", ("Aja", "Lorn"), {}, 15),
    ("Antonia", ("Aja",), {}, 0),
    ("Antonia", ("Victra",), {}, -10),
    ("Antonia", ("The Jackal", "Sevro"), {}, 5),
    ("Ash Lord", ("Orion", "Pelus"), {}, 10),
    ("Ash Lord", (), {"banished": ("Virga",)}, 5),
    ("Ash Lord", ("Orion",), {"banished": ("Virga", "Darrow")}, 10),
    ("Ash Lord", (), {}, 0),
    ("Boneriders", ("The Jackal",), {}, 15),
    ("Boneriders", ("Trigg",), {}, 15),
    ("Boneriders", ("Darrow",), {}, 0),
    ("Cassius", ("Mustang", "Darrow"), {}, 40),
    ("Cassius", ("Darrow",), {}, -20),
    ("Cassius", ("Mustang",), {}, 0),
    ("Fitchner", ("Darrow",), {}, 10),
    ("Fitchner", ("Sevro",), {}, 10),
    ("Fitchner", ("Sevro", "Eo"), {}, 20),
    ("Fitchner", (), {}, 0),
    ("Karnus", ("Cassius",), {}, 30),
    ("Karnus", ("Nero",), {}, -15),
    ("Karnus", ("Cassius", "Mustang"), {}, 15),
    ("Karnus", ("Mustang", "The Jackal"), {}, -15),
    ("Karnus", (), {}, 0),
    ("Lorn", (), {}, 15),
    ("Lorn", ("Darrow",), {}, 15),
    ("Lorn", ("Aja",), {}, 0),
    ("Lysander", (), {"sovereign": True}, 20),
    ("Lysander", ("Octavia",), {}, 20),
    ("Lysander", ("Cassius",), {}, 20),
    ("Lysander", (), {}, 0),
    ("Mustang", ("Darrow", "Eo", "Aja", "Orion"), {}, 15),
    ("Mustang", (), {}, 0),
    ("Nero", (), {"sovereign": True}, 10),
    ("Nero", ("Cassius", "Karnus"), {}, -10),
    ("Nero", ("Cassius", "Karnus", "Octavia"), {"sovereign": True}, -5),
    ("Nero", (), {}, 0),
    ("Octavia", (), {}, -30),
    ("Octavia", (), {"sovereign": True}, 0),
    ("Octavia", ("Lysander",), {}, 0),
    ("Pax au Telemanus", ("Ragnar",), {}, 20),
    ("Pax au Telemanus", ("Mustang",), {}, 20),
    ("Pax au Telemanus", (), {}, 0),
    ("Romulus", ("Orion",), {"sovereign": True}, 15),
    ("Romulus", (), {}, -25),  # without a Blue
    ("Romulus", ("Orion", "Roque"), {}, -25),
    ("Romulus", ("Orion", "Octavia"), {"sovereign": True}, -10),
    ("Romulus", ("Orion",), {}, 0),
    ("Roque", ("Orion", "Virga"), {}, 10),
    ("Roque", (), {}, 0),
    ("Sevro", ("Victra",), {}, 20),
    ("Sevro", ("The Howlers",), {}, 20),
    ("Sevro", ("Eo",), {}, 20),
    ("Sevro", ("Aja",), {}, 0),
    ("Tactus", ("Octavia",), {}, 20),
    ("Tactus", ("Darrow",), {}, 20),
    ("Tactus", ("Calliope",), {}, 20),
    ("Tactus", ("Aja",), {}, 0),
    ("The Howlers", ("Sevro",), {}, 15),
    ("The Howlers", (), {}, 0),
    ("The Jackal", (), {"sovereign": True}, 30),
    ("The Jackal", ("Darrow",), {}, -30),
    ("The Jackal", ("Octavia",), {"sovereign": True}, 0),
    ("The Jackal", (), {}, 0),
    ("The Telemanuses", ("The Pax",), {}, 15),
    ("The Telemanuses", ("Pax au Telemanus",), {}, 15),
    ("The Telemanuses", (), {}, 0),
    ("Victra", ("The Howlers", "Sevro"), {}, 20),
    ("Victra", ("Darrow",), {}, 10),
    ("Victra", ("The Howlers",), {}, 10),
    ("Victra", (), {}, 0),
]


@pytest.mark.parametrize(
    "card,others,kw,expected", CASES, ids=[f"{c}-{'+'.join(o) or 'alone'}-{i}" for i, (c, o, _, _) in enumerate(CASES)]
)
def test_card_bonus(card, others, kw, expected):
    assert bonus(card, *others, **kw) == expected


def test_every_bonus_has_a_case_where_it_applies_and_one_where_it_does_not():
    with_bonus = {c.name for c in CARDS if has_bonus(c.index)}
    assert with_bonus - {c for c, _, _, e in CASES if e != 0} == set()
    # "does not apply": 0, except where the card always counts itself (Modjob, Judge)
    not_applies = {c for c, _, _, e in CASES if e == 0}
    assert with_bonus - not_applies == {"Modjob", "Judge"}
    for card in ("Modjob", "Judge"):
        assert len({e for c, _, _, e in CASES if c == card}) >= 2


NO_BONUS = (
    "Auctioneer",
    "Banker",
    "Dr. Virany",
    "Hacker",
    "Hypnotist",
    "Investor",
    "Justice",
    "Martyr",
    "Online Gambler",
    "Psychologist",
)


@pytest.mark.parametrize("card", NO_BONUS)
def test_cards_without_end_game_bonus_score_their_core_value(card):
    assert not has_bonus(ci(card))
    assert bonus_text(ci(card)) == ""
    assert bonus(card, "Darrow", "Aja", sovereign=True, helium=5, fleet=5, influence=5) == 0


def test_encoding_covers_102_cards_with_primitives_only():
    assert len(ENCODING) == NUM_CARDS - len(NO_BONUS) == 102
    assert all(isinstance(cl, B.Clause) for clauses in BONUSES for cl in clauses)
    assert sum(1 for b in BONUSES if b) == 102


@pytest.mark.parametrize(
    "card,text",
    [
        ("Janitor", "5 VP for each Green, Yellow and Blue."),
        ("Eo", "10 VP for each other Red. -10 VP if with a Gray except Bridge."),
        ("Modjob", "5 VP for each Red and Brown (including Modjob)."),
        ("Morning Star", "-15 VP unless with Orion, Virga, or Pelus."),
        ("Octavia", "-30 VP if you don't have either the Sovereign token or Lysander."),
        ("Lysander", "20 VP if you have the Sovereign token, Octavia, or Cassius."),
        ("Stock Broker", "5 VP for each Helium (max 25 points)."),
        ("Artisan Chef", "5 VP for each Gold. Ignore any lost points from Golds."),
        (
            "Orion",
            "10 VP if with Pax au Telemanus or The Pax. Gain points equal to your position on the Fleet Track (0-10).",
        ),
        ("Developer", "Gain the core value of the top card of any location."),
        ("Lorn", "15 VP if with no other Golds."),
        ("Administrator", "15 VP if you have the least Influence on the Institute (or tied for the least)."),
        ("Politician", "15 VP if you have the most Influence on the Institute (or tied for the most)."),
        ("Stained", "15 VP if this is your only Obsidian."),
        ("Antonia", "15 VP if with The Jackal or 2 other Golds. -10 VP if with Victra or Sevro."),
        ("Razor Designer", "13 VP if with a Gold and no Obsidians."),
        ("Cassius", "40 VP if with both Mustang and Darrow. -20 VP if with Darrow (but not Mustang)."),
        ("Theodora", "14 VP if with a Gold or a Red (but not both)."),
        ("Pelus", "20 VP if your Fleet Track position is 5-7. 35 VP if your Fleet Track position is 8-10."),
        ("Virga", "15 VP if your Fleet Track position is 6-8. 30 VP if your Fleet Track position is 9 or 10."),
        ("Darrow", "30 VP if you have at least 7 cards (including Darrow)."),
        ("Nero", "10 VP if you have the Sovereign token. -5 VP each for Cassius, Karnus and Octavia."),
        ("Romulus", "15 VP if you have the Sovereign token. -25 VP if with Roque or Octavia or without a Blue."),
        ("Bridge", "5 VP for each Pink and Violet on all locations."),
        ("Group Counselor", "-1 VP for each banished card."),
        ("Researcher", "17 VP if there are 4 or fewer banished cards at the beginning of end-game scoring."),
        ("Mickey the Carver", "10 VP if there is at least 1 banished Red. 10 VP if with a Gold."),
        ("Harmony", "33 VP if with only Reds, Pinks, Browns and/or Obsidians."),
        ("Codebreaker", "22 VP if the first letters of the names of your cards are all different."),
        ("Musician", "32 VP if the core value of each of your cards is an even number."),
        ("Uncle Narol", "40 VP if with only cards having core values of 10 points or less."),
        (
            "Magistrate",
            "15 VP if you have at least 3 Helium, at least 3 Influence on the Institute "
            "and your Fleet Track position is at least 3.",
        ),
    ],
)
def test_bonus_text_is_rendered_from_the_encoding(card, text):
    assert bonus_text(ci(card)) == text


def test_every_bonus_renders_one_sentence_per_clause():
    for c in CARDS:
        sentences = B.bonus_clauses_text(c.index)
        assert len(sentences) == len(BONUSES[c.index])
        assert all(s.endswith(".") and "{" not in s for s in sentences)


def test_least_compares_with_every_house_and_counts_zero():
    """Least(resource) by itself: every rival house (the neutral one for Influence, when it
    is in the game), ties and 0 included; compiled and plain evaluations agree."""
    hand = B.Hand.plain([ci("Administrator")])
    cases = [
        (B.Board(influence=0, opp_influence=(0,)), True),  # everyone at 0
        (B.Board(influence=1, opp_influence=(2, 1, 3)), True),
        (B.Board(influence=2, opp_influence=(1,)), False),
        (B.Board(influence=2, opp_influence=(4,), neutral_influence=3), True),
        (B.Board(influence=4, opp_influence=(4,), neutral_influence=3), False),  # the neutral house has less
        (B.Board(influence=4, opp_influence=(5,), neutral_influence=0), True),  # no neutral house
        (B.Board(helium=0, opp_helium=(0, 1)), None),
    ]
    for board, want in cases:
        for cond in (B.Least(B.INFLUENCE), B.Least(B.HELIUM), B.Least(B.FLEET)):
            got = cond.holds(hand, 0, board)
            assert cond.compile()(hand, 0, board) == got
            assert B.Points(15, cond).compile()(hand, 0, board) == B.Points(15, cond).value(hand, 0, board)
        if want is not None:
            assert B.Least(B.INFLUENCE).holds(hand, 0, board) is want, board
    assert B.Least(B.HELIUM).holds(hand, 0, B.Board(helium=0, opp_helium=(0, 1)))
    assert not B.Least(B.FLEET).holds(hand, 0, B.Board(fleet=3, opp_fleet=(2,)))
    assert B.Points(5, B.Least(B.HELIUM)).text(-1) == "5 VP if you have the least Helium (or tied for the least)."
    assert B.Points(5, B.Least(B.FLEET)).text(-1) == (
        "5 VP if you are the least advanced on the Fleet Track (or tied for the least)."
    )
    assert B.Points(-5, B.Unless(B.Least(B.INFLUENCE))).text(-1) == (
        "-5 VP unless you have the least Influence on the Institute (or tied for the least)."
    )


def test_administrator_and_politician_in_one_game():
    """The two Influence Coppers of the printed game are opposites: in one final position
    the player with the least scores Administrator's 15, the one with the most Politician's."""
    low, high = ci("Administrator"), ci("Politician")
    pos = FinalPosition(
        players=[
            FinalPlayer(hand=[low, high], name="low", influence=1),
            FinalPlayer(hand=[low, high], name="high", influence=6),
        ],
        locations=([], [], [], []),
        banished=[],
        neutral_influence=3,
    )
    a, b = score_position(pos)
    assert a.card_points[NAME[low]] - VALUE[low] == 15 and a.card_points[NAME[high]] - VALUE[high] == 0
    assert b.card_points[NAME[low]] - VALUE[low] == 0 and b.card_points[NAME[high]] - VALUE[high] == 15


def test_refs_report_what_a_bonus_looks_for():
    assert refs(ci("Janitor")).colors == B.mask_of(5, 4, 6)  # green, yellow, blue
    assert refs(ci("Evey")).names == {ci("Darrow"), ci("Mickey the Carver")}
    assert refs(ci("Codebreaker")).initials
    assert refs(ci("Mustang")).distinct
    assert refs(ci("Bridge")) == B.Refs()  # reads the board only
    assert refs(ci("Karnus")).negative and not refs(ci("Aja")).negative


def test_initial_is_the_literal_first_letter():
    assert B.initial(ci("The Howlers")) == "T"
    assert B.initial(ci("4D Painter")) == "4"
    assert B.initial(ci("Dr. Virany")) == "D"
