// The account page (#/account: the e-mail address, the password, signing out everywhere, export
// and delete: accountdata.js) and the
// pages of the e-mailed links: #/forgot (ask for a reset link), #/reset/<token> (the new password),
// #/verify-email/<token> (the address confirmed). A link's token lives in the #fragment, which no
// server sees; the page takes it out of the address bar at once and posts it in a body.
import { h, clear, toast } from "./dom.js";
import { t, currentLang } from "./i18n.js";
import { api, get, post } from "./api.js";
import { blockedList } from "./friends.js";
import { currentUser, onAccountChange, loadSession, serverSendsEmail, PASSWORD_MIN } from "./account.js";
import { selfServiceBlocks } from "./accountdata.js";
import { noticesBlock } from "./noticeprefs.js";
import { botTokensBlock } from "./accountbots.js";
import { publicGamesBlock } from "./publicgames.js";

const PASSWORD_MAX = 256;

function field(label, attrs, help) {
  return h("label.field", null, h("span", null, label), h("input", attrs), help ? h("small.muted", null, help) : null);
}

// The token of #/<page>/<token>, removed from the address bar and the history.
function takeToken(page, token) {
  try { history.replaceState(null, "", `#/${page}`); } catch (e) { /* an old browser: the hash stays */ }
  return token;
}

