"""Learning to play, without a browser: the rules endpoint (built from the engines' tables, in
three languages, with clear refusals), the guided games' scripts replayed through the engines
with the bots seeded as the server seeds them, and the learning pages' catalogs."""

from __future__ import annotations

import json
import re

import pytest

for _mod in ("fastapi", "httpx", "uvicorn", "sqlalchemy", "orjson"):
    pytest.importorskip(_mod, reason="the game server's dependencies are not installed")
from fastapi.testclient import TestClient  # noqa: E402

from redtable.web import STATIC_DIR  # noqa: E402
from redtable.web.routes import install  # noqa: E402
from redtable.web.rules_data import UnknownChoice, engine_text, rules_data  # noqa: E402

LANGS = ("en", "uk", "pl")
RR_TEXTS = ("deploy", "end_game_bonus", "end_of_game", "block")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from redtable.server import create_app

    app = install(create_app(db=f"sqlite:///{tmp_path_factory.mktemp('learn') / 'l.db'}"))
    with TestClient(app) as c:
        yield c


def rules(client, game: str, lang: str) -> dict:
    r = client.get(f"/api/web/rules/{game}", params={"lang": lang})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["game"] == game and data["lang"] == lang
    return data


# ---------------------------------------------------------------------- Red Rising
@pytest.mark.parametrize("lang", LANGS)
def test_red_rising_rules_have_all_112_cards_with_their_texts(client, lang):
    data = rules(client, "red-rising", lang)
    en = rules(client, "red-rising", "en")
    cards = data["cards"]
    assert len(cards) == 112 and len({c["card"] for c in cards}) == 112
    colors = {c["color"] for c in data["colors"]}
    for c, e in zip(cards, en["cards"], strict=True):
        assert c["card"] == e["card"] and c["color"] == e["color"] and c["value"] == e["value"]
        assert c["color"] in colors and c["name"].strip() and c["caste"].strip()
        texts = [c.get(f) for f in RR_TEXTS if c.get(f) is not None]
        assert texts, c["card"]  # every card has some rules text
        for f in RR_TEXTS:
            assert (c.get(f) is None) == (e.get(f) is None), (c["card"], f)
            if c.get(f) is not None:
                assert c[f].strip(), (c["card"], f)
                if lang != "en":
                    assert c[f] != e[f], (c["card"], f, "left in English")
    # the castes: 14 colours, 7 cards each and 21 Golds, named in the language
    assert sum(x["count"] for x in data["colors"]) == 112 and len(data["colors"]) == 14
    assert {x["color"]: x["count"] for x in data["colors"]}["gold"] == 21
    if lang != "en":
        assert all(a["name"] != b["name"] for a, b in zip(data["colors"], en["colors"], strict=True))
        assert {c["card"]: c["caste"] for c in cards}["darrow"] == {"uk": "Червоний", "pl": "Czerwony"}[lang]


@pytest.mark.parametrize("lang", LANGS)
def test_red_rising_houses_locations_die_and_tracks(client, lang):
    from redtable.redrising import board, scoring

    data = rules(client, "red-rising", lang)
    en = rules(client, "red-rising", "en")
    assert [h["house"] for h in data["houses"]] == list(board.HOUSE_NAMES)
    assert [loc["location"] for loc in data["locations"]] == list(board.LOCATION_NAMES)
    assert [d["face"] for d in data["die"]] == list(board.DIE_FACES)
    for part, field in (("houses", "text"), ("houses", "name"), ("locations", "bonus"), ("die", "text")):
        for x, y in zip(data[part], en[part], strict=True):
            assert x[field].strip()
            if lang != "en" and not (part == "houses" and field == "name" and lang == "pl"):
                assert x[field] != y[field], (part, x)  # Polish keeps some house names (Apollo, Diana...)
    assert [loc["triggers_house"] for loc in data["locations"]] == [False, False, True, False]
    # the numbers are the engine's and the scorer's own
    assert data["fleet_vp"] == list(scoring.FLEET_VP)
    assert data["end"] == {"threshold": board.THRESHOLD, "fleet_max": board.FLEET_MAX}
    s = data["scoring"]
    assert (s["helium_vp"], s["sovereign_vp"], s["hand_limit"], s["excess_card_vp"]) == (
        scoring.HELIUM_VP,
        scoring.SOVEREIGN_VP,
        scoring.HAND_LIMIT,
        scoring.EXCESS_CARD_VP,
    )
    assert s["influence_vp"] == [*scoring.INFLUENCE_VP, 1] and s["rows"] == list(scoring.ROWS)
    assert data["setup"]["hand_size"] == board.HAND_SIZE and data["players"] == {"min": 2, "max": 6}


