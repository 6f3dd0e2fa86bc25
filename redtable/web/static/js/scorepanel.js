// The running score: a drawer at the table (a bottom sheet on a phone) with your hand's
// scorepad now and every player's public rows, read from GET /api/web/games/ID/score.
//
// The server builds the answer from this seat's own view only (redtable/web/running.py), so
// the panel cannot show what the seat may not know. Requests: only while the panel is open,
// at most one at a time, debounced after updates, and only when the game's version moved
// since the last answer (a presence change or a language switch asks nothing).
import { h, clear, icon } from "./dom.js";
import { t, currentLang } from "./i18n.js";
import { get } from "./api.js";
import { scorepadTable } from "./scorepad.js";

const DEBOUNCE_MS = 350;
const RR_PUBLIC = ["fleet", "helium", "sovereignty", "influence", "excess_cards"];

export class ScorePanel {
  // getCtx(): the table's context (names, colours, card gallery) or null; getToken(): the seat token.
  constructor({ shell, gameId, getCtx, getToken, getVersion }) {
    this.gameId = gameId;
    this.getCtx = getCtx;
    this.getToken = getToken;
    this.getVersion = getVersion;
    this.data = null;        // the last answer
    this.asked = -1;         // the version last asked for
    this.inflight = false;
    this.timer = null;
    this.error = null;
    this.button = h("button.btn.small.scorebtn", {
      type: "button", "aria-expanded": "false", "aria-controls": "score-panel", title: t("score.title"),
    }, icon("vp"), h("span", null, t("score.button")));  // (the trophy is the results' alone)
    this.button.addEventListener("click", () => (this.isOpen() ? this.close() : this.open()));
    this.body = h("div.score-body");
    this.status = h("span.score-status.muted.small", { role: "status" });
    this.heading = h("h2#score-h", { tabindex: "-1" }, t("score.title"));
    this.closeBtn = h("button.icon-btn.score-close", { type: "button", "aria-label": t("score.close"), title: t("score.close") }, "×");
    this.closeBtn.addEventListener("click", () => this.close());
    this.panel = h("aside#score-panel.score-panel", { "aria-labelledby": "score-h", hidden: true },
      h("div.score-head", null, this.heading, this.status, this.closeBtn), this.body);
    this.panel.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.stopPropagation(); this.close(); } });
    shell.append(this.panel);
  }

  isOpen() { return !this.panel.hidden; }

  open() {
    this.panel.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    this.render();
    this.fetchNow();
    this.heading.focus({ preventScroll: true });
  }

  close() {
    const had = this.panel.contains(document.activeElement);
    this.panel.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    clearTimeout(this.timer);
    this.timer = null;
    if (had) this.button.focus({ preventScroll: true });
  }

  // The game moved on (an update, a new snapshot): refresh a little later, if open.
  changed() {
    if (!this.isOpen()) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; this.fetchNow(); }, DEBOUNCE_MS);
  }

  async fetchNow() {
    if (!this.isOpen() || this.inflight) return;
    const version = this.getVersion();
    if (version === this.asked && this.data) return;  // nothing new since the last answer
    this.inflight = true;
    this.asked = version;
    this.status.textContent = t("score.updating");
    try {
      const data = await get(`/api/web/games/${encodeURIComponent(this.gameId)}/score`, this.getToken() || undefined);
      if (!this.data || data.version >= this.data.version) this.data = data;
      this.error = null;
    } catch (e) {
      this.error = e.message;
      this.asked = -1;
    } finally {
      this.inflight = false;
    }
    this.render();
    // the game moved while we asked: once more (the debounce keeps this to one request)
    if (this.isOpen() && !this.error && this.getVersion() !== this.asked) this.changed();
  }

  relabel() {
    this.button.title = t("score.title");
    this.button.querySelector("span").textContent = t("score.button");
    this.heading.textContent = t("score.title");
    this.closeBtn.setAttribute("aria-label", t("score.close"));
    this.closeBtn.title = t("score.close");
    this.render();
  }

  // The table re-rendered: draw the answer if it is not drawn yet (the table's names and
  // cards were not loaded when it came, or the language changed).
  sync() {
    if (this.isOpen() && this.data && this.drawn !== `${this.data.version}:${currentLang()}`) this.render();
  }

  render() {
    if (!this.isOpen()) return;
    const ctx = this.getCtx();
    const d = this.data;
    this.status.textContent = d ? t("score.as_of", { n: d.step }) : t("score.updating");
    const keep = this.panel.scrollTop;
    clear(this.body);
    if (this.error) this.body.append(h("p.error.small", null, t("score.error", { message: this.error })));
    if (!d || !ctx) return;
    this.drawn = `${d.version}:${currentLang()}`;
    this.panel.dataset.version = d.version;  // which answer is shown (tests, debugging)
    if (d.final) this.body.append(h("p.banner.small.score-final", null, t("score.final_note")));
    this.body.append(...(d.game === "red-north" ? rnPanel(ctx, d) : rrPanel(ctx, d)));
    this.panel.scrollTop = keep;
  }

  destroy() { clearTimeout(this.timer); this.panel.remove(); }
}

