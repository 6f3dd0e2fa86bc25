// The expert's review of a finished game (#/review/ID?seat=N): the seat's chance to win at each
// of its decisions as a chart (a point opens the replay at that step), and its mistakes and
// blunders, each with what the expert's option would have done (its `why`, worded by why.js),
// in the page's language.
//
// The server reviews (POST /api/games/ID/review?seat=N, reviews.py) at the lowest priority of
// its bots; the page asks for the progress until the review is there (a page that stops
// asking lets the review stop). The sentence is made here from the review's data: the options'
// labels are the ones the table shows for them (the title's renderer, read from the replay of
// that step), the words around them from the catalog.
import { h, svg, clear, icon } from "./dom.js";
import { t } from "./i18n.js";
import { get, post, seatFor, cardData, errorText } from "./api.js";
import { botSeatName } from "./lobby.js";
import { SEAT_COLORS as COLORS } from "./table.js";
import { whyWords } from "./why.js";

const POLL_MS = 700;

async function rendererFor(game) {
  if (game === "red-north") return (await import("./rn.js")).default;
  return (await import("./rr.js")).default;
}

const pct = (p) => `${Math.round(100 * p)}%`;

// The chart: the seat's chance to win before each of its decisions, along the game's steps.
// width: the drawing's width in px (the box it fills), so that its labels keep their size on a phone.
function winChart(review, steps, color, gameId, width) {
  const W = Math.max(300, Math.min(760, Math.round(width) || 640)), H = 220, padL = 44, padR = 14, padT = 12, padB = 26;
  const px = (s) => padL + ((W - padL - padR) * s) / Math.max(1, steps);
  const py = (p) => padT + (H - padT - padB) * (1 - p);
  const ds = review.decisions;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart review-chart", role: "group", "aria-label": t("review.chart") });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(svg("line", { x1: padL, x2: W - padR, y1: py(p), y2: py(p), class: p === 0.5 ? "grid mid" : "grid" }),
      svg("text", { x: padL - 6, y: py(p) + 4, "text-anchor": "end", class: "tick" }, pct(p)));
  }
  for (const s of [0, steps]) chart.append(svg("text", { x: px(s), y: H - 8, "text-anchor": s ? "end" : "start", class: "tick" }, s));
  // a title played in rounds (Red North): where each round's decisions start, named
  const ROUNDS = ["spring", "summer", "ragnarok"];
  ds.forEach((e, i) => {
    if (e.round === undefined || e.round === null || (i && ds[i - 1].round === e.round)) return;
    const x = px(i ? (ds[i - 1].step + e.step) / 2 : 0);
    if (i) chart.append(svg("line", { x1: x, x2: x, y1: padT, y2: H - padB, class: "grid round" }));
    chart.append(svg("text", { x: x + 4, y: H - padB - 5, class: "tick round-name" }, t("rn.round." + (ROUNDS[e.round - 1] || "spring"))));
  });
  if (ds.length) {
    const d = ds.map((e, i) => `${i ? "L" : "M"}${px(e.step).toFixed(1)},${py(e.win_before).toFixed(1)}`).join(" ");
    chart.append(svg("path", { d, stroke: color, class: "ln" }));
  }
  for (const e of ds) {
    const title = `${t("review.step", { step: e.step })}: ${pct(e.win_before)}${e.mark ? " — " + t("review.mark." + e.mark) : ""}`;
    chart.append(svg("a", { href: `#/replay/${encodeURIComponent(gameId)}?step=${e.step}`, class: "pt" + (e.mark ? " " + e.mark : ""), "data-step": e.step },
      svg("circle", { cx: px(e.step), cy: py(e.win_before), r: e.mark === "blunder" ? 7 : e.mark ? 6 : 4, fill: e.mark ? null : color }),
      svg("title", {}, title)));
  }
  return h("figure.chart-fig.review-fig", null, chart,
    h("ul.legend", null,
      h("li", null, h("i.review-key.mistake"), t("review.mark.mistake")),
      h("li", null, h("i.review-key.blunder"), t("review.mark.blunder"))));
}

