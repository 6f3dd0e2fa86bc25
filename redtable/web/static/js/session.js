// A live connection to one game: WebSocket with reconnect, snapshot + events, decide and undo.

export class Session {
  constructor(gameId, token, on) {
    this.gameId = gameId;
    this.token = token;
    this.on = on; // {state(msg), update(msg), error(msg), status(s), presence(msg), accepted(msg)}
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
    this.onVisible = () => { if (!document.hidden && this.status !== "open") this.reconnectNow(); };
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onVisible);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws${q}`;
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
      if (e.code === 4004 || e.code === 4003) {
        this.setStatus("failed");
        return;
      }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
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
        });
        this.events.push(...(msg.events || []));
        if (this.pending && (msg.by === this.snap.seat || (this.pending.version && msg.version >= this.pending.version))) this.pending = null;
        this.on.update && this.on.update(msg);
        break;
      case "accepted":
        // the decision is committed; the table stays inert until its update has arrived
        if (this.pending && this.pending.id === msg.id && this.snap && this.snap.version >= msg.version) this.pending = null;
        else if (this.pending && this.pending.id === msg.id) this.pending.version = msg.version;
        this.on.accepted && this.on.accepted(msg);
        break;
      case "presence":
        if (this.snap) this.snap.seats = msg.seats;
        this.on.presence && this.on.presence(msg);
        break;
      case "error":
        this.pending = null;
        if (msg.error === "stale_version") this.send({ type: "sync" });
        this.on.error && this.on.error(msg);
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