// ---------------------------------------------------------------------- Red Rising
function rrCard(ctx, slug) {
  const g = ctx.cards && ctx.cards.cards ? ctx.cards.cards.find((c) => c.card === slug) : null;
  return g || { card: slug, name: slug, color: "gray", value: "?" };
}

function range(lo, hi) { return lo === hi ? String(lo) : `${lo}–${hi}`; }

function rrPanel(ctx, d) {
  const out = [];
  const me = d.hand;
  if (me) {
    const rows = me.cards.map((c) => {
      const e = rrCard(ctx, c.card);
      const notes = [];
      if (c.as_color) notes.push(t("score.counts_as_color", { color: t("rr.color." + c.as_color) }));
      if (c.as_name) notes.push(t("score.counts_as_name", { name: rrCard(ctx, c.as_name).name }));
      if (c.depends_on_hidden) notes.push(t("score.depends_hidden", { min: c.points, max: c.points_max }));
      if (c.end_of_game) notes.push(t("score.eog_pending"));
      return h("tr.sc-card" + (c.depends_on_hidden ? ".conditional" : ""), { "data-card": c.card },
        h("th", { scope: "row" }, h("div.sc-cardname", null,
          h("span.sc-chip.c-" + e.color, { "aria-hidden": "true" }),
          h("span.sc-name", null, e.name),
          notes.length ? h("small.sc-note", null, notes.join(" · ")) : null)),
        h("td.num", null, c.value),
        h("td.num", null, c.bonus > 0 ? "+" + c.bonus : c.bonus),
        h("td.num.pts", null, range(c.points, c.points_max)));
    });
    out.push(h("section.score-sec.my-hand", null,
      h("h3", null, d.final ? t("score.your_final_hand") : t("score.your_hand")),
      me.cards.length ? h("table.sc-hand", null,
        h("thead", null, h("tr", null, h("th", { scope: "col" }, t("score.card")), h("th.num", { scope: "col" }, t("score.core")),
          h("th.num", { scope: "col" }, t("score.bonus")), h("th.num", { scope: "col" }, t("score.points")))),
        h("tbody", null, rows)) : h("p.muted.small", null, t("score.empty_hand")),
      me.extra_points ? h("p.small", null, t("score.extra_points", { n: me.extra_points })) : null,
      me.conditional ? h("p.muted.small", null, t("score.conditional_note")) : null));
    const pad = ["cards", ...RR_PUBLIC, "total"];
    out.push(h("section.score-sec.my-pad", null,
      h("h3", null, t("score.your_pad")),
      h("table.sc-pad", null, h("tbody", null, pad.map((r) => h("tr.row-" + r, null,
        h("th", { scope: "row" }, t("rr.row." + r)),
        h("td.num", { "data-row": r }, r === "cards" ? range(me.rows.cards, me.cards_max)
          : r === "total" ? range(me.rows.total, me.total_max) : me.rows[r])))))));
  }
  const cols = d.players.map((p) => ({
    name: ctx.name(p.seat), sub: t("rr.house." + p.house), color: ctx.color(p.seat),
    win: !!(d.final && d.final.winners.includes(p.seat)),
  }));
  const hidden = h("span.muted", { title: t("score.hidden") }, "?");
  const rows = [
    // cards: ours; the others' only once the game is over (the hands are shown then)
    ...(me || d.final ? [{ key: "cards", label: t("rr.row.cards"), short: t("rr.row_short.cards"),
      cells: d.players.map((p) => (d.final ? String(d.final.scores[p.seat].cards)
        : p.seat === d.seat ? range(me.rows.cards, me.cards_max) : hidden.cloneNode(true))) }] : []),
    ...RR_PUBLIC.map((r) => ({ key: r, label: t("rr.row." + r), short: t("rr.row_short." + r), values: d.players.map((p) => p.rows[r]) })),
    { key: "subtotal", label: t("score.public_total"), short: t("score.public_total_short"), values: d.players.map((p) => p.subtotal) },
    { key: "hand", label: t("score.hand_cards"), short: t("score.hand_short"), values: d.players.map((p) => p.hand_size) },
  ];
  if (d.final) {
    rows.push({ key: "total", label: t("rr.row.total"), short: t("rr.row_short.total"), values: d.final.scores.map((s) => s.total) });
  }
  out.push(h("section.score-sec.everyone", null,
    h("h3", null, t("score.everyone")),
    scorepadTable({ columns: cols, rows, cls: "running" }),
    d.seat === null || d.seat === undefined ? h("p.muted.small", null, t("score.spectator_note")) : null));
  return out;
}

