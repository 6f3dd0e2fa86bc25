"""Every decision kind, every event kind and every card of both titles has its words in English,
Ukrainian and Polish; a new kind or card without them fails, naming what is missing.

The kinds are read from the engines, not listed here: every ``Decision(player, kind, ...)``,
``log(kind, ...)``, ``log_event(kind, ...)`` and ``Event(kind, ...)`` of a rules package, and the
calls of a function that passes one of its parameters on as a kind (``put_on(..., "deploy")``).
A kind that is not a literal is resolved from the engine's own tables (Red North's phases ask
the decisions named after them; its Gods' and Outposts' powers log under their slugs); a kind
the scan can read neither way fails. Not vacuous: the scan finds every kind that random games
of all player counts produce, and a made-up kind or card is reported by name.

The words of a decision kind: the page's prompt (``<rr|rn>.prompt.<kind>``, or its variants
``<kind>_…``) and the line the others see while it is decided (``.wait.``) in each language's
catalog, and the terminal's sentence (the kind is handled in its renderer's ``explain``;
tests/i18n/test_catalogs.py holds the terminal's English sentences to their Ukrainian and
Polish). Of an event kind: the page's log line (``.log.``) and the terminal's ``format_event``.
A card (Red Rising's 112, Red North's card kinds, Gods and Outposts): its name and rules text in
each language's gallery (the texts the terminal and the page both show), the Ukrainian in
Cyrillic and the Polish not the English.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from redtable.core import make_game
from redtable.rednorth import gallery as rn_gallery
from redtable.rednorth import phases
from redtable.rednorth.gods import GODS
from redtable.rednorth.outposts import OUTPOSTS
from redtable.redrising import gallery as rr_gallery
from redtable.redrising.cards import CARDS

ROOT = Path(__file__).resolve().parents[2] / "redtable"
LANGS = ("en", "uk", "pl")
CYRILLIC = re.compile(r"[а-яіїєґ]", re.I)
LOGGERS = {"log": 0, "log_event": 0, "Event": 0}  # callee -> position of the event kind


@dataclass(frozen=True)
class Title:
    game: str
    package: str  # the rules package under redtable/
    web: str  # the page's catalog prefix
    renderer: str  # the terminal's renderer module under redtable/play/
    counts: tuple[int, ...]
    resolve: Callable[[], dict[str, set[str]]]  # a non-literal kind's source -> the kinds it takes


def _red_north_kinds() -> dict[str, set[str]]:
    """Red North's non-literal kinds: a phase's decision is named after it (every phase but the
    end asks one); a God's or Outpost's power whose code logs ``tag`` logs under its slug."""
    tree = ast.parse((ROOT / "rednorth" / "effects.py").read_text())
    logging = {
        c.name
        for c in ast.walk(tree)
        if isinstance(c, ast.ClassDef)
        and any(
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "log_event"
            and n.args
            and isinstance(n.args[0], ast.Name)
            and n.args[0].id == "tag"
            for n in ast.walk(c)
        )
    }
    powers = [(g.slug, g.effect) for g in GODS]
    powers += [(o.slug, e) for o in OUTPOSTS for e in (o.resolution, o.after_deployment) if e is not None]
    tags = {slug for slug, e in powers if any(c.__name__ in logging for c in type(e).__mro__)}
    # ``tag`` in the powers' code, ``slug`` where a turn invokes a God's power with its slug
    return {"PHASE_NAMES[self.phase]": set(phases.PHASE_NAMES[: phases.OVER]), "tag": tags, "slug": tags}


TITLES = [
    Title("red-rising", "redrising", "rr", "render_redrising.py", (2, 3, 4, 5, 6), dict),
    Title("red-north", "rednorth", "rn", "render_rednorth.py", (2, 3, 4), _red_north_kinds),
]


def _callee(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


@dataclass
class Kinds:
    decisions: dict[str, str]  # kind -> where it is made (file:line)
    events: dict[str, str]
    unread: list[str]  # non-literal kinds the scan could not resolve


@cache
def engine_kinds(title: Title) -> Kinds:
    files = {f.name: ast.parse(f.read_text()) for f in sorted((ROOT / title.package).glob("*.py"))}
    # Functions that pass a parameter on as an event kind take a kind at that position too.
    loggers = dict(LOGGERS)
    for tree in files.values():
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            params = [a.arg for a in fn.args.args if a.arg not in ("self", "cls")]
            for n in ast.walk(fn):
                if isinstance(n, ast.Call) and _callee(n) in LOGGERS and n.args and isinstance(n.args[0], ast.Name):
                    if n.args[0].id in params and fn.name not in LOGGERS:
                        loggers[fn.name] = params.index(n.args[0].id)
    resolved = title.resolve()
    found = Kinds({}, {}, [])

    def take(table: dict[str, str], arg: ast.expr, where: str, forwarded: set[str]) -> None:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            table.setdefault(arg.value, where)
        elif ast.unparse(arg) in resolved:
            for k in resolved[ast.unparse(arg)]:
                table.setdefault(k, where)
        elif not (isinstance(arg, ast.Name) and arg.id in forwarded):  # a logger passing its own parameter on
            found.unread.append(f"{where} ({ast.unparse(arg)})")

    for name, tree in files.items():
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.Module)):
                continue
            forwarded = (
                {a.arg for a in fn.args.args} if isinstance(fn, ast.FunctionDef) and fn.name in loggers else set()
            )
            body = (
                fn.body
                if isinstance(fn, ast.FunctionDef)
                else [s for s in fn.body if not isinstance(s, (ast.FunctionDef, ast.ClassDef))]
            )
            for n in (x for s in body for x in ast.walk(s)):
                if not isinstance(n, ast.Call):
                    continue
                where, callee = f"{title.package}/{name}:{n.lineno}", _callee(n)
                if callee == "Decision" and len(n.args) > 1:
                    take(found.decisions, n.args[1], where, set())
                elif callee == "_new_decision" and len(n.args) > 1 and isinstance(n.args[1], ast.Tuple):
                    take(found.decisions, n.args[1].elts[1], where, set())
                elif callee in loggers and len(n.args) > loggers[callee]:
                    take(found.events, n.args[loggers[callee]], where, forwarded)
    found.unread = sorted(set(found.unread))
    return found


@cache
def page_catalog(lang: str) -> frozenset[str]:
    return frozenset(json.loads((ROOT / "web" / "static" / "i18n" / f"{lang}.json").read_text()))


def _handled(title: Title, method: str) -> set[str]:
    """The strings the terminal renderer's ``method`` names (the kinds it has sentences for)."""
    tree = ast.parse((ROOT / "play" / title.renderer).read_text())
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == method)
    return {c.value for c in ast.walk(fn) if isinstance(c, ast.Constant) and isinstance(c.value, str)}


