// Accounts in the page: who is logged in (GET /api/session at boot), the log-in and register
// page (#/login, #/register), the same form inline where a page needs an account (the join
// page of a rated game), and logging out. The session cookie is HttpOnly: the page never sees
// it, only the session's CSRF token, which api.js sends with every write. After failed log-ins
// at a username the server may ask for a proof of work (pow.js), solved here and sent again;
// a busy server (503) is asked once more after its Retry-After.
import { h, clear, toast } from "./dom.js";
import { t, currentLang } from "./i18n.js";
import { get, post, del, setCsrf } from "./api.js";
import { canProve, solveChallenge } from "./pow.js";

export const USERNAME_RE = /^[A-Za-z0-9_-]{3,24}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

let me = null; // {username} while logged in
let mailing = true; // the server sends e-mail (GET /api/session says): an address and "forgot password" only then
const listeners = new Set();

export function currentUser() { return me ? me.username : null; }
export function serverSendsEmail() { return mailing; }
export function onAccountChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

function setSession(info) {
  const was = currentUser();
  me = info && info.logged_in ? { username: info.username } : null;
  if (info && typeof info.email_enabled === "boolean") mailing = info.email_enabled;
  setCsrf(me ? info.csrf : null);
  if (was !== currentUser()) for (const fn of listeners) fn(me);
}

export async function loadSession() {
  if (navigator.onLine === false) return;  // offline: asked again when the page is back online (main.js)
  try {
    setSession(await get("/api/session"));
  } catch (e) {
    setSession(null);
  }
}

export async function logOut() {
  try {
    setSession(await del("/api/session"));
    toast(t("account.logged_out"));
  } catch (e) {
    toast(e.message, "error", 6000);
    await loadSession();
  }
}

// What the browser can tell before asking the server (the server says the same, in the same words).
function localProblem(mode, username, password) {
  if (mode === "register") {
    if (username.length < 3 || username.length > 24) return t("err.bad_username.length", { min: 3, max: 24 });
    if (!USERNAME_RE.test(username)) return t("err.bad_username.characters");
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
      return t("err.bad_password", { min: PASSWORD_MIN, max: PASSWORD_MAX });
    }
  }
  if (!username || !password) return t("account.fill_both");
  return null;
}

