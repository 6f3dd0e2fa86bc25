// Friends (friends_api.py): the follow and block buttons of a player (profile, table, end screen),
// the lobby's Friends panel (invitations, friends' open tables and live games, who is online),
// the invitation card every page shows when a friend invites this account (live from a table's
// socket, else from the poll), and the waiting room's "invite a friend" picker of the creator.
import { h, clear, toast, icon } from "./dom.js";
import { t } from "./i18n.js";
import { api, get, post, saveSeat, creatorKey } from "./api.js";
import { currentUser } from "./account.js";

const enc = encodeURIComponent;
const gameHash = (gid) => `#/game/${enc(gid)}`;
const same = (a, b) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

// ---------------------------------------------------------------------- follow / block buttons
// A player's Follow and Block buttons (null for a guest or for oneself); `small`: a seat row's.
export function relationButtons(username, small = false) {
  if (!currentUser() || !username || same(currentUser(), username)) return null;
  const box = h("span.friend-actions", { "data-player": username });
  let rel = null;
  let busy = false;
  function render() {
    const following = rel && rel.following;
    const blocking = rel && rel.blocking;
    clear(box).append(
      h("button.btn.ghost.small.follow-btn" + (small ? ".tight" : "") + (following ? ".on" : ""), {
        type: "button", disabled: busy || !rel || blocking, "aria-pressed": following ? "true" : "false",
        title: t(following ? "friends.unfollow_help" : "friends.follow_help", { player: username }),
        onclick: () => change(following ? "DELETE" : "PUT", "friends"),
      }, icon(following ? "check" : "plus"), " ", t(following ? "friends.following" : "friends.follow")),
      h("button.btn.ghost.small.block-btn" + (small ? ".tight" : "") + (blocking ? ".on" : ""), {
        type: "button", disabled: busy || !rel, "aria-pressed": blocking ? "true" : "false",
        title: t(blocking ? "friends.unblock_help" : "friends.block_help", { player: username }),
        onclick: () => change(blocking ? "DELETE" : "PUT", "blocks"),
      }, t(blocking ? "friends.unblock" : "friends.block")));
  }
  async function change(method, what) {
    busy = true;
    render();
    try {
      rel = await api(method, `/api/${what}/${enc(username)}`);
      const key = what === "friends" ? (rel.following ? "friends.followed" : "friends.unfollowed") : (rel.blocking ? "friends.blocked" : "friends.unblocked");
      toast(t(key, { player: username }));
    } catch (e) {
      toast(e.message, "error", 6000);
    } finally {
      busy = false;
      render();
    }
  }
  get(`/api/friends/${enc(username)}`).then((r) => { rel = r; render(); }).catch(() => { box.hidden = true; });
  render();
  return box;
}

// The players of a table who play as their account, each with Follow and Block (null for a
// guest): the table's "Game info" and the end screen show it.
export function playersSection(gameId, nameOf) {
  if (!currentUser()) return null;
  const box = h("section.table-friends", { "aria-labelledby": `tf-h-${gameId}`, hidden: true });
  get(`/api/games/${enc(gameId)}/accounts`).then((r) => {
    const others = (r.players || []).filter((p) => !same(p.username, currentUser()));
    if (!others.length) return;
    box.hidden = false;
    box.append(h("h2", { id: `tf-h-${gameId}` }, t("friends.at_table")),
      h("ul.table-friend-list", null, others.map((p) => h("li.table-friend", { "data-seat": p.seat, "data-player": p.username },
        h("a.player-link", { href: `#/players/${enc(p.username)}` }, nameOf ? nameOf(p.seat, p.username) : p.username),
        relationButtons(p.username, true)))));
  }).catch(() => {});
  return box;
}

