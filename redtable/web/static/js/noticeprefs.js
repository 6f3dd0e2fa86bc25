// What the account is told, and how (GET/PUT /api/account/notifications): a switch per kind for
// Web Push and for e-mail, and the daily digest instead of an e-mail per turn. Shown on the account
// page; and the page of an e-mail's unsubscribe link (#/unsubscribe/<token>: it asks first, then
// posts the token in a body; the token is taken out of the address bar at once).
import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api, get, post } from "./api.js";

const KINDS = ["your_turn", "waiting", "invited", "rematch_offered", "table_started"];

// The block of the account page: loads itself, saves on each change.
export function noticesBlock() {
  const box = h("div.settings-notices");
  let data = null;
  let error = null;
  let saving = false;

  function render() {
    clear(box);
    box.append(h("h2#notices-h", null, t("notices.title")), h("p.muted", null, t("notices.help")));
    if (error) box.append(h("p.error", { role: "alert" }, error));
    if (!data) return;
    const s = data.settings;
    const mailable = data.email_enabled && data.email_verified;
    const head = h("tr", null, h("th", { scope: "col" }, t("notices.kind")),
      h("th", { scope: "col" }, t("notices.push")), h("th", { scope: "col" }, t("notices.email")));
    const rows = KINDS.map((k) => h("tr", { "data-kind": k },
      h("th", { scope: "row" }, t("notices.kind_" + k)),
      h("td", null, check(`push-${k}`, s.push[k], t("notices.push_of", { kind: t("notices.kind_" + k) }), (v) => { s.push[k] = v; })),
      h("td", null, check(`email-${k}`, s.email[k] && !(k === "your_turn" && s.digest),
        t("notices.email_of", { kind: t("notices.kind_" + k) }), (v) => { s.email[k] = v; }, !mailable || (k === "your_turn" && s.digest)))));
    box.append(h("table.notices-table", { "aria-labelledby": "notices-h" }, h("thead", null, head), h("tbody", null, rows)));
    box.append(h("label.check.notices-digest", null,
      h("input", { type: "checkbox", name: "digest", checked: s.digest, disabled: !mailable || saving, onchange: (e) => { s.digest = e.target.checked; save(); } }),
      h("span", null, t("notices.digest"))));
    if (!mailable) box.append(h("p.muted.notices-no-email", null, t(data.email_enabled ? "notices.verify_first" : "settings.email_off")));
  }

  function check(name, on, label, set, disabled) {
    return h("input", {
      type: "checkbox", name, checked: Boolean(on), disabled: Boolean(disabled) || saving, "aria-label": label,
      onchange: (e) => { set(e.target.checked); save(); },
    });
  }

  async function save() {
    saving = true; render();
    try {
      const r = await api("PUT", "/api/account/notifications", data.settings);
      data.settings = r.settings; error = null;
      toast(t("notices.saved"));
    } catch (err) { error = err.message; }
    saving = false; render();
  }

  async function load() {
    try { data = await get("/api/account/notifications"); error = null; } catch (err) { error = err.message; }
    render();
  }

  load();
  return { el: box, relabel: render, reload: load };
}

export function mountUnsubscribe(root, rawToken) {
  try { history.replaceState(null, "", "#/unsubscribe"); } catch (e) { /* an old browser: the hash stays */ }
  const token = rawToken;
  const page = h("section.panel.narrow.unsubscribe-page", { "aria-labelledby": "unsub-h" });
  root.append(page);
  let state = "ask";
  let kind = null;
  let error = null;
  function render() {
    clear(page);
    page.append(h("h1#unsub-h", null, t("unsub.title")));
    if (state === "ask") {
      page.append(h("p", null, t("unsub.help")),
        h("div.actions", null, h("button.btn.primary.unsub-confirm", { type: "button", onclick: confirm }, t("unsub.confirm"))));
    } else if (state === "done") {
      page.append(h("p.unsub-done", { role: "status" }, t("unsub.done", { kind: t("notices.kind_" + kind) })),
        h("a.btn", { href: "#/account" }, t("settings.title")));
    } else page.append(h("p.error", { role: "alert" }, error));
  }
  async function confirm() {
    try { kind = (await post("/api/unsubscribe", { token })).kind; state = "done"; } catch (err) { state = "failed"; error = err.message; }
    render();
  }
  render();
  return { relabel: render };
}
