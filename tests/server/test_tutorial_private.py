"""Tutorial games are private (issue 25): a lesson is one person against a bot that nobody else
needs to see, so it is left out of the public games list and out of "my games" (its count in the
top bar too), while the game itself plays and reads as any other. On SQLite and PostgreSQL."""

from __future__ import annotations


def _lesson(api, **extra) -> dict:
    r = api.http.post(
        "/api/games",
        json={
            "game": "red-north",
            "seats": [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}],
            "seed": 7,
            "undo": True,
            "tutorial": True,
            **extra,
        },
    )
    return {**r.json(), "code": r.status_code}


def test_a_lesson_is_neither_listed_nor_counted(served):
    _srv, api = served
    lesson = _lesson(api)
    assert lesson["code"] == 201, lesson
    assert lesson["tutorial"] is True
    gid = lesson["game_id"]
    token = api.join(gid, lesson["seats"][0]["invite"])
    other, other_tokens = api.new_game("red-north", ("human", "bot"))
    listed = {g["id"] for g in api.http.get("/api/games?limit=500").json()}
    assert other["game_id"] in listed  # an ordinary game is listed...
    assert gid not in listed  # ...a lesson is not
    assert gid not in {g["id"] for g in api.http.get("/api/games?status=active&limit=500").json()}
    held = [{"game_id": gid, "token": token}, {"game_id": other["game_id"], "token": other_tokens[0]}]
    mine = api.http.post("/api/my/games", json={"seats": held}).json()
    assert [g["game_id"] for g in mine] == [other["game_id"]]  # not counted, and not "gone" either
    state = api.state(gid, token)  # the lesson itself reads as any game, and says what it is
    assert state["tutorial"] is True and state["seat"] == 0
    assert api.state(other["game_id"], other_tokens[0])["tutorial"] is False


def test_a_lesson_is_one_person_against_bots(served):
    _srv, api = served
    two = api.http.post(
        "/api/games",
        json={"game": "red-north", "seats": [{"type": "human"}, {"type": "human"}], "tutorial": True},
    )
    assert two.status_code == 422 and two.json()["error"] == "bad_tutorial", two.text
    assert "2 human seats" in two.json()["message"]
    opened = _lesson(api, open=True)
    assert opened["code"] == 422 and opened["error"] == "bad_tutorial", opened
    bad = api.http.post(
        "/api/games", json={"game": "red-north", "seats": [{"type": "human"}, {"type": "bot"}], "tutorial": 1}
    )
    assert bad.status_code == 422, bad.text  # strictly a boolean