// The account page's list of the players this account blocks, each with Unblock (made once; it
// reads the list when first shown and after each change).
export function blockedList() {
  const box = h("section.settings-blocks", { "aria-labelledby": "blocks-h" });
  let blocks = null;
  function render() {
    clear(box).append(h("h2#blocks-h", null, t("friends.blocked_title")), h("p.muted", null, t("friends.blocked_help")));
    if (blocks === null) return;
    if (!blocks.length) { box.append(h("p.muted.small.blocks-empty", null, t("friends.blocked_none"))); return; }
    box.append(h("ul.blocked-list", null, blocks.map((b) => h("li.blocked", { "data-player": b.username },
      h("a.player-link", { href: `#/players/${enc(b.username)}` }, b.username),
      h("button.btn.small.ghost.unblock", { type: "button", onclick: (e) => unblock(b.username, e.currentTarget) }, t("friends.unblock"))))));
  }
  async function load() {
    try { blocks = (await get("/api/blocks")).blocks; } catch (e) { blocks = []; }
    render();
  }
  async function unblock(name, btn) {
    btn.disabled = true;
    try {
      await api("DELETE", `/api/blocks/${enc(name)}`);
      toast(t("friends.unblocked", { player: name }));
    } catch (e) { toast(e.message, "error", 6000); }
    load();
  }
  render();
  if (currentUser()) load();
  return box;
}

// ---------------------------------------------------------------------- accepting an invitation
async function accept(inv, btn) {
  if (btn) btn.disabled = true;
  try {
    const r = await post(`/api/invitations/${inv.invite_id}/accept`, {});
    saveSeat(r.game_id, { token: r.token, seat: r.seat, name: r.name });
    popup.drop(inv.invite_id);
    location.hash = gameHash(r.game_id);
  } catch (e) {
    toast(e.message, "error", 6000);
    if (btn) btn.disabled = false;
    popup.drop(inv.invite_id);
  }
}

async function decline(inv) {
  try { await post(`/api/invitations/${inv.invite_id}/decline`, {}); } catch (e) { /* gone already */ }
  popup.drop(inv.invite_id);
}

function inviteText(inv) {
  return t("friends.invites_you", { player: inv.from || "?", title: t("title." + inv.game) });
}

function inviteActions(inv, after) {
  return h("div.actions.invite-actions", null,
    h("button.btn.small.primary.accept-invite", { type: "button", onclick: (e) => accept(inv, e.currentTarget) }, t("friends.accept")),
    h("button.btn.small.ghost.decline-invite", { type: "button", onclick: async () => { await decline(inv); if (after) after(); } }, t("friends.decline")));
}

// ---------------------------------------------------------------------- the card on every page
class InvitePopup {
  constructor() {
    this.shown = new Map();  // invite_id -> the invitation, shown (or dismissed) on this page
    this.gone = new Set();   // answered or dismissed here
    this.el = null;
    this.timer = null;
  }

  start() {
    if (this.timer) return;
    const again = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { this.poll().finally(again); }, document.hidden ? 30000 : 15000);
    };
    this.poll().finally(again);
    window.addEventListener("redtable:friend-invite", () => this.poll());
  }

  async poll() {
    if (!currentUser() || navigator.onLine === false) { this.show([]); return; }
    try {
      const r = await get("/api/invitations");
      this.show(r.invites || []);
    } catch (e) { /* the next round */ }
  }

  drop(id) { this.gone.add(id); this.show([...this.shown.values()]); }

  // the lobby lists them in its Friends panel: no card while that list is in sight
  show(invites) {
    this.shown = new Map(invites.filter((x) => !this.gone.has(x.invite_id)).map((x) => [x.invite_id, x]));
    const listed = /^#?\/?$/.test(location.hash || "") && document.querySelector(".friends-panel .friend-invites");
    const box = listed ? listed.getBoundingClientRect() : null;
    const inSight = box && box.bottom > 0 && box.top < window.innerHeight;
    const list = inSight ? [] : [...this.shown.values()];
    if (!list.length) { if (this.el) { this.el.remove(); this.el = null; } return; }
    if (!this.el) {
      this.el = h("aside.invite-pop", { role: "region", "aria-label": t("friends.invitations"), "aria-live": "polite" });
      document.body.append(this.el);
    }
    clear(this.el).append(...list.slice(0, 3).map((inv) => h("div.invite-card", { "data-invite": inv.invite_id },
      h("p", null, icon("users"), " ", inviteText(inv)),
      inviteActions(inv, null),
      h("button.btn.small.ghost.dismiss", { type: "button", "aria-label": t("friends.later"), title: t("friends.later"),
        onclick: () => this.drop(inv.invite_id) }, "×"))));
  }

  relabel() { this.show([...this.shown.values()]); }
}

