"""Reading a JSON file a user handed to the command line, as a hostile user might write it.

:func:`read_json_file` is the one way the CLI reads user JSON. Every problem becomes a
:class:`JsonFileError` naming the file, what is wrong and what is allowed:

* size: at most ``limit_bytes`` are read, never more than ``limit_bytes + 1`` (so
  ``/dev/zero``, an endless FIFO or a huge file stop at once); a FIFO with no writer reads
  as empty instead of blocking; a directory, a missing or unreadable file is named as such;
* encoding: UTF-8 only (a UTF-8 byte order mark is skipped); a bad byte is located;
* nesting: deeper than ``max_depth`` is refused *before* parsing (the stdlib parser
  recurses in C and raises RecursionError at about 1,000 levels; orjson stops at 1,024 but
  turns integers beyond 64 bits into floats, which is why it is not used here);
* integers longer than :data:`MAX_INT_DIGITS` digits are not converted (``int()`` refuses
  more than 4,300 digits and is quadratic below that) but kept as :class:`LongInt`, so
  that the field's own check can say which field it is and what range it allows;
* duplicate keys in one object and lone UTF-16 surrogates (``"\\ud800"``, which cannot be
  printed) are refused.

``NaN``, ``Infinity`` and ``-Infinity`` decode to floats, as with :func:`json.loads`: a
field that wants an integer refuses them by type. :func:`show` and :func:`clip` render any
echoed input in at most :data:`CLIP_CHARS` characters.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
from collections.abc import Iterable
from itertools import accumulate
from pathlib import Path
from typing import Any

from .errors import RedtableError

MAX_INT_DIGITS = 100
CLIP_CHARS = 200


class JsonFileError(RedtableError):
    """A user's JSON file that cannot be read or decoded; ``str()`` is ``"PATH: problem"``."""

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{clip(self.path)}: {problem}")


class MalformedJson(JsonFileError):
    """Text that is not JSON at all (as opposed to JSON that breaks a limit)."""


class LongInt:
    """An integer literal of more than :data:`MAX_INT_DIGITS` digits, kept as its text.

    Not an ``int`` on purpose: a check ``isinstance(value, int)`` refuses it, and its
    ``repr`` is short ("12345678901234567890... (5000 digits)").
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    @property
    def digits(self) -> int:
        return len(self.text.lstrip("-"))

    @property
    def negative(self) -> bool:
        return self.text.startswith("-")

    def __repr__(self) -> str:
        return f"{self.text[:21]}... ({self.digits} digits)"

    __str__ = __repr__


def clip(text: str, limit: int = CLIP_CHARS) -> str:
    """``text``, or its first ``limit`` characters and how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def quote(text: str, limit: int = CLIP_CHARS) -> str:
    """``repr(text)``, of its first ``limit`` characters when longer (and how long it was)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def show(value: Any, limit: int = CLIP_CHARS) -> str:
    """A value as JSON (ASCII, so always printable), clipped to ``limit`` characters."""
    if isinstance(value, LongInt):
        return repr(value)
    if isinstance(value, str) and len(value) > limit:  # no need to encode a megabyte to show 200 chars
        return f"{json.dumps(value[:limit])[:-1][:limit]}... ({len(value)} characters)"
    try:
        text = json.dumps(value, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return clip(text, limit)


def suggest(word: Any, choices: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` when ``word`` is close to one of ``choices``, else ``""``."""
    if not isinstance(word, str) or len(word) > 100:
        return ""
    hits = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {hits[0]!r}?)" if hits else ""


def size_text(n: int) -> str:
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MB"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10} KB"
    return f"{n} bytes"


# ------------------------------------------------------------------------------ reading


