"""The words the page says, in English, Ukrainian and Polish: every decision's prompt, option
labels and the line the other players read while it is decided, every event's log line,
every error code the server can send, the score calculator's defaults and suggestions.

The prompts and log lines are rendered by the page's own modules (rr.js, rn.js) in real
Chromium from decisions and events of random games played here by the engines, so every
decision kind and event kind of both titles goes through the words the players read.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from webkit import http, shot

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "redtable" / "web" / "static"
LANGS = ("en", "uk", "pl")
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def catalog(lang: str) -> dict:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


# ====================================================================== error codes
# Where the server names a refusal: ApiError(status, "code", ...), {"error": "code", ...},
# routes.py's _error(status, "code", ...), a code chosen in a variable, and app.py's status map.
CODE_PATTERNS = (
    r'ApiError\(\s*\d+\s*,\s*"([a-z_]+)"',
    r'"error"\s*:\s*"([a-z_]+)"',
    r'_error\(\s*\d+\s*,\s*"([a-z_]+)"',
    r'\bcode\s*=\s*"([a-z_]+)"(?:\s+if\s+[^\n]*?\s+else\s+"([a-z_]+)")?',
    r'\b\d{3}\s*:\s*"([a-z_]+)"',
    r'status_code,\s*"([a-z_]+)"\)',
)
# Codes the page makes itself (api.js: the network is down; an HTTP error without a body).
PAGE_CODES = {"network", "http_error"}


def server_error_codes() -> dict[str, set[str]]:
    """Every error code the server can send, with the files that send it."""
    files = sorted((ROOT / "redtable" / "server").glob("*.py")) + [ROOT / "redtable" / "web" / "routes.py"]
    found: dict[str, set[str]] = {}
    for f in files:
        text = f.read_text(encoding="utf-8")
        for pat in CODE_PATTERNS:
            for m in re.finditer(pat, text):
                for code in m.groups():
                    if code:
                        found.setdefault(code, set()).add(f.name)
    return found


def test_the_scan_finds_the_server_codes():
    codes = server_error_codes()
    assert len(codes) >= 35, sorted(codes)
    for code in (
        "not_your_turn",
        "stale_version",
        "bad_name",
        "rate_limited",
        "too_large",
        "unknown_language",
        "internal_error",
        "malformed",
        "auth_required",
        "http_error",
    ):
        assert code in codes


def test_every_error_code_has_words_in_every_language():
    codes = set(server_error_codes()) | PAGE_CODES
    params = {
        "status",
        "request_id",
        "message",
        "n",
        "limit",
        "max",
        "min",
        "option",
        "until",
        "reason",
    }  # api.js errorParams
    cats = {lang: catalog(lang) for lang in LANGS}
    for code in sorted(codes):
        key = "err." + code
        for lang in LANGS:
            assert key in cats[lang], f"{key} missing in {lang}.json"
            value = json.dumps(cats[lang][key], ensure_ascii=False)
            assert set(re.findall(r"\{(\w+)\}", value)) <= params, (key, lang, value)
        if code not in ("network",):
            assert cats["uk"][key] != cats["en"][key] and cats["pl"][key] != cats["en"][key], key


def test_refused_names_carry_their_reason():
    """errors.py adds the facts a translation needs and the raiser left in the text."""
    from redtable.server.errors import ApiError
    from redtable.server.validate import check_name

    reasons = {}
    for name in ("x" * 40, "a\u200bb", "Robot Rob", 7):
        with pytest.raises(ApiError) as e:
            check_name(name)
        reasons[repr(name)[:6]] = (e.value.body()["reason"], e.value.body().get("max"))
    assert sorted(reasons.values(), key=str) == sorted(
        [("length", 24), ("characters", None), ("bot_word", None), ("length", 24)], key=str
    )
    assert ApiError(409, "seat_taken", "seat 2 was taken; its player can sign out other devices").body()["seat"] == 2
    body = ApiError(
        429, "too_many_games", "your address already has 9 unfinished games here (at most 8); finish"
    ).body()
    assert body["limit"] == 8


def test_errors_are_shown_in_the_players_language(live, new_page, console):
    console.allow("status of 422", "status of 404")
    uk, pl = catalog("uk"), catalog("pl")
    # Ukrainian: a name the server refuses on the join page
    g = http("POST", f"{live.base}/api/games", {"game": "red-north", "seats": [{"type": "human"}, {"type": "human"}]})[
        1
    ]
    page = new_page(label="uk: ", locale="uk-UA")
    page.goto(live.base + g["seats"][1]["invite_url"])
    page.wait_for_selector("#join-name")
    page.fill("#join-name", "Robot Rob")
    page.click(".join-btn")
    page.wait_for_selector(".join-error")
    text = page.inner_text(".join-error")
    assert uk["err.bad_name.bot_word"] in text, text
    assert "may not" not in text
    shot(page, "words-error-uk")
    # past the field's own limit (a script could send it): the server's limit is named in Ukrainian
    page.evaluate("() => document.querySelector('#join-name').removeAttribute('maxlength')")
    page.fill("#join-name", "Я" * 30)
    page.click(".join-btn")
    page.wait_for_function(
        "(t) => { const e = document.querySelector('.join-error'); return !!e && e.innerText.includes(t); }",
        arg=uk["err.bad_name.length"].replace("{max}", "24"),
    )
    # Polish: the lobby refuses the creator's name, and an unknown game
    page = new_page(label="pl: ", locale="pl-PL")
    page.goto(live.base + "/#/")
    page.wait_for_selector(".newgame .create")
    page.fill('.seat-row[data-seat="0"] .seat-name', "Ann the bot")
    page.click(".create")
    page.wait_for_selector(".newgame .form-error")
    assert pl["err.bad_name.bot_word"] in page.inner_text(".form-error")
    shot(page, "words-error-pl")
    page.goto(live.base + "/#/game/nosuchgame1")
    page.wait_for_selector(".board .error")
    assert page.inner_text(".board .error") == pl["err.unknown_game"]
    # the page's own reading of bodies: parameters and plural forms
    got = page.evaluate("""async () => {
        const api = await import('/js/api.js');
        return [api.errorText({error: 'too_large', limit: 2, message: 'x'}, 413),
                api.errorText({error: 'rate_limited', retry_after: 3}, 429),
                api.errorText({error: 'a_code_nobody_knows', message: 'the server says so'}, 409),
                api.errorText({error: 'malformed', message: "'version' must be an integer"}, 422)];
    }""")
    assert got[0] == pl["err.too_large"]["few"].replace("{limit}", "2")
    assert got[1] == pl["err.rate_limited"].replace("{n}", "3")
    assert got[2] == "the server says so"  # an unknown code: the server's own words
    assert got[3] == pl["err.malformed"].replace("{message}", "'version' must be an integer")


# ====================================================================== prompts, options, waiting lines, log
def option_shape(o: str) -> str:
    """What kind of thing an option is (a card, a place, a seat, a word), for sampling."""
    if re.fullmatch(r"p\d", o):
        return "seat"
    if re.fullmatch(r"(jupiter|mars|luna|institute):\d+", o):
        return "pos"
    if o.startswith("block:"):
        return "block"
    if re.fullmatch(r"[a-z]+:\d+", o):
        return o.split(":")[0] + ":i"
    if re.fullmatch(r"[a-z-]+:(left|right)", o):
        return "card:end"
    if re.fullmatch(r"[a-z-]+:\d+", o):
        return "card:pos"
    if "-" in o or len(o) > 12:
        return "card"
    return o


def samples(title: str, counts: tuple[int, ...], seeds: range, per_shape: int = 2, per_kind: int = 10):
    """Decisions (with the decider's view and another seat's view) and events of random games:
    of every decision kind a few of each option shape (at most ``per_kind``), every event kind
    with each of its sets of fields."""
    from redtable.core import make_game

    decisions, events, seen, by_kind, ev_seen = [], [], {}, {}, {}
    for players in counts:
        for seed in seeds:
            st = make_game(title, players).new_initial_state(seed)
            rnd = random.Random(seed)
            while (d := st.decision()) is not None:
                shape = (
                    d.kind,
                    tuple(sorted({option_shape(o) for o in d.options})),
                    "say" in d.context,
                    d.context.get("card") if "say" in d.context else None,
                )
                if seen.get(shape, 0) < per_shape and by_kind.get(d.kind, 0) < per_kind:
                    seen[shape] = seen.get(shape, 0) + 1
                    by_kind[d.kind] = by_kind.get(d.kind, 0) + 1
                    other = (d.player + 1) % players
                    decisions.append(
                        {
                            "decision": d.to_json(),
                            "view": st.view(d.player),
                            "other": other,
                            "other_view": st.view(other),
                        }
                    )
                st.apply(rnd.choice(d.options))
            for e in st.events:
                key = (e.kind, tuple(sorted(e.data)), str(e.data.get("source")), bool(e.data.get("out_of_order_turn")))
                if ev_seen.get(key, 0) < 2:
                    ev_seen[key] = ev_seen.get(key, 0) + 1
                    events.append(e.to_json())
    return decisions, events, st.view(0)


RENDER_ALL = """async ({ title, decisions, events, endView, lang, names }) => {
  const i18n = await import('/js/i18n.js');
  await i18n.setLang(lang);
  i18n.missing.clear();
  const api = await import('/js/api.js');
  const R = (await import(title === 'red-rising' ? '/js/rr.js' : '/js/rn.js')).default;
  const cards = await api.cardData(title);
  const seats = names.map((n) => ({ type: 'human', name: n, connected: true }));
  const mk = (view, decision, me) => {
    const ctx = { renderer: R, cards, view, decision, me, seats, game: title, gameId: 'words', status: 'active',
      readOnly: false, events: [], final: null, seatColors: ['#888'],
      name: (s) => (s === null || s === undefined || s < 0 ? '—' : names[s]), color: () => '#888',
      isMe: (s) => s === me };
    return ctx;
  };
  const out = [];
  for (const s of decisions) {
    const d = s.decision;
    const ctx = mk(s.view, d, d.player);
    out.push({ where: `prompt ${d.kind}`, text: R.promptText(ctx, d) });
    for (const o of d.options) out.push({ where: `option ${d.kind} ${o}`, text: R.optionLabel(ctx, d, o) });
    const pub = { player: d.player, kind: d.kind };
    out.push({ where: `waiting ${d.kind}`, text: R.waitingText(mk(s.other_view, pub, s.other), pub) });
  }
  for (const e of events) {
    const line = R.logLine(mk(endView, null, 0), e);
    if (line) out.push({ where: `log ${e.kind}`, text: line.text });
  }
  return { out, missing: [...i18n.missing] };
}"""

# English words that must not show in a Ukrainian or Polish sentence (names aside).
ENGLISH = re.compile(
    r"\b(the|and|your|you|from|with|choose|gain|gains|deploy|deploys|card|cards|banish|"
    r"place|places|reveal|player|turn|skip|don't|none|location|deck)\b",
    re.I,
)
ARTIFACTS = re.compile(
    r"undefined|null|NaN|\[object|[{}]|\bNone\b|\bP\d\b|\bp\d\b|\bblock:|"
    r"\b(jupiter|mars|luna|institute):\d|\b(withdraw|reinforce|inspire|promote|invoke|pass|give|slot):"
)


def check_rendered(title: str, lang: str, result: dict, slugs: set[str], english: dict | None) -> list[str]:
    problems = []
    if result["missing"]:
        problems.append(f"keys missing in {lang}: {sorted(result['missing'])[:8]}")
    for i, item in enumerate(result["out"]):
        text, where = item["text"], item["where"]
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{where}: empty ({text!r})")
            continue
        if ARTIFACTS.search(text):
            problems.append(f"{where}: artifact in {text!r}")
        for slug in slugs:
            if re.search(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", text):
                problems.append(f"{where}: raw id {slug!r} in {text!r}")
        if lang != "en":
            if ENGLISH.search(text):
                problems.append(f"{where}: English in {text!r}")
            en = english["out"][i]["text"] if english else None
            if en == text and re.search(r"[a-z]{4,}", text) and not where.startswith(("option", "log hand")):
                problems.append(f"{where}: the same as in English: {text!r}")
    return problems


@pytest.mark.parametrize(
    "title, counts, seeds",
    [
        ("red-rising", (2, 4, 6), range(4)),
        ("red-north", (2, 3, 4), range(3)),
    ],
)
def test_prompts_options_waiting_lines_and_log_in_every_language(live, new_page, title, counts, seeds):
    decisions, events, end_view = samples(title, counts, seeds)
    kinds = {d["decision"]["kind"] for d in decisions}
    ev_kinds = {e["kind"] for e in events}
    if title == "red-rising":
        assert {"action", "may", "gain", "block", "choose_card", "banish_from_hand", "choose_one"} <= kinds, kinds
        assert {"deploy", "gain", "banish", "count", "move", "block", "place"} <= ev_kinds, ev_kinds
    else:
        assert {"deploy", "turn", "reinforce"} <= kinds and {"resolution", "pass", "deployed"} <= ev_kinds
    prefix = "rr" if title == "red-rising" else "rn"
    for lang in LANGS:  # every kind has its own waiting line (not the generic one)
        assert not [k for k in kinds if f"{prefix}.wait.{k}" not in catalog(lang)], lang
    page = new_page(label=f"{title} words: ")
    page.goto(live.base + "/#/")
    page.wait_for_selector(".newgame")
    slugs = set(
        page.evaluate(
            "async (t) => ((await (await import('/js/api.js')).cardData(t)) || {}).cards?.map((c) => c.card) || []",
            title,
        )
    )
    slugs |= {"raider-green", "hero-blue", "jarl"} if title == "red-north" else set()
    slugs = {s for s in slugs if "-" in s}
    arg = {"title": title, "decisions": decisions, "events": events, "endView": end_view, "names": NAMES}
    results = {lang: page.evaluate(RENDER_ALL, {**arg, "lang": lang}) for lang in LANGS}
    if os.environ.get("REDTABLE_WORDS_DUMP"):  # to read every rendered line: REDTABLE_WORDS_DUMP=dir
        out = Path(os.environ["REDTABLE_WORDS_DUMP"])
        out.mkdir(parents=True, exist_ok=True)
        rows = zip(*(results[lang]["out"] for lang in LANGS), strict=True)
        (out / f"{title}.txt").write_text(
            "\n".join(" | ".join([r[0]["where"]] + [x["text"] for x in r]) for r in rows), encoding="utf-8"
        )
    problems = []
    for lang in LANGS:
        problems += check_rendered(title, lang, results[lang], slugs, results["en"] if lang != "en" else None)
    assert not problems, f"{len(problems)} problems, e.g.:\n" + "\n".join(problems[:25])
    # the words a card gives reach the buttons: no bare "Yes"/"No"/"None" for a card's "may"
    en = results["en"]["out"]
    may_labels = [x["text"] for x in en if x["where"].startswith("option may ")]
    if title == "red-rising":
        assert may_labels and not {"Yes", "No", "None", "Skip"} & set(may_labels), may_labels[:6]
        assert any(t.startswith("Don't ") for t in may_labels)


def test_a_cards_question_reads_with_the_cards_words(live, new_page):
    """Hand-built decisions: Bridge's "may" about Sevro, Martyr's end-of-game gain from Mars,
    Mickey the Carver's optional banish of a Red, in all three languages; and what the others read."""
    from redtable.redrising.cards import card_index
    from redtable.redrising.rules import DEPLOY, END_OF_GAME
    from redtable.redrising.words import say

    def find(n, k):
        if isinstance(n, tuple):
            if n and n[0] == k:
                return n
            for x in n:
                r = find(x, k)
                if r:
                    return r
        return None

    from redtable.redrising import abilities  # noqa: F401  (registers the encodings)

    may = find(DEPLOY[card_index("bridge")], "may")
    martyr = find(END_OF_GAME[card_index("martyr")], "choose_card")
    mickey = find(DEPLOY[card_index("mickey-the-carver")], "lowcaste_may_banish_from_hand")
    cases = [
        ("may", "bridge", say(may, card_index("sevro"), 1, "may"), ["yes", "no"]),
        ("choose_card", "martyr", say(martyr, None, 1, ""), ["mars:0"]),
        ("banish_from_hand", "mickey-the-carver", say(mickey, None, 2, "none"), ["darrow", "none"]),
    ]
    from redtable.core import make_game

    view = make_game("red-rising", 2).new_initial_state(1).view(0)
    view["locations"]["mars"] = [{"card": "sevro", "name": "Sevro", "color": "gold", "value": 15}]
    page = new_page(label="card words: ")
    page.goto(live.base + "/#/")
    page.wait_for_selector(".newgame")
    for lang in LANGS:
        got = page.evaluate(
            """async ({ cases, view, lang }) => {
          const i18n = await import('/js/i18n.js');
          await i18n.setLang(lang);
          const R = (await import('/js/rr.js')).default;
          const cards = await (await import('/js/api.js')).cardData('red-rising');
          const names = ['Ann', 'Bo'];
          const ctx = (me, decision, v) => ({ renderer: R, cards, view: v, decision, me, seats: [],
            name: (s) => names[s], color: () => '#888', isMe: (s) => s === me });
          return cases.map(([kind, card, say, options]) => {
            const d = { player: 0, kind, options, context: { card, say } };
            const v2 = { ...view, decision: { player: 0, kind, about: { card } } };
            return { prompt: R.promptText(ctx(0, d, view), d),
                     options: options.map((o) => R.optionLabel(ctx(0, d, view), d, o)),
                     waiting: R.waitingText(ctx(1, { player: 0, kind }, v2), { player: 0, kind }) };
          });
        }""",
            {"cases": [[k, c, s, o] for k, c, s, o in cases], "view": view, "lang": lang},
        )
        bridge, martyr_, mickey_ = got
        if lang == "en":
            assert bridge["options"] == ["Gain Sevro", "Don't gain Sevro"]
            assert "You may gain Sevro" in bridge["prompt"]
            assert bridge["waiting"] == "Ann is deciding whether to use Bridge's ability"
            assert "from Mars" in martyr_["prompt"]
            assert "may" in mickey_["prompt"] and "Red" in mickey_["prompt"]
            assert mickey_["options"][1] == "Skip: don't banish a Red from your hand"
        elif lang == "uk":
            # a name the table does not decline is named through the word "card", which takes the case
            assert bridge["options"] == ["Взяти карту «Севро»", "Не брати карту «Севро»"]
            assert "Марса" in martyr_["prompt"]
            assert "Можете" in mickey_["prompt"] and "червон" in mickey_["prompt"]
            assert mickey_["options"][1] == "Не виганяти червоного з вашої руки"
            assert bridge["waiting"].startswith("Ann вирішує")
        else:
            assert bridge["options"][0] == "Zyskaj Sevra" and bridge["options"][1].startswith("Pomiń")
            assert "Marsa" in martyr_["prompt"]
            assert "Możesz" in mickey_["prompt"] and "Czerwon" in mickey_["prompt"]
            assert bridge["waiting"].startswith("Ann decyduje")


