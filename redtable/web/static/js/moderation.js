// Moderation in the page (server: redtable/server/moderation_api.py).
//
// * reportDialog(target): a player reports a player (profile), a chat message (chat) or a
//   table (the table's status bar), with a reason from a short list and a bounded note;
// * refreshSite(): on every page load, the site's banner and, for a logged-in account, what a
//   moderator did to it and why (a dialog until it is read) and its role (the nav link);
// * mountModeration(root): #/moderation for moderators (open reports with their context and
//   the actions) and, for admins, the audit log (#/moderation/audit) and the site notices
//   (#/moderation/site).
// Everything a person wrote is put in the page as text (h() children), never as markup.
import { h, clear, toast } from "./dom.js";
import { t, ago } from "./i18n.js";
import { get, post } from "./api.js";
import { currentUser } from "./account.js";

export const REASONS = ["cheating", "chat_abuse", "stalling", "bad_name", "other"];
const NOTE_MAX = 500;
const REASON_MAX = 500;
const BANNER_MAX = 300;
const ACCOUNT_ACTIONS = ["warn", "mute", "suspend", "ban", "unmute", "unsuspend", "unban"];
const TIMED = new Set(["mute", "suspend"]);

let role = null;  // this account's role (told to it alone), or null
const roleListeners = new Set();
export function modRole() { return role; }
export function onRoleChange(fn) { roleListeners.add(fn); return () => roleListeners.delete(fn); }

function whenText(until) {
  if (until === null || until === undefined) return t("mod.until_lifted");
  return t("mod.until", { when: new Date(until * 1000).toLocaleString() });
}

function overlay(labelId, ...body) {
  const before = document.activeElement;
  const el = h("div.overlay.mod-overlay", { role: "dialog", "aria-modal": "true", "aria-labelledby": labelId },
    h("div.dialog.mod-dialog", null, ...body));
  const close = () => {
    document.removeEventListener("keydown", onKey, true);
    el.remove();
    if (before && before.isConnected && before.focus) before.focus({ preventScroll: true });
  };
  const onKey = (e) => { if (e.key === "Escape") { e.stopPropagation(); close(); } };
  document.addEventListener("keydown", onKey, true);
  el.addEventListener("click", (e) => { if (e.target === el) close(); });
  el._close = close;
  document.body.append(el);
  return el;
}

// ---------------------------------------------------------------------- reports
// target: {kind: "player", username} | {kind: "player", game_id, seat} | {kind: "message", chat_id, game_id} | {kind: "table", game_id}
export function reportDialog(target, about) {
  const reason = h("select.report-reason", { id: "report-reason", required: true },
    h("option", { value: "" }, t("report.choose")),
    REASONS.map((r) => h("option", { value: r }, t("report.reason." + r))));
  const note = h("textarea.report-note", { id: "report-note", maxlength: String(NOTE_MAX), rows: "3" });
  const count = h("span.muted.small.report-count", null, `0/${NOTE_MAX}`);
  note.addEventListener("input", () => { count.textContent = `${[...note.value].length}/${NOTE_MAX}`; });
  const error = h("p.error.small.report-error", { role: "status", hidden: true });
  const send = h("button.btn.primary.report-send", { type: "submit" }, t("report.send"));
  const cancel = h("button.btn.ghost.report-cancel", { type: "button" }, t("report.cancel"));
  const form = h("form.report-form", null,
    h("div.dialog-head", null, h("h1#report-h", null, t("report.title." + target.kind))),
    about ? h("p.report-about", null, about) : null,
    h("label.field", { for: "report-reason" }, h("span", null, t("report.reason")), reason),
    h("label.field", { for: "report-note" }, h("span", null, t("report.note"), " ", count), note),
    h("p.muted.small", null, t("report.help")),
    error,
    h("div.actions", null, cancel, send));
  const el = overlay("report-h", form);
  cancel.addEventListener("click", () => el._close());
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!reason.value) { error.hidden = false; error.textContent = t("report.choose"); reason.focus(); return; }
    send.disabled = true;
    try {
      await post("/api/reports", { ...target, reason: reason.value, note: note.value.trim() || null });
      el._close();
      toast(t("report.sent"), "info", 5000);
    } catch (err) {
      error.hidden = false;
      error.textContent = err.message;
      send.disabled = false;
    }
  });
  reason.focus();
  return el;
}

// a small flag button that opens the report dialog
export function reportButton(target, label, about) {
  return h("button.btn.small.ghost.report-btn", {
    type: "button", title: label, "aria-label": label,
    onclick: (e) => { e.stopPropagation(); reportDialog(target, about); },
  }, h("span.flag", { "aria-hidden": "true" }, "⚑"), h("span.report-label", null, t("report.button")));
}

