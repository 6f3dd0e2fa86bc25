"""docs/deploy.md's nginx configuration, as written there, in front of two server processes.

The test takes the configuration block out of the document, changes only what a real
deployment changes (the addresses of the servers, the certificate, the ports), starts
nginx with it and plays a whole game through it: HTTP is redirected to HTTPS, TLS ends at
the proxy, the WebSocket upgrade passes through, and both seats of the game reach the same
server process (the upstream hashes the game id). Skipped where nginx is not installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

import httpx
import orjson
import pytest
from fleetkit import Proc, Seat, Table, check_log_holds_acks, create_game
from srvkit import Backend, free_port, require_backend
from websockets.sync.client import connect

DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def nginx_block() -> str:
    text = DOC.read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "docs/deploy.md has one nginx configuration"
    return blocks[0]


@pytest.fixture
def proxied(tmp_path):
    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    require_backend("postgresql")
    b = Backend("postgresql", tmp_path)
    servers = [Proc(b.schema, tmp_path / f"s{i}.log", extra=["--trust-proxy"]).start() for i in range(2)]
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    http_port, https_port = free_port(), free_port()
    conf = nginx_block()
    conf = re.sub(r"\n\s*server 10\.0\.0\.11:8000", f"\n    server 127.0.0.1:{servers[0].port}", conf)
    conf = re.sub(r"\n\s*server 10\.0\.0\.12:8000", f"\n    server 127.0.0.1:{servers[1].port}", conf)
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{http_port};").replace("listen [::]:80;\n", "")
    conf = conf.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
    conf = conf.replace("listen [::]:443 ssl http2;\n", "")
    conf = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", conf)
    conf = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", conf)
    assert "10.0.0" not in conf and ":80;" not in conf
    (tmp_path / "redtable.conf").write_text(conf)
    temp = "".join(f"{k}_temp_path {tmp_path}/{k};\n" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp_path / "nginx.conf").write_text(
        f"user root;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n{temp}include {tmp_path}/redtable.conf;\n}}\n"
    )
    test = subprocess.run(
        ["nginx", "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True
    )
    assert test.returncode == 0, test.stderr
    nginx = subprocess.Popen(
        ["nginx", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", https_port), 1).close()
            break
        except OSError:
            assert time.time() < deadline and nginx.poll() is None, (tmp_path / "error.log").read_text()
            time.sleep(0.05)
    ctx = ssl.create_default_context(cafile=str(cert))
    shim = Proc(b.schema, tmp_path / "unused.log")
    shim.base, shim.ws, shim.ssl = f"https://127.0.0.1:{https_port}", f"wss://127.0.0.1:{https_port}", ctx
    yield servers, shim, http_port
    nginx.terminate()
    nginx.wait(10)
    for s in servers:
        s.stop()
    b.cleanup()


@pytest.mark.multiprocess
def test_the_documented_nginx_configuration_serves_a_game(proxied):
    servers, proxy, http_port = proxied
    r = httpx.get(f"http://127.0.0.1:{http_port}/api/health", follow_redirects=False, timeout=10)
    assert r.status_code == 301 and r.headers["location"].startswith("https://")
    with httpx.Client(base_url=proxy.base, verify=proxy.ssl, timeout=10) as http:
        assert http.get("/api/health").json()["fleet"]["bus"] == "postgres"
    gid, tokens = create_game(proxy, "red-north", [{"type": "human"}, {"type": "human"}])
    # the proxy sends both sockets of the game to one process (the upstream hashes the game id)
    with contextlib.ExitStack() as stack:
        for t in tokens:
            ws = stack.enter_context(connect(f"{proxy.ws}/api/games/{gid}/ws", ssl=proxy.ssl, open_timeout=20))
            ws.send(orjson.dumps({"type": "auth", "token": t}).decode())
            assert orjson.loads(ws.recv(20))["type"] == "state"
        assert sorted(p.health()["connections"] for p in servers) == [0, 2]
    table = Table(gid, tokens)
    table.seats = [Seat(table, i, tokens[i], proxy) for i in range(2)]

    async def main():
        await asyncio.wait_for(asyncio.gather(*(s.run() for s in table.seats)), 90)

    asyncio.run(main())
    assert all(s.last["status"] == "finished" for s in table.seats)
    check_log_holds_acks(proxy, gid, table.seats)
