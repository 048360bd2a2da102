// The page: session, routes (#/...), the reading pages, settings, help, and the keyboard.

import { Announcer } from "./announcer.js";
import { GLOSSARY, HAND_KEYS, PROFILES, rulesHtml, SHORTCUTS, STRATEGY, targetHint, WAITING_KEYS } from "./content.js";
import { clear, h, listJoin, NO_REASON, plural, reasonEnd, reasonSentence, scoreText } from "./dom.js";
import { api, Connection } from "./net.js";
import { SOUND_NAMES, Sounds } from "./sound.js";
import { store } from "./storage.js";
import { PLACES, sheetContent, sheetDialog, TableView, trapTab, unmarked } from "./table.js";
import { Voice } from "./voice.js";

/** How often a visitor's lobby (no socket yet) asks for the tables again. */
const LOBBY_POLL_MS = 5000;
// a table being opened (create, rematch, join by invite) that takes longer: said so
const STILL_OPENING_MS = 3000;
/** How JSON.parse says the text ended too early (Chromium, Firefox, Safari). */
const ENDED = /end of JSON|Unexpected end|end of data|Unexpected EOF/i;
/** How the server refuses an upload for review past its caps on records kept (413). */
/** A lobby row's status in words (the server's are "waiting", "active", "finished"). */
const LOBBY_STATUS = { waiting: "waiting to start", active: "playing", finished: "finished" };
const NO_ROOM = /^no room to keep this (record for review|upload to continue)/;

/** The offset of the first byte of ``bytes`` that is not UTF-8 (a lead byte with its
 * continuation bytes), or null when none is found. */
function firstBadByte(bytes) {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    const more = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (more < 0) return i;
    for (let k = 1; k <= more; k++) if (i + k >= bytes.length || (bytes[i + k] & 0xc0) !== 0x80) return i;
    i += more + 1;
  }
  return null;
}

/** "at line L, column C" of the end of ``before`` (the text before a place). */
function lineColumn(before) {
  const lines = before.split("\n");
  return `line ${lines.length}, column ${lines[lines.length - 1].length + 1}`;
}

/** Where JSON text goes wrong when the parser's message does not say: the length of the
 * shortest beginning of ``text`` that fails for another reason than ending early, less one
 * (the offset of the character that breaks it), or null when none is found. A beginning
 * ends early when the parser says so, or names its end as the place ("Unterminated string
 * in JSON at position 8" for 8 characters). */
function firstBadOffset(text) {
  const broken = (n) => {
    try {
      JSON.parse(text.slice(0, n));
      return false;
    } catch (ex) {
      const at = /position (\d+)/.exec(ex.message);
      return !ENDED.test(ex.message) && !(at && Number(at[1]) >= n);
    }
  };
  if (!broken(text.length)) return null;
  let low = 0; // text.slice(0, low) is not broken
  let high = text.length; // text.slice(0, high) is
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (broken(mid)) high = mid;
    else low = mid;
  }
  return high - 1;
}

/** The offset of the comma when JSON ``text`` stops at ``at`` on a "]" or "}" that follows a
 * comma with nothing between but white space, else null. */
function trailingComma(text, at) {
  if (at >= text.length || !"]}".includes(text[at])) return null;
  const before = text.slice(0, at).trimEnd();
  return before.endsWith(",") ? before.length - 1 : null;
}

/** Seats and sides named as the user saw them, for a row of the match history
 * (`GET /api/users/{id}/history`) and its score sheet: "You", the others by the names the
 * history gives; an uploaded record (sat nowhere) by its names. */
export function historyNamer(it) {
  const sides = it.sides && it.sides.length ? it.sides : null;
  const mine = (s) => !it.uploaded && s === it.seat;
  // (`mark: false`: a continued record's CPU without the "(CPU)" said in the sheet's head)
  const seatName = (s, { mark = true } = {}) => {
    const name = mine(s) ? "You" : it.names[s] || `Seat ${s + 1}`;
    return mark ? name : unmarked(name);
  };
  const sideName = (k) => {
    const seats = sides ? sides[k] || [] : [];
    if (seats.length === 1) return seatName(seats[0]);
    return listJoin(seats.map((s) => (mine(s) ? "you" : seatName(s))));
  };
  const sideTitle = (k) => { const t = sideName(k); return t ? t[0].toUpperCase() + t.slice(1) : t; };
  const mySide = sides && !it.uploaded ? sides.findIndex((seats) => seats.includes(it.seat)) : -1;
  const finals = (scores) => scores.map((p, k) => `${sideName(k)} ${scoreText(p)}`).join(", ");
  return {
    seatName, sideTitle,
    bidText: (bid) => {
      if (bid === null || bid === undefined || bid === "") return null;
      if (bid === "nil" || bid === 0 || bid === "0") return "Nil";
      if (bid === "blind-nil") return "Blind Nil";
      return String(bid);
    },
    overText: (winner) => {
      const scores = it.scores && it.scores.length ? ` Final score: ${finals(it.scores)}.` : "";
      if (winner === null || winner === undefined) return `The match is over: a draw.${scores}`;
      const name = sideTitle(winner);
      return `The match is over. ${name} ${name === "You" || (sides && sides[winner].length > 1) ? "win" : "wins"}!${scores}`;
    },
    /** The row's score: your side's first ("You and Wren 320 to 280 West and East": not an
     * en dash, which a screen reader at its usual punctuation level does not say, gluing the
     * two scores into "320 280"). */
    scoreText: () => {
      // an unfinished match: its scores so far, said so in the text a screen reader reads
      // too ("… so far, after 3 hands"); before, "not finished" alone
      const hands = it.finished ? null : it.hands_scored;
      if (hands === 0) return "not finished, no hand scored yet";
      if ((!it.finished && typeof hands !== "number") || !it.scores || !it.scores.length) return "not finished";
      const later = it.finished ? "" : ` so far, after ${plural(hands, "hand")}`;
      if (!sides || sides.length !== it.scores.length) return it.scores.map(scoreText).join(" to ") + later;
      const first = mySide >= 0 ? mySide : 0;
      const order = [first, ...it.scores.map((_, k) => k).filter((k) => k !== first)];
      if (order.length === 2) return `${sideTitle(order[0])} ${scoreText(it.scores[order[0]])} to ${scoreText(it.scores[order[1]])} ${sideName(order[1])}${later}`;
      return order.map((k) => `${sideTitle(k)} ${scoreText(it.scores[k])}`).join(", ") + later;
    },
  };
}

