"""What a name or a chat message may not hold, and what a name may not read as.

Three kinds of text make a table unreadable or let someone pose as what they are not:

* **Invisible** characters: the Unicode *Default_Ignorable_Code_Point* class (format
  characters, variation selectors, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0 and
  the other *Other_Default_Ignorable* ranges of DerivedCoreProperties.txt), plus blanks that
  the standard does not class as ignorable but that render as nothing: the braille blank
  U+2800 and the Khitan filler U+16FE4. A name made of them shows as nobody; one hidden in
  a word defeats the rules below.
* **Oversized** glyphs: characters that render many letters wide and push the table's
  layout apart. The list is the ones known to be drawn as a whole phrase or a long rule:
  the Arabic ligatures of phrases U+FDFA, U+FDFB, U+FDFD; the two- and three-em dashes
  U+2E3A, U+2E3B; the Javanese pada luhur U+A9C5 and its wide punctuation U+A9C1-U+A9C4;
  and the Cuneiform blocks U+12000-U+1254F, whose signs are drawn several ems wide. A
  long run of combining marks on one base (*zalgo*) grows upwards and downwards over the
  lines around it: more than :data:`MARKS_MAX` in a row is refused (no script needs more
  on one letter once NFC has composed what it can).
* **Look-alikes**: a name that *reads* as a bot's label even though its code points differ.
  :func:`skeleton` folds a name to what it looks like, in the spirit of Unicode's UTS #39
  skeleton: NFKC (math alphabets and full-width forms to letters), the confusables data
  of the standard (through ``confusable_homoglyphs``, which ships it: Cyrillic ``о`` to
  ``o``, ``0`` to ``O``), small capitals to their letter, and accents dropped, all in lower
  case. The standard's skeleton is case-sensitive and keeps a few Latin-looking letters
  apart (``т`` is a small capital T there, ``ß`` the prototype of Greek beta): a label
  read at a glance is not, so those are folded too (:data:`EXTRA`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from importlib import resources

MARKS_MAX = 3  # combining marks allowed in a row on one base character

_IGNORABLE_RANGES = (  # Other_Default_Ignorable_Code_Point and Variation_Selector (DerivedCoreProperties.txt)
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2065, 0x2065),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE0FFF),
)
_BLANKS = frozenset({0x2800, 0x16FE4})  # render as nothing, not classed ignorable by the standard
_OVERSIZED_RANGES = (
    (0xFDFA, 0xFDFB),
    (0xFDFD, 0xFDFD),
    (0x2E3A, 0x2E3B),
    (0xA9C1, 0xA9C5),
    (0x12000, 0x1254F),
)
#: Letters a reader takes for a Latin letter that the standard's confusables data folds elsewhere.
EXTRA = {"ß": "b", "β": "b", "ϐ": "b", "в": "b", "т": "t", "н": "h", "к": "k", "м": "m", "п": "n"}


def _in(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def invisible(ch: str) -> bool:
    """A character that shows as nothing (Default_Ignorable_Code_Point, or a blank)."""
    cp = ord(ch)
    if cp == 0xFFF9 or 0xFFFA <= cp <= 0xFFFB or 0x13430 <= cp <= 0x1343F:  # format, but visible (not ignorable)
        return False
    return unicodedata.category(ch) == "Cf" or _in(cp, _IGNORABLE_RANGES) or cp in _BLANKS


def _selector(ch: str) -> bool:
    cp = ord(ch)
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or 0x180B <= cp <= 0x180D or cp == 0x180F


def oversized(ch: str) -> bool:
    return _in(ord(ch), _OVERSIZED_RANGES)


def problem(text: str) -> str | None:
    """What makes ``text`` unfit to show (an invisible filler, an oversized glyph, a run of more
    than MARKS_MAX combining marks), said with the code point; None when it is fine. ``text`` is
    NFC already, and format characters the caller allows (a ZWJ in an emoji) are removed first."""
    run = 0
    prev = ""
    for ch in text:
        if _selector(ch) and prev and not prev.isspace() and not invisible(prev) and not _selector(prev):
            prev = ch  # one variation selector after a visible character picks its glyph (❤️): it shows
            continue
        prev = ch
        if invisible(ch):
            return f"an invisible character (U+{ord(ch):04X}); only characters that show may be used"
        if oversized(ch):
            return f"a glyph drawn many letters wide (U+{ord(ch):04X}); use ordinary letters"
        if unicodedata.category(ch) in ("Mn", "Me"):
            run += 1
            if run > MARKS_MAX:
                return f"more than {MARKS_MAX} combining marks on one letter; at most {MARKS_MAX} are allowed"
        else:
            run = 0
    return None


@cache
def _confusables() -> dict[str, list[str]]:
    """The standard's confusables data as ``confusable_homoglyphs`` ships it: each character
    with the characters it is confusable with (both directions of confusables.txt)."""
    text = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    data = json.loads(text)
    return {k: [h["c"] for h in v] for k, v in data.items()}


@cache
def _fold(ch: str) -> str:
    """One character as the plain lower-case Latin letter or digit it looks like, if any."""
    if ch.isascii():
        ch = {"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}.get(ch, ch)
        return ch.lower()
    if ch in EXTRA or ch.lower() in EXTRA:
        return EXTRA.get(ch) or EXTRA[ch.lower()]
    name = unicodedata.name(ch, "")
    for prefix in ("LATIN LETTER SMALL CAPITAL ", "MODIFIER LETTER SMALL CAPITAL "):
        if name.startswith(prefix) and len(name) == len(prefix) + 1:
            return name[-1].lower()
    data = _confusables()
    for c in (ch, ch.lower(), ch.upper()):
        for h in data.get(c, ()):
            if len(h) == 1 and h.isascii() and h.isalnum():
                return _fold(h)
            if len(h) == 1 and not h.isascii():  # a small capital (т → ᴛ) or the letter's other form
                hn = unicodedata.name(h, "")
                if "SMALL CAPITAL " in hn and len(hn.rsplit(" ", 1)[-1]) == 1:
                    return hn[-1].lower()
    base = unicodedata.normalize("NFD", ch)[0]  # an accented letter: its base
    return base.lower() if base.isascii() else ch.casefold()


def skeleton(text: str) -> str:
    """What ``text`` looks like, folded to lower-case Latin letters where it looks like them;
    combining marks and invisible characters are dropped (see the module's docstring)."""
    out = []
    for ch in unicodedata.normalize("NFKC", text):
        if invisible(ch) or unicodedata.category(ch) in ("Mn", "Me"):
            continue
        out.append(_fold(ch))
    return "".join(out)


def words(text: str) -> set[str]:
    """The words a reader sees in ``text``: its skeleton split at anything not a letter or digit,
    each chunk between spaces also read with its inner separators left out (``b_o_t``,
    ``r.o.b.o.t``), and runs of single letters read together (``b o t``). ``l`` is read as
    ``i`` (the standard folds ``I``, ``1`` and ``l`` together; the bots' words hold no ``l``)."""
    sk = skeleton(text).replace("l", "i")
    out = {w for w in re.split(r"[\W_]+", sk) if w}
    chunks = [re.sub(r"[\W_]+", "", c) for c in sk.split()]
    out |= {c for c in chunks if c}
    run: list[str] = []
    for c in [*chunks, ""]:
        if len(c) == 1:
            run.append(c)
            continue
        if len(run) > 1:
            out.add("".join(run))
        run = []
    return out
