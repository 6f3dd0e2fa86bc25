"""The web UI's server side and static files, without a browser: the API router, the
translations, the static files (no build step, nothing fetched from outside)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

for _mod in ("fastapi", "httpx", "uvicorn", "sqlalchemy", "orjson"):
    pytest.importorskip(_mod, reason="the game server's dependencies are not installed")
from fastapi.testclient import TestClient  # noqa: E402

from redtable.web import STATIC_DIR  # noqa: E402
from redtable.web.routes import install, score_json  # noqa: E402

LANGS = ("en", "uk", "pl")
POSITION = {
    "players": [
        {
            "name": "Ann",
            "hand": [
                "Darrow",
                {"card": "Trigg", "as_color": "red"},
                {"card": "Cyther", "as_name": "Sevro"},
                "Eo",
                "Harmony",
            ],
            "fleet": 6,
            "helium": 4,
            "influence": 7,
            "sovereign": True,
        },
        {
            "name": "Bo",
            "hand": ["Mustang", "Sevro", "Bridge", "Gravboot Cobbler", "Quicksilver", "Judge", "Justice", "Orator"],
            "fleet": 2,
            "helium": 1,
            "influence": 3,
        },
        {
            "name": "Cy",
            "hand": ["Ragnar", "Sefi", "Holiday"],
            "fleet": 10,
            "helium": 0,
            "influence": 10,
            "extra_points": 12,
        },
    ],
    "locations": {"jupiter": ["Eo"] and ["Dancer", "Arlus"], "mars": ["Pelus"], "luna": [], "institute": ["Virga"]},
    "banished": ["Uncle Narol", "Deanna"],
}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from redtable.server import create_app

    app = install(create_app(db=f"sqlite:///{tmp_path_factory.mktemp('webapi') / 'w.db'}"))
    with TestClient(app) as c:
        yield c


def test_install_is_idempotent_and_ahead_of_the_static_mount(client):
    app = client.app
    n = len(app.router.routes)
    install(app)
    assert len(app.router.routes) == n
    # the static files are mounted at "/": the router must answer before them
    r = client.get("/api/web/cards/red-north")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")


def test_index_and_modules_are_served(client):
    r = client.get("/")
    assert r.status_code == 200 and '<script type="module" src="/js/main.js">' in r.text
    for path in (
        "/js/main.js",
        "/js/table.js",
        "/js/rr.js",
        "/js/rn.js",
        "/js/calc.js",
        "/css/app.css",
        "/i18n/uk.json",
        "/favicon.svg",
    ):
        assert client.get(path).status_code == 200, path


def test_cards_red_rising(client):
    data = client.get("/api/web/cards/red-rising").json()
    assert len(data["cards"]) == 112
    darrow = next(c for c in data["cards"] if c["card"] == "darrow")
    assert darrow["name"] == "Darrow" and darrow["color"] == "red" and darrow["value"] == 10 and darrow["deploy"]
    assert [h["house"] for h in data["houses"]] == ["apollo", "ceres", "diana", "jupiter", "mars", "minerva"]
    assert data["fleet_vp"][10] == 43


def test_cards_red_north(client):
    data = client.get("/api/web/cards/red-north").json()
    assert {k["card"] for k in data["kinds"]} >= {"raider-green", "hero-red", "jarl"}
    assert len(data["gods"]) == 8 and len(data["outposts"]) == 5
    assert client.get("/api/web/cards/chess").status_code == 404


def cli_score(tmp_path: Path, position: dict) -> dict:
    f = tmp_path / "position.json"
    f.write_text(json.dumps(position))
    out = subprocess.run(
        [sys.executable, "-m", "redtable.cli", "score", "red-rising", str(f), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.multiprocess
def test_score_endpoint_matches_the_score_command(client, tmp_path):
    r = client.post("/api/web/score/red-rising", json=POSITION)
    assert r.status_code == 200, r.text
    mine = r.json()
    cli = cli_score(tmp_path, POSITION)
    for row in ("cards", "fleet", "helium", "sovereignty", "influence", "excess_cards", "total"):
        assert [p[row] for p in mine["players"]] == [p[row] for p in cli["players"]], row
    assert [mine["players"][w]["name"] for w in mine["winners"]] == cli["winners"]
    assert [p["choices"] for p in mine["players"]] == [p["choices"] for p in cli["players"]]
    assert mine["players"][1]["excess_cards"] == -10


def test_calculator_scores_administrator_for_the_least_influence(client):
    """The calculator follows the printed Administrator: 15 VP for the least Influence on
    the Institute (or tied for the least), 0 tokens included; Politician for the most."""

    def card_points(ann: int, cy: int) -> list[dict]:
        players = [
            {"name": "Ann", "hand": ["Administrator"], "influence": ann},
            {"name": "Bo", "hand": ["Politician"], "influence": 6},
            {"name": "Cy", "hand": [], "influence": cy},
        ]
        r = client.post("/api/web/score/red-rising", json={"players": players})
        assert r.status_code == 200, r.text
        return [p["card_points"] for p in r.json()["players"]]

    assert card_points(0, 0) == [{"Administrator": 30}, {"Politician": 30}, {}]  # tied at 0
    assert card_points(1, 2) == [{"Administrator": 30}, {"Politician": 30}, {}]
    assert card_points(2, 1) == [{"Administrator": 15}, {"Politician": 30}, {}]


def test_choices_keyed_by_slug_for_the_page():
    """The page names cards in its own language: the choices come keyed by slug too."""
    from redtable.web.routes import slug_choices

    assert slug_choices({"as_color": {"Dancer": "red"}, "as_name": {"Harmony": "Darrow"}}) == {
        "as_color": {"dancer": "red"},
        "as_name": {"harmony": "darrow"},
    }


@pytest.mark.parametrize(
    "bad, word",
    [
        ({"players": [{"name": "A", "hand": ["Nobody"]}, {"name": "B", "hand": []}]}, "Nobody"),
        ({"players": [{"name": "A", "hand": ["Darrow"]}]}, "2-6"),
        ({"players": [{"name": "A", "hand": ["Darrow"]}, {"name": "B", "hand": ["darrow"]}]}, "twice"),
        ({"players": [{"name": "A", "hand": [], "fleet": 11}, {"name": "B", "hand": []}]}, "fleet"),
        ([1, 2], "object"),
    ],
)
def test_score_endpoint_refuses_bad_positions(client, bad, word):
    r = client.post("/api/web/score/red-rising", json=bad)
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "malformed" and word.lower() in body["message"].lower()


def test_final_hands_only_when_finished(client):
    g = client.post(
        "/api/games", json={"game": "red-rising", "seats": [{"type": "bot"}, {"type": "bot"}], "seed": 3}
    ).json()
    gid = g["game_id"]
    import time

    deadline = time.time() + 30
    while client.get(f"/api/games/{gid}?events=false").json()["status"] != "finished":
        assert time.time() < deadline
        time.sleep(0.05)
    data = client.get(f"/api/web/games/{gid}/final").json()
    assert len(data["hands"]) == 2
    assert all("card" in c and isinstance(c["points"], int) for hand in data["hands"] for c in hand)
    state = client.get(f"/api/games/{gid}?events=false").json()
    totals = [s["total"] for s in state["view"]["scores"]]
    assert len(totals) == 2
    g2 = client.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}, {"type": "bot"}]}).json()
    assert client.get(f"/api/web/games/{g2['game_id']}/final").status_code == 409
    assert client.get("/api/web/games/nope/final").status_code == 404


def test_score_json_direct():
    out = score_json(POSITION)
    assert out["rows"][-1] == "total" and len(out["players"]) == 3


# ---------------------------------------------------------------------- static files
def static_files(*exts):
    return [p for p in STATIC_DIR.rglob("*") if p.is_file() and p.suffix in exts]


def test_nothing_is_fetched_from_outside():
    """Offline: no CDN, no remote fonts or scripts; every import is a relative module of the package."""
    for p in static_files(".js", ".css", ".html"):
        text = p.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)\s*=\s*["']https?://""", text), p
        assert not re.search(r"""@import\s+url\(\s*["']?https?://""", text), p
        assert "fonts.googleapis" not in text and "cdn." not in text.lower(), p
        for m in re.finditer(r"""(?:^|\s)import\s+(?:[^"']*?from\s+)?["']([^"']+)["']""", text):
            assert m.group(1).startswith("./"), (p, m.group(1))
        for m in re.finditer(r"""import\(\s*["']([^"']+)["']\s*\)""", text):
            assert m.group(1).startswith("./"), (p, m.group(1))


