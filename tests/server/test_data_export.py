"""``redtable export`` (``server/dataexport.py``) on SQLite and PostgreSQL, read back by ``redtable.data``.

Games are made with the store's own writes (seats of accounts, a guest, bots; a rated game
rated by ``ratings.apply_result``; an undone decision) and one through the HTTP API; the
export is read in both formats, every row replays to its recorded result, no username,
display name, account id or server game id is in the files unless the player opted in, a
second run adds only the new games, and the command's refusals are one clear line.
"""

from __future__ import annotations

import json
import time
import uuid

import orjson
import pytest
from srvkit import Backend
from typer.testing import CliRunner

from redtable.bots import make_bot
from redtable.cli import app
from redtable.core import make_game
from redtable.data import check, read_rows
from redtable.server import accounts as acc
from redtable.server.dataexport import STATE_FILE
from redtable.server.dataexport import export as export_games
from redtable.server.fairness import new_salt, seed_commitment
from redtable.server.publicgames import is_public, set_public
from redtable.server.ratings import apply_result, history_table

FAKE_HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"
runner = CliRunner()


def play(title: str, players: int, seed: int) -> list[str]:
    """The actions of a game random bots play from ``seed``."""
    state = make_game(title, players).new_initial_state(seed)
    bots = [make_bot("random", seed=seed * 7 + i) for i in range(players)]
    while (d := state.decision()) is not None:
        state.apply(bots[d.player].choose(state))
    return list(state.history)


def stored_game(st, seats: list, seed: int, rated: bool = False, undone: bool = False, title="red-north") -> str:
    """A finished game written as the server writes one: ``seats`` are account ids, bot presets
    (str) or None (a guest with a display name); with ``undone`` a decision undone on the way."""
    gid = uuid.uuid4().hex[:16]
    salt = new_salt()
    actions = play(title, len(seats), seed)
    state = make_game(title, len(seats)).new_initial_state(seed)
    for a in actions:
        state.apply(a)
    settings = {"rated": rated, "undo": undone, "salt": salt, "seed_commitment": seed_commitment(seed, salt)}
    row = {
        "id": gid,
        "game": title,
        "players": len(seats),
        "seed": seed,
        "options": "{}",
        "settings": orjson.dumps(settings).decode(),
        "status": "active",
        "created_at": time.time(),
        "finished_at": None,
        "result": None,
    }
    seat_rows = [
        {
            "game_id": gid,
            "seat": i,
            "kind": "bot" if isinstance(s, str) else "human",
            "bot": s if isinstance(s, str) else None,
            "name": "Zed Realname" if s is None else None,
            "invite_hash": None,
            "token_hash": None,
            "joined_at": time.time(),
            "account_id": s if isinstance(s, int) else None,
        }
        for i, s in enumerate(seats)
    ]
    ops: list[tuple] = [("game", row, seat_rows)]
    seq = 0
    for i, a in enumerate(actions):
        if undone and i == 1:  # a decision taken back: in the log, marked undone
            seq += 1
            ops.append(("action", _action(gid, seq, a, undone=True), None))
        seq += 1
        result = {"scores": state.scores(), "winners": state.winners()} if i == len(actions) - 1 else None
        ops.append(("action", _action(gid, seq, a), result))
    assert st.write_batch(ops) == [None] * len(ops)
    if rated:
        assert apply_result(st, gid) is not None
    return gid


def _action(gid: str, seq: int, action: str, undone: bool = False) -> dict:
    return {"game_id": gid, "seq": seq, "seat": 0, "action": action, "undoable": False, "undone": undone, "at": 0.0}


def export(b_args: list[str], out, *more: str):
    return runner.invoke(app, ["export", *b_args, "--out", str(out), "--settle", "0", *more])


def files_text(out) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(out.iterdir()) if p.name != STATE_FILE)


