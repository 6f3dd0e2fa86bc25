"""GET /api/web/games/{id}/score: the running score, tested as an attacker would.

It must answer a seat only what that seat may know: no token is a spectator (the public
rows only), a token of no seat is refused, a token never travels in the URL, another seat's
token shows that seat's hand and nothing of ours, and re-dealing every card hidden from the
asking seat (``state.resample``, the twin-state technique of tests/server/test_leaks.py)
leaves the answer unchanged, byte for byte.
"""

from __future__ import annotations

import random
import time

import pytest

for _mod in ("fastapi", "httpx", "uvicorn", "sqlalchemy", "orjson"):
    pytest.importorskip(_mod, reason="the game server's dependencies are not installed")
from fastapi.testclient import TestClient  # noqa: E402

from redtable.core import Rng, make_game  # noqa: E402
from redtable.web.routes import install  # noqa: E402
from redtable.web.running import influence_ranks, running_score  # noqa: E402

RR_OPTIONS = {"block_windows": False}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from redtable.server import create_app
    from redtable.server.limits import Limits

    app = install(
        create_app(
            db=f"sqlite:///{tmp_path_factory.mktemp('score') / 's.db'}",
            allow_chosen_seeds=True,
            limits=Limits().relaxed(),
        )
    )  # one test process is one client address
    with TestClient(app) as c:
        yield c


