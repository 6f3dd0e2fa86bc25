// Small SVG charts (no library): stacked score bars per player, and a line per player.
// Labels are measured with the page's own font, and the drawing widens to hold them: an SVG
// scales as a whole, so a label that fits the drawing is never cut, whatever the screen.
import { h, svg } from "./dom.js";

// (Red Rising's rows in order: cards, fleet, helium, sovereignty — grey, no house's colour —, influence, excess)
export const PALETTE = ["#d4af37", "#4b8fe0", "#d8453a", "#9e9e9e", "#58a85a", "#e07b39", "#2fb5a6", "#a877e0"];

let measurer = null;
// The width in px of `text` set in the page's font at `px` pixels (`weight` as in CSS).
export function textWidth(text, px, weight = "400") {
  if (!measurer) measurer = document.createElement("canvas").getContext("2d");
  const family = getComputedStyle(document.body).fontFamily || "sans-serif";
  measurer.font = `${weight} ${px}px ${family}`;
  return Math.ceil(measurer.measureText(String(text)).width);
}

// names: player names; rows: per player, one value per category; cats: category labels.
export function scoreChart(names, rows, cats, playerColors) {
  const rowH = 34, padR = 16 + Math.max(...rows.map((r) => textWidth(r.reduce((a, b) => a + b, 0), 13, "700"))), top = 8;
  const padL = 22 + Math.max(...names.map((n) => textWidth(n, 13)));
  const W = Math.max(560, padL + padR + 300);
  const neg = Math.max(0, ...rows.map((r) => -r.filter((x) => x < 0).reduce((a, b) => a + b, 0)));
  const pos = Math.max(1, ...rows.map((r) => r.filter((x) => x > 0).reduce((a, b) => a + b, 0)));
  const scale = (W - padL - padR) / (pos + neg);
  const zero = padL + neg * scale;
  const H = top + rows.length * rowH + 8;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": cats.join(", ") });
  chart.append(svg("line", { x1: zero, x2: zero, y1: 0, y2: H, class: "axis" }));
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    chart.append(svg("text", { x: padL - 8, y: y + rowH / 2 + 4, "text-anchor": "end", class: "lbl" }, names[i]));
    if (playerColors) chart.append(svg("rect", { x: 0, y: y + 8, width: 5, height: rowH - 16, fill: playerColors[i], rx: 2 }));
    let x = zero;
    let xn = zero;
    r.forEach((val, k) => {
      if (!val) return;
      const w = Math.abs(val) * scale;
      const seg = svg("rect", {
        x: val > 0 ? x : xn - w, y: y + 6, width: Math.max(0.5, w), height: rowH - 12,
        fill: val > 0 ? PALETTE[k % PALETTE.length] : "#8b1e1e", class: "seg",
      }, svg("title", {}, `${names[i]} — ${cats[k]}: ${val}`));
      chart.append(seg);
      if (val > 0) x += w; else xn -= w;
    });
    const total = r.reduce((a, b) => a + b, 0);
    chart.append(svg("text", { x: x + 6, y: y + rowH / 2 + 4, class: "total" }, total));
  });
  const legend = h("ul.legend", null, cats.map((c, k) => h("li", null, h("i", { style: { background: PALETTE[k % PALETTE.length] } }), c)));
  return h("figure.chart-fig", null, chart, legend);
}

// series: per player, values at each x (cumulative); xs: labels. The players' names are in a
// legend under the drawing (it wraps on a phone); the lines end in their values. opts.min: the
// bottom of the scale (default 0; a rating can go below it).
export function lineChart(names, series, xs, colors, opts = {}) {
  const H = 220, padT = 12, padB = 28;
  const lo = Math.min(opts.min ?? 0, ...series.flat());
  const max = Math.max(lo + 1, ...series.flat());
  const padL = 12 + Math.max(textWidth(max, 11), textWidth(lo, 11));
  const lastTick = xs.length ? textWidth(xs[xs.length - 1], 11) / 2 : 0;
  const padR = Math.max(12 + lastTick, 14 + Math.max(...series.map((s) => textWidth(s[s.length - 1], 13, "700"))));
  const firstTick = xs.length ? textWidth(xs[0], 11) / 2 : 0;
  const W = Math.max(480, padL + padR + 80 * Math.max(1, xs.length - 1));
  const x0 = Math.max(padL, firstTick + 2);
  const px = (i) => x0 + (xs.length <= 1 ? 0 : (i * (W - x0 - padR)) / (xs.length - 1));
  const py = (v) => padT + (H - padT - padB) * (1 - (v - lo) / (max - lo));
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart line", role: "img", "aria-label": names.map((n, p) => `${n} ${series[p][series[p].length - 1]}`).join(", ") });
  for (let g = 0; g <= 4; g++) {
    const v = Math.round(lo + ((max - lo) * g) / 4);
    chart.append(svg("line", { x1: x0, x2: W - padR, y1: py(v), y2: py(v), class: "grid" }),
      svg("text", { x: x0 - 6, y: py(v) + 4, "text-anchor": "end", class: "tick" }, v));
  }
  xs.forEach((x, i) => chart.append(svg("text", { x: px(i), y: H - 8, "text-anchor": "middle", class: "tick" }, x)));
  series.forEach((s, p) => {
    const d = s.map((v, i) => `${i ? "L" : "M"}${px(i)},${py(v)}`).join(" ");
    chart.append(svg("path", { d, stroke: colors[p], class: "ln" }));
    s.forEach((v, i) => chart.append(svg("circle", { cx: px(i), cy: py(v), r: 4, fill: colors[p] }, svg("title", {}, `${names[p]}: ${v}`))));
  });
  // end values, nudged apart when players finish level
  const ends = series.map((s, p) => ({ p, y: py(s[s.length - 1]) + 4 })).sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) if (ends[i].y - ends[i - 1].y < 15) ends[i].y = ends[i - 1].y + 15;
  for (const { p, y } of ends) {
    const s = series[p];
    chart.append(svg("text", { x: px(s.length - 1) + 8, y, class: "endval", fill: colors[p] }, s[s.length - 1]));
  }
  const legend = h("ul.legend.players", null, names.map((n, p) => h("li", null,
    h("i", { style: { background: colors[p] } }), h("span", null, n), " ", h("b", null, series[p][series[p].length - 1]))));
  return h("figure.chart-fig", null, chart, legend);
}