def test_export_pseudonymises_replays_and_adds_only_new_games(backend: Backend, tmp_path):
    st = backend.store()
    names = [f"u{uuid.uuid4().hex[:10]}" for _ in range(2)]
    ann, bob = (acc.create_account(st, n, FAKE_HASH).id for n in names)
    set_public(st, bob, True)
    assert is_public(st, bob) and not is_public(st, ann)
    g1 = stored_game(st, [ann, bob, "random"], seed=11, rated=True)
    g2 = stored_game(st, [ann, None, "heuristic"], seed=12, undone=True)
    out = tmp_path / "data"

    r = export(backend.cli_args(), out)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"] == 2
    listed = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert listed == [STATE_FILE, "part-00001.jsonl", "part-00001.parquet"]
    rows = list(read_rows(out))  # Parquet
    assert rows == list(read_rows(out, "jsonl"))  # the two formats hold the same values
    assert [r["seed"] for r in rows] == [11, 12] and {r["schema_version"] for r in rows} == {1}
    for row in rows:
        final = check(row)  # replays every action from the seed and the commitment; the result matches
        assert final.is_terminal() and row["decisions"] == len(row["actions"]) == len(final.history)
    one, two = rows
    assert one["seats"][0]["player"] == two["seats"][0]["player"]  # ann: one pseudonym in the set
    assert one["seats"][0]["username"] is None and one["seats"][1]["username"] == names[1]  # bob opted in
    assert [s["kind"] for s in two["seats"]] == ["human", "guest", "bot"] and two["seats"][2]["bot"] == "heuristic"
    assert two["seats"][1]["player"] is None and not two["rated"] and one["rated"]
    with st.engine.connect() as conn:
        hist = {r.account_id: r for r in conn.execute(history_table.select().where(history_table.c.game_id == g1))}
    assert one["seats"][0]["mu_before"] == hist[ann].mu_before and one["seats"][0]["mu_after"] == hist[ann].mu_after
    assert two["seats"][0]["mu_before"] is None
    raw = files_text(out)
    for secret in (names[0], "Zed Realname", g1, g2):
        assert secret.encode() not in raw
    assert names[1].encode() in raw  # (the check above can see a name)
    assert b"account" not in raw and one["seats"][0]["player"] not in (str(ann), names[0])

    again = export(backend.cli_args(), out)  # nothing new: no new part
    assert again.exit_code == 0 and json.loads(again.stdout)["games"] == 0
    g3 = stored_game(st, ["random", ann], seed=13)
    third = export(backend.cli_args(), out, "--format", "jsonl")
    assert third.exit_code == 0, third.output
    assert json.loads(third.stdout) | {"files": None} == {"games": 1, "total": 3, "files": None}
    new = list(read_rows(out / "part-00002.jsonl"))
    assert [r["seed"] for r in new] == [13] and new[0]["seats"][1]["player"] == one["seats"][0]["player"]
    assert g3.encode() not in files_text(out)

    elsewhere = tmp_path / "other"  # another data set: other pseudonyms, all three games
    r = export(backend.cli_args(), elsewhere, "--format", "jsonl")
    rows_b = list(read_rows(elsewhere))
    assert len(rows_b) == 3 and rows_b[0]["seats"][0]["player"] != one["seats"][0]["player"]
    assert rows_b[0]["game_id"] != one["game_id"] and rows_b[0]["actions"] == one["actions"]
    later = runner.invoke(
        app, ["export", *backend.cli_args(), "--out", str(tmp_path / "late"), "--since", "2999-01-01", "--settle", "0"]
    )
    assert later.exit_code == 0 and json.loads(later.stdout)["games"] == 0
    st.dispose()


def test_pages_ties_and_settling(backend: Backend, tmp_path):
    """Games read one page at a time, several finishing at the same instant, each exported once;
    a game finished within ``settle`` seconds waits for the next run."""
    from sqlalchemy import update

    from redtable.server.store import games_table

    st = backend.store()
    ids = [stored_game(st, ["random", "random"], seed=20 + i) for i in range(5)]
    with st.engine.begin() as conn:  # three games finish at one instant, in no particular id order
        conn.execute(update(games_table).where(games_table.c.id.in_(ids[:3])).values(finished_at=1000.0))
        conn.execute(update(games_table).where(games_table.c.id == ids[3]).values(finished_at=1001.0))
    out = tmp_path / "d"
    first = export_games(st, out, ["jsonl"], settle=60.0, page=1)  # the fifth finished just now: not yet
    assert first["games"] == 4
    assert sorted(r["seed"] for r in read_rows(out)) == [20, 21, 22, 23]
    second = export_games(st, out, ["jsonl"], settle=0.0, page=2)
    assert second["games"] == 1 and second["total"] == 5
    seeds = [r["seed"] for r in read_rows(out)]
    assert sorted(seeds) == [20, 21, 22, 23, 24] and len(set(seeds)) == 5
    assert export_games(st, out, ["jsonl"], settle=0.0)["games"] == 0
    st.dispose()


def test_a_run_stopped_before_its_state_is_redone_and_one_writer_at_a_time(backend: Backend, tmp_path):
    import fcntl

    from redtable.server.dataexport import LOCK_FILE

    st = backend.store()
    out = tmp_path / "d"
    stored_game(st, ["random", "random"], seed=40)
    assert export_games(st, out, ["jsonl"], settle=0.0)["games"] == 1
    before = (out / STATE_FILE).read_text()
    stored_game(st, ["random", "random"], seed=41)
    assert export_games(st, out, ["jsonl"], settle=0.0)["games"] == 1
    (out / STATE_FILE).write_text(before)  # as if the run had stopped after its part, before its state
    stored_game(st, ["random", "random"], seed=42)
    assert export_games(st, out, ["jsonl"], settle=0.0)["games"] == 2  # part 2 again, and the new game
    assert sorted(p.name for p in out.glob("part-*")) == ["part-00001.jsonl", "part-00002.jsonl"]
    assert [r["seed"] for r in read_rows(out)] == [40, 41, 42]

    with open(out / LOCK_FILE, "a+b") as lock:  # another run holds the directory
        fcntl.flock(lock, fcntl.LOCK_EX)
        from clikit import clean_error

        clean_error(export(backend.cli_args(), out), "another export")
    (out / STATE_FILE).unlink()  # parts whose key is gone: their pseudonyms cannot go on
    clean_error(export(backend.cli_args(), out), "new directory")
    st.dispose()


