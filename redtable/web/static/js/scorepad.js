// A scorepad table that shows every player's column at any width (the end screens of both
// titles and the running-score panel).
//
// Players are columns, score rows are rows, as on the printed scorepad. Where the table's own
// box is narrow (a phone, the side drawer: the box's width, not the window's) it turns
// compact instead of scrolling sideways: short row labels, narrow numeric
// columns, each name abbreviated (the full name in its title and in a legend under the table,
// with the house and colour), so six columns fit in 340 px. The winner's column is marked in
// every cell, not only by colour.
import { h, icon } from "./dom.js";
import { t } from "./i18n.js";
import { fitWords } from "./fitwords.js";

// "Bot 2 (Random)" -> "B2", "Bot 2 · Expert" -> "Bot 2", "Player 3" -> "P3", "Ann" -> "Ann", "Sigurdsson" -> "Sigur…".
export function abbreviate(name) {
  const base = String(name || "").replace(/\s*(\(.*\)|·.*)\s*$/, "").trim() || String(name || "");
  if ([...base].length <= 6) return base;
  const m = base.match(/^(.*?)\s*(\d+)$/);
  if (m && m[1]) return m[1].split(/\s+/).map((w) => [...w][0] || "").join("").toUpperCase() + m[2];
  return [...base].slice(0, 5).join("") + "…";
}

// The legend names a player once: the whole name in bold where its abbreviation begins it
// ("Sigurdsson" for "Sigur…", "Bot 2 · Expert" for "Bot 2"), else "B2 Bot 2 (Random)".
function legendName(name) {
  const a = abbreviate(name);
  const stem = a.replace(/…$/, "");
  if (a === name || String(name).startsWith(stem)) return h("b", null, name);
  return [h("b", null, a), " ", name];
}

// columns: [{name, sub, color, win}]; rows: [{key, label, short, values, cls, cells?}]
// (cells: optional per-column nodes shown instead of the plain values).
export function scorepadTable({ columns, rows, corner, legend = true, cls = "" }) {
  const n = columns.length;
  const head = h("tr", null,
    h("th.corner", { scope: "col" }, corner ? h("span.corner-text", null, corner) : h("span.sr", null, t("end.player"))),
    columns.map((c, i) => h("th.pcol" + (c.win ? ".win" : ""), {
      scope: "col", title: c.sub ? `${c.name} — ${c.sub}` : c.name, "data-col": i, style: { "--house": c.color },
    },
    c.win ? icon("trophy", t("end.winner_mark")) : null,
    h("span.pname", null,
      h("span.full", null, c.name),
      h("span.abbr", { "aria-hidden": "true" }, abbreviate(c.name))),
    c.sub ? h("small", null, c.sub) : null)));
  const body = rows.map((r) => h("tr" + (r.key ? ".row-" + r.key : "") + (r.cls ? "." + r.cls : ""), null,
    h("th", { scope: "row", title: r.label },
      h("span.full", null, r.label),
      h("span.abbr", { "aria-hidden": "true" }, r.short || r.label)),
    columns.map((c, i) => h("td" + (c.win ? ".win" : ""), { "data-col": i, "data-row": r.key || null },
      r.cells ? r.cells[i] : r.values[i]))));
  const table = h("table.scorepad.sp-cols-" + n + (cls ? "." + cls : ""), null, h("thead", null, head), h("tbody", null, body));
  const box = h("div.scorepad-box", null,
    table,
    legend ? h("ul.sp-legend", { "aria-hidden": "true" }, columns.map((c) => h("li" + (c.win ? ".win" : ""), null,
      h("i", { style: { background: c.color } }),
      legendName(c.name),
      c.sub ? h("small", null, " · ", c.sub) : null))) : null);
  fitBox(box);
  return box;
}

// Compact where the box is narrower than the full table needs (a phone, the side drawer):
// the full table's width is measured, and kept, so the box goes back to full names only
// once it is that wide again (a turned phone, a wider window). Watched with a ResizeObserver.
const watched = new WeakSet();
let observer = null;
function fit(box) {
  const table = box.querySelector("table");
  const w = box.clientWidth;
  if (!table || w <= 0) return;
  if (box.classList.contains("compact")) {
    if (w < Number(box.dataset.need || 0)) return;
    box.classList.remove("compact");
  }
  const need = table.offsetWidth;  // the table is 100% wide: wider than the box only when it overflows
  if (need > w + 1) {
    box.dataset.need = String(need);
    box.classList.add("compact");
  }
  fitWords(box);  // the names that fit neither way are set smaller, not broken
  fitCorner(box);
}

// A compact pad's label column is as wide as its widest short label («Усього», «ПО: Рагнарок»):
// a label is never cut.
function fitCorner(box) {
  const corner = box.querySelector("thead th.corner");
  if (!corner) return;
  corner.style.width = "";
  if (!box.classList.contains("compact")) return;
  const labels = [...box.querySelectorAll("tbody th[scope=row]")];
  for (let i = 0; i < 3; i++) {
    const over = Math.max(0, ...labels.map((th) => th.scrollWidth - th.clientWidth));
    if (over <= 1) break;
    corner.style.width = Math.ceil(corner.getBoundingClientRect().width + over + 1) + "px";
  }
}
function fitBox(box) {
  if (!window.ResizeObserver) { requestAnimationFrame(() => fit(box)); return; }
  if (!observer) observer = new ResizeObserver((entries) => { for (const e of entries) fit(e.target); });
  if (!watched.has(box)) { watched.add(box); observer.observe(box); }
}
