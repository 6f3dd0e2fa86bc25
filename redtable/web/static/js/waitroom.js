// The waiting room: the table page of a game whose seats are not all taken yet (the server says
// `status: "waiting"`: nobody decides, no bot moves, no clock runs). Who has joined (live: the
// server's presence messages), each empty seat's invite link to copy or share (the Web Share
// API where the device has it, a copy button otherwise). The creator (this browser kept the
// game's creator_key) makes a new link (the old one stops working), gives an empty seat to a
// bot, or starts at once with bots in every empty seat; the others read who is still awaited.
import { h, clear, toast, copyText, icon, isTouch } from "./dom.js";
import { t, list, has } from "./i18n.js";
import { get, post, creatorKey, invitesFor, saveInvite } from "./api.js";
import { InvitePicker } from "./friends.js";

const BOTS = ["random", "heuristic", "ismcts:0.2s", "ismcts:1s", "expert:1s"];  // (until GET /api/titles answers)
let presets = null;

function botName(b) { return has("bot." + b) ? t("bot." + b) : String(b); }

// Share where the device offers it (phones), copy otherwise.
export function canShare() {
  return typeof navigator.share === "function" && isTouch();
}

// An invite link: the read-only address, and a Share or Copy button.
function linkField(url, label, title) {
  const input = h("input.invite-url", { type: "text", readonly: true, value: url, "aria-label": label, "data-key": "link:" + label, onfocus: (e) => e.target.select() });
  let btn;
  if (canShare()) {
    btn = h("button.btn.small.share-invite", {
      type: "button", onclick: async () => {
        try {
          await navigator.share({ title: t("join.title"), text: t("wait.share_text", { title }), url });
        } catch (e) { /* closed without sharing */ }
      },
    }, icon("copy"), " ", t("wait.share"));
  } else {
    btn = h("button.btn.small.copy", {
      type: "button", onclick: async () => {
        const ok = await copyText(url);
        clear(btn).append(icon("copy"), " ", ok ? t("lobby.copied") : t("lobby.copy"));
      },
    }, icon("copy"), " ", t("lobby.copy"));
  }
  return h("div.invite-field", null, input, btn);
}

export class WaitingRoom {
  constructor(gameId) {
    this.gameId = gameId;
    this.el = h("section.waitroom", { "aria-labelledby": "waitroom-h", hidden: true });
    this.snap = null;
    this.busy = false;
    this.bot = "heuristic";
    this.seen = null;  // the seats joined when last rendered (who came is told)
    this.wasWaiting = false;
    this.picker = new InvitePicker(gameId, () => { if (this.snap && !this.el.hidden) this.render(); });  // a friend to a seat (friends.js)
  }

  get creator() { return !!creatorKey(this.gameId); }

  // after every message; show: the table waits for its seats (not a ready check: readyview.js says that)
  // nameOf(seat), colorOf(seat): the table's names and colours
  update(snap, nameOf, colorOf) {
    this.snap = snap;
    this.nameOf = nameOf;
    this.colorOf = colorOf;
    this.bots = presets || BOTS;
    if (!presets && snap.status === "waiting" && this.creator) {
      presets = [];
      get("/api/titles").then((ts) => { presets = (ts[0] && ts[0].bots) || BOTS; if (this.snap) this.update(this.snap, this.nameOf, this.colorOf); })
        .catch(() => { presets = null; });
    }
    if (!this.bots.length) this.bots = BOTS;
    if (!this.bots.includes(this.bot)) this.bot = this.bots.includes("heuristic") ? "heuristic" : this.bots[0];
    const waiting = snap.status === "waiting" && !snap.confirm;
    const joined = snap.seats.filter((s) => s.type === "human" && s.joined).map((s) => s.seat);
    if (this.seen && waiting) {
      for (const seat of joined) if (!this.seen.includes(seat) && seat !== snap.seat) toast(t("wait.came", { player: nameOf(seat) }), "info", 5000);
    }
    if (this.wasWaiting && snap.status === "active") toast(t("wait.started"), "info", 5000);
    this.seen = joined;
    this.wasWaiting = waiting;
    this.el.hidden = !waiting;
    if (!waiting) { clear(this.el); return; }
    if (this.el.contains(document.activeElement) && document.activeElement.tagName === "SELECT") return;  // (not under the reader's hands)
    this.render();
  }