def test_red_rising_terms_are_the_rulebooks():
    uk, pl = rules_data("red-rising", "uk"), rules_data("red-rising", "pl")
    assert [x["name"] for x in uk["locations"]] == ["Юпітер", "Марс", "Місяць", "Інститут"]
    assert [x["name"] for x in pl["locations"]] == ["Jowisz", "Mars", "Luna", "Instytut"]
    assert "фішку володарювання" in uk["locations"][2]["bonus"] and "Suwerena" in pl["locations"][2]["bonus"]
    assert next(c for c in uk["cards"] if c["card"] == "darrow")["name"] == "Дерроу"


# ---------------------------------------------------------------------- Red North
@pytest.mark.parametrize("lang", LANGS)
def test_red_north_rules(client, lang):
    from redtable.rednorth import cards as rn

    data = rules(client, "red-north", lang)
    en = rules(client, "red-north", "en")
    assert [k["card"] for k in data["kinds"]] == [k.slug for k in rn.KINDS]
    assert [k["copies"] for k in data["kinds"]] == [k.copies for k in rn.KINDS]
    assert len(data["gods"]) == 8 and len(data["outposts"]) == 5 and len(data["colours"]) == 5
    assert [r["outpost_vp"] for r in data["rounds"]] == list(rn.ROUND_VP[1:])
    assert [r["round_name"] for r in data["rounds"]] == ["spring", "summer", "ragnarok"]
    assert data["rounds"][0]["muster"] == {"top": "hero", "cards": rn.SPRING_MUSTER_CARDS}
    assert data["rounds"][2]["muster"] is None
    assert [p["phase"] for p in data["phases"]] == ["deploy", "actions", "resolution"]
    actions = data["phases"][1]["actions"]
    assert [a["action"] for a in actions] == ["withdraw", "reinforce", "inspire", "promote", "invoke", "pass"]
    assert data["phases"][0]["party_size"] == rn.PARTY_SIZE
    assert data["points"]["raider"] == rn.RAIDER_POINTS and data["points"]["hero"] == rn.HERO_POINTS

    def texts(d):
        yield from ((k["card"], k["text"]) for k in d["kinds"])
        yield from ((g["god"], g["text"]) for g in d["gods"])
        yield from ((o["colour"], o["text"]) for o in d["outposts"])
        yield from ((a["action"], a["text"]) for a in d["phases"][1]["actions"])
        yield from ((a["action"], a["name"]) for a in d["phases"][1]["actions"])
        yield from ((p["phase"], p["name"]) for p in d["phases"])
        yield ("deploy-text", d["phases"][0]["text"])

    for (key, x), (_, y) in zip(texts(data), texts(en), strict=True):
        assert x.strip(), key
        if lang != "en":
            assert x != y, (key, "left in English")


# ---------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    "path, params, code, named",
    [
        ("/api/web/rules/chess", {"lang": "en"}, "unknown_title", "red-rising, red-north"),
        ("/api/web/rules/red-rising", {"lang": "de"}, "unknown_language", "en, uk, pl"),
        ("/api/web/rules/red-north", {"lang": "EN"}, "unknown_language", "en, uk, pl"),
        ("/api/web/rules/" + "x" * 300, {}, "unknown_title", "red-rising, red-north"),
    ],
)
def test_bad_game_or_language_is_refused_naming_what_is_allowed(client, path, params, code, named):
    r = client.get(path, params=params)
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == code and named in body["message"]
    assert body["allowed"] == [x.strip() for x in named.split(",")]
    assert len(body["message"]) < 200  # a long bad value is shortened, not echoed whole


