// The game log follows its newest line unless the reader scrolled it up.
//
// "Following" is decided from what the reader does (a wheel turn, a drag of a finger or of the
// scroll bar, a key that scrolls), never by comparing scrollTop after the fact: the log's box
// changes size whenever the page around it does (a card leaves the hand, the prompt grows, the
// phone's log drawer opens), and each of those moves scrollTop without the reader asking. A
// scroll the reader made ends at the bottom: following again. Scrolled up, new lines are
// counted and a "new events" button jumps to the bottom and follows again.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const INTENT_MS = 900;   // a scroll event this soon after the reader's own gesture is theirs
const BOTTOM_PX = 24;    // "at the bottom", within a line's height
const LOG_KEEP = 104;    // px of the log the card above it leaves on screen: its heading and newest lines (app.css: .log min-height)
const SIDE_GAP = 12;     // the side column's gap, and the window's margin under the log (app.css)
const LINES_KEEP = 48;   // px the log's lines keep (app.css: .log .log-lines min-height beside the board)
const STORY_LINE = 30;   // px of a turn account's first line (story.css)

export class LogFollower {
  // ol: the scrolling list; box: where the "new events" button goes (the log section);
  // card: the card shown above the log (the inspector), given the room the log can spare.
  constructor(ol, box, card = null) {
    this.card = card;
    this.ol = ol;
    ol._follow = this;  // (tests and debugging read the state)
    this.following = true;
    this.unseen = 0;
    this.intentAt = -Infinity;  // (performance.now() starts near 0: no gesture yet)
    this.dragging = false;
    this.button = h("button.btn.small.log-new", { type: "button", hidden: true, "aria-live": "polite" });
    this.button.addEventListener("click", () => this.resume(true));
    box.append(this.button);
    const intent = () => { this.intentAt = performance.now(); };
    ol.addEventListener("wheel", (e) => {
      intent();
      // a turn up leaves the bottom at once, even where the scroll event comes late; a turn
      // down at the bottom (no scroll follows) follows again
      if (e.deltaY < 0 && this.scrollable()) this.leave();
      else if (e.deltaY > 0 && this.atBottom()) this.resume(false);
    }, { passive: true });
    ol.addEventListener("touchstart", intent, { passive: true });
    ol.addEventListener("touchmove", intent, { passive: true });
    ol.addEventListener("keydown", (e) => {
      if (["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "].includes(e.key)) intent();
    });
    // a press on the list itself (not on a line) is the scroll bar
    ol.addEventListener("pointerdown", (e) => { if (e.target === ol) { this.dragging = true; intent(); } });
    window.addEventListener("pointerup", this.onUp = () => { if (this.dragging) { this.dragging = false; intent(); } });
    ol.addEventListener("scroll", () => {
      if (!this.dragging && performance.now() - this.intentAt > INTENT_MS) return;  // not the reader's
      if (this.atBottom()) this.resume(false);
      else this.leave();
    }, { passive: true });
    // the box resized (the page around it changed, the drawer opened): keep the bottom in view
    if (window.ResizeObserver) {
      this.resizer = new ResizeObserver(() => { this.fit(); if (this.following) this.toBottom(); });
      this.resizer.observe(ol);
    }
    // the log's box ends inside the window, wherever the page is scrolled: its bottom line,
    // the newest, is then on screen (app.css: .log's max-height reads --log-top)
    this.box = box;
    this.fitQueued = false;
    this.onWindow = () => {
      if (this.fitQueued) return;
      this.fitQueued = true;
      requestAnimationFrame(() => { this.fitQueued = false; this.fit(); });
    };
    window.addEventListener("scroll", this.onWindow, { passive: true });
    window.addEventListener("resize", this.onWindow);
    // what sits above the log (the prompt, the card shown) moves it when it grows
    if (this.resizer) {
      for (let el = box.previousElementSibling; el; el = el.previousElementSibling) this.resizer.observe(el);
      if (box.parentElement) this.resizer.observe(box.parentElement);
    }
  }

  fit() {
    if (!this.box.isConnected || !this.box.getClientRects().length) return;
    const top = Math.max(0, Math.round(this.box.getBoundingClientRect().top));
    if (this.box.style.getPropertyValue("--log-top") !== top + "px") this.box.style.setProperty("--log-top", top + "px");
    // the turn account at the log's head (turnstory.js) is not left a sliver of a line when a long
    // card above takes the room: it waits (hidden) until the log has room for its first line
    const story = this.box.querySelector(":scope > .turn-story");
    if (story) {
      const cs = getComputedStyle(this.box), head = this.box.querySelector(":scope > h2");
      const free = window.innerHeight - top - SIDE_GAP - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom)
        - (head ? head.getBoundingClientRect().height + 8 : 0) - LINES_KEEP;
      story.classList.toggle("squeezed", free < STORY_LINE);
    }
    // the card's box may grow down to where the log keeps LOG_KEEP px inside the window, so a
    // long card is read whole (app.css: .side .inspector's max-height reads --card-room)
    const card = this.card;
    if (!card || !card.isConnected || !card.getClientRects().length) return;
    let between = 0;  // what stands between the card and the log (the chat)
    for (let el = card.nextElementSibling; el && el !== this.box; el = el.nextElementSibling) {
      if (el.getClientRects().length) between += el.getBoundingClientRect().height + SIDE_GAP;
    }
    const room = Math.max(0, Math.floor(window.innerHeight - card.getBoundingClientRect().top - between - SIDE_GAP - LOG_KEEP - SIDE_GAP));
    if (card.style.getPropertyValue("--card-room") !== room + "px") card.style.setProperty("--card-room", room + "px");
  }

  scrollable() { return this.ol.scrollHeight > this.ol.clientHeight + 1; }
  atBottom() { return this.ol.scrollHeight - this.ol.scrollTop - this.ol.clientHeight <= BOTTOM_PX; }
  toBottom() { this.ol.scrollTop = this.ol.scrollHeight; }

  leave() {
    if (!this.following) return;
    this.following = false;
  }

  // Follow again: the reader reached the bottom (scrolled) or asked for it (the button).
  resume(jump) {
    this.following = true;
    this.unseen = 0;
    if (jump) {
      this.toBottom();
      if (document.activeElement === this.button) this.ol.focus({ preventScroll: true });
    }
    this.show();
  }

  // The page shows a chosen line (the replay's current step), not the newest: stay off the bottom.
  pin() {
    this.following = false;
    this.unseen = 0;
    this.show();
  }

  // `added` new lines were appended: follow them, or count them for the button.
  appended(added) {
    this.fit();
    if (this.following) this.toBottom();
    else if (added > 0) this.unseen += added;
    this.show();
  }

  // Lines removed from the top (the log keeps a bounded number): the reader's place stays put.
  trimmed(height) {
    if (!this.following && height > 0) this.ol.scrollTop = Math.max(0, this.ol.scrollTop - height);
  }

  show() {
    const on = !this.following && this.unseen > 0;
    this.button.hidden = !on;
    if (on) {
      this.button.replaceChildren(h("span.arrow", { "aria-hidden": "true" }, "↓"), t("table.new_events", { n: this.unseen }));
      this.button.title = t("table.new_events_title");
    }
  }

  relabel() { this.show(); }

  destroy() {
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("scroll", this.onWindow);
    window.removeEventListener("resize", this.onWindow);
    if (this.resizer) this.resizer.disconnect();
  }
}