  render() {
    const s = this.snap;
    const seats = s.seats;
    const open = seats.filter((x) => x.type === "human" && !x.joined);
    const taken = seats.filter((x) => x.joined).length;
    const creator = this.creator;
    const host = s.host && s.host.name ? s.host.name : null;
    const title = t("title." + s.game);
    const links = invitesFor(this.gameId);
    const focused = document.activeElement && this.el.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    clear(this.el).append(...[
      h("h2#waitroom-h", null, t("wait.title")),
      h("p.wait-lead", { role: "status" }, t("wait.lead", { n: taken, total: s.players })),
      creator ? h("p.muted.small", null, t("wait.help_creator")) : null,
      s.open ? h("p.muted.small.wait-listed", null, t("wait.listed")) : null,
      h("ul.wait-seats", null, seats.map((x) => {
        const i = x.seat;
        const me = s.seat === i;
        const state = x.type === "bot" ? null : x.joined ? (x.connected ? t("wait.here") : t("wait.away")) : t("wait.not_yet");
        const row = h("li.wait-seat" + (x.joined ? ".joined" : ".open") + (x.type === "bot" ? ".bot" : ""), { "data-seat": i },
          h("div.wait-who", null,
            h("span.seat-dot", { style: { background: this.colorOf(i) }, "aria-hidden": "true" }),
            x.type === "bot" ? icon("bot") : null,
            h("span.wait-name", null, x.joined || x.type === "bot" ? this.nameOf(i) : t("seat.n", { n: i + 1 })),
            me ? h("span.badge.you", null, t("seat.you")) : null,
            s.host && s.host.seat === i ? h("span.badge.host", null, t("wait.host")) : null,
            state ? h("span.wait-state.small" + (x.joined ? ".ok" : ".muted"), null, state) : null));
        if (creator && x.type === "human" && !x.joined) {
          const url = links[i];
          row.append(
            ...[this.picker.controls(i, i === open[0].seat)].filter(Boolean),
            url ? linkField(url, t("wait.link_label", { n: i + 1 }), title) : h("p.muted.small.no-link", null, t("wait.no_link")),
            h("div.wait-actions", null,
              h("button.btn.small.ghost.new-invite", { type: "button", "data-key": `new:${i}`, title: t("lobby.new_invite_help"), disabled: this.busy, onclick: () => this.reissue(i) },
                t("lobby.new_invite")),
              h("button.btn.small.ghost.seat-bot", { type: "button", "data-key": `bot:${i}`, title: t("wait.to_bot_label", { n: i + 1 }), disabled: this.busy, onclick: () => this.toBot([i]) },
                icon("bot"), " ", t("wait.to_bot"))));
        }
        return row;
      })),
      creator && open.length ? h("div.wait-start", null,
        h("label.inline", null, t("lobby.strength"), " ",
          h("select.wait-bot", { onchange: (e) => { this.bot = e.target.value; } },
            this.bots.map((b) => h("option", { value: b, selected: b === this.bot }, botName(b))))),
        h("button.btn.primary.start-bots", { type: "button", "data-key": "start", disabled: this.busy, "aria-describedby": "wait-start-help", onclick: () => this.toBot(null) },
          icon("bot"), " ", t("wait.start_bots")),
        h("p#wait-start-help.muted.small", null, t("wait.start_help"))) : null,
      !creator && open.length ? h("p.wait-awaiting", null,
        t("wait.awaiting", { players: list(open.map((x) => t("seat.n", { n: x.seat + 1 }))) }), " ",
        host ? t("wait.help_guest", { host }) : t("wait.help_guest_anon")) : null,
    ].filter(Boolean));
    if (focused) {
      const again = this.el.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  async reissue(seat) {
    this.busy = true;
    this.render();
    try {
      const r = await post(`/api/games/${encodeURIComponent(this.gameId)}/seats/${seat}/invite`, undefined, creatorKey(this.gameId));
      saveInvite(this.gameId, seat, location.origin + r.invite_url);
      toast(t("lobby.invite_replaced"));
    } catch (e) {
      toast(e.message, "error", 6000);
    } finally {
      this.busy = false;
    }
    if (this.snap) this.render();
  }

  // seats: the empty seats to give to bots (null: all of them, and the game starts)
  async toBot(seats) {
    this.busy = true;
    this.render();
    try {
      const body = seats ? { bot: this.bot, seats } : { bot: this.bot };
      const r = await post(`/api/games/${encodeURIComponent(this.gameId)}/fill-bots`, body, creatorKey(this.gameId));
      toast(t("tables.filled", { n: r.seats.length }));
    } catch (e) {
      toast(e.message, "error", 6000);
    } finally {
      this.busy = false;
    }
    if (this.snap && !this.el.hidden) this.render();
  }

  relabel() { if (this.snap && !this.el.hidden) this.render(); }
}