def test_modules_referenced_exist():
    for p in static_files(".js"):
        for m in re.finditer(r"""from\s+["'](\./[^"']+)["']|import\(\s*["'](\./[^"']+)["']""", p.read_text()):
            assert (p.parent / (m.group(1) or m.group(2))).is_file(), (p, m.group(0))


# ---------------------------------------------------------------------- translations
def load(lang):
    return json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def placeholders(v) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", json.dumps(v, ensure_ascii=False)))


@pytest.mark.parametrize("lang", ["uk", "pl"])
def test_every_label_is_translated(lang):
    en, other = load("en"), load(lang)
    assert sorted(set(en) - set(other)) == []
    extra = {k for k in set(other) - set(en) if not k.startswith("rr.cardname.")}
    assert extra == set()
    for k, v in en.items():
        assert placeholders(v) == placeholders(other[k]), k
        if isinstance(v, dict):
            assert isinstance(other[k], dict) and "other" in other[k], k

    def words(v):  # the text without its placeholders
        return re.sub(r"\{\w+\}", "", v).strip(" ,.:;()—→-")

    untranslated = [
        k
        for k, v in en.items()
        if isinstance(v, str)
        and len(words(v)) > 8
        and other[k] == v
        and not k.startswith(("rn.god.", "bot.ismcts", "title.red-"))
    ]
    assert untranslated == [], untranslated