/** The page and its argument in the address ("#/table/ID": ["table", "ID"]; "" at home). */
function hashRoute() {
  return location.hash.replace(/^#\/?/, "").split("/");
}

class App {
  constructor() {
    this.settings = store.settings();
    this.main = document.getElementById("main");
    this.announcer = new Announcer(
      document.getElementById("live-polite"), document.getElementById("live-assertive"),
      { pace: this.settings.pace });
    this.sounds = new Sounds(this.settings);
    this.conn = new Connection();
    this.user = null;
    this.myTables = [];
    this.profiles = null;
    this.lobby = [];
    this.table = null;
    this.pendingFrames = []; // frames for the table being opened (pendingTable)
    // a page opened by a reload at a table (its address): that table's id
    const nav = (performance.getEntriesByType && performance.getEntriesByType("navigation")[0]) || null;
    const [page, arg] = hashRoute();
    this.reloadedAt = nav && nav.type === "reload" && page === "table" && arg ? arg : null;
    this.announceListeners = new Set();
    this.announcer.onAnnounce((e) => { for (const fn of this.announceListeners) fn(e); });
    this.voice = new Voice(this.settings);
    this.voice.attach(this.announcer);
    this.applySettings();
    this.wire();
    this.wireMenu();
    window.addEventListener("hashchange", () => this.route());
    document.addEventListener("keydown", (e) => this.onKey(e));
    // record links download with the session (an uploaded unfinished record is the uploader's)
    document.addEventListener("click", (e) => {
      const a = e.target.closest && e.target.closest("a[data-record]");
      if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button) return;
      e.preventDefault();
      this.downloadRecord(a.dataset.record, a);
    });
    // A link within the page ("Skip to the page": #main) moves the focus there and nothing
    // else: the address's hash names the page shown (route), so letting it change would
    // blank the page, and at a table leave it.
    document.addEventListener("click", (e) => {
      const a = e.target.closest && e.target.closest('a[href^="#"]:not([href^="#/"])');
      const target = a && a.getAttribute("href").length > 1 && document.getElementById(a.getAttribute("href").slice(1));
      if (!target) return;
      e.preventDefault();
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus();
    });
    matchMedia("(prefers-reduced-motion: reduce)").addEventListener?.("change", () => this.applySettings());
    if (store.token()) this.conn.open();
    else this.showConn();
    this.route();
  }

  /** The top bar's Menu button (shown on narrow screens only, where the menu's links fold
   * behind it so that the top bar takes one row): a disclosure (aria-expanded). Escape
   * closes it and gives the focus back to the button; it closes too when a link is chosen,
   * or the focus or a click goes elsewhere. */
  wireMenu() {
    const bar = document.querySelector(".topbar");
    const button = document.getElementById("menu-toggle");
    if (!bar || !button) return;
    const isOpen = () => button.getAttribute("aria-expanded") === "true";
    const set = (open) => {
      button.setAttribute("aria-expanded", String(open));
      bar.classList.toggle("menu-open", open);
    };
    button.addEventListener("click", () => set(!isOpen()));
    bar.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || !isOpen()) return;
      e.preventDefault();
      e.stopPropagation(); // (not the table's Escape as well)
      set(false);
      button.focus();
    });
    bar.addEventListener("focusout", (e) => { if (isOpen() && e.relatedTarget && !bar.contains(e.relatedTarget)) set(false); });
    document.addEventListener("click", (e) => { if (isOpen() && !bar.contains(e.target)) set(false); });
    window.addEventListener("hashchange", () => set(false));
  }

  /** Does the server answer `{"type":"hint"}` with the bots' hint? An unknown message type is
   * refused with `bad_message` (and changes nothing); any other answer means it does. Until we
   * know, and when offline, the page's own hint (hint.js) is used. */
  probeHints() {
    if (this.serverHints !== undefined) return;
    this.serverHints = null;
    this.conn.request({ type: "hint" }).then(() => { this.serverHints = true; }, (err) => {
      this.serverHints = err.code === "offline" ? undefined : err.code !== "bad_message";
    });
  }

  async downloadRecord(gameId, link) {
    try {
      const record = await api("GET", `/api/games/${encodeURIComponent(gameId)}/record`);
      const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
      const a = h("a", { href: url, download: `spades-${gameId}.json`, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      this.announcer.say("The record is downloaded.");
    } catch (err) {
      this.announcer.say(`The record could not be downloaded: ${reasonEnd(err.message)}`, { assertive: true });
      if (link) link.setAttribute("aria-description", reasonSentence(err.message));
    }
  }

  onAnnounce(fn) { this.announceListeners.add(fn); return () => this.announceListeners.delete(fn); }

  onQueued(fn) { this.announcer.queuedListeners.add(fn); return () => this.announcer.queuedListeners.delete(fn); }

  motion() {
    if (this.settings.animations === "off") return false;
    if (this.settings.animations === "on") return true;
    return !matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  applySettings() {
    document.documentElement.classList.toggle("no-motion", !this.motion());
    document.documentElement.classList.toggle("four-colour", !!this.settings.fourColour);
    this.announcer.pace = this.settings.pace;
    this.sounds.settings = this.settings;
    if (this.voice) this.voice.settings = this.settings;
  }

  saveSettings() {
    store.saveSettings(this.settings);
    this.applySettings();
  }

  setTitle(t) { document.title = t; }

  // ------------------------------------------------------------------ connection
  wire() {
    const c = this.conn;
    c.on("welcome", (m) => {
      this.user = m.user;
      this.limits = m.limits || this.limits;
      this.showConn();
      this.probeHints();
      this.myTables = m.tables || [];
      // "Your tables" are the unfinished ones: a table that ended meanwhile is forgotten
      const last = store.lastTable();
      if (last && !this.myTables.includes(last) && !(this.table && this.table.id === last)) store.setLastTable(null);
      // (re)join the table, unless the join of openTable() was waiting for this very
      // connection and has just been sent: a second join would say "X is back" twice
      // (a tab whose seat another tab held asks for it only if that tab is gone: the server
      // says whether it is; "Play here" takes it from a tab still open)
      // (not a table you were removed from: its page shows the way on)
      if (this.table && this.joinQueued !== this.table.id && !this.table.offTable) {
        if (this.table.replaced) this.table.rejoinIfFree(); else c.send(this.joinMessage());
      }
      this.joinQueued = null;
      if (this.currentRoute === "lobby") c.send({ type: "lobby", subscribe: true });
      if (this.currentRoute === "home") {
        this.refreshYourTables();
        // the name the session has, where none was typed yet
        const name = this.main.querySelector("#quick-name");
        if (name && !name.value && this.user && this.user.name) name.value = this.user.name;
      }
    });
    c.on("status", ({ status }) => {
      this.showConn();
      if (status === "offline" && this.table && this.wasOnline) this.announcer.say("Connection lost. Reconnecting…");
      if (status === "online" && this.table && this.wasOnline === false) this.announcer.say("Reconnected.");
      if (status === "online") this.wasOnline = true;
      else if (this.wasOnline) this.wasOnline = false;
      if (this.table) this.table.onConnStatus(status);
    });
    c.on("error", (m) => {
      if (m.code === "auth") {
        const told = this.signedOut;
        this.signedOut = true; // said once: a late second refusal of the same socket is not news
        store.setToken(null);
        this.user = null;
        c.close();
        // the server's reason, e.g. "the session was signed out elsewhere: sign in again"
        const why = String(m.message || "the session ended").split(":")[0];
        if (!told) this.announcer.say(`You are signed out: ${why}. Choose a name to play again.`, { assertive: true });
        if (this.currentRoute !== "home") location.hash = "#/";
        else this.renderHome();
        return;
      }
      if (m.code === "replaced" && this.table) { this.table.onReplaced(); return; }
      // (one without a reason of the server's: that much; at a table, the table is fetched
      // again, as the server has it, and a reload is said only if that fails: TableView.refetch)
      if (m.ref == null) {
        if (m.message) { this.announcer.say(`Refused: ${reasonEnd(m.message)}`, { assertive: true }); return; }
        const unexplained = `Refused: ${NO_REASON}, nor said what it refused.`;
        const table = this.table;
        if (!table) { this.announcer.say(unexplained, { assertive: true }); return; }
        table.refetch().then((how) => this.announcer.say(`${unexplained} ${table.refetchWords(how)}`, { assertive: true }));
      }
    });
    c.on("table", (m) => {
      if (!this.table || m.table.id !== this.table.id) return;
      this.table.onTable(m);
    });
    c.on("event", (m) => this.frame(m));
    c.on("chat", (m) => this.frame(m));
    c.on("sheet", (m) => this.table && this.table.onSheet(m));
    c.on("spectators", (m) => this.table && this.table.onSpectators(m));
    c.on("lobby", (m) => { this.lobby = m.tables; this.renderLobbyList(); });
    c.on("lobby_update", (m) => {
      const i = this.lobby.findIndex((t) => t.id === m.table.id);
      if (i >= 0) this.lobby[i] = m.table; else this.lobby.push(m.table);
      this.renderLobbyList();
    });
    c.on("lobby_remove", (m) => { this.lobby = this.lobby.filter((t) => t.id !== m.table_id); this.renderLobbyList(); });
  }

  /** The top bar: who you are once the connection is up (the status before). */
  showConn() {
    const el = document.getElementById("conn");
    const status = this.conn.status;
    if (!store.token()) { el.textContent = "Not signed in"; el.dataset.status = "none"; return; }
    const who = this.user ? `${this.user.name}${this.user.guest ? " (guest)" : ""}` : "Online";
    el.textContent = status === "online" ? who : status === "connecting" ? "Connecting…" : "Offline";
    el.dataset.status = status;
  }

  async ensureSession(name) {
    if (store.token() && this.user) return true;
    if (!store.token()) {
      const clean = (name || store.name() || "").trim();
      if (!clean) throw Object.assign(new Error("Choose a display name first."), { field: "name" });
      let s;
      try {
        s = await api("POST", "/api/guest", { name: clean });
      } catch (err) {
        if (err.status === 409) err.account = clean; // an account's name: offer to sign in
        if (err.status === 409 || err.status === 422) err.field = "name"; // (the name refused)
        throw err;
      }
      store.setToken(s.token);
      this.signedOut = false;
      store.setName(s.user.name);
      this.user = s.user;
    }
    this.conn.open();
    return true;
  }

  /** A form's error; a name that belongs to an account offers the sign-in form. An error
   * about the name is tied to the form's name field: marked invalid, described by the error,
   * and focused (so that it is heard, and typed again, there). */
  showError(box, err) {
    clear(box).append(reasonSentence(err.message)); // (the server's reason as a sentence)
    const form = box.closest("form");
    const name = form && form.querySelector("input[name=name]");
    if (name) {
      if (!box.id) box.id = `${name.id}-error`;
      const ids = (name.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== box.id);
      if (err.field === "name") {
        name.setAttribute("aria-invalid", "true");
        name.setAttribute("aria-describedby", [...ids, box.id].join(" "));
        name.focus();
      } else {
        name.removeAttribute("aria-invalid");
        if (ids.length) name.setAttribute("aria-describedby", ids.join(" ")); else name.removeAttribute("aria-describedby");
      }
    }
    if (err.account) {
      box.append(" ", h("a", { href: "#/account", onclick: () => { this.signInName = err.account; this.returnTo = location.hash; } }, `Sign in as ${err.account}`));
    }
  }

  /** A new session (signed in or registered): kept, and the socket says hello with it. */
  startSession(s) {
    store.setToken(s.token);
    this.signedOut = false;
    store.setName(s.user.name);
    this.user = s.user;
    this.myTables = [];
    this.conn.close();
    this.conn.open();
    this.showConn();
  }

  async signOut() {
    this.conn.close(); // first: the server closes the session's sockets with an `auth` error
    try { await api("POST", "/api/logout"); } catch { /* the session is gone either way */ }
    store.setToken(null);
    store.setLastTable(null);
    this.user = null;
    this.myTables = [];
    this.showConn();
    this.announcer.say("You are signed out.");
    if (this.currentRoute === "account") this.route();
  }

  renderAccount() {
    const page = this.page("Account");
    const u = this.user;
    if (store.token() && !u) {
      api("GET", "/api/me").then((me) => { this.user = me; this.showConn(); if (this.currentRoute === "account") this.route(); }).catch(() => {});
    }
    if (u) {
      page.append(h("section", { class: "panel", "aria-labelledby": "who-title" },
        h("h2", { id: "who-title" }, u.guest ? "Playing as a guest" : "Signed in"),
        h("p", {}, u.guest ? `You play as ${u.name}, a guest: this browser keeps your name until you sign out. Register to keep your name and statistics everywhere.` : `You are signed in as ${u.name}.`),
        h("button", { type: "button", id: "sign-out", onclick: () => this.signOut() }, "Sign out")));
    }
    page.append(h("div", { class: "home-grid" }, this.accountForm("login"), this.accountForm("register")));
    if (this.signInName) {
      const pw = page.querySelector("#in-password");
      this.signInName = null;
      if (pw) setTimeout(() => pw.focus(), 0);
    }
  }

  /** Sign in (`login`) or Register: the server's reasons next to the field they concern. */
  accountForm(kind) {
    const login = kind === "login";
    const p = login ? "in" : "reg";
    const field = (id, label, attrs) => h("p", { class: "field" },
      h("label", { for: `${p}-${id}` }, label),
      h("input", { id: `${p}-${id}`, name: id, required: true, "aria-describedby": `${p}-${id}-error`, ...attrs }),
      h("span", { class: "form-error", id: `${p}-${id}-error`, role: "alert" }));
    const form = h("form", { class: "panel", "aria-labelledby": `${p}-title` },
      h("h2", { id: `${p}-title` }, login ? "Sign in" : "Register"),
      field("name", "Name", { type: "text", maxlength: "24", autocomplete: "username", value: login ? this.signInName || "" : "" }),
      field("password", login ? "Password" : "Password (8 characters or more)", { type: "password", minlength: login ? null : "8", maxlength: "200", autocomplete: login ? "current-password" : "new-password" }),
      h("p", { class: "form-error", role: "alert", id: `${p}-error` }),
      h("button", { type: "submit", class: "primary" }, login ? "Sign in" : "Register"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      for (const el of form.querySelectorAll(".form-error")) el.textContent = "";
      for (const el of form.querySelectorAll("input")) el.removeAttribute("aria-invalid");
      const f = new FormData(form);
      try {
        const s = await api("POST", login ? "/api/login" : "/api/register", { name: String(f.get("name")).trim(), password: f.get("password") });
        this.startSession(s);
        this.announcer.say(login ? `Signed in as ${s.user.name}.` : `Registered and signed in as ${s.user.name}.`);
        const back = this.returnTo;
        this.returnTo = null;
        if (back && back !== "#/account") location.hash = back; else this.route();
      } catch (err) {
        const where = this.accountErrorField(err, login);
        let text = err.message;
        if (err.status === 429) text = `Too many tries: try again in ${this.waitWords(err.retryAfter)}.`;
        const box = where ? form.querySelector(`#${p}-${where}-error`) : form.querySelector(`#${p}-error`);
        box.textContent = reasonSentence(text.replace(/^(name|password): /, ""));
        const input = where && form.querySelector(`#${p}-${where}`);
        if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
      }
    });
    return form;
  }

  /** Which field an account error is about: "name", "password", or null (the form's). */
  accountErrorField(err, login) {
    if (err.status === 401) return "password";
    if (err.status === 409) return "name";
    if (err.status !== 422) return null;
    const first = Array.isArray(err.detail) ? err.detail[0] : null;
    const loc = first && first.loc ? first.loc[first.loc.length - 1] : null;
    if (loc === "name" || loc === "password") return loc;
    return /^password\b|password/i.test(err.message) ? "password" : "name";
  }

  /** Seconds (a Retry-After) in words: "40 seconds", "2 minutes", "a moment". */
  waitWords(seconds) {
    const n = Number(seconds);
    if (!Number.isFinite(n) || n <= 0) return "a moment";
    if (n < 60) return plural(Math.ceil(n), "second");
    const m = Math.ceil(n / 60);
    return plural(m, "minute");
  }

  async getProfiles() {
    if (!this.profiles) {
      try { this.profiles = await api("GET", "/api/profiles"); } catch { this.profiles = null; }
    }
    return this.profiles;
  }

  // ------------------------------------------------------------------ routes
  route() {
    const [page, arg] = hashRoute();
    const name = page || "home";
    if (this.table && !(name === (this.table.watching ? "watch" : "table") && arg === this.table.id)) {
      this.table.depart();
      if (this.table.unlisten) this.table.unlisten();
      this.table.unmount();
      this.table = null;
      this.announcer.where = null;
    }
    this.currentRoute = name;
    this.routeSeq = (this.routeSeq || 0) + 1;
    const seq = this.routeSeq;
    if (name !== "table" && name !== "watch") {
      clear(this.main);
      // a page opens at its top, with the site's name and menu (the table scrolls them out
      // of sight to show the felt whole: the pages after it kept that scroll)
      window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    }
    const pages = {
      home: () => this.renderHome(),
      lobby: () => this.renderLobby(),
      create: () => this.renderCreate(),
      table: () => this.openTable(arg),
      watch: () => this.openTable(arg, true),
      join: () => this.joinInvite(arg),
      stats: () => this.renderStats(),
      rules: () => this.renderRules(arg),
      glossary: () => this.renderGlossary(),
      strategy: () => this.renderStrategy(),
      help: () => this.renderHelp(),
      settings: () => this.renderSettings(),
      account: () => this.renderAccount(),
    };
    const rendered = (pages[name] || pages.home)();
    for (const a of document.querySelectorAll(".topbar nav a")) {
      const target = a.getAttribute("href").replace(/^#\/?/, "") || "home";
      if (target === name || (name === "glossary" || name === "strategy") && target === "rules") a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    if (name !== "table" && name !== "watch") {
      // the page's title and the focus on its heading; a page drawn after a fetch (Create a
      // table waits for the profiles) gets them once its heading is there
      const focus = this.routed;
      const arrive = () => {
        if (this.routeSeq !== seq) return;
        const h1 = this.main.querySelector("h1");
        if (h1) { h1.setAttribute("tabindex", "-1"); if (focus) h1.focus(); }
        this.setTitle(`${h1 ? h1.textContent : "Spades"} — Spades`);
      };
      if (!this.main.querySelector("h1") && rendered && rendered.then) rendered.then(arrive, arrive);
      else arrive();
    }
    this.routed = true;
  }

  page(title, ...children) {
    const el = h("div", { class: "page" }, h("h1", {}, title), ...children);
    this.main.append(el);
    return el;
  }

  nameField(id = "name") {
    return h("p", { class: "field" },
      h("label", { for: id }, "Your name"),
      h("input", { id, name: "name", type: "text", maxlength: "24", required: true, autocomplete: "nickname", value: (this.user && this.user.name) || store.name() || "" }));
  }

  profileSelect(id, value = "cardgames-club") {
    return h("select", { id, name: "profile" }, Object.entries(PROFILES).map(([k, p]) => h("option", { value: k, selected: k === value }, p.title)));
  }

  async cpuSelect(id) {
    const sel = h("select", { id, name: "cpu" });
    const p = await this.getProfiles();
    const levels = p && p.cpu && p.cpu.length ? p.cpu : ["random"];
    const def = p && p.default_cpu ? p.default_cpu : levels[0];
    for (const l of levels) sel.append(h("option", { value: l, selected: l === def }, l[0].toUpperCase() + l.slice(1)));
    return sel;
  }

  renderHome() {
    if (this.currentRoute !== "home") return;
    clear(this.main);
    const quick = h("form", { class: "panel quick", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, "Play against CPUs now"),
      this.nameField("quick-name"),
      h("p", { class: "field" }, h("label", { for: "quick-profile" }, "Rules"), this.profileSelect("quick-profile")),
      h("p", { class: "field" }, h("label", { for: "quick-cpu" }, "CPU strength"), h("span", { id: "quick-cpu-slot" })),
      h("fieldset", { class: "field" }, h("legend", {}, "Match length"),
        h("label", { class: "inline" }, h("input", { type: "radio", name: "length", value: "target", checked: true }), " To the target score"),
        h("label", { class: "inline" }, h("input", { type: "radio", name: "length", value: "one" }), " One hand"),
        h("label", { class: "inline", for: "quick-target" }, "Target"),
        h("input", { id: "quick-target", name: "target", type: "number", min: "1", max: "10000", placeholder: targetHint("cardgames-club"), inputmode: "numeric" })),
      h("p", { class: "form-error", role: "alert", id: "quick-error" }),
      h("button", { type: "submit", class: "primary big" }, "Deal me in"));
    this.cpuSelect("quick-cpu").then((sel) => { const slot = quick.querySelector("#quick-cpu-slot"); if (slot) slot.replaceWith(sel); });
    // no target for one hand: the field is off (and out of the Tab order)
    quick.addEventListener("change", (e) => {
      if (e.target.name === "length") quick.querySelector("#quick-target").disabled = e.target.value === "one";
      if (e.target.name === "profile") quick.querySelector("#quick-target").placeholder = targetHint(e.target.value);
    });
    quick.addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = new FormData(quick);
      const err = quick.querySelector("#quick-error");
      err.textContent = "";
      const options = { profile: f.get("profile"), cpu: f.get("cpu") || "random", private: true, name: `${f.get("name")}'s table` };
      // one hand under every profile (a target of 1 point is not reached when both sides are set)
      if (f.get("length") === "one") options.one_hand = true;
      else if (f.get("target")) options.target = Number(f.get("target"));
      try {
        await this.ensureSession(f.get("name"));
        await this.createTable(options, true);
      } catch (ex) { this.showError(err, ex); }
    });
    const join = h("form", { class: "panel", "aria-labelledby": "join-title" },
      h("h2", { id: "join-title" }, "Join by invite code"),
      h("p", { class: "field" }, h("label", { for: "invite" }, "Invite code"), h("input", { id: "invite", name: "invite", type: "text", autocomplete: "off", maxlength: "40", required: true })),
      h("p", { class: "form-error", role: "alert", id: "join-error" }),
      h("button", { type: "submit" }, "Join"));
    join.addEventListener("submit", async (e) => {
      e.preventDefault();
      const code = new FormData(join).get("invite").trim();
      // the name filled in above ("Your name") is the one to join with: not asked again
      const name = (quick.querySelector("#quick-name")?.value || "").trim();
      if (!store.token() && name) {
        const err = join.querySelector("#join-error");
        err.textContent = "";
        try { await this.ensureSession(name); } catch (ex) { this.showError(ex.field === "name" ? quick.querySelector("#quick-error") : err, ex); return; }
      }
      location.hash = `#/join/${encodeURIComponent(code)}`;
    });
    const mine = this.yourTables();
    this.page("Spades",
      h("p", { class: "lede" }, "Bid your tricks, trump with spades, and mind the bags. Play against the computer at once, or open a table for friends."),
      h("div", { class: "home-grid" }, mine, quick,
        h("section", { class: "panel", "aria-labelledby": "more-title" },
          h("h2", { id: "more-title" }, "With friends"),
          h("ul", { class: "links" },
            h("li", {}, h("a", { href: "#/create" }, "Create a table"), " — every option, public or private"),
            h("li", {}, h("a", { href: "#/lobby" }, "Open tables in the lobby")),
            h("li", {}, h("a", { href: "#/stats" }, "Your statistics and match history"))),
          h("h2", {}, "Learn"),
          h("ul", { class: "links" },
            h("li", {}, h("a", { href: "#/rules" }, "Rules of each profile")),
            h("li", {}, h("a", { href: "#/glossary" }, "Glossary")),
            h("li", {}, h("a", { href: "#/strategy" }, "Strategy guide")),
            h("li", {}, h("a", { href: "#/help" }, "Keyboard and screen reader help")))),
        join));
  }

  /** The home page's "Your tables" (null when there are none). */
  yourTables() {
    // tables of the same name ("Olga's table" five times) are told apart by their ids
    const yours = [...new Set([...this.myTables, ...(store.lastTable() ? [store.lastTable()] : [])])];
    const named = yours.map((id) => store.tableName(id));
    const linkText = (id, i) => named[i] && named.filter((n) => n === named[i]).length === 1
      ? `Return to ${named[i]}` : `Return to ${named[i] || "a table"} (${id.slice(0, 8)})`;
    return yours.length
      ? h("section", { class: "panel highlight", "aria-labelledby": "back-title" },
        h("h2", { id: "back-title" }, "Your tables"),
        h("ul", { class: "links" }, yours.map((id, i) => h("li", {}, h("a", { href: `#/table/${id}` }, linkText(id, i))))))
      : null;
  }

  /** "Your tables" drawn again once the server's welcome says which they are, and nothing else:
   * the home page drawn anew lost the focus (Enter on "Return to …" then did nothing) and what
   * had been typed in its fields. A focused link that is still there keeps the focus. */
  refreshYourTables() {
    const grid = this.main.querySelector(".home-grid");
    if (!grid) return;
    const old = grid.querySelector("#back-title")?.closest("section") || null;
    const focused = old && old.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
    const mine = this.yourTables();
    if (old && mine) old.replaceWith(mine);
    else if (old) old.remove();
    else if (mine) grid.prepend(mine);
    if (!focused) return;
    const same = mine && [...mine.querySelectorAll("a")].find((a) => a.getAttribute("href") === focused);
    // (its table ended meanwhile: the next of "Your tables", else the quick match's name field)
    (same || mine?.querySelector("a") || grid.querySelector("#quick-name"))?.focus();
  }

  async createTable(options, cpus) {
    return this.openNew({ type: "create", options, cpus });
  }

  /** `create` or `rematch`: a new table of yours, whose waiting room opens. */
  async openNew(msg) {
    // the server answers with a table snapshot and an ack (in either order)
    const snapshot = this.waitTable();
    try {
      await this.conn.request(msg);
    } catch (err) {
      snapshot.catch(() => {});
      this.stopWaiting?.();
      if (!err.message) err.message = NO_REASON; // (a refusal without one: the form says so)
      throw err;
    }
    const id = await snapshot;
    location.hash = `#/table/${id}`;
  }

  /** The snapshot of the table a `create`, `rematch` or `join` by invite opens: its id.
   * Waited for as long as the connection lives (a slow or busy server, or one paused for a
   * while, is only late: after STILL_OPENING_MS the page shows and says "Still opening the
   * table…"); the connection lost rejects, in words. (A refusal of the server is the
   * request's own error: the caller stops the wait with `stopWaiting`.) Before, it gave up
   * after 10 s, "The table did not open.", though the table opened a moment later. */
  waitTable() {
    return new Promise((resolve, reject) => {
      let note = null;
      const drop = (type, fn) => {
        const list = this.conn.handlers.get(type) || [];
        if (list.includes(fn)) list.splice(list.indexOf(fn), 1);
      };
      const off = () => {
        clearTimeout(t);
        drop("table", fn);
        drop("status", lost);
        if (note) note.remove();
      };
      const t = setTimeout(() => {
        // shown next to what was pressed (its form, or the Rematch button's row), else on the page
        const at = document.activeElement;
        const host = at && at !== document.body && document.contains(at)
          ? at.closest("form") || at.parentElement : this.main;
        note = h("p", { class: "note opening-note", id: "opening-note" }, "Still opening the table…");
        host.append(note);
        this.announcer.say("Still opening the table…");
      }, STILL_OPENING_MS);
      const fn = (m) => { off(); this.pendingTable = m; this.pendingFrames = []; resolve(m.table.id); };
      const lost = (m) => {
        if (m.status !== "offline") return;
        off();
        reject(Object.assign(new Error("The connection to the server was lost before the table opened. Try again once it is back."), { code: "offline" }));
      };
      this.stopWaiting = off;
      this.conn.on("table", fn);
      this.conn.on("status", lost);
    });
  }

  /** A numbered frame (event or chat) for the open table; one for a table whose snapshot
   * came but whose view is not open yet is kept for it (told when it opens). */
  frame(m) {
    const t = this.table;
    if (t && t.id === m.table_id) {
      if (m.type === "chat") t.onChat(m); else t.onEvent(m);
    } else if (this.pendingTable && this.pendingTable.table.id === m.table_id) {
      this.pendingFrames.push(m);
    }
  }

  /** The `join` of the open table: as a spectator when it was opened to watch, or when
   * the owner removed you from your seat and you watch it now (they would not seat you
   * again); with the invite code of a private table you were removed from. */
  joinMessage() {
    const t = this.table;
    const watch = t.watching || t.rejoinWatching;
    return { type: "join", table_id: t.id, ...(watch ? { role: "spectator" } : {}), ...(t.invite ? { invite: t.invite } : {}) };
  }

  openTable(id, watch = false) {
    if (!id) { location.hash = "#/"; return; }
    if (this.table && this.table.id === id) return;
    clear(this.main);
    this.announcer.where = id; // (what is said from now on is this table's Table talk)
    this.table = new TableView(this, id);
    this.table.watching = watch;
    // (a private table's, when you had it: watched, or followed to its rematch with the
    // code of the table before, which the rematch takes)
    this.table.invite = store.invite(id);
    this.table.mount(this.main);
    if (this.pendingTable && this.pendingTable.table.id === id) {
      const m = this.pendingTable;
      this.pendingTable = null;
      this.table.onTable(m);
      // what happened between the snapshot and this view, told in order
      for (const f of this.pendingFrames.splice(0)) this.frame(f);
    } else if (!store.token()) {
      // a new visitor: a name here, then on to the table
      const f = h("form", { class: "panel", "aria-labelledby": "table-name-title" },
        h("h1", { id: "table-name-title", tabindex: "-1" }, watch ? "Choose a name to watch this table" : "Choose a name to join this table"),
        this.nameField("table-name"),
        h("p", { class: "form-error", role: "alert", id: "table-name-error" }),
        h("button", { type: "submit", class: "primary" }, watch ? "Watch" : "Join"));
      f.addEventListener("submit", async (e) => {
        e.preventDefault();
        try {
          await this.ensureSession(new FormData(f).get("name"));
          f.remove();
          this.joinTable();
        } catch (err) { this.showError(f.querySelector("#table-name-error"), err); }
      });
      clear(this.table.el).append(f);
    } else {
      this.joinTable();
    }
    const focusTitle = () => {
      if (this.table && this.table.el && this.table.el.contains(document.activeElement)) return; // already at the table
      // (a spectator has no hand: the table's heading, TableView.focusHand)
      const hand = this.table && this.table.isPlayer && this.main.querySelector("#hand");
      if (hand) hand.focus(); else { const t = this.main.querySelector("h1"); if (t) t.focus(); }
    };
    setTimeout(focusTitle, 50);
  }

  joinTable() {
    const t = this.table;
    if (!t) return;
    clear(t.el).append(h("p", { class: "loading" }, t.watching ? "Opening the table to watch…" : "Joining the table…"));
    this.conn.open();
    if (!this.conn.ready) this.joinQueued = t.id;
    this.conn.request(this.joinMessage()).catch((err) => {
      if (this.table !== t) return;
      const what = t.watching ? "watch" : "join";
      this.announcer.say(`Could not ${what}: ${reasonEnd(err.message || NO_REASON)}`, { assertive: true });
      // a match that started without you can still be watched
      const watch = !t.watching && /spectator/.test(err.message) ? h("p", {}, h("a", { href: `#/watch/${t.id}` }, "Watch the table instead")) : null;
      const title = h("h1", { tabindex: "-1" }, `Could not ${what} the table`);
      clear(t.el).append(h("div", { class: "panel" }, title, h("p", {}, reasonSentence(err.message || NO_REASON)), watch, h("p", {}, h("a", { href: "#/" }, "Back to the home page"))));
      // the keyboard's focus on what happened (what it was on is gone)
      const a = document.activeElement;
      if (!a || a === document.body || !document.contains(a) || t.el.contains(a)) title.focus();
    });
  }

  /** The invitation `code` opens its table (`watch`: as a spectator). A refusal that says
   * you may watch it (the owner removed you from it, the match has started, the table is
   * full) offers "Watch the table". */
  async joinInvite(code, watch = false) {
    if (!store.token()) {
      this.page("Join a table", h("p", {}, "Choose a name first."), this.inviteNameForm(code));
      return;
    }
    clear(this.main);
    this.page(watch ? "Opening the table to watch…" : "Joining…");
    try {
      await this.ensureSession();
      const snapshot = this.waitTable();
      try {
        await this.conn.request({ type: "join", invite: decodeURIComponent(code || ""), ...(watch ? { role: "spectator" } : {}) });
      } catch (err) { snapshot.catch(() => {}); this.stopWaiting(); throw err; }
      const id = await snapshot;
      // a spectator of a private table needs its code to join again (a reconnect, a reload)
      if (watch) store.setInvite(id, decodeURIComponent(code || ""));
      location.hash = `#/${watch ? "watch" : "table"}/${id}`;
    } catch (err) {
      clear(this.main);
      // (removed by the owner, or a match that started or a table that is full, where the
      // table allows spectators: "…: join as a spectator")
      const canWatch = !watch && /you may watch it as a spectator|: join as a spectator$/.test(err.message);
      const page = this.page(`Could not ${watch ? "watch" : "join"}`, h("p", { role: "alert" }, reasonSentence(err.message || NO_REASON)),
        canWatch ? h("p", {}, h("button", { type: "button", class: "primary", id: "invite-watch", onclick: () => this.joinInvite(code, true) }, "Watch the table")) : null,
        h("p", {}, h("a", { href: "#/" }, "Back")));
      const title = page.querySelector("h1");
      title.tabIndex = -1;
      title.focus();
    }
  }

  inviteNameForm(code) {
    const f = h("form", { class: "panel" }, this.nameField("invite-name"), h("p", { class: "form-error", role: "alert" }), h("button", { type: "submit", class: "primary" }, "Join"));
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      const box = f.querySelector(".form-error");
      try { await this.ensureSession(new FormData(f).get("name")); this.route(); } catch (err) { this.showError(box, err); }
    });
    return f;
  }

  renderLobby() {
    this.page("Lobby",
      h("p", {}, "Public tables, updated live. ", h("a", { href: "#/create" }, "Create a table"), " to open your own."),
      h("div", { id: "lobby-list", "aria-live": "off" }, h("p", {}, "Loading…")));
    if (store.token()) { this.conn.open(); this.conn.send({ type: "lobby", subscribe: true }); return; }
    // a visitor has no socket yet: the list is asked for again every few seconds while shown
    const box = document.getElementById("lobby-list");
    let shown = null; // the rows drawn last, as JSON: an unchanged list is not drawn again
    const poll = async () => {
      if (this.currentRoute !== "lobby" || document.getElementById("lobby-list") !== box || store.token()) return;
      if (!document.hidden) {
        try {
          const rows = await api("GET", "/api/tables");
          const seen = JSON.stringify(rows);
          if (seen !== shown) { shown = seen; this.lobby = rows; this.renderLobbyList(); }
        } catch (err) {
          if (!this.lobby.length) { clear(box); box.append(h("p", { role: "alert" }, `The tables could not be loaded: ${reasonEnd(err.message)}`)); }
        }
      }
      setTimeout(poll, LOBBY_POLL_MS);
    };
    poll();
  }

  renderLobbyList() {
    const box = document.getElementById("lobby-list");
    if (!box) return;
    // a keyboard user on a row's link stays on it when the list is drawn again
    const focused = box.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
    clear(box);
    if (!this.lobby.length) { box.append(h("p", {}, "No open tables right now.")); return; }
    const table = h("table", { class: "lobby-table" },
      h("caption", { class: "sr-only" }, "Open tables"),
      h("thead", {}, h("tr", {}, ["Table", "Rules", "Players", "Status", "Timer", "Action"].map((t) => h("th", { scope: "col", class: t === "Rules" || t === "Timer" ? "wide-only" : null },
        // the Join / Watch column: named for a screen reader, blank on the screen
        t === "Action" ? h("span", { class: "sr-only" }, t) : t)))));
    const body = h("tbody");
    for (const t of this.lobby) {
      // "30s" on the screen, "30 seconds" to a screen reader (a synthesizer says "thirties")
      const timer = () => (t.turn_timer ? [h("span", { "aria-hidden": "true" }, `${t.turn_timer}s`), h("span", { class: "sr-only" }, `${t.turn_timer} seconds`)] : "off");
      body.append(h("tr", {},
        // on a phone the rules and the timer go under the name (their columns are hidden)
        h("th", { scope: "row" }, t.name || t.id, t.owner ? [h("br"), h("small", {}, `owner ${t.owner}`)] : null,
          h("small", { class: "narrow-only" }, h("br"), `${t.profile}, timer `, timer())),
        h("td", { class: "wide-only" }, t.profile),
        // "2 of 4 · 2 open" on the screen; in words to a screen reader, which leaves the dot
        // unsaid ("2 of 4 2 open")
        h("td", {}, h("span", { "aria-hidden": "true" }, `${t.humans} of ${t.players}${t.open_seats ? ` · ${t.open_seats} open` : ""}`),
          h("span", { class: "sr-only" }, `${t.humans} of ${t.players} players${t.open_seats ? `, ${plural(t.open_seats, "place")} open` : ""}`)),
        h("td", {}, t.paused ? "paused: waits for its players" : LOBBY_STATUS[t.status] || t.status),
        h("td", { class: "wide-only" }, timer()),
        h("td", {}, t.paused ? null : (() => {
          const verb = t.status === "waiting" && t.open_seats ? "Join" : "Watch";
          return h("a", { class: "button small", href: `#/${verb === "Join" ? "table" : "watch"}/${t.id}`, "aria-label": `${verb} ${t.name || t.id}` }, verb);
        })())));
    }
    table.append(body);
    box.append(table);
    if (focused) {
      const again = [...box.querySelectorAll("a[href]")].find((a) => a.getAttribute("href") === focused);
      (again || box.querySelector("a[href]") || this.main.querySelector("h1") || document.body).focus();
    }
  }

  async renderCreate() {
    const seq = this.routeSeq;
    const profiles = await this.getProfiles();
    if (this.routeSeq !== seq) return; // gone elsewhere meanwhile
    const known = profiles ? profiles.profiles : Object.keys(PROFILES).map((name) => ({ name, players: PROFILES[name].players, options: [] }));
    const form = h("form", { class: "panel create-form" });
    const num = (id, label, attrs = {}) => h("p", { class: "field", "data-knob": id }, h("label", { for: `c-${id}` }, label), h("input", { id: `c-${id}`, name: id, type: "number", inputmode: "numeric", ...attrs }));
    const check = (id, label, checked = false) => h("p", { class: "field check", "data-knob": id }, h("input", { id: `c-${id}`, name: id, type: "checkbox", checked }), h("label", { for: `c-${id}` }, label));
    form.append(
      this.nameField("c-your-name"),
      h("p", { class: "field" }, h("label", { for: "c-name" }, "Table name"), h("input", { id: "c-name", name: "table_name", type: "text", maxlength: "40" })),
      h("p", { class: "field" }, h("label", { for: "c-profile" }, "Rules profile"),
        h("select", { id: "c-profile", name: "profile" }, known.map((p) => h("option", { value: p.name }, (PROFILES[p.name] || { title: p.name }).title)))),
      h("p", { class: "field", "data-knob": "players" }, h("label", { for: "c-players" }, "Players"), h("select", { id: "c-players", name: "players" })),
      h("p", { class: "field", "data-knob": "teams" }, h("label", { for: "c-teams" }, "Sides"),
        h("select", { id: "c-teams", name: "teams" }, h("option", { value: "" }, "Profile default"), h("option", { value: "0" }, "Everyone plays alone"), h("option", { value: "2" }, "Two teams"), h("option", { value: "3" }, "Three teams (6 players)"))),
      num("target", "Target score", { min: "1", max: "10000" }),
      check("one_hand", "One-hand match"),
      num("bag_limit", "Bags before a penalty", { min: "1", max: "100", placeholder: "10" }),
      num("bag_penalty", "Bag penalty (points)", { min: "0", max: "10000", placeholder: "100" }),
      check("blind_nil", "Blind Nil allowed", true),
      h("p", { class: "field", "data-knob": "bidding" }, h("label", { for: "c-bidding" }, "Bidding"),
        h("select", { id: "c-bidding", name: "bidding" }, ["standard", "mirror", "suicide", "whiz"].map((b) => h("option", { value: b }, b[0].toUpperCase() + b.slice(1))))),
      check("jokers", "Jokers (Big and Little Joker as top trumps)"),
      check("ten_for_200", "10-for-200"),
      h("fieldset", { class: "field", "data-knob": "turn_timer" }, h("legend", {}, "Turn timer"),
        h("p", { class: "check" }, h("input", { id: "c-timer-on", name: "timer_on", type: "checkbox" }), h("label", { for: "c-timer-on" }, "Use a turn timer")),
        h("p", {}, h("label", { for: "c-turn_timer" }, "Seconds per turn"), h("input", { id: "c-turn_timer", name: "turn_timer", type: "number", min: "5", max: "600", value: "30" }))),
      h("p", { class: "field" }, h("label", { for: "c-cpu" }, "CPU strength for empty seats"), h("span", { id: "c-cpu-slot" })),
      check("private", "Private (invite code only)"),
      check("spectators", "Spectators allowed", true),
      num("grace_seconds", "Seconds a dropped player's seat waits", { min: "0", max: "600", value: "30" }),
      h("p", { class: "field" }, h("label", { for: "c-first_dealer" }, "First dealer"),
        h("select", { id: "c-first_dealer", name: "first_dealer" })),
      h("p", { class: "form-error", role: "alert", id: "create-error" }),
      h("div", { class: "button-row" }, h("button", { type: "submit", class: "primary" }, "Create the table"),
        h("button", { type: "button", id: "c-cpus" }, "Create and play against CPUs now")));
    this.page("Create a table", h("p", {}, "You are the owner: you start the match when everyone is seated, and can fill empty seats with CPU players."), form);
    this.cpuSelect("c-cpu").then((sel) => { const slot = form.querySelector("#c-cpu-slot"); if (slot) slot.replaceWith(sel); });
    const profileSel = form.querySelector("#c-profile");
    const sync = () => {
      const p = known.find((x) => x.name === profileSel.value) || { players: [4], options: [] };
      form.querySelector("#c-target").placeholder = targetHint(profileSel.value);
      const players = form.querySelector("#c-players");
      clear(players);
      for (const n of p.players) players.append(h("option", { value: String(n), selected: n === 4 }, String(n)));
      const offered = new Set(p.options || []);
      for (const el of form.querySelectorAll("[data-knob]")) {
        const k = el.dataset.knob;
        const show = ["target", "turn_timer", "private", "spectators", "grace_seconds"].includes(k) ? true : k === "one_hand" ? p.name === "game93" || offered.has(k) : k === "players" ? p.players.length > 1 : offered.has(k) || (k === "teams" && offered.has("teams"));
        el.hidden = !show;
      }
      syncDealer();
    };
    // the first dealer: one of the table's seats, named as the table names them (you, the
    // creator, sit in the first seat, at the bottom: South; the value stays the seat's index)
    const syncDealer = () => {
      const n = Number(form.querySelector("#c-players").value) || 4;
      const sel = form.querySelector("#c-first_dealer");
      const keep = sel.value;
      clear(sel).append(h("option", { value: "" }, "Random"));
      for (let s = 0; s < n; s++) {
        const place = PLACES[n] ? PLACES[n][s] : `Seat ${s + 1}`;
        sel.append(h("option", { value: String(s), selected: String(s) === keep }, s === 0 ? `You (${place})` : place));
      }
    };
    // Mirror bidding has no Blind Nil (the rules turn it off): unticked and off while chosen
    const blindNil = form.querySelector("#c-blind_nil");
    const syncBidding = () => {
      const mirror = form.querySelector("#c-bidding").value === "mirror";
      if (mirror) blindNil.checked = false;
      else if (blindNil.disabled) blindNil.checked = true;
      blindNil.disabled = mirror;
      blindNil.setAttribute("aria-describedby", "c-blind_nil-note");
      form.querySelector("#c-blind_nil-note").textContent = mirror ? "Mirror bidding has no Blind Nil." : "";
    };
    form.querySelector("[data-knob=blind_nil]").append(h("span", { class: "note", id: "c-blind_nil-note" }));
    form.querySelector("#c-bidding").addEventListener("change", syncBidding);
    form.querySelector("#c-players").addEventListener("change", syncDealer);
    profileSel.addEventListener("change", () => { sync(); syncBidding(); });
    sync();
    const collect = () => {
      const f = new FormData(form);
      const o = { profile: f.get("profile"), name: (f.get("table_name") || "").trim(), cpu: f.get("cpu") || "random", private: !!f.get("private"), spectators: !!f.get("spectators") };
      const visible = (k) => { const el = form.querySelector(`[data-knob=${k}]`); return el && !el.hidden; };
      if (visible("players")) o.players = Number(f.get("players"));
      if (visible("teams") && f.get("teams") !== "") o.teams = Number(f.get("teams"));
      if (f.get("target")) o.target = Number(f.get("target"));
      if (visible("one_hand")) o.one_hand = !!f.get("one_hand");
      for (const k of ["bag_limit", "bag_penalty"]) if (visible(k) && f.get(k)) o[k] = Number(f.get(k));
      for (const k of ["blind_nil", "jokers", "ten_for_200"]) if (visible(k)) o[k] = !!f.get(k);
      if (visible("bidding")) o.bidding = f.get("bidding");
      if (visible("turn_timer") && f.get("timer_on")) o.turn_timer = Number(f.get("turn_timer") || 30);
      if (f.get("grace_seconds")) o.grace_seconds = Number(f.get("grace_seconds"));
      if (f.get("first_dealer") !== "") o.first_dealer = Number(f.get("first_dealer"));
      return o;
    };
    const submit = async (cpus) => {
      const err = form.querySelector("#create-error");
      err.textContent = "";
      for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
      try {
        await this.ensureSession(form.querySelector("#c-your-name").value);
        await this.createTable(collect(), cpus);
      } catch (ex) {
        // the server names the option by its knob ("blind_nil: ..."): say the field's label
        const m = /^([a-z][a-z0-9_]*): /.exec(ex.message || "");
        const input = m && form.querySelector(`#c-${m[1]}`);
        const label = input && (form.querySelector(`label[for=c-${m[1]}]`) || input.closest("fieldset")?.querySelector("legend"));
        if (label) {
          input.setAttribute("aria-invalid", "true");
          ex.message = `${label.textContent}: ${ex.message.slice(m[0].length)}`;
        }
        this.showError(err, ex);
      }
    };
    form.addEventListener("submit", (e) => { e.preventDefault(); submit(false); });
    // the same checks of the fields as the form's own submit button
    form.querySelector("#c-cpus").addEventListener("click", () => { if (form.reportValidity()) submit(true); });
  }

  async renderStats() {
    const page = this.page("Statistics and history");
    // No token, no session: not asked of /api/me (its 401 was a failed request in the
    // console of every fresh visitor's statistics page).
    if (store.token() && !this.user) {
      this.conn.open();
      try { this.user = await api("GET", "/api/me"); } catch { /* the session has ended */ }
    }
    if (!this.user) { page.append(h("p", { id: "stats-none" }, "Play a match first: your statistics and history appear here.")); this.recordsPanel(page); return; }
    page.append(...await this.userSections());
    this.recordsPanel(page);
  }

  /** Who is playing, their statistics and their match history (the statistics page above
   * the upload form). */
  async userSections() {
    const parts = [h("p", {}, `Playing as ${this.user.name}${this.user.guest ? " (guest)" : ""}.`)];
    try {
      const s = await api("GET", `/api/users/${this.user.id}/stats`);
      parts.push(this.statsTable(s.stats));
    } catch (err) { parts.push(h("p", {}, `Statistics are not available: ${reasonEnd(err.message)}`)); }
    parts.push(await this.historySection());
    return parts;
  }

  /** The match history: each row's score said from the user's side ("You and Wren 320 to 280
   * West and East", "… so far, after 3 hands", "not finished"), its record and, finished, its score sheet (the table's
   * sheet dialog); the records the user uploaded for review too, marked; each of those, and
   * each match the user continued from an upload once it has ended, with a Delete button
   * (asked first: :meth:`deleteDialog`), as the server says (`deletable`). */
  async historySection() {
    let hist;
    try { hist = await api("GET", `/api/users/${this.user.id}/history`); } catch (err) { return h("p", { id: "history" }, `History is not available: ${reasonEnd(err.message)}`); }
    // (the heading takes the focus when the last record kept for review is deleted)
    const sec = h("section", { class: "panel", id: "history", "aria-labelledby": "hist-title" }, h("h2", { id: "hist-title", tabindex: "-1" }, "Match history"));
    if (!hist.length) { sec.append(h("p", {}, "No matches yet.")); return sec; }
    const t = h("table", { class: "history-table" },
      h("caption", {}, "Your matches and uploaded records, newest first; each score gives your side's first."),
      h("thead", {}, h("tr", {}, ["When", "Rules", "Players", "Score", "Result", "Record"].map((x) => h("th", { scope: "col", class: x === "Rules" || x === "Result" ? "wide-only" : null }, x)))));
    const b = h("tbody");
    const dlg = sheetDialog();
    // why a deletion failed, shown where the history starts (and said by the announcer)
    const note = h("p", { class: "form-error", id: "history-note" });
    const askDelete = this.deleteDialog(sec, note);
    let opener = null;
    dlg.addEventListener("close", () => { if (opener && opener.isConnected) opener.focus(); });
    const openSheet = async (it, namer, button) => {
      opener = button;
      const body = dlg.querySelector("#sheet-body");
      clear(body).append(h("p", {}, "Loading…"));
      if (!dlg.open) { dlg.showModal(); dlg.querySelector("#sheet-title").focus(); }
      try {
        const d = await api("GET", `/api/tables/${encodeURIComponent(it.game_id)}/sheet`);
        clear(body).append(...sheetContent(d, namer));
      } catch (err) { clear(body).append(h("p", { role: "alert" }, `The score sheet is not available: ${reasonEnd(err.message)}`)); }
    };
    for (const it of hist) {
      const namer = historyNamer(it);
      const when = new Date(it.updated_at * 1000).toLocaleString();
      const what = `${it.uploaded ? "the uploaded record" : it.continued ? "the continued match" : "the match"} of ${when} (${it.names.join(", ")})`;
      // a match continued from a record you uploaded says so where its result is, as a record
      // kept for review does ("Won, continued from a record"): read with its row
      const result = it.uploaded ? (it.finished ? "Uploaded for review" : "Uploaded for review, not finished")
        : `${it.finished ? (it.won ? "Won" : it.winner === null ? "Draw" : "Lost") : "Unfinished"}${it.continued ? ", continued from a record" : ""}`;
      // a record uploaded for review has its sheet finished or not: the hands played so far
      const sheet = it.finished || it.uploaded ? h("button", { type: "button", class: "history-sheet", "aria-label": `Score sheet of ${what}`, "aria-haspopup": "dialog" }, "Score sheet") : null;
      if (sheet) sheet.addEventListener("click", () => openSheet(it, namer, sheet));
      // a record kept for review is the uploader's to delete, and so is a match continued
      // from an upload once it has ended (both count towards the server's caps on records
      // kept for review, past which an upload is refused: 413); `deletable` says which (a
      // server without it: the records kept for review)
      const deletable = "deletable" in it ? it.deletable : it.uploaded;
      const del = deletable ? h("button", { type: "button", class: "history-delete", "aria-label": `Delete ${what}`, "aria-haspopup": "dialog" }, "Delete") : null;
      if (del) del.addEventListener("click", () => askDelete({ it, what, button: del }));
      b.append(h("tr", { "data-game": it.game_id, class: it.uploaded ? "uploaded" : it.continued ? "continued" : null },
        // on a phone the rules go under the date (their column is hidden)
        h("td", {}, when, h("small", { class: "narrow-only" }, h("br"), it.profile)),
        h("td", { class: "wide-only" }, it.profile),
        h("td", {}, it.names.join(", ")),
        // on a phone the result goes under the score (its column is hidden; an unfinished
        // match's score already says "so far" or "not finished": a continued one's, only that)
        h("td", { class: "history-score" }, namer.scoreText(),
          it.finished || it.uploaded || it.continued ? h("small", { class: "narrow-only" }, h("br"),
            it.finished || it.uploaded ? result : "Continued from a record") : null),
        h("td", { class: "wide-only" }, result),
        h("td", {}, it.finished || it.uploaded ? h("a", { href: `/api/games/${encodeURIComponent(it.game_id)}/record`, download: `spades-${it.game_id}.json`, "data-record": it.game_id, "aria-label": `Download the record of ${what}` }, "Download") : "—",
          sheet ? " " : null, sheet, del ? " " : null, del)));
    }
    t.append(b);
    sec.append(note, t, dlg, askDelete.dialog);
    return sec;
  }

  /** The confirmation asked before a record kept for review (or a continued match that has
   * ended) is deleted: a modal dialog (the focus on "Keep it", as Blind Nil's on "Cancel";
   * Tab kept inside; Escape keeps the record too, the focus back on its Delete button). Its
   * answer "Delete the record" sends `DELETE /api/games/{id}` (:meth:`deleteKept`). Returns
   * the function that asks it of a row (`{it, what, button}`), with the dialog as its
   * `dialog`. */
  deleteDialog(sec, note) {
    const dlg = h("dialog", { class: "confirm-dialog", id: "delete-dialog", role: "alertdialog", "aria-labelledby": "delete-title", "aria-describedby": "delete-text" },
      h("h2", { id: "delete-title" }, "Delete this record?"),
      h("p", { id: "delete-text" }),
      h("div", { class: "button-row" },
        h("button", { type: "button", id: "delete-keep", class: "primary", onclick: () => dlg.close("keep") }, "Keep it"),
        h("button", { type: "button", id: "delete-yes", class: "danger", onclick: () => dlg.close("delete") }, "Delete the record")));
    dlg.addEventListener("keydown", (e) => trapTab(e, dlg));
    let asked = null;
    dlg.addEventListener("close", () => {
      const row = asked;
      asked = null;
      if (!row) return;
      if (dlg.returnValue === "delete") this.deleteKept(row, sec, note);
      else if (row.button.isConnected) row.button.focus();
    });
    const ask = (row) => {
      if (row.button.getAttribute("aria-busy") === "true" || dlg.open) return; // (being deleted)
      asked = row;
      dlg.querySelector("#delete-text").textContent = `Delete ${row.what} from the server? Its download and its score sheet go with it, for good.`;
      dlg.returnValue = ""; // (not the answer of an earlier question: Escape leaves it empty)
      dlg.showModal();
      dlg.querySelector("#delete-keep").focus();
    };
    ask.dialog = dlg;
    return ask;
  }

  /** `DELETE /api/games/{id}` of a record kept for review, or of a continued match that has
   * ended (`row`: `{it, what, button}`; 409 while someone is still at its table: said).
   * Deleted: its row goes, "Record deleted." is said, and the focus goes to the next record's
   * Delete button (else the one before, else the history's heading). Refused or not sent: why,
   * in words (said, and shown in `note`); the row stays, the focus on its button. */
  async deleteKept({ it, what, button }, sec, note) {
    button.setAttribute("aria-busy", "true");
    if (button.isConnected) button.focus();
    try {
      await api("DELETE", `/api/games/${encodeURIComponent(it.game_id)}`);
    } catch (err) {
      button.removeAttribute("aria-busy");
      const why = err.status === 404 ? "the server has no such record of yours (it may have been deleted already: reload the page to see your history as it is now)"
        : err.status ? err.message
          : "the server could not be reached. Check your connection and try again";
      const words = `The record was not deleted: ${reasonEnd(why)}`;
      note.textContent = words;
      this.announcer.say(words, { assertive: true });
      if (button.isConnected) button.focus();
      return;
    }
    const all = [...sec.querySelectorAll(".history-delete")];
    const i = all.indexOf(button);
    const next = all[i + 1] || all[i - 1] || sec.querySelector("#hist-title");
    const row = button.closest("tr");
    const table = row && row.closest("table");
    if (row) row.remove();
    if (table && !table.querySelector("tbody tr")) table.replaceWith(h("p", {}, "No matches yet."));
    note.textContent = "";
    if (next) next.focus();
    this.announcer.say(`Record deleted: ${what}.`);
  }

  statsTable(stats) {
    const sec = h("section", { class: "panel", "aria-labelledby": "stats-title" }, h("h2", { id: "stats-title" }, "Your statistics"));
    const total = stats && (stats.total || stats);
    if (!total || typeof total !== "object") { sec.append(h("p", {}, "No games yet.")); return sec; }
    const dl = h("dl", { class: "stats" });
    const label = (k) => k.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
    for (const [k, v] of Object.entries(total)) {
      if (v !== null && typeof v === "object") continue;
      // (a negative number with the minus sign, "−29", as the score sheet and the history
      // write points: it was "-29" here alone)
      // the average as the server rounds it, to one decimal as spades stats says it (it was
      // "39.20" for 39.25, and "32" for 32.0)
      const decimal = k === "average_points" || !Number.isInteger(v);
      const shown = typeof v !== "number" ? String(v) : !decimal ? scoreText(v)
        : v.toFixed(1).replace(/^-(?=0\.0$)/, "").replace(/^-/, "−");
      dl.append(h("div", {}, h("dt", {}, label(k)), h("dd", {}, shown)));
    }
    sec.append(dl);
    // whose counts they are (as spades.stats counts them, and spades stats says in the
    // terminal), and which matches: the server keeps totals of finished matches alone
    sec.append(h("p", { class: "stats-note" }, "Over your finished matches only: a match not finished adds nothing here, not even its hands, until it ends (spades stats in the terminal also counts the hands so far of its unfinished games). Bids made and set are your side's contracts; nil and blind nil, your own bids; bags and bag penalties, your side's."));
    return sec;
  }

  recordsPanel(page) {
    const form = h("form", { class: "panel", "aria-labelledby": "rec-title" },
      h("h2", { id: "rec-title" }, "Upload a record"),
      h("p", {}, "A ", h("code", {}, "spades-record/1"), " file from this or another table: keep it for review, or continue an unfinished match against CPUs."),
      store.token() ? null : this.nameField("rec-name"),
      h("p", { class: "field" }, h("label", { for: "rec-file" }, "Record file"), h("input", { id: "rec-file", name: "file", type: "file", accept: ".json,application/json", required: true })),
      h("fieldset", { class: "field" }, h("legend", {}, "What to do"),
        h("label", { class: "inline" }, h("input", { type: "radio", name: "mode", value: "review", checked: true }), " Keep it for review"),
        h("label", { class: "inline" }, h("input", { type: "radio", name: "mode", value: "continue" }), " Continue the match")),
      h("p", { class: "field", id: "rec-seat-field", hidden: true }, h("label", { for: "rec-seat" }, "Your seat (CPUs take the others)"),
        h("select", { id: "rec-seat", name: "seat" }, [0, 1, 2, 3].map((i) => h("option", { value: String(i) }, `Seat ${i}`)))),
      h("p", { class: "form-error", role: "alert", id: "rec-error" }),
      h("p", { role: "status", id: "rec-status" }),
      h("button", { type: "submit" }, "Upload"));
    const seatField = form.querySelector("#rec-seat-field");
    const syncMode = () => { seatField.hidden = new FormData(form).get("mode") !== "continue"; };
    let seatChosen = false; // a seat chosen by hand while the file was read is kept
    form.addEventListener("change", async (e) => {
      syncMode();
      if (e.target.id === "rec-seat") seatChosen = true;
      if (e.target.id !== "rec-file") return;
      seatChosen = false;
      // offer the record's seats by name
      const file = e.target.files[0];
      form.querySelector("#rec-error").textContent = "";
      // the seats of no record until this one is read (not the names of the file before)
      const sel = clear(form.querySelector("#rec-seat"));
      for (let i = 0; i < 4; i++) sel.append(h("option", { value: String(i) }, `Seat ${i}`));
      if (!file) return;
      try {
        const rec = await this.readRecord(file);
        if (form.querySelector("#rec-file").files[0] !== file) return; // another file chosen since: its own read names the seats
        const deal = rec.hands && rec.hands[0] && rec.hands[0].deal;
        const n = (rec.rules && rec.rules.players) || (deal && deal.length) || 4;
        const names = rec.names || rec.players || [];
        // seats numbered from 0, as the record (and the server's reasons about it) number them
        const chosen = seatChosen ? Number(sel.value) : null;
        clear(sel);
        for (let i = 0; i < n; i++) sel.append(h("option", { value: String(i) }, names[i] ? `Seat ${i} (${names[i]})` : `Seat ${i}`));
        if (chosen !== null && chosen < n) sel.value = String(chosen);
        // a record exported by the terminal (spades export) says whose seat it was: "human"
        else if (Number.isInteger(rec.human) && rec.human >= 0 && rec.human < n) sel.value = String(rec.human);
      } catch (ex) { if (form.querySelector("#rec-file").files[0] === file) form.querySelector("#rec-error").textContent = reasonSentence(ex.message); }
    });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const err = form.querySelector("#rec-error");
      const ok = form.querySelector("#rec-status");
      err.textContent = ""; ok.textContent = "";
      try {
        const file = form.querySelector("#rec-file").files[0];
        if (!file) throw new Error("Choose a record file first.");
        const record = await this.readRecord(file);
        const name = form.querySelector("#rec-name");
        await this.ensureSession(name && name.value);
        const mode = new FormData(form).get("mode");
        const body = { record, mode };
        if (mode === "continue") body.seat = Number(form.querySelector("#rec-seat").value);
        const out = await api("POST", "/api/records", body);
        if (out.table_id) { location.hash = `#/table/${out.table_id}`; return; }
        const sum = out.summary || {};
        const what = sum.scores ? ` Scores ${sum.scores.map(scoreText).join(" to ")}.` : ""; // (no dash: not said)
        ok.append(`Stored for review (it is in your match history).${what} `, h("a", { href: `/api/games/${encodeURIComponent(out.game_id)}/record`, download: `spades-${out.game_id}.json`, "data-record": out.game_id }, "Download it again"));
        const old = page.querySelector("#history");
        const none = page.querySelector("#stats-none");
        if (old && this.user) old.replaceWith(await this.historySection());
        // a first upload (its name field made the session): the page said "Play a match
        // first", and the history the status points to was nowhere; now it is shown
        else if (none && this.user) none.replaceWith(...await this.userSections());
      } catch (ex) {
        if (ex.status === 413 && NO_ROOM.test(ex.message)) await this.showNoRoom(page, err, ex);
        else this.showError(err, ex);
      }
    });
    page.append(form);
  }

  /** An upload for review refused for the server's caps on records kept for review (413):
   * in plain words from the numbers the server sends with it (`room`: its `detail` names the
   * cap by its `--limit` name, for operators), then the way this page makes room: the
   * Delete buttons of the records you kept for review and of the continued matches of yours
   * that have ended, in the history above, and a button to them; or, having none, that the
   * server deletes one nobody opens. */
  async showNoRoom(page, box, ex) {
    // a first upload (its name field made the session): the history is shown, as after an
    // upload that was kept
    const none = page.querySelector("#stats-none");
    if (none && this.user) none.replaceWith(...await this.userSections());
    const message = ex.message || "";
    const room = ex.data && typeof ex.data === "object" && ex.data.room ? ex.data.room : null;
    // what you may delete (a Delete button each), and what of yours counts, deletable or not
    // yet (a continued match still going)
    const own = page.querySelectorAll(".history-delete").length;
    const mine = Math.max(own, page.querySelectorAll(".history-table tr.uploaded, .history-table tr.continued").length);
    let reason;
    let pruned = "";
    if (room) {
      const records = (n) => plural(n, "record");
      const yours = own ? "delete some of yours to make room (each has a Delete button in your match history, above)."
        : mine ? "none of yours can be deleted yet: a continued match can be once it has ended." : "you keep none yourself that you could delete.";
      if (room.whose === "address") {
        reason = own && own >= room.kept
          ? `You keep ${records(room.kept)} uploaded, the most one address may keep: delete some to make room (each has a Delete button in your match history, above).`
          : `Your address keeps ${records(room.kept)} uploaded${mine ? ` (${mine} of them yours)` : ""}, the most one address may keep: ${yours}`;
      } else {
        // (how many the server keeps for everyone is not said: only that it is full, and
        // what your address keeps)
        const ours = room.kept > 0 ? ` Your address keeps ${records(room.kept)} uploaded${mine ? ` (${mine} of them yours)` : ""}${room.most > 0 ? `, of the ${room.most} one address may keep` : ""}.` : "";
        reason = `The server keeps as many records uploaded by everyone as it may.${ours} ${yours.replace(/^./, (c) => c.toUpperCase())}`;
      }
      if (room.cost > 1) reason += ` This record counts as ${room.cost} (a record counts once for each 100 KB begun).`;
      if (room.unopened_days > 0) pruned = ` The server deletes a record kept for review that nobody opens (downloads, or looks at its score sheet) for ${plural(room.unopened_days, "day")}.`;
    } else {
      // (a server without `room`: its reason, the limit's name taken out)
      const said = message.split(/\. To make room, /)[0].replace(/ \((review_uploads_per_address|review_uploads)\)/g, "");
      const days = /nobody opens .*? for ([\d.]+) days is deleted/.exec(message);
      if (days) pruned = ` The server deletes a record kept for review that nobody opens (downloads, or looks at its score sheet) for ${days[1]} days.`;
      reason = `${said.replace(/^./, (c) => c.toUpperCase())}. ${own
        ? "To make room, delete a record you kept for review or a continued match of yours that has ended: each has a Delete button in your match history, above."
        : "You keep no record for review, nor a continued match that has ended, that you could delete."}`;
    }
    this.showError(box, new Error("")); // (the name field no longer marked invalid)
    // (records kept for review and matches continued from uploads count together)
    const head = room && room.continued ? "No room to keep this match to continue." : "No room to keep this record for review.";
    box.append(room ? `${head} ${reason}` : reason, pruned);
    if (own) {
      box.append(" ", h("button", { type: "button", class: "small", onclick: () => (page.querySelector(".history-delete") || page.querySelector("#hist-title"))?.focus() }, "Go to the records you kept"));
    }
  }

  /** A record file read and parsed: refused when over the server's limit (the file, and
   * the record as it is sent) or when it is not JSON, saying where the parser stopped. */
  async readRecord(file) {
    const limit = (this.limits && this.limits.max_record_bytes) || 1000000;
    if (limit && file.size > limit) throw new Error(`A record file may be at most ${limit} bytes; this one is ${file.size}.`);
    // as spades replay does: a file that is not UTF-8 text (an image, an archive) says so
    // and where, not a JSON message quoting its bytes
    const bytes = new Uint8Array(await file.arrayBuffer());
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      const bad = firstBadByte(bytes);
      const where = bad === null ? "" : ` at ${lineColumn(new TextDecoder().decode(bytes.subarray(0, bad)))} (byte 0x${bytes[bad].toString(16).padStart(2, "0")})`;
      throw new Error(`That file is not UTF-8 text${where}: a record is a JSON text file.`);
    }
    let record;
    try {
      record = JSON.parse(text);
    } catch (ex) {
      // JSON Lines (spades replay and spades import read them): a record a line, not one
      const lines = text.split("\n").filter((line) => line.trim());
      const record = (line) => {
        try { const v = JSON.parse(line); return v !== null && typeof v === "object" && !Array.isArray(v); } catch { return false; }
      };
      if (lines.length > 1 && lines.every(record)) {
        throw new Error(`That file holds ${lines.length} lines of JSON, one record each (JSON Lines): upload one record a file (spades replay and spades import read them all).`);
      }
      const m = /line (\d+) column (\d+)/.exec(ex.message);
      const at = /position (\d+)/.exec(ex.message);
      // A comma after the last item (["a", "b",]): a hand-edited record's most common slip,
      // which the parser calls an unexpected "]" (and quotes the text around it); said as
      // what it is, at the comma (as spades replay says it)
      const stopped = at ? Number(at[1]) : m ? null : firstBadOffset(text);
      const comma = stopped === null ? null : trailingComma(text, stopped);
      if (comma !== null) {
        const close = lineColumn(text.slice(0, stopped)).replace(/, column.*/, "");
        const same = close === lineColumn(text.slice(0, comma)).replace(/, column.*/, "");
        throw new Error(`That file is not JSON at ${lineColumn(text.slice(0, comma))}: a comma with no item after it, before the "${text[stopped]}"${same ? "" : ` on ${close}`}. JSON allows no comma after the last item; remove it.`);
      }
      let where = "";
      if (m) where = ` at line ${m[1]}, column ${m[2]}`;
      else if (at) {
        const before = text.slice(0, Number(at[1])).split("\n");
        where = ` at line ${before.length}, column ${before[before.length - 1].length + 1}`;
      } else if (ENDED.test(ex.message)) {
        const lines = text.split("\n");
        where = ` at its end (line ${lines.length}, column ${lines[lines.length - 1].length + 1})`;
      } else {
        // Chromium leaves the place out of some messages ("Unexpected token ',', ..."[ , "2C"...
        // is not valid JSON"): find it by the shortest beginning of the text that fails for
        // another reason than ending early (every shorter one parses or just ends early).
        const stop = firstBadOffset(text);
        if (stop !== null) {
          const before = text.slice(0, stop).split("\n");
          where = ` at line ${before.length}, column ${before[before.length - 1].length + 1}`;
        }
      }
      // Chromium quotes the text ("Unexpected token 'o', "no record here\n" is not valid
      // JSON"): left out, with its control characters, which a screen reader reads as noise
      const why = ex.message.replace(/ in JSON.*$/s, "").replace(/ at position \d+.*$/s, "").replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, "")
        .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
      throw new Error(`That file is not JSON${where}: ${why}.`);
    }
    // What is sent is the record written again (JSON.stringify: no spaces, but an escape
    // or a number may come out longer): held to the limit as the file is, so the server
    // (which takes the limit and room for the fields around the record) does not refuse it
    const sent = new TextEncoder().encode(JSON.stringify(record)).length;
    if (limit && sent > limit) throw new Error(`A record may be at most ${limit} bytes; this one, as it is sent, is ${sent}.`);
    return record;
  }

  renderRules(name) {
    const pick = name && PROFILES[name] ? name : "cardgames-club";
    const tabs = h("nav", { class: "subnav", "aria-label": "Rules profiles" }, h("ul", {},
      Object.entries(PROFILES).map(([k, p]) => h("li", {}, h("a", { href: `#/rules/${k}`, "aria-current": k === pick ? "page" : null }, p.title)))));
    const p = PROFILES[pick];
    this.page(`Rules: ${p.title}`, tabs,
      h("p", { class: "lede" }, p.blurb),
      h("article", { class: "prose panel", html: rulesHtml(pick) }),
      h("p", {}, "See also the ", h("a", { href: "#/glossary" }, "glossary"), " and the ", h("a", { href: "#/strategy" }, "strategy guide"), "."));
  }

  renderGlossary() {
    const dl = h("dl", { class: "glossary panel" });
    for (const [term, def] of GLOSSARY) dl.append(h("div", {}, h("dt", {}, term), h("dd", {}, def)));
    this.page("Glossary", dl, h("p", {}, h("a", { href: "#/rules" }, "Rules"), " · ", h("a", { href: "#/strategy" }, "Strategy")));
  }

  renderStrategy() {
    this.page("Strategy guide", h("article", { class: "prose panel", html: STRATEGY }),
      h("p", {}, h("a", { href: "#/rules" }, "Rules"), " · ", h("a", { href: "#/glossary" }, "Glossary")));
  }

  helpContent() {
    const table = (caption, rows) => h("table", { class: "keys" }, h("caption", {}, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Action"), h("th", { scope: "col" }, "Key"))),
      h("tbody", {}, rows.map(([a, k]) => h("tr", {}, h("td", {}, a), h("td", {}, h("kbd", {}, k))))));
    return [
      h("p", {}, "Everything can be done with the keyboard alone. The shortcut keys work only while the focus is on the table, and can be switched off in ",
        h("a", { href: "#/settings" }, "Settings"), ` (they are ${this.settings.shortcuts ? "on" : "off"}).`),
      table("Your hand (one focusable list of cards)", HAND_KEYS),
      table("Shortcut keys at the table", SHORTCUTS),
      table("Before the match starts (the waiting room)", WAITING_KEYS),
      h("p", {}, "Before the start, the keys about cards, bids and scores say that the match has not started yet (J too, for a player)."),
      h("p", {}, "Everything that happens is announced as it happens, in order, one sentence at a time; your turn comes after what happened before it. Only refused actions and the timer's last warning interrupt. The last announcements are also listed under “Table talk”."),
      h("p", {}, this.idleHelp()),
      h("p", {}, "On touch screens: tap a card to select it, tap it again (or “Play selected card”) to play it. While you bid, the Bid card opens a box to type your number and the Nil card bids Nil. With two fingers on the table (three on an iPhone): tap for whose turn, swipe up for the trick, down for the round, left for the scores, right to repeat. No gesture is needed for anything: the same are buttons under “Ask the table”."),
    ];
  }

  /** What happens when you do not play (the server's `idle_seconds`, from `welcome`). */
  idleHelp() {
    const secs = Number(this.limits && this.limits.idle_seconds);
    if (this.limits && secs === 0) return "At a table without a turn timer, the game waits for you as long as you take.";
    const after = secs >= 60 && Number.isInteger(secs / 60) ? `${secs / 60} minute${secs === 60 ? "" : "s"}` : secs > 0 ? `${secs} second${secs === 1 ? "" : "s"}` : "a few minutes";
    return `At a table without a turn timer, if another player has waited ${after} for your turn, a CPU plays for you so that they wait no longer, and the page says so. Press “Take my seat back” (above your hand) to play again.`;
  }

  renderHelp() {
    this.page("Keyboard and screen reader help", ...this.helpContent());
  }

  openHelp() {
    let dlg = document.getElementById("help-dialog");
    if (!dlg) {
      dlg = h("dialog", { id: "help-dialog", class: "help-dialog", "aria-labelledby": "help-title" },
        h("h2", { id: "help-title", tabindex: "-1" }, "Keys"), ...this.helpContent(),
        h("form", { method: "dialog", class: "button-row" }, h("button", { type: "submit", class: "primary" }, "Close")));
      dlg.addEventListener("keydown", (e) => trapTab(e, dlg)); // (modal: Tab goes round inside)
      document.body.append(dlg);
    }
    // at its start (a screen reader reads on from there), not on the first link, "Settings"
    // in its first sentence, which would take a player away from the table
    if (!dlg.open) { dlg.showModal(); dlg.querySelector("#help-title").focus(); }
  }

  renderSettings() {
    const s = this.settings;
    const form = h("form", { class: "panel settings" },
      h("fieldset", {}, h("legend", {}, "Sound"),
        h("p", { class: "check" }, h("input", { id: "s-muted", type: "checkbox", checked: s.muted }), h("label", { for: "s-muted" }, "Mute")),
        h("p", {}, h("label", { for: "s-volume" }, "Volume"), h("input", { id: "s-volume", type: "range", min: "0", max: "100", step: "5", value: String(Math.round(s.volume * 100)), "aria-valuetext": `${Math.round(s.volume * 100)} percent` })),
        h("div", { class: "button-row" }, SOUND_NAMES.map((n) => h("button", { type: "button", class: "small", onclick: () => this.sounds.play(n) }, `Try “${n}”`)))),
      h("fieldset", {}, h("legend", {}, "Animations"),
        ...[["auto", "Follow my system (off when it asks for reduced motion)"], ["on", "On"], ["off", "Off"]].map(([v, l]) =>
          h("p", { class: "check" }, h("input", { type: "radio", name: "anim", id: `s-anim-${v}`, value: v, checked: s.animations === v }), h("label", { for: `s-anim-${v}` }, l)))),
      h("fieldset", {}, h("legend", {}, "Keyboard and announcements"),
        h("p", { class: "check" }, h("input", { id: "s-shortcuts", type: "checkbox", checked: s.shortcuts }), h("label", { for: "s-shortcuts" }, "Single-key shortcuts at the table")),
        h("p", { class: "check" }, h("input", { id: "s-pace", type: "checkbox", checked: s.pace === 0 }), h("label", { for: "s-pace" }, "Announce immediately (no gap between announcements; for fast screen reader users)")),
        h("p", { class: "check" }, h("input", { id: "s-autoplay", type: "checkbox", checked: s.autoplay }), h("label", { for: "s-autoplay" }, "Play my only legal card for me")),
        h("p", {}, h("label", { for: "s-summary" }, "The hand's summary stays"),
          h("select", { id: "s-summary" }, [[4, "4 seconds"], [8, "8 seconds"], [15, "15 seconds"], [30, "30 seconds"], [0, "until I put it away (Escape, Enter or a tap)"]].map(([v, l]) =>
            h("option", { value: String(v), selected: Number(s.summarySeconds) === v }, l))))),
      h("fieldset", {}, h("legend", {}, "Self-voicing (for players without a screen reader)"),
        h("p", { class: "check" }, h("input", { id: "s-voice-on", type: "checkbox", checked: !!s.selfVoicing, disabled: !this.voice.available }),
          h("label", { for: "s-voice-on" }, this.voice.available ? "Speak every announcement with the browser's voice (X stops it, L repeats)" : "Speak every announcement (this browser has no speech synthesis)")),
        h("p", {}, h("label", { for: "s-voice-name" }, "Voice"),
          h("select", { id: "s-voice-name" }, h("option", { value: "" }, "The browser's default"),
            this.voice.voices().map((v) => h("option", { value: v.name, selected: v.name === s.voiceName }, `${v.name} (${v.lang})`)))),
        h("p", {}, h("label", { for: "s-voice-rate" }, "Speaking rate"), h("input", { id: "s-voice-rate", type: "range", min: "0.5", max: "3", step: "0.1", value: String(s.voiceRate ?? 1), "aria-valuetext": `${s.voiceRate ?? 1} times` })),
        h("p", {}, h("label", { for: "s-voice-volume" }, "Voice volume"), h("input", { id: "s-voice-volume", type: "range", min: "0", max: "100", step: "5", value: String(Math.round((s.voiceVolume ?? 1) * 100)), "aria-valuetext": `${Math.round((s.voiceVolume ?? 1) * 100)} percent` })),
        h("div", { class: "button-row" }, h("button", { type: "button", class: "small", onclick: () => this.voice.speak("This is the voice that will read the game.") }, "Try the voice"))),
      h("fieldset", {}, h("legend", {}, "Cards"),
        h("p", { class: "check" }, h("input", { id: "s-four", type: "checkbox", checked: s.fourColour }), h("label", { for: "s-four" }, "Four-colour suits (blue diamonds, green clubs)"))),
      h("p", { id: "s-saved", class: "note" }));
    form.addEventListener("change", (e) => {
      const t = e.target;
      if (t.id === "s-muted") s.muted = t.checked;
      if (t.id === "s-volume") { s.volume = Number(t.value) / 100; t.setAttribute("aria-valuetext", `${t.value} percent`); }
      if (t.name === "anim") s.animations = t.value;
      if (t.id === "s-shortcuts") s.shortcuts = t.checked;
      if (t.id === "s-pace") s.pace = t.checked ? 0 : 1;
      if (t.id === "s-autoplay") s.autoplay = t.checked;
      if (t.id === "s-summary") s.summarySeconds = Number(t.value);
      if (t.id === "s-four") s.fourColour = t.checked;
      if (t.id === "s-voice-on") { s.selfVoicing = t.checked; if (!t.checked) this.voice.stop(); }
      if (t.id === "s-voice-name") s.voiceName = t.value;
      if (t.id === "s-voice-rate") { s.voiceRate = Number(t.value); t.setAttribute("aria-valuetext", `${t.value} times`); }
      if (t.id === "s-voice-volume") { s.voiceVolume = Number(t.value) / 100; t.setAttribute("aria-valuetext", `${t.value} percent`); }
      this.saveSettings();
      // said through the announcer: a new addition each time, so the second "Saved." is heard
      // too (a status whose words do not change says nothing); shown for the eye as well
      form.querySelector("#s-saved").textContent = "Saved.";
      this.announcer.say("Saved.");
    });
    form.querySelector("#s-volume").addEventListener("input", (e) => { s.volume = Number(e.target.value) / 100; this.saveSettings(); });
    this.page("Settings", form);
  }

  // ------------------------------------------------------------------ keyboard shortcuts
  onKey(e) {
    const t = this.table;
    if (e.key === "Escape") {
      // Escape puts the hand's summary away (a dialog takes Escape for itself)
      if (t && t.summaryShown && t.summaryShown() && !document.querySelector("dialog[open]")) { e.preventDefault(); t.dismissSummary(); }
      return;
    }
    if (!t || !t.el || !t.msg || !this.settings.shortcuts) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target && (target.tagName === "TEXTAREA" || target.tagName === "SELECT" ||
      (target.tagName === "INPUT" && !["radio", "checkbox", "button", "range"].includes(target.type)) || target.isContentEditable)) return;
    // active only while the game has focus
    const a = document.activeElement;
    if (!t.el.contains(a) && a !== this.main && a !== document.body) return;
    if (document.querySelector("dialog[open]")) return;
    const k = e.key === "B" ? "B" : e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (!this.shortcut(k)) return;
    e.preventDefault();
  }

  /** What a shortcut key does at the table (also the on-screen buttons and the touch
   * gestures); false when `k` is no shortcut. */
  shortcut(k) {
    const t = this.table;
    if (!t || !t.msg) return false;
    const say = (text) => this.announcer.say(text);
    if (!t.view) {
      // the waiting room: the keys that read what there is before the start; those about
      // cards, bids and scores say the match has not started (no key is silent)
      const waiting = {
        w: () => say(t.waitingText()),
        r: () => say(t.seatsText()),
        l: () => this.announcer.repeat(),
        x: () => this.voice.stop(),
        "?": () => this.openHelp(),
      };
      for (const key of ["t", "p", "o", "i", "y", "j", "b", "B"]) waiting[key] = () => say("The match has not started yet.");
      // watching: J goes to the Sit down at the table button (or says why there is none)
      if (!t.isPlayer) waiting.j = () => t.jumpToSit();
      const fn = waiting[k];
      if (!fn) return false;
      fn();
      return true;
    }
    const actions = {
      // (offline, the turn known is the old one, and the status line says only "Offline")
      w: () => say(t.blocked ? `${t.blockedWords()} Where the game stands is said once the table is back.` : t.markedOnce("w", (mark) => t.whoseTurnText({ mark }))),
      t: () => say(t.markedOnce("t", (mark) => t.trickText(true, { mark }))),
      r: () => say(t.markedOnce("r", (mark) => t.roundText({ mark }))),
      p: () => say(t.markedOnce("p", (mark) => t.scoresText({ mark }))),
      o: () => t.readSheet(),
      l: () => this.announcer.repeat(),
      x: () => this.voice.stop(),
      i: () => t.hint(),
      y: () => {
        // (offline, the deadline known is the old one: no count from it)
        if (t.blocked) { say(`${t.blockedWords()} The time left is known again once the table is back.`); return; }
        const left = t.timeLeft();
        const turn = t.clockTurn(); // (the next hand's, behind the hand's summary)
        const mine = turn && turn.seat === t.mySeat && t.isPlayer;
        say(left === null ? "There is no turn timer running." : mine ? `You have ${plural(left, "second")} left.` : `${t.seatName(turn.seat)} has ${plural(left, "second")} left.`);
      },
      j: () => t.jumpToHand(),
      b: () => t.focusBid(),
      B: () => t.askBlindNil(),
      "?": () => this.openHelp(),
    };
    const fn = actions[k];
    if (!fn) return false;
    fn();
    return true;
  }
}

window.spadesApp = new App();
