// What another seat's turn changed on the board, shown for about 1.5 s: the cards its events
// name (moved, arrived, banished, revealed) and the tokens whose count or place changed are
// outlined, with a short motion from where they were (none with prefers-reduced-motion).
//
// The table rebuilds the board on every render, so the board is read just before (capture)
// and marked just after (mark); a mark lasts its 1.5 s across later renders (reapply). Only
// the seat's own view and events are read: the cards come from the events, the tokens from
// the board the view drew.
const HOLD_MS = 1500;
const MOTION_MS = 450;
const TOKENS = ".stat, .infl li, .track .ship";

function reduced() { return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches; }

function keyed(board) {
  const out = new Map();
  const count = new Map();
  for (const el of board.querySelectorAll("[data-card]")) {
    const k = el.dataset.card;
    const n = (count.get(k) || 0) + 1;
    count.set(k, n);
    out.set("card|" + k + "|" + n, el);
  }
  let i = 0;
  for (const el of board.querySelectorAll(TOKENS)) {
    const holder = el.closest("[data-key]");
    const name = el.classList.contains("ship") ? el.title : (holder ? holder.dataset.key : "") + "|" + el.className + "|" + (el.closest(".infl") ? i++ : "");
    out.set("token|" + name, el);
  }
  return out;
}

// A token's value: its text, a ship its cell on the track.
function value(el) {
  if (el.classList.contains("ship")) { const cell = el.closest("li"); return cell ? [...cell.parentElement.children].indexOf(cell) : -1; }
  return el.textContent;
}

// The cards an event names.
function named(events) {
  const out = new Set();
  for (const e of events) {
    for (const f of ["card", "card_by"]) if (typeof e[f] === "string") out.add(e[f]);
    if (Array.isArray(e.cards)) for (const c of e.cards) if (typeof c === "string") out.add(c);
  }
  return out;
}

export class BoardHighlight {
  constructor() {
    this.marks = new Map();  // key -> until (performance.now())
    this.timer = null;
    this.board = null;
  }

  // Before the board is rebuilt: where each card and token is, and what each token says.
  capture(board) {
    this.board = board;
    const out = new Map();
    for (const [k, el] of keyed(board)) out.set(k, { rect: el.getBoundingClientRect(), value: k.startsWith("token|") ? value(el) : null });
    return out;
  }

  // After: mark what `events` (another seat's, since the last render) changed.
  mark(board, before, events) {
    const now = performance.now();
    const cards = named(events || []);
    const move = !reduced();
    for (const [k, el] of keyed(board)) {
      const old = before.get(k);
      const isToken = k.startsWith("token|");
      const changed = isToken ? old && old.value !== value(el) : cards.has(k.split("|")[1]) && (events || []).length > 0;
      if (changed) {
        this.marks.set(k, now + HOLD_MS);
        if (move) this.motion(el, old && old.rect);
      }
    }
    this.reapply(board);
  }

  motion(el, from) {
    if (!el.animate) return;
    const to = el.getBoundingClientRect();
    const frames = from && (Math.abs(from.left - to.left) > 4 || Math.abs(from.top - to.top) > 4)
      ? [{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }]
      : [{ transform: "scale(0.86)", opacity: 0.35 }, { transform: "none", opacity: 1 }];
    el.animate(frames, { duration: MOTION_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  }

  // Every render: the marks still running are shown on the board just built.
  reapply(board) {
    this.board = board;
    const now = performance.now();
    let next = Infinity;
    for (const [k, until] of this.marks) if (until <= now) this.marks.delete(k); else next = Math.min(next, until);
    for (const [k, el] of keyed(board)) el.classList.toggle("hl", this.marks.has(k));
    clearTimeout(this.timer);
    if (next < Infinity) this.timer = setTimeout(() => this.board && this.reapply(this.board), next - now + 20);
  }

  destroy() { clearTimeout(this.timer); this.board = null; }
}
