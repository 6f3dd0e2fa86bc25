"""The account page and the e-mailed links in the browser: register with an address, confirm
it by the e-mailed link, forget the password, reset it by the e-mailed link, log in with the new
one. The e-mails arrive at a real SMTP server on loopback (aiosmtpd)."""

from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path

import pytest
from webkit import LiveServer, shot

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from mailkit import SmtpServer, link_token  # noqa: E402


@pytest.fixture(scope="module")
def mailing(tmp_path_factory):
    smtp = SmtpServer().start()
    srv = LiveServer(tmp_path_factory.mktemp("mailweb") / "web.db", smtp=smtp.url).start()
    yield srv, smtp
    srv.stop()
    smtp.stop()


def wait_for(smtp, to: str, n: int):
    deadline = time.time() + 20
    while time.time() < deadline:
        got = smtp.sink.to(to)
        if len(got) >= n:
            return got[n - 1]
        time.sleep(0.05)
    raise AssertionError(f"no e-mail {n} to {to}")


def test_register_confirm_forget_and_reset(mailing, new_page):
    srv, smtp = mailing
    name, email = "w" + uuid.uuid4().hex[:9], f"{uuid.uuid4().hex[:8]}@example.org"
    page = new_page()
    page.goto(srv.base + "/#/register")
    page.fill("#acct-user", name)
    page.fill("#acct-pass", "correct horse battery")
    page.fill("#acct-email", email)
    page.click(".account-submit")
    page.wait_for_selector(".account-name")
    link = wait_for(smtp, email, 1).get_body(("plain",)).get_content()
    token = link_token(wait_for(smtp, email, 1), "verify-email")
    assert f"/#/verify-email/{token}" in link
    page.goto(srv.base + f"/#/verify-email/{token}")
    page.wait_for_selector(".verify-done")
    assert token not in page.url  # the token leaves the address bar at once
    page.goto(srv.base + "/#/account")
    page.wait_for_selector(".settings-email .email-status")
    assert page.input_value(".settings-email input[name=email]") == email
    assert "Confirmed" in page.inner_text(".email-status")
    shot(page, "account-settings")
    page.click(".sign-out-everywhere")
    page.wait_for_selector(".login-link")

    page.goto(srv.base + "/#/login")
    page.click(".forgot-link")
    page.wait_for_selector(".forgot-form")
    page.fill(".forgot-form input[name=email]", email)
    page.click(".send-reset")
    page.wait_for_selector(".reset-sent")
    shot(page, "account-forgot-sent")
    token = link_token(wait_for(smtp, email, 2), "reset")
    page.goto(srv.base + f"/#/reset/{token}")
    page.wait_for_selector(".reset-form")
    assert token not in page.url
    page.fill(".reset-form input[name=password]", "a brand new secret 9")
    shot(page, "account-reset")
    page.click(".set-password")
    page.wait_for_selector(".reset-done")
    page.goto(srv.base + "/#/login")
    page.fill("#acct-user", name)
    page.fill("#acct-pass", "a brand new secret 9")
    page.click(".account-submit")
    page.wait_for_selector(".account-name")
    # no token in any URL the server was asked for
    assert not any(token in u for u in srv.seen.urls)


def test_subscribe_to_pushes_from_the_account_page(mailing, new_page):
    """The subscribe flow with a stubbed permission and push service: Chromium's own push service
    is not reachable from a test, so PushManager.subscribe answers with a loopback subscription."""
    from pushkit import Browser, PushService

    from redtable.server.push import subscriptions_of

    srv, _ = mailing
    service = PushService()
    srv.app.state.push_loopback = True
    try:
        browser = Browser(service, "web-" + uuid.uuid4().hex[:6])
        sub = browser.subscription()
        page = new_page()
        page.context.grant_permissions(["notifications"], origin=srv.base)
        page.context.add_init_script(
            "(() => { const sub = " + __import__("json").dumps(sub) + ";"
            " let current = null;"
            " const fake = { endpoint: sub.endpoint, toJSON: () => sub,"
            " unsubscribe: async () => { current = null; return true; } };"
            " PushManager.prototype.subscribe = async function () { current = fake; return fake; };"
            " PushManager.prototype.getSubscription = async function () { return current; }; })();"
        )
        name = "s" + uuid.uuid4().hex[:9]
        page.goto(srv.base + "/#/register")
        page.fill("#acct-user", name)
        page.fill("#acct-pass", "correct horse battery")
        page.click(".account-submit")
        page.wait_for_selector(".account-name")
        page.goto(srv.base + "/#/account")
        page.wait_for_selector(".push-on")
        page.click(".push-on")
        page.wait_for_selector(".push-off")
        page.wait_for_selector(".toast", state="detached", timeout=15000)  # (the toasts, not over the button)
        shot(page, "account-push-on")
        from redtable.server.accounts import find_account

        store = srv.app.state.store
        found = find_account(store, name)
        assert found is not None
        assert [s["endpoint"] for s in subscriptions_of(store, found[0].id)] == [browser.endpoint]
        page.click(".push-off")
        page.wait_for_selector(".push-on")
        assert subscriptions_of(store, found[0].id) == []
    finally:
        srv.app.state.push_loopback = False
        service.stop()


def test_a_server_without_email_offers_no_address_and_no_forgotten_password(live, new_page):
    """Without --smtp the forms leave out what needs e-mail: the address at registration and the
    log-in's forgotten-password link; the #/forgot page says why instead of a form that would fail."""
    page = new_page()
    page.goto(live.base + "/#/login")
    page.wait_for_selector(".account-form[data-mode=login]")
    assert page.locator(".forgot-link").count() == 0
    page.click(".tab[data-mode=register]")
    page.wait_for_selector(".account-form[data-mode=register]")
    assert page.locator("#acct-email").count() == 0
    page.goto(live.base + "/#/forgot")
    page.wait_for_selector(".forgot-no-email")
    assert page.locator(".forgot-form").count() == 0
    shot(page, "forgot-no-email")
