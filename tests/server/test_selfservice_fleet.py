"""Deleting an account on a fleet of two processes (PostgreSQL): deleted through process A while its
seat's socket is on process B, B closes that socket, a bot plays the seat there, and B shows the
seat under the label; the other player's socket on B stays and plays on."""

from __future__ import annotations

import asyncio

import httpx
import orjson
import pytest
from fleetkit import Proc
from tablekit import Account, until
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

pytestmark = pytest.mark.multiprocess


def test_a_deletion_through_one_process_reaches_the_other(schema, tmp_path):
    procs = [Proc(schema, tmp_path / f"server{i}.log").start() for i in range(2)]
    a, b = procs
    ann, bob = Account(a.base), Account(a.base)
    try:
        r = ann.http.post("/api/games", json={"game": "red-north", "seats": [{"type": "human"}] * 2})
        assert r.status_code == 201, r.text
        info = r.json()
        gid = info["game_id"]
        ann_token = ann.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][0]["invite"]}).json()["token"]
        bob_token = bob.http.post(f"/api/games/{gid}/join", json={"invite": info["seats"][1]["invite"]}).json()["token"]

        async def main() -> str:
            async def open_(token: str) -> tuple:
                ws = await ws_connect(f"{b.ws}/api/games/{gid}/ws", open_timeout=20)
                await ws.send(orjson.dumps({"type": "auth", "token": token}).decode())
                return ws, []

            async def until_msg(sock, pred, seconds: float = 20.0) -> dict:
                ws, got = sock
                loop = asyncio.get_running_loop()
                deadline = loop.time() + seconds
                while not any(pred(m) for m in got):
                    got.append(orjson.loads(await asyncio.wait_for(ws.recv(), deadline - loop.time())))
                return next(m for m in got if pred(m))

            mine, theirs = await open_(bob_token), await open_(ann_token)
            await until_msg(mine, lambda m: m["type"] == "state")
            await until_msg(theirs, lambda m: m["type"] == "state")
            r = await asyncio.to_thread(
                bob.http.request, "DELETE", "/api/account", json={"password": "correct horse 42"}
            )
            assert r.status_code == 200, r.text
            label = r.json()["label"]
            # B closes the deleted seat's socket (its device token is revoked) ...
            ws = mine[0]
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 20)
            assert ws.close_code == 4010
            # ... and the other player's socket on B hears the seat's new name (B re-read the seats)
            await until_msg(
                theirs,
                lambda m: (
                    m["type"] in ("state", "presence")
                    and any(s.get("seat") == 1 and s.get("name") == label for s in m.get("seats") or [])
                ),
            )
            await theirs[0].close()
            return label

        label = asyncio.run(main())
        seat = until(
            lambda: (s := httpx.get(f"{b.base}/api/games/{gid}").json()["seats"][1])["type"] == "bot" and s,
            what="a bot in the deleted seat on B",
        )
        assert seat["name"] == label
        r = httpx.post(f"{b.base}/api/session", json={"username": bob.name, "password": "correct horse 42"})
        assert r.status_code == 401
    finally:
        ann.close()
        bob.close()
        for p in procs:
            p.stop()
