// Names and labels never break inside a word ("Артефактни/к"): where the longest word of a
// name is wider than its box (a phone's hand card, a house panel, a long Ukrainian or Polish
// name), its type is set smaller until the word fits. Browsers hyphenate (`hyphens: auto`,
// with the page's `lang`) only where they carry a dictionary, which a phone's or Linux's
// Chromium often does not, so the size is the dependable way. Words are measured on a canvas
// with the element's own font: no layout is forced beyond one read of each box.
const NAMES = ".rc-name, .rc-col, .rp-name, .n-name, .n-type, .n-down, .o-name, .loc-name, .sp-legend b, .winner, .game-name, .clock-name, .pname > span, .infl-name";
const SMALLEST = 0.62;  // of the type's own size: smaller than that is not read any more

let canvas = null;
function wordWidth(word, st) {
  if (!canvas) canvas = document.createElement("canvas").getContext("2d");
  canvas.font = `${st.fontStyle} ${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
  const text = st.textTransform === "uppercase" ? word.toLocaleUpperCase(document.documentElement.lang || undefined) : word;
  const spacing = parseFloat(st.letterSpacing) || 0;
  return canvas.measureText(text).width + spacing * [...text].length;
}

function inner(el) {
  const st = getComputedStyle(el);
  return el.clientWidth - (parseFloat(st.paddingLeft) || 0) - (parseFloat(st.paddingRight) || 0);
}

// The width the element's words may take: its own, and no more than its nearest box's
// (an inline name, a shrink-to-fit flex item, sits in a box that is the real limit).
function room(el) {
  const inline = getComputedStyle(el).display === "inline";
  let box = el.parentElement;
  while (box && getComputedStyle(box).display === "inline") box = box.parentElement;
  const outer = box ? inner(box) : Infinity;
  return inline ? outer : Math.min(inner(el), outer);
}

// The longest word of the element's own text (not of its badges) and its width.
function longest(el, st) {
  let best = 0;
  for (const node of el.childNodes) {
    if (node.nodeType !== 3) continue;
    for (const w of node.textContent.split(/[\s\u00a0/-]+/)) if (w) best = Math.max(best, wordWidth(w, st));
  }
  return best;
}

export function fitWords(root) {
  if (!root) return;
  const els = [...root.querySelectorAll(NAMES)];
  for (const el of els) if (el.style.fontSize) el.style.fontSize = "";  // a wider window: the own size again
  const fixes = [];
  for (const el of els) {  // read everything first, then write (one layout)
    if (!el.getClientRects().length) continue;
    const st = getComputedStyle(el);
    const need = longest(el, st);
    if (!need) continue;
    const have = room(el);
    // (a word within a pixel of its box breaks too: the canvas's width and the laid-out one differ by
    // a fraction, and the box's width is rounded; «Артефактник» measured 94 in a 94 px name broke)
    if (have > 0 && need > have - 1.5) fixes.push([el, parseFloat(st.fontSize), Math.max(SMALLEST, (have - 2) / need)]);
  }
  for (const [el, size, k] of fixes) el.style.fontSize = `${Math.floor(size * k * 10) / 10}px`;
}

// Fit the table's names now and again whenever the window changes size.
let watching = false;
export function fitWordsOnResize() {
  if (watching) return;
  watching = true;
  let timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => { fitWords(document.querySelector(".table-shell")); fitWords(document.querySelector(".overlay")); }, 120);
  });
}