export const popup = new InvitePopup();

// ---------------------------------------------------------------------- the lobby's panel
export class FriendsPanel {
  constructor() {
    this.el = h("section.panel.friends-panel", { "aria-labelledby": "friends-h" });
    this.data = null;
    this.timer = null;
  }

  start() {
    this.load();
    this.timer = setInterval(() => { if (!document.hidden) this.load(); }, 10000);
    return this;
  }

  destroy() { clearInterval(this.timer); }

  async load() {
    if (!currentUser()) { this.data = null; this.render(); return; }
    try { this.data = await get("/api/friends"); } catch (e) { return; }
    this.render();
  }

  render() {
    const d = this.data;
    this.el.hidden = !currentUser();
    if (this.el.hidden) { clear(this.el); return; }
    const names = (fs) => fs.map((f) => f.username).join(", ");
    const parts = [h("h2#friends-h", null, icon("users"), " ", t("friends.title"))];
    if (!d) { parts.push(h("p.muted", null, t("players.loading"))); clear(this.el).append(...parts); return; }
    if (d.invites.length) {
      parts.push(h("h3", null, t("friends.invitations")), h("ul.friend-invites", null, d.invites.map((inv) =>
        h("li.friend-invite", { "data-invite": inv.invite_id }, h("p", null, inviteText(inv)), inviteActions(inv, () => this.load())))));
    }
    if (d.tables.length) {
      parts.push(h("h3", null, t("friends.open_tables")), h("ul.friend-tables", null, d.tables.map((x) =>
        h("li.friend-table", { "data-game": x.game_id },
          h("span.game-title." + x.game, null, h("span.dot", { "aria-hidden": "true" }), t("title." + x.game)),
          h("span.muted.small", null, names(x.friends), " · ", t("tables.seated", { n: x.seated, total: x.players })),
          h("button.btn.small.primary.sit", { type: "button", onclick: (e) => this.sit(x, e.currentTarget) }, t("tables.sit"))))));
    }
    if (d.games.length) {
      parts.push(h("h3", null, t("friends.live_games")), h("ul.friend-games", null, d.games.map((x) =>
        h("li.friend-game", { "data-game": x.game_id },
          h("span.game-title." + x.game, null, h("span.dot", { "aria-hidden": "true" }), t("title." + x.game)),
          h("span.muted.small", null, names(x.friends)),
          h("a.btn.small.watch", { href: gameHash(x.game_id) + "?watch=1" }, t("friends.watch"))))));
    }
    if (d.friends.length) {
      parts.push(h("ul.friend-list", { "aria-label": t("friends.following_list") }, d.friends.map((f) =>
        h("li.friend" + (f.online ? ".online" : ""), { "data-player": f.username },
          h("span.presence", { title: t(f.online ? "friends.online" : "friends.offline") }, h("span.sr", null, t(f.online ? "friends.online" : "friends.offline"))),
          h("a", { href: `#/players/${enc(f.username)}` }, f.username)))));
    } else {
      parts.push(h("p.muted.small.friends-empty", null, t("friends.none")));
    }
    clear(this.el).append(...parts);
  }

