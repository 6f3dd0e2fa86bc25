"""The 112 Red Rising characters: name, colour (caste) and core value.

Abilities and end-game bonuses are encoded in their own modules (``bonuses``,
``abilities``) from the same card indices. A card is an int 0..111 in the engine's
hot path; :data:`CARDS` maps it to its facts.
"""

from __future__ import annotations

from dataclasses import dataclass

# Colours (castes), low to high in the Society.
RED, BROWN, PINK, VIOLET, YELLOW, GREEN, BLUE, ORANGE, GRAY, OBSIDIAN, SILVER, WHITE, COPPER, GOLD = range(14)
COLORLESS = -1  # a face-down card (Firewall Expert) has no colour
COLOR_NAMES = (
    "red",
    "brown",
    "pink",
    "violet",
    "yellow",
    "green",
    "blue",
    "orange",
    "gray",
    "obsidian",
    "silver",
    "white",
    "copper",
    "gold",
)
COLOR_OF_NAME = {n: i for i, n in enumerate(COLOR_NAMES)}


@dataclass(slots=True, frozen=True)
class Card:
    index: int
    slug: str
    name: str
    color: int
    value: int

    @property
    def color_name(self) -> str:
        return COLOR_NAMES[self.color]


_DATA = (
    ("arlus", "Arlus", RED, 10),
    ("dancer", "Dancer", RED, 8),
    ("darrow", "Darrow", RED, 10),
    ("deanna", "Deanna", RED, 9),
    ("eo", "Eo", RED, 10),
    ("harmony", "Harmony", RED, 7),
    ("uncle-narol", "Uncle Narol", RED, 10),
    ("artisan-chef", "Artisan Chef", BROWN, 10),
    ("assassin", "Assassin", BROWN, 5),
    ("gardener", "Gardener", BROWN, 10),
    ("janitor", "Janitor", BROWN, 10),
    ("mess-hall-cook", "Mess Hall Cook", BROWN, 10),
    ("modjob", "Modjob", BROWN, 10),
    ("nanny", "Nanny", BROWN, 10),
    ("calliope", "Calliope", PINK, 15),
    ("conversationalist", "Conversationalist", PINK, 15),
    ("evey", "Evey", PINK, 15),
    ("garden-trained-rose", "Garden-trained Rose", PINK, 16),
    ("masseuse", "Masseuse", PINK, 14),
    ("matteo", "Matteo", PINK, 13),
    ("theodora", "Theodora", PINK, 16),
    ("4d-painter", "4D Painter", VIOLET, 9),
    ("holo-host", "Holo Host", VIOLET, 12),
    ("mickey-the-carver", "Mickey the Carver", VIOLET, 15),
    ("musician", "Musician", VIOLET, 8),
    ("reporter", "Reporter", VIOLET, 6),
    ("vlogger", "Vlogger", VIOLET, 7),
    ("zanzibar", "Zanzibar", VIOLET, 9),
    ("dr-virany", "Dr. Virany", YELLOW, 9),
    ("group-counselor", "Group Counselor", YELLOW, 35),
    ("hypnotist", "Hypnotist", YELLOW, 15),
    ("pathologist", "Pathologist", YELLOW, 5),
    ("psychologist", "Psychologist", YELLOW, 20),
    ("researcher", "Researcher", YELLOW, 13),
    ("surgeon", "Surgeon", YELLOW, 0),
    ("codebreaker", "Codebreaker", GREEN, 8),
    ("dataport-specialist", "Dataport Specialist", GREEN, 9),
    ("developer", "Developer", GREEN, 9),
    ("firewall-expert", "Firewall Expert", GREEN, 13),
    ("hacker", "Hacker", GREEN, 15),
    ("holo-designer", "Holo Designer", GREEN, 7),
    ("online-gambler", "Online Gambler", GREEN, 7),
    ("invictus", "Invictus", BLUE, 19),
    ("morning-star", "Morning Star", BLUE, 35),
    ("orion", "Orion", BLUE, 18),
    ("pelus", "Pelus", BLUE, 5),
    ("quietus", "Quietus", BLUE, 14),
    ("the-pax", "The Pax", BLUE, 20),
    ("virga", "Virga", BLUE, 10),
    ("aegis-craftsman", "Aegis Craftsman", ORANGE, 15),
    ("artificer", "Artificer", ORANGE, 10),
    ("cyther", "Cyther", ORANGE, 14),
    ("gravboot-cobbler", "Gravboot Cobbler", ORANGE, 16),
    ("pulse-armorer", "Pulse Armorer", ORANGE, 13),
    ("pulse-fist-engineer", "Pulse Fist Engineer", ORANGE, 12),
    ("razor-designer", "Razor Designer", ORANGE, 17),
    ("bridge", "Bridge", GRAY, 15),
    ("colonel-valentin", "Colonel Valentin", GRAY, 10),
    ("danto", "Danto", GRAY, 10),
    ("holiday", "Holiday", GRAY, 15),
    ("sun-hwa", "Sun Hwa", GRAY, 15),
    ("trigg", "Trigg", GRAY, 15),
    ("ugly-dan", "Ugly Dan", GRAY, 20),
    ("alfrun", "Alfrun", OBSIDIAN, 10),
    ("alia-snowsparrow", "Alia Snowsparrow", OBSIDIAN, 16),
    ("helga", "Helga", OBSIDIAN, 14),
    ("jopho", "Jopho", OBSIDIAN, 10),
    ("ragnar", "Ragnar", OBSIDIAN, 20),
    ("sefi", "Sefi", OBSIDIAN, 20),
    ("stained", "Stained", OBSIDIAN, 15),
    ("banker", "Banker", SILVER, 10),
    ("ceo", "CEO", SILVER, 12),
    ("investor", "Investor", SILVER, 15),
    ("loan-shark", "Loan Shark", SILVER, 13),
    ("quicksilver", "Quicksilver", SILVER, 40),
    ("sponsor", "Sponsor", SILVER, 20),
    ("stock-broker", "Stock Broker", SILVER, 10),
    ("judge", "Judge", WHITE, 10),
    ("justice", "Justice", WHITE, 15),
    ("magistrate", "Magistrate", WHITE, 20),
    ("martyr", "Martyr", WHITE, 15),
    ("orator", "Orator", WHITE, 19),
    ("priestess", "Priestess", WHITE, 20),
    ("seer", "Seer", WHITE, 19),
    ("administrator", "Administrator", COPPER, 15),
    ("auctioneer", "Auctioneer", COPPER, 12),
    ("bondilus", "Bondilus", COPPER, 20),
    ("diplomat", "Diplomat", COPPER, 16),
    ("lawyer", "Lawyer", COPPER, 13),
    ("politician", "Politician", COPPER, 15),
    ("timony", "Timony", COPPER, 10),
    ("aja", "Aja", GOLD, 15),
    ("antonia", "Antonia", GOLD, 15),
    ("ash-lord", "Ash Lord", GOLD, 25),
    ("boneriders", "Boneriders", GOLD, 15),
    ("cassius", "Cassius", GOLD, 25),
    ("fitchner", "Fitchner", GOLD, 25),
    ("karnus", "Karnus", GOLD, 15),
    ("lorn", "Lorn", GOLD, 20),
    ("lysander", "Lysander", GOLD, 10),
    ("mustang", "Mustang", GOLD, 20),
    ("nero", "Nero", GOLD, 25),
    ("octavia", "Octavia", GOLD, 30),
    ("pax-au-telemanus", "Pax au Telemanus", GOLD, 15),
    ("romulus", "Romulus", GOLD, 25),
    ("roque", "Roque", GOLD, 20),
    ("sevro", "Sevro", GOLD, 15),
    ("tactus", "Tactus", GOLD, 20),
    ("the-howlers", "The Howlers", GOLD, 20),
    ("the-jackal", "The Jackal", GOLD, 10),
    ("the-telemanuses", "The Telemanuses", GOLD, 20),
    ("victra", "Victra", GOLD, 20),
)

CARDS: tuple[Card, ...] = tuple(Card(i, s, n, c, v) for i, (s, n, c, v) in enumerate(_DATA))
NUM_CARDS = len(CARDS)
COLOR = tuple(c.color for c in CARDS)
VALUE = tuple(c.value for c in CARDS)
NAME = tuple(c.name for c in CARDS)
SLUG = tuple(c.slug for c in CARDS)
BY_SLUG = {c.slug: c.index for c in CARDS}
_BY_LOWER_NAME = {c.name.lower(): c.index for c in CARDS}


def card_index(name: str) -> int:
    """A card by its printed name or slug, case-insensitively; KeyError if unknown."""
    key = name.strip().lower()
    if key in _BY_LOWER_NAME:
        return _BY_LOWER_NAME[key]
    if key in BY_SLUG:
        return BY_SLUG[key]
    raise KeyError(name)


def close_names(name: str, n: int = 3) -> list[str]:
    """Printed names close to ``name``, for error messages."""
    import difflib

    low = name.strip().lower()
    hits = difflib.get_close_matches(low, list(_BY_LOWER_NAME), n=n, cutoff=0.5)
    return [NAME[_BY_LOWER_NAME[h]] for h in hits]


def by_name(name: str) -> int:
    return card_index(name)
