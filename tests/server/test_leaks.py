"""No response or message ever carries what its seat may not see.

Full games are played over WebSockets (every human seat a client, plus a spectator, plus
a bot seat); along the way each seat also reads the game, its log and replay steps over
HTTP and sends decisions out of turn. Afterwards the game is replayed with the engine and
every payload a seat received is checked at the version it was sent for:

* its view is exactly ``state.view(seat)`` and its decision carries options and context
  only for the decider;
* that view is the same in states re-dealt from what the seat knows
  (``state.resample(seat)``): it does not depend on anything hidden from the seat;
* its events are exactly the seat's share of the log (``events_for``);
* (Red Rising, where every card is unique) no card whose place the seat does not know
  (another hand, the deck, a face-down card) is named anywhere in it, until the end of the
  game shows the hands.
"""

from __future__ import annotations

import random
import re

import orjson
import pytest
from srvkit import Client, audience_ok

from redtable.core import GameRecord, Rng, make_game


class Recorder:
    """Everything one seat (or the spectator, seat None) received, with the version it was for."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.items: list[tuple[str, int, dict]] = []  # (what, version, payload)

    def add(self, what: str, version: int, payload: dict) -> None:
        self.items.append((what, version, payload))


def play_and_record(srv, api, game: str, seats: tuple[str, ...], seed: int):
    options = {}
    if game == "red-rising-windows":  # every possible blocker is asked; the server answers for empty hands
        game, options = "red-rising", {"block_windows": True}
    info, tokens = api.new_game(game, seats, seed=seed, options=options)
    gid = info["game_id"]
    humans = [i for i, s in enumerate(seats) if s == "human"]
    clients = {s: Client(srv, gid, tokens[s]) for s in humans}
    clients[None] = Client(srv, gid, None)
    recs = {s: Recorder(s) for s in clients}
    rng = random.Random(seed)
    version = 0
    turn = 0
    while True:
        # wait until every client saw the current version (bots may have moved meanwhile)
        latest = api.state(gid)["version"]
        version = max(version, latest)
        states = {s: c.until_version(version) for s, c in clients.items()}
        if any(st["version"] != version for st in states.values()):
            continue
        st = states[None]
        if st["status"] == "finished":
            break
        p = st["decision"]["player"]
        if p not in humans or states[p]["decision"].get("auto"):  # a bot, or the server for a window
            version += 1
            continue
        turn += 1
        if turn % 7 == 0:  # reads over HTTP, as each seat and as a spectator
            for s in clients:
                tok = tokens[s] if s is not None else None
                r = api.get(gid, tok)
                recs[s].add("http_state", r.json()["version"], r.json())
                auth = {"Authorization": f"Bearer {tok}"} if tok else {}
                lg = api.http.get(f"/api/games/{gid}/log", headers=auth).json()
                recs[s].add("http_log", lg["version"], lg)
                step = rng.randrange(lg["steps"] + 1)
                rp = api.http.get(f"/api/games/{gid}/replay/{step}", headers=auth).json()
                recs[s].add("http_replay", step, rp)
        if turn % 5 == 0:  # somebody else tries to decide: the refusal must not show the decider's options
            others = [q for q in humans if q != p]
            if others:
                q = rng.choice(others)
                r = api.decide(gid, tokens[q], "x", version)
                recs[q].add("http_error", version, r.json())
                clients[q].send(type="decide", action="x", version=version, id="oops")
                recs[q].add("ws_error", version, clients[q].recv_type("error"))
        action = rng.choice(states[p]["decision"]["options"])
        if turn % 11 == 0:  # a decision over HTTP instead
            r = api.decide(gid, tokens[p], action, version)
            assert r.status_code == 200, r.text
            recs[p].add("http_update", version + 1, r.json())
        else:
            clients[p].send(type="decide", action=action, version=version)
        version += 1
    for s, c in clients.items():
        for m in c.messages:
            if m["type"] in ("state", "update"):
                recs[s].add("ws_" + m["type"], m["version"], m)
            elif m["type"] == "error":
                recs[s].add("ws_error", m.get("version", -1), m)
        c.close()
    record = GameRecord.from_json(api.http.get(f"/api/games/{gid}/record").json())
    return record, recs


def states_by_step(record: GameRecord):
    game = make_game(record.game, record.players, **record.options)
    state = game.new_initial_state(record.seed)
    states, marks = [state.clone()], [len(state.events)]
    for a in record.actions:
        state.apply(a)
        states.append(state.clone())
        marks.append(len(state.events))
    return states, marks


def decision_for(state, seat):
    d = state.decision()
    if d is None:
        return None
    if seat != d.player:
        return {"player": d.player, "kind": d.kind}
    out = d.to_json()
    if state.idle_window() is not None:  # only the seat asked learns that the server answers for it
        out["auto"] = True
    return out


def events_json(state, seat, lo=0, hi=None):
    return [e.to_json() for e in state.events[lo:hi] if e.visible_to(seat)]


def secret_cards(state, seat) -> set[str]:
    """Red Rising: the cards whose place ``seat`` does not know (a spectator: nobody's private knowledge)."""
    from redtable.redrising.cards import SLUG

    known = state.known[seat] if seat is not None else set.intersection(*map(set, state.known))
    hidden = set(state.deck) | set(state.facedown)
    for q, hand in enumerate(state.hands):
        if q != seat:
            hidden |= set(hand)
    return {SLUG[c] for c in hidden - known}


def scan(text: str, secrets: set[str]) -> set[str]:
    return {s for s in re.findall(r'"([a-z0-9-]+)"', text) if s in secrets}


def check_seat(record, states, marks, rec: Recorder) -> int:
    seat = rec.seat
    checked = 0
    for what, v, payload in rec.items:
        state = states[v]
        text = orjson.dumps(payload).decode()
        assert "seed" not in payload and "actions" not in payload, what
        # (at the end of the game the hands are shown, as at the table: end-of-game abilities, scoring)
        if record.game == "red-rising" and state.phase == "play" and states[max(0, v - 1)].phase == "play":
            leaked = scan(text, secret_cards(state, seat))
            if what in ("http_log", "ws_state", "http_state"):
                # the history may name a card that was public then and is hidden now: check it against the log
                leaked = scan(
                    orjson.dumps({k: payload.get(k) for k in ("view", "decision")}).decode(), secret_cards(state, seat)
                )
            assert not leaked, f"{what} v{v} to seat {seat} names hidden cards {leaked}"
        if what in ("ws_state", "ws_update", "http_state", "http_update", "http_replay"):
            assert payload["view"] == state.view(seat), f"{what} v{v}: view differs from the engine's"
            assert payload["decision"] == decision_for(state, seat), f"{what} v{v}: decision"
            if seat is not None:
                for i in range(2):
                    alt = state.resample(seat, Rng(1000 * v + i))
                    assert alt.view(seat) == payload["view"], f"{what} v{v}: the view depends on hidden cards"
        if what in ("ws_update", "http_update"):
            assert payload["events"] == events_json(states[-1], seat, marks[v - 1], marks[v]), f"{what} v{v}"
            assert all(audience_ok(e, seat) for e in payload["events"])
        if what in ("ws_state", "http_state"):
            assert payload["events"] == events_json(state, seat), f"{what} v{v}: events"
        if what == "http_replay":
            assert payload["events"] == events_json(state, seat, marks[v - 1] if v else 0, marks[v])
        if what == "http_log":
            assert payload["setup"] == events_json(state, seat, 0, marks[0])
            for i, entry in enumerate(payload["log"]):
                assert entry["events"] == events_json(state, seat, marks[i], marks[i + 1])
                assert ("action" in entry) == (seat is not None and entry["seat"] == seat)
        if what in ("http_error", "ws_error"):
            assert payload["error"] in ("not_your_turn", "stale_version"), payload
            assert "legal" not in payload and "decision" not in payload and "options" not in text
        checked += 1
    return checked


@pytest.mark.parametrize(
    "game, seats, seed",
    [
        ("red-rising", ("human", "human", "human", "bot"), 31),
        ("red-rising", ("human", "human"), 32),
        ("red-rising-windows", ("human", "human", "human"), 35),
        ("red-north", ("human", "human", "human", "bot"), 33),
        ("red-north", ("human", "human"), 34),
    ],
)
def test_no_seat_sees_what_it_must_not(served, game, seats, seed):
    srv, api = served
    record, recs = play_and_record(srv, api, game, seats, seed)
    states, marks = states_by_step(record)
    assert states[-1].is_terminal()
    total = 0
    for rec in recs.values():
        kinds = {w for w, _, _ in rec.items}
        assert {"ws_state", "ws_update", "http_state", "http_log", "http_replay"} <= kinds, kinds
        total += check_seat(record, states, marks, rec)
    assert total > 200
