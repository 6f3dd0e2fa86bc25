"""The eight Gods (Summer Muster Groups; invoked once, in Ragnarok).

Each God is data: its slug (the action string ``invoke:<slug>`` and ``pass:<slug>``), its
name, and its power as printed. The engine's behaviour for each power lives in
:mod:`redtable.rednorth.game` (``_invoke_*``), keyed by the same index; the numbers used
by both (cards drawn, Glory, VP) are the constants here, so the text cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass

THOR, LOKI, ODIN, FREYA, NORNIR, TYR, SAGA, HEL = range(8)
NGODS = 8

LOKI_GLORY = 2
ODIN_VP = 2
FREYA_DRAW = 1
TYR_DRAW = 4


@dataclass(slots=True, frozen=True)
class God:
    index: int
    slug: str
    name: str
    text: str


GODS: tuple[God, ...] = (
    God(THOR, "thor", "Thor",
        "Retrieve the Hero card discarded as part of the leftover Muster Group at the end of "
        "the Spring round, and add it to your hand."),
    God(LOKI, "loki", "Loki",
        f"Take {LOKI_GLORY} Glory tokens from the supply and immediately place them on any cards "
        "in your Party, face-up or face-down. Glory tokens may not be placed on Jarls."),
    God(ODIN, "odin", "Odin", f"Gain {ODIN_VP} VP."),
    God(FREYA, "freya", "Freya",
        f"Draw {FREYA_DRAW} card from the deck, look at it secretly, and place it face-down at "
        "either end of your Raiding Party."),
    God(NORNIR, "nornir", "Nornir",
        "Retrieve all Glory tokens from all cards in your Raiding Party. You may replay them "
        "later this round individually, as regular actions."),
    God(TYR, "tyr", "Tyr", f"Draw {TYR_DRAW} cards from the deck and add them to your hand."),
    God(SAGA, "saga", "Saga",
        "Turn 1 card of your choice in each opponent's Raiding Party face-up. Skip players who "
        "have no face-down cards in their Party."),
    God(HEL, "hel", "Hel",
        "Search the discard pile for any 1 Jarl or Raider card and place it face-up anywhere in "
        "your Raiding Party, even between other cards."),
)
GOD_OF_SLUG = {g.slug: g.index for g in GODS}


# ---------------------------------------------------------------------------- other languages
# The Red North rulebook has no Ukrainian or Polish edition: the names are the gods' usual
# names in each language, the texts careful translations using the web UI's Red North terms
# (загін / drużyna, слава / Chwała, ярл / Jarl...). Counted words take the number's plural
# form (one / few / many); the numbers are the constants above.
GOD_NAMES = {
    "uk": ("Тор", "Локі", "Одін", "Фрейя", "Норни", "Тюр", "Сага", "Хель"),
    "pl": ("Thor", "Loki", "Odyn", "Freja", "Norny", "Tyr", "Saga", "Hel"),
}
_GOD_TEXTS = {
    "uk": (
        ("Заберіть карту героя, відкладену разом із незатребуваною групою збору наприкінці весняного "
         "раунду, і додайте її собі на руку.",),
        ("Візьміть {n} фішку слави із запасу й одразу покладіть її на будь-яку карту вашого загону, горілиць "
         "чи долілиць. Фішки слави не можна класти на ярлів.",
         "Візьміть {n} фішки слави із запасу й одразу покладіть їх на будь-які карти вашого загону, горілиць "
         "чи долілиць. Фішки слави не можна класти на ярлів.",
         "Візьміть {n} фішок слави із запасу й одразу покладіть їх на будь-які карти вашого загону, горілиць "
         "чи долілиць. Фішки слави не можна класти на ярлів."),
        ("Отримайте {n} ПО.",),
        ("Візьміть {n} карту з колоди, таємно подивіться на неї й покладіть її долілиць на будь-який край "
         "вашого загону.",
         "Візьміть {n} карти з колоди, таємно подивіться на них і покладіть їх долілиць на будь-який край "
         "вашого загону.",
         "Візьміть {n} карт з колоди, таємно подивіться на них і покладіть їх долілиць на будь-який край "
         "вашого загону."),
        ("Заберіть усі фішки слави з усіх карт вашого загону. Пізніше в цьому раунді ви можете знову "
         "викладати їх по одній звичайними діями.",),
        ("Візьміть {n} карту з колоди й додайте її собі на руку.",
         "Візьміть {n} карти з колоди й додайте їх собі на руку.",
         "Візьміть {n} карт з колоди й додайте їх собі на руку."),
        ("Переверніть горілиць по 1 карті на ваш вибір у загоні кожного суперника. Пропустіть гравців, у "
         "загоні яких немає карт долілиць.",),
        ("Знайдіть у скиді будь-яку 1 карту ярла чи рейдера й покладіть її горілиць будь-де у вашому "
         "загоні, навіть між іншими картами.",),
    ),
    "pl": (
        ("Odzyskaj kartę Bohatera odrzuconą wraz z nieodebraną grupą werbunkową na koniec rundy Wiosny i "
         "dodaj ją do ręki.",),
        ("Weź {n} znacznik Chwały z zasobów i od razu połóż go na dowolnej karcie swojej drużyny, odkrytej "
         "lub zakrytej. Znaczników Chwały nie można kłaść na Jarlach.",
         "Weź {n} znaczniki Chwały z zasobów i od razu połóż je na dowolnych kartach swojej drużyny, "
         "odkrytych lub zakrytych. Znaczników Chwały nie można kłaść na Jarlach.",
         "Weź {n} znaczników Chwały z zasobów i od razu połóż je na dowolnych kartach swojej drużyny, "
         "odkrytych lub zakrytych. Znaczników Chwały nie można kłaść na Jarlach."),
        ("Zyskaj {n} PZ.",),
        ("Dobierz {n} kartę z talii, obejrzyj ją w tajemnicy i połóż ją zakrytą na dowolnym końcu swojej "
         "drużyny.",
         "Dobierz {n} karty z talii, obejrzyj je w tajemnicy i połóż je zakryte na dowolnym końcu swojej "
         "drużyny.",
         "Dobierz {n} kart z talii, obejrzyj je w tajemnicy i połóż je zakryte na dowolnym końcu swojej "
         "drużyny."),
        ("Zabierz wszystkie znaczniki Chwały ze wszystkich kart swojej drużyny. Później w tej rundzie możesz "
         "je ponownie kłaść pojedynczo jako zwykłe akcje.",),
        ("Dobierz {n} kartę z talii na rękę.", "Dobierz {n} karty z talii na rękę.",
         "Dobierz {n} kart z talii na rękę."),
        ("Odkryj po 1 wybranej karcie w drużynie każdego przeciwnika. Pomiń graczy, którzy nie mają w "
         "drużynie zakrytych kart.",),
        ("Przeszukaj odrzucone karty, weź dowolnego 1 Jarla lub Najeźdźcę i połóż go odkrytego w dowolnym "
         "miejscu swojej drużyny, nawet między innymi kartami.",),
    ),
}
_GOD_NUMBERS = (None, LOKI_GLORY, ODIN_VP, FREYA_DRAW, None, TYR_DRAW, None, None)


def _god_index(god: int | str) -> int:
    return god if isinstance(god, int) else GOD_OF_SLUG[god]


def god_name(god: int | str, lang: str = "en") -> str:
    """A God's name in "en", "uk" or "pl" (the God is its index or slug)."""
    i = _god_index(god)
    return GODS[i].name if lang == "en" else GOD_NAMES[lang][i]


def god_text(god: int | str, lang: str = "en") -> str:
    """A God's power in "en", "uk" or "pl", its number in the form the number asks for."""
    i = _god_index(god)
    if lang == "en":
        return GODS[i].text
    from ..i18n import plural_form

    forms, n = _GOD_TEXTS[lang][i], _GOD_NUMBERS[i]
    if n is None:
        return forms[0]
    return forms[min(plural_form(n, lang), len(forms) - 1)].format(n=n)