# ====================================================================== the score calculator
def test_calculator_starts_the_neutral_influence_at_3_and_suggests_names(live, new_page):
    page = new_page(label="calc words: ")
    page.goto(live.base + "/#/calc")
    page.wait_for_selector('[data-picker="hand0"]')
    # two players: the rulebook's 3 neutral Influence tokens are on the Institute
    assert page.input_value("input.neutral") == "3"
    page.click(".add-player")
    page.wait_for_selector('[data-picker="hand2"]')
    assert page.locator("input.neutral").count() == 0  # no neutral house with 3 players
    page.click('[data-player="2"] .btn.ghost')
    page.wait_for_selector("input.neutral")
    assert page.input_value("input.neutral") == "3"
    # a typo suggests the closest name, as the command line does
    page.fill('[data-picker="hand0"]', "Darow")
    page.wait_for_selector("#sg-hand0 li")
    assert page.inner_text("#sg-hand0 li:first-child").endswith("Darrow")
    assert page.is_visible("#sg-hand0-hint") and "Did you mean" in page.inner_text("#sg-hand0-hint")
    shot(page, "calc-suggest-en", full_page=False)
    page.press('[data-picker="hand0"]', "Enter")
    page.wait_for_selector('[data-player="0"] .picked-card[data-card="darrow"]')
    page.fill('[data-picker="hand0"]', "zzzzzz")
    page.wait_for_function("() => document.querySelector('#sg-hand0-hint').textContent.includes('zzzzzz')")
    # the scores use the 3 neutral tokens: Ann's 2 and Bo's 1 Influence rank behind them
    page.fill('[data-player="0"] input.influence', "2")
    page.press('[data-player="0"] input.influence', "Tab")
    page.fill('[data-player="1"] input.influence', "1")
    page.press('[data-player="1"] input.influence', "Tab")
    page.click(".score-btn")
    page.wait_for_selector(".calc-result .scorepad")
    from redtable.web.routes import score_json

    position = {
        "players": [
            {"name": "Player 1", "hand": ["Darrow"], "fleet": 0, "helium": 0, "influence": 2},
            {"name": "Player 2", "hand": [], "fleet": 0, "helium": 0, "influence": 1},
        ],
        "locations": {"jupiter": [], "mars": [], "luna": [], "institute": []},
        "banished": [],
    }
    cli = score_json(position)  # without the key: the rulebook's 3 count
    ui = [
        int(x)
        for x in page.eval_on_selector_all(
            '.calc-result td[data-row="influence"]', "els => els.map(e => e.textContent)"
        )
    ]
    assert ui == [p["influence"] for p in cli["players"]]
    assert ui != [p["influence"] for p in score_json({**position, "neutral_influence": 0})["players"]]


