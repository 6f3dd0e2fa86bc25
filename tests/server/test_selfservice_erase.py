"""Deleting an account in storage (``redtable/server/erasure.py``) on SQLite and PostgreSQL.

The account's id is in no column of any table afterwards (the columns read from the metadata,
so a table added later is checked too), its name in no text of any table; the other player's
seat, rating and history stand; the finished game keeps its seats, the deleted one named by the
label; a reported chat line stays (its author the label), the others go; reports stay
anonymised. The checks first prove that the account was in many tables (not vacuous).
"""

from __future__ import annotations

import time
import uuid

import orjson
import pytest
from sqlalchemy import Integer, String, Text, func, insert, select

from redtable.server import accounts as acc
from redtable.server import emails, push, sharedlimits
from redtable.server import loginguard as guard
from redtable.server import moderation as mod
from redtable.server.accountexport import export
from redtable.server.chat import chat_table, check_chat_writer
from redtable.server.erasure import OTHER_ACCOUNT_COLUMNS, account_columns, erase, is_account_column, label
from redtable.server.errors import ApiError
from redtable.server.limits import Rate
from redtable.server.ratings import apply_result, history_table, ratings_table
from redtable.server.store import metadata, seats_table, tokens_table

FAKE_HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"
#: integer columns named like an id that hold no account's id (a game, a chat line, a report...)
NOT_ACCOUNTS = {"id", "game_id", "new_game_id", "chat_id", "report_id", "action_id"}


def test_every_id_column_is_known_to_the_erasure():
    """An integer column named ``*_id`` (or ``*_by``) is an account column or declared as not one:
    a new table whose account column the erasure would not find fails here."""
    seen = []
    for t, c in account_columns():
        seen.append((t.name, c.name))
    for t in metadata.sorted_tables:
        for c in t.columns:
            if not isinstance(c.type, Integer) or not (c.name.endswith("_id") or c.name.endswith("_by")):
                continue
            if c.name in NOT_ACCOUNTS or c.name in ("by_seat", "declined_by"):  # (seats, not accounts)
                continue
            assert is_account_column(t, c), (
                f"{t.name}.{c.name} looks like an account id: name it account_id, give it info={{'account': True}}, "
                "or add it to erasure.OTHER_ACCOUNT_COLUMNS (or to this test's NOT_ACCOUNTS)"
            )
    assert ("redtable_sessions", "account_id") in seen and ("redtable_seats", "account_id") in seen
    assert OTHER_ACCOUNT_COLUMNS <= set(seen) and len(seen) >= 15


def finished_game(st, seats: list[tuple[int, str]], result: dict, host: str | None = None) -> str:
    gid = uuid.uuid4().hex[:16]
    settings = {"rated": True, "undo": False}
    if host is not None:
        settings["host"] = {"seat": 0, "name": host, "account": True}
    row = {
        "id": gid,
        "game": "red-north",
        "players": len(seats),
        "seed": 1,
        "options": "{}",
        "settings": orjson.dumps(settings).decode(),
        "status": "finished",
        "created_at": time.time(),
        "finished_at": time.time(),
        "result": orjson.dumps(result).decode(),
    }
    seat_rows = [
        {
            "game_id": gid,
            "seat": i,
            "kind": "human",
            "bot": None,
            "name": name,
            "invite_hash": None,
            "token_hash": None,
            "joined_at": time.time(),
            "account_id": a,
        }
        for i, (a, name) in enumerate(seats)
    ]
    assert st.write_batch([("game", row, seat_rows)]) == [None]
    with st.engine.begin() as conn:
        for i in range(len(seats)):
            conn.execute(
                insert(tokens_table).values(
                    token_hash=uuid.uuid4().hex, game_id=gid, seat=i, created_at=time.time(), revoked_at=None
                )
            )
    return gid


def chat_line(st, gid: str, seat: int | None, author: str, text: str) -> int:
    with st.engine.begin() as conn:
        got = conn.execute(
            insert(chat_table).values(
                game_id=gid,
                channel="players" if seat is not None else "spectators",
                seat=seat,
                author=author,
                guest=False,
                text=text,
                step=1,
                at=time.time(),
            )
        )
    return int(got.inserted_primary_key[0])


def holding(st, account_id: int) -> dict[str, int]:
    """(table.column) -> rows holding the account id, for every account column of the metadata."""
    out = {}
    with st.engine.connect() as conn:
        for t, c in account_columns():
            n = conn.execute(select(func.count()).select_from(t).where(c == account_id)).scalar_one()
            if n:
                out[f"{t.name}.{c.name}"] = n
    return out


def naming(st, text: str) -> dict[str, int]:
    """(table.column) -> rows whose text holds ``text``, in every text column of every table."""
    out = {}
    with st.engine.connect() as conn:
        for t in metadata.sorted_tables:
            for c in t.columns:
                if isinstance(c.type, (String, Text)):
                    where = func.lower(c).contains(text.lower())
                    n = conn.execute(select(func.count()).select_from(t).where(where)).scalar_one()
                    if n:
                        out[f"{t.name}.{c.name}"] = n
    return out


