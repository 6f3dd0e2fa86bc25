// Clocks as people read them, and the table's strip under the status bar: each seat's time
// left (the running one ticks), "waiting for players" before a table is full, and why a table
// was closed. The server sends each seat's seconds left, whose time runs and its own clock
// ("now"): the page ticks from the offset between that and its own clock, so a wrong clock
// on this computer does not make the time wrong.
import { h, clear } from "./dom.js";
import { t, list } from "./i18n.js";

// Seconds as the clock shows them: 2:05, 0:07; an hour or more: "23 h 05 min"; days: "2 d 4 h".
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400) return t("clock.days", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("clock.hours", { h: Math.floor(s / 3600), m: String(Math.floor((s % 3600) / 60)).padStart(2, "0") });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A length of time in words: "10 min", "3 d" (how long a table may wait).
export function durationText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t("clock.seconds", { n: s });
  if (s < 3600) return t("clock.minutes", { n: Math.round(s / 60) });
  if (s < 86400) return t("clock.hours_only", { n: Math.round(s / 3600) });
  return t("clock.days_only", { n: Math.round(s / 86400) });
}

// A clock option in words: "3 min + 20 s", "24 h a move", "no clock".
export function clockLabel(clock) {
  if (!clock) return t("clock.none");
  if (clock.kind === "realtime") {
    const bank = clock.bank_s % 60 ? t("clock.seconds", { n: clock.bank_s }) : t("clock.minutes", { n: clock.bank_s / 60 });
    return clock.increment_s ? t("clock.realtime_inc", { bank, inc: clock.increment_s }) : t("clock.realtime", { bank });
  }
  return t("clock.turn", { n: clock.per_decision_h });
}

// Seconds left for each seat at this moment, from a clock the server sent at `received` (page ms).
export function remainingNow(clock, received) {
  const elapsed = Math.max(0, (Date.now() - received) / 1000);
  return clock.remaining.map((r, i) => (i === clock.running ? Math.max(0, r - elapsed) : r));
}

// The end screen's body when a rated seat's time ran out and the game ended there (no scorepad: it was not played out).
export function forfeitEnd(ctx) {
  const res = ctx.result;
  if (!res || res.reason !== "timeout") return null;
  const winners = res.winners || [];
  const name = (s) => ctx.name(s);
  return h("div.end-body.forfeit-end", null,
    h("p.winner", null, winners.length === 1 ? t("end.winner", { player: name(winners[0]) }) : t("end.winners", { players: list(winners.map(name)) })),
    h("p.muted", null, t("table.forfeit_end", { player: list((res.forfeited || []).map(name)) })));
}

// The strip of the table page. update(snap, nameOf, colorOf) after each message; destroy() stops the ticking.
export class TableStrip {
  constructor() {
    this.el = h("div.table-strip", { hidden: true });
    this.clocks = h("ol.seat-clocks", { "aria-label": t("clock.title") });
    this.banner = h("p.strip-banner", { role: "status", hidden: true });
    this.unrated = h("p.strip-banner.unrated-note", { role: "status", hidden: true });
    this.el.append(this.banner, this.unrated, this.clocks);
    this.snap = null;
    this.received = 0;
    this.timer = setInterval(() => this.tick(), 250);
  }

  update(snap, nameOf, colorOf) {
    this.snap = snap;
    this.received = Date.now();
    this.nameOf = nameOf;
    this.colorOf = colorOf;
    this.render();
  }

  render() {
    const s = this.snap;
    if (!s) return;
    let banner = null;
    if (s.closed && /^rematch_(declined|lapsed)$/.test(s.closed.reason)) banner = t("table.closed." + s.closed.reason, { player: this.nameOf(s.closed.seat ?? 0) });
    else if (s.closed && s.closed.reason === "aborted") banner = t("table.closed.aborted", { player: this.nameOf(s.closed.seat ?? 0) });
    else if (s.closed) banner = t("table.closed." + (s.closed.reason === "unfilled" ? "unfilled" : "inactive"), { time: durationText(s.closed.idle_s || 0) });
    else if (s.confirm) banner = t("ready.waiting", { n: s.confirm.ready.length, total: s.players });
    else if (s.ready === false) banner = t("table.waiting_players", { n: s.seated ?? 0, total: s.players });
    else if (s.result && Array.isArray(s.result.forfeited) && s.result.forfeited.length && s.status === "finished") {
      banner = t("table.forfeit_end", { player: s.result.forfeited.map((x) => this.nameOf(x)).join(", ") });
    }
    this.banner.hidden = !banner;
    this.banner.className = "strip-banner" + (s.closed ? " closed" : "");
    this.banner.textContent = banner || "";
    // a rated table that will not be rated (two of its accounts share a network or a device): said before it starts
    const why = s.rated && s.unrated && !s.closed ? t("table.unrated", { reason: t("table.unrated." + s.unrated) }) : null;
    this.unrated.hidden = !why;
    this.unrated.textContent = why || "";
    clear(this.clocks);
    const clock = s.clock;
    if (clock && !s.closed) {
      const left = remainingNow(clock, this.received);
      clock.remaining.forEach((_, i) => {
        const seat = s.seats && s.seats[i];
        const bot = seat && seat.type === "bot";
        const running = clock.running === i && s.status === "active";
        const low = running && clock.kind === "realtime" && left[i] < 20;
        this.clocks.append(h("li.seat-clock" + (running ? ".running" : "") + (low ? ".low" : "") + (bot ? ".bot" : ""),
          { "data-seat": i, "aria-current": running ? "true" : null },
          h("span.seat-dot", { style: { background: this.colorOf(i) }, "aria-hidden": "true" }),
          h("span.clock-name", null, this.nameOf(i)),
          (s.forfeited || []).includes(i) ? h("span.badge.forfeited", null, t("clock.forfeited")) : null,
          h("span.clock-time", null, bot ? "—" : clockText(left[i]))));
      });
    }
    this.el.hidden = !banner && !why && !(clock && !s.closed);
  }

  tick() {
    const s = this.snap;
    if (!s || !s.clock || s.clock.running === null || s.clock.running === undefined || s.closed) return;
    const el = this.clocks.querySelector(`.seat-clock[data-seat="${s.clock.running}"] .clock-time`);
    if (!el) return;
    const left = remainingNow(s.clock, this.received)[s.clock.running];
    el.textContent = clockText(left);
    el.parentElement.classList.toggle("low", s.clock.kind === "realtime" && left < 20);
  }

  relabel() { this.clocks.setAttribute("aria-label", t("clock.title")); this.render(); }

  destroy() { clearInterval(this.timer); }
}
