"""Play on a redtable server as a bot account: accept challenges, sit at open tables, play.

The program authenticates with the account's API token (``docs/bots.md`` says how to make the
bot account and the token), read from the environment so that it shows in no command line::

    REDTABLE_TOKEN=rtb_... python examples/bot_client.py --server http://127.0.0.1:8000 --games 1

It loops: it accepts the challenges waiting for the account (``GET /api/invitations``), or
(``--open``) sits at an open table with a free seat, then plays that seat over its WebSocket
(``{"type": "auth", "token": <the API token>}`` as the first message: the account's seat),
deciding with a *policy*, until the game is over; ``--games N`` stops after N games.

A policy is ``fn(view, decision, rng) -> action``: ``view`` is what the seat sees
(``state.view(seat)``), ``decision`` the pending one with its ``options``. ``--policy random``
(the redtable bot preset ``random``) and ``first`` are built in; ``--policy package.module:fn``
plays with your own. The search presets (``heuristic``, ``ismcts``) are not offered here: they
re-deal the hidden cards of an engine *state*, and a seat over the network has its view only.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx
import orjson
from websockets.sync.client import connect

Policy = Callable[[dict[str, Any], dict[str, Any], random.Random], str]


def random_policy(view: dict[str, Any], decision: dict[str, Any], rng: random.Random) -> str:
    return rng.choice(decision["options"])


def first_policy(view: dict[str, Any], decision: dict[str, Any], rng: random.Random) -> str:
    return decision["options"][0]


POLICIES: dict[str, Policy] = {"random": random_policy, "first": first_policy}


def load_policy(spec: str) -> Policy:
    if spec in POLICIES:
        return POLICIES[spec]
    module, _, name = spec.partition(":")
    if not name:
        raise SystemExit(f"--policy is one of {', '.join(POLICIES)} or package.module:function, got {spec!r}")
    return getattr(importlib.import_module(module), name)


class BotClient:
    """One bot account's program on one server."""

    def __init__(self, server: str, token: str, policy: Policy, seed: int = 0) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.http = httpx.Client(base_url=self.server, timeout=30, headers={"Authorization": f"Bearer {token}"})
        self.policy = policy
        self.rng = random.Random(seed)

    def close(self) -> None:
        self.http.close()

    def call(self, method: str, path: str, **kw: Any) -> Any:
        r = self.http.request(method, path, **kw)
        body = r.json()
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {r.status_code} {body.get('error')}: {body.get('message')}")
        return body

    def whoami(self) -> dict[str, Any]:
        return self.call("GET", "/api/bot/account")

    def next_seat(self, open_tables: bool) -> dict[str, Any] | None:
        """A seat to play: an accepted challenge, else (``open_tables``) a free seat of an open table."""
        for invite in self.call("GET", "/api/invitations")["invites"]:
            r = self.http.post(f"/api/invitations/{invite['invite_id']}/accept")
            if r.status_code == 200:
                return r.json()
        if open_tables:
            for table in self.call("GET", "/api/tables"):
                r = self.http.post(f"/api/games/{table['game_id']}/sit", json={})
                if r.status_code == 200:
                    return r.json()
        return None

    def play(self, seat: dict[str, Any]) -> dict[str, Any]:
        """Play ``seat`` (an accept or sit answer) over its WebSocket to the end: the last state."""
        url = self.server.replace("http", "ws", 1) + seat["ws_url"]
        me = seat["seat"]
        last: dict[str, Any] = {}
        with connect(url, max_size=None) as ws:
            # the account's API token plays the seat it holds (the seat's own token would do too)
            ws.send(orjson.dumps({"type": "auth", "token": self.token}).decode())
            while True:
                msg = orjson.loads(ws.recv(timeout=120))
                kind = msg.get("type")
                if kind == "error":
                    if msg.get("error") in ("stale_version", "not_your_turn", "not_your_decision", "illegal_action"):
                        ws.send('{"type": "sync"}')  # (the game moved on: read it again)
                        continue
                    raise RuntimeError(f"the server refused: {msg.get('error')}: {msg.get('message')}")
                if kind not in ("state", "update"):
                    continue
                last.update(msg)
                if last.get("status") != "active":
                    return last
                d = last.get("decision")
                if d and d.get("player") == me and "options" in d and not d.get("auto"):
                    action = self.policy(last["view"], d, self.rng)
                    ws.send(orjson.dumps({"type": "decide", "action": action, "version": last["version"]}).decode())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server", default="http://127.0.0.1:8000")
    p.add_argument("--policy", default="random", help="random, first, or package.module:function")
    p.add_argument("--games", type=int, default=0, help="stop after this many games (0: never)")
    p.add_argument("--open", action="store_true", help="also sit at open tables with a free seat")
    p.add_argument("--poll", type=float, default=2.0, help="seconds between looks for a new game")
    p.add_argument("--idle", type=float, default=0.0, help="stop after this many seconds without a game (0: never)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    token = os.environ.get("REDTABLE_TOKEN")
    if not token:
        print("set REDTABLE_TOKEN to the bot account's API token (docs/bots.md)", file=sys.stderr)
        return 2
    client = BotClient(args.server, token, load_policy(args.policy), args.seed)
    try:
        print(f"playing as {client.whoami()['username']}", flush=True)
        played, idle_since = 0, time.monotonic()
        while not args.games or played < args.games:
            seat = client.next_seat(args.open)
            if seat is None:
                if args.idle and time.monotonic() - idle_since > args.idle:
                    break
                time.sleep(args.poll)
                continue
            end = client.play(seat)
            played += 1
            idle_since = time.monotonic()
            print(f"game {seat['game_id']} seat {seat['seat']}: {end.get('status')} {end.get('result')}", flush=True)
    finally:
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