def test_erasure_leaves_nothing_personal_and_keeps_the_others_records(backend):
    st = backend.store()
    name, other = f"Del{uuid.uuid4().hex[:10]}", f"Oth{uuid.uuid4().hex[:10]}"
    me = acc.create_account(st, name, FAKE_HASH).id
    them = acc.create_account(st, other, FAKE_HASH).id
    acc.new_session(st, me)
    emails.set_address(st, me, f"{name}@example.org", "en")
    emails.new_token(st, "verify", me, emails.address_key(f"{name}@example.org"), 3600)
    push.subscribe(st, me, "https://push.example.org/" + uuid.uuid4().hex, "k" * 87, "a" * 22, "en")
    guard.remember_device(st, uuid.uuid4().hex, me)
    guard.record_failure(st, acc.username_key(name))
    sharedlimits.take(st, f"#{me}", "export", Rate(3, 0.001))
    mod.grant(st, me, "moderator", other)
    mod.grant(st, them, "moderator", name)  # (a role the account granted: its name on the other's row)
    mod.set_site(st, "banner", "hello", name)
    gid = finished_game(st, [(me, name), (them, other)], {"scores": [10, 20], "winners": [1]}, host=name)
    assert apply_result(st, gid) is not None  # both rated, each with a history row
    kept = chat_line(st, gid, 0, name, "reported words")
    chat_line(st, gid, 0, name, "unreported words")
    chat_line(st, gid, None, name, "as a spectator")
    theirs = chat_line(st, gid, 1, other, "the other player's words")
    mod.file_report(
        st, f"a:{them}", them, "message", {"target": f"m:{kept}", "account_id": me, "game_id": gid, "chat_id": kept},
        "abuse", "look",
    )  # fmt: skip
    mod.file_report(
        st, f"a:{me}", me, "player", {"target": f"a:{them}", "account_id": them, "game_id": gid, "chat_id": None},
        "cheat", None,
    )  # fmt: skip
    mod.file_report(
        st, f"a:{them}", them, "player", {"target": f"a:{me}", "account_id": me, "game_id": None, "chat_id": None},
        "abuse", None,
    )  # fmt: skip
    mod.record_action(st, actor_id=them, actor=other, action="warn", reason="be nice", account_id=me, sanction=None)
    ex = export(st, me)
    assert ex is not None and ex["profile"]["username"] == name and ex["email"]["address"] == f"{name}@example.org"
    assert [g["game_id"] for g in ex["games"]] == [gid] and ex["games"][0]["rating_change"]["place"] == 2
    assert {x["text"] for x in ex["chat"]} == {"reported words", "unreported words", "as a spectator"}
    assert len(ex["reports_filed"]) == 1 and len(ex["rating_history"]) == 1 and ex["ratings"][0]["games"] == 1
    assert "push_subscriptions" in ex["settings"] and "endpoint" not in ex["settings"]["push_subscriptions"][0]
    assert "hash" not in orjson.dumps(ex).decode().lower().replace("hashes", "")
    mod.record_action(
        st, actor_id=them, actor=other, action="undo_ratings", reason="r", game_id=gid,
        detail={"changed": {f"a:{me}": {"before": [1, 2]}, f"a:{them}": {"before": [3, 4]}}},
    )  # fmt: skip
    before_ids, before_names = holding(st, me), naming(st, name)
    assert len(before_ids) >= 12, before_ids  # (not vacuous: the account is in many tables)
    assert len(before_names) >= 6, before_names
    their_rating = st.engine.connect().execute(select(ratings_table).where(ratings_table.c.account_id == them)).all()

    gone = erase(st, me, n=424242)
    assert gone is not None and gone.label == label(424242) and gone.renamed == [(gid, 0)] and gone.freed == []
    assert holding(st, me) == {}
    assert naming(st, name) == {}
    assert gone.hosts == [gid]
    assert naming(st, f'"a:{me}"') == {} and naming(st, f'"a:{them}"') == {"redtable_mod_actions.detail": 1}
    assert erase(st, me) is None and acc.find_account(st, name) is None
    with st.engine.connect() as conn:
        seats = conn.execute(select(seats_table.c.seat, seats_table.c.name, seats_table.c.account_id).where(
            seats_table.c.game_id == gid).order_by(seats_table.c.seat)).all()  # fmt: skip
        assert [tuple(s) for s in seats] == [(0, gone.label, None), (1, other, them)]
        assert conn.execute(select(ratings_table).where(ratings_table.c.account_id == them)).all() == their_rating
        h = history_table.c
        assert conn.execute(select(func.count()).select_from(history_table).where(h.game_id == gid)).scalar_one() == 1
        lines = {r.id: (r.author, r.text) for r in conn.execute(select(chat_table).where(chat_table.c.game_id == gid))}
        assert lines == {kept: (gone.label, "reported words"), theirs: (other, "the other player's words")}
        t = tokens_table.c
        live = conn.execute(select(t.seat).where(t.game_id == gid, t.revoked_at.is_(None))).scalars().all()
        assert live == [1]
        r = mod.reports_table.c
        reports = conn.execute(select(r.reporter, r.target, r.target_account_id).order_by(r.id)).all()
        assert [tuple(x) for x in reports] == [
            (f"a:{them}", f"m:{kept}", None),  # (a message: the line kept, its author the label)
            ("d:424242", f"a:{them}", them),
            (f"a:{them}", "d:424242", None),
        ]
        roles = mod.roles_table.c
        assert conn.execute(select(roles.granted_by).where(roles.account_id == them)).scalar() == gone.label
    # the name is free again: a newcomer under it inherits nothing
    again = acc.create_account(st, name, FAKE_HASH).id
    fresh = export(st, again)
    assert fresh is not None and fresh["games"] == [] and fresh["chat"] == [] and fresh["ratings"] == []
    st.dispose()


