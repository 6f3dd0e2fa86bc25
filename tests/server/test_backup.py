"""Backups, restores, schema versions and retention, on SQLite and PostgreSQL (real services, the real CLI).

The backup test plays a game through the API, backs the database up with ``redtable db
backup`` while bots play on, restores the backup into a new database with ``redtable db
restore``, starts a new server on it and finishes the game there.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid

import psycopg
import pytest
from sqlalchemy import text
from srvkit import PG_URL, Api, Backend, start_server

from redtable.server import schema as sch
from redtable.server.retention import DAY, Retention, purge

CLI = [sys.executable, "-c", "from redtable.cli import main; main()"]


def cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def my_turn(api: Api, gid: str, token: str, seat: int, timeout: float = 20.0) -> dict:
    deadline = time.time() + timeout
    while True:
        me = api.state(gid, token)
        if me["status"] == "finished" or (me["decision"] and me["decision"]["player"] == seat):
            return me
        assert time.time() < deadline, "never my turn"
        time.sleep(0.005)


def play(api: Api, gid: str, token: str, moves: int | None) -> dict:
    """Seat 0 plays its first legal option ``moves`` times (None: to the end); the bot answers."""
    n = 0
    while moves is None or n < moves:
        me = my_turn(api, gid, token, 0)
        if me["status"] == "finished":
            return me
        r = api.decide(gid, token, me["decision"]["options"][0], me["version"])
        assert r.status_code == 200, r.text
        n += 1
    return api.state(gid, token)


class NewDatabase(Backend):
    """Where a backup is restored: a new SQLite file, or a new PostgreSQL database (same schema name)."""

    def __init__(self, old: Backend, tmp_path) -> None:
        super().__init__(old.kind, tmp_path)
        self.dbname = None
        if old.kind == "sqlite":
            self.url = f"sqlite:///{tmp_path}/restored.db"
        else:
            self.dbname = f"rt_restore_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f"CREATE DATABASE {self.dbname}")
            self.url = PG_URL.rsplit("/", 1)[0] + "/" + self.dbname
            self.schema = old.schema

    def cleanup(self) -> None:
        if self.dbname:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {self.dbname} WITH (FORCE)")


@pytest.mark.multiprocess
def test_backup_while_playing_then_restore_and_finish(backend, tmp_path):
    if backend.kind == "postgresql" and subprocess.run(["which", "pg_dump"], capture_output=True).returncode:
        pytest.skip("pg_dump is not installed (Debian: postgresql-client)")
    srv = start_server(backend)
    api = Api(srv.base)
    info, tokens = api.new_game("red-rising", ("human", "bot:random"))
    gid, token = info["game_id"], tokens[0]
    # bots playing each other all through the backup: the database is written while it is copied
    busy = [api.create("red-rising", ("bot:random", "bot:random"), bot_delay=0.02)["game_id"] for _ in range(2)]
    play(api, gid, token, 4)
    stop = threading.Event()

    def keep_playing() -> None:  # seat 0 goes on deciding while the backup runs (a few moves: not to the end)
        for _ in range(6):
            me = my_turn(api, gid, token, 0)
            if me["status"] == "finished" or stop.wait(0.15):
                return
            api.decide(gid, token, me["decision"]["options"][0], me["version"])

    player = threading.Thread(target=keep_playing)
    player.start()
    out = tmp_path / "games.backup"
    try:
        done = cli("db", "backup", str(out), *backend.cli_args())
    finally:
        stop.set()
        player.join(30)
    assert str(out) in done.stdout
    assert cli("db", "backup", str(out), *backend.cli_args(), ok=False).returncode == 2  # never overwrites
    at_backup = api.state(gid, token)
    srv.stop()
    api.close()

    checked = cli("db", "check", str(out)).stdout
    assert ('"integrity": "ok"' in checked and f'"schema_version": {sch.latest()}' in checked) or (
        "redtable_actions" in checked
    )
    new = NewDatabase(backend, tmp_path)
    try:
        cli("db", "restore", str(out), *new.cli_args())
        again = cli("db", "restore", str(out), *new.cli_args(), ok=False)
        assert again.returncode == 2 and "already holds" in again.stderr
        srv2 = start_server(new)
        api2 = Api(srv2.base)
        try:
            restored = api2.state(gid, token)  # the seat's token was backed up with the game
            assert restored["status"] == "active"
            assert 8 <= restored["version"] <= at_backup["version"]
            end = play(api2, gid, token, None)
            assert end["status"] == "finished" and end["version"] > restored["version"]
            for b in busy:  # the bots' games are there too, each a consistent prefix of its log
                assert api2.state(b)["version"] >= 0
        finally:
            api2.close()
            srv2.stop()
    finally:
        new.cleanup()


def test_schema_versions_and_migrations(backend, tmp_path):
    store = backend.store()
    now = sch.latest()  # a new database is made at the latest version directly
    nxt = now + 1
    try:
        with store.engine.connect() as conn:
            assert sch.read_version(store, conn) == now
        # a database made before versions were recorded is version 1, and gets its row (then migrates)
        with store.engine.begin() as conn:
            conn.execute(text(f"DROP TABLE {store.qualified('redtable_schema')}"))
            assert sch.read_version(store, conn) == 1
        if backend.kind == "postgresql" and now > 1:
            assert sch.migrate(store) == now
        else:
            assert store.create_tables() == now
        # a newer database is refused, saying to upgrade redtable
        with store.engine.begin() as conn:
            conn.execute(text(f"UPDATE {store.qualified('redtable_schema')} SET version = 97"))
        with pytest.raises(sch.SchemaError, match="upgrade redtable"):
            store.create_tables()
        with pytest.raises(sch.SchemaError, match="newer than this redtable"):
            sch.migrate(store)
        with store.engine.begin() as conn:
            conn.execute(text(f"UPDATE {store.qualified('redtable_schema')} SET version = {now}"))

        # a redtable that knows one more migration (a column added)
        def add_note(st, conn) -> None:
            conn.execute(text(f"ALTER TABLE {st.qualified('redtable_games')} ADD COLUMN note_v2 TEXT"))

        two = (*sch.MIGRATIONS, add_note)
        if backend.kind == "postgresql":  # explicit: the server refuses and says what to run
            with pytest.raises(sch.SchemaError, match="redtable db migrate --db-schema"):
                sch.prepare(store, migrations=two, where=f" --db-schema {backend.schema}")
            assert sch.migrate(store, migrations=two) == nxt
        else:  # SQLite migrates at start, after copying the file aside
            assert sch.prepare(store, migrations=two) == nxt
            assert (tmp_path / f"games.db.before-v{nxt}").is_file()
        with store.engine.connect() as conn:
            assert sch.read_version(store, conn) == nxt
            conn.execute(text(f"SELECT note_v2 FROM {store.qualified('redtable_games')}")).all()
        assert sch.migrate(store, migrations=two) == nxt  # nothing to do twice
    finally:
        store.dispose()


@pytest.mark.multiprocess
def test_serve_and_migrate_commands_on_a_newer_schema(tmp_path):
    b = Backend("sqlite", tmp_path)
    store = b.store()
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE redtable_schema SET version = 9"))
    store.dispose()
    done = subprocess.run(
        [sys.executable, "-m", "redtable.server", *b.cli_args(), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "version 9" in done.stderr and "upgrade redtable" in done.stderr
    m = cli("db", "migrate", *b.cli_args(), ok=False)
    assert m.returncode == 2 and "upgrade redtable" in m.stderr


def test_retention_purges_old_chat_and_failures_and_keeps_games(backend):
    from sqlalchemy import insert, select

    from redtable.server.chat import chat_table as chat
    from redtable.server.loginguard import failures_table as fails
    from redtable.server.store import games_table as games

    store = backend.store()
    now = time.time()
    row = {"game": "red-rising", "players": 2, "seed": 1, "options": "{}", "settings": "{}", "created_at": now}
    with store.engine.begin() as conn:
        conn.execute(
            insert(games),
            [
                {**row, "id": "old", "status": "finished", "finished_at": now - 40 * DAY},
                {**row, "id": "recent", "status": "finished", "finished_at": now - 2 * DAY},
                {**row, "id": "playing", "status": "active", "finished_at": None},
            ],
        )
        line = {"channel": "players", "seat": 0, "author": None, "guest": False, "text": "gg", "step": 1}
        conn.execute(
            insert(chat),
            [{**line, "game_id": g, "at": now - 50 * DAY} for g in ("old", "recent", "playing")],
        )
        conn.execute(insert(fails), [{"username_key": "ann", "at": now - 31 * DAY}, {"username_key": "ann", "at": now}])
    try:
        gone = purge(store, Retention(chat_days=30, failure_days=30))
        assert gone == {"chat": 1, "login_failures": 1, "reports": 0}
        with store.engine.connect() as conn:
            assert sorted(conn.execute(select(chat.c.game_id)).scalars()) == ["playing", "recent"]
            assert conn.execute(select(fails.c.at)).scalars().all() == [pytest.approx(now)]
            assert sorted(conn.execute(select(games.c.id)).scalars()) == ["old", "playing", "recent"]
        assert purge(store, Retention(chat_days=0, failure_days=0)) == {"chat": 0, "login_failures": 0, "reports": 0}
        with pytest.raises(ValueError, match="chat_days"):
            Retention(chat_days=-1)
    finally:
        store.dispose()


def _old_chat(store, tag: str) -> None:
    """A game finished 40 days ago with a line of chat, and a failed log-in 31 days old."""
    from sqlalchemy import insert

    from redtable.server.chat import chat_table as chat
    from redtable.server.loginguard import failures_table as fails
    from redtable.server.store import games_table as games

    now = time.time()
    row = {"game": "red-rising", "players": 2, "seed": 1, "options": "{}", "settings": "{}", "created_at": now}
    with store.engine.begin() as conn:
        conn.execute(insert(games), [{**row, "id": tag, "status": "finished", "finished_at": now - 40 * DAY}])
        line = {"channel": "players", "seat": 0, "author": None, "guest": False, "text": "gg", "step": 1}
        conn.execute(insert(chat), [{**line, "game_id": tag, "at": now - 50 * DAY}])
        conn.execute(insert(fails), [{"username_key": tag, "at": now - 31 * DAY}])


def _chat_of(store, tag: str) -> int:
    from sqlalchemy import func, select

    from redtable.server.chat import chat_table as chat

    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).where(chat.c.game_id == tag)).scalar_one()


@pytest.mark.multiprocess
def test_the_purge_command_and_the_serving_process_apply_the_retention(backend):
    """``redtable db purge`` once (refusing a negative number of days), and ``serve`` by itself."""
    from tablekit import until

    store = backend.store()
    try:
        _old_chat(store, "cli")
        bad = cli("db", "purge", "--chat-days", "-3", *backend.cli_args(), ok=False)
        assert bad.returncode == 2 and "--chat-days" in bad.stderr
        assert _chat_of(store, "cli") == 1
        done = cli("db", "purge", "--chat-days", "30", "--login-failure-days", "30", *backend.cli_args())
        assert "purged 1 chat lines, 1 failed log-ins and 0 closed reports" in done.stdout
        assert _chat_of(store, "cli") == 0
        _old_chat(store, "srv")
        srv = start_server(backend, retention=Retention(chat_days=30, failure_days=30))
        try:
            until(lambda: _chat_of(store, "srv") == 0, what="the server's purge")
        finally:
            srv.stop()
        games = store.engine.connect()
        try:
            ids = games.execute(text(f"SELECT id FROM {store.qualified('redtable_games')}")).scalars().all()
        finally:
            games.close()
        assert {"cli", "srv"} <= set(ids)  # finished games' records are kept
    finally:
        store.dispose()
