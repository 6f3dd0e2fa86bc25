"""The words of redtable's e-mails, in en, uk and pl (plain text; ``{name}`` fields filled in)."""

from __future__ import annotations

LANGS = ("en", "uk", "pl")

TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "verify": {
        "en": (
            "Confirm your e-mail address for redtable",
            "Hello {username},\n\nconfirm that this address is yours: open this link (it works once, for 24 hours):\n\n"
            "{link}\n\nIf you did not add this address to a redtable account, ignore this e-mail: "
            "nothing will be sent to it.\n",
        ),
        "uk": (
            "Підтвердьте адресу e-mail для redtable",
            "Вітаємо, {username}!\n\nПідтвердьте, що ця адреса ваша: відкрийте посилання (воно діє один раз, "
            "24 години):\n\n{link}\n\nЯкщо ви не додавали цю адресу до облікового запису redtable, просто "
            "проігноруйте цей лист: на неї нічого не надсилатиметься.\n",
        ),
        "pl": (
            "Potwierdź adres e-mail w redtable",
            "Witaj, {username}!\n\nPotwierdź, że ten adres należy do ciebie: otwórz link (działa raz, przez "
            "24 godziny):\n\n{link}\n\nJeśli ten adres nie został dodany przez ciebie do konta redtable, zignoruj tę "
            "wiadomość: nic nie będzie na niego wysyłane.\n",
        ),
    },
    "reset": {
        "en": (
            "Reset your redtable password",
            "Hello {username},\n\nsomeone (you, we hope) asked to reset the password of your redtable account. "
            "Open this link to choose a new one (it works once, for 30 minutes):\n\n{link}\n\n"
            "A new password signs you out everywhere. If you did not ask, ignore this e-mail: your password "
            "stays as it is.\n",
        ),
        "uk": (
            "Скидання пароля redtable",
            "Вітаємо, {username}!\n\nХтось (сподіваємося, ви) попросив скинути пароль вашого облікового запису "
            "redtable. Відкрийте посилання, щоб вибрати новий (воно діє один раз, 30 хвилин):\n\n{link}\n\n"
            "Новий пароль завершить усі ваші сеанси. Якщо ви цього не просили, проігноруйте лист: пароль "
            "лишиться тим самим.\n",
        ),
        "pl": (
            "Reset hasła w redtable",
            "Witaj, {username}!\n\nKtoś (mamy nadzieję, że ty) poprosił o reset hasła twojego konta redtable. "
            "Otwórz link, aby wybrać nowe (działa raz, przez 30 minut):\n\n{link}\n\n"
            "Nowe hasło wyloguje cię wszędzie. Jeśli to nie ty o nie prosisz, zignoruj tę wiadomość: hasło "
            "pozostanie bez zmian.\n",
        ),
    },
}


def render(kind: str, lang: str, **fields: str) -> tuple[str, str]:
    """The subject and the body of an e-mail of ``kind`` in ``lang`` (English for an unknown one)."""
    texts = TEXTS[kind]
    subject, body = texts.get(lang) or texts["en"]
    return subject.format(**fields), body.format(**fields)