  async sit(x, btn) {
    btn.disabled = true;
    try {
      const r = await post(`/api/games/${enc(x.game_id)}/sit`, { name: null });
      saveSeat(x.game_id, { token: r.token, seat: r.seat, name: r.name });
      location.hash = gameHash(x.game_id);
    } catch (e) {
      toast(e.message, "error", 6000);
      btn.disabled = false;
      this.load();
    }
  }
}

// ---------------------------------------------------------------------- the waiting room's picker
// The creator (logged in, with the creator_key) invites a followed player to an empty seat.
export class InvitePicker {
  constructor(gameId, onChange) {
    this.gameId = gameId;
    this.onChange = onChange;
    this.friends = null;   // followed names
    this.pending = {};     // seat -> invited name
    this.choice = {};      // seat -> the name picked in the select
    this.busy = false;
    this.loaded = false;
  }

  async load() {
    if (this.loaded || !currentUser() || !creatorKey(this.gameId)) return;
    this.loaded = true;
    try {
      const [mine, sent] = await Promise.all([
        get("/api/friends"),
        get(`/api/games/${enc(this.gameId)}/friend-invites`, creatorKey(this.gameId)),
      ]);
      this.friends = mine.friends.map((f) => f.username);
      this.pending = Object.fromEntries(sent.invites.map((x) => [x.seat, x.username]));
    } catch (e) {
      this.friends = [];
    }
    this.onChange();
  }

  // the controls of one empty seat (null when there is nobody to invite; `first`: the first empty
  // seat, the only one that says how to get friends to invite)
  controls(seat, first = true) {
    if (!currentUser() || !creatorKey(this.gameId)) return null;
    if (this.friends === null) { this.load(); return null; }
    const invited = this.pending[seat];
    if (!this.friends.length && !invited) return first ? h("p.muted.small.no-friends", null, t("friends.invite_none")) : null;
    const pick = this.choice[seat] || this.friends[0];
    return h("div.wait-invite", null,
      invited ? h("p.small.invited", { "data-seat": seat }, icon("users"), " ", t("friends.invited", { player: invited }),
        h("button.btn.small.ghost.withdraw", { type: "button", "data-key": `withdraw:${seat}`, disabled: this.busy,
          title: t("friends.withdraw_help", { player: invited }), onclick: () => this.withdraw(seat) }, t("friends.withdraw"))) : null,
      this.friends.length ? h("div.wait-actions", null,
        h("label.inline", null, h("span.sr", null, t("friends.invite_label", { n: seat + 1 })),
          h("select.invite-friend", { "data-key": `friend:${seat}`, onchange: (e) => { this.choice[seat] = e.target.value; } },
            this.friends.map((n) => h("option", { value: n, selected: n === pick }, n)))),
        h("button.btn.small.invite-send", { type: "button", "data-key": `send:${seat}`, disabled: this.busy, onclick: () => this.send(seat) },
          icon("users"), " ", t("friends.invite"))) : null);
  }

  async withdraw(seat) {
    this.busy = true;
    this.onChange();
    try {
      await api("DELETE", `/api/games/${enc(this.gameId)}/friend-invites/${seat}`, undefined, creatorKey(this.gameId));
      delete this.pending[seat];
    } catch (e) {
      toast(e.message, "error", 6000);
    } finally {
      this.busy = false;
      this.onChange();
    }
  }

  async send(seat) {
    const name = this.choice[seat] || (this.friends || [])[0];
    if (!name) return;
    this.busy = true;
    this.onChange();
    try {
      await post(`/api/games/${enc(this.gameId)}/friend-invites`, { username: name, seat }, creatorKey(this.gameId));
      for (const [s, n] of Object.entries(this.pending)) if (n === name) delete this.pending[s];
      this.pending[seat] = name;
      toast(t("friends.invite_sent", { player: name }));
    } catch (e) {
      toast(e.message, "error", 6000);
    } finally {
      this.busy = false;
      this.onChange();
    }
  }
}

