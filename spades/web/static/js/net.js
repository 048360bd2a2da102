// Talking to `spades serve`: HTTP under /api and the WebSocket at /ws (docs/protocol.md).
// The connection says hello with the stored token, reconnects by itself with a backoff, and
// matches each action to its ack or error by `ref`.

import { store } from "./storage.js";

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const token = store.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  const type = res.headers.get("content-type") || "";
  if (type.includes("json")) data = await res.json().catch(() => null);
  else data = await res.text();
  if (!res.ok) {
    const detail = data && (data.detail || data.message);
    const msg = typeof detail === "string" ? detail
      : Array.isArray(detail) ? detail.map((d) => d.msg || String(d)).join("; ")
        : `${res.status} ${res.statusText}`;
    const err = new Error(msg);
    err.status = res.status;
    err.detail = detail;
    err.data = data; // the whole answer (a 413 of POST /api/records has `room` beside `detail`)
    err.retryAfter = res.headers.get("Retry-After");
    throw err;
  }
  return data;
}

export class Connection {
  constructor() {
    this.ws = null;
    this.handlers = new Map();
    this.pending = new Map();
    this.nextRef = 1;
    this.wanted = false;
    this.backoff = 500;
    this.ready = false;
    this.queue = [];
    this.status = "offline";
  }

  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, []);
    this.handlers.get(type).push(fn);
  }

  emit(type, msg) {
    for (const fn of this.handlers.get(type) || []) fn(msg);
    for (const fn of this.handlers.get("*") || []) fn(msg);
  }

  setStatus(status) {
    this.status = status;
    this.emit("status", { type: "status", status });
  }

  open() {
    this.wanted = true;
    if (this.ws && this.ws.readyState <= 1) return;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.setStatus("connecting");
    ws.onopen = () => {
      this.backoff = 500;
      // (results "new": the page keeps the scored hands itself, TableView.keepResults, and
      // each event frame brings only the new ones: frames do not grow as a match goes on)
      ws.send(JSON.stringify({ type: "hello", token: store.token() || "", results: "new" }));
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "welcome") {
        this.ready = true;
        this.setStatus("online");
        const waiting = this.queue.splice(0);
        for (const text of waiting) ws.send(text);
      }
      // an answer to a request: its ack or error, or a reply of its own type (e.g. `hint`)
      if (msg.ref != null && this.pending.has(msg.ref)) {
        const { resolve, reject } = this.pending.get(msg.ref);
        this.pending.delete(msg.ref);
        if (msg.type === "error") reject(Object.assign(new Error(msg.message), msg)); else resolve(msg);
      }
      this.emit(msg.type, msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return; // an old socket (closed for a new session)
      this.ready = false;
      this.ws = null;
      for (const { reject } of this.pending.values()) {
        reject(Object.assign(new Error("The connection was lost."), { code: "offline" }));
      }
      this.pending.clear();
      this.setStatus("offline");
      if (e.code === 4401 || e.code === 4001) this.emit("auth_failed", { type: "auth_failed" });
      if (this.wanted) {
        setTimeout(() => this.open(), this.backoff);
        this.backoff = Math.min(8000, this.backoff * 2);
      }
    };
  }

  close() {
    this.wanted = false;
    this.ready = false;
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  /** Send a message; resolves on its ack, rejects on its error (with .code and .message). */
  request(msg) {
    const ref = this.nextRef++;
    const text = JSON.stringify({ ...msg, ref });
    const promise = new Promise((resolve, reject) => this.pending.set(ref, { resolve, reject }));
    if (this.ready && this.ws && this.ws.readyState === 1) this.ws.send(text);
    else { this.queue.push(text); this.open(); }
    return promise;
  }

  /** Fire and forget (the reply, if any, arrives as a message). */
  send(msg) {
    this.request(msg).catch(() => {});
  }
}
