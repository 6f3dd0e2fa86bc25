"""Red North cards as data: five colours, and 11 card kinds (a card is its kind).

Raiders of one colour are identical, so are all Jarls: the engine represents a card by
its *kind*, a small int that indexes the static tables below. Hands and the discard pile
are count vectors indexed by kind; the deck is a list of kinds; a Raiding Party is a list
of slot ints (see :mod:`redtable.rednorth.party`).

Kinds: ``0..4`` the Raiders of each colour, ``5..9`` the Heroes of each colour, ``10``
the Jarl. The player-facing name of a kind (its *slug*) is also the action string that
picks such a card: ``"raider-red"``, ``"hero-blue"``, ``"jarl"``.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("green", "red", "blue", "purple", "yellow")
GREEN, RED, BLUE, PURPLE, YELLOW = range(5)
COLOUR_OF_NAME = {c: i for i, c in enumerate(COLOURS)}
NCOLOURS = 5

RAIDER, HERO, JARL_TYPE = "raider", "hero", "jarl"

# Numbers printed in the rulebook (components and the Raid Point table).
RAIDERS_PER_COLOUR = 11
HEROES_PER_COLOUR = 1
JARLS = 10
JARLS_REMOVED = {2: 4, 3: 2, 4: 0}  # "remove Jarl cards based on player count"
RAIDER_POINTS = 2
HERO_POINTS = 4
JARL_BONUS = 1  # to each adjacent Raider or Hero
CHAMPION_BONUS = 2  # a Jarl carrying the Champion token, instead of JARL_BONUS
GLORY_POINTS = 1  # per Glory token on a card
STARTING_GLORY = 1
STARTING_JARLS = 1
HAND_DEAL = 6
PARTY_SIZE = 3  # cards deployed face down each round
ROUND_VP = (0, 1, 2, 3)  # VP per Outpost by round number (1 Spring, 2 Summer, 3 Ragnarok)
ROUND_NAMES = ("", "spring", "summer", "ragnarok")
SPRING_MUSTER_CARDS = 2
SUMMER_MUSTER_CARDS = 3
ROUNDS = 3

NKINDS = 11
JARL = 10


def raider(colour: int) -> int:
    return colour


def hero(colour: int) -> int:
    return 5 + colour


@dataclass(slots=True, frozen=True)
class CardKind:
    kind: int
    slug: str
    name: str
    type: str  # "raider", "hero" or "jarl"
    colour: int  # -1 for the Jarl
    points: int  # own Raid Points (0 for the Jarl)
    copies: int  # in the box

    @property
    def colour_name(self) -> str | None:
        return COLOURS[self.colour] if self.colour >= 0 else None

    @property
    def text(self) -> str:
        """The card's rules, rendered from the numbers above."""
        if self.type == JARL_TYPE:
            return (
                f"Jarl: adds +{JARL_BONUS} Raid Point to each adjacent Raider or Hero in the "
                f"Raiding Party (+{CHAMPION_BONUS} with the Champion token); not to other Jarls."
            )
        return f"{self.name}: {self.points} Raid Points for {COLOURS[self.colour]}."


def _build() -> tuple[CardKind, ...]:
    out = []
    for c, col in enumerate(COLOURS):
        out.append(
            CardKind(
                raider(c), f"raider-{col}", f"{col.capitalize()} Raider", RAIDER, c, RAIDER_POINTS, RAIDERS_PER_COLOUR
            )
        )
    for c, col in enumerate(COLOURS):
        out.append(
            CardKind(hero(c), f"hero-{col}", f"{col.capitalize()} Hero", HERO, c, HERO_POINTS, HEROES_PER_COLOUR)
        )
    out.append(CardKind(JARL, "jarl", "Jarl", JARL_TYPE, -1, 0, JARLS))
    return tuple(out)


KINDS: tuple[CardKind, ...] = _build()
KIND_SLUG: tuple[str, ...] = tuple(k.slug for k in KINDS)
KIND_OF_SLUG: dict[str, int] = {k.slug: k.kind for k in KINDS}
# Hot-path tables indexed by kind.
KIND_COLOUR: tuple[int, ...] = tuple(k.colour for k in KINDS)
KIND_POINTS: tuple[int, ...] = tuple(k.points for k in KINDS)
IS_RAIDER: tuple[bool, ...] = tuple(k.type == RAIDER for k in KINDS)


def counts_to_slugs(counts: list[int]) -> list[str]:
    """A count vector as a sorted list of slugs (repeated per copy)."""
    out: list[str] = []
    for k, n in enumerate(counts):
        if n:
            out.extend([KIND_SLUG[k]] * n)
    return out


