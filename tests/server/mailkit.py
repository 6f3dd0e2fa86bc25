"""A real SMTP server on loopback (aiosmtpd) that keeps the messages it receives, for the tests
of e-mail: plain, or with STARTTLS (a self-signed certificate made here) and a login."""

from __future__ import annotations

import datetime
import re
import ssl
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

aiosmtpd = pytest.importorskip("aiosmtpd", reason="the e-mail tests need aiosmtpd (pip install aiosmtpd)")
from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import AuthResult, LoginPassword  # noqa: E402
from srvkit import free_port  # noqa: E402


class Sink:
    """aiosmtpd's handler: every message delivered, parsed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.cond = threading.Condition()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802  (aiosmtpd's name)
        msg = message_from_bytes(envelope.content, policy=policy.default)
        with self.cond:
            self.messages.append(msg)  # type: ignore[arg-type]
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self.cond.notify_all()
        return "250 OK"

    def wait(self, n: int = 1, timeout: float = 20.0) -> list[EmailMessage]:
        """The first ``n`` messages, waiting for them."""
        deadline = time.time() + timeout
        with self.cond:
            while len(self.messages) < n:
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"{len(self.messages)} e-mails arrived, {n} expected")
                self.cond.wait(left)
            return list(self.messages[:n])

    def to(self, address: str) -> list[EmailMessage]:
        with self.cond:
            return [m for m in self.messages if m["To"] == address]


class SmtpServer:
    def __init__(self, tls_dir: Path | None = None, login: tuple[str, str] | None = None) -> None:
        self.sink = Sink()
        self.port = free_port()
        self.logins: list[str] = []
        kw: dict = {}
        self.client_context: ssl.SSLContext | None = None
        if tls_dir is not None:
            cert, key = self_signed(tls_dir)
            server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            server_ctx.load_cert_chain(cert, key)
            kw["tls_context"] = server_ctx
            kw["require_starttls"] = True
            self.client_context = ssl.create_default_context(cafile=str(cert))
        if login is not None:

            def authenticate(server, session, envelope, mechanism, auth_data):
                ok = (
                    isinstance(auth_data, LoginPassword)
                    and (auth_data.login.decode(), auth_data.password.decode()) == login
                )
                if ok:
                    self.logins.append(auth_data.login.decode())
                # (handled=False: aiosmtpd answers a refusal with 535 itself; by default it
                # leaves the answer to us, and the client waited its whole timeout for it)
                return AuthResult(success=ok, handled=False)

            kw["authenticator"] = authenticate
            kw["auth_require_tls"] = tls_dir is not None
            kw["auth_required"] = True
        self.controller = Controller(self.sink, hostname="127.0.0.1", port=self.port, server_hostname="localhost", **kw)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}?from=redtable%40test.example"

    def start(self) -> SmtpServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()


def self_signed(where: Path) -> tuple[Path, Path]:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(__import__("ipaddress").ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    where.mkdir(parents=True, exist_ok=True)
    c, k = where / "cert.pem", where / "key.pem"
    c.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    k.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return c, k


LINK_RE = re.compile(r"https?://\S+/#/(reset|verify-email)/([A-Za-z0-9_-]+)")


def link_token(msg: EmailMessage, kind: str) -> str:
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    text = body.get_content()
    found = [m.group(2) for m in LINK_RE.finditer(text) if m.group(1) == kind]
    assert found, text
    return found[0]