def read_limited(path: str | os.PathLike[str], limit_bytes: int, what: str = "file") -> bytes:
    """The bytes of ``path``, refusing more than ``limit_bytes`` (reading at most one more)."""
    limit = f"the limit for {what} is {size_text(limit_bytes)}"
    try:
        # O_NONBLOCK: opening a FIFO nobody writes to returns at once (and reads as empty)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise JsonFileError(path, "cannot read the file: no such file") from None
    except IsADirectoryError:
        raise JsonFileError(path, f"cannot read the file: it is a directory; expected {what} (a JSON file)") from None
    except PermissionError:
        raise JsonFileError(path, "cannot read the file: permission denied") from None
    except OSError as e:
        raise JsonFileError(path, f"cannot read the file: {e.strerror or e}") from None
    except ValueError:  # an embedded NUL character
        raise JsonFileError(path, "cannot read the file: not a valid file name") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise JsonFileError(path, f"cannot read the file: it is a directory; expected {what} (a JSON file)")
        if stat.S_ISREG(st.st_mode) and st.st_size > limit_bytes:
            raise JsonFileError(path, f"the file is too large ({st.st_size} bytes); {limit}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while total <= limit_bytes:
            chunk = os.read(fd, min(1 << 20, limit_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit_bytes:
            raise JsonFileError(path, f"the file is too large (more than {size_text(limit_bytes)}); {limit}")
        return b"".join(chunks)
    except OSError as e:
        raise JsonFileError(path, f"cannot read the file: {e.strerror or e}") from None
    finally:
        os.close(fd)


def _line_col(text: str | bytes, pos: int) -> str:
    if isinstance(text, str):
        line, last_nl = text.count("\n", 0, pos) + 1, text.rfind("\n", 0, pos)
    else:
        line, last_nl = text.count(b"\n", 0, pos) + 1, text.rfind(b"\n", 0, pos)
    return f"line {line} column {pos - last_nl}"


def decode_utf8(data: bytes, path: str | os.PathLike[str]) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise JsonFileError(
            path, "the file is UTF-16 text (it starts with a UTF-16 byte order mark); JSON files are UTF-8"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JsonFileError(
            path,
            f"the file is not UTF-8 text: byte 0x{data[e.start]:02x} at "
            f"{_line_col(data, e.start)} ({e.reason}); JSON files are UTF-8",
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


# A JSON string, or an unterminated one running to the end. Greedy and unambiguous, so
# a match attempt never backtracks and a scan is linear even on hostile input.
_STRING = r'"[^"\\]*(?:\\.?[^"\\]*)*(?:"|\Z)'
_STRINGS = re.compile(_STRING, re.S)
_TOKENS = re.compile(_STRING + r"|[\[\]{}]", re.S)
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_BYTE_STEP = {ord(k): v for k, v in _STEP.items()}


def check_depth(text: str, max_depth: int, path: str | os.PathLike[str]) -> None:
    """Refuse arrays and objects nested deeper than ``max_depth`` (brackets in strings do not count)."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    brackets = _STRINGS.sub("", text).encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    if max(accumulate(map(_BYTE_STEP.__getitem__, brackets)), default=0) <= max_depth:
        return
    depth = 0
    for m in _TOKENS.finditer(text):  # only now: find where, for the message
        step = _STEP.get(m.group())
        if step is not None:
            depth += step
            if depth > max_depth:
                raise JsonFileError(
                    path,
                    f"JSON nested too deeply: more than {max_depth} levels of "
                    f"arrays and objects at {_line_col(text, m.start())}; "
                    f"at most {max_depth} are allowed",
                )
    raise JsonFileError(path, f"JSON nested more than {max_depth} levels deep; at most {max_depth} are allowed")


class _DuplicateKey(Exception):
    pass


def _parse_int(text: str) -> int | LongInt:
    if len(text) > MAX_INT_DIGITS and len(text.lstrip("-")) > MAX_INT_DIGITS:
        return LongInt(text)
    return int(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(data: Any) -> tuple[str, str] | None:
    """``(where, char)`` of the first string holding a lone surrogate (iterative walk)."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            m = _SURROGATE.search(value)
            if m:
                return where or "the top level", m.group()
        elif isinstance(value, dict):
            for key, v in reversed(list(value.items())):
                inner = f"{where}.{key}" if where else key
                m = _SURROGATE.search(key)
                if m:
                    return f"a key in {where or 'the top-level object'}", m.group()
                stack.append((inner, v))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(value))))
    return None


def parse_json(text: str, path: str | os.PathLike[str], max_depth: int) -> Any:
    """Decode ``text`` (from ``path``) under the rules of :func:`read_json_file`."""
    if not text.strip():
        raise MalformedJson(path, "malformed JSON at line 1 column 1: the file is empty")
    check_depth(text, max_depth, path)
    try:
        data = json.loads(text, parse_int=_parse_int, object_pairs_hook=_object)
    except json.JSONDecodeError as e:
        raise MalformedJson(path, f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    except _DuplicateKey as e:
        raise JsonFileError(path, f"duplicate key {quote(e.args[0])} in an object; each key may appear once") from None
    except RecursionError:  # not expected after check_depth; never a traceback
        raise JsonFileError(path, f"JSON nested too deeply; at most {max_depth} levels are allowed") from None
    if _SURROGATE_ESCAPE.search(text):
        hit = _lone_surrogate(data)
        if hit is not None:
            where, char = hit
            raise JsonFileError(
                path,
                f"{clip(where)}: a string contains \\u{ord(char):04x}, half of a UTF-16 "
                f"surrogate pair, which is not a character",
            )
    return data


def read_json_file(path: str | os.PathLike[str], *, limit_bytes: int, max_depth: int, what: str = "file") -> Any:
    """The decoded JSON in ``path``, or :class:`JsonFileError` saying what is wrong and what is allowed.

    ``what`` names the kind of file in messages ("a saved game"). Integers of more than
    :data:`MAX_INT_DIGITS` digits come back as :class:`LongInt`.
    """
    data = read_limited(Path(path), limit_bytes, what)
    return parse_json(decode_utf8(data, path), path, max_depth)
