// The table chat (server: redtable/server/chat.py): the players' channel and the spectators'.
//
// Seats write in the players' channel and, while the game runs, never see the spectators'
// one (the server does not send it to them); spectators read both and write in theirs. A
// message is text: it is only ever put in the page as a text node (h() children, never
// innerHTML). A seat can mute another seat or the spectators (kept by the server for the
// seat, on every device). Beside the board the chat is a section above the log that folds
// to its title; on a phone it is a drawer opened from the status bar, with an unread count.
// In a replay it shows the messages written up to the step shown.
import { h, clear, svg } from "./dom.js";
import { t } from "./i18n.js";
import { get, errorText } from "./api.js";
import { reportButton } from "./moderation.js";

const MAX = 300;  // characters, counted as the server counts them (code points, once NFC)
const KEEP = 400;  // messages kept in the page
const OPEN_KEY = "redtable.chat.open";

// The count the server applies: code points of the NFC text, without the invisible characters it drops.
const INVISIBLE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;
export function chatLength(text) {
  return [...String(text).normalize("NFC").replace(INVISIBLE, "").replace(/\s+/g, " ").trim()].length;
}

function chatIcon() {
  return svg("svg", { viewBox: "0 0 24 24", class: "icon icon-chat", "aria-hidden": "true" },
    svg("path", { d: "M4 5 H20 V16 H10 L5 20 V16 H4 Z" }));
}

function muteIcon() {
  return svg("svg", { viewBox: "0 0 24 24", class: "icon icon-mute", "aria-hidden": "true" },
    svg("path", { d: "M4 9 H8 L13 5 V19 L8 15 H4 Z" }), svg("path", { d: "M16 9 L21 14 M21 9 L16 14", class: "x" }));
}

function clock(at) {
  try {
    return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  } catch (e) {
    return "";
  }
}