// The log-in / register form; onDone(username) once logged in.
export function accountForm(initialMode, onDone) {
  let mode = initialMode === "register" ? "register" : "login";
  let error = null;
  let busy = false;
  let working = null; // what the page is doing meanwhile (proving, waiting for a busy server)
  let username = "";
  let password = "";
  let email = "";  // (register: optional, for a forgotten password)
  const box = h("div.account-box");

  function render() {
    clear(box);
    const form = h("form.account-form", { novalidate: true, "data-mode": mode, onsubmit: submit },
      h("div.tabs", { role: "tablist" },
        ["login", "register"].map((m) => h("button.tab", {
          type: "button", role: "tab", "aria-selected": String(mode === m), "data-mode": m,
          onclick: () => { mode = m; error = null; render(); },
        }, t("account.tab." + m)))),
      h("label.field", null, h("span", null, t("account.username")),
        h("input#acct-user", {
          type: "text", name: "username", autocomplete: "username", maxlength: 24, required: true, value: username,
          autocapitalize: "none", spellcheck: "false", "aria-describedby": mode === "register" ? "acct-user-help" : null,
          oninput: (e) => { username = e.target.value; },
        }),
        mode === "register" ? h("small#acct-user-help.muted", null, t("account.username_help")) : null),
      h("label.field", null, h("span", null, t("account.password")),
        h("input#acct-pass", {
          type: "password", name: "password", maxlength: PASSWORD_MAX, required: true, value: password,
          autocomplete: mode === "register" ? "new-password" : "current-password",
          "aria-describedby": mode === "register" ? "acct-pass-help" : null,
          oninput: (e) => { password = e.target.value; },
        }),
        mode === "register" ? h("small#acct-pass-help.muted", null, t("account.password_help", { min: PASSWORD_MIN })) : null),
      mode === "register" && mailing ? h("label.field", null, h("span", null, t("account.email_optional")),
        h("input#acct-email", {
          type: "email", name: "email", autocomplete: "email", maxlength: 254, value: email,
          "aria-describedby": "acct-email-help", oninput: (e) => { email = e.target.value; },
        }),
        h("small#acct-email-help.muted", null, t("account.email_help"))) : null,
      error ? h("p.error.account-error", { role: "alert" }, error) : null,
      working ? h("p.muted.account-working", { role: "status" }, working) : null,
      mode === "login" && mailing ? h("p.forgot", null, h("a.forgot-link", { href: "#/forgot" }, t("reset.forgot_link"))) : null,
      h("div.actions", null,
        h("button.btn.primary.account-submit", { type: "submit", disabled: busy },
          t(mode === "register" ? "account.register" : "account.log_in"))));
    box.append(form);
  }

  async function submit(e) {
    e.preventDefault();
    const name = username.trim();
    error = localProblem(mode, name, password);
    if (error) { render(); box.querySelector(".account-error")?.focus?.(); return; }
    busy = true;
    render();
    try {
      const r = await send(name);
      password = "";
      setSession(r);
      toast(t(mode === "register" ? "account.welcome_new" : "account.welcome", { name: r.username }));
      busy = false;
      if (onDone) onDone(r.username);
      return;
    } catch (err) {
      error = err.message;
    }
    busy = false;
    working = null;
    render();
  }

  // One log-in or sign-up, with what the server may ask first: a proof of work (at most twice)
  // and one more try after a short Retry-After of a busy server.
  async function send(name) {
    const path = mode === "register" ? "/api/accounts" : "/api/session";
    const body = { username: name, password };
    if (mode === "register" && mailing && email.trim()) { body.email = email.trim(); body.lang = currentLang(); }
    let waited = false;
    for (let round = 0; round < 4; round++) {
      try {
        return await post(path, body);
      } catch (err) {
        const b = err.body || {};
        if (err.code === "challenge_required" && round < 3 && canProve() && typeof b.challenge === "string") {
          working = t("account.proving");
          render();
          const nonce = await solveChallenge(b.challenge, Math.min(24, Number(b.bits) || 0));
          if (nonce === null) throw err;
          body.proof = { challenge: b.challenge, nonce };
          continue;
        }
        if (err.code === "challenge_required" && !canProve()) throw new Error(t("account.proof_needs_https"));
        const wait = Number(b.retry_after) || 0;
        if (err.code === "hashing_busy" && !waited && wait > 0 && wait <= 5) {
          waited = true;
          working = t("account.busy_retrying", { n: wait });
          render();
          await new Promise((ok) => setTimeout(ok, wait * 1000));
          continue;
        }
        throw err;
      }
    }
    return post(path, body);
  }

  render();
  return { el: box, relabel: render };
}

// #/login and #/register: the form; once logged in, to the profile.
export function mountAccount(root, mode) {
  const page = h("section.panel.narrow.account-page", { "aria-labelledby": "acct-h" });
  root.append(page);
  function render() {
    clear(page);
    const user = currentUser();
    page.append(h("h1#acct-h", null, t("account.title")));
    if (user) {
      page.append(h("p", null, t("account.logged_in_as", { name: user })),
        h("div.actions", null,
          h("a.btn.primary", { href: `#/players/${encodeURIComponent(user)}` }, t("account.my_profile")),
          h("a.btn.settings-link", { href: "#/account" }, t("settings.title")),
          h("button.btn.ghost.logout", { type: "button", onclick: logOut }, t("account.log_out"))));
      return;
    }
    const form = accountForm(mode, (name) => { location.hash = `#/players/${encodeURIComponent(name)}`; });
    page.append(h("p.muted", null, t("account.why")), form.el);
  }
  const off = onAccountChange(render);
  render();
  return { destroy: off, relabel: render };
}
