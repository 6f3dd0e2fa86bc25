"""Log-ins under attack, on SQLite and PostgreSQL (and two processes): issue 24's password part.

* Wrong passwords meet growing friction, never a lock: a delay after a few failures, then a
  proof of work (``loginguard.py``); the right password from a device that logged in before
  passes at once; a challenge is redeemed once, for its username only.
* Password hashes run in a bounded pool of their own (``hashpool.py``): past its workers and
  queue a 503 with ``Retry-After``, nothing counted; its memory is capped.
* Log-in and sign-up buckets are keyed on networks (IPv4 /32, IPv6 /64) and kept in storage,
  so that they hold across the processes of a fleet (``sharedlimits.py``).
* Common, all-space and one-character passwords are refused; every key's old failures are pruned.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
import time
import uuid
from dataclasses import replace

import httpx
import pytest
from fleetkit import Proc
from srvkit import PG_URL, Backend, require_backend, start_server

from redtable.server import loginguard as guard
from redtable.server import sharedlimits
from redtable.server.accounts import username_key
from redtable.server.devices import DEVICE_COOKIE
from redtable.server.hashpool import HashPool, HashPoolFull
from redtable.server.limits import Limits, Rate, RateLimiter, network_key
from redtable.server.store import Store

PASSWORD = "correct horse battery"


def uname(prefix: str = "u") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def client(srv, **kw) -> httpx.Client:
    return httpx.Client(base_url=srv.base, timeout=30, **kw)


def register(c: httpx.Client, username: str) -> None:
    r = c.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text


def solve(challenge: str, bits: int) -> str:
    """The page's work, done here: the first nonce whose sha256(challenge:nonce) has ``bits`` zero bits."""
    for n in itertools.count():
        if guard.leading_zero_bits(hashlib.sha256(f"{challenge}:{n}".encode()).digest()) >= bits:
            return str(n)
    raise AssertionError  # (unreachable)


def fail_at(store, name: str, times: int, ago: float = 100.0) -> None:
    """``times`` failures at ``name``, dated ``ago`` seconds back (so that no delay is left to wait)."""
    for i in range(times):
        guard.record_failure(store, username_key(name), time.time() - ago - i)


# ---------------------------------------------------------------------- friction, not a lock
def test_wrong_passwords_slow_a_stranger_but_never_lock_the_owner_out(backend):
    srv = start_server(backend)
    try:
        with client(srv) as owner, client(srv) as stranger:
            name = uname("Own")
            register(owner, name)  # this browser is now a known device of the account
            assert DEVICE_COOKIE in owner.cookies
            bad = {"username": name, "password": "guess guess"}
            for _ in range(guard.DELAY_AFTER):
                assert stranger.post("/api/session", json=bad).status_code == 401
            fail_at(srv.hub.store, name, 2, ago=0)  # two more just now (the tries above took a hash each)
            r = stranger.post("/api/session", json=bad)
            assert r.status_code == 429 and r.json()["error"] == "login_delay"
            assert r.json()["failures"] == guard.DELAY_AFTER + 2 and int(r.headers["retry-after"]) >= 1
            assert "5 failed log-ins" in r.json()["message"] and "lock" not in r.json()["message"]
            # the right password from a stranger's browser waits too ...
            r = stranger.post("/api/session", json={"username": name, "password": PASSWORD})
            assert r.status_code == 429
            # ... but not from the owner's: at once, and the failures are forgotten
            owner.cookies.delete("redtable_session")
            r = owner.post("/api/session", json={"username": name.upper(), "password": PASSWORD})
            assert r.status_code == 200 and r.json()["logged_in"], r.text
            assert guard.friction(srv.hub.store, username_key(name)).failures == 0
    finally:
        srv.stop()