export function mountReview(root, gameId) {
  const gid = encodeURIComponent(gameId);
  const page = h("section.panel.review", { "aria-labelledby": "review-h" });
  root.append(page);
  const held = seatFor(gameId);
  const token = held && held.token;
  let info = null;
  let renderer = null;
  let cards = null;
  let seat = null;
  let review = null;
  let progress = null;
  let error = null;
  let timer = null;
  let alive = true;
  const labels = new Map();  // step -> {taken, preferred}: the options as the table words them

  const name = (s) => {
    const x = info && info.seats[s];
    if (!x) return t("seat.n", { n: s + 1 });
    return x.name || (x.type === "bot" ? botSeatName(s, x.bot || "random") : t("seat.n", { n: s + 1 }));
  };

  function seatFromHash() {
    const m = String(location.hash).match(/[?&]seat=(\d+)/);
    return m ? parseInt(m[1], 10) : null;
  }

  async function label(e) {
    if (labels.has(e.step)) return;
    labels.set(e.step, null);
    try {
      const data = await get(`/api/games/${gid}/replay/${e.step}`, token);
      const d = { ...(data.decision || {}), context: (data.decision && data.decision.context) || {} };
      const ctx = { renderer, cards, view: data.view, decision: d, me: seat, seats: info.seats, readOnly: true, name };
      const one = (o) => { try { return renderer.optionLabel(ctx, d, o); } catch (err) { return o; } };
      labels.set(e.step, { taken: one(e.taken), preferred: one(e.preferred) });
    } catch (err) {
      labels.set(e.step, { taken: e.taken, preferred: e.preferred });
    }
    if (alive) render();
  }

  function sentence(e) {
    const w = labels.get(e.step) || { taken: e.taken, preferred: e.preferred };
    const what = whyWords(e.why);
    const words = { preferred: w.preferred, taken: w.taken, better: pct(e.win_preferred), worse: pct(e.win_taken) };
    const parts = [what ? t("review.why", { ...words, what }) : t("review.better", words)];
    const vpSaid = what && (e.why || []).slice(0, 2).some((c) => c.fact === "vp");
    if (e.vp_preferred !== undefined && e.vp_preferred !== null && !vpSaid) {
      parts.push(t("review.vp", { vp_better: e.vp_preferred.toFixed(1), vp_worse: e.vp_taken.toFixed(1), round: e.round }));
    }
    return parts.join(" ");
  }

  function render() {
    clear(page);
    if (!info) { page.append(h("p.loading", null, t("table.loading"))); return; }
    page.append(h("div.panel-head", null,
      h("h1#review-h", null, t("review.title"), " — ", t("title." + info.game)),
      h("a.btn.small.ghost", { href: `#/replay/${gid}` }, icon("play"), " ", t("end.replay"))));
    page.append(h("p.muted.review-about", null, t("review.about")));
    page.append(h("div.review-seats", { role: "group", "aria-label": t("review.seat") },
      info.seats.map((_, s) => h("button.btn.small.review-seat", {
        type: "button", "aria-pressed": String(s === seat), "data-seat": s,
        onclick: () => { if (s !== seat) { history.replaceState(history.state, "", `#/review/${gid}?seat=${s}`); pick(s); } },
      }, h("span.seat-dot", { style: { background: COLORS[s % COLORS.length] }, "aria-hidden": "true" }), name(s)))));
    if (error) { page.append(h("p.error", null, error)); return; }
    if (!review) {
      const done = progress ? progress.done : 0, total = progress ? progress.total : 0;
      page.append(h("div.review-progress", null,
        h("p", null, t("review.running", { done, total })),
        h("progress", { max: Math.max(1, total), value: done, "aria-label": t("review.running", { done, total }) })));
      return;
    }
    const ds = review.decisions;
    const marked = ds.filter((e) => e.mark);
    const count = (m) => ds.filter((e) => e.mark === m).length;
    page.append(h("p.review-summary", null,
      t("review.decisions", { n: ds.length }), " · ", t("review.mistakes", { n: count("mistake") }), " · ", t("review.blunders", { n: count("blunder") })));
    page.append(winChart(review, info.step, COLORS[seat % COLORS.length], gameId, page.clientWidth - 32));
    if (!marked.length) { page.append(h("p.review-clean", null, t("review.clean"))); return; }
    page.append(h("h2", null, t("review.marked")));
    page.append(h("ol.review-marks", null, marked.map((e) => {
      label(e);
      return h("li.review-mark." + e.mark, { "data-step": e.step },
        h("a.review-step", { href: `#/replay/${gid}?step=${e.step}` }, t("review.step", { step: e.step })),
        h("span.badge.review-badge." + e.mark, null, t("review.mark." + e.mark)),
        h("span.review-loss", null, `−${Math.round(100 * (e.win_preferred - e.win_taken))}`),
        h("p.review-sentence", null, sentence(e)));
    })));
  }

  async function poll(s, first) {
    clearTimeout(timer);
    try {
      const r = first ? await post(`/api/games/${gid}/review?seat=${s}`, undefined, token) : await get(`/api/games/${gid}/review?seat=${s}`, token);
      if (!alive || s !== seat) return;
      if (r && r.decisions) { review = r; progress = null; }
      else { progress = r; timer = setTimeout(() => poll(s, false), POLL_MS); }
    } catch (e) {
      if (!alive || s !== seat) return;
      if (e.code === "no_review") { timer = setTimeout(() => poll(s, true), POLL_MS); return; }  // (stopped: ask again)
      error = e.message;
    }
    render();
  }

  function pick(s) {
    seat = s;
    review = null;
    progress = null;
    error = null;
    labels.clear();
    render();
    poll(s, true);
  }

  (async () => {
    try {
      info = await get(`/api/games/${gid}?events=false`, token);
      renderer = await rendererFor(info.game);
      cards = await cardData(info.game);
      if (!alive) return;
      if (info.status !== "finished") { error = errorText({ error: "game_not_finished" }, 409); render(); return; }
      const want = seatFromHash();
      pick(want !== null && want < info.seats.length ? want : (held && held.seat !== undefined && held.seat !== null ? held.seat : 0));
    } catch (e) {
      error = e.message;
      render();
    }
  })();
  render();
  return {
    destroy() { alive = false; clearTimeout(timer); },
    relabel() { labels.clear(); if (info) cardData(info.game).then((c) => { cards = c; render(); }); else render(); },
  };
}
