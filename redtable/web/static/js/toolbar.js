// The table's toolbar on one row, at any width and in any language: the controls that fit stay
// in the row with their words; the rest go, least needed first, into a labelled overflow menu
// ("More"): a real menu button (aria-haspopup, aria-expanded, aria-controls) and menu items
// with their words. The arrows, Home and End move in it, Escape and Tab close it, and so does
// a tap or click outside it. No control is ever icon-only.
//
// The controls themselves move (their own listeners and states stay theirs): in the menu a
// control is a menuitem (a pressed toggle: a menuitemcheckbox, its aria-pressed as aria-checked).
// The row is fitted again whenever a control shows, hides or changes its words, the window's
// width or the page's language changes.
import { h, icon } from "./dom.js";
import { t } from "./i18n.js";

// The controls in the row's order, and how long each keeps its place (higher: kept longer).
const ORDER = ["undo", "results", "chime", "scorebtn", "share", "info", "chattoggle", "logtoggle", "report-btn", "leave"];
const KEEP = { undo: 90, results: 90, logtoggle: 70, scorebtn: 60, chattoggle: 50, chime: 30, info: 25, leave: 20, share: 10, "report-btn": 5 };  // (moderation.js's report: the first into "More")

function kind(el) { return ORDER.find((c) => el.classList.contains(c)) || ""; }
function shown(el) { return !el.hidden && getComputedStyle(el).display !== "none"; }

let menus = 0;