def test_ten_failures_ask_a_new_device_for_a_proof_of_work_not_ten_minutes(backend):
    srv = start_server(backend)
    try:
        with client(srv) as c:
            name = uname("Pow")
            register(c, name)
            c.cookies.clear()  # a new device from here on
            store = srv.hub.store
            fail_at(store, name, 10, ago=guard.DELAY_MAX + 5)  # ten failures from strangers, the delay spent
            r = c.post("/api/session", json={"username": name, "password": PASSWORD})
            assert r.status_code == 403 and r.json()["error"] == "challenge_required", r.text
            body = r.json()
            assert guard.POW_BITS_MIN <= body["bits"] <= guard.POW_BITS_MAX and body["failures"] == 10
            proof = {"challenge": body["challenge"], "nonce": solve(body["challenge"], body["bits"])}
            # a wrong nonce is no proof: a new challenge comes back
            r = c.post("/api/session", json={"username": name, "password": PASSWORD, "proof": {**proof, "nonce": "x1"}})
            assert r.status_code == 422 and "nonce" in r.text  # not digits: refused at the edge, naming the field
            wrong = next(
                str(n) for n in itertools.count() if not guard.proof_ok(proof["challenge"], str(n), body["bits"])
            )
            r = c.post(
                "/api/session", json={"username": name, "password": PASSWORD, "proof": {**proof, "nonce": wrong}}
            )
            assert r.status_code == 403 and r.json()["solved"] is True and r.json()["challenge"] != proof["challenge"]
            r = c.post("/api/session", json={"username": name, "password": PASSWORD, "proof": proof})
            assert r.status_code == 200 and r.json()["logged_in"], r.text
            # the owner is in, the failures are forgotten, and the challenge cannot serve again
            assert not guard.redeem(store, username_key(name), proof["challenge"], proof["nonce"], 0)
    finally:
        srv.stop()


def test_a_challenge_is_used_once_for_its_own_username_at_its_difficulty(backend):
    store = backend.store()
    try:
        key = username_key(uname("Ch"))
        ch = guard.issue_challenge(store, key, guard.POW_BITS_MIN)
        nonce = solve(ch, guard.POW_BITS_MIN)
        assert not guard.redeem(store, "someone-else", ch, nonce, guard.POW_BITS_MIN)  # another username's
        assert not guard.redeem(store, key, ch, nonce, guard.POW_BITS_MIN + 1)  # the friction rose since
        bad = next(str(n) for n in itertools.count() if not guard.proof_ok(ch, str(n), guard.POW_BITS_MIN))
        assert not guard.redeem(store, key, ch, bad, guard.POW_BITS_MIN)
        assert not guard.redeem(store, key, ch + "x", nonce, guard.POW_BITS_MIN)  # not issued
        assert guard.redeem(store, key, ch, nonce, guard.POW_BITS_MIN)
        assert not guard.redeem(store, key, ch, nonce, guard.POW_BITS_MIN)  # used up
        late = guard.issue_challenge(store, key, guard.POW_BITS_MIN, now=time.time() - guard.CHALLENGE_SECONDS - 1)
        assert not guard.redeem(store, key, late, solve(late, guard.POW_BITS_MIN), guard.POW_BITS_MIN)  # expired
    finally:
        store.dispose()


def test_friction_grows_and_old_failures_of_every_key_are_pruned(backend):
    store = backend.store()
    try:
        now = time.time()
        waits = [guard.delay_for(n) for n in range(12)]
        assert waits[: guard.DELAY_AFTER] == [0.0] * guard.DELAY_AFTER
        assert waits == sorted(waits) and max(waits) == guard.DELAY_MAX
        assert guard.bits_for(guard.CHALLENGE_AFTER - 1) == 0 and guard.bits_for(10**6) == guard.POW_BITS_MAX
        old = [f"old{i}" for i in range(5)]
        for k in old:
            guard.record_failure(store, k, now - guard.FAILURES_WINDOW - 10)
        guard.record_failure(store, "fresh", now)  # one write prunes every key's old rows, not only its own
        with store.engine.connect() as conn:
            keys = {
                r[0]
                for r in conn.execute(
                    guard.failures_table.select().with_only_columns(guard.failures_table.c.username_key)
                )
            }
        assert keys == {"fresh"}
        for i in range(4):
            guard.record_failure(store, "fresh", now + i)
        fr = guard.friction(store, "fresh", now + 3)
        assert fr.failures == 5 and fr.wait == pytest.approx(guard.delay_for(5)) and fr.bits == guard.bits_for(5)
    finally:
        store.dispose()


def test_unknown_usernames_meet_the_same_friction(served):
    """Failures at a name nobody has count like any other, so the answers tell no name apart."""
    srv, _ = served
    with client(srv) as c:
        nobody, somebody = uname("Nobody"), uname("Somebody")
        register(c, somebody)
        c.cookies.clear()
        answers = []
        for name in (nobody, somebody):
            for _ in range(guard.DELAY_AFTER):
                assert c.post("/api/session", json={"username": name, "password": "guess guess"}).status_code == 401
            fail_at(srv.hub.store, name, 2, ago=0)  # (just now: the delay is 8 s, however slow the machine)
            r = c.post("/api/session", json={"username": name, "password": "guess guess"})
            answers.append((r.status_code, r.json()["error"], r.json()["failures"]))
        assert answers == [(429, "login_delay", guard.DELAY_AFTER + 2)] * 2