def test_rules_page_prints_administrator_as_the_card_does():
    """The rules page's card texts are the encoding's: Administrator rewards the least Influence."""
    words = {"en": "the least Influence", "uk": "найменше фішок впливу", "pl": "najmniej znaczników Wpływu"}
    for lang, least in words.items():
        cards = {c["card"]: c for c in rules_data("red-rising", lang)["cards"]}
        assert least in cards["administrator"]["end_game_bonus"], lang
        assert least not in cards["politician"]["end_game_bonus"], lang


def test_rules_data_without_http():
    with pytest.raises(UnknownChoice) as e:
        rules_data("red-rising", "fr")
    assert e.value.allowed == LANGS
    assert rules_data("red-north", "en") == rules_data("red-north", "en")  # a fresh copy each time
    a = rules_data("red-rising", "en")
    a["cards"].clear()
    assert len(rules_data("red-rising", "en")["cards"]) == 112
    with pytest.raises(LookupError, match="no translation"):
        engine_text("A sentence no engine says.", "uk")


# ---------------------------------------------------------------------- the guided games' scripts
def script(game: str) -> dict:
    return json.loads((STATIC_DIR / "learn" / f"{game}.json").read_text(encoding="utf-8"))


def replay_guided(game: str) -> tuple[object, list[str]]:
    """Play a script's moves against its bot seeded as the server seeds it (server/live.py:
    ``Rng(seed).derive(seat + 1, step)``; a single option is taken without asking the bot) and
    check each move is asked for at the step the script says, with that kind and option."""
    from redtable.bots import make_bot
    from redtable.core.registry import game_class
    from redtable.core.rng import Rng

    sc = script(game)
    state = game_class(game)(players=2, **sc["options"]).new_initial_state(sc["seed"])
    moves = [s for s in sc["steps"] if "at" in s]
    step = 0
    for move in moves:
        while step < move["at"]:
            d = state.decision()
            assert d is not None and d.player == 1, (
                f"{game}: step {step} is asked of seat {d and d.player}, not the bot"
            )
            action = (
                d.options[0]
                if len(d.options) == 1
                else make_bot(sc["bot"], Rng(sc["seed"]).derive(2, step)).choose(state)
            )
            state.apply(action)
            step += 1
        d = state.decision()
        assert d.player == 0 and d.kind == move["kind"], (game, move["id"], d.player, d.kind)
        assert move["option"] in d.options, (game, move["id"], move["option"], d.options)
        state.apply(move["option"])
        step += 1
    return state, sc


def test_red_rising_script_stays_true():
    state, sc = replay_guided("red-rising")
    me = state.view(0)["players"][0]
    # what the texts say happened: Darrow stayed on Mars over a Gold and brought Nanny; Luna gave the
    # Sovereign token and House Mars its Helium; Cassius came from Jupiter; Helga banished Fitchner
    assert me["house"] == "mars" and state.view(0)["first_player"] == 0
    assert me["sovereign"] and me["helium"] == 3 and me["fleet"] == 1
    hand = {c["card"] for c in me["hand"]}
    assert {"nanny", "cassius"} <= hand and "darrow" not in hand
    assert "fitchner" in state.view(0)["banished"]
    assert sc["bot"] == "heuristic" and sc["options"] == {"multiplayer_variant": False, "block_windows": False}


