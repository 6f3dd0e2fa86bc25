"""A Ukrainian or Polish player's page shows no English: whole games of both titles played in
real Chromium, the page's visible text (and its tooltips and labels) read at every decision
(prompt, options, menus, board, hand, log, waiting lines), then the end screen, the replay
stepped through, the rules pages with every card's name and text, Gods and Outposts.

Only an allow-list (the title "Red North", the site's name, bot ids) may stay in English.
Ukrainian: no word in Latin letters outside it. Polish is written in Latin letters, so it is
held to the English-only vocabulary: every word of the page's English catalogs and the
English card galleries that no Polish text of the page or the galleries uses (the terminal's
test, tests/play/test_play_no_english.py, does the same for the terminal)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from webkit import CHOICES, READY, create_in_lobby, shot

STATIC = Path(__file__).resolve().parents[2] / "redtable" / "web" / "static"
WORD = re.compile(r"[^\W\d_]{2,}")
# Latin words a Ukrainian page may show: the title, the site's name, bot ids and their presets,
# the language switch's codes and the keys the replay names (Home / End).
ALLOWED = {"red", "north", "redtable", "random", "heuristic", "ismcts", "expert", "en", "uk", "pl", "home", "end"}
NAMES = {"uk": "Оксана", "pl": "Ola"}
# The page's visible text, and the words it shows on hovering or reads aloud.
TEXT = """() => {
  const out = [document.body.innerText];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) { const v = el.getAttribute(a); if (v) out.push(v); }
  }
  return out.join('\\n');
}"""


def _texts(obj) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _texts(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _texts(v)


def _words(texts) -> set[str]:
    prose = (re.sub(r"\{[^}]*\}", " ", t) for t in texts if not re.fullmatch(r"[a-z0-9_.:-]+", t))
    return {w.lower() for t in prose for w in WORD.findall(t)}


def _page_catalogs(lang: str) -> list[str]:
    out = []
    for path in (STATIC / "i18n" / f"{lang}.json", STATIC / "i18n" / "learn" / f"{lang}.json"):
        out += list(_texts(json.loads(path.read_text(encoding="utf-8"))))
    return out


@cache
def english_only() -> frozenset[str]:
    """Words of the page's English catalogs and the English galleries that no Polish text has."""
    from redtable.rednorth.gallery import gallery as rn_gallery
    from redtable.redrising.gallery import gallery as rr_gallery

    def words(lang: str) -> set[str]:
        return _words([*_page_catalogs(lang), *_texts(rr_gallery(lang)), *_texts(rn_gallery(lang))])

    return frozenset(words("en") - words("pl") - ALLOWED)


def english_in(text: str, lang: str) -> dict[str, int]:
    found: dict[str, int] = {}
    text = re.sub(r"\b(?=[0-9a-f]*\d)[0-9a-f]{8,}…?", " ", text)  # a hash (the deal's commitment)
    for w in WORD.findall(text):
        low = w.lower()
        english = bool(re.fullmatch(r"[a-z]+", low)) and low not in ALLOWED if lang == "uk" else low in english_only()
        if english:
            found[w] = found.get(w, 0) + 1
    return found


def play_and_read(page, rnd: random.Random, read: list[str], max_decisions: int = 600) -> int:
    """Click one of the offered choices at random until the end screen shows, reading the
    page before every click and every menu a click opens."""
    n = 0
    misses = 0
    while n < max_decisions:
        page.wait_for_function(READY, timeout=90000)
        read.append(page.evaluate(TEXT))
        if page.query_selector(".overlay .endcard"):
            return n
        els = page.query_selector_all(CHOICES)
        try:
            el = rnd.choice(els)
            if el.get_attribute("data-opener") is not None:
                el.click(timeout=3000)
                page.wait_for_selector(".menu [data-action]", timeout=3000)
                read.append(page.inner_text(".menu"))
                rnd.choice(page.query_selector_all(".menu [data-action]")).click(timeout=3000)
            else:
                el.click(timeout=3000)
        except Exception:  # noqa: BLE001  (the page re-rendered under the click: look again)
            misses += 1
            assert misses < 30, "the offered choices cannot be clicked"
            continue
        misses = 0
        n += 1
    raise AssertionError(f"no end screen after {max_decisions} decisions")


GAMES = [("red-rising", 5), ("red-north", 6)]