def test_calculator_suggests_names_in_ukrainian(live, new_page):
    page = new_page(label="calc uk: ", locale="uk-UA")
    page.goto(live.base + "/#/calc")
    page.wait_for_selector('[data-picker="hand0"]')
    page.fill('[data-picker="hand0"]', "Дероу")
    page.wait_for_selector("#sg-hand0 li")
    assert page.inner_text("#sg-hand0 li:first-child").endswith("Дерроу")
    assert catalog("uk")["calc.did_you_mean"] in page.inner_text("#sg-hand0-hint")
    shot(page, "calc-suggest-uk", full_page=False)


# ====================================================================== a live table
def test_a_live_table_in_ukrainian_says_who_decides_what(live, new_page):
    """At a real table in Ukrainian: while a bot decides, the prompt says what it is deciding
    in Ukrainian (never its options), and the log's sentences name the players and the cards."""
    from webkit import READY, click_random_choice, create_in_lobby

    uk = catalog("uk")
    page = new_page(label="live uk: ", locale="uk-UA")
    create_in_lobby(page, live.base, "red-rising", ["random", "random"], name="Оля", speed="slow")
    page.wait_for_selector(".rr-board .rr-loc")
    waits = set()
    rnd = random.Random(4)
    either = f"() => ({READY})() || !!document.querySelector('.prompt .prompt-wait:not(.prompt-auto)')"
    carded = "() => [...document.querySelectorAll('.log-lines li .text')].some((e) => e.textContent.includes('«'))"
    for _ in range(120):  # until bots were seen deciding and a card was named in the log
        page.wait_for_function(either)
        wait = page.query_selector(".prompt .prompt-wait:not(.prompt-auto)")
        if wait:
            waits.add(wait.inner_text())
            if len(waits) >= 3 and page.evaluate(carded):
                break
            page.wait_for_timeout(250)
            continue
        click_random_choice(page, rnd)
    assert waits, "no bot decision was seen"
    verbs = ("вибирає", "вирішує", "називає", "ухвалює", "розгортає")
    for text in waits:
        assert any(v in text for v in verbs) and not re.search(r"[A-Za-z]{4,}", text.replace("Bot", "")), text
    shot(page, "words-live-table-uk", full_page=False)
    lines = page.eval_on_selector_all(".log-lines li .text", "els => els.map((e) => e.textContent)")
    assert any("«" in ln for ln in lines), lines[:10]  # cards named through "карту «…»"
    assert any(("Оля" in ln or re.search(r"Бот\s", ln)) for ln in lines)  # players by their names (no-break space)
    assert not any(re.search(r"undefined|\bNone\b|\bP\d\b|[{}]", ln) for ln in lines), lines
    assert uk["rr.log.turn"].split(" ")[1] in " ".join(lines)  # "— хід N"