def test_a_waiting_tables_seat_is_freed(backend):
    """A table not begun (stored ``active``, no decision yet): the seat is free again, not renamed."""
    st = backend.store()
    me = acc.create_account(st, f"W{uuid.uuid4().hex[:10]}", FAKE_HASH).id
    gid = finished_game(st, [(me, "W"), (None, None)], {})
    with st.engine.begin() as conn:
        from redtable.server.store import games_table

        conn.execute(games_table.update().where(games_table.c.id == gid).values(status="active", result=None))
    gone = erase(st, me)
    assert gone is not None and gone.freed == [(gid, 0)] and gone.renamed == []
    with st.engine.connect() as conn:
        s = seats_table.c
        row = conn.execute(select(s.name, s.joined_at, s.account_id).where(s.game_id == gid, s.seat == 0)).first()
        assert tuple(row) == (None, None, None)
    assert holding(st, me) == {}
    st.dispose()


def test_a_rated_game_ending_after_a_deletion_rates_the_others(backend):
    """A seat forfeited by a deleted account (a bot played it on) ranks last at the prior and
    moves no row; the other accounts are rated as usual."""
    st = backend.store()
    ids = [acc.create_account(st, f"R{uuid.uuid4().hex[:10]}", FAKE_HASH).id for _ in range(3)]
    gid = finished_game(st, [(i, None) for i in ids], {"scores": [30, 20, 10], "winners": [0], "forfeited": [0]})
    assert erase(st, ids[0]) is not None
    got = apply_result(st, gid)
    assert got is not None and got["places"] == [3, 1, 2]
    assert sorted(c["account_id"] for c in got["changes"]) == sorted(ids[1:])
    with st.engine.connect() as conn:
        r = ratings_table.c
        assert conn.execute(select(func.count()).select_from(ratings_table).where(r.player.like("a:%"))).scalar() == 2
    assert holding(st, ids[0]) == {}
    st.dispose()


def test_a_spectator_socket_of_a_deleted_account_writes_no_more(backend):
    """A socket opened while logged in signs its lines with the name; once the account is gone it
    is refused (read at every line, so every process of a fleet agrees)."""
    st = backend.store()
    name = f"S{uuid.uuid4().hex[:10]}"
    me = acc.create_account(st, name, FAKE_HASH).id
    check_chat_writer(st, "g" * 16, None, name)  # (allowed while the account exists)
    erase(st, me)
    with pytest.raises(ApiError) as e:
        check_chat_writer(st, "g" * 16, None, name)
    assert e.value.status == 403 and e.value.code == "account_deleted"
    check_chat_writer(st, "g" * 16, None, None)  # a guest still writes
    st.dispose()


def test_undoing_ratings_after_a_deletion_replays_its_seat_at_the_prior(backend):
    """A moderator's undo of a game's ratings replays the title's games again: a deleted account's
    seat there counts at the prior it was rated at, so the other player's rating comes back exact."""
    st = backend.store()
    a, b, c = (acc.create_account(st, f"U{uuid.uuid4().hex[:10]}", FAKE_HASH).id for _ in range(3))
    first = finished_game(st, [(a, None), (b, None)], {"scores": [10, 20], "winners": [1]})
    assert apply_result(st, first) is not None
    r = ratings_table.c
    with st.engine.connect() as conn:
        after_first = conn.execute(select(r.mu, r.sigma).where(r.account_id == b)).one()
    assert erase(st, a) is not None
    second = finished_game(st, [(b, None), (c, None)], {"scores": [10, 20], "winners": [1]})
    assert apply_result(st, second) is not None
    mod.undo_ratings(st, second)
    with st.engine.connect() as conn:
        assert tuple(conn.execute(select(r.mu, r.sigma).where(r.account_id == b)).one()) == pytest.approx(
            tuple(after_first)
        )
    assert holding(st, a) == {}
    st.dispose()
