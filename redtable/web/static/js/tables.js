// Finding a game in the lobby: quick play (wait for a table of your title, player count and
// speed), the open tables (sit down in one click), the create form's table options (open
// seats, a clock) and the creator's bots for the seats nobody took.
import { h, clear, toast, icon } from "./dom.js";
import { t, has } from "./i18n.js";
import { get, post, del, saveSeat, seatFor, playerName, creatorKey } from "./api.js";
import { currentUser } from "./account.js";
import { clockLabel } from "./clockview.js";

// The clock presets the create form offers (the server takes any option within its bounds).
export const CLOCKS = {
  none: null,
  rt3: { kind: "realtime", bank_s: 180, increment_s: 20 },
  rt10: { kind: "realtime", bank_s: 600, increment_s: 30 },
  turn24: { kind: "turn", per_decision_h: 24 },
  turn72: { kind: "turn", per_decision_h: 72 },
};
const SPEEDS = ["none", "realtime", "turn"];
const TICKET = "redtable.queue";  // the quick-play ticket of this tab (a reload keeps waiting)

const KEEP_FOCUS = ["take-bots", "keep-waiting", "leave-queue", "quick-go"];

function gameHash(gid) { return `#/game/${encodeURIComponent(gid)}`; }

// ---------------------------------------------------------------------- the create form's fields
export function tableFields(form, rerender) {
  if (form.open === undefined) form.open = false;
  if (form.clock === undefined) form.clock = "none";
  if (form.rated && form.clock === "none") form.clock = "rt3";  // a rated game has a clock (the server refuses one without)
  return [
    h("label.check.open-check", null, h("input", { type: "checkbox", name: "open", checked: form.open, "aria-describedby": "open-help",
      onchange: (e) => { form.open = e.target.checked; rerender(); } }),
    h("span", null, t("tables.open"), h("small#open-help.muted.block", null, t("tables.open_help")))),
    h("label.inline", null, t("tables.clock"), " ",
      h("select", { name: "clock", "aria-describedby": "clock-help", onchange: (e) => { form.clock = e.target.value; rerender(); } },
        Object.keys(CLOCKS).map((k) => h("option", { value: k, selected: form.clock === k, disabled: form.rated && k === "none" }, clockLabel(CLOCKS[k]))))),
    form.clock !== "none" ? h("p#clock-help.muted.small", null, t(form.rated ? "tables.clock_help_rated" : "tables.clock_help")) : null,
  ];
}

export function tableBody(form) {
  const out = {};
  if (form.open) out.open = true;
  if (CLOCKS[form.clock]) out.clock = CLOCKS[form.clock];
  return out;
}

// ---------------------------------------------------------------------- the creator's bots
export function fillBotsControl(gameId, bots, onDone) {
  let bot = bots.includes("heuristic") ? "heuristic" : bots[0];
  const btn = h("button.btn.small.fill-bots", { type: "button", onclick: async () => {
    btn.disabled = true;
    try {
      const r = await post(`/api/games/${encodeURIComponent(gameId)}/fill-bots`, { bot }, creatorKey(gameId));
      toast(t("tables.filled", { n: r.seats.length }));
      onDone && onDone(r);
    } catch (e) {
      toast(e.message, "error", 6000);
    } finally {
      btn.disabled = false;
    }
  } }, icon("bot"), " ", t("tables.fill_bots"));
  return h("div.fill-bots-row", null,
    h("select.fill-bot", { "aria-label": t("lobby.strength"), onchange: (e) => { bot = e.target.value; } },
      bots.map((b) => h("option", { value: b, selected: b === bot }, has("bot." + b) ? t("bot." + b) : b))),
    btn);
}

// ---------------------------------------------------------------------- quick play and open tables
export class FindPanel {
  constructor(getTitles) {
    this.getTitles = getTitles;
    this.el = h("section.panel.find", { "aria-labelledby": "find-h" });
    this.q = { game: "red-rising", players: 2, speed: "none", rated: false };
    this.waiting = null; // the last answer of the queue while waiting
    this.ticket = sessionStorage.getItem(TICKET);
    this.tables = [];
    this.busy = false;
    this.pollTimer = null;
    this.listTimer = setInterval(() => { if (!document.hidden) this.loadTables(); }, 8000);
    this.render();
    this.loadTables();
    if (this.ticket) this.poll();
  }

  titleInfo() { return (this.getTitles() || []).find((x) => x.name === this.q.game) || { min_players: 2, max_players: 6 }; }

  render() {
    // the control under the reader's hands keeps the focus across the re-render of each poll
    const a = document.activeElement;
    const kept = a && this.el.contains(a) ? KEEP_FOCUS.find((c) => a.classList.contains(c)) : null;
    this.build();
    if (kept) { const again = this.el.querySelector("." + kept); if (again) again.focus({ preventScroll: true }); }
  }

