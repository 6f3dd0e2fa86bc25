// The account page's "Bot account and API tokens" (docs/bots.md): make this account a bot account
// (irreversible, before it plays: a second click confirms), and its API tokens: listed by prefix,
// label, scopes, made and last used; a new one shown once, in the page only; revoking one.
import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api, get, post } from "./api.js";
import { currentUser } from "./account.js";

function when(at) {
  return at ? new Date(at * 1000).toLocaleDateString(document.documentElement.lang || undefined) : null;
}

export function botTokensBlock() {
  const box = h("section.settings-bots", { "aria-labelledby": "bots-h" });
  let info = null;
  let fresh = null;  // the token just made: shown this once
  let confirming = false;
  let label = "";
  const scopes = new Set(["read"]);

  function render() {
    clear(box).append(h("h2#bots-h", null, t("bots.title")), h("p.muted", null, t("bots.help")));
    if (info === null) return;
    if (info.bot) box.append(h("p.bot-status", { role: "status" }, t("bots.is_bot")));
    else {
      box.append(h("p.muted.bot-status", null, t("bots.make_help")));
      if (confirming) box.append(h("p.bot-warning", { role: "alert" }, t("bots.make_warning")));
      box.append(h("div.actions", null, confirming
        ? h("button.btn.danger.make-bot-confirm", { type: "button", onclick: makeBot }, t("bots.make_confirm"))
        : h("button.btn.ghost.make-bot", { type: "button", onclick: () => { confirming = true; render(); } }, t("bots.make"))));
    }
    box.append(h("h3", null, t("bots.tokens")));
    if (fresh) {
      box.append(h("div.new-token", { role: "status" },
        h("p", null, t("bots.shown_once")),
        h("code.token-value", null, fresh)));
    }
    if (!info.tokens.length) box.append(h("p.muted.small.tokens-empty", null, t("bots.none")));
    else {
      box.append(h("ul.token-list", null, info.tokens.map((k) => h("li.token", { "data-id": String(k.id) },
        h("span.token-text", null,
          h("strong", null, k.label), " ", h("code", null, k.prefix + "…"), " ",
          h("span.muted.small", null, k.scopes.join(", ")), h("br"),
          h("span.muted.small", null, t("bots.created", { date: when(k.created_at) }), " · ",
            k.last_used_at ? t("bots.last_used", { date: when(k.last_used_at) }) : t("bots.never_used"))),
        h("button.btn.small.ghost.revoke-token", { type: "button", onclick: (e) => revoke(k, e.currentTarget) }, t("bots.revoke"))))));
    }
    box.append(h("form.token-form", { novalidate: true, onsubmit: create },
      h("label.field", null, h("span", null, t("bots.label")),
        h("input", { type: "text", name: "label", maxlength: 60, value: label, oninput: (e) => { label = e.target.value; } })),
      h("fieldset.token-scopes", null, h("legend", null, t("bots.scopes")),
        ...["read", "bot:play"].map((s) => h("label.check", null,
          h("input", { type: "checkbox", value: s, checked: scopes.has(s), disabled: s === "bot:play" && !info.bot,
            onchange: (e) => { if (e.target.checked) scopes.add(s); else scopes.delete(s); } }),
          h("span", null, t(s === "read" ? "bots.scope_read" : "bots.scope_play"))))),
      h("div.actions", null, h("button.btn.primary.create-token", { type: "submit" }, t("bots.create")))));
  }

  async function load() {
    try { info = await get("/api/account/tokens"); } catch (e) { info = { bot: false, tokens: [] }; toast(e.message, "error", 6000); }
    render();
  }
  async function makeBot() {
    try { await post("/api/account/bot", {}); confirming = false; } catch (e) { toast(e.message, "error", 8000); confirming = false; }
    load();
  }
  async function create(e) {
    e.preventDefault();
    try {
      const r = await post("/api/account/tokens", { label: label.trim(), scopes: [...scopes] });
      fresh = r.token; label = "";
    } catch (err) { toast(err.message, "error", 6000); }
    load();
  }
  async function revoke(k, btn) {
    btn.disabled = true;
    try { await api("DELETE", `/api/account/tokens/${k.id}`); toast(t("bots.revoked", { label: k.label })); } catch (e) { toast(e.message, "error", 6000); }
    load();
  }
  render();
  if (currentUser()) load();
  return box;
}
