// Tiny DOM helpers: h() builds elements, plus toasts, copying and focus keeping.
// Content-Security-Policy: no inline styles or handlers. h() sets styles only through the
// CSSOM ({style: {prop: value}}), listeners with addEventListener, never HTML from strings.

export function h(tag, attrs, ...children) {
  const [head, ...classes] = tag.split(".");
  const [name, id] = head.split("#");
  const el = document.createElement(name || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.className = (el.className ? el.className + " " : "") + v;
      else if (k === "style") {
        if (typeof v !== "object") throw new TypeError("h(): style must be an object (CSP forbids style strings)");
        for (const [sk, sv] of Object.entries(v)) {
          if (sv === undefined || sv === null) continue;
          if (sk.startsWith("--")) el.style.setProperty(sk, sv);
          else el.style[sk] = sv;
        }
      }
      else if (k.startsWith("on")) {
        if (typeof v !== "function") throw new TypeError(`h(): ${k} must be a function (CSP forbids inline handlers)`);
        el.addEventListener(k.slice(2), v);
      }
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, v);
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function svg(tag, attrs, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "style" || k.startsWith("on")) throw new TypeError(`svg(): no ${k} attribute (CSP); use a class`);
    if (v !== undefined && v !== null) el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let toastBox = null;
export function toast(message, kind = "info", ms = 3500) {
  if (!toastBox) {
    toastBox = h("div.toasts", { role: "status", "aria-live": "polite" });
    document.body.appendChild(toastBox);
  }
  const t = h("div.toast." + kind, null, message);
  toastBox.appendChild(t);
  setTimeout(() => t.classList.add("out"), ms - 300);
  setTimeout(() => t.remove(), ms);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    const ta = h("textarea", { style: { position: "fixed", left: "-9999px" } });
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
    ta.remove();
    return ok;
  }
}

// Re-render `root` with `build()` keeping the focused element (by data-key) and scroll.
export function rerender(root, build) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.key : null;
  const scrolls = [...root.querySelectorAll("[data-scroll]")].map((e) => [e.dataset.scroll, e.scrollLeft, e.scrollTop]);
  clear(root);
  append(root, [build()]);
  for (const [k, l, t] of scrolls) {
    const e = root.querySelector(`[data-scroll="${k}"]`);
    if (e) { e.scrollLeft = l; e.scrollTop = t; }
  }
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

// A touch screen (a coarse primary pointer): prompts say "tap", and a held touch reads a card.
export function isTouch() {
  return !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
}

// A long press of a touch or pen (not a mouse: a slow click stays a click) on an element
// matching `selector` inside `root` calls fn(el), and the click that ends it is swallowed,
// so holding a target reads it instead of deciding it. The press is measured with the input
// events' own time stamps (when the finger went down and up), not a timer: a busy page that
// handles a quick tap late never takes it for a long press. A phone that shows its context
// menu for the held finger counts too.
export function onLongPress(root, selector, fn, ms = 450) {
  let down = null;  // {el, x, y, t} of the finger that is down
  let fired = false;
  const fire = (e) => {
    const el = down && down.el;
    down = null;
    fired = true;
    fn(el);
    if (e.cancelable) e.preventDefault();
  };
  root.addEventListener("pointerdown", (e) => {
    fired = false;
    down = null;
    if (e.pointerType === "mouse") return;
    const el = e.target.closest(selector);
    if (el && root.contains(el)) down = { el, x: e.clientX, y: e.clientY, t: e.timeStamp };
  });
  root.addEventListener("pointermove", (e) => {
    if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) > 12) down = null;
  });
  root.addEventListener("pointerup", (e) => { if (down && e.timeStamp - down.t >= ms) fire(e); else down = null; });
  root.addEventListener("pointercancel", () => { down = null; });
  root.addEventListener("contextmenu", (e) => { if (down) fire(e); else if (fired) e.preventDefault(); });
  root.addEventListener("click", (e) => {
    if (fired) { fired = false; e.preventDefault(); e.stopPropagation(); }
  }, true);
}

// A bottom sheet (a modal dialog) that shows `body`: a card's full text on a touch screen or
// where the side inspector is not shown. Escape, the close button or a tap outside closes it,
// and the focus goes back where it was.
export function sheet(body, { label, closeLabel }) {
  closeSheet();
  const before = document.activeElement;
  const backdrop = h("div.sheet-backdrop", { role: "dialog", "aria-modal": "true", "aria-label": label });
  const onKey = (e) => { if (e.key === "Escape") { e.stopPropagation(); close(); } };
  const close = () => {
    document.removeEventListener("keydown", onKey, true);
    backdrop.remove();
    if (before && before.isConnected && before.focus) before.focus({ preventScroll: true });
  };
  const closeBtn = h("button.icon-btn.sheet-close", { type: "button", "aria-label": closeLabel, title: closeLabel, onclick: close }, "×");
  const box = h("div.sheet", null, h("div.sheet-head", null, h("h2", null, label), closeBtn), h("div.sheet-body", null, body));
  backdrop.append(box);
  backdrop.addEventListener("click", (e) => { if (e.target === backdrop) close(); });
  document.addEventListener("keydown", onKey, true);  // wherever the focus went (a long press moves it)
  backdrop._close = close;
  document.body.append(backdrop);
  closeBtn.focus({ preventScroll: true });
  return backdrop;
}