@pytest.mark.parametrize("lang", ["uk", "pl"])
@pytest.mark.parametrize("title, seed", GAMES)
def test_no_english_on_the_page_through_a_whole_game(live, new_page, title, seed, lang):
    page = new_page(label=f"{title} {lang}: ", locale={"uk": "uk-UA", "pl": "pl-PL"}[lang])
    read: list[str] = []
    create_in_lobby(page, live.base, title, ["random"], name=NAMES[lang], seed=seed)
    page.wait_for_function("() => location.hash.startsWith('#/game/')")
    gid = page.evaluate("() => location.hash.split('/')[2].split('?')[0]")
    assert page.evaluate("document.documentElement.lang") == lang
    decisions = play_and_read(page, random.Random(seed), read)
    assert decisions > 10
    shot(page, f"no-english-{title}-{lang}-end")
    # the replay, stepped through by decision, and its last step's end screen
    page.goto(f"{live.base}/#/replay/{gid}")
    page.wait_for_selector(".scrubber .range")
    page.click(".replay-turns .mode-decision")
    steps = int(page.get_attribute(".scrubber .range", "max"))
    for step in sorted({*range(0, steps + 1, max(1, steps // 12)), steps}):
        page.fill(".scrubber .range", str(step))
        page.wait_for_timeout(60)
        read.append(page.evaluate(TEXT))
    shot(page, f"no-english-{title}-{lang}-replay")
    # the rules page: every card's name and text, the Gods and Outposts
    page.goto(f"{live.base}/#/rules/{title}")
    page.wait_for_selector(".rules-sec")
    page.wait_for_timeout(300)
    read.append(page.evaluate(TEXT))
    shot(page, f"no-english-{title}-{lang}-rules", full_page=False)
    text = "\n".join(read)
    assert len(text) > 50000, len(text)
    found = english_in(text, lang)
    if found:
        Path(f"/tmp/no-english-{title}-{lang}.txt").write_text(text, encoding="utf-8")
    assert not found, sorted(found.items(), key=lambda x: -x[1])[:40]


def test_the_page_check_sees_english():
    """Not vacuous: the English catalogs and galleries are full of what the check catches."""
    en = "\n".join(_page_catalogs("en"))
    assert len(english_in(en, "uk")) > 500
    caught = english_in(en, "pl")
    assert {"raider", "hero", "glory", "banish", "deploy", "your", "the", "location"} <= {w.lower() for w in caught}
    assert not english_in(re.sub(r"\{[^}]*\}", " ", "\n".join(_page_catalogs("pl"))), "pl")  # placeholders aside


NUMBERS = (1, 2, 5, 11, 21, 22, 25)
# The form each number takes, written out (not computed): Ukrainian 1, 21 one; 2, 22 few;
# 5, 11, 25 many. Polish 1 one; 2, 22 few; 5, 11, 21, 25 many.
EXPECTED = {
    "uk": {1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few", 25: "many"},
    "pl": {1: "one", 2: "few", 5: "many", 11: "many", 21: "many", 22: "few", 25: "many"},
}


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_every_counted_sentence_on_the_page_takes_the_form_of_its_number(live, new_page, lang):
    """Every page sentence with plural forms, rendered by the page's own t() (Intl.PluralRules in
    Chromium) for 1, 2, 5, 11, 21, 22, 25: the form the language gives the number, with the
    number in it; and Chromium's CLDR rules are the terminal's (Babel's, redtable.i18n.plural_form)."""
    from redtable.i18n import plural_form

    catalog = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    plural = {k: v for k, v in catalog.items() if isinstance(v, dict)}
    assert len(plural) >= 40
    page = new_page(label=f"plurals {lang}: ")
    page.goto(live.base + "/#/")
    page.wait_for_selector(".newgame")
    got = page.evaluate(
        """async ({ lang, keys, numbers }) => {
      const i18n = await import('/js/i18n.js');
      await i18n.setLang(lang);
      const rules = new Intl.PluralRules(lang);
      const out = {};
      for (const k of keys) out[k] = numbers.map((n) => i18n.t(k, { n, limit: n, min: 1, max: n, count: n }));
      return { out, rules: numbers.map((n) => rules.select(n)) };
    }""",
        {"lang": lang, "keys": list(plural), "numbers": list(NUMBERS)},
    )
    form_index = {"one": 0, "few": 1, "many": 2}
    assert [form_index[f] for f in got["rules"]] == [plural_form(n, lang) for n in NUMBERS]
    assert got["rules"] == [EXPECTED[lang][n] for n in NUMBERS]
    wrong = []
    for key, forms in plural.items():
        assert {"one", "few", "many"} <= set(forms), key
        for n, text in zip(NUMBERS, got["out"][key], strict=True):
            want = forms[EXPECTED[lang][n]]
            for field, value in {"n": n, "limit": n, "min": 1, "max": n, "count": n}.items():
                want = want.replace("{" + field + "}", str(value))
            counted = re.search(r"\{(n|limit|max|count)\}", forms["one"])
            if text != want or (counted and not re.search(rf"(?<!\d){n}(?!\d)", text)):
                wrong.append(f"{key} {n}: {text!r}, want {want!r}")
    assert not wrong, "\n".join(wrong[:20])