  build() {
    clear(this.el);
    const ti = this.titleInfo();
    this.q.players = Math.max(ti.min_players, Math.min(ti.max_players, this.q.players));
    const user = currentUser();
    const counts = [];
    for (let n = ti.min_players; n <= ti.max_players; n++) counts.push(n);
    const waiting = !!this.ticket;
    const rated = !!(this.q.rated && user);
    if (rated && this.q.speed === "none") this.q.speed = "realtime";  // rated quick play has a clock
    this.el.append(
      h("h2#find-h", null, t("tables.find")),
      h("div.quickplay", { "aria-busy": waiting ? "true" : null },
        h("h3", null, t("tables.quick")),
        h("div.quick-fields", null,
          h("label.inline", null, t("tables.title"), " ",
            h("select", { name: "qp-game", disabled: waiting, onchange: (e) => { this.q.game = e.target.value; this.render(); } },
              (this.getTitles() || [{ name: "red-rising" }, { name: "red-north" }]).map((x) => h("option", { value: x.name, selected: x.name === this.q.game }, t("title." + x.name))))),
          h("label.inline", null, t("tables.players"), " ",
            h("select", { name: "qp-players", disabled: waiting, onchange: (e) => { this.q.players = Number(e.target.value); } },
              counts.map((n) => h("option", { value: n, selected: n === this.q.players }, String(n))))),
          h("label.inline", null, t("tables.speed"), " ",
            h("select", { name: "qp-speed", disabled: waiting, onchange: (e) => { this.q.speed = e.target.value; } },
              SPEEDS.map((s) => h("option", { value: s, selected: s === this.q.speed, disabled: rated && s === "none" }, t("tables.speed." + s))))),
          user ? h("label.check.inline", null, h("input", { type: "checkbox", name: "qp-rated", checked: this.q.rated, disabled: waiting,
            onchange: (e) => { this.q.rated = e.target.checked; this.render(); } }), t("lobby.rated")) : null),
        waiting
          ? h("div.queue-wait", { role: "status" }, h("span.spinner", { "aria-hidden": "true" }),
            this.waiting && this.waiting.status === "waiting"
              ? t("tables.waiting", { n: this.waiting.waiting, total: this.waiting.players })
              : t("tables.starting"),
            h("button.btn.small.ghost.leave-queue", { type: "button", onclick: () => this.leave() }, t("tables.leave")))
          : h("button.btn.primary.quick-go", { type: "button", disabled: this.busy, onclick: () => this.join() }, t("tables.quick_go")),
        waiting ? this.botsOffer() : null),
      h("div.open-tables", null,
        h("h3", null, t("tables.open_list")),
        this.tables.length === 0 ? h("p.empty.small", null, t("tables.none_open")) :
          h("ul.table-list", null, this.tables.map((x) => this.tableRow(x)))));
  }

  // Nobody came after a while (the server's bots_after, 20 s): bots for the empty seats, or keep
  // waiting and be told when someone comes (the count of who waits, then the table).
  botsOffer() {
    const w = this.waiting;
    if (!w || w.status !== "waiting") return null;
    const came = this.came ? h("p.queue-came", null, t("tables.someone_came", { n: w.waiting, total: w.players })) : null;
    if (this.kept) {  // (still there, smaller, for a person who waited on and changed their mind)
      return [came, h("p.muted.small.queue-kept", null, t("tables.keep_note"), " ",
        h("button.btn.small.ghost.take-bots", { type: "button", disabled: this.busy, onclick: () => this.takeBots() }, icon("bot"), " ", t("tables.bots_go")))];
    }
    if (!w.bots) return came;
    return h("div.bots-offer", { role: "group", "aria-labelledby": "bots-offer-p" }, came,
      h("p#bots-offer-p", null, t("tables.bots_offer")),
      h("div.actions", null,
        h("button.btn.primary.take-bots", { type: "button", disabled: this.busy, onclick: () => this.takeBots() }, icon("bot"), " ", t("tables.bots_go")),
        h("button.btn.ghost.keep-waiting", { type: "button", onclick: () => { this.kept = true; this.render(); this.el.querySelector(".leave-queue")?.focus(); } }, t("tables.keep_waiting"))));
  }

  async takeBots() {
    this.busy = true;
    this.render();
    try {
      this.answer(await post("/api/quickplay/bots", {}, this.ticket));
    } catch (e) {
      toast(e.message, "error", 6000);
      if (e.status === 404) this.forget();
    } finally {
      this.busy = false;
      if (this.ticket) this.render();
    }
  }