# ---------------------------------------------------------------------------- other languages
# Card kind names and texts in Ukrainian and Polish (no edition of the rulebook in either:
# the web UI's Red North terms, рейдер / герой / ярл, Najeźdźca / Bohater / Jarl), with the
# numbers above in the form each number asks for.
_COLOUR_WORDS = {
    # nominative (masculine), genitive (masculine), instrumental (masculine); the accusative
    # of these animate nouns is the genitive
    "uk": (
        ("Зелений", "зеленого", "зеленим"),
        ("Червоний", "червоного", "червоним"),
        ("Синій", "синього", "синім"),
        ("Фіолетовий", "фіолетового", "фіолетовим"),
        ("Жовтий", "жовтого", "жовтим"),
    ),
    "pl": (
        ("Zielony", "zielonego", "zielonym"),
        ("Czerwony", "czerwonego", "czerwonym"),
        ("Niebieski", "niebieskiego", "niebieskim"),
        ("Fioletowy", "fioletowego", "fioletowym"),
        ("Żółty", "żółtego", "żółtym"),
    ),
}
# A kind's noun in the nominative, genitive, accusative and instrumental: raiders, heroes and
# Jarls are persons, so «додає жовтого рейдера», «z Fioletowym Najeźdźcą».
_KIND_WORDS = {
    "uk": {
        RAIDER: ("рейдер", "рейдера", "рейдера", "рейдером"),
        HERO: ("герой", "героя", "героя", "героєм"),
        JARL_TYPE: ("Ярл", "ярла", "ярла", "ярлом"),
    },
    "pl": {
        RAIDER: ("Najeźdźca", "Najeźdźcy", "Najeźdźcę", "Najeźdźcą"),
        HERO: ("Bohater", "Bohatera", "Bohatera", "Bohaterem"),
        JARL_TYPE: ("Jarl", "Jarla", "Jarla", "Jarlem"),
    },
}
#: The grammatical cases :func:`kind_name` declines a kind's name in.
CASES = ("n", "g", "a", "i")
_POINTS = {
    "uk": ("очко набігу", "очки набігу", "очок набігу"),
    "pl": ("punkt najazdu", "punkty najazdu", "punktów najazdu"),
}
_KIND_TEXT = {
    "uk": (
        "{name}: {n} {points} для {colour} кольору.",
        "Ярл: +{n} {points} кожному сусідньому рейдеру чи герою в загоні (+{champion} з фішкою чемпіона); "
        "іншим ярлам — нічого.",
    ),
    "pl": (
        "{name}: {n} {points} dla koloru {colour}.",
        "Jarl: +{n} {points} dla każdego sąsiedniego Najeźdźcy lub Bohatera w drużynie (+{champion} ze "
        "znacznikiem Czempiona); innym Jarlom nic.",
    ),
}


def _kind_index(kind: int | str) -> int:
    return kind if isinstance(kind, int) else KIND_OF_SLUG[kind]


def kind_name(kind: int | str, lang: str = "en", case: str = "n") -> str:
    """A card kind's name in "en", "uk" or "pl" (the kind is its index or slug), in the
    nominative (``case`` "n"), genitive ("g"), accusative ("a") or instrumental ("i"):
    «Жовтий рейдер», «додає жовтого рейдера», «з фіолетовим рейдером»; «dokłada Czerwonego
    Najeźdźcę», «z Fioletowym Najeźdźcą». Polish keeps the capitals in every case (as its
    card texts write kinds and castes); Ukrainian writes the declined name in lower case.
    English names do not decline."""
    if case not in CASES:
        raise ValueError(f"unknown case {case!r}; choose one of: {', '.join(CASES)}")
    k = KINDS[_kind_index(kind)]
    if lang == "en":
        return k.name
    i = CASES.index(case)
    word = _KIND_WORDS[lang][k.type][i]
    if k.type == JARL_TYPE:
        return word
    colour = _COLOUR_WORDS[lang][k.colour][(0, 1, 1, 2)[i]]
    name = f"{colour} {word}"
    return name[0].upper() + name[1:] if lang == "pl" or case == "n" else name


def kind_text(kind: int | str, lang: str = "en") -> str:
    """A card kind's rules in "en", "uk" or "pl", rendered from the numbers above."""
    k = KINDS[_kind_index(kind)]
    if lang == "en":
        return k.text
    from ..i18n import plural_form

    def points(n: int) -> str:
        return _POINTS[lang][plural_form(n, lang)]

    raider_text, jarl_text = _KIND_TEXT[lang]
    if k.type == JARL_TYPE:
        return jarl_text.format(n=JARL_BONUS, points=points(JARL_BONUS), champion=CHAMPION_BONUS)
    return raider_text.format(
        name=kind_name(k.kind, lang), n=k.points, points=points(k.points), colour=_COLOUR_WORDS[lang][k.colour][1]
    )