# ---------------------------------------------------------------------- the hashing pool
def test_the_hashing_pool_is_bounded_and_its_memory_capped():
    mib = 1 << 20
    assert HashPool(8, 0, 128 * mib, 64 * mib).workers == 2  # the cap, not the cores, bounds it
    assert HashPool(2, 0, 1024 * mib, 64 * mib).memory_bytes == 128 * mib
    with pytest.raises(ValueError, match="hashing memory cap"):
        HashPool(2, 0, 32 * mib, 64 * mib)


def test_a_full_hashing_pool_answers_503_with_retry_after_and_counts_nothing(backend):
    srv = start_server(backend, limits=replace(Limits().relaxed(), hash_workers=1, hash_queue=1))
    release = threading.Event()
    try:
        pool = srv.app.state.hash_pool
        assert pool.workers == 1 and pool.queue == 1
        held = [srv.hub.loop.call_soon_threadsafe(_hold, pool, release) for _ in range(2)]  # the worker and the queue
        deadline = time.time() + 10
        while pool.in_flight < 2 and time.time() < deadline:
            time.sleep(0.01)
        assert pool.in_flight == 2, held
        with client(srv) as c:
            name = uname("Busy")
            r = c.post("/api/accounts", json={"username": name, "password": PASSWORD})
            assert r.status_code == 503 and r.json()["error"] == "hashing_busy", r.text
            assert int(r.headers["retry-after"]) >= 1
            r = c.post("/api/session", json={"username": name, "password": "guess guess"})
            assert r.status_code == 503
            assert guard.friction(srv.hub.store, username_key(name)).failures == 0  # a refused try is no failure
            # the session lookup and the lobby do not wait behind the hashes
            assert c.get("/api/session").status_code == 200 and c.get("/api/tables").status_code == 200
            release.set()
            while pool.in_flight and time.time() < deadline:
                time.sleep(0.01)
            register(c, name)
    finally:
        release.set()
        srv.stop()


def _hold(pool: HashPool, release: threading.Event) -> None:
    import asyncio

    asyncio.ensure_future(pool.run(release.wait, 20))


def test_the_pool_refuses_past_workers_and_queue():
    import asyncio

    async def main() -> None:
        pool = HashPool(1, 1, 1 << 30, 1 << 20)
        gate = threading.Event()
        first = asyncio.ensure_future(pool.run(gate.wait, 10))
        second = asyncio.ensure_future(pool.run(gate.wait, 10))
        await asyncio.sleep(0)
        with pytest.raises(HashPoolFull) as e:
            await pool.run(gate.wait, 10)
        assert e.value.retry_after >= 1 and pool.refused == 1
        gate.set()
        assert await first and await second and pool.in_flight == 0
        assert await pool.run(lambda: 7) == 7
        pool.close()

    asyncio.run(main())


# ---------------------------------------------------------------------- rate limits: networks, a fleet
def test_buckets_are_keyed_on_networks():
    assert network_key("198.51.100.7") == "198.51.100.7"
    assert network_key("2001:db8:1:2::1") == network_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert network_key("2001:db8:1:3::1") != network_key("2001:db8:1:2::1")
    assert network_key("::ffff:198.51.100.7") == "198.51.100.7"
    assert network_key("testclient") == "testclient"
    lim = RateLimiter(Limits(rates={"x": Rate(1, 1e-6)}))  # this process's buckets are keyed the same way
    assert lim.try_take("2001:db8:1:2::1", "x", 0.0) == 0 and lim.try_take("2001:db8:1:2::2", "x", 0.0) > 0
    assert lim.try_take("2001:db8:1:3::1", "x", 0.0) == 0


