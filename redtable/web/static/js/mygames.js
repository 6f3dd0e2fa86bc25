// "My games": the games this browser plays (its seat tokens, and the logged-in account's), whose
// turn it is and the time left; and, on every page, the watch that tells when it is my turn: a
// count in the top bar, "(n) redtable" in the tab title, an in-page notice and (with
// permission) a browser notification. The seat tokens travel in the body of
// POST /api/my/games, never in a URL.
import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { post, seatsHeld } from "./api.js";
import { clockText, clockLabel, remainingNow } from "./clockview.js";
import { notify, notifySupported, notifyAllowed, askNotify } from "./notify.js";

const HELD_MAX = 50;

async function fetchMine() {
  const held = Object.entries(seatsHeld()).filter(([, s]) => s && typeof s.token === "string").slice(-HELD_MAX);
  return post("/api/my/games", { seats: held.map(([game_id, s]) => ({ game_id, token: s.token })) });
}

function onGamePage() { return /^#\/game\//.test(location.hash || ""); }
// the game this page shows: a table (#/game/<id>), its replay (#/replay/<id>) or a lesson of the
// tutorial (#/learn/<title>/<id>): no notice of it covers the page
function openGameId() {
  const m = (location.hash || "").match(/^#\/(?:game|replay|learn\/[^/?]+)\/([^/?]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}

// ---------------------------------------------------------------------- the watch (every page)
class TurnWatch {
  constructor() {
    this.games = [];
    this.mine = null;      // ids of the games waiting for me (null before the first answer)
    this.received = 0;
    this.timer = null;
    this.listeners = new Set();
    this.busy = false;
  }

  start() {
    if (this.timer) return;
    const again = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { this.poll().finally(again); }, document.hidden ? 15000 : (/^#\/my-games/.test(location.hash) ? 4000 : 8000));
    };
    this.poll().finally(again);
    window.addEventListener("hashchange", () => setTimeout(() => this.title(), 0));  // (after the page left set its own)
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.poll(); });
  }

  onChange(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  get count() { return this.mine ? this.mine.size : 0; }

  async poll() {
    if (this.busy || navigator.onLine === false) return;  // offline: the next round after it is back
    this.busy = true;
    try {
      const games = await fetchMine();
      this.received = Date.now();
      this.games = games.filter((g) => !g.gone);
      const now = new Set(this.games.filter((g) => g.my_turn).map((g) => g.game_id));
      const fresh = this.mine ? [...now].filter((id) => !this.mine.has(id)) : [];
      this.mine = now;
      for (const id of fresh) this.announce(this.games.find((g) => g.game_id === id));
      this.badges();
      this.title();
      for (const fn of this.listeners) fn(this);
    } catch (e) {
      /* offline or rate-limited: the next poll tries again */
    } finally {
      this.busy = false;
    }
  }

  // A game just became mine: an in-page notice (not for the game this page shows: its table says it) and a notification.
  announce(g) {
    if (!g) return;
    const name = t("title." + g.game);
    const hash = `#/game/${encodeURIComponent(g.game_id)}`;
    if (openGameId() !== g.game_id) {
      const box = document.querySelector(".turn-notices") || document.body.appendChild(h("div.turn-notices", { role: "status", "aria-live": "polite" }));
      const note = h("div.turn-notice", { "data-game": g.game_id },
        h("span", null, t("turn.notice", { title: name })), " ",
        h("a.btn.small.primary", { href: hash, onclick: () => note.remove() }, t("turn.open")),
        h("button.icon-btn.dismiss", { type: "button", "aria-label": t("info.close"), onclick: () => note.remove() }, "×"));
      box.append(note);
      setTimeout(() => note.remove(), 20000);
    }
    if (document.hidden || openGameId() !== g.game_id) notify(t("turn.notify_title"), t("turn.notice", { title: name }), g.game_id, hash);
  }

  badges() {
    for (const el of document.querySelectorAll(".mygames-count")) {
      el.textContent = String(this.count);
      el.hidden = this.count === 0;
    }
    for (const el of document.querySelectorAll(".nav-mygames")) {
      // the name stays the visible text ("My games 2"); the sentence is its description
      if (this.count) el.title = t("nav.my_games_n", { n: this.count });
      else el.removeAttribute("title");
    }
  }

  // "(2) redtable" while games wait for me; a table page keeps its own title ("● " when it is my turn there).
  title() {
    if (onGamePage()) return;
    const want = this.count ? `(${this.count}) redtable` : "redtable";
    if (document.title !== want && /^(\(\d+\) )?redtable$/.test(document.title)) document.title = want;
  }
}

export const watch = new TurnWatch();
window.__turnWatch = watch;  // (tests poll it at once instead of waiting for the next round)

// The top bar's link (main.js) with its count badge.
export function myGamesLink(hash) {
  const link = h("a.nav-mygames", { href: "#/my-games", "aria-current": /^#\/my-games/.test(hash) ? "page" : null },
    t("nav.my_games"), h("span.mygames-count", { hidden: watch.count === 0 }, String(watch.count)));
  return link;
}

// ---------------------------------------------------------------------- the page (#/my-games)
export function mountMyGames(root) {
  const page = h("section.panel.mygames", { "aria-labelledby": "mygames-h" });
  root.append(page);
  let ticker = null;

  function row(g) {
    const seatName = g.seat !== null && g.seat !== undefined && g.seats[g.seat] ? (g.seats[g.seat].name || t("seat.n", { n: g.seat + 1 })) : "—";
    const turnName = g.turn !== null && g.turn !== undefined && g.seats[g.turn] ? (g.seats[g.turn].name || t("seat.n", { n: g.turn + 1 })) : null;
    let state;
    if (g.status === "abandoned") state = t("mygames.closed");
    else if (g.status === "finished") state = t("mygames.finished");
    else if (!g.ready) state = t("table.waiting_players", { n: g.seated, total: g.players });
    else if (g.my_turn) state = t("mygames.your_turn");
    else state = turnName ? t("mygames.their_turn", { player: turnName }) : "";
    const clock = g.clock && g.status === "active" && g.ready
      ? h("span.mygames-clock", { "data-game": g.game_id }, clockText(remainingNow(g.clock, watch.received)[g.seat ?? 0]))
      : null;
    return h("li.mygames-row" + (g.my_turn ? ".mine" : ""), { "data-game": g.game_id },
      h("div.game-title." + g.game, null, h("span.dot", { "aria-hidden": "true" }), t("title." + g.game),
        g.rated ? h("span.badge.rated", null, t("players.rated")) : null,
        h("span.badge.speed", null, clockLabel(g.clock))),
      h("div.mygames-state", null, state, clock ? [" · ", t("mygames.your_time"), " ", clock] : null),
      h("div.muted.small", null, t("mygames.as", { name: seatName })),
      h("div.game-actions", null,
        g.status === "active" || g.status === "waiting"
          ? h("a.btn.small" + (g.my_turn ? ".primary" : ""), { href: `#/game/${encodeURIComponent(g.game_id)}` }, g.my_turn ? t("mygames.play") : t("mygames.open"))
          : h("a.btn.small", { href: `#/replay/${encodeURIComponent(g.game_id)}` }, t("lobby.replay")),
        g.status === "finished"
          ? h("a.btn.small.review-link", { href: `#/review/${encodeURIComponent(g.game_id)}?seat=${g.seat ?? 0}` }, t("review.open"))
          : null));
  }

  function render() {
    clear(page);
    const games = watch.games;
    const live = (g) => g.status === "active" || g.status === "waiting";  // (waiting: for its seats to be taken)
    const active = games.filter(live);
    const ended = games.filter((g) => !live(g)).slice(0, 10);
    const mine = active.filter((g) => g.my_turn);
    const rest = active.filter((g) => !g.my_turn);
    const notes = notifySupported() && !notifyAllowed() && window.Notification.permission !== "denied"
      ? h("button.btn.small.ghost.ask-notify", { type: "button", onclick: async () => {
        const on = await askNotify();
        toast(on ? t("turn.notify_on") : t("turn.notify_off"));
        render();
      } }, t("turn.notify_ask"))
      : notifyAllowed() ? h("span.muted.small.notify-on", null, t("turn.notify_on")) : null;
    const parts = [
      h("div.panel-head", null, h("h1#mygames-h", null, t("nav.my_games")), notes),
      watch.mine === null ? h("p.loading", null, t("table.loading")) : null,
      watch.mine !== null && !games.length ? h("p.empty", null, t("mygames.none"), " ", h("a", { href: "#/" }, t("nav.lobby"))) : null,
      ...(mine.length ? [h("h2", null, t("mygames.waiting_for_you", { n: mine.length })), h("ul.mygames-list", null, mine.map(row))] : []),
      ...(rest.length ? [h("h2", null, t("mygames.others")), h("ul.mygames-list", null, rest.map(row))] : []),
      ...(ended.length ? [h("h2", null, t("mygames.ended")), h("ul.mygames-list.ended", null, ended.map(row))] : []),
    ];
    page.append(...parts.filter(Boolean));  // (the DOM's append writes null as text)
  }

  function tick() {
    for (const el of page.querySelectorAll(".mygames-clock")) {
      const g = watch.games.find((x) => x.game_id === el.dataset.game);
      if (g && g.clock) el.textContent = clockText(remainingNow(g.clock, watch.received)[g.seat ?? 0]);
    }
  }

  const off = watch.onChange(render);
  render();
  watch.poll();
  ticker = setInterval(tick, 500);
  return { destroy() { off(); clearInterval(ticker); }, relabel: render };
}
