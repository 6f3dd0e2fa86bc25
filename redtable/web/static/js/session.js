// A live connection to one game: WebSocket with reconnect, snapshot + events, decide and undo.
// The URL carries no secret: the first message on every (re)connection is
// {"type": "auth", "token": ...} (null: a spectator), then the server sends the snapshot.

// Close codes the server uses when it refuses the auth message or ends the connection.
export const CLOSE = { malformed: 4000, tokenInUrl: 4001, badToken: 4003, unknownGame: 4004, ended: 4008, signedOut: 4010, rateLimited: 4029 };

export class Session {
  constructor(gameId, token, on) {
    this.gameId = gameId;
    this.token = token;
    this.on = on; // {state(msg), update(msg), error(msg), status(s), presence(msg), ended(why, msg)}
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.status = "connecting";
    this.snap = null;
    this.events = [];
    this.pending = null; // {id, action}
    this.seq = 0;
    this.lastError = null; // the last error message, read when the socket closes (retry_after, code)
    this.onVisible = () => { if (!document.hidden && this.status !== "open") this.reconnectNow(); };
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onVisible);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`;
  }

  setStatus(s) {
    this.status = s;
    this.on.status && this.on.status(s);
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      // the first message, before anything else is sent on this socket
      ws.send(JSON.stringify({ type: "auth", token: this.token || null }));
      this.lastError = null;
      this.attempt = 0;
      this.setStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      this.handle(msg);
    };
    ws.onclose = (e) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      this.pending = null;
      if (this.closed) return;
      const err = this.lastError;
      this.lastError = null;
      if (e.code === CLOSE.signedOut || (err && err.error === "signed_out")) return this.end("signed_out", err);
      if (e.code === CLOSE.badToken) return this.end("bad_token", err);
      if (e.code === CLOSE.unknownGame) return this.end("unknown_game", err);
      if (e.code === CLOSE.tokenInUrl || e.code === CLOSE.malformed) return this.end("failed", err);
      if (e.code === CLOSE.rateLimited) {
        const wait = Math.max(1, Number(err && err.retry_after) || 5) * 1000;
        this.setStatus("reconnecting");
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.connect(), wait * (1 + Math.random() * 0.2));
        return;
      }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  // The server will not take this socket back as it was: tell the page (it may reconnect, say as a spectator).
  end(why, msg) {
    this.setStatus("failed");
    this.on.ended && this.on.ended(why, msg || {});
  }

  schedule() {
    if (this.closed) return;
    this.attempt += 1;
    this.setStatus("reconnecting");
    const delay = Math.min(8000, 400 * 2 ** Math.min(this.attempt - 1, 5)) * (0.8 + Math.random() * 0.4);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.closed || (this.ws && this.ws.readyState <= 1)) return;
    this.attempt = Math.max(1, this.attempt);
    this.connect();
  }

  // For tests and the "reconnect" button: drop the socket as if the network failed.
  drop() {
    if (this.ws) this.ws.close();
  }

  handle(msg) {
    switch (msg.type) {
      case "state":
        this.snap = msg;
        this.events = msg.events || [];
        this.pending = null;
        this.on.state && this.on.state(msg);
        break;
      case "update":
        if (!this.snap) return;
        if (msg.version <= this.snap.version) return;
        Object.assign(this.snap, {
          version: msg.version, step: msg.step, status: msg.status, view: msg.view, decision: msg.decision,
          can_undo: msg.can_undo, result: msg.result,
          clock: msg.clock, ready: msg.ready, seated: msg.seated, forfeited: msg.forfeited, closed: msg.closed,
        });
        this.events.push(...(msg.events || []));
        // the decider's own update (it carries the request's id) ends what it was waiting for
        if (this.pending && (msg.by === this.snap.seat || (msg.id != null && msg.id === this.pending.id))) this.pending = null;
        this.on.update && this.on.update(msg);
        break;
      case "presence":
        if (this.snap) this.snap.seats = msg.seats;
        this.on.presence && this.on.presence(msg);
        break;
      case "error":
        this.lastError = msg;
        if (!/^(chat|mute)/.test(String(msg.id ?? ""))) this.pending = null;  // (a chat refusal leaves a decision pending)
        if (msg.error === "stale_version") this.send({ type: "sync" });
        this.on.error && this.on.error(msg);
        break;
      case "chat": // the table chat (chat.js): a message, or the history on connect and after a mute
      case "chat_history":
      case "chat_removed": // a moderator removed a message (moderation.js)
        this.on.chat && this.on.chat(msg);
        break;
      case "notice": // something the table should tell (a bot that failed and played at random, say)
        this.on.notice && this.on.notice(msg);
        break;
      case "rematch": // a finished game's rematch offer changed (rematch.js)
        this.on.rematch && this.on.rematch(msg);
        break;
      case "mod_notice": // a moderator acted on this account (moderation.js)
        this.on.modNotice && this.on.modNotice(msg);
        break;
      case "friend_invite": // a friend invited this account to a table: the invitation card (friends.js)
        window.dispatchEvent(new CustomEvent("redtable:friend-invite", { detail: msg }));
        break;
      default:
        break;
    }
  }

  send(obj) {
    if (this.ws && this.ws.readyState === 1) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  decide(action) {
    if (!this.snap || this.pending) return false;
    const id = ++this.seq;
    if (!this.send({ type: "decide", action, version: this.snap.version, id })) return false;
    this.pending = { id, action };
    return true;
  }

  undo() {
    if (!this.snap || this.pending) return false;
    const id = ++this.seq;
    if (!this.send({ type: "undo", version: this.snap.version, id })) return false;
    this.pending = { id, action: null };
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onVisible);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
