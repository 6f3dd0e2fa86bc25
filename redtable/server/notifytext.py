"""The words of notifications (``notices.py``), in en, uk and pl: the e-mails' subjects and
bodies (plain text, ``{name}`` fields filled in), and the footer that names the kind and how to
turn it off. The pushes' words are in ``push.py`` (``TEXTS``).

Fields: ``title`` (the game's title in the language), ``name`` (the seat's name), ``by`` (who
invited or offered), ``link`` (the table), ``settings`` (the account page), ``unsub`` (the
page that turns this kind off), ``games`` (the digest's list, one line each), ``count``.
No e-mail names a card: a fact is a game, a seat and a person, never a hand.
"""

from __future__ import annotations

from .mailtext import LANGS

Texts = dict[str, dict[str, tuple[str, str]]]

TEXTS: Texts = {
    "your_turn": {
        "en": ("{title}: your turn", "{name}, it is your turn in a game of {title}:\n\n{link}\n"),
        "uk": ("{title}: ваш хід", "{name}, ваш хід у грі «{title}»:\n\n{link}\n"),
        "pl": ("{title}: twój ruch", "{name}, twój ruch w grze {title}:\n\n{link}\n"),
    },
    "waiting": {
        "en": ("{title}: the table waits for you", "{name}, a real-time game of {title} waits for you:\n\n{link}\n"),
        "uk": ("{title}: стіл чекає на вас", "{name}, гра «{title}» у реальному часі чекає на вас:\n\n{link}\n"),
        "pl": (
            "{title}: stół czeka na ciebie",
            "{name}, gra {title} w czasie rzeczywistym czeka na ciebie:\n\n{link}\n",
        ),
    },
    "invited": {
        "en": ("{by} invites you to a game of {title}", "{by} invites you to a table of {title}:\n\n{link}\n"),
        "uk": ("{by} запрошує вас до гри «{title}»", "{by} запрошує вас за стіл гри «{title}»:\n\n{link}\n"),
        "pl": ("{by} zaprasza cię do gry {title}", "{by} zaprasza cię do stołu gry {title}:\n\n{link}\n"),
    },
    "rematch_offered": {
        "en": ("{title}: a rematch is offered", "{by} offers a rematch of your game of {title}:\n\n{link}\n"),
        "uk": ("{title}: пропонують реванш", "{by} пропонує реванш у вашій грі «{title}»:\n\n{link}\n"),
        "pl": ("{title}: propozycja rewanżu", "{by} proponuje rewanż w waszej grze {title}:\n\n{link}\n"),
    },
    "table_started": {
        "en": ("{title}: your table has started", "{name}, the table of {title} you joined has started:\n\n{link}\n"),
        "uk": ("{title}: ваш стіл почав гру", "{name}, стіл гри «{title}», за який ви сіли, почав гру:\n\n{link}\n"),
        "pl": (
            "{title}: twój stół wystartował",
            "{name}, gra {title} przy twoim stole się zaczęła:\n\n{link}\n",
        ),
    },
    "digest": {
        "en": ("redtable: games waiting for you", "Games waiting for your move ({count}):\n\n{games}\n"),
        "uk": ("redtable: ігри чекають на вас", "Ігри, що чекають на ваш хід ({count}):\n\n{games}\n"),
        "pl": ("redtable: gry czekają na ciebie", "Gry czekające na twój ruch ({count}):\n\n{games}\n"),
    },
}

#: The footer of every notification e-mail: which kind it is, and how to stop it.
FOOTER = {
    "en": "\n--\nYou get these e-mails because they are on in your settings: {settings}\n"
    "Turn off this kind of e-mail: {unsub}\n",
    "uk": "\n--\nВи отримуєте ці листи, бо їх увімкнено у ваших налаштуваннях: {settings}\n"
    "Вимкнути листи цього виду: {unsub}\n",
    "pl": "\n--\nOtrzymujesz te wiadomości, bo są włączone w twoich ustawieniach: {settings}\n"
    "Wyłącz wiadomości tego rodzaju: {unsub}\n",
}


def render(kind: str, lang: str, **fields: str) -> tuple[str, str]:
    """The subject and the body (with its footer) of a notification e-mail in ``lang`` (else English)."""
    lang = lang if lang in LANGS else "en"
    subject, body = TEXTS[kind][lang]
    return subject.format(**fields), body.format(**fields) + FOOTER[lang].format(**fields)
