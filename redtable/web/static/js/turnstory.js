// What happened while you were not deciding: a one-line account of each other seat's turn,
// and "since your last turn", every such turn since you last played.
//
// The accounts are built from the events the page was sent for its seat (the same ones the
// log shows), by the title's story module (rrstory.js, rnstory.js): never from anything else,
// so they tell no more than the log. The panel stands under the prompt where the page is one
// column (a phone), at the head of the log beside the board; the replay uses `turnsOf` and
// `account` to say what each step did.
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

const TITLES = { "red-rising": () => import("./rrstory.js"), "red-north": () => import("./rnstory.js") };
export function storyFor(game) { return (TITLES[game] || TITLES["red-rising"])(); }

// The events split into turns: [{seat, from, events}] (`from`: the index of its first event).
export function turnsOf(story, events) {
  const out = [];
  let cur = null;
  for (let i = 0; i < events.length; i++) {
    const seat = story.turnStart(events[i], cur);
    if (seat !== null && seat !== undefined) { cur = { seat, from: i, events: [] }; out.push(cur); }
    if (cur) cur.events.push(events[i]);
  }
  return out;
}

// The turns to tell `me` (null: a spectator): those of the other seats since `me` last played
// (when a turn of mine is under way, those before it); a spectator, the last few.
export function sinceMine(turns, me) {
  if (me === null || me === undefined) return turns.slice(-4);
  let end = turns.length;
  if (end && turns[end - 1].seat === me) end -= 1;  // my turn now: what came before it
  let start = end;
  while (start > 0 && turns[start - 1].seat !== me) start -= 1;
  return turns.slice(start, end);
}

const ONE_COLUMN = "(max-width: 1100px)";  // app.css: the side column folds into the page there

export class TurnStory {
  // side: the table's aside (prompt and log live there)
  constructor(side) {
    this.side = side;
    this.line = h("p.story-line");
    this.list = h("ol.story-list", { tabindex: "0" });  // (a list that scrolls is reached by the keyboard too)
    this.summary = h("summary.story-since");
    this.details = h("details.story-more", null, this.summary, this.list);
    this.el = h("section.turn-story", { hidden: true }, this.line, this.details);
    this.el.setAttribute("aria-label", t("story.title"));
    this.media = window.matchMedia(ONE_COLUMN);
    this.onMedia = () => this.place();
    this.media.addEventListener("change", this.onMedia);
    this.place();
  }

  // Under the prompt in one column, else the head of the log.
  place() {
    const prompt = this.side.querySelector(".prompt");
    const log = this.side.querySelector(".log");
    if (this.media.matches) prompt.after(this.el);
    else log.querySelector("h2").after(this.el);
    // at the head of the log it scrolls when long (Ukrainian and Polish accounts are): the
    // keyboard reaches it there, as the log's lines (under the prompt it never scrolls)
    if (this.media.matches) this.el.removeAttribute("tabindex");
    else this.el.tabIndex = 0;
  }

  update(ctx, story, events) {
    if (!story) return;
    const me = ctx.isMe(ctx.me) ? ctx.me : null;
    const turns = sinceMine(turnsOf(story, events), me).filter((tr) => tr.seat !== me);
    const told = turns.map((tr) => ({ seat: tr.seat, text: story.account(ctx, tr.seat, tr.events) })).filter((x) => x.text);
    this.el.hidden = !told.length;
    if (!told.length) return;
    const dot = (seat) => h("span.seat-dot", { style: { background: ctx.color(seat) }, "aria-hidden": "true" });
    const last = told[told.length - 1];
    clear(this.line).append(dot(last.seat), h("span.text", null, last.text));
    this.details.hidden = told.length < 2;
    this.summary.textContent = me === null ? t("story.recent", { n: told.length }) : t("story.since", { n: told.length });
    this.list.setAttribute("aria-label", this.summary.textContent);
    clear(this.list).append(...told.map((x) => h("li", null, dot(x.seat), h("span.text", null, x.text))));
  }

  relabel() { this.el.setAttribute("aria-label", t("story.title")); }

  destroy() { this.media.removeEventListener("change", this.onMedia); }
}