def missing_words(title: Title, decisions, events) -> list[str]:
    """What the decision and event kinds lack: a page catalog key per language, a terminal sentence."""
    out = []

    def page(part: str, kind: str, what: str) -> None:
        key = f"{title.web}.{part}.{kind}"
        for lang in LANGS:
            if not any(k == key or k.startswith(key + "_") for k in page_catalog(lang)):
                out.append(f"{title.game} {what} {kind!r}: no {key} in the page's {lang}.json")

    explained, told = _handled(title, "explain"), _handled(title, "format_event")
    for kind in sorted(decisions):
        page("prompt", kind, "decision")
        page("wait", kind, "decision")
        if kind not in explained:
            out.append(f"{title.game} decision {kind!r}: not in the terminal's {title.renderer} explain")
    for kind in sorted(events):
        page("log", kind, "event")
        if kind not in told:
            out.append(f"{title.game} event {kind!r}: not in the terminal's {title.renderer} format_event")
    return out


def galleries() -> dict[str, dict[str, dict[str, dict]]]:
    """lang -> "what" -> id -> entry, for every card of both titles, enumerated from the engines'
    tables (Red Rising's CARDS; Red North's card kinds, GODS and OUTPOSTS)."""
    out: dict[str, dict[str, dict[str, dict]]] = {}
    for lang in LANGS:
        rr = {e["card"]: e for e in rr_gallery.gallery(lang)}
        rn = rn_gallery.gallery(lang)
        out[lang] = {
            "red-rising card": {c.slug: rr.get(c.slug, {}) for c in CARDS},
            "red-north card": {e["card"]: e for e in rn["kinds"]},
            "red-north God": {e["god"]: e for e in rn["gods"]},
            "red-north Outpost": {e["colour"]: e for e in rn["outposts"]},
        }
    return out