  tableRow(x) {
    const held = seatFor(x.game_id);
    const needsLogin = x.rated && !currentUser();
    return h("li.table-row", { "data-game": x.game_id },
      h("div.game-title." + x.game, null, h("span.dot", { "aria-hidden": "true" }), t("title." + x.game),
        x.rated ? h("span.badge.rated", null, t("players.rated")) : null),
      h("div.table-facts.muted", null,
        h("span.seated", null, t("tables.seated", { n: x.seated, total: x.players })), " · ",
        h("span.speed", null, clockLabel(x.clock))),
      h("div.game-seats", null, x.seats.map((s) => h("span.chip" + (s.joined ? "" : ".open"), null,
        s.type === "bot" ? icon("bot") : null, s.joined ? (s.name || (s.type === "bot" ? t("lobby.bot") : t("seat.n", { n: s.seat + 1 }))) : t("lobby.open_seat")))),
      h("div.game-actions", null,
        held ? h("a.btn.small", { href: gameHash(x.game_id) }, t("lobby.resume"))
          : needsLogin ? h("a.btn.small", { href: "#/login" }, t("account.log_in"))
            : h("button.btn.small.primary.sit", { type: "button", onclick: (e) => this.sit(x, e.currentTarget) }, t("tables.sit"))));
  }

  async loadTables() {
    try {
      this.tables = await get("/api/tables");
    } catch (e) {
      return;
    }
    if (!this.el.contains(document.activeElement) || document.activeElement.tagName !== "SELECT") this.render();
  }

  async sit(x, btn) {
    btn.disabled = true;
    try {
      const r = await post(`/api/games/${encodeURIComponent(x.game_id)}/sit`, { name: playerName().trim() || null });
      saveSeat(x.game_id, { token: r.token, seat: r.seat, name: r.name });
      location.hash = gameHash(x.game_id);
    } catch (e) {
      toast(e.message, "error", 6000);
      btn.disabled = false;
      this.loadTables();
    }
  }

  async join() {
    this.busy = true;
    this.render();
    try {
      const body = { game: this.q.game, players: this.q.players, speed: this.q.speed, rated: !!(this.q.rated && currentUser()), name: playerName().trim() || null };
      const r = await post("/api/quickplay", body);
      this.ticket = r.ticket;
      sessionStorage.setItem(TICKET, r.ticket);
      this.answer(r);
    } catch (e) {
      toast(e.message, "error", 6000);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async poll() {
    clearTimeout(this.pollTimer);
    if (!this.ticket) return;
    try {
      this.answer(await get("/api/quickplay", this.ticket));
    } catch (e) {
      if (e.status === 404 || e.status === 409) {  // expired, or the table never came: wait again from the start
        this.forget();
        toast(e.message, "error", 6000);
      }
    }
    if (this.ticket) this.pollTimer = setTimeout(() => this.poll(), 2000);
  }

  answer(r) {
    if (r.status === "matched") {
      if (this.kept) toast(t("tables.matched_came"), "info", 5000);  // (they chose to wait: someone came)
      saveSeat(r.game_id, { token: r.token, seat: r.seat, name: null });
      this.forget();
      location.hash = gameHash(r.game_id);
      return;
    }
    // someone joined the queue since the last answer: told (once the person chose to keep waiting, or always)
    if (this.waiting && r.status === "waiting" && this.waiting.status === "waiting" && r.waiting > this.waiting.waiting) {
      this.came = true;
      toast(t("tables.someone_came", { n: r.waiting, total: r.players }), "info", 5000);
    } else if (r.waiting === 1) {
      this.came = false;
    }
    // re-drawn only when what it says changed (no control replaced under a click or a screen reader every poll)
    const said = (x) => (x ? `${x.status}:${x.waiting}:${x.players}:${!!x.bots}` : "");
    const changed = said(r) !== said(this.waiting);
    this.waiting = r;
    if (changed) this.render();
    if (!this.pollTimer) this.pollTimer = setTimeout(() => this.poll(), 2000);
  }

  forget() {
    this.ticket = null;
    this.waiting = null;
    this.kept = false;
    this.came = false;
    clearTimeout(this.pollTimer);
    this.pollTimer = null;
    sessionStorage.removeItem(TICKET);
    this.render();
  }

  async leave() {
    const ticket = this.ticket;
    this.forget();
    try {
      await del("/api/quickplay", ticket);
    } catch (e) {
      if (e.code === "already_matched") {  // too late: the table exists and the seat is ours
        saveSeat(e.body.game_id, { token: ticket, seat: e.body.seat, name: null });
        location.hash = gameHash(e.body.game_id);
      }
    }
  }

  destroy() {
    clearInterval(this.listTimer);
    clearTimeout(this.pollTimer);  // (the ticket stays in this tab: back in the lobby, the wait goes on)
  }
}

