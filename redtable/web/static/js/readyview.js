// The "ready" confirmation of a rated open table (the server's readycheck.py): once the table is
// full, each person confirms within a short limit, or loses the seat and the table waits again.
// A dialog for a seated person who has not confirmed yet (with the time left); after confirming,
// or for a spectator, the table strip's banner says who the table waits for.
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { post } from "./api.js";

export class ReadyPrompt {
  constructor(gameId, getToken) {
    this.gameId = gameId;
    this.getToken = getToken;
    this.snap = null;
    this.received = 0;
    this.sending = false;
    this.overlay = null;
    this.timer = setInterval(() => this.tick(), 250);
  }

  // seconds left by the server's clock, counted on from when the snapshot came
  left() {
    const c = this.snap && this.snap.confirm;
    if (!c) return 0;
    return Math.max(0, c.until - c.now - (Date.now() - this.received) / 1000);
  }

  update(snap) {
    this.snap = snap;
    this.received = Date.now();
    this.render();
  }

  render() {
    const s = this.snap;
    const c = s && s.confirm;
    const seat = s ? s.seat : null;
    const mine = !!c && seat !== null && seat !== undefined && !c.ready.includes(seat) && !!this.getToken();
    if (!mine) { this.close(); return; }
    if (this.overlay && document.body.contains(this.overlay)) { this.tick(); return; }
    const button = h("button.btn.primary.ready-btn", { type: "button", onclick: () => this.confirm(button) }, t("ready.button"));
    this.overlay = h("div.overlay.ready-overlay", { role: "dialog", "aria-modal": "true", "aria-labelledby": "ready-h", "aria-describedby": "ready-p" },
      h("div.dialog.ready-card", null,
        h("div.dialog-head", null, h("h1#ready-h", null, t("ready.title"))),
        h("p#ready-p", null, t("ready.body")),
        h("p.ready-left", { role: "timer", "aria-live": "off" }, ""),
        h("p.muted.small.ready-count", null, t("ready.count", { n: c.ready.length, total: s.players })),
        h("div.actions", null, button)));
    document.body.append(this.overlay);
    this.tick();
    button.focus();
  }

  tick() {
    if (!this.overlay) return;
    const el = this.overlay.querySelector(".ready-left");
    if (el) el.textContent = t("ready.left", { s: Math.ceil(this.left()) });
  }

  async confirm(button) {
    if (this.sending) return;
    this.sending = true;
    button.disabled = true;
    try {
      await post(`/api/games/${encodeURIComponent(this.gameId)}/ready`, undefined, this.getToken());
      this.close();
    } catch (e) {
      toast(e.message, "error", 6000);
      button.disabled = false;
    } finally {
      this.sending = false;
    }
  }

  close() {
    if (this.overlay) this.overlay.remove();
    this.overlay = null;
  }

  relabel() { this.close(); this.render(); }

  destroy() { clearInterval(this.timer); this.close(); }
}
