"""E-mail addresses, their verification and password reset, against a real SMTP server on
loopback (aiosmtpd) that receives the e-mails; on SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
import logging
import time
import uuid
from dataclasses import replace

import httpx
import pytest
from mailkit import SmtpServer, link_token
from sqlalchemy import update
from srvkit import BACKENDS, Backend, require_backend, start_server

from redtable.server.emails import email_tokens_table
from redtable.server.limits import Limits
from redtable.server.mailer import BadSmtpUrl, Mailer, parse_smtp_url

PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple gun orbit 42"
_net = itertools.count(1)


@pytest.fixture(scope="module", params=BACKENDS)
def mailed(request, tmp_path_factory):
    """A server that mails through a loopback SMTP server; clients' addresses from X-Forwarded-For."""
    require_backend(request.param)
    b = Backend(request.param, tmp_path_factory.mktemp("mail"))
    smtp = SmtpServer().start()
    srv = start_server(b, smtp=smtp.url, limits=replace(Limits().relaxed(), trust_proxy=True))
    yield srv, smtp, b
    srv.stop()
    smtp.stop()
    b.cleanup()


def person(srv) -> httpx.Client:
    """A browser on a network of its own (its own rate-limit buckets)."""
    n = next(_net)
    return httpx.Client(
        base_url=srv.base,
        timeout=20,
        headers={"X-Forwarded-For": f"10.{n // 250}.{n % 250}.7", "Accept-Language": "en"},
    )


def uname() -> str:
    return "m" + uuid.uuid4().hex[:10]


def address() -> str:
    return f"{uuid.uuid4().hex[:12]}@Players.Example.org"


def register(c: httpx.Client, name: str, email: str | None = None, **extra) -> str:
    body = {"username": name, "password": PASSWORD, **extra}
    if email is not None:
        body["email"] = email
    r = c.post("/api/accounts", json=body)
    assert r.status_code == 201, r.text
    return r.json()["csrf"]


def verified_account(srv, smtp) -> tuple[httpx.Client, str, str, str]:
    c = person(srv)
    name, email = uname(), address()
    csrf = register(c, name, email)
    msg = wait_for(smtp, email)
    r = c.post("/api/email/verify", json={"token": link_token(msg, "verify-email")})
    assert r.status_code == 200 and r.json() == {"verified": True}
    return c, name, email, csrf