export class Toolbar {
  // bar: the status bar (its width is the row's room); row: the controls' row (.status-right)
  constructor(bar, row) {
    this.bar = bar;
    this.row = row;
    this.sig = "";
    const id = `toolmenu-${++menus}`;
    this.button = h("button.btn.small.more", {
      type: "button", id: id + "-btn", "aria-haspopup": "menu", "aria-expanded": "false", "aria-controls": id,
    }, icon("more"), h("span", null, t("table.more")));
    this.menu = h("div.toolmenu", { id, role: "menu", "aria-labelledby": id + "-btn", hidden: true });
    this.wrap = h("div.more-wrap", { hidden: true }, this.button, this.menu);
    row.append(this.wrap);

    this.button.addEventListener("click", () => (this.isOpen() ? this.close(true) : this.open(true)));
    this.button.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") { e.preventDefault(); this.open(true, e.key === "ArrowUp" ? -1 : 0); }
    });
    this.menu.addEventListener("keydown", (e) => this.key(e));
    // a chosen item does what it does (its own listener), then the menu closes
    this.menu.addEventListener("click", (e) => {
      if (!e.target.closest("[role^=menuitem]")) return;
      setTimeout(() => {  // (an item that moved the focus elsewhere, a dialog's, keeps it there)
        const a = document.activeElement;
        const lost = !a || a === document.body || this.menu.contains(a);
        this.close(false);
        if (lost) this.button.focus({ preventScroll: true });
      }, 0);
    });
    this.outside = (e) => { if (this.isOpen() && !this.wrap.contains(e.target)) this.close(false); };
    document.addEventListener("pointerdown", this.outside, true);
    this.focusout = (e) => { if (this.isOpen() && e.relatedTarget && !this.wrap.contains(e.relatedTarget)) this.close(false); };
    this.wrap.addEventListener("focusout", this.focusout);

    this.pending = false;
    this.later = () => {
      if (this.pending) return;
      this.pending = true;
      requestAnimationFrame(() => { this.pending = false; this.fit(); });
    };
    this.watch = new MutationObserver(this.later);
    this.watch.observe(row, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["hidden"] });
    window.addEventListener("resize", this.later);
    this.later();
  }

  controls() {
    const all = [...this.row.children, ...this.menu.children].filter((el) => el !== this.wrap && kind(el));
    return all.sort((a, b) => ORDER.indexOf(kind(a)) - ORDER.indexOf(kind(b)));
  }

  isOpen() { return this.button.getAttribute("aria-expanded") === "true"; }

  items() { return [...this.menu.children].filter(shown); }

  open(focus, at = 0) {
    const items = this.items();
    if (!items.length) return;
    this.menu.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    // right-aligned under the button, inside the window
    this.menu.style.left = "";
    this.menu.style.right = "0px";
    const r = this.menu.getBoundingClientRect();
    if (r.left < 8) { this.menu.style.right = ""; this.menu.style.left = "0px"; }
    if (focus) items[(at + items.length) % items.length].focus();
  }

  close(focusButton) {
    if (!this.isOpen()) return;
    const inside = this.menu.contains(document.activeElement);
    this.menu.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    if (focusButton || inside) this.button.focus({ preventScroll: true });
  }

  key(e) {
    const items = this.items();
    const i = items.indexOf(document.activeElement);
    let to = null;
    if (e.key === "ArrowDown") to = (i + 1) % items.length;
    else if (e.key === "ArrowUp") to = (i - 1 + items.length) % items.length;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = items.length - 1;
    else if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); this.close(true); return; }
    else if (e.key === "Tab") { this.close(false); return; }
    else if (e.key === " " && document.activeElement.tagName === "A") { e.preventDefault(); document.activeElement.click(); return; }
    if (to !== null) { e.preventDefault(); items[to].focus(); }
  }

  // A control into the menu, or back into the row.
  toMenu(el) {
    el.setAttribute("tabindex", "-1");
    if (el.hasAttribute("aria-pressed")) {
      el.setAttribute("role", "menuitemcheckbox");
      el.setAttribute("aria-checked", el.getAttribute("aria-pressed"));
      el.removeAttribute("aria-pressed");
    } else {
      el.setAttribute("role", "menuitem");
    }
    this.menu.append(el);
  }

  toRow(el) {
    if (el.getAttribute("role") === "menuitemcheckbox") {
      el.setAttribute("aria-pressed", el.getAttribute("aria-checked") || "false");
      el.removeAttribute("aria-checked");
    }
    el.removeAttribute("role");
    el.removeAttribute("tabindex");
    this.row.insertBefore(el, this.wrap);
  }

  // Every control back in the row, then the least needed into the menu until the row fits.
  fit() {
    if (!this.row.isConnected) return;
    const controls = this.controls();
    if (this.sigOf(controls) !== this.sig) {
      const active = document.activeElement;
      this.close(false);
      for (const el of controls) this.toRow(el);
      this.button.querySelector("span").textContent = t("table.more");
      this.wrap.hidden = true;
      if (this.need() > this.room()) {
        this.wrap.hidden = false;
        const byKeep = controls.filter(shown).sort((a, b) => (KEEP[kind(a)] || 0) - (KEEP[kind(b)] || 0));
        for (const el of byKeep) {
          if (this.need() <= this.room()) break;
          this.toMenu(el);
        }
      }
      for (const el of controls) if (el.parentNode === this.menu) this.menu.append(el);  // in the row's order
      this.wrap.hidden = !this.items().length;
      // the focus stays on its control, or goes to the menu's button when the control went into it
      if (active && controls.includes(active) && document.activeElement !== active) {
        (this.menu.contains(active) ? this.button : active).focus({ preventScroll: true });
      }
      this.sig = this.sigOf(this.controls());
    }
    // news inside the menu (unread chat) shows on its button
    this.button.classList.toggle("news", !!this.menu.querySelector(".chat-badge:not([hidden])") && shown(this.wrap));
  }

  sigOf(controls) {
    const others = [...this.row.children].filter((el) => el !== this.wrap && !kind(el));  // ("Live": its words take room too)
    return [innerWidth, document.documentElement.lang, this.bar.clientWidth, ...others.map((el) => (shown(el) ? el.textContent : "")),
      ...controls.map((el) => (shown(el) ? kind(el) + ":" + el.textContent : ""))].join("|");
  }

  // the row's width as laid out (its visible children and the gaps between them), and its room
  need() {
    const kids = [...this.row.children].filter((el) => el.getClientRects().length);
    if (!kids.length) return 0;
    const gap = parseFloat(getComputedStyle(this.row).columnGap) || 0;
    return kids.reduce((sum, el) => sum + el.getBoundingClientRect().width, 0) + gap * (kids.length - 1);
  }

  room() { return this.bar.clientWidth; }

  relabel() { this.sig = ""; this.fit(); }

  destroy() {
    this.watch.disconnect();
    window.removeEventListener("resize", this.later);
    document.removeEventListener("pointerdown", this.outside, true);
  }
}