def test_red_north_script_stays_true():
    from redtable.bots import make_bot
    from redtable.core.rng import Rng

    state, sc = replay_guided("red-north")
    frm = next(s["from"] for s in sc["steps"] if s["id"] == "resolution")
    step = len(state.history)
    while step < frm:  # the bot finishes the round; the resolution text waits for it
        d = state.decision()
        assert d.player == 1
        state.apply(
            d.options[0] if len(d.options) == 1 else make_bot(sc["bot"], Rng(sc["seed"]).derive(2, step)).choose(state)
        )
        step += 1
    v = state.view(0)
    d = state.decision()
    assert d.player == 0 and d.kind == "deploy" and v["round_name"] == "summer"
    rep = v["resolutions"][0]
    assert (
        rep["outposts"]["green"]["controller"] == 0 and v["tie_breaker"] == 0
    )  # the summer text: Vinland, Tie Breaker
    assert rep["parties"][1] == []  # the resolution text: the bot withdrew its cards
    assert [o["colour"] for o in v["outposts"]] == ["green", "red", "blue"]  # the outposts text names these three


@pytest.mark.parametrize("game", ["red-rising", "red-north"])
def test_script_shape(game):
    sc = script(game)
    ids = [s["id"] for s in sc["steps"]]
    assert len(ids) == len(set(ids))
    ats = [s["at"] for s in sc["steps"] if "at" in s]
    assert ats == sorted(ats) and len(ats) == len(set(ats))
    assert sc["steps"][-1].get("final") and sum(bool(s.get("final")) for s in sc["steps"]) == 1
    for s in sc["steps"]:
        if "at" in s:
            assert {"kind", "option", "target"} <= set(s), s
    assert isinstance(sc["seed"], int) and sc["bot"] == "heuristic" and 0 <= sc["bot_delay"] <= 2


# ---------------------------------------------------------------------- the learning pages' texts
def learn_catalog(lang: str) -> dict:
    return json.loads((STATIC_DIR / "i18n" / "learn" / f"{lang}.json").read_text(encoding="utf-8"))


def marks(v) -> set[str]:
    return set(re.findall(r"\{[\w:-]+\}", json.dumps(v, ensure_ascii=False)))


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_learn_catalogs_are_complete_and_translated(lang):
    en, other = learn_catalog("en"), learn_catalog(lang)
    assert sorted(set(en) ^ set(other)) == []
    for k, v in en.items():
        assert marks(v) == marks(other[k]), k
        if isinstance(v, dict):
            assert {"one", "few", "many", "other"} <= set(other[k]), k
            continue
        words = re.sub(r"\{[\w:-]+\}", "", v).strip(" ,.:;()—→-×+")
        if len(words) > 6:
            assert other[k] != v, (k, "left in English")


@pytest.mark.parametrize("game, short", [("red-rising", "rr"), ("red-north", "rn")])
def test_every_step_and_summary_has_its_texts(game, short):
    en = learn_catalog("en")
    for s in script(game)["steps"]:
        assert f"tut.{short}.{s['id']}.title" in en and f"tut.{short}.{s['id']}.body" in en, s["id"]
    # every {var} and {p:word:var} a text asks for is one the pages compute from the rules data
    known = set(
        re.findall(
            r"\b(\w+):",
            (STATIC_DIR / "js" / "learntext.js")
            .read_text()
            .split("export function ruleVars")[1]
            .split("export function ruleRefs")[0],
        )
    )
    for k, v in en.items():
        if isinstance(v, dict) or not k.startswith(("tut.", "sum.", "rules.")):
            continue
        for m in re.findall(r"\{p:(\w+):(\w+)\}", v):
            assert f"w.{m[0]}" in en and m[1] in known, (k, m)
        for var in re.findall(r"\{(\w+)\}", v):
            assert var in known | {"n", "total", "title", "message", "option", "player", "chosen", "expected"}, (k, var)


def test_learning_files_are_served(client):
    for path in (
        "/js/learn.js",
        "/js/rules.js",
        "/js/learntext.js",
        "/css/learn.css",
        "/learn/red-rising.json",
        "/learn/red-north.json",
        "/i18n/learn/en.json",
        "/i18n/learn/uk.json",
        "/i18n/learn/pl.json",
    ):
        assert client.get(path).status_code == 200, path
