// Talking to the game server (docs/protocol.md, version 1): HTTP calls with the guest token,
// one WebSocket per table that reconnects by itself and resumes from the last event seen (naming the
// node that runs the table, for a balancer that routes by it), and a plain WebSocket for the messages
// about friends (presence, requests, invitations) on other screens.

export const AUTH_KEY = "hokm.auth.v1";
export const PROTOCOL_VERSION = 1;
/** What the server may send any time after `welcome`, at a table or not: news about friends. */
export const SOCIAL_MESSAGES = ["friend_presence", "friend_request", "friend_accepted", "invitation"];

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

export function loadAuth() {
  try { return JSON.parse(localStorage.getItem(AUTH_KEY) || "null"); } catch { return null; }
}

export function saveAuth(auth) {
  try { localStorage.setItem(AUTH_KEY, JSON.stringify(auth)); } catch { /* storage refused: keep it in memory */ }
}

export class Api {
  constructor(base = "") {
    this.base = base;
    this.auth = loadAuth();
  }

  async request(method, path, body) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (this.auth && this.auth.token) headers.Authorization = `Bearer ${this.auth.token}`;
    let res;
    try {
      res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      throw new ApiError(0, "network", String(err));
    }
    let data = null;
    const text = await res.text();
    try { data = text ? JSON.parse(text) : null; } catch { data = text; }
    if (!res.ok) {
      const e = (data && data.error) || {};
      throw new ApiError(res.status, e.code || `http_${res.status}`, e.message || res.statusText);
    }
    return data;
  }

  get(path) { return this.request("GET", path); }
  post(path, body = {}) { return this.request("POST", path, body); }
  del(path) { return this.request("DELETE", path); }

  /** Forget a token the server refused and ask for a new one under the same nickname. */
  async renew() {
    const nick = this.auth && this.auth.nickname;
    this.auth = null;
    return this.ensureGuest(nick);
  }

  /** A guest identity for this nickname: reuse the stored one, else ask the server for one. */
  async ensureGuest(nickname) {
    const nick = (nickname || "").trim().slice(0, 24) || "Guest";
    if (this.auth && this.auth.token && (this.auth.username || this.auth.nickname === nick)) {
      try {
        await this.get("/api/me");
        return this.auth;
      } catch (err) {
        if (err.code !== "unauthorized" && err.status !== 401) throw err;
      }
    }
    if (this.auth && this.auth.username) this.auth = null;
    const g = await this.post("/api/guest", { nickname: nick });
    this.auth = { token: g.token, player_id: g.player_id, nickname: g.nickname };
    saveAuth(this.auth);
    return this.auth;
  }
}

/**
 * One table's live connection. handlers: onState(msg), onEvent(msg), onHint(msg), onError(msg),
 * onStatus("connecting" | "open" | "lost"), onMatched(msg).
 */
