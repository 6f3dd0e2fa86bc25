"""The five Outposts: colour, name, when their power acts, and its text.

The rulebook says each Outpost adds its *printed* Raid Points to its controller's strength
in its colour but never prints the numbers. They are data: :data:`DEFAULT_OUTPOST_POINTS`
(1 for every Outpost: a small defender's edge that a single Raider still beats) and the
game option ``outpost_points`` (an int for all five, or a ``{colour: int}`` mapping).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import BLUE, COLOURS, GREEN, PURPLE, RED, YELLOW

DEFAULT_OUTPOST_POINTS = 1
MAX_OUTPOST_POINTS = 9
PURPLE_DRAW = 2

# When an Outpost's power acts.
AFTER_DEPLOYMENT = "after-deployment"   # red, yellow: "Activate Outpost Powers"
RESOLUTION_D = "resolution-d"           # green, blue, red token, purple cards


@dataclass(slots=True, frozen=True)
class Outpost:
    colour: int
    name: str
    timing: tuple[str, ...]
    text: str

    @property
    def colour_name(self) -> str:
        return COLOURS[self.colour]


OUTPOSTS: tuple[Outpost, ...] = (
    Outpost(GREEN, "Vinland", (RESOLUTION_D,),
            "In the Resolution phase, after Outposts are awarded, take the Tie Breaker token. "
            "The Tie Breaker player wins all ties they are part of, including final victory."),
    Outpost(RED, "Angleland", (RESOLUTION_D, AFTER_DEPLOYMENT),
            "In the Resolution phase, after Outposts are awarded, take the First Player token. "
            "After Deployment, give the First Player token to a player of your choice, or keep it."),
    Outpost(BLUE, "Rus", (RESOLUTION_D,),
            "In the Resolution phase, after Outposts are awarded, take the Champion token. During "
            "the Player Actions phase of the following round, as an action (Promote), you may "
            "place it on a face-up Jarl: that Jarl adds +2 to each adjacent Raider or Hero."),
    Outpost(PURPLE, "Frankenland", (RESOLUTION_D,),
            f"In the Resolution phase, after Outposts are awarded, draw {PURPLE_DRAW} additional "
            "cards from the deck to your hand."),
    Outpost(YELLOW, "Sax", (AFTER_DEPLOYMENT,),
            "After Deployment, you may select 1 Raider card from the discard pile and add it "
            "face-up to either side of your Raiding Party, before the First Player's first action."),
)


# ---------------------------------------------------------------------------- other languages
# No Ukrainian or Polish edition of the Red North rulebook: the names are the lands' names
# in each language (Ukrainian keeps the game's Norse-style names), the texts careful
# translations in the web UI's Red North terms. Numbers are the constants above.
OUTPOST_NAMES = {
    "uk": ("Вінланд", "Англеланд", "Русь", "Франкенланд", "Сакс"),
    "pl": ("Winlandia", "Anglia", "Ruś", "Frankia", "Saksonia"),
}
_RES_UK = "У фазі розв'язки, після розподілу форпостів, "
_RES_PL = "W fazie Rozstrzygnięcia, po przyznaniu placówek, "
_OUTPOST_TEXTS = {
    "uk": (
        (_RES_UK + "візьміть фішку тайбрейкера. Власник тайбрейкера виграє всі нічиї, в яких бере участь, "
         "зокрема й фінальну перемогу.",),
        (_RES_UK + "візьміть фішку першого гравця. Після розгортання віддайте фішку першого гравця будь-кому "
         "на ваш вибір або залиште її собі.",),
        (_RES_UK + "візьміть фішку чемпіона. Під час дій гравців наступного раунду ви можете дією «Підвищити» "
         "покласти її на ярла, що лежить горілиць: цей ярл додає +{bonus} кожному сусідньому рейдеру чи герою.",),
        (_RES_UK + "візьміть {n} додаткову карту з колоди собі на руку.",
         _RES_UK + "візьміть {n} додаткові карти з колоди собі на руку.",
         _RES_UK + "візьміть {n} додаткових карт з колоди собі на руку."),
        ("Після розгортання можете взяти 1 карту рейдера зі скиду й додати її горілиць на будь-який край "
         "вашого загону до першої дії першого гравця.",),
    ),
    "pl": (
        (_RES_PL + "weź znacznik Rozjemcy. Rozjemca wygrywa wszystkie remisy, w których bierze udział, także "
         "o zwycięstwo w grze.",),
        (_RES_PL + "weź znacznik pierwszego gracza. Po Rozstawieniu przekaż znacznik pierwszego gracza "
         "wybranemu graczowi albo go zatrzymaj.",),
        (_RES_PL + "weź znacznik Czempiona. W akcjach graczy następnej rundy możesz akcją Awansuj położyć go "
         "na odkrytym Jarlu: ten Jarl dodaje +{bonus} każdemu sąsiedniemu Najeźdźcy lub Bohaterowi.",),
        (_RES_PL + "dobierz z talii {n} dodatkową kartę na rękę.",
         _RES_PL + "dobierz z talii {n} dodatkowe karty na rękę.",
         _RES_PL + "dobierz z talii {n} dodatkowych kart na rękę."),
        ("Po Rozstawieniu możesz wziąć 1 kartę Najeźdźcy spośród odrzuconych i dołożyć ją odkrytą na "
         "dowolny koniec swojej drużyny przed pierwszą akcją pierwszego gracza.",),
    ),
}


def _outpost_index(outpost: int | str) -> int:
    from .cards import COLOUR_OF_NAME

    return outpost if isinstance(outpost, int) else COLOUR_OF_NAME[outpost]


def outpost_name(outpost: int | str, lang: str = "en") -> str:
    """An Outpost's name in "en", "uk" or "pl" (the Outpost is its colour index or name)."""
    i = _outpost_index(outpost)
    return OUTPOSTS[i].name if lang == "en" else OUTPOST_NAMES[lang][i]


def outpost_text(outpost: int | str, lang: str = "en") -> str:
    """An Outpost's power in "en", "uk" or "pl"."""
    i = _outpost_index(outpost)
    if lang == "en":
        return OUTPOSTS[i].text
    from ..i18n import plural_form
    from .cards import CHAMPION_BONUS

    forms = _OUTPOST_TEXTS[lang][i]
    n = PURPLE_DRAW if len(forms) > 1 else 0
    return forms[min(plural_form(n, lang), len(forms) - 1)].format(n=n, bonus=CHAMPION_BONUS)