def test_the_migration_makes_the_public_games_table_once(backend: Backend):
    """The open data's migration (``schema._open_data``) makes its table on a database that lacks
    it, and changes nothing run again."""
    from sqlalchemy import inspect, text

    from redtable.server import schema as sch

    st = backend.store()
    migration = next(m for m in sch.MIGRATIONS if m.__name__ == "_open_data")
    try:
        with st.engine.begin() as conn:
            conn.execute(text(f"DROP TABLE {st.qualified('redtable_public_games')}"))
        for _ in range(2):
            with st.engine.begin() as conn:
                migration(st, conn)
        with st.engine.connect() as conn:
            assert "redtable_public_games" in inspect(conn).get_table_names(schema=st.schema)
        set_public(st, 7, True)
        set_public(st, 7, False)
        assert not is_public(st, 7)
    finally:
        st.dispose()


def test_the_choice_is_in_the_accounts_data_export_and_goes_with_it_and_its_games_become_a_guests(
    backend: Backend, tmp_path
):
    from redtable.server.accountexport import export as account_data
    from redtable.server.erasure import erase

    st = backend.store()
    name = f"u{uuid.uuid4().hex[:10]}"
    ann = acc.create_account(st, name, FAKE_HASH).id
    set_public(st, ann, True)
    stored_game(st, [ann, "random"], seed=31)
    data = account_data(st, ann)
    assert data is not None and data["settings"]["public_games"][0]["public_games"] is True
    assert erase(st, ann) is not None
    assert not is_public(st, ann)
    r = export(backend.cli_args(), tmp_path / "d", "--format", "jsonl")
    assert r.exit_code == 0, r.output
    (row,) = read_rows(tmp_path / "d")
    assert row["seats"][0]["kind"] == "guest" and row["seats"][0]["player"] is None
    assert name.encode() not in files_text(tmp_path / "d")
    st.dispose()


def test_a_game_played_through_the_api_is_exported_and_the_setting_is_on_the_account_api(served, tmp_path):
    srv, api = served
    st = srv.app.state.store
    info = api.create("red-north", ("bot", "bot"), seed=5, bot_delay=0.0)
    gid = info["game_id"]
    deadline = time.time() + 20
    while api.state(gid)["status"] != "finished":
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.02)
    final = api.state(gid)
    args = ["--db", st.url] + (["--db-schema", st.schema] if st.schema else [])
    r = export(args, tmp_path / "d", "--format", "parquet")
    assert r.exit_code == 0, r.output
    rows = [row for row in read_rows(tmp_path / "d") if row["seed"] == 5 and row["decisions"] == final["step"]]
    assert rows and rows[0]["scores"] == [float(s) for s in final["result"]["scores"]]
    assert check(rows[0]).scores() == final["result"]["scores"]
    assert rows[0]["seed_commitment"] == info["seed_commitment"] and rows[0]["salt"]

    name = f"u{uuid.uuid4().hex[:10]}"
    c = api.http
    reg = c.post("/api/accounts", json={"username": name, "password": "correct horse"})
    assert reg.status_code == 201, reg.text
    csrf = {"X-CSRF-Token": reg.json()["csrf"]}
    assert c.get("/api/account/public-games").json() == {"public_games": False}
    assert c.put("/api/account/public-games", json={"public_games": True}).status_code == 403  # no CSRF header
    bad = c.put("/api/account/public-games", json={"public_games": "yes"}, headers=csrf)
    assert bad.status_code == 422
    ok = c.put("/api/account/public-games", json={"public_games": True}, headers=csrf)
    assert ok.status_code == 200 and c.get("/api/account/public-games").json() == {"public_games": True}
    c.delete("/api/session", headers=csrf)
    c.cookies.clear()
    assert c.get("/api/account/public-games").status_code == 401


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--db", "mysql://u@h/d"], "SQLite or PostgreSQL"),
        (["--db", "sqlite:///{tmp}/none.db"], "no SQLite database"),
        (["--db", "postgresql://postgres:hunter2@127.0.0.1:1/test"], "cannot"),
        (["--db", "sqlite:///{tmp}/games.db", "--format", "csv"], "--format"),
        (["--db", "sqlite:///{tmp}/games.db", "--since", "yesterday"], "--since"),
        (["--db", "sqlite:///{tmp}/games.db", "--out", "{tmp}/file"], "is a file"),
        (["--db", "sqlite:///{tmp}/other.db"], "no redtable games"),
    ],
)
def test_export_refusals_are_one_clear_line(tmp_path, args, fragment):
    import sqlite3

    from clikit import clean_error

    Backend("sqlite", tmp_path).store().dispose()
    with sqlite3.connect(tmp_path / "other.db") as other:  # a database of something else
        other.execute("CREATE TABLE notes (x TEXT)")
    (tmp_path / "file").write_text("x")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "out")]
    r = runner.invoke(app, ["export", *args])
    err = clean_error(r, fragment)
    assert "hunter2" not in err
    assert not (tmp_path / "out").exists()