export class TableSocket {
  constructor(api, tableId, handlers, { code = null } = {}) {
    this.api = api;
    this.tableId = tableId;
    this.code = code; // a private room's invite code: watching one needs it (members need none)
    this.withCode = false;
    this.h = handlers;
    this.lastSeq = null;
    this.seats = null; // the table's seats as last sent: an `events` message carries them only when they changed
    this.view = null; // the view of this connection's last message with one: a `view_patch` changes some of its members
    this.closed = false;
    this.attempt = 0;
    this.ws = null;
    this.joined = false;
    this.pingTimer = null;
    // The node that runs the table (TableInfo.node; null on a single node): connecting with it lets a
    // balancer send us to that node. A connection with it that fails before the table's state arrives
    // drops it, so a node gone never strands the player; the next state names the node again.
    this.node = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws` + (this.node ? `?node=${encodeURIComponent(this.node)}` : "");
  }

  open() {
    if (this.closed) return;
    this.h.onStatus && this.h.onStatus(this.attempt ? "lost" : "connecting");
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.retry(); return; }
    this.ws = ws;
    const hinted = !!this.node;
    let reached = false; // this connection brought the table's state
    ws.onopen = () => {
      // A batch of table events comes as one message (one frame, the view once, as a patch of the
      // last one where the server can, the seats when they changed).
      this.view = null;
      this.send({ type: "hello", token: this.api.auth.token, batch: true, view_patches: true });
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "state") reached = true;
      this.handle(msg);
    };
    ws.onclose = (ev) => {
      this.joined = false;
      if (hinted && !reached) this.node = null; // the hinted node did not serve us: any node will
      clearInterval(this.pingTimer);
      if (this.closed) return;
      if (ev.code === 4001) {
        // The server no longer knows our token (a wiped data folder): get a fresh identity, then retry.
        this.api.renew().then(() => this.retry(), () => this.retry());
        return;
      }
      this.retry();
    };
    ws.onerror = () => { /* onclose follows and retries */ };
  }

  retry() {
    if (this.closed) return;
    this.attempt += 1;
    this.h.onStatus && this.h.onStatus("lost");
    // Back off gently: 0.5 s, 1 s, 2 s, ... at most 8 s; a phone waking up reconnects fast.
    const wait = Math.min(8000, 500 * 2 ** Math.min(this.attempt - 1, 4));
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), wait);
  }

  handle(msg) {
    switch (msg.type) {
      case "welcome":
        this.join();
        break;
      case "state":
        if (msg.table) this.node = msg.table.node || null;
        this.seats = msg.table ? msg.table.seats : null;
        this.view = msg.view;
        this.joined = true;
        this.attempt = 0;
        this.h.onStatus && this.h.onStatus("open");
        this.h.onState && this.h.onState(msg);
        this.lastSeq = msg.seq;
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
        break;
      case "event":
        this.seats = msg.seats;
        this.view = msg.view;
        if (this.lastSeq !== null && msg.seq <= this.lastSeq) return; // already seen
        this.lastSeq = msg.seq;
        this.h.onEvent && this.h.onEvent(msg);
        break;
      case "events":
        // Read as the `event` messages it stands for, each with the view after the batch, as those carry.
        if (msg.seats) this.seats = msg.seats;
        if ("view_patch" in msg) {
          if (!this.view) { this.ws && this.ws.close(); break; } // nothing to patch: join again for a whole view
          this.view = Object.assign({}, this.view, msg.view_patch);
        } else {
          this.view = msg.view;
        }
        for (const e of msg.events) {
          if (this.lastSeq !== null && e.seq <= this.lastSeq) continue; // already seen
          this.lastSeq = e.seq;
          this.h.onEvent && this.h.onEvent({ v: msg.v, type: "event", seq: e.seq, at: e.at, event: e.event, view: this.view,
            seats: this.seats, status: msg.status, deadline: msg.deadline });
        }
        break;
      case "hint":
        this.h.onHint && this.h.onHint(msg);
        break;
      case "matched":
        this.h.onMatched && this.h.onMatched(msg);
        break;
      case "error":
        // A private room we are not a member of: watch it with the code we arrived with, if any.
        if (msg.code === "code_required" && msg.ref === "join" && this.code && !this.withCode) {
          this.withCode = true;
          this.join();
          break;
        }
        // Too many tables opened in a row (reconnections, several tabs): open this one again a moment later.
        if (msg.code === "rate_limited" && msg.ref === "join" && !this.closed) {
          clearTimeout(this.retryTimer);
          this.retryTimer = setTimeout(() => this.join(), 1500);
          break;
        }
        this.h.onError && this.h.onError(msg);
        break;
      default:
        // A friend's request or invitation reaches the player at a table too.
        if (SOCIAL_MESSAGES.includes(msg.type)) this.h.onSocial && this.h.onSocial(msg);
        break;
    }
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: PROTOCOL_VERSION, ...obj }));
    return true;
  }

  join() {
    const msg = { type: "join", table: this.tableId, last_seq: this.lastSeq };
    if (this.withCode) msg.code = this.code;
    this.send(msg);
  }

  action(action) { return this.send({ type: "action", action, seq: this.lastSeq }); }
  hint() { return this.send({ type: "hint" }); }
  back() { return this.send({ type: "back" }); }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) try { this.ws.close(1000); } catch { /* already closed */ }
  }
}

/**
 * A WebSocket that only says hello and passes on the news about friends (`SOCIAL_MESSAGES`) while a screen
 * without a table shows; it reconnects by itself. Returns what closes it.
 */
export function socialSocket(api, onMessage) {
  let ws = null;
  let closed = false;
  let timer = null;
  let attempt = 0;
  const open = () => {
    if (closed || !api.auth) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ v: PROTOCOL_VERSION, type: "hello", token: api.auth.token }));
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "welcome") attempt = 0;
      else if (SOCIAL_MESSAGES.includes(msg.type)) onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (closed || ev.code === 4001) return;
      attempt += 1;
      timer = setTimeout(open, Math.min(8000, 500 * 2 ** Math.min(attempt, 4)));
    };
  };
  open();
  return () => { closed = true; clearTimeout(timer); if (ws) try { ws.close(1000); } catch { /* gone */ } };
}