// ---------------------------------------------------------------------- the banner and a player's notices
export async function refreshSite() {
  if (!navigator.onLine) return;  // offline (the installable app): nothing to ask, and no failed request to log
  try {
    const s = await get("/api/site");
    showBanner(s);
  } catch (e) { /* the page works without it */ }
  if (!currentUser()) { setRole(null); return; }
  try {
    const me = await get("/api/me/notices");
    setRole(me.role || null);
    if (me.notices && me.notices.length) showNotices(me.notices, true);
  } catch (e) { /* next load */ }
}

function setRole(r) {
  if (r === role) return;
  role = r;
  for (const fn of roleListeners) fn(r);
}

function showBanner(s) {
  let el = document.getElementById("site-banner");
  if (!el) {
    el = h("div#site-banner.site-banner", { role: "status" });
    document.getElementById("topbar").after(el);
  }
  clear(el);
  const parts = [];
  if (s.maintenance) parts.push(h("p.banner.warn.maintenance", null, t("site.maintenance")));
  if (s.banner) parts.push(h("p.banner.announce", null, s.banner));
  el.append(...parts);
  el.hidden = !parts.length;
}

function noticeLine(n) {
  return h("li.mod-notice", { "data-action": n.action },
    h("b", null, t("notice.mod." + n.action)),
    TIMED.has(n.action) || n.action === "ban" ? h("span.muted", null, " · ", whenText(n.until)) : null,
    h("p.mod-notice-reason", null, t("mod.reason_was"), " ", h("q", null, n.reason)));
}

// notices: [{notice_id?, action, reason, until}]; stored: marked read on the server when closed
export function showNotices(notices, stored) {
  for (const o of document.querySelectorAll(".notice-overlay")) o._close();
  const ok = h("button.btn.primary.notice-ok", { type: "button" }, t("mod.notice_ok"));
  const el = overlay("notice-h",
    h("div.dialog-head", null, h("h1#notice-h", null, t("mod.notice_title"))),
    h("ul.mod-notices", null, notices.map(noticeLine)),
    h("div.actions", null, ok));
  el.classList.add("notice-overlay");
  ok.addEventListener("click", async () => {
    el._close();
    const ids = notices.map((n) => n.notice_id).filter((x) => Number.isInteger(x));
    if (stored && ids.length) { try { await post("/api/me/notices/seen", { ids }); } catch (e) { /* shown again next time */ } }
  });
  ok.focus();
}

// a notice over a table's socket (this account's seat): shown at once, and again at the next load until read
export function liveNotice(msg) { showNotices([msg], false); }