def _texts(entry: dict) -> list[str]:
    return [v for k, v in entry.items() if k in ("text", "deploy", "end_of_game", "end_game_bonus", "block") and v]


def missing_card_words(books) -> list[str]:
    out = []
    for what, cards in books["en"].items():
        for card, en in cards.items():
            for lang in LANGS:
                entry = books[lang][what].get(card, {})
                if not entry.get("name"):
                    out.append(f"{what} {card!r}: no name in {lang}")
                texts = _texts(entry)
                if not texts:
                    out.append(f"{what} {card!r}: no rules text in {lang}")
                elif lang == "uk" and not all(CYRILLIC.search(t) for t in texts):
                    out.append(f"{what} {card!r}: a rules text in English in uk: {texts}")
                elif lang == "pl" and set(texts) & set(_texts(en)):
                    out.append(f"{what} {card!r}: a rules text in English in pl: {texts}")
    return out


@pytest.mark.parametrize("title", TITLES, ids=lambda t: t.game)
def test_the_scan_reads_every_kind_the_engine_makes(title):
    kinds = engine_kinds(title)
    assert not kinds.unread, f"kinds the scan cannot read (make them literals or resolve them here): {kinds.unread}"
    assert len(kinds.decisions) >= 9 and len(kinds.events) >= 20


@pytest.mark.parametrize("title", TITLES, ids=lambda t: t.game)
def test_random_games_make_no_kind_the_scan_missed(title):
    """Not vacuous: whatever kinds random games of every player count produce were found."""
    kinds, seen_d, seen_e = engine_kinds(title), set(), set()
    for players in title.counts:
        for seed in range(6):
            st = make_game(title.game, players).new_initial_state(seed)
            rnd = random.Random(seed)
            while (d := st.decision()) is not None:
                seen_d.add(d.kind)
                st.apply(rnd.choice(d.options))
            seen_e |= {e.kind for e in st.events}
    assert seen_d - set(kinds.decisions) == set() and seen_e - set(kinds.events) == set()
    assert len(seen_d) >= 9 and len(seen_e) >= 20


@pytest.mark.parametrize("title", TITLES, ids=lambda t: t.game)
def test_every_decision_and_event_kind_has_its_words(title):
    kinds = engine_kinds(title)
    assert missing_words(title, kinds.decisions, kinds.events) == []


def test_every_card_god_and_outpost_has_its_words():
    books = galleries()
    assert len(books["en"]["red-rising card"]) == len(CARDS) == 112
    assert len(books["en"]["red-north God"]) == len(GODS) and len(books["en"]["red-north Outpost"]) == len(OUTPOSTS)
    assert missing_card_words(books) == []


def test_a_new_kind_or_card_without_words_is_named():
    """Not vacuous: a made-up kind, and a card whose words are missing or English, are reported."""
    rr, rn = TITLES
    out = missing_words(rr, {"action", "new_choice"}, {"deploy", "new_thing"})
    assert len(out) == 3 + 3 + 1 + 3 + 1 and all("new_choice" in x or "new_thing" in x for x in out), out
    assert any("rr.prompt.new_choice" in x and "uk.json" in x for x in out)
    assert any("render_redrising.py format_event" in x and "new_thing" in x for x in out)
    books = galleries()
    books["uk"]["red-north God"]["thor"] = dict(books["en"]["red-north God"]["thor"])
    books["pl"]["red-rising card"]["arlus"] = {"name": "Arlus"}
    thor = _texts(books["en"]["red-north God"]["thor"])
    assert sorted(missing_card_words(books)) == [
        f"red-north God 'thor': a rules text in English in uk: {thor}",
        "red-rising card 'arlus': no rules text in pl",
    ]
