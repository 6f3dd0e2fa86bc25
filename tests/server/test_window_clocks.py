"""The clock tells nobody who holds a blocker (``block_windows`` on clocked tables).

Twin games of Red Rising on one server, built as in ``tests/redrising/test_block_windows.py``
(``twin_window_states``): the same seed and the same public history, then hidden cards
re-dealt so that in one twin the seat asked to block (``q``) holds Judge and in the other no
blocker at all, where the server answers the window itself. Every other seat and a
spectator are connected over WebSockets and also read the game, its log, the lobby and
"my games" over HTTP at every step, the window included (read while it is open). Everything
they receive must be the same in both twins, step by step, the clock included: which seat's
time runs, whether there is a deadline, and how each seat's time moved from one reading to
the next (within the test's own pacing, far below the increment a server answer without it
would have lacked). Only wall-clock instants (``now``, ``deadline``, creation times) and
each game's own identity (id, seed commitment) are set aside.

When the asked seat is away (no connection, no read), its window stays open in both twins
until it is back: the server does not say no for somebody who is not there, so the seat's
"offline" badge and an answered window do not tell that it held nothing.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from srvkit import BACKENDS, Api, Backend, Client, require_backend
from tablekit import table_server, until

from redtable.redrising.cards import SLUG
from redtable.redrising.testing import twin_window_states
from redtable.server.fairness import HumanDelays

#: Time on this server: a 3600 s bank lasts 180 s, its 120 s increment is 6 s; one hour is 180 s.
SCALE = 0.05
CLOCKS = {
    "realtime": {"kind": "realtime", "bank_s": 3600, "increment_s": 120},
    "turn": {"kind": "turn", "per_decision_h": 1},
}
#: How long the server waits before declining an empty window here (a person's "no" in the other twin).
WINDOW_S = 1.5
#: How far a seat's bank may drift apart in the twins over one of its turns (the test's own
#: pacing, on a busy machine); half the increment a "no" without it would have lacked.
DRIFT_S = 3.0
#: Per-game values that differ between any two games, or wall-clock instants.
IDENTITY = {"game_id", "seed_commitment", "created_at", "url", "ws_url", "id"}


def _window_wait(srv, seconds: float) -> None:
    """The server's "no" comes after a steady ``seconds`` (a person's wait in production)."""
    srv.hub.delays["red-rising"] = HumanDelays(seconds, sigma=0.01, min_samples=10**9)


@pytest.fixture(scope="module", params=BACKENDS)
def server(request, tmp_path_factory):
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("wclk"))
    srv = table_server(b, clock_scale=SCALE)
    api = Api(srv.base)
    yield srv, api
    api.close()
    srv.stop()
    b.cleanup()


def first_seed(players: int) -> int:
    return next(s for s in range(300) if twin_window_states(s, players) is not None)


class Twin:
    """One of the two games: its seats' tokens, a WebSocket per seat and a spectator, and
    everything the observers (every seat but ``q``, and the spectator) received."""

    def __init__(self, srv, api: Api, seed: int, players: int, clock: dict, q: int, q_away: bool = False) -> None:
        self.api, self.q = api, q
        info, tokens = api.new_game(
            "red-rising", ("human",) * players, seed=seed, options={"block_windows": True}, clock=clock
        )
        self.gid = info["game_id"]
        self.tokens: list[str] = [t for t in tokens if t is not None]
        here = [s for s in range(players) if not (q_away and s == q)]
        self.clients: dict[int | None, Client] = {s: Client(srv, self.gid, self.tokens[s]) for s in here}
        self.clients[None] = Client(srv, self.gid, None)
        self.observers: list[int | None] = [s for s in range(players) if s != q] + [None]
        self.reads: dict[int | None, list[Any]] = {s: [] for s in self.observers}
        self.mark: dict[int | None, int] = {}

    def settle(self) -> None:
        """Wait until every client heard that everybody (but an away seat) is here."""
        n = len(self.clients) - 1  # (the spectator)
        for c in self.clients.values():
            deadline = time.monotonic() + 10
            while not any(m["type"] == "presence" and sum(s["connected"] for s in m["seats"]) == n for m in c.messages):
                c.recv(max(0.05, deadline - time.monotonic()))

    def start(self) -> None:
        """What the observers receive from now on is compared (after :meth:`settle` and a pause)."""
        for s in self.observers:
            c = self.clients[s]
            while True:
                try:
                    c.recv(0.05)
                except TimeoutError:
                    break
            self.mark[s] = len(c.messages)

    def version(self) -> int:
        return self.api.state(self.gid)["version"]

    def wait_version(self, v: int) -> None:
        until(lambda: self.version() >= v, timeout=20, what=f"version {v}")
        for c in self.clients.values():
            c.until_version(v)

    def mine(self, seat: int) -> dict:
        return self.api.state(self.gid, self.tokens[seat])

    def read(self, v: int) -> None:
        """Every observer reads the game, its log, the lobby and its "my games" (HTTP)."""
        http = self.api.http
        lobby = {g["id"]: g for g in http.get("/api/games?status=active&limit=500").json()}
        for s in self.observers:
            auth = {"Authorization": f"Bearer {self.tokens[s]}"} if s is not None else {}
            st = self.api.get(self.gid, self.tokens[s] if s is not None else None).json()
            assert st["version"] == v, "the window closed before it was read: raise WINDOW_S"
            log = http.get(f"/api/games/{self.gid}/log", headers=auth).json()
            out = [st, log, lobby.get(self.gid)]
            if s is not None:
                mine = http.post("/api/my/games", json={"seats": [{"game_id": self.gid, "token": self.tokens[s]}]})
                assert mine.status_code == 200, mine.text
                out.append(mine.json())
            self.reads[s].append(out)

    def decide(self, seat: int, action: str, v: int) -> None:
        r = self.api.decide(self.gid, self.tokens[seat], action, v)
        assert r.status_code == 200, r.text

    def received(self, s: int | None) -> list[dict]:
        return self.clients[s].messages[self.mark[s] :]

    def close(self) -> None:
        for c in self.clients.values():
            c.close()


def replay(twin: Twin, actions: list[str]) -> None:
    """The public history: each decision by its seat (the server answers empty windows itself)."""
    for i, action in enumerate(actions):
        twin.wait_version(i)
        p = twin.api.state(twin.gid)["decision"]["player"]
        d = twin.mine(p)["decision"]
        if d.get("auto"):  # the server says the same no; the seat is there (it keeps reading)
            assert d["options"] == [action]
            until(lambda p=p, i=i: twin.mine(p)["version"] > i, timeout=20, what="the server's no")
            continue
        twin.decide(p, action, i)
    twin.wait_version(len(actions))


async def _inject(srv, gid: str, state) -> None:
    """Replace the hidden cards of the game in memory by the twin's (its history is the game's)."""
    g = srv.hub.games[gid]
    async with g.lock:
        assert g.state.history == state.history and len(g.state.events) == len(state.events)
        g.state = state.clone()
        for c in g.conns:
            c.want_state()


def normal(x: Any, clocks: list[dict]) -> Any:
    """``x`` without instants and game identities; each clock's numbers go to ``clocks``."""
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            if k in IDENTITY:
                out[k] = "*"
            elif k == "clock" and isinstance(v, dict):
                clocks.append(v)
                out[k] = {
                    **v,
                    "now": "*",
                    "deadline": None if v["deadline"] is None else "*",
                    "remaining": len(v["remaining"]),
                }
            elif k in ("updated_at", "finished_at", "at") and isinstance(v, (int, float)):
                out[k] = "*"
            else:
                out[k] = normal(v, clocks)
        return out
    if isinstance(x, list):
        return [normal(v, clocks) for v in x]
    return x