def test_log_ins_are_limited_per_network_in_storage(backend):
    rates = {**Limits().relaxed().rates, "login": Rate(2, 1e-6)}
    srv = start_server(backend, limits=replace(Limits().relaxed(), rates=rates, trust_proxy=True))
    try:
        with client(srv) as c:

            def try_from(addr: str) -> httpx.Response:
                body = {"username": uname(), "password": "guess guess"}
                return c.post("/api/session", json=body, headers={"X-Forwarded-For": addr})

            assert try_from("2001:db8:1:2::1").status_code == 401
            assert try_from("2001:db8:1:2:aaaa::2").status_code == 401  # the same /64: the same bucket
            r = try_from("2001:db8:1:2::3")
            assert r.status_code == 429 and r.json()["limit"] == "login" and int(r.headers["retry-after"]) >= 1
            assert try_from("2001:db8:1:3::1").status_code == 401  # the next /64
            assert try_from("198.51.100.7").status_code == 401
            assert try_from("198.51.100.8").status_code == 401  # IPv4: each address its own
        # the bucket is a row of storage (what another process would take from)
        assert sharedlimits.take(srv.hub.store, "2001:db8:1:2::77", "login", rates["login"]) > 0
    finally:
        srv.stop()


def test_shared_buckets_refill_and_never_give_one_token_twice(backend):
    store, other = backend.store(), backend.store()  # two engines: two processes' pools of connections
    try:
        rate = Rate(3, 1.0)
        now = time.time()
        got = [sharedlimits.take(s, "203.0.113.5", "register", rate, now) for s in (store, other) * 2]
        assert got[:3] == [0.0, 0.0, 0.0] and got[3] == pytest.approx(1.0)
        assert sharedlimits.take(other, "203.0.113.5", "register", rate, now + 1.0) == 0.0  # a token refilled
        assert sharedlimits.take(store, "203.0.113.6", "register", rate, now) == 0.0  # another address

        results: list[float] = []

        def grab(s) -> None:
            for _ in range(5):
                results.append(sharedlimits.take(s, "203.0.113.9", "login", Rate(6, 1e-9), now))

        threads = [threading.Thread(target=grab, args=(s,)) for s in (store, other)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sum(1 for w in results if w == 0.0) == 6  # ten takes at once, six tokens: six, never more
    finally:
        store.dispose()
        other.dispose()


@pytest.fixture
def pg_schema():
    require_backend("postgresql")
    b = Backend("postgresql", None)
    yield b.schema
    b.cleanup()


@pytest.mark.multiprocess
def test_sign_up_and_log_in_limits_hold_across_two_processes(pg_schema, tmp_path):
    """Two server processes on one database, one client address: the sign-up burst (5) and a
    username's failures are the fleet's, not each process's."""
    procs = [Proc(pg_schema, tmp_path / f"server{i}.log", extra=["--rate-scale", "1"]).start() for i in range(2)]
    try:
        cs = [httpx.Client(base_url=p.base, timeout=60) for p in procs]
        codes = [cs[i % 2].post("/api/accounts", json={"username": uname(), "password": PASSWORD}) for i in range(6)]
        assert [r.status_code for r in codes[:5]] == [201] * 5, [r.text for r in codes]
        assert codes[5].status_code == 429 and codes[5].json()["limit"] == "register"
        name = codes[0].json()["username"]
        for _ in range(guard.DELAY_AFTER):  # failures at one process ...
            cs[0].cookies.clear()
            assert cs[0].post("/api/session", json={"username": name, "password": "guess guess"}).status_code == 401
        store = Store(PG_URL, schema=pg_schema)  # (what a third process stores)
        fail_at(store, name, guard.CHALLENGE_AFTER - guard.DELAY_AFTER, ago=60)  # (older ones: the count only)
        store.dispose()
        cs[1].cookies.clear()
        r = cs[1].post("/api/session", json={"username": name, "password": PASSWORD})  # ... hold the other:
        # the delay from the last failure if it is still running (a hash takes seconds on a busy machine),
        # else the proof of work that this many failures ask for; never a log-in without either
        assert (r.status_code, r.json()["error"]) in ((429, "login_delay"), (403, "challenge_required")), r.text
        assert r.json()["failures"] == guard.CHALLENGE_AFTER
        for c in cs:
            c.close()
    finally:
        for p in procs:
            p.stop()


# ---------------------------------------------------------------------- passwords
@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("superman", "common"),
        ("Qwertyuiop", "common"),
        ("1qaz2wsx", "common"),
        (" " * 9, "repeated"),
        ("a" * 12, "repeated"),
    ],
)
def test_common_and_degenerate_passwords_are_refused(served, password, reason):
    srv, _ = served
    with client(srv) as c:
        r = c.post("/api/accounts", json={"username": uname(), "password": password})
        assert r.status_code == 422 and r.json()["error"] == "bad_password" and r.json()["reason"] == reason
        assert password.strip() == "" or password not in r.text
        register(c, uname())  # an uncommon one passes
