"""Sending e-mail over SMTP (``redtable serve --smtp URL``), off the event loop.

The URL names the server and how to speak to it:

* ``smtp://host:port``: plain SMTP (a relay on loopback or a private network);
* ``smtp://host:587?starttls=true`` (or ``smtp+starttls://host:587``): STARTTLS before anything
  else; the connection is refused when the server does not offer it;
* ``smtps://host:465``: TLS from the first byte;
* ``smtp://user@host:587?starttls=true``: log in as ``user``; the password comes from the URL
  (``user:password@``) or, better, from the environment (``REDTABLE_SMTP_PASSWORD``): a command
  line is visible to every user of the machine;
* ``?from=redtable%40example.org``: the sender (default ``redtable@<host>``).

The password is never logged nor shown: :meth:`SmtpConfig.safe` is what a log or an error
message prints. Sending runs on a thread (smtplib blocks) in the background: an API answer
never waits for the mail server (nor tells by its timing what it sent).
"""

from __future__ import annotations

import asyncio
import logging
import os
import smtplib
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

from . import metrics

log = logging.getLogger("redtable.server.mailer")

TRUE = ("1", "true", "yes", "on")


class BadSmtpUrl(ValueError):
    pass


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    tls: str = "none"  # none, starttls, ssl
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    sender: str = "redtable@localhost"
    timeout: float = 20.0

    def safe(self) -> str:
        """The server as a log may show it: no password."""
        who = f"{self.username}@" if self.username else ""
        return f"smtp://{who}{self.host}:{self.port} ({self.tls}, from {self.sender})"


def parse_smtp_url(url: str, env: Mapping[str, str] | None = None) -> SmtpConfig:
    """The configuration of ``url`` (see the module); :class:`BadSmtpUrl` names what is wrong."""
    environ: Mapping[str, str] = os.environ if env is None else env
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        raise BadSmtpUrl(f"not an SMTP URL: {e}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("smtp", "smtps", "smtp+starttls"):
        raise BadSmtpUrl(f"the scheme must be smtp, smtp+starttls or smtps, got {scheme or 'none'!r}")
    if not parts.hostname:
        raise BadSmtpUrl("the URL names no host (smtp://host:port)")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    unknown = set(query) - {"starttls", "from", "timeout"}
    if unknown:
        raise BadSmtpUrl(f"unknown option(s) {', '.join(sorted(unknown))}; known: starttls, from, timeout")
    tls = "ssl" if scheme == "smtps" else "starttls" if scheme == "smtp+starttls" else "none"
    if query.get("starttls", "").lower() in TRUE:
        if tls == "ssl":
            raise BadSmtpUrl("smtps:// is TLS from the start: starttls does not apply")
        tls = "starttls"
    username = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else environ.get("REDTABLE_SMTP_PASSWORD") or None
    if password and not username:
        raise BadSmtpUrl("a password without a user name: smtp://user@host (password in REDTABLE_SMTP_PASSWORD)")
    sender = query.get("from") or f"redtable@{parts.hostname}"
    if "@" not in sender or any(c in sender for c in "\r\n<>"):
        raise BadSmtpUrl("from= must be one plain address (name@domain)")
    try:
        timeout = float(query.get("timeout", "20"))
    except ValueError:
        raise BadSmtpUrl("timeout= must be seconds (a number)") from None
    return SmtpConfig(
        host=parts.hostname,
        port=port or (465 if tls == "ssl" else 587 if tls == "starttls" else 25),
        tls=tls,
        username=username,
        password=password,
        sender=sender,
        timeout=timeout,
    )


class Mailer:
    """Sends messages through one SMTP server; each send is a connection of its own, on a thread."""

    def __init__(self, config: SmtpConfig, tls_context: ssl.SSLContext | None = None) -> None:
        self.config = config
        self.tls_context = tls_context or ssl.create_default_context()
        self.pending: set[asyncio.Task] = set()
        self.sent = 0
        self.failed = 0

    @classmethod
    def from_url(cls, url: str) -> Mailer:
        return cls(parse_smtp_url(url))

    def message(self, to: str, subject: str, text: str, headers: dict[str, str] | None = None) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = self.config.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(localtime=False)
        msg["Message-ID"] = make_msgid(domain=self.config.sender.split("@", 1)[1])
        msg["Auto-Submitted"] = "auto-generated"
        for k, v in (headers or {}).items():
            msg[k] = v
        msg.set_content(text)
        return msg

    def send_now(self, msg: EmailMessage) -> None:
        """Deliver ``msg`` (blocking)."""
        c = self.config
        if c.tls == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(c.host, c.port, timeout=c.timeout, context=self.tls_context)
        else:
            smtp = smtplib.SMTP(c.host, c.port, timeout=c.timeout)
        with smtp:
            smtp.ehlo()
            if c.tls == "starttls":
                if not smtp.has_extn("starttls"):
                    raise smtplib.SMTPNotSupportedError("the server does not offer STARTTLS")
                smtp.starttls(context=self.tls_context)
                smtp.ehlo()
            if c.username:
                smtp.login(c.username, c.password or "")
            smtp.send_message(msg)

    async def send(self, kind: str, msg: EmailMessage) -> bool:
        """Deliver ``msg`` off the loop; True when the server took it (failures are logged, never raised)."""
        try:
            await asyncio.to_thread(self.send_now, msg)
        except (OSError, smtplib.SMTPException) as e:
            self.failed += 1
            # the error's class and the server, never the message's links nor the password
            log.warning("e-mail (%s) not sent through %s: %s", kind, self.config.safe(), type(e).__name__)
            return False
        self.sent += 1
        metrics.email_sent(kind)
        return True

    def send_later(self, kind: str, msg: EmailMessage) -> None:
        """Deliver in the background (the caller's answer does not wait)."""
        task = asyncio.get_running_loop().create_task(self.send(kind, msg))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def drain(self) -> None:
        while self.pending:
            await asyncio.gather(*list(self.pending), return_exceptions=True)