export class ChatPanel {
  // section: the shell's <section class="chat">; shell: the table shell (its "chat-open" class);
  // mode: "live" (send(obj) writes on the game's socket) or "replay" (fetched, read only);
  // getCtx(): the table's context (seat names and colours); getToken(): this device's seat token.
  constructor({ section, shell, gameId, mode, getCtx, getToken, send }) {
    this.section = section;
    this.shell = shell;
    this.gameId = gameId;
    this.mode = mode;
    this.getCtx = getCtx;
    this.getToken = getToken || (() => null);
    this.send = send || (() => false);
    this.messages = new Map();  // chat_id -> message
    this.channels = ["players"];
    this.write = null;
    this.seat = null;
    this.muted = [];
    this.tab = null;
    this.unread = { players: 0, spectators: 0 };
    this.step = Infinity;  // a replay shows the messages written up to this step
    this.sent = 0;
    this.pending = null;  // {id, text} waiting for its echo
    this.finished = false;
    this.jump = false;

    const bodyId = `chat-body-${Math.random().toString(36).slice(2, 8)}`;
    this.badge = h("strong.chat-badge", { hidden: true });
    this.fold = h("button.chat-fold", { type: "button", "aria-expanded": "false", "aria-controls": bodyId },
      chatIcon(), h("span.chat-title"), this.badge);
    this.tabs = h("div.chat-tabs", { role: "tablist", hidden: true });
    // (with its word, not an icon alone: a crossed speaker read as the table's sounds)
    this.muteBtn = h("button.btn.small.chat-mute-btn", { type: "button", hidden: true, "aria-expanded": "false" },
      muteIcon(), h("span.mute-label"));
    this.mutes = h("div.chat-mutes", { hidden: true });
    this.lines = h("ol.chat-lines", { "aria-live": "polite", "aria-relevant": "additions", tabindex: "0" });
    this.note = h("p.chat-note.muted.small", { hidden: true });
    this.input = h("input.chat-input", { type: "text", autocomplete: "off", enterkeyhint: "send", spellcheck: "true" });
    this.count = h("span.chat-count", { "aria-live": "off" });
    this.sendBtn = h("button.btn.small.primary.chat-send", { type: "submit" });
    this.form = h("form.chat-form", { hidden: true }, this.input, this.count, this.sendBtn);
    this.error = h("p.chat-error.small", { role: "status", hidden: true });
    this.body = h("div.chat-body", { id: bodyId }, this.mutes, this.lines, this.note, this.form, this.error);
    clear(section).append(h("div.chat-head", null, h("h2", null, this.fold), this.tabs, this.muteBtn), this.body);
    section.hidden = false;

    // the status bar's opener (a phone's drawer; beside the board the section's title folds it)
    this.countBadge = h("strong.chat-badge", { hidden: true });
    this.button = h("button.btn.small.chattoggle", { type: "button", "aria-expanded": "false", "aria-controls": bodyId },
      chatIcon(), h("span.chat-label"), this.countBadge);

    this.fold.addEventListener("click", () => this.setOpen(!this.isOpen()));
    this.button.addEventListener("click", () => {
      this.setOpen(!this.isOpen());
      if (this.isOpen()) this.section.scrollIntoView({ block: "nearest" });
    });
    this.muteBtn.addEventListener("click", () => {
      this.mutes.hidden = !this.mutes.hidden;
      this.muteBtn.setAttribute("aria-expanded", String(!this.mutes.hidden));
      this.renderMutes();
    });
    this.tabs.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-channel]");
      if (b) this.show(b.dataset.channel);
    });
    this.tabs.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
      const i = this.channels.indexOf(this.tab);
      const next = this.channels[(i + (e.key === "ArrowRight" ? 1 : this.channels.length - 1)) % this.channels.length];
      this.show(next);
      const b = this.tabs.querySelector(`[data-channel="${next}"]`);
      if (b) b.focus();
    });
    this.input.addEventListener("input", () => this.counter());
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.submit(); });
    this.mutes.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-target]");
      if (!b) return;
      const target = b.dataset.target === "spectators" ? "spectators" : Number(b.dataset.target);
      this.send({ type: "mute", target, muted: b.getAttribute("aria-pressed") !== "true", id: `mute${++this.sent}` });
    });
    this.onVisible = () => { if (!document.hidden) this.seen(); };
    document.addEventListener("visibilitychange", this.onVisible);
    let open = false;
    try { open = localStorage.getItem(OPEN_KEY) === "1"; } catch (e) { open = false; }
    this.setOpen(open, false);
    this.relabel();
  }

  isOpen() { return this.shell.classList.contains("chat-open"); }

  setOpen(open, remember = true) {
    this.shell.classList.toggle("chat-open", open);
    this.fold.setAttribute("aria-expanded", String(open));
    this.button.setAttribute("aria-expanded", String(open));
    if (remember) { try { localStorage.setItem(OPEN_KEY, open ? "1" : "0"); } catch (e) { /* private mode */ } }
    if (open) { this.seen(); this.toBottom(); }
  }

  // ------------------------------------------------------------------ what the server says
  // chat_history (on connect, after a mute, or fetched): the readable channels and the newest messages
  history(msg) {
    this.channels = msg.channels || ["players"];
    this.write = msg.write || null;
    this.seat = msg.seat ?? null;
    this.muted = msg.muted || [];
    const fresh = new Map();
    for (const m of msg.messages || []) fresh.set(m.chat_id, m);
    const newest = Math.max(0, ...fresh.keys());
    for (const [id, m] of this.messages) if (id > newest && this.readable(m)) fresh.set(id, m);  // arrived meanwhile
    this.messages = new Map([...fresh].sort((a, b) => a[0] - b[0]));
    if (!this.tab || !this.channels.includes(this.tab)) {
      // live: where one writes; a replay: the players' talk first
      this.tab = this.mode === "live" && this.channels.includes(this.write) ? this.write : this.channels[0];
    }
    this.renderMutes();
    this.render();
  }

  readable(m) {
    return this.channels.includes(m.channel) && !this.muted.some((x) => String(x) === (m.seat === null ? "spectators" : String(m.seat)));
  }

  // a live message (the author's own comes back with the id it was sent with: it was stored)
  message(msg) {
    if (msg.type === "chat_removed") {  // a moderator removed it: everyone reads that it was, not what it said
      const m = this.messages.get(msg.chat_id);
      if (m) { m.removed = true; m.text = ""; this.render(true); }
      return;
    }
    if (this.messages.has(msg.chat_id)) return;
    this.messages.set(msg.chat_id, msg);
    if (this.messages.size > KEEP) this.messages.delete(this.messages.keys().next().value);
    const own = this.pending && msg.id === this.pending.id;
    if (own) {
      this.pending = null;
      this.jump = true;  // one's own message is always brought into sight
      this.input.value = "";
      this.counter();
      this.showError(null);
    } else if (!this.visible(msg.channel)) {
      this.unread[msg.channel] = (this.unread[msg.channel] || 0) + 1;
    }
    this.render();
  }

  // an error answering what this panel sent (a chat or a mute): said under the form
  refused(msg) {
    if (!msg || msg.id === undefined || msg.id === null) return false;
    const id = String(msg.id);
    if (!id.startsWith("chat") && !id.startsWith("mute")) return false;
    if (this.pending && this.pending.id === msg.id) this.pending = null;
    this.showError(errorText(msg));
    this.counter();
    return true;
  }

  // the game ended: its seats may now read the spectators' channel too
  async gameOver() {
    if (this.finished || this.mode !== "live") return;
    this.finished = true;
    try {
      const r = await get(`/api/games/${encodeURIComponent(this.gameId)}/chat`, this.getToken());
      this.history(r);
    } catch (e) { /* the next connect sends it */ }
  }

  // ------------------------------------------------------------------ replay
  async load() {
    const all = [];
    let before = null;
    let info = null;
    for (let page = 0; page < 40; page++) {
      const q = before ? `?limit=500&before=${before}` : "?limit=500";
      info = await get(`/api/games/${encodeURIComponent(this.gameId)}/chat${q}`, this.getToken());
      all.unshift(...info.messages);
      if (!info.more || !info.messages.length) break;
      before = info.messages[0].chat_id;
    }
    this.history({ ...info, messages: all });
  }

  setStep(step) {
    this.step = step;
    this.render();
  }

  // ------------------------------------------------------------------ drawing
  visible(channel) {
    return this.isOpen() && this.tab === channel && !document.hidden;
  }

  seen() {
    if (this.isOpen() && this.tab && !document.hidden) this.unread[this.tab] = 0;
    this.renderBadges();
  }

  show(channel) {
    if (!this.channels.includes(channel)) return;
    this.tab = channel;
    this.seen();
    this.render();
    this.toBottom();
  }

  toBottom() { this.lines.scrollTop = this.lines.scrollHeight; }

  authorOf(m) {
    const ctx = this.getCtx && this.getCtx();
    if (m.seat !== null && m.seat !== undefined) {
      const name = ctx ? ctx.name(m.seat) : m.author || t("seat.n", { n: m.seat + 1 });
      return { name, color: ctx ? ctx.color(m.seat) : null };
    }
    return { name: m.guest ? t("chat.guest", { tag: m.author }) : m.author, color: null };
  }

  // full: draw every line again (names or the language changed); otherwise new lines are only
  // appended, so that a screen reader reads out the new message and not the whole list again
  render(full = false) {
    const jump = this.jump;
    this.jump = false;
    const atBottom = this.lines.scrollHeight - this.lines.scrollTop - this.lines.clientHeight < 24;
    const shown = [...this.messages.values()].filter((m) => m.channel === this.tab && this.readable(m) && m.step <= this.step);
    const ids = shown.map((m) => m.chat_id);
    const drawn = this.drawn || [];
    const extend = !full && this.drawnTab === this.tab && drawn.length > 0 && drawn.length <= ids.length
      && drawn.every((id, i) => ids[i] === id);
    if (!extend) clear(this.lines);
    for (const m of extend ? shown.slice(drawn.length) : shown) this.lines.append(this.line(m));
    if (!shown.length) this.lines.append(h("li.chat-empty.muted", null, t("chat.empty")));
    this.drawn = ids;
    this.drawnTab = this.tab;
    if (atBottom || jump) this.toBottom();
    this.renderTabs();
    this.renderForm();
    this.renderBadges();
  }

  line(m) {
    const who = this.authorOf(m);
    const mine = this.seat !== null && m.seat === this.seat;
    return h("li.chatline" + (mine ? ".mine" : "") + (m.seat === null ? ".spect" : "") + (m.removed ? ".removed" : ""), { "data-chat": m.chat_id },
      who.color ? h("span.seat-dot", { style: { background: who.color }, "aria-hidden": "true" }) : null,
      h("span.chat-who", { title: clock(m.at) }, who.name, mine ? ` (${t("table.you")})` : ""),
      " ",
      m.removed ? h("span.chat-text.muted", null, t("chat.removed")) : h("span.chat-text", null, m.text),
      this.mode === "live" && !mine && !m.removed
        ? reportButton({ kind: "message", chat_id: m.chat_id }, t("report.title.message"), `${who.name}: ${m.text}`) : null);
  }

  renderTabs() {
    this.tabs.hidden = this.channels.length < 2;
    clear(this.tabs);
    for (const c of this.channels) {
      const n = this.unread[c] || 0;
      this.tabs.append(h("button.chat-tab", {
        type: "button", role: "tab", "data-channel": c, "aria-selected": String(c === this.tab),
        tabindex: c === this.tab ? "0" : "-1",
      }, t("chat." + c), n ? h("strong.chat-badge", null, String(n)) : null));
    }
  }

  renderForm() {
    const live = this.mode === "live";
    const mine = live && this.write && this.tab === this.write;
    this.form.hidden = !mine;
    this.note.hidden = !live || mine || !this.tab;
    if (!this.note.hidden) this.note.textContent = this.tab === "players" ? t("chat.seats_write") : t("chat.spectators_write");
    this.muteBtn.hidden = !live || this.seat === null;
    this.counter();
  }

  renderBadges() {
    const n = Object.values(this.unread).reduce((a, b) => a + b, 0);
    for (const b of [this.badge, this.countBadge]) {
      b.hidden = n === 0;
      b.textContent = n ? String(n) : "";
    }
    this.button.title = n ? t("chat.unread", { n }) : t("chat.title");
  }

  renderMutes() {
    clear(this.mutes);
    if (this.mutes.hidden) return;
    const ctx = this.getCtx && this.getCtx();
    const seats = ctx && ctx.seats ? ctx.seats : [];
    const targets = seats.filter((s) => s.type === "human" && s.seat !== this.seat).map((s) => [String(s.seat), ctx.name(s.seat)]);
    targets.push(["spectators", null]);
    this.mutes.append(h("p.muted.small", null, t("chat.mute_help")));
    for (const [target, name] of targets) {
      const on = this.muted.some((x) => String(x) === target);
      const label = name === null
        ? t(on ? "chat.unmute_spectators" : "chat.mute_spectators")
        : t(on ? "chat.unmute" : "chat.mute", { name });
      this.mutes.append(h("button.btn.small.chat-mute" + (on ? ".on" : ""), {
        type: "button", "data-target": target, "aria-pressed": String(on),
      }, muteIcon(), " ", label));
    }
  }

  counter() {
    const n = chatLength(this.input.value);
    this.count.textContent = `${n}/${MAX}`;
    this.count.classList.toggle("over", n > MAX);
    this.sendBtn.disabled = n === 0 || n > MAX || !!this.pending;
  }

  showError(text) {
    this.error.hidden = !text;
    this.error.textContent = text || "";
  }

  submit() {
    const text = this.input.value;
    const n = chatLength(text);
    if (!n || n > MAX || this.pending || !this.write) return;
    const id = `chat${++this.sent}`;
    if (!this.send({ type: "chat", channel: this.write, text, id })) {
      this.showError(t("table.offline"));
      return;
    }
    this.pending = { id, text };
    this.counter();
  }

  relabel() {
    this.section.setAttribute("aria-label", t("chat.title"));
    this.section.querySelector(".chat-title").textContent = t("chat.title");
    this.button.querySelector(".chat-label").textContent = t("chat.title");
    this.muteBtn.querySelector(".mute-label").textContent = t("chat.mutes");
    this.muteBtn.title = t("chat.mute_help");
    this.lines.setAttribute("aria-label", t("chat.title"));
    this.input.setAttribute("aria-label", t("chat.placeholder"));
    this.input.placeholder = t("chat.placeholder");
    this.sendBtn.textContent = t("chat.send");
    this.renderMutes();
    this.render(true);
  }

  destroy() {
    document.removeEventListener("visibilitychange", this.onVisible);
  }
}