def bearer(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def two_people(client, game: str, seed: int, actions: list[str], options: dict | None = None):
    """A game of two people dealt from ``seed``, played to ``actions``: (game id, tokens)."""
    g = client.post(
        "/api/games",
        json={
            "game": game,
            "seed": seed,
            "options": options or {},
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bo"}],
        },
    )
    assert g.status_code == 201, g.text
    g = g.json()
    gid = g["game_id"]
    tokens = [client.post(f"/api/games/{gid}/join", json={"invite": s["invite"]}).json()["token"] for s in g["seats"]]
    for version, action in enumerate(actions):
        seat = client.get(f"/api/games/{gid}?events=false").json()["decision"]["player"]
        r = client.post(
            f"/api/games/{gid}/decisions", json={"action": action, "version": version}, headers=bearer(tokens[seat])
        )
        assert r.status_code == 200, r.text
    return gid, tokens


def play(game: str, players: int, seed: int, stop, options: dict | None = None) -> list[str] | None:
    """The random decisions from ``seed`` up to the first state where ``stop(state, n)`` holds."""
    st = make_game(game, players, **(options or {})).new_initial_state(seed)
    rnd, actions = random.Random(seed), []
    while not st.is_terminal():
        if actions and stop(st, len(actions)):
            return actions
        a = rnd.choice(st.decision().options)
        actions.append(a)
        st.apply(a)
    return None


def score(client, gid: str, token: str | None = None):
    return client.get(f"/api/web/games/{gid}/score", headers=bearer(token))


def hand_of(client, gid: str, token: str) -> list[str]:
    snap = client.get(f"/api/games/{gid}?events=false", headers=bearer(token)).json()
    return [c["card"] for c in snap["view"]["players"][snap["seat"]]["hand"]]


def twins(client, gid: str, seat: int | None, n: int = 6):
    """Swap the live game's state for ``n`` states re-dealt from what ``seat`` knows (the
    observer, for a spectator: seat 0's knowledge re-deals the others' hands too)."""
    game = client.app.state.hub.games[gid]
    real = game.state
    try:
        for k in range(n):
            twin = real.resample(seat if seat is not None else 0, Rng(9_001 + k))
            game.state = twin
            yield twin
    finally:
        game.state = real


# ---------------------------------------------------------------------- who may ask
@pytest.fixture(scope="module")
def rr_game(client):
    """Ann and Bo, Red Rising, a few turns in (both hands non-empty, cards on the board)."""
    actions = play("red-rising", 2, 5, lambda st, n: n >= 24, RR_OPTIONS)
    return two_people(client, "red-rising", 5, actions, RR_OPTIONS)


def test_a_seat_gets_its_hand_and_everyones_public_rows(client, rr_game):
    gid, tokens = rr_game
    r = score(client, gid, tokens[0])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["seat"] == 0 and body["game"] == "red-rising" and body["status"] == "active"
    mine = hand_of(client, gid, tokens[0])
    assert [c["card"] for c in body["hand"]["cards"]] == mine
    cards = body["hand"]["cards"]
    assert body["hand"]["rows"]["cards"] == sum(c["points"] for c in cards) + body["hand"]["extra_points"]
    assert all(c["points"] == c["value"] + c["bonus"] for c in cards)
    assert body["hand"]["rows"]["total"] == sum(body["hand"]["rows"][k] for k in body["rows"][:-1])
    view = client.get(f"/api/games/{gid}?events=false").json()["view"]
    assert len(body["players"]) == 2
    for p, pv in zip(body["players"], view["players"], strict=True):
        assert (p["fleet"], p["helium"], p["influence"], p["hand_size"]) == (
            pv["fleet"],
            pv["helium"],
            pv["influence"],
            pv["hand_size"],
        )
        assert p["rows"]["helium"] == 3 * pv["helium"] and p["subtotal"] == sum(p["rows"].values())
    # the public rows of our seat are the ones our hand's scorepad uses
    assert {k: body["hand"]["rows"][k] for k in body["public_rows"]} == body["players"][0]["rows"]


def test_a_spectator_gets_the_public_rows_only(client, rr_game):
    gid, tokens = rr_game
    body = score(client, gid).json()
    assert body["seat"] is None and body["hand"] is None
    hands = hand_of(client, gid, tokens[0]) + hand_of(client, gid, tokens[1])
    text = str(body)
    assert not [c for c in hands if f"'{c}'" in text]  # no card of any hand is named
    assert [p["hand_size"] for p in body["players"]] == [len(hand_of(client, gid, t)) for t in tokens]


def test_no_token_of_this_game_is_refused(client, rr_game):
    gid, tokens = rr_game
    other, other_tokens = two_people(client, "red-north", 1, [])
    for bad in (other_tokens[0], "x" * 40, "y" * 500):
        r = score(client, gid, bad)
        assert r.status_code == 403 and r.json()["error"] == "bad_token", r.text
        assert "hand" not in r.json()
    r = client.get(f"/api/web/games/{gid}/score?token={tokens[0]}")
    assert r.status_code == 400 and r.json()["error"] == "token_in_url"
    r = client.get("/api/web/games/no-such-game/score", headers=bearer(tokens[0]))
    assert r.status_code == 404 and r.json()["error"] == "unknown_game"


def test_another_seats_token_shows_that_seat_and_nothing_of_ours(client, rr_game):
    gid, tokens = rr_game
    body = score(client, gid, tokens[1]).json()
    assert body["seat"] == 1
    theirs, ours = hand_of(client, gid, tokens[1]), hand_of(client, gid, tokens[0])
    assert [c["card"] for c in body["hand"]["cards"]] == theirs
    text = str(body)
    assert not [c for c in ours if f"'{c}'" in text]


def test_redealing_what_the_seat_cannot_see_changes_nothing(client, rr_game):
    gid, tokens = rr_game
    for seat, token in ((0, tokens[0]), (1, tokens[1]), (None, None)):
        before = score(client, gid, token).content
        real = client.app.state.hub.games[gid].state
        changed = 0
        for twin in twins(client, gid, seat):
            assert score(client, gid, token).content == before, seat
            changed += seat is not None and twin.hands[1 - seat] != real.hands[1 - seat]
        assert seat is None or changed, "the re-deals moved no hidden card: the test proves nothing"


# ---------------------------------------------------------------------- a bonus that reads a face-down card
def _unknown_top_for_seat0(st, n: int) -> bool:
    view = st.view(0)
    if not any(c["card"] == "developer" for c in view["players"][0].get("hand", [])):
        return False
    events = [e.to_json() for e in st.events if e.visible_to(0)]
    return running_score("red-rising", view, events, 0)["hand"]["conditional"]


def test_a_bonus_reading_a_face_down_card_is_a_range_and_redeals_keep_it(client):
    found = next(
        ((seed, a) for seed in range(400) if (a := play("red-rising", 2, seed, _unknown_top_for_seat0, RR_OPTIONS))),
        None,
    )
    if found is None:
        pytest.skip("no deal puts a face-down card on top while seat 0 holds Developer")
    seed, actions = found
    gid, tokens = two_people(client, "red-rising", seed, actions, RR_OPTIONS)
    body = score(client, gid, tokens[0]).json()
    dev = next(c for c in body["hand"]["cards"] if c["card"] == "developer")
    assert dev["depends_on_hidden"] and dev["points"] < dev["points_max"]
    assert body["hand"]["conditional"] and body["hand"]["unknown_tops"]
    assert body["hand"]["total_max"] > body["hand"]["rows"]["total"]
    # the true value (from the real face-down card) lies in the range, and no re-deal moves it
    from redtable.redrising.scoring import score_position

    game = client.app.state.hub.games[gid]
    truth = score_position(game.state.final_position())[0]
    assert body["hand"]["rows"]["cards"] <= truth.cards <= body["hand"]["cards_max"]
    before = score(client, gid, tokens[0]).content
    tops_seen = set()
    for twin in twins(client, gid, 0, n=10):
        tops_seen |= {twin.locs[i][-1] for i in range(4) if twin.locs[i] and twin.locs[i][-1] in twin.facedown}
        assert score(client, gid, tokens[0]).content == before
    assert len(tops_seen) > 1, "the re-deals never changed the face-down top card"


# ---------------------------------------------------------------------- Administrator, as printed
def test_running_score_gives_administrator_the_least_influence():
    """Administrator's 15 VP in the running score: the least Influence on the Institute,
    the 2-player neutral house's 3 tokens compared like a third house."""
    from redtable.redrising.testing import scenario

    def bonus(influence: list[int]) -> int:
        st = scenario(2, hands={0: ["Administrator"], 1: ["Politician"]}, influence=influence)
        events = [e.to_json() for e in st.events if e.visible_to(0)]
        (card,) = running_score("red-rising", st.view(0), events, 0)["hand"]["cards"]
        return card["bonus"]

    assert [bonus([2, 5]), bonus([3, 5]), bonus([0, 0]), bonus([4, 5]), bonus([5, 1])] == [15, 15, 15, 0, 0]


# ---------------------------------------------------------------------- the end
def test_at_the_end_the_running_score_is_the_scorepad(client):
    g = client.post(
        "/api/games",
        json={"game": "red-rising", "seed": 21, "seats": [{"type": "bot"}, {"type": "bot"}, {"type": "bot"}]},
    ).json()
    gid = g["game_id"]
    deadline = time.time() + 30
    while client.get(f"/api/games/{gid}?events=false").json()["status"] != "finished":
        assert time.time() < deadline
        time.sleep(0.05)
    body = score(client, gid).json()
    final = client.get(f"/api/games/{gid}?events=false").json()["view"]["scores"]
    assert body["final"]["scores"] == [{k: s[k] for k in body["rows"]} for s in final]
    for p, s in zip(body["players"], final, strict=True):
        assert p["rows"] == {k: s[k] for k in body["public_rows"]}
    # each seat's own reckoning (its hand scored from its view) is its final scorepad
    game = client.app.state.hub.games[gid]
    for seat in range(3):
        view = game.state.view(seat)
        out = running_score("red-rising", view, game.events_for(seat), seat)
        if not out["hand"]["conditional"]:
            assert out["hand"]["rows"] == {k: final[seat][k] for k in body["rows"]}, seat
    hands = client.get(f"/api/web/games/{gid}/final").json()["hands"]
    out = running_score("red-rising", game.state.view(0), game.events_for(0), 0)
    assert [(c["card"], c["points"]) for c in out["hand"]["cards"]] == [(c["card"], c["points"]) for c in hands[0]]


def test_red_north_rows_and_hand(client):
    actions = play("red-north", 2, 4, lambda st, n: st.view(0)["round"] == 2 and st.view(0)["seats"][0]["party"])
    assert actions, "no Summer party in this deal"
    gid, tokens = two_people(client, "red-north", 4, actions)
    body = score(client, gid, tokens[0]).json()
    snap = client.get(f"/api/games/{gid}?events=false", headers=bearer(tokens[0])).json()
    view = snap["view"]
    assert body["game"] == "red-north" and body["round"] == 2
    assert [p["rows"]["total"] for p in body["players"]] == [s["vp"] for s in view["seats"]]
    assert [p["rows"]["glory"] for p in body["players"]] == [s["glory"] for s in view["seats"]]
    assert [p["rows"]["hand"] for p in body["players"]] == [s["hand_size"] for s in view["seats"]]
    spring = view["resolutions"][0]["vp"]
    assert [p["rows"]["vp_spring"] for p in body["players"]] == spring
    assert sorted(body["hand"]["cards"]) == sorted(view["seats"][0]["hand"])
    pts = {"raider": 2, "hero": 4}
    assert body["hand"]["raid_total"] == sum(
        pts[c.split("-")[0]] for c in view["seats"][0]["hand"] if c != "jarl" and c.split("-")[1] in body["colours"]
    )
    # our own face-down cards count for us; the opponent's face-down ones are unknown to us
    assert body["players"][0]["hidden_cards"] == 0
    theirs = view["seats"][1]["party"]
    assert body["players"][1]["hidden_cards"] == sum(1 for s in theirs if s["card"] is None)
    spectator = score(client, gid).json()
    assert spectator["hand"] is None
    assert spectator["players"][0]["hidden_cards"] == sum(1 for s in view["seats"][0]["party"] if not s["face_up"])
    for seat, token in ((0, tokens[0]), (None, None)):
        before = score(client, gid, token).content
        for _ in twins(client, gid, seat):
            assert score(client, gid, token).content == before


def test_influence_ranks_share_ties_and_count_the_neutral_house():
    assert influence_ranks([5, 5, 2, 0]) == [1, 1, 2, None]
    assert influence_ranks([2, 1], neutral=3) == [2, 3]
    assert (
        running_score("red-rising", make_game("red-rising", 2).new_initial_state(1).view(None), [], None)["hand"]
        is None
    )
    with pytest.raises(ValueError, match="known: red-rising, red-north"):
        running_score("chess", {}, [], None)
