"""A push service on loopback for the Web Push tests: a real HTTP server that receives the
encrypted pushes, and a "browser" (a P-256 key pair and an auth secret) that decrypts them
with http_ece, as a browser does (RFC 8291, aes128gcm)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

http_ece = pytest.importorskip("http_ece", reason="the push tests need http_ece")
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat  # noqa: E402


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status: dict[str, int] = {}  # path -> the answer (default 201)
        self.cond = threading.Condition()
        svc = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with svc.cond:
                    svc.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    svc.cond.notify_all()
                self.send_response(svc.status.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def to(self, path: str) -> list[tuple[dict[str, str], bytes]]:
        with self.cond:
            return [(h, b) for p, h, b in self.received if p == path]

    def wait(self, path: str, n: int = 1, timeout: float = 20.0) -> tuple[dict[str, str], bytes]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            got = self.to(path)
            if len(got) >= n:
                return got[n - 1]
            time.sleep(0.05)
        raise AssertionError(f"{len(self.to(path))} pushes to {path}, {n} expected")


class Browser:
    """A browser's push subscription keys; decrypts what the push service received."""

    def __init__(self, service: PushService, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.path = f"/push/{name}"
        self.endpoint = service.base + self.path

    def subscription(self) -> dict:
        raw = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(raw), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))
