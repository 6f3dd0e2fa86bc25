"""Checks of untrusted input at the server's edge: game ids, display names, echoed text.

Everything a client sends is bounded and typed before it reaches a game or the storage:
an id that cannot be one of ours is refused before any database query (a NUL byte in an
id once made PostgreSQL fail), a display name is short printable text that cannot pose as
a bot (not even through look-alike letters or separators: ``textrules.py``), hide, overflow
the table or reorder the text around it, and no error message echoes more than
:data:`ECHO_LIMIT` characters of what the client sent.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .errors import ECHO_LIMIT, ApiError, clip  # noqa: F401 - clip, ECHO_LIMIT re-exported
from .textrules import problem, words

NAME_MAX = 24
GAME_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")
# A display name may not read as a bot's label: the table shows bots by these words.
BOT_WORDS = frozenset({"bot", "bots", "robot", "random", "heuristic", "ismcts", "expert"})
# Characters that are invisible or change the direction of the text around them.
_INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def valid_game_id(game_id: Any) -> bool:
    return isinstance(game_id, str) and GAME_ID_RE.fullmatch(game_id) is not None


def check_name(name: Any, field: str = "name") -> str | None:
    """A display name, trimmed, or None; refuses what is not 1-24 plain printable characters."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise ApiError(422, "bad_name", f"{field} must be a string of 1-{NAME_MAX} characters", field=field)
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise ApiError(
            422, "bad_name", f"{field} must be 1-{NAME_MAX} characters long, got {len(name)}", field=field, max=NAME_MAX
        )
    for ch in name:
        cat = unicodedata.category(ch)
        if ch in _INVISIBLE or cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or (cat == "Zs" and ch != " "):
            raise ApiError(
                422,
                "bad_name",
                f"{field} may hold only printable characters and plain spaces (found U+{ord(ch):04X})",
                field=field,
            )
    bad = problem(name)
    if bad is not None:
        raise ApiError(422, "bad_name", f"{field} may not hold {bad}", field=field, reason="characters")
    if words(name) & BOT_WORDS:
        raise ApiError(
            422,
            "bad_name",
            f"{field} may not contain or look like a word the table uses for bots ({', '.join(sorted(BOT_WORDS))})",
            field=field,
        )
    return name