def test_rulebook_terms():
    """Game terms as the Ukrainian and Polish rulebooks translate them."""
    uk, pl = load("uk"), load("pl")
    assert [uk[f"rr.location.{loc}"] for loc in ("jupiter", "mars", "luna", "institute")] == [
        "Юпітер",
        "Марс",
        "Місяць",
        "Інститут",
    ]
    assert [pl[f"rr.location.{loc}"] for loc in ("jupiter", "mars", "luna", "institute")] == [
        "Jowisz",
        "Mars",
        "Luna",
        "Instytut",
    ]
    assert (uk["rr.lead"], uk["rr.scout"], pl["rr.lead"], pl["rr.scout"]) == (
        "Наказ",
        "Розвідка",
        "Przywództwo",
        "Zwiad",
    )
    assert uk["rr.sovereign"] == "Фішка володарювання" and pl["rr.sovereign"] == "Znacznik Suwerena"
    assert uk["rr.row.total"] == "Усього" and pl["rr.row.total"] == "Suma"
    assert uk["rr.house.minerva"] == "Мінерва" and pl["rr.house.minerva"] == "Minerwa"
    assert uk["title.red-rising"] == "Червоний світанок"
    assert uk["rr.cardname.darrow"] == "Дерроу" and pl["rr.cardname.sponsor"] == "Sponsorka"


def test_every_key_used_by_the_code_exists():
    en = load("en")
    used = set()
    for p in static_files(".js"):
        used |= set(re.findall(r"""\bt\(\s*["']([a-z0-9_.:-]+)["']\s*[,)]""", p.read_text()))
    missing = sorted(k for k in used if k not in en)
    assert missing == []


@pytest.mark.parametrize("lang", ["en", "uk", "pl"])
def test_card_gallery_in_every_language(lang):
    """GET /api/web/cards/red-rising?lang=.. answers every card's name and texts in that language."""
    import tempfile

    from fastapi.testclient import TestClient

    from redtable.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tempfile.mkdtemp()}/c.db")) as client:
        rr = client.get("/api/web/cards/red-rising", params={"lang": lang}).json()
        en = client.get("/api/web/cards/red-rising").json()
        assert rr["lang"] == lang and len(rr["cards"]) == 112
        if lang != "en":  # every rules text is in the language; uk names are Cyrillic
            for a, b in zip(rr["cards"], en["cards"], strict=True):
                for field in ("deploy", "end_game_bonus", "block", "end_of_game"):
                    assert (a.get(field) is None) == (b.get(field) is None)
                    assert a.get(field) is None or a[field] != b[field], (a["card"], field)
            if lang == "uk":
                assert sum(a["name"] != b["name"] for a, b in zip(rr["cards"], en["cards"], strict=True)) >= 100
        rn = client.get("/api/web/cards/red-north", params={"lang": lang}).json()
        assert rn["lang"] == lang and rn["gods"] and rn["outposts"]
        r = client.get("/api/web/cards/red-rising", params={"lang": "de"})
        assert r.status_code == 422 and r.json()["error"] == "unknown_language"