def wait_for(smtp, to: str, n: int = 1, timeout: float = 20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = smtp.sink.to(to)
        if len(got) >= n:
            return got[n - 1]
        time.sleep(0.05)
    raise AssertionError(f"{len(smtp.sink.to(to))} e-mails to {to}, {n} expected")


def all_sent(srv) -> None:
    """Wait until the server's mailer has delivered (or failed) every e-mail it was handed: a
    request that mails hands it over before it answers, so none of the answered ones is left."""
    srv.call(srv.app.state.mailer.drain)


def test_register_with_an_address_mails_a_single_use_verification_link(mailed):
    srv, smtp, _ = mailed
    c = person(srv)
    assert c.get("/api/session").json()["email_enabled"] is True
    name, email = uname(), address()
    csrf = register(c, name, email)
    assert c.get("/api/account").json() == {
        "username": name,
        "email": email,
        "email_verified": False,
        "email_lang": "en",
        "email_enabled": True,
    }
    msg = wait_for(smtp, email)
    assert msg["Subject"] == "Confirm your e-mail address for redtable"
    assert msg["From"] == "redtable@test.example" and msg["Auto-Submitted"] == "auto-generated"
    text = msg.get_body(("plain",)).get_content()
    assert name in text and f"{srv.base}/#/verify-email/" in text  # the token in the #fragment only
    token = link_token(msg, "verify-email")
    r = c.post("/api/email/verify", json={"token": token})
    assert r.status_code == 200
    assert c.get("/api/account").json()["email_verified"] is True
    again = c.post("/api/email/verify", json={"token": token})
    assert again.status_code == 410 and again.json()["error"] == "link_expired"  # single use
    bad = c.post("/api/email/verify", json={"token": "x y"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_link"
    # the address may be changed on the account page: a new link, the old address forgotten
    other = address()
    r = c.put("/api/account/email", json={"email": other, "lang": "pl"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 202, r.text
    assert wait_for(smtp, other)["Subject"] == "Potwierdź adres e-mail w redtable"
    assert c.get("/api/account").json()["email_verified"] is False
    r = c.delete("/api/account/email", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and c.get("/api/account").json()["email"] is None


@pytest.mark.parametrize(
    "email", ["no-at-sign", "two@@example.org", "a b@example.org", "a@example", "<a@example.org>", "x" * 250 + "@e.org"]
)
def test_bad_addresses_are_refused_and_no_account_is_made(mailed, email):
    srv, smtp, _ = mailed
    c = person(srv)
    name = uname()
    r = c.post("/api/accounts", json={"username": name, "password": PASSWORD, "email": email})
    assert r.status_code == 422 and r.json()["error"] == "bad_email", r.text
    r = c.post("/api/session", json={"username": name, "password": PASSWORD})
    assert r.status_code == 401  # nothing was made


def test_password_reset_by_email(mailed):
    srv, smtp, backend = mailed
    c, name, email, _ = verified_account(srv, smtp)
    other_device = person(srv)
    assert other_device.post("/api/session", json={"username": name, "password": PASSWORD}).status_code == 200

    asker = person(srv)
    r = asker.post("/api/password-reset", json={"email": email.upper()})  # addresses ignore case
    assert r.status_code == 202
    same = r.json()
    unknown = asker.post("/api/password-reset", json={"email": address()})
    assert unknown.status_code == 202 and unknown.json() == same  # the same answer for nobody
    msg = wait_for(smtp, email, 2)  # (the first was the verification)
    assert msg["Subject"] == "Reset your redtable password"
    token = link_token(msg, "reset")
    assert f"{srv.base}/#/reset/{token}" in msg.get_body(("plain",)).get_content()

    short = asker.post("/api/password-reset/confirm", json={"token": token, "password": "short"})
    assert short.status_code == 422 and short.json()["error"] == "bad_password"  # the link is not spent
    r = asker.post("/api/password-reset/confirm", json={"token": token, "password": NEW_PASSWORD})
    assert r.status_code == 200 and r.json()["reset"] is True
    # every session ended; the old password is gone, the new one logs in; the link is spent
    assert c.get("/api/session").json()["logged_in"] is False
    assert other_device.get("/api/session").json()["logged_in"] is False
    assert asker.post("/api/session", json={"username": name, "password": PASSWORD}).status_code == 401
    assert asker.post("/api/session", json={"username": name, "password": NEW_PASSWORD}).status_code == 200
    again = person(srv).post("/api/password-reset/confirm", json={"token": token, "password": "another pass 77"})
    assert again.status_code == 410 and again.json()["error"] == "link_expired"

    # a link past its 30 minutes is refused
    person(srv).post("/api/password-reset", json={"email": email})
    late = link_token(wait_for(smtp, email, 3), "reset")
    store = srv.app.state.store
    with store.engine.begin() as conn:
        conn.execute(update(email_tokens_table).values(expires_at=time.time() - 1))
    r = person(srv).post("/api/password-reset/confirm", json={"token": late, "password": "another pass 77"})
    assert r.status_code == 410
    # the database holds no token, only its sha256
    with store.engine.connect() as conn:
        rows = conn.execute(email_tokens_table.select()).all()
    assert all(late not in str(tuple(row)) and token not in str(tuple(row)) for row in rows)


def test_no_reset_mail_to_an_unverified_address(mailed):
    srv, smtp, _ = mailed
    c = person(srv)
    email = address()
    register(c, uname(), email)
    wait_for(smtp, email)  # the verification link, left unused
    assert person(srv).post("/api/password-reset", json={"email": email}).status_code == 202
    all_sent(srv)
    assert len(smtp.sink.to(email)) == 1


def test_reset_is_rate_limited_per_network_and_silently_per_address(mailed):
    srv, smtp, _ = mailed
    _, _, email, _ = verified_account(srv, smtp)
    sent = []
    for _ in range(5):  # five networks ask for one address: three e-mails, the same answer each time
        r = person(srv).post("/api/password-reset", json={"email": email})
        assert r.status_code == 202
        sent.append(r.json())
    all_sent(srv)
    assert len(smtp.sink.to(email)) == 1 + 3 and all(s == sent[0] for s in sent)
    one = person(srv)
    codes = [one.post("/api/password-reset", json={"email": address()}).status_code for _ in range(6)]
    assert codes[:5] == [202] * 5 and codes[5] == 429  # one network: 5, then refused
    assert one.post("/api/password-reset", json={"email": address()}).json()["error"] == "rate_limited"


def test_emails_in_the_accounts_language(mailed):
    srv, smtp, _ = mailed
    c = person(srv)
    email = address()
    register(c, uname(), email, lang="uk")
    assert wait_for(smtp, email)["Subject"] == "Підтвердьте адресу e-mail для redtable"
    c2 = httpx.Client(
        base_url=srv.base, timeout=20, headers={"Accept-Language": "pl-PL,pl;q=0.9", "X-Forwarded-For": "10.99.1.1"}
    )
    email2 = address()
    register(c2, uname(), email2)
    assert wait_for(smtp, email2)["Subject"] == "Potwierdź adres e-mail w redtable"


def test_change_password_and_sign_out_everywhere(mailed):
    srv, _, _ = mailed
    c = person(srv)
    name = uname()
    csrf = register(c, name)
    other = person(srv)
    assert other.post("/api/session", json={"username": name, "password": PASSWORD}).status_code == 200
    h = {"X-CSRF-Token": csrf}
    r = c.post("/api/account/password", json={"password": "wrong password 1", "new_password": NEW_PASSWORD}, headers=h)
    assert r.status_code == 403 and r.json()["error"] == "bad_password_check"
    r = c.post("/api/account/password", json={"password": PASSWORD, "new_password": NEW_PASSWORD})
    assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
    r = c.post("/api/account/password", json={"password": PASSWORD, "new_password": NEW_PASSWORD}, headers=h)
    assert r.status_code == 200 and r.json() == {"changed": True, "sessions_ended": 1}
    assert c.get("/api/session").json()["logged_in"] is True  # this one stays
    assert other.get("/api/session").json()["logged_in"] is False
    r = c.post("/api/account/sign-out-everywhere", headers=h)
    assert r.status_code == 200 and c.get("/api/session").json()["logged_in"] is False
    assert person(srv).get("/api/account").status_code == 401


def test_no_smtp_means_no_email(tmp_path):
    b = Backend("sqlite", tmp_path)
    srv = start_server(b)
    try:
        c = httpx.Client(base_url=srv.base, timeout=20)
        # the routes that send e-mail are not mounted, nor documented: the document tells the truth
        assert c.get("/api/session").json()["email_enabled"] is False
        paths = c.get("/openapi.json").json()["paths"]
        assert "/api/password-reset" not in paths and "/api/password-reset/confirm" not in paths
        assert "put" not in paths["/api/account/email"] and "delete" in paths["/api/account/email"]
        r = c.post("/api/password-reset", json={"email": "a@example.org"})
        assert r.status_code == 404, r.text
        # an address given at registration is refused, saying why, and makes no account
        name = uname()
        r = c.post("/api/accounts", json={"username": name, "password": PASSWORD, "email": "a@example.org"})
        assert r.status_code == 422 and r.json()["error"] == "no_email", r.text
        assert "--smtp" in r.json()["message"]
        r = c.post("/api/session", json={"username": name, "password": PASSWORD})
        assert r.status_code == 401, r.text
        r = c.post("/api/accounts", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201 and r.json()["email_enabled"] is False, r.text
        h = {"X-CSRF-Token": r.json()["csrf"]}
        r = c.put("/api/account/email", json={"email": "a@example.org", "lang": "en"}, headers=h)
        assert r.status_code == 405 and r.headers["allow"] == "DELETE", r.text  # (the path is there: removing one)
        assert c.get("/api/account").json()["email_enabled"] is False
    finally:
        srv.stop()
        b.cleanup()


def test_starttls_and_login_and_the_password_is_never_logged(tmp_path, caplog):
    smtp = SmtpServer(tls_dir=tmp_path / "tls", login=("mailer", "s3cret-pass")).start()
    try:
        config = parse_smtp_url(
            f"smtp://mailer@localhost:{smtp.port}?starttls=true", env={"REDTABLE_SMTP_PASSWORD": "s3cret-pass"}
        )
        assert config.tls == "starttls" and "s3cret" not in repr(config) and "s3cret" not in config.safe()
        mailer = Mailer(config, tls_context=smtp.client_context)
        mailer.send_now(mailer.message("a@example.org", "hello", "body"))
        assert smtp.sink.wait(1)[0]["Subject"] == "hello" and smtp.logins == ["mailer"]
        # a wrong password: refused, logged without it
        bad = Mailer(replace(config, password="wrong-pass-xyz"), tls_context=smtp.client_context)
        import asyncio

        with caplog.at_level(logging.DEBUG):
            assert asyncio.run(bad.send("test", bad.message("a@example.org", "x", "y"))) is False
        assert "not sent" in caplog.text and "SMTPAuthenticationError" in caplog.text  # refused, not timed out
        assert "wrong-pass-xyz" not in caplog.text and "s3cret" not in caplog.text
        # without STARTTLS the server refuses the login: the client never sends the password in clear
        plain = Mailer(replace(config, tls="none"))
        with pytest.raises(Exception):  # noqa: B017, PT011  (smtplib's refusal)
            plain.send_now(plain.message("a@example.org", "x", "y"))
        assert len(smtp.sink.messages) == 1
    finally:
        smtp.stop()


@pytest.mark.parametrize(
    "url, words",
    [
        ("http://host:25", "scheme"),
        ("smtp://", "no host"),
        ("smtps://host?starttls=true", "starttls does not apply"),
        ("smtp://host?bogus=1", "unknown option"),
        ("smtp://host?from=nobody", "from="),
        ("smtp://:pw@host", "password without a user"),
    ],
)
def test_bad_smtp_urls(url, words):
    with pytest.raises(BadSmtpUrl, match=words):
        parse_smtp_url(url, env={})


def test_smtp_url_defaults():
    c = parse_smtp_url("smtps://u:p%40ss@mail.example.org", env={})
    assert (c.host, c.port, c.tls, c.username, c.password, c.sender) == (
        "mail.example.org",
        465,
        "ssl",
        "u",
        "p@ss",
        "redtable@mail.example.org",
    )
    assert parse_smtp_url("smtp+starttls://h", env={}).port == 587
    assert parse_smtp_url("smtp://h", env={}).port == 25