// ---------------------------------------------------------------------- the moderation page
export function mountModeration(root, tab) {
  tab = ["audit", "site"].includes(tab) ? tab : "reports";
  const page = h("div.moderation");
  root.append(page);
  let status = "open";
  let reports = null;
  let chosen = null;  // the report shown in full
  let detail = null;
  let error = null;
  let audit = null;
  let site = null;
  let alive = true;

  function tabs() {
    const items = [["reports", "#/moderation"]];
    if (role === "admin") items.push(["audit", "#/moderation/audit"], ["site", "#/moderation/site"]);
    return h("nav.tabs.mod-tabs", { "aria-label": t("mod.title") },
      items.map(([k, href]) => h("a.tab", { href, "aria-current": k === tab ? "page" : null, "aria-selected": String(k === tab) }, t("mod.tab." + k))));
  }

  function render() {
    if (!alive) return;
    clear(page);
    const panel = h("section.panel.mod-panel", { "aria-labelledby": "mod-h" }, h("h1#mod-h", null, t("mod.title")), tabs());
    page.append(panel);
    if (error) { panel.append(h("p.error.mod-error", null, error)); return; }
    if (tab === "audit") panel.append(auditView());
    else if (tab === "site") panel.append(siteView());
    else panel.append(reportsView());
  }

  // -------------------------------------------------------------- reports
  function reportsView() {
    const filter = h("div.mod-filter", { role: "group", "aria-label": t("mod.status") },
      ["open", "resolved", "dismissed"].map((s) => h("button.btn.small" + (s === status ? ".primary" : ".ghost"), {
        type: "button", "aria-pressed": String(s === status), "data-status": s,
        onclick: () => { status = s; chosen = null; detail = null; loadReports(); },
      }, t("mod.status." + s))));
    if (!reports) return h("div", null, filter, h("p.muted", null, t("players.loading")));
    const list = reports.length === 0 ? h("p.empty.mod-empty", null, t("mod.no_reports")) :
      h("ul.mod-reports", null, reports.map((r) => h("li", null, h("button.mod-report" + (chosen === r.report_id ? ".on" : ""), {
        type: "button", "data-report": r.report_id, "aria-pressed": String(chosen === r.report_id),
        onclick: () => open(r.report_id),
      },
      h("span.badge.kind", null, t("mod.kind." + r.kind)),
      h("b.mod-target", null, targetText(r)),
      h("span.mod-reason", null, t("report.reason." + r.reason)),
      h("span.muted.small", null, r.reporter ? t("mod.by", { name: r.reporter }) : t("mod.by_guest"), " · ", ago(r.created_at))))));
    return h("div.mod-grid", null, h("div.mod-list", null, filter, list), h("div.mod-detail", { "aria-live": "polite" }, detailView()));
  }

  function targetText(r) {
    if (r.kind === "table") return t("mod.table", { id: r.game_id });
    if (r.account) return r.account;
    return r.kind === "message" ? t("mod.message_of_guest") : t("mod.guest_seat");
  }

  function detailView() {
    if (!chosen) return h("p.muted.mod-pick", null, reports && reports.length ? t("mod.pick") : "");
    if (!detail) return h("p.muted", null, t("players.loading"));
    const d = detail;
    const out = [h("h2.mod-detail-title", null, t("mod.kind." + d.kind), ": ", targetText(d)),
      h("p", null, h("span.badge", null, t("report.reason." + d.reason)), " ",
        h("span.muted.small", null, d.reporter ? t("mod.by", { name: d.reporter }) : t("mod.by_guest"), " · ", ago(d.created_at))),
      d.note ? h("p.mod-note", null, h("q", null, d.note)) : null,
      d.replay ? h("p", null, h("a.btn.small.mod-replay", { href: d.replay.replace(/^\//, "") }, t("lobby.replay"))) : null];
    if (d.chat && d.chat.length) {
      out.push(h("h3", null, t("mod.chat_around")), h("ol.mod-chat", null, d.chat.map((m) => h("li" + (m.reported ? ".reported" : "") + (m.removed ? ".removed" : ""), { "data-chat": m.chat_id },
        h("b", null, m.seat !== null ? (m.author || t("seat.n", { n: m.seat + 1 })) : (m.guest ? t("chat.guest", { tag: m.author }) : m.author)), ": ",
        h("span.text", null, m.text),
        m.removed ? h("span.badge", null, t("mod.removed")) : null))));
    }
    if (d.sanctions && Object.keys(d.sanctions).length) {
      out.push(h("p.mod-sanctions", null, Object.entries(d.sanctions).map(([k, v]) => h("span.badge.warn", null, t("mod.sanction." + k), " · ", whenText(v.until)))));
    }
    if (d.account_actions && d.account_actions.length) {
      out.push(h("h3", null, t("mod.account_actions")), h("ul.mod-history", null, d.account_actions.map((a) => h("li", null,
        h("b", null, t("mod.action." + a.action)), " · ", a.actor, " · ", ago(a.at), " — ", a.reason))));
    }
    if (d.account_reports && d.account_reports.length) {
      out.push(h("h3", null, t("mod.account_reports")), h("ul.mod-history", null, d.account_reports.map((r) => h("li", null,
        t("report.reason." + r.reason), " · ", t("mod.status." + r.status), " · ", ago(r.created_at)))));
    }
    if (d.status === "open") out.push(actionForm(d));
    else out.push(h("p.muted", null, t("mod.status." + d.status)));
    return h("div.mod-detail-body", null, ...out);
  }

  function actionForm(d) {
    const choices = [];
    if (d.account) choices.push(...ACCOUNT_ACTIONS);
    if (d.kind === "message") choices.push("remove_message");
    if (d.game_id) choices.push("close_table", "undo_ratings");
    const action = h("select.mod-action", { id: "mod-action" }, choices.map((a) => h("option", { value: a }, t("mod.action." + a))));
    const minutes = h("input.mod-minutes", { id: "mod-minutes", type: "number", min: "1", max: String(366 * 24 * 60), value: "60", inputmode: "numeric" });
    const minutesField = h("label.field.mod-minutes-field", { for: "mod-minutes" }, h("span", null, t("mod.minutes")), minutes);
    const reason = h("textarea.mod-reason-input", { id: "mod-reason", rows: "2", maxlength: String(REASON_MAX), required: true });
    const err = h("p.error.small", { role: "status", hidden: true });
    const apply = h("button.btn.primary.mod-apply", { type: "submit" }, t("mod.apply"));
    const sync = () => { minutesField.hidden = !TIMED.has(action.value); };
    action.addEventListener("change", sync);
    sync();
    const form = h("form.mod-form", null,
      h("h3", null, t("mod.act")),
      h("label.field", { for: "mod-action" }, h("span", null, t("mod.action")), action),
      minutesField,
      h("label.field", { for: "mod-reason" }, h("span", null, t("mod.reason")), reason),
      h("p.muted.small", null, t("mod.reason_help")),
      err,
      h("div.actions", null,
        apply,
        h("button.btn.ghost.mod-dismiss", { type: "button", onclick: () => close("dismissed") }, t("mod.dismiss")),
        h("button.btn.ghost.mod-resolve", { type: "button", onclick: () => close("resolved") }, t("mod.resolve"))));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!reason.value.trim()) { err.hidden = false; err.textContent = t("mod.reason_needed"); reason.focus(); return; }
      const body = { action: action.value, reason: reason.value.trim(), report_id: d.report_id };
      if (ACCOUNT_ACTIONS.includes(action.value)) body.username = d.account;
      if (action.value === "remove_message") body.chat_id = d.chat_id;
      if (["close_table", "undo_ratings"].includes(action.value)) body.game_id = d.game_id;
      if (TIMED.has(action.value) && minutes.value) body.minutes = Number(minutes.value);
      apply.disabled = true;
      try {
        await post("/api/mod/actions", body);
        toast(t("mod.done", { action: t("mod.action." + action.value) }), "info", 5000);
        chosen = null; detail = null;
        await loadReports();
      } catch (e2) {
        err.hidden = false;
        err.textContent = e2.message;
        apply.disabled = false;
      }
    });
    async function close(to) {
      try {
        await post(`/api/mod/reports/${d.report_id}`, { status: to });
        chosen = null; detail = null;
        await loadReports();
      } catch (e2) { err.hidden = false; err.textContent = e2.message; }
    }
    return form;
  }

  async function open(id) {
    chosen = id;
    detail = null;
    render();
    try { detail = await get(`/api/mod/reports/${id}`); } catch (e) { error = e.message; }
    render();
    const first = page.querySelector(".mod-detail-title");
    if (first && window.innerWidth < 800) first.scrollIntoView({ block: "start" });
  }

  async function loadReports() {
    reports = null;
    render();
    try { reports = (await get(`/api/mod/reports?status=${status}`)).reports; } catch (e) { error = e.message; }
    render();
  }

  // -------------------------------------------------------------- admins
  function auditView() {
    if (!audit) return h("p.muted", null, t("players.loading"));
    if (!audit.length) return h("p.empty", null, t("mod.no_actions"));
    return h("div.table-scroll", null, h("table.board-table.mod-audit", null,
      h("thead", null, h("tr", null, ["when", "who", "what", "whom", "why"].map((k) => h("th", { scope: "col" }, t("mod.col." + k))))),
      h("tbody", null, audit.map((a) => h("tr", { "data-action": a.action },
        h("td.muted.small", null, new Date(a.at * 1000).toLocaleString()),
        h("td", null, a.actor),
        h("td", null, t("mod.action." + a.action)),
        h("td", null, a.account || (a.game_id ? t("mod.table", { id: a.game_id }) : "—")),
        h("td.why", null, a.reason))))));
  }

  function siteView() {
    if (!site) return h("p.muted", null, t("players.loading"));
    const banner = h("input.site-banner-input", { id: "site-banner-input", type: "text", maxlength: String(BANNER_MAX), value: site.banner || "" });
    const maint = h("input.site-maintenance", { id: "site-maintenance", type: "checkbox", checked: site.maintenance });
    const err = h("p.error.small", { role: "status", hidden: true });
    const save = h("button.btn.primary.site-save", { type: "submit" }, t("mod.save"));
    const form = h("form.site-form", null,
      h("label.field", { for: "site-banner-input" }, h("span", null, t("mod.banner")), banner),
      h("p.muted.small", null, t("mod.banner_help")),
      h("label.check", { for: "site-maintenance" }, maint, h("span", null, t("mod.maintenance"), h("br"), h("span.muted.small", null, t("mod.maintenance_help")))),
      err, h("div.actions", null, save));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      save.disabled = true;
      try {
        site = await post("/api/admin/site", { banner: banner.value, maintenance: maint.checked });
        showBanner(site);
        toast(t("mod.saved"), "info");
      } catch (e2) { err.hidden = false; err.textContent = e2.message; }
      save.disabled = false;
    });
    return form;
  }

  (async () => {
    try {
      if (tab === "audit") audit = (await get("/api/admin/audit")).actions;
      else if (tab === "site") site = await get("/api/site");
      else reports = (await get(`/api/mod/reports?status=${status}`)).reports;
    } catch (e) { error = e.message; }
    render();
  })();
  const off = onRoleChange(() => render());
  render();
  return { relabel: render, destroy() { alive = false; off(); } };
}