export function closeSheet() {
  for (const s of document.querySelectorAll(".sheet-backdrop")) s._close();
}

export function icon(name, title) {
  const paths = ICONS[name];
  const el = svg("svg", { viewBox: "0 0 24 24", class: "icon icon-" + name, "aria-hidden": title ? null : "true", role: title ? "img" : null },
    title ? svg("title", {}, title) : null,
    ...paths.map((d) => (typeof d === "string" ? svg("path", { d }) : svg(d[0], d[1]))));
  return el;
}

const ICONS = {
  helium: [["polygon", { points: "12,2 21,9 17,21 7,21 3,9" }]],
  influence: [["circle", { cx: 12, cy: 12, r: 8 }], ["circle", { cx: 12, cy: 12, r: 3.5, class: "hole" }]],
  fleet: ["M3 15 L12 4 L21 15 L16 14 L12 20 L8 14 Z"],
  crown: ["M3 18 L5 7 L10 12 L12 5 L14 12 L19 7 L21 18 Z"],
  moon: ["M15 3 A9 9 0 1 0 21 15 A7 7 0 1 1 15 3 Z"],
  deck: [["rect", { x: 5, y: 3, width: 13, height: 18, rx: 2 }], ["rect", { x: 8, y: 5, width: 11, height: 16, rx: 2, class: "back" }]],
  banish: ["M5 5 L19 19 M19 5 L5 19"],
  undo: ["M9 5 L4 10 L9 15 M4 10 H14 A6 6 0 0 1 14 22 H10"],
  leave: ["M10 5 L3 12 L10 19 M3 12 H15", "M15 4 H20 V20 H15"],
  log: ["M5 6 H19 M5 12 H19 M5 18 H14"],
  more: [["circle", { cx: 5, cy: 12, r: 2 }], ["circle", { cx: 12, cy: 12, r: 2 }], ["circle", { cx: 19, cy: 12, r: 2 }]],
  glory: ["M12 2 L14.6 9 L22 9 L16 13.5 L18.3 21 L12 16.5 L5.7 21 L8 13.5 L2 9 L9.4 9 Z"],
  vp: [["circle", { cx: 12, cy: 12, r: 9 }], "M8 12 L11 15 L16 9"],
  shield: ["M12 2 L20 6 V12 C20 17 16 21 12 22 C8 21 4 17 4 12 V6 Z"],
  axe: ["M7 21 L17 5 M13 4 C17 2 21 5 20 9 C18 8 16 8 15 9 Z"],
  tie: [["rect", { x: 4, y: 4, width: 16, height: 16, rx: 3 }], "M8 12 H16 M12 8 V16"],
  bot: [["rect", { x: 5, y: 8, width: 14, height: 11, rx: 3 }], ["circle", { cx: 9.5, cy: 13, r: 1.5 }], ["circle", { cx: 14.5, cy: 13, r: 1.5 }], "M12 8 V4"],
  eye: ["M2 12 C5 6 19 6 22 12 C19 18 5 18 2 12 Z", ["circle", { cx: 12, cy: 12, r: 3 }]],
  play: ["M7 4 L20 12 L7 20 Z"],
  pause: [["rect", { x: 6, y: 4, width: 4, height: 16 }], ["rect", { x: 14, y: 4, width: 4, height: 16 }]],
  first: ["M6 4 V20 M20 4 L9 12 L20 20 Z"],
  last: ["M18 4 V20 M4 4 L15 12 L4 20 Z"],
  prev: ["M17 4 L7 12 L17 20 Z"],
  next: ["M7 4 L17 12 L7 20 Z"],
  copy: [["rect", { x: 8, y: 8, width: 12, height: 12, rx: 2 }], "M4 16 V6 A2 2 0 0 1 6 4 H16"],
  info: [["circle", { cx: 12, cy: 12, r: 9 }], "M12 11 V17 M12 7 V8"],
  trophy: ["M7 4 H17 V9 A5 5 0 0 1 7 9 Z M12 14 V18 M8 21 H16 M7 6 H3 A4 4 0 0 0 7 11 M17 6 H21 A4 4 0 0 1 17 11"],
  hourglass: ["M7 3 H17 M7 21 H17 M8 3 C8 9 16 9 16 12 C16 15 8 15 8 21 M16 3 C16 9 8 9 8 12 C8 15 16 15 16 21"],
  users: [["circle", { cx: 9, cy: 8, r: 3.5 }], "M2 20 C2 15 16 15 16 20", ["circle", { cx: 17, cy: 9, r: 2.5 }], "M17 14 C20 14 22 16 22 19"],
  plus: ["M12 5 V19 M5 12 H19"],
  check: ["M5 12 L10 17 L19 7"],
  star: ["M12 2 L14.6 9 L22 9 L16 13.5 L18.3 21 L12 16.5 L5.7 21 L8 13.5 L2 9 L9.4 9 Z"],
  die: [["rect", { x: 4, y: 4, width: 16, height: 16, rx: 3 }], ["circle", { cx: 9, cy: 9, r: 1.4 }], ["circle", { cx: 15, cy: 15, r: 1.4 }], ["circle", { cx: 12, cy: 12, r: 1.4 }]],
};