def check_clocks(a: list[dict], b: list[dict]) -> None:
    """Each clock consistent in itself; each seat's time left, read while it is not running
    (its bank, exact), moved alike in both twins from one such reading to the next."""
    assert len(a) == len(b)
    for clk in a + b:
        if clk["deadline"] is not None:
            left = clk["deadline"] - clk["now"]
            assert left == pytest.approx(clk["remaining"][clk["running"]], abs=0.05)
    for s in range(len(a[0]["remaining"])):
        idle = [i for i in range(len(a)) if a[i]["running"] != s]  # (the same readings in b: compared before)
        for i, j in zip(idle, idle[1:], strict=False):
            da = a[j]["remaining"][s] - a[i]["remaining"][s]
            db = b[j]["remaining"][s] - b[i]["remaining"][s]
            assert abs(da - db) <= DRIFT_S, (s, i, j, da, db, a[i], a[j], b[i], b[j])


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("kind", ["realtime", "turn"])
def test_twins_with_and_without_a_blocker_look_the_same_to_the_others(server, kind, players):
    play_twins(*server, kind, players, q_away=False)


def test_an_away_seats_window_waits_for_it_blocker_or_not(server):
    """The asked seat is away (no connection, no read): its window stays open in both twins
    (the server does not say no for somebody who is not there), its time runs; once it is
    back, the person or the server says no."""
    srv, api = server
    srv.call(lambda: setattr(srv.hub, "present_seconds", 0.3))
    try:
        play_twins(srv, api, "realtime", 2, q_away=True)
    finally:
        srv.call(lambda: setattr(srv.hub, "present_seconds", 30.0))