// ---------------------------------------------------------------------- Red North
function rnPanel(ctx, d) {
  const out = [];
  if (d.round) {
    out.push(h("p.small.sc-round", null, t("score.rn_round", { round: t("rn.round." + ["", "spring", "summer", "ragnarok"][d.round]), n: d.round_vp })));
  }
  const me = d.hand;
  if (me) {
    out.push(h("section.score-sec.my-hand", null,
      h("h3", null, t("score.rn_hand")),
      h("ul.sc-raid", null, d.colours.map((c) => h("li.k-" + c, null,
        h("span.sc-chip", { "aria-hidden": "true" }), h("span", null, t("rn.colour." + c)), h("b", { "data-colour": c }, me.raid_points[c])))),
      h("p.small", null, t("score.rn_hand_total", { n: me.raid_total }),
        me.jarls ? [" · ", t("score.rn_jarls", { n: me.jarls })] : null,
        me.idle_cards ? [" · ", t("score.rn_idle", { n: me.idle_cards })] : null)));
  }
  const cols = d.players.map((p) => ({
    name: ctx.name(p.seat), color: ctx.color(p.seat), win: !!(d.final && d.final.winner === p.seat),
  }));
  const flags = (p) => {
    const bits = p.outposts.map((c) => h("i.sc-dot.k-" + c, { title: t("rn.colour." + c) }));
    if (p.tie_breaker) bits.push(h("span.sc-tb", { title: t("rn.tie_breaker") }, "TB"));
    return bits.length ? h("span.sc-flags", null, bits) : "—";
  };
  const raid = (p, c) => {
    const v = p.raid_points[c];
    return p.hidden_cards ? h("span", { title: t("score.rn_hidden_cards", { n: p.hidden_cards }) }, `${v}+?`) : String(v);
  };
  const rows = [
    { key: "vp_spring", label: t("rn.end.vp_round", { round: t("rn.round.spring") }), short: t("rn.round.spring"), values: d.players.map((p) => p.rows.vp_spring) },
    { key: "vp_summer", label: t("rn.end.vp_round", { round: t("rn.round.summer") }), short: t("rn.round.summer"), values: d.players.map((p) => p.rows.vp_summer) },
    { key: "vp_ragnarok", label: t("rn.end.vp_round", { round: t("rn.round.ragnarok") }), short: t("rn.round.ragnarok"), values: d.players.map((p) => p.rows.vp_ragnarok) },
    { key: "odin", label: t("rn.end.odin"), short: t("rn.end.odin"), values: d.players.map((p) => p.rows.odin) },
    { key: "total", label: t("rn.end.total"), short: t("rn.end_short.total"), values: d.players.map((p) => p.rows.total) },
    { key: "glory", label: t("rn.end.glory"), short: t("rn.end_short.glory"), values: d.players.map((p) => p.rows.glory) },
    { key: "hand", label: t("rn.end.hand"), short: t("rn.end_short.hand"), values: d.players.map((p) => p.rows.hand) },
    { key: "outposts", label: t("score.rn_outposts"), short: t("score.rn_outposts_short"), cells: d.players.map(flags) },
    ...d.colours.map((c) => ({ key: "raid-" + c, cls: "raid", label: t("score.rn_raid_row", { colour: t("rn.colour." + c) }),
      short: t("rn.colour." + c), cells: d.players.map((p) => raid(p, c)) })),
  ];
  out.push(h("section.score-sec.everyone", null,
    h("h3", null, t("score.everyone")),
    scorepadTable({ columns: cols, rows, cls: "running" }),
    d.players.some((p) => p.hidden_cards) ? h("p.muted.small", null, t("score.rn_hidden_note")) : null,
    d.seat === null || d.seat === undefined ? h("p.muted.small", null, t("score.spectator_note")) : null));
  return out;
}
