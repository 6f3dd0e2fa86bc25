"""Kill the real server (SIGKILL) in the middle of play, restart it: no accepted decision is lost.

The server runs as a subprocess (``python -m redtable.server``, uvicorn) on a free loopback
port. Two WebSocket clients play a three-seat game (the third seat a bot) as fast as they
can; after a random number of acknowledged decisions the server is killed, wherever it is.
After each restart on the same database:

* every decision a client saw acknowledged is in the log, at its version, by its seat;
* a decision that was sent but not acknowledged is sent again with the version it was made
  on: it is either accepted now (it had not been committed) or refused as stale, and then
  it is in the log (it had been committed) — never applied twice;
* the clients reconnect and carry on; the bot carries on by itself.
"""

from __future__ import annotations

import random
import threading
import time

import httpx
import orjson
import pytest
from serverproc import ServerProcess
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from redtable.core import GameRecord, replay

KILLS = 2


class Server(ServerProcess):
    """The server on ``backend``'s database (restarted on the same one after each kill)."""

    def __init__(self, backend, tmp_path) -> None:
        super().__init__(tmp_path / "server.log")
        self.backend = backend

    def server_args(self) -> list[str]:
        return self.backend.cli_args()


class Player(threading.Thread):
    """Plays its seat as fast as it can until the connection drops or the game ends."""

    def __init__(self, server: Server, game_id: str, seat: int, token: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.server, self.game_id, self.seat, self.token = server, game_id, seat, token
        self.rng = random.Random(seed)
        self.acked: dict[int, str] = {}  # version reached -> action
        self.pending: tuple[int, str] | None = None  # sent, not acknowledged: (version seen, action)
        self.finished = False
        self.error: BaseException | None = None
        self.lock = threading.Lock()

    def url(self) -> str:
        return f"ws://127.0.0.1:{self.server.port}/api/games/{self.game_id}/ws"

    def run(self) -> None:
        try:
            with connect(self.url(), open_timeout=10, compression=None, max_size=2**24) as ws:
                ws.send(orjson.dumps({"type": "auth", "token": self.token}).decode())
                if self.pending is not None:  # what happened to the decision in flight at the crash?
                    v, action = self.pending
                    ws.send(orjson.dumps({"type": "decide", "action": action, "version": v, "id": v}).decode())
                last = None
                for raw in ws:
                    msg = orjson.loads(raw)
                    if msg["type"] == "error":
                        if self.pending is not None and msg.get("id") == self.pending[0]:
                            assert msg["error"] in ("stale_version", "not_your_turn"), msg
                            self.resent_refused = self.pending
                            self.pending = None
                        else:
                            raise AssertionError(msg)
                    elif msg["type"] in ("state", "update"):
                        last = msg
                        if msg["type"] == "update" and msg["by"] == self.seat and "id" in msg:
                            with self.lock:
                                self.acked[msg["version"]] = msg["action"]
                                if self.pending is not None and self.pending[0] + 1 == msg["version"]:
                                    self.pending = None
                    if last is None:
                        continue
                    if last["status"] == "finished":
                        self.finished = True
                        return
                    d = last["decision"]
                    if d["player"] == self.seat and self.pending is None and not d.get("auto"):
                        action = self.rng.choice(d["options"])
                        self.pending = (last["version"], action)
                        ws.send(
                            orjson.dumps(
                                {"type": "decide", "action": action, "version": last["version"], "id": last["version"]}
                            ).decode()
                        )
        except (ConnectionClosed, OSError, EOFError):
            return
        except BaseException as e:  # noqa: BLE001
            self.error = e


def read_log(server: Server, game_id: str, token: str) -> dict:
    r = httpx.get(f"{server.base}/api/games/{game_id}/log", headers={"Authorization": f"Bearer {token}"}, timeout=20)
    assert r.status_code == 200, r.text
    return r.json()


def check_log(server: Server, game_id: str, players: list[Player]) -> int:
    logs = [read_log(server, game_id, p.token) for p in players]
    steps = logs[0]["steps"]
    assert logs[0]["version"] == steps  # no undo in this game: one version per decision
    for p, lg in zip(players, logs, strict=True):
        mine = {e["step"]: e["action"] for e in lg["log"] if "action" in e}
        for version, action in p.acked.items():
            assert mine.get(version) == action, f"acknowledged decision {version} of seat {p.seat} lost"
        refused = getattr(p, "resent_refused", None)
        if refused is not None:  # refused as stale: it was committed before the crash
            assert mine.get(refused[0] + 1) == refused[1], "a decision was refused but is not in the log"
            p.resent_refused = None
    return steps


@pytest.mark.parametrize("seed", [7])
def test_sigkill_loses_no_accepted_decision(backend, tmp_path, seed):
    server = Server(backend, tmp_path)
    server.start()
    try:
        http = httpx.Client(base_url=server.base, timeout=20)
        # two people: the server deals (no chosen seed); no block windows, so the players never wait
        info = http.post(
            "/api/games",
            json={
                "game": "red-rising",
                "options": {"block_windows": False},
                "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot", "bot": "random"}],
            },
        ).json()
        gid = info["game_id"]
        tokens = [
            http.post(f"/api/games/{gid}/join", json={"invite": s["invite"]}).json()["token"] for s in info["seats"][:2]
        ]
        players = [Player(server, gid, i, tokens[i], seed + i) for i in range(2)]
        rng = random.Random(seed)
        steps = 0
        for kill in range(KILLS + 1):
            players = [_restart(p) for p in players]
            for p in players:
                p.start()
            if kill == KILLS:  # last round: play to the end
                for p in players:
                    p.join(60)
                break
            target = sum(len(p.acked) for p in players) + rng.randrange(8, 40)
            deadline = time.time() + 30
            while sum(len(p.acked) for p in players) < target and not any(p.finished for p in players):
                assert time.time() < deadline, "the game stalled"
                time.sleep(0.001)
            time.sleep(rng.random() * 0.005)
            server.kill()  # wherever it is: mid-commit, mid-announce, between decisions
            for p in players:
                p.join(20)
                assert p.error is None, p.error
            http.close()
            server.start()
            http = httpx.Client(base_url=server.base, timeout=20)
            new_steps = check_log(server, gid, players)
            assert new_steps >= steps
            steps = new_steps
        for p in players:
            assert p.error is None, p.error
            assert p.finished, "the game did not finish after the restarts"
        check_log(server, gid, players)
        rec = http.get(f"/api/games/{gid}/record").json()
        final = replay(GameRecord.from_json(rec))
        assert final.is_terminal()
        assert sum(len(p.acked) for p in players) + sum(
            1 for s in read_log(server, gid, tokens[0])["log"] if s["seat"] == 2
        ) >= len(rec["actions"]) - 2 * (KILLS + 1)
        http.close()
    finally:
        server.stop()


def _restart(p: Player) -> Player:
    """A new thread for the same player (threads start once), keeping what it saw."""
    q = Player(p.server, p.game_id, p.seat, p.token, 0)
    q.rng, q.acked, q.pending = p.rng, p.acked, p.pending
    q.resent_refused = getattr(p, "resent_refused", None)
    return q