def play_twins(srv, api: Api, kind: str, players: int, q_away: bool) -> None:
    seed = first_seed(players)
    with_judge, without, a, q = twin_window_states(seed, players)
    twins = [Twin(srv, api, seed, players, CLOCKS[kind], q, q_away) for _ in range(2)]  # [holds Judge, holds none]
    try:
        for t in twins:
            t.settle()
        time.sleep(0.6)  # (presence is merged over half a second: any late one arrives now)
        for t in twins:
            t.start()
        prefix = list(without.history)
        srv.call(_window_wait, srv, 0.02)  # (the history's empty windows: quickly)
        for t in twins:
            replay(t, prefix)
        srv.call(_window_wait, srv, WINDOW_S)
        for t, st in zip(twins, (with_judge, without), strict=True):
            srv.call(_inject, srv, t.gid, st)
        keep = next(c for c in without.hands[q] if c in with_judge.hands[q])  # a card both hands hold
        script = ["aja", "mars", f"p{q}", "no", SLUG[keep]]
        rng = random.Random(seed)
        v, windows, clocks_ran = len(prefix), 0, 0
        for step in range(10):
            for t in twins:
                t.wait_version(v)
            public = api.state(twins[1].gid)["decision"]
            if public is None:
                break
            p = public["player"]
            if p == q and public["kind"] == "block":
                windows += 1
                if q_away:  # nobody says no for an away seat: the window stays open in both twins
                    for t in twins:
                        t.read(v)
                    time.sleep(3 * WINDOW_S)
                    assert [api.state(t.gid)["version"] for t in twins] == [v, v]
                # the server's twin first: everything is read before its "no" (WINDOW_S after the
                # window opened, or after the away seat came back by reading it)
                for t in reversed(twins):
                    t.read(v)
                    d = t.mine(q)["decision"]
                    if t is twins[0]:
                        assert d["options"] == ["block:judge", "no"] and "auto" not in d
                    else:
                        assert d["options"] == ["no"] and d["auto"] is True  # the seat itself knows
                        refused = api.decide(t.gid, t.tokens[q], "no", v)
                        assert refused.status_code == 409 and refused.json()["error"] == "answered_by_server"
                    clk = api.state(t.gid)["clock"]
                    assert clk["running"] == q and clk["deadline"] is not None  # q's time runs in both
                    clocks_ran += 1
                t0 = time.monotonic()
                while time.monotonic() - t0 < WINDOW_S * 0.5:  # the seat looks at its window (it is there)
                    for t in twins:
                        t.mine(q)
                    time.sleep(0.1)
                twins[0].decide(q, "no", v)  # a person's "no", about when the server's comes
                until(lambda v=v: twins[1].mine(q)["version"] > v, timeout=20, what="the server's no")
                v += 1
                continue
            for t in reversed(twins):  # the readers look
                t.read(v)
            da, db = (t.mine(p)["decision"] for t in twins)
            action = script[step] if step < len(script) else None
            if action is not None and action not in da["options"]:  # the only opponent is chosen at once, say
                script.insert(step, "")
                action = None
            if action is None or action not in db["options"]:
                if p == q:
                    break  # the target's own later choices may differ: stop comparing here
                action = da["options"][rng.randrange(len(da["options"]))]
            for t in twins:
                t.decide(p, action, v)
            v += 1
        assert windows == 1 and clocks_ran == 2
        for t in twins:
            t.wait_version(v)
        time.sleep(0.6)  # (any late presence or notice)
        for s in twins[0].observers:
            seen: list[list[dict]] = [[], []]
            got = [normal([t.received(s), t.reads[s]], seen[i]) for i, t in enumerate(twins)]
            assert got[0] == got[1], f"seat {s} received different messages"
            check_clocks(*seen)
            assert any(c["running"] == q for c in seen[1])
    finally:
        for t in twins:
            t.close()