export function mountSettings(root) {
  const page = h("section.panel.narrow.settings-page", { "aria-labelledby": "settings-h" });
  root.append(page);
  let info = null;
  let error = null;
  let email = "";
  let current = "";
  let next = "";

  async function load() {
    if (!currentUser()) { render(); return; }
    try {
      info = await get("/api/account");
      email = info.email || "";
    } catch (e) { error = e.message; }
    render();
    await readPush();
    render();
  }

  function render() {
    clear(page);
    page.append(h("h1#settings-h", null, t("settings.title")));
    if (!currentUser()) {
      page.append(h("p", null, t("settings.log_in_first")), h("a.btn.primary", { href: "#/login" }, t("account.log_in")));
      return;
    }
    if (error) page.append(h("p.error", { role: "alert" }, error));
    if (!info) return;
    // the e-mail address
    const status = !info.email ? t("settings.email_none")
      : info.email_verified ? t("settings.email_verified") : t("settings.email_unverified");
    page.append(h("form.settings-email", { novalidate: true, onsubmit: saveEmail },
      h("h2", null, t("settings.email")),
      info.email_enabled ? null : h("p.muted", null, t("settings.email_off")),
      field(t("settings.email_address"), {
        type: "email", name: "email", autocomplete: "email", maxlength: 254, value: email,
        disabled: !info.email_enabled, oninput: (e) => { email = e.target.value; },
      }, t("settings.email_help")),
      h("p.muted.email-status", { role: "status" }, status),
      h("div.actions", null,
        h("button.btn.primary.save-email", { type: "submit", disabled: !info.email_enabled }, t("settings.email_save")),
        info.email ? h("button.btn.ghost.drop-email", { type: "button", onclick: dropEmail }, t("settings.email_remove")) : null)));
    // the password
    page.append(h("form.settings-password", { novalidate: true, onsubmit: changePassword },
      h("h2", null, t("settings.password")),
      field(t("settings.current_password"), { type: "password", name: "current", autocomplete: "current-password", maxlength: PASSWORD_MAX, oninput: (e) => { current = e.target.value; } }),
      field(t("settings.new_password"), { type: "password", name: "new", autocomplete: "new-password", maxlength: PASSWORD_MAX, oninput: (e) => { next = e.target.value; } },
        t("account.password_help", { min: PASSWORD_MIN })),
      h("div.actions", null, h("button.btn.primary.change-password", { type: "submit" }, t("settings.change_password")))));
    // notifications on this device (Web Push: a turn-based game waits on you, with the tab closed)
    page.append(pushBlock());
    // what the account is told, by push and by e-mail (noticeprefs.js: it loads and saves itself)
    notices = notices || noticesBlock();
    notices.relabel();
    page.append(notices.el);
    // every session
    page.append(h("div.settings-sessions", null,
      h("h2", null, t("settings.sessions")),
      h("p.muted", null, t("settings.sessions_help")),
      h("button.btn.ghost.sign-out-everywhere", { type: "button", onclick: signOutEverywhere }, t("settings.sign_out_everywhere"))));
    page.append(blocks || (blocks = blockedList()));  // the players this account blocks (friends.js)
    page.append(bots || (bots = botTokensBlock()));  // bot account and API tokens (accountbots.js)
    publicGames = publicGames || publicGamesBlock();  // my games in the open data (publicgames.js)
    publicGames.relabel();
    page.append(publicGames.el);
    // export my data, delete my account (accountdata.js)
    page.append(...selfServiceBlocks());
  }
  let blocks = null;
  let bots = null;
  let publicGames = null;

  let notices = null;  // the notification settings' block, made once per page
  let pushState = null;  // "on", "off", "unsupported", "denied"
  let pushSub = null;

  async function readPush() {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) { pushState = "unsupported"; return; }
    if (Notification.permission === "denied") { pushState = "denied"; return; }
    try {
      const reg = await navigator.serviceWorker.ready;
      pushSub = await reg.pushManager.getSubscription();
    } catch (e) { pushSub = null; }
    pushState = pushSub ? "on" : "off";
  }

  function pushBlock() {
    const box = h("div.settings-push", null, h("h2", null, t("push.title")), h("p.muted", null, t("push.help")));
    if (pushState === "unsupported" || pushState === "denied") box.append(h("p.push-status", { role: "status" }, t("push." + pushState)));
    else if (pushState) {
      box.append(h("p.push-status", { role: "status" }, t(pushState === "on" ? "push.on" : "push.off")),
        h("div.actions", null, pushState === "on"
          ? h("button.btn.ghost.push-off", { type: "button", onclick: pushOff }, t("push.turn_off"))
          : h("button.btn.primary.push-on", { type: "button", onclick: pushOn }, t("push.turn_on"))));
    }
    return box;
  }

  function keyBytes(b64) {
    const raw = atob((b64 + "=".repeat((4 - (b64.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  async function pushOn() {
    try {
      if (await Notification.requestPermission() !== "granted") { pushState = "denied"; render(); return; }
      const reg = await navigator.serviceWorker.ready;
      const { public_key } = await get("/api/push/key");
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) });
      const json = sub.toJSON();
      await post("/api/push/subscriptions", { endpoint: json.endpoint, keys: json.keys, lang: currentLang() });
      pushSub = sub; pushState = "on"; error = null;
      toast(t("push.on"));
    } catch (err) { error = err.message; }
    render();
  }

  async function pushOff() {
    try {
      if (pushSub) {
        await post("/api/push/unsubscribe", { endpoint: pushSub.endpoint });
        await pushSub.unsubscribe();
      }
      pushSub = null; pushState = "off"; error = null;
    } catch (err) { error = err.message; }
    render();
  }

  async function saveEmail(e) {
    e.preventDefault();
    try {
      await api("PUT", "/api/account/email", { email: email.trim(), lang: currentLang() });
      toast(t("settings.email_sent", { email: email.trim() }));
      error = null;
    } catch (err) { error = err.message; }
    await load();
    if (notices) notices.reload();
  }

  async function dropEmail() {
    try { await api("DELETE", "/api/account/email"); email = ""; error = null; } catch (err) { error = err.message; }
    await load();
  }

  async function changePassword(e) {
    e.preventDefault();
    if (next.length < PASSWORD_MIN) { error = t("err.bad_password", { min: PASSWORD_MIN, max: PASSWORD_MAX }); render(); return; }
    try {
      const r = await post("/api/account/password", { password: current, new_password: next });
      toast(t("settings.password_changed", { n: r.sessions_ended }));
      current = ""; next = ""; error = null;
    } catch (err) { error = err.message; }
    render();
  }

  async function signOutEverywhere() {
    try {
      await post("/api/account/sign-out-everywhere", {});
      toast(t("settings.signed_out_everywhere"));
    } catch (err) { error = err.message; }
    await loadSession();
  }

  const off = onAccountChange(load);
  load();
  return { destroy: off, relabel: render };
}

export function mountForgot(root) {
  const page = h("section.panel.narrow.forgot-page", { "aria-labelledby": "forgot-h" });
  root.append(page);
  let email = "";
  let sent = false;
  let error = null;
  function render() {
    clear(page);
    page.append(h("h1#forgot-h", null, t("reset.forgot_title")));
    if (!serverSendsEmail()) { page.append(h("p.muted.forgot-no-email", null, t("settings.email_off"))); return; }
    if (sent) { page.append(h("p.reset-sent", { role: "status" }, t("reset.sent"))); return; }
    page.append(h("form.forgot-form", { novalidate: true, onsubmit: submit },
      h("p.muted", null, t("reset.forgot_help")),
      field(t("settings.email_address"), { type: "email", name: "email", autocomplete: "email", maxlength: 254, value: email, oninput: (e) => { email = e.target.value; } }),
      error ? h("p.error", { role: "alert" }, error) : null,
      h("div.actions", null, h("button.btn.primary.send-reset", { type: "submit" }, t("reset.send")))));
  }
  async function submit(e) {
    e.preventDefault();
    try { await post("/api/password-reset", { email: email.trim() }); sent = true; error = null; } catch (err) { error = err.message; }
    render();
  }
  render();
  return { relabel: render };
}

export function mountReset(root, rawToken) {
  const token = takeToken("reset", rawToken);
  const page = h("section.panel.narrow.reset-page", { "aria-labelledby": "reset-h" });
  root.append(page);
  let password = "";
  let done = false;
  let error = null;
  function render() {
    clear(page);
    page.append(h("h1#reset-h", null, t("reset.title")));
    if (done) {
      page.append(h("p.reset-done", { role: "status" }, t("reset.done")), h("a.btn.primary", { href: "#/login" }, t("account.log_in")));
      return;
    }
    page.append(h("form.reset-form", { novalidate: true, onsubmit: submit },
      field(t("settings.new_password"), { type: "password", name: "password", autocomplete: "new-password", maxlength: PASSWORD_MAX, oninput: (e) => { password = e.target.value; } },
        t("account.password_help", { min: PASSWORD_MIN })),
      error ? h("p.error", { role: "alert" }, error) : null,
      h("div.actions", null, h("button.btn.primary.set-password", { type: "submit" }, t("reset.set")))));
  }
  async function submit(e) {
    e.preventDefault();
    try { await post("/api/password-reset/confirm", { token, password }); done = true; error = null; await loadSession(); } catch (err) { error = err.message; }
    render();
  }
  render();
  return { relabel: render };
}

export function mountVerify(root, rawToken) {
  const token = takeToken("verify-email", rawToken);
  const page = h("section.panel.narrow.verify-page", { "aria-labelledby": "verify-h" });
  root.append(page);
  let state = "working";
  let error = null;
  function render() {
    clear(page);
    page.append(h("h1#verify-h", null, t("verify.title")));
    if (state === "working") page.append(h("p.muted", { role: "status" }, t("verify.working")));
    else if (state === "done") page.append(h("p.verify-done", { role: "status" }, t("verify.done")), h("a.btn", { href: "#/account" }, t("settings.title")));
    else page.append(h("p.error", { role: "alert" }, error));
  }
  post("/api/email/verify", { token }).then(() => { state = "done"; }, (err) => { state = "failed"; error = err.message; }).finally(render);
  render();
  return { relabel: render };
}
