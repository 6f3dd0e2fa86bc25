"""The action strings of Red North, precomputed, and the rules text of each action.

Vocabulary (slots and positions count from 0 at the left end of the Party):

=================  ===========================================  ==============================
decision kind      options                                      meaning
=================  ===========================================  ==============================
``deploy``         ``raider-red``, ``hero-blue``, ``jarl`` ...  next card, face down, placed
                                                                to the right of those already
                                                                placed this Deployment
``angleland``      ``keep``, ``give:<seat>``                    red Outpost: First Player token
``sax``            ``skip``, ``raider-<colour>:left|right``     yellow Outpost: a discarded
                                                                Raider face up at an end
``turn``           ``withdraw:<slot>``, ``reinforce:<slot>``,   the Player Actions; the
                   ``inspire:<slot>``, ``promote:<slot>``,      ``reinforce:<slot>`` option
                   ``invoke:<god>``, ``pass:<group>`` or        turns that face-down card up
                   ``pass`` (Ragnarok)                          ``<group>`` = ``hero-<colour>``
                                                                (Spring) or a God (Summer)
``reinforce``      ``<card>:left``, ``<card>:right``            the hand card added face up
``loki``           ``slot:<i>`` (twice)                         where each Glory token goes
``freya``          ``left``, ``right``                          where the drawn card goes
``saga``           ``slot:<i>``                                 which face-down card of the
                                                                opponent in the context flips
``hel``            ``<card>:<pos>``                             a discarded Raider/Jarl
                                                                inserted before slot ``pos``
                                                                (``pos`` = Party size: right end)
=================  ===========================================  ==============================
"""

from __future__ import annotations

from .cards import KIND_SLUG
from .choices import (  # noqa: F401 - re-exported: the whole vocabulary is named from here
    CARD_END,
    CARD_END_OF,
    CARD_POS,
    CARD_POS_OF,
    ENDS,
    GIVE,
    GIVE_OF,
    HEL_KINDS,
    KEEP,
    LEFT,
    MAX_SLOTS,
    RAIDER_KINDS,
    RIGHT,
    SKIP,
    SLOT,
    SLOT_OF,
)
from .gods import GODS

# Turn options.
OP_WITHDRAW, OP_REINFORCE, OP_INSPIRE, OP_PROMOTE, OP_INVOKE, OP_PASS = range(6)
WITHDRAW = tuple(f"withdraw:{i}" for i in range(MAX_SLOTS))
REINFORCE = tuple(f"reinforce:{i}" for i in range(MAX_SLOTS))
INSPIRE = tuple(f"inspire:{i}" for i in range(MAX_SLOTS))
PROMOTE = tuple(f"promote:{i}" for i in range(MAX_SLOTS))
INVOKE = tuple(f"invoke:{g.slug}" for g in GODS)
PASS = "pass"
GOD_HEAD = 16  # a Summer Muster Group's head is GOD_HEAD + god index; a Spring one is a Hero kind


def group_slug(head: int) -> str:
    return KIND_SLUG[head] if head < GOD_HEAD else GODS[head - GOD_HEAD].slug


PASS_GROUP = {h: f"pass:{group_slug(h)}" for h in [*range(5, 10), *range(GOD_HEAD, GOD_HEAD + len(GODS))]}

TURN_OPS: dict[str, tuple[int, int]] = {}
for _i in range(MAX_SLOTS):
    TURN_OPS[WITHDRAW[_i]] = (OP_WITHDRAW, _i)
    TURN_OPS[REINFORCE[_i]] = (OP_REINFORCE, _i)
    TURN_OPS[INSPIRE[_i]] = (OP_INSPIRE, _i)
    TURN_OPS[PROMOTE[_i]] = (OP_PROMOTE, _i)
for _g in GODS:
    TURN_OPS[INVOKE[_g.index]] = (OP_INVOKE, _g.index)
TURN_OPS[PASS] = (OP_PASS, -1)
for _h, _s in PASS_GROUP.items():
    TURN_OPS[_s] = (OP_PASS, _h)

# Rules text of the actions (rendered by describe()).
ACTION_TEXT = {
    "withdraw": "Return a face-down card from your Raiding Party to your hand; the gap closes.",
    "reinforce": "Turn one face-down card in your Raiding Party face-up, then add one card from "
    "your hand face-up to either end of your Party.",
    "inspire": "Place 1 Glory token on a face-up Raider or Hero in your Party (+1 Raid Point for its colour).",
    "promote": "Place the Champion token on a face-up Jarl in your Party: it adds +2 Raid Points "
    "to each adjacent Raider or Hero.",
    "invoke": "Use the special ability of your God (once per game, Ragnarok only), then discard it.",
    "pass": "Take one of the remaining Muster Groups into your hand; you take no further actions this round.",
    "deploy": "Place this card face-down as the next card (left to right) of your Raiding Party.",
}
#: The same texts in Ukrainian and Polish, in the web UI's Red North terms (the rules page,
#: the terminal and the page's hints all read them here).
ACTION_TEXTS: dict[str, dict[str, str]] = {
    "en": ACTION_TEXT,
    "uk": {
        "withdraw": "Поверніть карту, що лежить долілиць у вашому загоні набігу, собі на руку; прогалина закривається.",
        "reinforce": "Переверніть горілиць одну карту вашого загону набігу, що лежить долілиць, потім "
        "додайте одну карту з руки горілиць на будь-який край загону.",
        "inspire": "Покладіть 1 фішку слави на рейдера чи героя вашого загону, що лежить горілиць (+1 очко "
        "набігу для його кольору).",
        "promote": "Покладіть фішку чемпіона на ярла вашого загону, що лежить горілиць: він додає +2 очки "
        "набігу кожному сусідньому рейдеру чи герою.",
        "invoke": "Застосуйте особливу властивість вашого бога (один раз за гру, лише в Рагнарок), потім скиньте його.",
        "pass": "Візьміть собі на руку одну з груп збору, що залишилися; до кінця раунду ви більше не виконуєте дій.",
        "deploy": "Покладіть цю карту долілиць наступною (зліва направо) у ваш загін набігу.",
    },
    "pl": {
        "withdraw": "Weź zakrytą kartę ze swojej drużyny najazdu z powrotem na rękę; luka się zamyka.",
        "reinforce": "Odkryj jedną zakrytą kartę swojej drużyny najazdu, a potem dołóż jedną kartę z ręki "
        "odkrytą na dowolny koniec drużyny.",
        "inspire": "Połóż 1 znacznik Chwały na odkrytym Najeźdźcy lub Bohaterze swojej drużyny (+1 punkt "
        "najazdu dla jego koloru).",
        "promote": "Połóż znacznik Czempiona na odkrytym Jarlu swojej drużyny: dodaje on +2 punkty najazdu "
        "każdemu sąsiedniemu Najeźdźcy lub Bohaterowi.",
        "invoke": "Użyj specjalnej zdolności swojego Boga (raz na grę, tylko w Ragnaroku), a potem go odrzuć.",
        "pass": "Weź na rękę jedną z pozostałych grup werbunkowych; do końca rundy nie wykonujesz już akcji.",
        "deploy": "Połóż tę kartę zakrytą jako następną (od lewej do prawej) w swojej drużynie najazdu.",
    },
}


def action_text(action: str, lang: str = "en") -> str:
    """An action's rules text in "en", "uk" or "pl" (``action``: withdraw, reinforce, ...)."""
    if lang not in ACTION_TEXTS:
        raise ValueError(f"unknown language {lang!r}; choose one of: en, uk, pl")
    return ACTION_TEXTS[lang][action]
