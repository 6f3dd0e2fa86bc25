// The end screen's "play again": a rematch (the same seats, a new deal, the next player starts:
// rematch.py) offered, accepted or declined by each seat, and "New game" with the same options.
// The offer arrives over the game's WebSocket ({"type": "rematch"}) and is read once with GET
// when the game is over; accepting answers this seat's token at the new table, kept in this
// browser like any seat (a guest plays on from the same device, without a new link).
import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { get, post, seatFor, saveSeat, saveCreatorKey, errorText } from "./api.js";

function minutes(s) {
  const m = Math.max(0, Math.ceil(s / 60));
  return t("rematch.minutes", { n: m });
}

export class RematchBox {
  // getToken(): this seat's token (null: ask with the logged-in account); getCtx(): the table's context
  constructor({ gameId, getToken, getCtx, getSnap }) {
    this.gameId = gameId;
    this.getToken = getToken;
    this.getCtx = getCtx;
    this.getSnap = getSnap;
    this.state = null;
    this.loaded = false;
    this.busy = false;
    this.el = h("section.rematch", { "aria-label": t("rematch.title"), "aria-live": "polite" });
  }

  async load() {
    if (this.loaded) return;
    this.loaded = true;
    try {
      const got = await get(`/api/games/${encodeURIComponent(this.gameId)}/rematch`);
      if (!this.heard) this.set(got.rematch);
    } catch (e) { this.render(); }
  }

  // In the end screen's card: at its top while this seat is asked (the offer is what it must
  // answer), else under the result (the winner and the scorepad come first).
  place(card) {
    const top = this.asked();
    const anchor = top ? card.querySelector("#end-h") : card.querySelector(".fairness") || card.querySelector(":scope > .actions");
    if (!anchor) card.append(this.el);
    else if (top) anchor.after(this.el);
    else anchor.before(this.el);
  }

  // An offer from the socket (or an answer): what it says now.
  set(state, heard) {
    if (heard) this.heard = true;
    this.state = state || null;
    this.render();
    const card = this.el.closest(".endcard");
    if (card) this.place(card);
  }

  // Whether this seat is asked and has not answered (the end screen opens to show it).
  asked() {
    const st = this.state;
    const me = this.seat();
    return !!st && st.status === "open" && me !== null && st.people.includes(me) && !st.accepted.includes(me);
  }

  seat() {
    const s = this.getSnap();
    if (!s || s.seat === null || s.seat === undefined || s.tutorial) return null;
    return s.seat;
  }

  // decline, or accept (go: then open the new table, for a seat that accepted on another device)
  async answer(decline, go) {
    if (this.busy) return;
    this.busy = true;
    this.render();
    try {
      const r = await post(`/api/games/${encodeURIComponent(this.gameId)}/rematch`, decline ? { decline: true } : {}, this.getToken());
      if (!decline) saveSeat(r.game_id, { token: r.token, seat: r.seat, name: r.name });
      this.set(r.rematch);
      if (go && !decline) location.hash = `#/game/${encodeURIComponent(r.game_id)}`;
    } catch (e) {
      toast(errorText(e.body, e.status), "error", 6000);
      if (e.body && e.body.error === "rematch_over") { this.loaded = false; this.heard = false; this.load(); }
    } finally {
      this.busy = false;
      this.render();
    }
  }

  // "New game": a new table with the same title, players, bots, clock and options, made by this player.
  async newGame() {
    const s = this.getSnap();
    if (!s || this.busy) return;
    this.busy = true;
    this.render();
    const body = {
      game: s.game,
      seats: s.seats.map((x) => (x.type === "bot" ? { type: "bot", bot: x.bot } : { type: "human", name: s.rated ? null : x.name || null })),
      options: s.options,
      undo: !!s.undo && !s.rated,
      bot_delay: s.bot_delay || 0,
    };
    if (s.rated) body.rated = true;
    if (s.clock) {  // the option, without the running clock's seconds
      const { remaining, running, deadline, now, ...spec } = s.clock;
      body.clock = spec;
    }
    if (s.open) body.open = true;
    try {
      const g = await post("/api/games", body);
      saveCreatorKey(g.game_id, g.creator_key);
      const mine = g.seats[s.seat];
      if (mine && mine.invite) {
        const j = await post(`/api/games/${g.game_id}/join`, { invite: mine.invite, name: mine.name || null });
        saveSeat(g.game_id, { token: j.token, seat: j.seat, name: j.name });
      }
      location.hash = `#/game/${g.game_id}`;
    } catch (e) {
      toast(errorText(e.body, e.status), "error", 6000);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  render() {
    const me = this.seat();
    clear(this.el);
    this.el.hidden = me === null;
    if (me === null) return;
    const ctx = this.getCtx();
    const name = (i) => (ctx ? ctx.name(i) : t("seat.n", { n: i + 1 }));
    const st = this.state;
    const dis = this.busy;
    const go = (id) => h("a.btn.primary.rematch-go", { href: `#/game/${encodeURIComponent(id)}` }, t("rematch.go"));
    const offer = (label, go) => h("button.btn.primary.rematch-offer", { type: "button", disabled: dis, onclick: () => this.answer(false, go) }, label);
    const fresh = h("button.btn.new-same", { type: "button", disabled: dis, title: t("end.new_game_help"), onclick: () => this.newGame() }, t("end.new_game"));
    const row = (...items) => h("div.rematch-actions", null, ...items);
    if (!st || st.status === "declined" || st.status === "lapsed") {
      if (st && st.status === "declined") this.el.append(h("p.rematch-said", null, t("rematch.declined", { player: name(st.declined_by) })));
      if (st && st.status === "lapsed") this.el.append(h("p.rematch-said", null, t("rematch.lapsed")));
      this.el.append(h("p.muted.small.rematch-help", null, t("rematch.help")), row(offer(st ? t("rematch.again") : t("rematch.offer")), fresh));
      return;
    }
    const here = seatFor(st.game_id);  // this browser's seat at the new table
    const waiting = st.people.filter((x) => !st.accepted.includes(x));
    if (st.status === "started") {
      this.el.append(h("p.rematch-said", null, t("rematch.started")), row(here ? go(st.game_id) : offer(t("rematch.go"), true), fresh));
      return;
    }
    const left = minutes((st.until || 0) - (st.now || 0));
    if (!st.accepted.includes(me)) {
      this.el.append(h("p.rematch-said.rematch-asked", null, t("rematch.offered_by", { player: name(st.by) })),
        h("p.muted.small", null, t("rematch.help"), " ", t("rematch.time_left", { time: left })),
        row(h("button.btn.primary.rematch-accept", { type: "button", disabled: dis, onclick: () => this.answer(false) }, t("rematch.accept")),
          h("button.btn.rematch-decline", { type: "button", disabled: dis, onclick: () => this.answer(true) }, t("rematch.decline"))));
      return;
    }
    this.el.append(h("p.rematch-said", null, st.by === me ? t("rematch.you_offered") : t("rematch.you_accepted")),
      h("p.muted.small.rematch-waiting", null, t("rematch.waiting", { players: waiting.map(name).join(", ") }), " ", t("rematch.time_left", { time: left })),
      row(here ? go(st.game_id) : offer(t("rematch.go"), true),
        h("button.btn.ghost.rematch-decline", { type: "button", disabled: dis, onclick: () => this.answer(true) }, t("rematch.cancel"))));
  }
}
