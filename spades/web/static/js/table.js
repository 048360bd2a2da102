// The table: seats around the felt, the trick in the middle, your hand, the bidding panel,
// scores with bags, the score sheet, chat, the end-of-match screen — and everything said
// about them (announcements) and heard (sounds).

import {
  cardBack, cardFace, cardName, cardShort, cardShortSaid, isCard, sortForDisplay, suitOf,
  SUIT_NAMES, SUIT_SINGULAR, trickWinner,
} from "./cards.js";
import { clear, h, listJoin, NO_REASON, plural, reasonEnd, reasonSentence, scoreText, svgUse } from "./dom.js";
import { targetHint } from "./content.js";
import { guestMark, guestWords } from "./guest.js";
import { suggestBid, suggestPlay } from "./hint.js";
import { store } from "./storage.js";

const COMPASS = ["North", "East", "South", "West"];
// Where the others sit, seen from the bottom of the table, clockwise (the next player on your
// left): you are South; with four, your partner is North.
export const PLACES = {
  3: ["South", "West", "East"],
  4: ["South", "West", "North", "East"],
  5: ["South", "West", "North-west", "North-east", "East"],
  6: ["South", "South-west", "North-west", "North", "North-east", "South-east"],
};
// CPU players' avatars: a distinct colour per place (the letter comes from the name)
const AVATAR_HUES = [210, 20, 130, 280, 45, 330];
/** Two boxes ({l, t, r, b}) overlap by more than a pixel. */
const overlaps = (a, b) => a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1;
const cap = (t) => (t ? t[0].toUpperCase() + t.slice(1) : t);
/** One turn of a game: the same key for every view of that turn. */
// (looking at your cards is a turn of its own: then comes the bid)
const turnKeyOf = (v) => `${v.hand_number}:${v.phase}:${v.plays ? v.plays.length : 0}:${v.bids.filter((b) => b !== null).length}:${v.hand ? 1 : 0}`;
// frames of game actions: what they tell is in their news
const GAME_KINDS = new Set(["deal", "bid", "look", "play", "timeout", "hand_scored", "match_over"]);
const MOVE_KINDS = new Set(["bid", "look", "play"]); // a seat's own move
// after a refusal without a reason, the table is fetched again (refetch) at most once in
// this long, unless a move of yours was taken since; and its answer is waited for this long
const REFETCH_GAP_MS = 10000;
const REFETCH_WAIT_MS = 10000;
// the server's short notes ("Kim sits down") as sentences
// (a sentence that opens with a player's name keeps it as written: "eBay sits down.")
const opensWith = (t, names) => names.some((n) => n && t.startsWith(n) && !/^[\p{L}\p{N}]/u.test(t.slice(n.length)));
const sentence = (t, names = []) => {
  const s = String(t).trim();
  const x = opensWith(s, names) ? s : cap(s);
  return /[.!?]$/.test(x) ? x : `${x}.`;
};
const SUIT_KEYS = { h: "H", s: "S", d: "D", c: "C" };
// the bidding variants, as the table says them (docs/profiles.md)
const BIDDING_WORDS = {
  mirror: "Mirror: your bid is the number of your spades",
  whiz: "Whiz: Nil or the number of your spades",
  suicide: "Suicide: one partner of each side bids Nil, the other a number",
};
const LAST_TRICK_MS = 1500;

/** What a side's points for a scored hand (a sheet row) are made of, in the words the server's
 * sheet gives them (`parts_text`, the terminal sheet's: "10 for 200, set", "contract +40,
 * bonus +20 for a contract of 1 or 2 made exactly"), with the page's minus sign ("bag penalty
 * −100"); "" when the contract and its overtricks alone make them (the bids and tricks show
 * those). The page knows no rule of its own here: the words are the server's. */
function pointsWords(row, k) {
  const text = row.parts_text && row.parts_text[k];
  return text ? minusSigned(text) : "";
}
/** The server's words with the page's minus sign: "bag penalty -100" → "bag penalty −100",
 * "-128 in all" → "−128 in all" (a hyphen inside a word, "Bot-2", stays). The server writes
 * the hyphen, as the terminal's sheet does. */
const minusSigned = (text) => String(text).replace(/(?<![\p{L}\p{N}_-])-(?=\d)/gu, "−");
/** Signed numbers as words, for the voice: "+70" → "plus 70", "−100" → "minus 100". */
const signsSaid = (text) => text.replace(/([+−])(\d)/g, (_, sign, d) => `${sign === "+" ? "plus" : "minus"} ${d}`);
// the shortcut keys as on-screen buttons (the fallback for gestures)
const ASK_BUTTONS = [["w", "Whose turn (W)"], ["t", "The trick (T)"], ["r", "Round (R)"], ["p", "Scores (P)"],
  ["l", "Repeat (L)"], ["y", "Time left (Y)"], ["x", "Stop the voice (X)"]];
// two-finger (three on an iPhone) gestures on the table → shortcut keys
const GESTURES = { tap: "w", up: "t", down: "r", left: "p", right: "l" };

/** Two- or three-finger taps and swipes on `el`, as shortcut keys (`onGesture(key)`). A
 * single finger is left alone (taps on cards, scrolling). */
function listenGestures(el, onGesture) {
  let start = null;
  el.addEventListener("touchstart", (e) => {
    if (e.touches.length >= 2) {
      const pts = [...e.touches];
      start = { x: pts.reduce((a, p) => a + p.clientX, 0) / pts.length, y: pts.reduce((a, p) => a + p.clientY, 0) / pts.length, n: pts.length, at: Date.now() };
    }
  }, { passive: true });
  el.addEventListener("touchend", (e) => {
    if (!start || e.touches.length) return;
    const pts = [...e.changedTouches];
    const x = pts.reduce((a, p) => a + p.clientX, 0) / pts.length;
    const y = pts.reduce((a, p) => a + p.clientY, 0) / pts.length;
    const dx = x - start.x;
    const dy = y - start.y;
    start = null;
    const far = 40;
    let kind = null;
    if (Math.abs(dx) < 15 && Math.abs(dy) < 15) kind = "tap";
    else if (Math.abs(dx) >= far && Math.abs(dx) > 2 * Math.abs(dy)) kind = dx > 0 ? "right" : "left";
    else if (Math.abs(dy) >= far && Math.abs(dy) > 2 * Math.abs(dx)) kind = dy > 0 ? "down" : "up";
    if (kind) onGesture(GESTURES[kind]);
  });
  el.addEventListener("touchcancel", () => { start = null; });
} // how long the hand's last trick stays alone on the felt

/** Keep Tab inside a modal dialog: from its last control to its first and back. */
export function trapTab(e, box) {
  if (e.key !== "Tab") return;
  const all = [...box.querySelectorAll("a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex='-1'])")]
    .filter((el) => el.offsetParent !== null || el === document.activeElement);
  if (!all.length) return;
  const first = all[0];
  const last = all[all.length - 1];
  const at = document.activeElement;
  if (e.shiftKey && (at === first || !box.contains(at) || at === box.querySelector("h2"))) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && (at === last || !box.contains(at))) { e.preventDefault(); first.focus(); }
}

/** The score sheet's dialog (`#sheet-dialog`): at the table, and on the statistics page for
 * a match of the history (the same dialog, filled by :func:`sheetContent`). */
export function sheetDialog() {
  const dlg = h("dialog", { class: "sheet-dialog", id: "sheet-dialog", "aria-labelledby": "sheet-title" },
    // (focused when it opens: read from its start, not from Close after the whole sheet)
    h("h2", { id: "sheet-title", tabindex: "-1" }, "Score sheet"),
    h("div", { id: "sheet-body" }, h("p", {}, "Loading…")),
    h("form", { method: "dialog", class: "button-row" },
      h("button", { type: "submit", class: "primary" }, "Close")));
  // modal: Tab goes round inside it (from Close it left the page, to the browser's bar)
  dlg.addEventListener("keydown", (e) => trapTab(e, dlg));
  return dlg;
}

/** A name without the "(CPU)" the server adds to a continued record's CPUs ("Nora (CPU)" →
 * "Nora"): the score sheet says it once, in its head (and O in its first hand), not in every
 * row. */
export function unmarked(name) { return String(name).replace(/\s*\(CPU\)$/, ""); }

/** A sheet (the `sheet` frame, or `GET /api/tables/{id}/sheet`) as the dialog's content:
 * `namer` names seats and sides as the reader saw them (`seatName(seat, {mark})`, `sideTitle(side)`,
 * `bidText(bid)`, `overText(winner)`: a TableView, or the history's `historyNamer`). A CPU
 * is said to be one in the head only ("Nora (CPU) and you"), its rows name it "Nora". */
export function sheetContent(d, namer) {
  if (!d.hands.length) return [h("p", {}, "No hand has been scored yet.")];
  const table = h("table", { class: "sheet-table" }, h("caption", {}, d.finished ? "Every hand of the finished match" : "Every hand so far")); // (it was "Every hand so far (match over)")
  const head = h("tr", {}, h("th", { scope: "col" }, "Hand"));
  for (let k = 0; k < d.sides.length; k++) head.append(h("th", { scope: "col" }, namer.sideTitle(k)));
  table.append(h("thead", {}, head));
  const tb = h("tbody");
  for (const row of d.hands) {
    const tr = h("tr", {}, h("th", { scope: "row" }, `${row.number}`));
    d.sides.forEach((seats, k) => {
      const bids = seats.map((s) => `${namer.seatName(s, { mark: false })} bid ${namer.bidText(row.bids[s])}, took ${row.tricks[s]}`).join("; ");
      const pts = row.points[k];
      const parts = pointsWords(row, k);
      // one line each on the screen; read in a row, the words between them make a sentence
      // ("…, took 3: +82, total 82, 2 bags", not "…took 3 +82 = 82 2 bags")
      const gap = (words) => h("span", { class: "sr-only" }, words);
      tr.append(h("td", {},
        h("span", { class: "sheet-bids" }, bids, gap(": ")),
        h("span", { class: `sheet-pts ${pts < 0 ? "neg" : ""}` }, `${pts >= 0 ? "+" : "−"}${Math.abs(pts)}`),
        parts ? h("span", { class: "sheet-parts" }, gap(" "), `(${parts})`) : null,
        h("span", { class: "sheet-total" }, gap(", total "), h("span", { "aria-hidden": "true" }, "= "), scoreText(row.scores[k])),
        h("span", { class: "sheet-bags" }, gap(", "), `${plural(row.bags[k], "bag")}`)));
    });
    tb.append(tr);
  }
  table.append(tb);
  const foot = h("tr", {}, h("th", { scope: "row" }, "Total"));
  d.scores.forEach((p, k) => foot.append(h("td", {}, `${scoreText(p)} (${plural(d.bags[k], "bag")}${d.bag_warning[k] ? `, ${d.bag_warning[k]}` : ""})`)));
  table.append(h("tfoot", {}, foot));
  return [table, d.finished ? h("p", { class: "sheet-result" }, namer.overText(d.winner)) : null].filter(Boolean);
}

export class TableView {
  constructor(app, tableId) {
    this.app = app;
    this.id = tableId;
    this.msg = null; // last table snapshot
    this.view = null;
    this.results = []; // every scored hand: the snapshot's, then each event's new ones
    this.turn = null;
    this.score = null;
    this.chat = [];
    this.seq = null;
    this.queue = []; // events waiting to be shown
    this.awaitingScore = false; // the hand's last card shown, its score not yet
    this.busy = false;
    this.lastTrick = null; // {cards, winner} shown until the next card
    this.selected = null;
    this.warned = null; // turn key already warned about
    this.warnAfterTurn = null; // a turn whose server warning waits for "your turn" to be said
    this.turnKey = null; // last turn announced to me
    // this turn's request for the server's hint: {key, answer}; an answer that is null or not
    // legal (slow, refused) gives the page's own hint for the whole turn
    this.hintAsked = null;
    this.sheetData = null;
    this.timerHandle = null;
    this.el = null;
    this.draftLoaded = false;
    this.replaced = false; // the table is open in another tab of yours, which holds the seat
    this.offTable = null; // why you are no longer at the table (removed, no spectators allowed)
    this.rejoinWatching = false; // removed from your seat: watching, rejoined as a spectator
    this.letBack = false; // removed, watching, and let back in by the owner: may sit again
    this.cannotSit = null; // the server refused this watcher a seat for good (removed, private): its words
    this.away = null; // {view, score} when the connection went (or the seat went to another tab)
    this.idleBefore = null; // {view, score} when a CPU took your seat for being idle
    this.sentPlay = null; // {card, view}: the last card this page sent, and the state it was sent on
    this.sentBid = null; // {bid, view}: the last bid this page sent, and the state it was sent on
    this.answered = new Set(); // the keys (W, T, R, P) whose answer named a CPU once: it said which players are CPUs ("Nora (CPU)")
    this.newsMarked = new Set(); // the CPUs the news has named marked ("Nora (CPU)") once: "Nora" after
    this.backSaidAt = null; // the seq of a snapshot that said you are back (its returned event is not said again)
    this.arrivalAt = null; // the seq of the `joined` event that seats you at a continued match (your turn waits for it)
    this.refetching = null; // the `resync` asked for after a refusal without a reason, until it is answered (refetch)
    this.refetchedAt = null; // when it was last asked for (Date.now())
    this.takenSinceRefetch = false; // a move of yours was taken since
  }

  /** Why this page cannot act for you now: "replaced" (the table is open in another tab),
   * "offline" (the connection is down, or back and the table's state not here yet), or null. */
  get blocked() {
    if (this.replaced) return "replaced";
    if (this.app.conn.status !== "online" || this.away) return "offline";
    return null;
  }

  blockedWords() {
    const why = this.blocked;
    if (why === "replaced") return "Open in another tab: press Play here to play in this one.";
    if (why === "offline") return "Offline: reconnecting… Your moves wait until the connection is back.";
    return "";
  }

  /** The connection went or came back: until the table's state is here again, the controls
   * wait and no timer warning is given from the old deadline. */
  onConnStatus(status) {
    if (status !== "online" && this.msg && !this.away) this.away = { view: this.view, score: this.score };
    this.render();
  }

  /** Another tab of yours took the seat (error `replaced`): say so, and offer it back. */
  onReplaced() {
    if (this.msg && !this.away) this.away = { view: this.view, score: this.score };
    const again = this.replaced; // (the answer to rejoinIfFree: rejoinIfFree says it)
    this.replaced = true;
    this.render();
    if (again) return;
    this.say("This table is open in another tab: this tab no longer follows the game. Press Play here to play in this tab.", { assertive: true });
    const btn = this.el && this.el.querySelector("#play-here");
    if (btn) btn.focus();
  }

  /** Back from a reconnect while another tab held the seat: the seat comes back to this tab
   * if that tab has gone meanwhile (a snapshot follows); if it is still open, this tab keeps
   * "Play here" (and gets the seat when that tab closes). */
  rejoinIfFree() {
    this.app.conn.request({ ...this.app.joinMessage(), if_free: true }).catch((err) => {
      if (this.app.table !== this || !this.replaced) return;
      if (err.code === "replaced") this.say("This table is still open in another tab.");
    });
  }

  /** "Play here": join again; the seat comes back to this tab (the other one is told). */
  playHere() {
    this.app.conn.request(this.app.joinMessage()).catch((err) => {
      this.say(`Could not play here: ${reasonEnd(err.message || NO_REASON)}`, { assertive: true });
    });
  }

  /** Your seat is covered by a CPU while you are here: you did not play for the server's
   * `idle_seconds` at a table without a turn timer (a `covered` event said so). */
  get idleCovered() {
    if (!this.isPlayer || this.status !== "active" || this.blocked) return false;
    const info = this.msg.table.seats[this.mySeat];
    return !!(info && info.covered && info.connected !== false);
  }

  /** "Take my seat back": join the table again; the seat comes back from the CPU (a `returned`
   * event, "you are back", is said; the box goes with the snapshot that follows). */
  playAgain() {
    this.app.conn.request({ ...this.app.joinMessage(), back: true }).catch((err) => {
      this.say(`Could not take your seat back: ${reasonEnd(err.message || NO_REASON)}`, { assertive: true });
    });
  }

  /** While a CPU plays for you (idle): say so above your hand, with the way back. The words
   * were said when the `covered` event came; the button takes the focus unless you are
   * writing (chat). */
  renderIdle() {
    let box = this.el.querySelector("#idle-box");
    if (!this.idleCovered) {
      if (box) {
        const had = box.contains(document.activeElement);
        box.remove();
        if (had) this.focusHand();
      }
      return;
    }
    if (box) return;
    const minutes = Number(this.app.limits && this.app.limits.idle_seconds) / 60;
    const after = minutes >= 1 && Number.isInteger(minutes) ? ` for ${plural(minutes, "minute")}` : " for a while";
    box = h("section", { class: "panel idle-box", id: "idle-box", "aria-labelledby": "idle-title" },
      h("h2", { id: "idle-title" }, "A CPU is playing for you"),
      h("p", {}, `You did not play${after}, so a CPU took over your seat and plays your turns. Press Take my seat back to play again: your cards and the game are as they stand now.`),
      h("button", { type: "button", class: "primary", id: "play-again", onclick: () => this.playAgain() }, "Take my seat back"));
    // above your hand, where you play (the top of the table is scrolled away)
    const area = this.el.querySelector(".my-area");
    if (area) area.prepend(box); else this.el.prepend(box);
    box.scrollIntoView({ block: "nearest" });
    const a = document.activeElement;
    const writing = a && (a.tagName === "TEXTAREA" || (a.tagName === "INPUT" && a.type === "text"));
    if (!writing) box.querySelector("#play-again").focus({ preventScroll: true });
  }

  renderReplaced() {
    let box = this.el.querySelector("#replaced-box");
    if (!this.replaced) { if (box) box.remove(); return; }
    if (box) return;
    box = h("section", { class: "panel replaced-box", id: "replaced-box", "aria-labelledby": "replaced-title" },
      h("h2", { id: "replaced-title" }, "This table is open in another tab"),
      h("p", {}, "This tab no longer follows the game. Play on in the other tab, or take your seat back here (the other tab then stops following it)."),
      h("button", { type: "button", class: "primary", id: "play-here", onclick: () => this.playHere() }, "Play here"));
    this.el.prepend(box);
  }

  /** Where the game stands after time away (a lost connection, a server restart, another
   * tab): a hand that ended meanwhile (its points, and the cards played for you in it: all
   * you held), the hand and trick now, what was bid or played for you if this is the same
   * hand, whose turn, the scores (or the end of the match). `before`: {view, score} when you
   * went. */
  catchUpText(before) {
    const v = this.view;
    if (!v || this.status === "waiting") return this.summary();
    const b = before && before.view;
    const parts = this.awayParts(b);
    if (this.status !== "active" || v.phase === "over") {
      if (!parts.length) return this.summary();
      parts.push(this.overText(this.msg.table.winner ?? v.winner));
      return parts.join(" ");
    }
    const trick = v.phase === "play" ? `, trick ${Math.floor((v.plays ? v.plays.length : 0) / this.players) + 1}`
      : v.phase === "bid" ? ", bidding" : "";
    const scored = v.results ? v.results.length : 0;
    const from = b ? (b.results ? b.results.length : b.hand_number - 1) + 1 : scored + 1;
    // (the hand now after what ended while you were away; what was bid or played for you in it after it)
    const ended = b && scored >= from ? parts.length : 0;
    parts.splice(ended, 0, `Hand ${v.hand_number}${trick}.`);
    const standing = this.standingText();
    if (standing) parts.push(standing);
    parts.push(this.myTurn() ? this.turnText() + this.turnTimeText(turnKeyOf(v)) : this.whoseTurnText());
    parts.push(this.scoresText());
    return parts.join(" ");
  }

  /** What happened to your seat while you were away (`b`: the view when you went, or what
   * the page remembered of it, `rememberHeld`): a hand that ended meanwhile (its points, the
   * cards played for you in it), or in the same hand what was bid and played for you. */
  awayParts(b) {
    const v = this.view;
    const parts = [];
    if (!v || !b) return parts;
    const me = this.mySeat;
    const scored = v.results ? v.results.length : 0;
    const from = (b.results ? b.results.length : b.hand_number - 1) + 1;
    if (scored >= from) {
      parts.push(scored === from ? `Hand ${from} ended while you were away: ${this.handPointsText(v.results[from - 1])}.`
        : `Hands ${from} to ${scored} ended while you were away.`);
      const bidOf = (n) => this.bidText(v.results[n - 1].bids ? v.results[n - 1].bids[me] : null);
      const later = [];  // the hands after it: bid (and played) for you, their cards unknown here
      if (this.isPlayer && (b.phase === "bid" || b.phase === "play")) {
        // every card you held then was played for you before that hand ended, and the bid
        // named when it was made for you (before: "Bid and played for you", the bid unsaid)
        const unbid = b.bids[me] === null || b.bids[me] === undefined;
        const bid = unbid ? bidOf(from) : null;
        const cards = b.hand && b.hand.length ? listJoin(b.hand.map((c) => cardName(c))) : "";
        const what = bid ? `Bid ${bid} and played` : unbid ? "Bid and played" : "Played";
        if (cards) parts.push(`${what} for you in hand ${from}: ${cards}.`);
        else if (unbid) parts.push(`${what} for you in hand ${from}.`);
      } else if (this.isPlayer) later.push(from);
      if (this.isPlayer) for (let n = from + 1; n <= scored; n++) later.push(n);
      const bids = later.map((n) => [n, bidOf(n)]).filter(([, bid]) => bid);
      if (bids.length) parts.push(`Bid for you: ${listJoin(bids.map(([n, bid]) => `${bid} in hand ${n}`))}.`);
      // the hand under way, begun while you were away: its bid and cards made for you
      if (this.isPlayer && v.hand_number > scored && (v.phase === "bid" || v.phase === "play")) {
        if (v.bids[me] !== null && v.bids[me] !== undefined) parts.push(`Bid for you in hand ${v.hand_number}: ${this.bidText(v.bids[me])}.`);
        const mine = (v.plays || []).filter((p) => p[0] === me).map((p) => cardName(p[1]));
        if (mine.length) parts.push(`Played for you in hand ${v.hand_number}: ${listJoin(mine)}.`);
      }
    }
    if (b.hand_number === v.hand_number && scored < from && this.isPlayer
        && (v.phase === "bid" || v.phase === "play")) {
      if ((b.bids[me] === null || b.bids[me] === undefined) && v.bids[me] !== null && v.bids[me] !== undefined) {
        // the bid this page sent just before the connection went, as the server has it:
        // your own ("You bid 3."), as a card is (ownPlayWhileAway)
        const sent = this.sentBid;
        const own = sent && sent.view && sent.view.hand_number === v.hand_number
          && this.bidText(sent.bid) === this.bidText(v.bids[me]);
        parts.push(own ? `You bid ${this.bidText(v.bids[me])}.` : `Bid for you while you were away: ${this.bidText(v.bids[me])}.`);
      }
      let gone = b.hand && v.hand ? b.hand.filter((c) => !v.hand.includes(c)) : [];
      // the card this page sent just before the connection went (its answer never came):
      // when the first card the server has at your seat since is that one, it was your
      // own play, said in the words of one ("You played the seven of hearts."), not one
      // made for you (before: "Played for you while you were away")
      const own = this.ownPlayWhileAway(gone);
      if (own) {
        parts.push(`You played the ${cardName(own)}.`);
        gone = gone.filter((c) => c !== own);
      }
      if (gone.length) parts.push(`Played for you while you were away: ${listJoin(gone.map((c) => cardName(c)))}.`);
    }
    return parts;
  }

  /** Of the cards `gone` from your hand while you were away, the one this page sent
   * (`sentPlay`) if the server has it as the first card played at your seat since the
   * state it was sent on (the same hand), else null: made by the timer or a CPU instead. */
  ownPlayWhileAway(gone) {
    const sent = this.sentPlay;
    const v = this.view;
    if (!sent || !gone.includes(sent.card) || !sent.view || sent.view.hand_number !== v.hand_number) return null;
    const from = sent.view.plays ? sent.view.plays.length : 0;
    const at = (v.plays || []).slice(from).find((p) => p[0] === this.mySeat);
    return at && at[1] === sent.card ? sent.card : null;
  }

  /** The last card and bid this page sent, kept in this tab (sessionStorage, per table),
   * with whose they were: a reload before their answer came (the connection dropped) then
   * says them as your own, as the page that sent them does (`recallSent`). Only what
   * `awayParts` reads of the state they were sent on is kept (the hand number, the cards
   * played). */
  keepSent() {
    const seat = this.msg && this.mySeat !== null ? this.msg.table.seats[this.mySeat] : null;
    if (!seat || seat.user_id === null || seat.user_id === undefined) return;
    const brief = (sent) => sent && sent.view
      ? { ...sent, view: { hand_number: sent.view.hand_number, plays: sent.view.plays || [] } } : null;
    store.setSent(this.id, { user: seat.user_id, seat: this.mySeat,
      play: brief(this.sentPlay), bid: brief(this.sentBid) });
  }

  /** On a page opened anew: the card and bid this tab sent at the table before (`keepSent`),
   * if they were sent by the player now at this seat. */
  recallSent() {
    const kept = store.sent(this.id);
    const seat = this.msg && this.mySeat !== null ? this.msg.table.seats[this.mySeat] : null;
    if (!kept || !seat || kept.user !== seat.user_id || kept.seat !== this.mySeat) return;
    if (!this.sentPlay && kept.play) this.sentPlay = kept.play;
    if (!this.sentBid && kept.bid) this.sentBid = kept.bid;
  }

  /** What this browser keeps of your seat's hand (localStorage, per table) as the game goes,
   * so that a page opened anew (the browser closed and opened again) can say what was bid
   * and played for you meanwhile, as a reconnect does. */
  rememberHeld() {
    const v = this.view;
    if (!v || !this.isPlayer || !v.bids || (v.phase !== "bid" && v.phase !== "play")) return;
    store.write(`held.${this.id}`, { hand_number: v.hand_number, hand: v.hand, bids: v.bids,
      results: new Array(v.results ? v.results.length : 0).fill(null), phase: v.phase });
  }

  /** A scored hand's points per side, mid-sentence: "you and North 71 points, West and East
   * -40 points". */
  handPointsText(r) {
    return this.sides.map((_, k) => {
      const who = this.sideName(k);
      // (with the minus sign, as the page writes every score: it was "-58 points" here)
      return `${who === "You" ? "you" : who} ${minusSigned(plural(r.points[k], "point"))}`;
    }).join(", ");
  }

  // ------------------------------------------------------------------ state helpers
  get rules() { return this.msg ? this.msg.table.rules : null; }
  get players() { return this.msg ? this.msg.table.seats.length : 4; }
  get mySeat() { return this.msg && this.msg.you ? this.msg.you.seat : null; }
  get isPlayer() { return this.msg && this.msg.you && this.msg.you.role === "player" && this.mySeat !== null; }
  get status() { return this.msg ? this.msg.table.status : "waiting"; }
  get sides() {
    if (this.score && this.score.sides) return this.score.sides;
    const r = this.rules;
    if (r && r.teams) return r.teams;
    return Array.from({ length: this.players }, (_, i) => [i]);
  }
  sideOf(seat) { return this.sides.findIndex((s) => s.includes(seat)); }
  get mySide() { return this.mySeat === null ? -1 : this.sideOf(this.mySeat); }
  get teamGame() { return this.sides.some((s) => s.length > 1); }

  /** A seat's name: "You" (or "you" mid-sentence with `lower`), a player's name, and for a
   * CPU the place where it sits ("North" for your partner across the table). `mark: false`:
   * a continued record's CPU without its "(CPU)" ("Nora"), where it was said once already
   * (the score sheet's head, its first hand). */
  seatName(seat, { you = true, lower = false, mark = true } = {}) {
    if (seat === null || seat === undefined || seat < 0) return "nobody";
    if (you && seat === this.mySeat && this.isPlayer) return lower ? "you" : "You";
    const info = this.msg && this.msg.table.seats[seat];
    if (info && info.kind === "cpu" && (!info.name || /^CPU\b/.test(info.name))) return this.compass(seat);
    const name = info && info.name ? info.name : this.compass(seat);
    return mark || !info || info.kind !== "cpu" ? name : unmarked(name);
  }
  /** Where a seat sits as you see the table: you at the bottom (South), the others clockwise.
   * A spectator sees the table from seat 0's side. */
  compass(seat) {
    const n = this.players;
    const me = this.mySeat ?? 0;
    const places = PLACES[n];
    if (!places) return `Seat ${seat + 1}`;
    return places[(seat - me + n) % n];
  }
  seatFull(seat) {
    const name = this.seatName(seat, { you: false });
    const c = this.compass(seat);
    return name === c ? c : `${name} (${c})`;
  }
  /** Every seat's name as the page draws it (not "You"). */
  playerNames() { return Array.from({ length: this.players }, (_, s) => this.seatName(s, { you: false })); }
  /** A side's name opening a line: "You and Kim", "kim and Lee" (names as written); `mark`:
   * as seatName's. */
  sideTitle(side, { mark = true } = {}) { const t = this.sideName(side, { mark }); return /^you\b/.test(t) ? cap(t) : t; }
  sideName(side, { mark = true } = {}) {
    const seats = this.sides[side] || [];
    if (seats.length === 1) return this.seatName(seats[0], { mark });
    const names = seats.map((s) => (s === this.mySeat && this.isPlayer ? "you" : this.seatName(s, { you: false, mark })));
    return listJoin(names);
  }
  verb(seat, third, second) { return seat === this.mySeat && this.isPlayer ? second : third; }

  bidText(bid) {
    if (bid === null || bid === undefined || bid === "") return null;
    if (bid === "nil" || bid === 0 || bid === "0") return "Nil";
    if (bid === "blind-nil") return "Blind Nil";
    return String(bid);
  }

  myTurn() {
    const v = this.view;
    return !!(v && this.isPlayer && v.current_player === this.mySeat && v.legal_actions && v.legal_actions.length);
  }

  legalCards() {
    return this.view && this.myTurn() ? this.view.legal_actions.filter(isCard) : [];
  }

  legalBids() {
    return this.view && this.myTurn() ? this.view.legal_actions.filter((a) => !isCard(a)) : [];
  }

  /** The bids you may make ("nil", "1".."13"): on your turn the legal ones; before it, what
   * the bidding variant can allow you with your hand. */
  bidChoices() {
    const v = this.view;
    if (!v) return [];
    if (this.myTurn()) return [...new Set(this.legalBids().filter((b) => b !== "blind-nil" && b !== "look").map((b) => (b === "0" ? "nil" : b)))];
    const r = this.rules || {};
    const max = r.hand_size || (v.hand ? v.hand.length : 13);
    const nums = Array.from({ length: max }, (_, i) => String(i + 1));
    const trumps = v.hand ? v.hand.filter((c) => suitOf(c) === "S").length : null;
    if (r.bidding === "mirror" && trumps !== null) return [trumps ? String(trumps) : "nil"];
    if (r.bidding === "whiz" && trumps !== null) return trumps ? ["nil", String(trumps)] : ["nil"];
    if (r.bidding === "suicide") {
      const mates = (this.sides[this.mySide] || []).filter((s) => s !== this.mySeat).map((s) => this.bidText(v.bids[s]));
      if (mates.some((b) => b === "Nil" || b === "Blind Nil")) return nums;
      if (mates.length && mates.every((b) => b !== null)) return ["nil"];
    }
    return [...(r.nil !== false ? ["nil"] : []), ...nums];
  }

  /** Your one bid when the rules leave you no choice (Mirror bidding; Whiz or Suicide with
   * Nil the only bid left), which the server makes for you on your turn ("nil" or "1".."13");
   * else null. */
  forcedBid() {
    const v = this.view;
    if (!v || v.phase !== "bid" || !this.isPlayer || !v.hand || !v.hand.length) return null;
    if (v.bids[this.mySeat] !== null && v.bids[this.mySeat] !== undefined) return null;
    if (this.legalBids().includes("look")) return null;
    const choices = this.bidChoices();
    return choices.length === 1 ? choices[0] : null;
  }

  /** The bid made for you, in words: "Your only bid is 3 (Mirror bidding): the game bids
   * it for you on your turn." */
  forcedBidText(bid) {
    const r = this.rules || {};
    return `Your only bid is ${this.bidText(bid)} (${r.bidding || "standard"} bidding): the game bids it for you on your turn.`;
  }

  /** Bids in words: "Nil or 5", "Nil or 1 to 13", "4". */
  choicesText(choices) {
    const nums = choices.filter((b) => b !== "nil").map(Number).sort((a, b) => a - b);
    const run = nums.length > 1 && nums[nums.length - 1] - nums[0] === nums.length - 1;
    const numText = nums.length > 1 ? (run ? `${nums[0]} to ${nums[nums.length - 1]}` : listJoin(nums.map(String))) : nums.length ? String(nums[0]) : "";
    if (!choices.includes("nil")) return numText;
    return numText ? `Nil or ${numText}` : "Nil";
  }

  /** The rules in force, in words: profile, bidding variant and options. */
  rulesText() {
    const r = this.rules || {};
    const o = this.msg.table.options;
    const bidding = r.bidding || o.bidding;
    return [o.profile, BIDDING_WORDS[bidding] ? `${BIDDING_WORDS[bidding].replace(": ", " bidding (")})` : null,
      r.blind_nil ? "Blind Nil allowed" : null, r.jokers ? "Jokers" : null, r.ten_for_200 ? "10-for-200" : null].filter(Boolean).join(", ");
  }

  handCards() {
    return this.view && this.view.hand ? sortForDisplay(this.view.hand) : [];
  }

  // ------------------------------------------------------------------ messages
  onTable(msg) {
    const first = !this.msg;
    // what this browser remembered of your hand (before this snapshot replaces it)
    const held = first ? store.read(`held.${this.id}`, null) : null;
    const wasReplaced = this.replaced;
    const away = this.away;
    this.replaced = false;
    this.offTable = null;
    this.away = null;
    this.msg = msg;
    this.view = msg.view;
    this.results = msg.view && msg.view.results ? msg.view.results : [];
    this.turn = msg.turn;
    this.score = msg.score;
    this.chat = msg.chat || [];
    this.seq = msg.seq;
    this.queue = [];
    this.awaitingScore = false;
    this.app.setTitle(`${msg.table.name || "Table"} — Spades`);
    if (this.isPlayer) store.setLastTable(this.id);
    store.setTableName(this.id, msg.table.name || "a table");
    if (first) this.spectatorsSaid = msg.table.spectating || 0;
    // (what this tab sent before a reload: said as your own in the catch-up below)
    if (first && this.isPlayer) this.recallSent();
    this.loadDraft();
    this.render();
    // (the server answers a join with this snapshot first, then the table's `returned` event:
    // its "You are back" is not said again when the page has just said so here)
    this.backSaidAt = null;
    if (first) {
      const a = document.activeElement;
      if (!a || a === document.body || a === this.app.main || !document.contains(a)) this.focusHand();
      // back at your seat on a page opened anew (a reload): that first, then where the game
      // stands, as a rejoin without reload says it ("Back at the table. …")
      if (msg.back && this.isPlayer) {
        this.say("You are back.", { event: true });
        this.backSaidAt = msg.seq;
      } else if (this.app.reloadedAt === this.id && this.isPlayer && !msg.arrival
                 && !(msg.table.seats[this.mySeat] || {}).covered) {
        // a reload whose old page's connection the server had not seen close when this one
        // joined (a busy machine): taken for another tab, the join brings no `back` and no
        // `returned` event, though you are back all the same (before: nothing was said)
        this.say("You are back.", { event: true });
      }
      this.app.reloadedAt = null; // (once: the table's first snapshot on this page)
      // seated at a continued record's table: the `joined` event next says so ("You sit
      // down at the continued match"); where the game stands and your turn come after it
      if (msg.arrival && this.isPlayer) this.arrivalAt = msg.seq + 1;
      else this.say(this.summary(msg.back && this.isPlayer && this.status === "active" && held ? this.awayParts(held) : []));
    } else this.arrivalAt = null;
    if (!first && (away || wasReplaced)) {
      this.say(`${wasReplaced ? "You play in this tab again. " : "Back at the table. "}${this.catchUpText(away)}`);
      this.backSaidAt = msg.seq;
    }
    // back from idle (Take my seat back): the snapshot answering the join comes before the
    // `returned` event (and a snapshot drops what waited in the queue, behind the hand's
    // summary), so "You are back." and where the game stands are said here
    if (!first && this.idleBefore && this.isPlayer && !(msg.table.seats[this.mySeat] || {}).covered) {
      const idle = this.idleBefore;
      this.idleBefore = null;
      if (this.backSaidAt === null) this.say("You are back.", { event: true });
      this.backSaidAt = msg.seq;
      if (this.status === "active") this.say(this.catchUpText(idle));
    }
    this.checkTurn();
    // back at the table in the last seconds of your turn: the warning after where you sit and
    // your turn, in order (not ahead of them)
    if (first) this.tick({ inOrder: true });
    if (this.status === "finished" && this.view && !this.sheetData) this.requestSheet();
    if (this.status === "finished") this.forget();
    if (this.satAgain) this.afterSitting();
  }

  onEvent(msg) {
    if (!this.inOrder(msg)) return;
    this.keepResults(msg);
    this.tell(msg);
    this.queue.push(msg);
    this.pump();
  }

  onChat(msg) {
    if (!this.inOrder(msg)) return;
    // your own line: "You say: …" (it was "Bea, guest says: …", as if someone else's)
    const line = msg.line;
    const mine = this.isPlayer ? line.seat === this.mySeat
      : line.seat === null && !!this.app.user && line.name === this.app.user.name;
    this.say(mine ? `You say: ${line.text}` : `${line.name}${guestWords(line)} says: ${line.text}`, { event: true });
    this.queue.push(msg);
    this.pump();
  }

  /** An event's view with every scored hand in `results`, as the snapshot has them: the
   * server sends only those scored since the table's previous event (the hello asks for that,
   * net.js), after the first `results_from` hands, which this page kept (`this.results`).
   * A frame that has more before them than the page kept (something was missed) asks for a
   * snapshot. */
  keepResults(msg) {
    const v = msg.view;
    if (!v) return;
    if (v.results_from === undefined) { this.results = v.results || []; return; }
    const from = v.results_from;
    const kept = this.results;
    delete v.results_from;
    if (from > kept.length) this.app.conn.send({ type: "resync" });
    // (a new list only when it changes: a view kept from before, `away`, keeps its own)
    this.results = v.results.length || from < kept.length ? kept.slice(0, from).concat(v.results) : kept;
    v.results = this.results;
  }

  /** A numbered frame of this table that comes next: true. One already seen: false. One after
   * a gap (a frame was missed): false, and a snapshot is asked for. */
  inOrder(msg) {
    if (msg.table_id !== this.id) return false;
    if (this.seq !== null && msg.seq <= this.seq) return false; // already seen
    if (this.seq !== null && msg.seq !== this.seq + 1) {
      this.app.conn.send({ type: "resync" });
      return false;
    }
    this.seq = msg.seq;
    return true;
  }

  /** Say what an event frame tells, as it arrives: the sentence of every game event it carries
   * (`event.news`, written for this player by the server), in order; a frame that is not a
   * game action says its own `text`. The cards on the felt follow at their own pace (pump):
   * speech does not wait for them. */
  tell(msg) {
    this.arrivedSeq = msg.seq;
    const ev = msg.event;
    const news = ev.news; // (every event frame has it; [] when it is not a game action)
    for (const item of news) {
      // (the scores in it with the minus sign, as the score sheet and the page write them)
      this.say(minusSigned(this.newsText(item.text)), { event: true });
      // what you hold, once you can see it (a description of your cards, not of the event)
      const v = msg.view;
      if (item.type === "deal" && v && this.isPlayer) {
        if (v.hand) this.say(this.handSummary(v.hand), { event: true });
        else if (v.hand === null) this.say("Your cards are face down: you may bid Blind Nil before you look.", { event: true });
      } else if ((item.type === "look" || (item.type === "bid" && item.bid === "blind-nil"))
        && item.seat === this.mySeat && this.isPlayer && v && v.hand) {
        // looked at, or face up once your Blind Nil is bid (the terminal shows them too)
        this.say(this.handSummary(v.hand), { event: true });
      }
    }
    this.tellHeldTurn(msg);
    if (news.length || GAME_KINDS.has(ev.kind)) return; // (the scored hand and the end came in the news)
    if (ev.kind === "timer_warning") {
      if (ev.seat === this.mySeat && this.isPlayer) {
        // a turn not shown yet (its deal held behind the hand's summary, or cards still on
        // their way): the warning comes after "your turn", in order (checkTurn), not before it
        if (msg.view && this.turnKey !== turnKeyOf(msg.view)) { this.warnAfterTurn = turnKeyOf(msg.view); return; }
        this.warnTimer(ev.seconds_left, msg.view);
        return;
      }
      // dropped if that player has acted before it is read
      const at = this.arrivedSeq;
      this.say(`${this.seatName(ev.seat)} has ${plural(Math.round(ev.seconds_left), "second")} left.`,
        { stale: () => this.arrivedSeq !== at });
      return;
    }
    // your own "You are back" right after the snapshot that said so already (onTable)
    if (ev.kind === "returned" && ev.seat === this.mySeat && this.isPlayer && this.backSaidAt === msg.seq - 1) return;
    // (a frame that seats someone carries the table that names them: this.msg is older)
    const seated = msg.table ? msg.table.seats.map((p) => p && p.name) : [];
    if (ev.text) this.say(minusSigned(this.newsText(sentence(ev.text, this.playerNames().concat(seated)))), { event: true });
    if (this.arrivalAt === msg.seq) { // sat down at a continued match: now the game, your turn
      this.arrivalAt = null;
      this.say(this.summary());
      this.checkTurn();
    }
  }

  /** Spectators came or went (`spectators` frames, at most twice a second): shown at once,
   * said (politely) only once they have settled for a moment and their number changed. */
  onSpectators(msg) {
    if (msg.table_id !== this.id || !this.msg) return;
    this.msg.table.spectating = msg.spectating;
    this.spectatorNames = msg.names;
    this.renderWatchers();
    if (!this.isPlayer) return;
    clearTimeout(this.spectatorTimer);
    this.spectatorTimer = setTimeout(() => {
      const n = this.msg.table.spectating || 0;
      if (n === this.spectatorsSaid) return;
      this.spectatorsSaid = n;
      this.say(this.watchersText());
    }, 1500);
  }

  watchersText() {
    const n = (this.msg && this.msg.table.spectating) || 0;
    if (!n) return "Nobody is watching.";
    const names = this.spectatorNames && this.spectatorNames.length ? `: ${listJoin(this.spectatorNames)}` : "";
    return `${plural(n, "spectator")} watching${names}.`;
  }

  renderWatchers() {
    const el = this.el && this.el.querySelector("#watchers");
    if (!el) return;
    const n = (this.msg && this.msg.table.spectating) || 0;
    el.textContent = n ? this.watchersText() : "";
  }

  onSheet(msg) {
    if (msg.table_id !== this.id) return;
    this.sheetData = msg;
    this.renderSheet();
    if (this.readSheetOnArrival) {
      this.readSheetOnArrival = false;
      this.say(this.sheetText());
    }
  }

  /** Show queued events one after another, with a short pause so each can be seen. */
  pump() {
    if (this.busy) return;
    const msg = this.queue.shift();
    if (!msg) return;
    let pause = 0;
    if (msg.type === "chat") {
      this.chat.push(msg.line);
      this.renderChat();
    } else {
      pause = this.applyEvent(msg);
    }
    if (this.summaryHold) { this.busy = true; this.armSummary(); return; }
    if (pause < 0) pause = this.app.settings.pace === 0 ? 0 : LAST_TRICK_MS; // the hand's last trick
    else if (this.app.settings.pace === 0 || !this.queue.length) pause = Math.min(pause, 0);
    if (pause > 0) {
      this.busy = true;
      setTimeout(() => { this.busy = false; this.pump(); }, pause);
    } else {
      this.pump();
    }
  }

  /** Show an event on the table (what it says was said when it came: tell). */
  applyEvent(msg) {
    const ev = msg.event;
    const before = this.view;
    this.view = msg.view;
    this.turn = msg.turn;
    this.score = msg.score;
    const invite = this.msg && this.msg.table.invite; // (the members' table has it)
    // seats, owner, options or status changed: the frame carries the table as it is now
    if (msg.table && this.msg) this.msg.table = msg.table;
    const wasPlayer = this.isPlayer;
    if (msg.you && this.msg) this.msg.you = msg.you;
    // removed from your seat, watching now: after a reconnect the page joins again as a
    // spectator (the server would refuse to seat you: a removal holds for that table)
    // (with the invite code of a private table, which a spectator's table state lacks)
    if (wasPlayer && msg.you && msg.you.role === "spectator") {
      this.rejoinWatching = true;
      if (invite) { this.invite = invite; store.setInvite(this.id, invite); }
      // a reload opens it to watch too (as a player's it was refused: a private table's
      // code, then the removal)
      // (and opening it to play, #/table/<id>, asks for a seat: refused, with the way to watch)
      this.watching = true;
      if (location.hash === `#/table/${this.id}`) history.replaceState(null, "", `#/watch/${this.id}`);
    }
    // removed from a table that allows no spectators: this frame is the last one
    if (msg.you && msg.you.role === "none") {
      this.offTable = ev.text || "You were removed from the table";
      if (invite) this.invite = invite;
    }
    const sounds = this.app.sounds;
    let pause = 0;
    const mine = ev.seat === this.mySeat && this.isPlayer;
    // a move this page made (on the state it acted on), not one made for you
    const ownMove = mine && MOVE_KINDS.has(ev.kind) && !!before && this.actingOn === before;
    const backByMove = this.lastOwnMove;
    this.lastOwnMove = ownMove;
    switch (ev.kind) {
      case "deal":
        this.lastTrick = null;
        this.selected = null;
        break;
      case "bid":
        if (mine) this.clearDraft();
        break;
      case "timeout":
      case "play": {
        // a card (the timer's too), maybe the last of a trick; or the timer's bid
        const card = ev.action && isCard(ev.action) ? ev.action : null;
        if (!card) { if (mine) this.clearDraft(); break; }
        sounds.play(suitOf(card) === "S" ? "spade" : "card");
        this.lastTrick = null;
        if (ev.trick) {
          this.lastTrick = { cards: ev.trick, winner: ev.trick_winner };
          setTimeout(() => sounds.play("trick"), 250);
          pause = 900;
          // the hand's last trick stays in sight with its winner marked before the summary
          if (this.view && this.view.hand_sizes.every((n) => n === 0)) { this.handEnding = true; this.awaitingScore = true; }
        } else {
          pause = 280;
        }
        if (mine) { this.selected = null; this.saveDraft(); }
        if (ev.kind === "play") this.animatePlay(ev.seat);
        break;
      }
      case "hand_scored":
        // the hand's summary on the felt; the next events wait until it is put away
        this.summaryRow = ev.result;
        this.awaitingScore = false;
        // (your turn may have come already, its frame waiting behind this one)
        for (const m of this.queue) if (m.event) this.tellHeldTurn(m);
        this.summaryDetails = ev.details || null; // each side's parts in words (the server's)
        this.summaryHold = true;
        this.sheetData = null;
        sounds.play("chord");
        pause = 600;
        break;
      case "covered":
        // a CPU plays for you while you are here (idle): where the game stood, for when
        // you are back
        // (again after a reconnect while still covered: the first is kept)
        if (mine && !this.idleBefore) this.idleBefore = { view: msg.view, score: msg.score };
        break;
      case "returned":
        // back from idle by Take my seat back ("You are back" was said): what was played for you
        // meanwhile, where the game stands and whose turn, as after a reconnect
        // (not when your own move took the seat back: you are at the table, and it was said)
        if (mine && this.idleBefore) {
          const idle = this.idleBefore;
          this.idleBefore = null;
          if (this.status === "active" && !backByMove) this.say(this.catchUpText(idle));
        }
        break;
      case "readmitted":
        // the owner let you back in (the words were said as it came): you may sit down again
        // (a reconnect asks for a seat no more than before: you watch until you sit down)
        if (this.app.user && ev.user_id === this.app.user.id && !this.isPlayer) {
          this.letBack = true;
          this.cannotSit = null;
          // where the way to sit is (the focus stays where it was: the news was said)
          if (this.sitDownWhy() === null) this.say("The Sit down at the table button is next to Stop watching. J goes there.");
        }
        break;
      case "rematch":
        // the owner made a new table for a rematch (the words were said as it came; told
        // again, for someone who came back to the table since, it has none for the others)
        {
          const known = this.rematch && this.rematch.id === ev.rematch;
          this.rematch = { id: ev.rematch, text: ev.text || (known ? this.rematch.text : "") };
          // the end-of-match box closed, its Join button goes to the top of the table, far
          // from the Score sheet button where the focus is: say how to get there (J), once
          // (a player's page: J goes to your hand's place)
          const over = this.el.querySelector("#match-over");
          // (a spectator's page too, unless the rematch is private and it has no code for it)
          const locked = !this.isPlayer && this.msg.table.options && this.msg.table.options.private && !this.invite;
          if (!known && ev.text && !locked && !(over && over.open)) this.say(this.isPlayer ? "J goes to the Join the rematch button." : "J goes to the Join the rematch button; Watch the rematch is next to it.");
        }
        break;
      case "match_over":
        this.msg.table.status = "finished";
        this.forget();
        this.msg.table.winner = ev.winner;
        this.requestSheet();
        sounds.play("chord");
        break;
      default:
    }
    this.render();
    this.checkTurn();
    if (this.handEnding) { this.handEnding = false; return -1; }
    return this.app.motion() ? pause : Math.min(pause, 350);
  }

  // ------------------------------------------------------------------ the hand's summary
  summaryShown() { return !!this.summaryRow; }

  /** Your turn came (frame `msg`) while the hand's summary holds the next deal behind it:
   * told once, with the way on ("your turn" itself comes once the summary is put away); it
   * was silent until then, and a sighted player sees the summary's Next deal button. */
  tellHeldTurn(msg) {
    const v = msg && msg.view;
    if (!this.summaryShown() || !this.isPlayer || !v || !msg.turn || msg.turn.seat !== this.mySeat) return;
    const key = turnKeyOf(v);
    if (this.heldTurnTold === key) return;
    this.heldTurnTold = key;
    const doing = v.phase === "bid" ? "bid" : v.trick.length ? "play" : "lead";
    this.say(`Your turn to ${doing} waits behind the hand's summary: Escape puts it away.`, { stale: () => !this.summaryShown() });
  }

  /** Put the summary away by itself after the seconds of the setting (0: only when asked);
   * never longer than 3 s at a table with a turn timer. */
  armSummary() {
    clearTimeout(this.summaryTimer);
    let secs = Number(this.app.settings.summarySeconds ?? 8);
    const timed = this.msg && this.msg.table.options && this.msg.table.options.turn_timer;
    if (timed) secs = secs > 0 ? Math.min(secs, 3) : 3;
    if (secs > 0) this.summaryTimer = setTimeout(() => this.dismissSummary(), secs * 1000);
  }

  /** A key, a tap or the time: the summary goes and the next deal is shown. */
  dismissSummary() {
    if (!this.summaryRow) return false;
    clearTimeout(this.summaryTimer);
    this.summaryTimer = null;
    const hadFocus = this.el && this.el.querySelector(".hand-summary")?.contains(document.activeElement);
    this.summaryRow = null;
    this.summaryHold = false;
    this.busy = false;
    this.render();
    if (hadFocus) this.focusHand();
    this.pump();
    return true;
  }

  /** One side's hand in figures and words (the summary on the felt): its parts in the words
   * the server sends with the scored hand (`details`, the terminal's hand details: "Bonus: +20
   * for a contract of 1 or 2 made exactly.", "... contract set, −200 (10 for 200: ...)."), with
   * the page's minus sign; the page knows no rule of its own here. */
  sideResult(row, k) {
    const seats = this.sides[k] || [];
    const bids = seats.map((s) => row.bids[s]);
    const nums = bids.filter((b) => typeof b === "number" || /^\d+$/.test(String(b))).map(Number).filter((b) => b > 0);
    const bid = nums.reduce((a, b) => a + b, 0);
    const took = seats.reduce((n, s) => n + row.tricks[s], 0);
    const items = ((this.summaryDetails && this.summaryDetails[k]) || []).map(minusSigned);
    const warn = this.score && this.score.bag_warning ? this.score.bag_warning[k] : "";
    return {
      name: this.sideTitle(k), bid, bidText: bids.map((b) => this.bidText(b)).join(" + "), took, items,
      points: row.points[k], score: row.scores[k], bags: row.bags[k], warn,
    };
  }

  renderSummary() {
    const felt = this.el && this.el.querySelector(".felt");
    if (!felt) return;
    let box = felt.querySelector(".hand-summary");
    const row = this.summaryRow;
    // (gone: the felt grown for it, fitSummary, back to its size)
    if (!row) { if (box) { box.remove(); this.fitSeats(); } return; }
    if (box && box.dataset.hand === String(row.number)) return;
    if (box) box.remove();
    const over = this.status === "finished" || (this.view && this.view.phase === "over") || this.queue.some((m) => m.event && m.event.kind === "match_over");
    const signed = (n) => `${n >= 0 ? "+" : "−"}${Math.abs(n)}`;
    const table = h("table", { class: "summary-table" },
      // on a phone the long column names give way to short ones (the long ones still read)
      h("thead", {}, h("tr", {}, [["", ""], ["Bid", "Bid"], ["Took", "Took"], ["This hand", "Hand"], ["Score", "Score"], ["Bags", "Bags"]].map(([t, short], i) => h("th", { scope: "col", class: i >= 2 ? "num" : null },
        i ? (t === short ? t : [h("span", { class: "col-long" }, t), h("span", { class: "col-short", "aria-hidden": "true" }, short)])
          : h("span", { class: "sr-only" }, this.teamGame ? "Side" : "Player"))))));
    const body = h("tbody");
    const warnings = [];
    this.sides.forEach((_, k) => {
      const d = this.sideResult(row, k);
      body.append(h("tr", { class: k === this.mySide ? "mine" : "" },
        h("th", { scope: "row" }, d.name),
        h("td", {}, d.bidText),
        h("td", { class: "num" }, String(d.took)),
        h("td", { class: "num" }, h("strong", { class: d.points < 0 ? "neg" : "" }, signed(d.points))),
        h("td", { class: "num" }, scoreText(d.score)),
        h("td", { class: "num" }, String(d.bags))));
      // how the hand's points came, on a row of their own under the side's figures (the
      // figures' columns stay narrow enough for a phone)
      if (d.items.length) {
        body.append(h("tr", { class: `summary-detail${k === this.mySide ? " mine" : ""}` },
          h("td", { colspan: "6" }, h("ul", { class: "summary-items", "aria-label": `${d.name}: how the points came` }, d.items.map((t) => h("li", {}, t))))));
      }
      if (d.warn) warnings.push(`${d.name}: ${d.warn}`);
    });
    table.append(body);
    const last = this.lastTrick && this.lastTrick.cards.length
      ? (() => {
        const w = this.lastTrick.winner;
        const card = (this.lastTrick.cards.find(([s]) => s === w) || [])[1];
        return h("p", { class: "summary-last" }, `Last trick: ${this.seatName(w)} ${this.verb(w, "takes", "take")} it${card ? ` with the ${cardName(card)}` : ""}.`);
      })() : null;
    box = h("section", { class: "hand-summary", "data-hand": String(row.number), "aria-labelledby": "summary-title" },
      h("h2", { id: "summary-title" }, `Hand ${row.number} scored`),
      last, table,
      warnings.length ? h("p", { class: "bag-warning" }, h("span", { "aria-hidden": "true" }, "⚠ "), warnings.join(" ")) : null,
      h("div", { class: "button-row" },
        h("button", { type: "button", class: "primary", id: "summary-next" }, over ? "See the result" : "Next deal"),
        h("span", { class: "note" }, "or press Escape")));
    box.addEventListener("click", () => this.dismissSummary());
    felt.append(box);
    this.fitSeats(); // (the felt grown for it where it would scroll inside: fitSummary)
  }

  /** Say "your turn" once per turn, with a sound, after what came before it. */
  checkTurn() {
    if (this.arrivalAt != null) return; // (said after the sitting down: onTable, tell)
    const v = this.view;
    if (!v || !this.myTurn()) { this.turnKey = null; return; }
    const key = turnKeyOf(v);
    if (this.turnKey === key) return;
    this.turnKey = key;
    // a CPU plays for you (idle): not "your turn" at each of its moves (its move is said:
    // "A CPU plays … for you"); Take my seat back says where the game stands
    if (this.idleCovered) return;
    // a bid the rules leave you no choice in: the server makes it at once, and says why
    // ("Mirror bidding: … You bid 3."), not "your turn" and then the bid
    if (this.forcedBid() !== null) return;
    this.app.sounds.play("turn");
    // a bid chosen before your turn that the turn does not allow (the variant, a partner's
    // bid) is dropped, and said to be
    let dropped = "";
    if (v.phase === "bid" && this.bidDraft != null && v.hand && !this.bidChoices().includes(String(this.bidDraft))) {
      dropped = ` The bid you chose, ${this.bidText(this.bidDraft)}, cannot stand.`;
      this.clearDraft();
    }
    // after everything said before it (polite, in order); dropped if the turn has passed
    this.say(this.turnText() + dropped + this.turnTimeText(key), { stale: () => this.turnKey !== key || !this.myTurn() });
    if (this.warnAfterTurn === key) { // the server's warning came before the turn was shown
      this.warnAfterTurn = null;
      const left = this.timeLeft();
      if (left !== null && left > 0) this.warnTimer(left, v, { inOrder: true });
    }
    if (this.app.settings.autoplay && v.phase === "play") {
      // the only legal card goes by itself, unless you played it first (one play per turn)
      const legal = this.legalCards();
      const at = this.view;
      if (legal.length === 1) setTimeout(() => { if (this.view === at && this.actingOn !== at) this.play(legal[0]); }, 400);
    }
  }

  /** At a table with a turn timer, how long your turn (`key`) has, as W and Y say it (" 30
   * seconds left."); "" without a timer, and "" when the timer's warning follows at once
   * (the server's came already, or the time is already that short): not said twice. */
  turnTimeText(key) {
    const turn = this.clockTurn();
    const left = this.timeLeft();
    if (left === null || left <= 0 || this.warnAfterTurn === key) return "";
    if (left <= this.warnAt(turn)) return "";
    return ` ${plural(left, "second")} left.`;
  }

  /** The seconds left at which the page warns that your time runs out (and the countdown
   * turns urgent): 10, or half the turn's time if shorter. */
  warnAt(turn) { return Math.min(10, (turn && turn.seconds || 30) / 2); }

  /** Everything the table says goes through here (then the announcer's one queue). */
  say(text, opts) { this.app.announcer.say(text, opts); }

  /** A hint holds for this turn only: if the turn has passed before it is read, it is dropped. */
  sayHint(text) {
    const key = this.turnKey;
    this.say(text, { stale: () => this.turnKey !== key || !this.myTurn() || this.moveSent() });
  }

  /** A move of yours is on its way for the state shown (its answer, the event, not yet come). */
  moveSent() { return !!this.view && this.actingOn === this.view; }

  // ------------------------------------------------------------------ texts (what is spoken)
  summary(away = []) {
    const t = this.msg.table;
    const v = this.view;
    const parts = [];
    if (this.isPlayer) parts.push(`You sit ${this.players === 4 ? "" : "at "}${this.compass(this.mySeat)} at ${t.name || "this table"}.`);
    else parts.push(`You are watching ${t.name || "this table"}.`);
    if (t.status === "waiting") {
      parts.push("The match has not started yet.");
      // a rematch: the places of the players of the match before, until they come back
      const kept = (t.seats || []).filter((s) => s.kind === "empty" && s.kept_for);
      if (kept.length) parts.push(`Rematch: ${kept.length === 1 ? "a place is" : "places are"} kept for the players of the match before: ${listJoin(kept.map((s) => `${this.compass(s.seat)} for ${s.kept_for}`))}.`);
      // watching it: you may sit down at a free place (J goes to the button)
      if (this.sitDownWhy() === null) parts.push("J goes to the Sit down at the table button.");
    } else if (t.status === "finished") parts.push(this.overText(t.winner));
    else if (v) {
      parts.push(`Hand ${v.hand_number}, ${v.phase === "bid" ? "bidding" : v.phase === "play" ? "playing" : "between hands"}.`);
      if (v.hand && v.hand.length) parts.push(this.handSummary(v.hand));
      parts.push(...away);
      // opened mid-hand (a reload, the browser opened again, a spectator arriving): what was
      // bid and taken so far, and who took the last trick (P says the scores)
      const standing = this.standingText();
      if (standing) parts.push(standing);
      if (!this.myTurn()) parts.push(this.whoseTurnText());
    }
    return parts.join(" ");
  }

  /** Where the hand stands, for someone arriving in it: the bids so far (bidding), or the
   * bids and tricks taken and who took the last trick (playing); "" before any bid. Said
   * after a return mid-hand: "Your turn to lead" alone did not tell who had taken the trick
   * played while you were away, nor anyone's tricks. */
  standingText() {
    const v = this.view;
    if (!v || !v.bids || (v.phase !== "bid" && v.phase !== "play")) return "";
    const who = (s) => this.seatName(s, { lower: true, mark: false });
    if (v.phase === "bid") {
      const made = v.bids.map((b, s) => [s, b]).filter(([, b]) => b !== null && b !== undefined);
      return made.length ? `Bids so far: ${listJoin(made.map(([s, b]) => `${who(s)} ${this.bidText(b)}`))}.` : "";
    }
    const rows = v.bids.map((b, s) => `${who(s)} bid ${this.bidText(b)}, ${plural(v.tricks[s], "trick")}`);
    const done = v.plays ? Math.floor(v.plays.length / this.players) : 0;
    // the open trick's leader took the trick before it
    const last = done && v.leader !== null && v.leader !== undefined
      ? ` Trick ${done} went to ${who(v.leader)}.` : "";
    return `Bids and tricks: ${rows.join("; ")}.${last}`;
  }

  handSummary(hand) {
    if (!hand || !hand.length) return "";
    const counts = ["H", "S", "D", "C"].map((s) => [s, hand.filter((c) => suitOf(c) === s).length])
      .filter(([, n]) => n > 0).map(([s, n]) => `${n} ${n === 1 ? SUIT_SINGULAR[s] : SUIT_NAMES[s]}`);
    return `You hold ${plural(hand.length, "card")}: ${listJoin(counts)}.`;
  }

  turnText() {
    const v = this.view;
    if (v.phase === "bid") {
      const bids = this.legalBids();
      if (bids.includes("look")) return "Your turn to bid. You may bid Blind Nil before looking, or look at your cards.";
      const forced = this.forcedBid();
      if (forced !== null) return `Your turn to bid: your only bid, ${this.bidText(forced)}, is made for you.`;
      const choices = this.bidChoices();
      const range = choices.length === 1 ? `your bid can only be ${this.choicesText(choices)}` : this.choicesText(choices);
      return `Your turn to bid: ${range}.`;
    }
    const legal = this.legalCards();
    const hand = this.handCards();
    if (!v.trick.length) {
      return `Your turn to lead. Spades are ${v.spades_broken ? "broken" : "not broken"}. ${plural(legal.length, "card")} playable.`;
    }
    const led = suitOf(v.trick[0][1]);
    const following = legal.some((c) => suitOf(c) === led);
    // (what is said as the game goes: a CPU marked where the news has not named it yet)
    const cur = this.newsText(this.trickText(false));
    return `Your turn. ${cur} ${following ? `Follow ${SUIT_NAMES[led]}: ${plural(legal.length, "card")}.` : `You have no ${SUIT_NAMES[led]}: play any card.`}`.trim()
      + (hand.length === legal.length && !following ? "" : "");
  }

  /** Whose turn it is. `mark: false`: a continued record's CPU by its plain name ("Nora to
   * bid."), W's answers after its first naming one (`markedOnce`). */
  whoseTurnText({ time = true, mark = true } = {}) {
    const v = this.view;
    if (!v || this.status === "waiting") return "The match has not started.";
    if (this.status === "finished" || v.phase === "over") return "The match is over.";
    if (v.current_player < 0) {
      // the hand's summary holds the felt; the news of the next deal may be said already
      if (this.summaryShown() && this.queue.some((m) => m.type === "event" && m.event && m.event.kind === "deal")) {
        return "The next hand is dealt: the last hand's summary is still up. Escape puts it away and goes on to the next hand.";
      }
      return "Waiting for the next deal.";
    }
    const doing = v.phase === "bid" ? "bid" : v.trick.length ? "play" : "lead";
    const s = v.current_player;
    const base = s === this.mySeat && this.isPlayer ? `Your turn to ${doing}.` : `${this.seatName(s, { mark })} to ${doing}.`;
    const left = time ? this.timeLeft() : null;
    return left !== null ? `${base} ${plural(left, "second")} left.` : base;
  }

  /** Seed 002's played-cards key: the open trick, and whether spades are broken. `mark:
   * false`: a continued record's CPU by its plain name (T's answers after its first). */
  trickText(withBroken = true, { mark = true } = {}) {
    const v = this.view;
    if (!v) return "No hand in play.";
    const broken = `Spades are ${v.spades_broken ? "broken" : "not broken"}.`;
    if (!v.trick.length) {
      const last = this.lastTrick && this.lastTrick.cards.length
        ? ` The last trick went to ${this.seatName(this.lastTrick.winner, { lower: true, mark })}.` : "";
      return `No card played to this trick yet.${last}${withBroken ? ` ${broken}` : ""}`;
    }
    const plays = v.trick.map(([s, c]) => `${this.seatName(s, { mark })}: ${cardName(c)}`);
    return `${SUIT_NAMES[suitOf(v.trick[0][1])].replace(/^./, (x) => x.toUpperCase())} led. ${plays.join(", ")}.${withBroken ? ` ${broken}` : ""}`;
  }

  /** The key `key`'s answer, `text(mark)`: its first answer at this table that names a
   * continued record's CPU says it is one ("Nora (CPU)"), the ones after say "Nora", as the
   * score sheet says it once, in its head. An answer naming none ("Your turn to play.") does
   * not count: W's first answer was that, and W never said which players were CPUs. */
  markedOnce(key, text) {
    const plain = text(false);
    if (this.answered.has(key)) return plain;
    const marked = text(true);
    if (marked !== plain) this.answered.add(key);
    return marked;
  }

  /** The server's news (an event's sentence) with a continued record's CPU said to be one
   * ("Nora (CPU)") only where the news names it first at this table: "Nora" after. (The
   * server writes the mark every time: the terminal's own rule stays its own.) */
  newsText(text) {
    const seats = (this.msg && this.msg.table.seats) || [];
    let out = String(text);
    for (const info of seats) {
      if (!info || info.kind !== "cpu" || !info.name || !/\s\(CPU\)$/.test(info.name)) continue;
      const plain = unmarked(info.name);
      let at = out.indexOf(info.name);
      if (at < 0) continue;
      if (!this.newsMarked.has(info.name)) { // said once here, then plain
        this.newsMarked.add(info.name);
        at += info.name.length;
      }
      out = out.slice(0, at) + out.slice(at).split(info.name).join(plain);
    }
    return out;
  }

  /** Seed 002's round status: bids and tricks of everyone. A continued record's CPU is said
   * to be one ("Nora (CPU)") with `mark` (R's first answer at this table, `markedOnce`), "Nora" without (as the
   * score sheet says it once, in its head). */
  roundText({ mark = true } = {}) {
    const v = this.view;
    if (!v) return "No hand in play.";
    const rows = v.bids.map((b, s) => {
      const bid = this.bidText(b);
      return `${this.seatName(s, { mark })}: ${bid === null ? "no bid yet" : `bid ${bid}`}, ${plural(v.tricks[s], "trick")}`;
    });
    const played = v.plays ? Math.floor(v.plays.length / this.players) : 0;
    const where = v.phase === "play" ? `, trick ${played + 1}` : v.phase === "bid" ? ", bidding" : ", finished";
    return `Hand ${v.hand_number}${where}. ${rows.join("; ")}.`;
  }

  /** Each side's points and bags (P's answer). `mark: false`: a continued record's CPU by its
   * plain name (P's answers after its first, `markedOnce`). */
  scoresText({ mark = true } = {}) {
    const sc = this.score; // (with the view: both come with the match)
    if (!sc) return "No scores yet.";
    const target = this.rules && this.rules.match === "one-hand" ? "one-hand match" : `playing to ${this.target()}`;
    return `Scores, ${target}: ` + sc.scores.map((p, k) => {
      const warn = sc.bag_warning && sc.bag_warning[k] ? `, ${sc.bag_warning[k]}` : "";
      return `${this.sideTitle(k, { mark })} ${plural(p, "point")}, ${plural(sc.bags[k], "bag")}${warn}`;
    }).join("; ") + ".";
  }

  target() {
    const r = this.rules;
    if (r && r.target) return r.target;
    const o = this.msg && this.msg.table.options;
    if (o && o.target) return o.target;
    return this.msg && this.msg.table.options.profile === "race400" ? 400 : 500;
  }

  overText(winner) {
    const sc = this.score;
    const scores = sc ? ` Final score: ${sc.scores.map((p, k) => `${this.sideName(k)} ${scoreText(p)}`).join(", ")}.` : "";
    if (winner === null || winner === undefined) return `The match is over: a draw.${scores}`;
    const mine = winner === this.mySide;
    const name = this.sideTitle(winner);
    return `The match is over. ${name} ${name === "You" || this.sides[winner].length > 1 ? "win" : "wins"}!${scores}`;
  }

  /** The turn whose clock runs: while the hand's summary holds the next deal back, the
   * newest turn waiting behind it (its clock runs on the server all the same), else the
   * turn shown. */
  clockTurn() {
    if (this.summaryShown()) {
      for (let i = this.queue.length - 1; i >= 0; i--) {
        const m = this.queue[i];
        if (m.type === "event" && m.turn !== undefined) return m.turn;
      }
    }
    return this.turn;
  }

  timeLeft() {
    const turn = this.clockTurn();
    if (!turn || !turn.deadline) return null;
    return Math.max(0, Math.round(turn.deadline - Date.now() / 1000));
  }

  /** The timer's last warning for your turn: said at once (assertive), once per turn; with
   * `inOrder` (back at the table) after what is waiting to be said (polite). */
  warnTimer(seconds, view = this.view, { inOrder = false } = {}) {
    const key = view ? turnKeyOf(view) : "";
    if (this.warned === key) return;
    this.warned = key;
    this.app.sounds.play("timer");
    this.say(`${plural(Math.round(seconds ?? this.timeLeft() ?? 0), "second")} left to ${view && view.phase === "bid" ? "bid" : "play"}.`, { assertive: !inOrder });
  }

  // ------------------------------------------------------------------ actions
  async act(action) {
    // one action per state of the game: a second press (or the "only legal card" autoplay)
    // while the first is on its way is not sent, so it cannot come back as a refusal
    if (this.view && this.actingOn === this.view) return false;
    if (this.blocked) {
      this.refuse(this.blocked === "replaced" ? "this table is open in another tab: press Play here first."
        : "you are offline: wait until the connection is back.");
      return false;
    }
    this.actingOn = this.view;
    // the card this page sent, with the state it was sent on: the connection may close
    // before its answer comes (the catch-up then tells it as your own play, not as one
    // made for you, when the server says it was played at your seat: awayParts)
    if (isCard(action)) this.sentPlay = { card: action, view: this.view };
    else this.sentBid = { bid: action, view: this.view };
    this.keepSent();
    try {
      await this.app.conn.request({ type: "act", action });
      this.takenSinceRefetch = true; // (a refusal after it may fetch the table again: refetch)
      return true;
    } catch (err) {
      this.actingOn = null;
      // (the connection closed before the answer: made or not, the catch-up says which
      // once the table is back; it was not refused)
      if (err.code === "offline") this.say("The connection was lost before your move was confirmed: when the table is back, it says where the game stands.", { assertive: true });
      else if (err.message) this.refuse(err.message);
      else this.refuse(this.unexplainedMove(action, await this.refetch()));
      return false;
    }
  }

  /** After a refusal without a reason of the server's: the page and the server may not
   * agree on where the game stands, so the page asks for the table again (`resync`: its
   * snapshot replaces what the page shows) before it says what was refused. Bounded: one
   * in flight at a time (refusals that come together share it), and none again until the
   * server has taken something of yours since (an `ack`) or REFETCH_GAP_MS have passed.
   * "fetched", "failed" (refused, unanswered, or the connection lost: then a reload is
   * the way back), or "recent" (the table was fetched just before, and this came all the
   * same). Before, every such refusal told the player to reload the page. */
  async refetch() {
    if (this.refetching) return this.refetching;
    const now = Date.now();
    if (this.refetchedAt !== null && !this.takenSinceRefetch && now - this.refetchedAt < REFETCH_GAP_MS) return "recent";
    this.refetchedAt = now;
    this.takenSinceRefetch = false;
    let timer = null;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve("failed"), REFETCH_WAIT_MS); });
    const asked = this.app.conn.request({ type: "resync" })
      .then((m) => (m && m.type === "table" ? "fetched" : "failed"), () => "failed");
    this.refetching = Promise.race([asked, late]).finally(() => { clearTimeout(timer); this.refetching = null; });
    return this.refetching;
  }

  /** What the page adds to a refusal without a reason of the server's, once `refetch` is
   * done (`how`, its answer), and the way on (`next`: "play a card again"), if any. */
  refetchWords(how, next = "") {
    const reload = "reload the page (you keep your seat).";
    if (how === "failed") return `The table could not be fetched again: ${reload}`;
    const on = next ? ` ${next}` : "";
    if (how === "recent") return `The table was fetched again a moment ago.${on} If this keeps happening, ${reload}`;
    return `The table was fetched again.${on}`;
  }

  /** A move of yours refused without a reason of the server's (an `error` with an empty
   * `message`): what was refused (your bid of 3, the queen of hearts), and what you can do
   * now, on the table fetched again (`how`: `refetch`'s answer): move again while it is
   * still your turn, else W says whose turn it is; a reload (it brings you back to your
   * seat with the server's table) only when the table could not be fetched again, or when
   * it was fetched a moment ago and this comes all the same. Before, "Refused: That was
   * refused.", then "reload the page" at every such refusal. */
  unexplainedMove(action, how) {
    const what = isCard(action) ? `the ${cardName(action)} was not played`
      : action === "look" ? "your cards were not shown to you"
        : `your bid of ${this.bidText(action)} was not taken`;
    const again = isCard(action) ? "play a card again" : action === "look" ? "look at them again, or bid" : "bid again";
    const still = this.myTurn() && (isCard(action) ? this.view.phase === "play" : this.view.phase === "bid")
      ? `It is still your turn${isCard(action) ? "" : " to bid"}: ${again}.`
      : "W says whose turn it is.";
    return `${what}, and ${NO_REASON}. ${this.refetchWords(how, how === "failed" ? "" : still)}`;
  }

  refuse(reason) {
    this.app.sounds.play("refused");
    this.say(`Refused: ${reasonEnd(reason)}`, { assertive: true });
    const hand = this.el && this.el.querySelector(".hand");
    if (hand && this.app.motion()) {
      hand.classList.remove("shake");
      void hand.offsetWidth;
      hand.classList.add("shake");
    }
  }

  /** Why a card may not be played now (seed 002: a refused card changes nothing). */
  whyNot(card) {
    const v = this.view;
    if (!v || v.phase !== "play") return "cards are played after the bidding.";
    if (!this.myTurn()) return `it is not your turn; ${this.whoseTurnText()}`;
    if (v.trick.length) {
      const led = suitOf(v.trick[0][1]);
      return `you must follow ${SUIT_NAMES[led]}.`;
    }
    if (suitOf(card) === "S") return "spades are not broken yet, and you hold other suits.";
    return `the ${cardName(card)} cannot be played now.`;
  }

  play(card) {
    if (!card) { this.refuse("select a card first."); return; }
    const legal = this.legalCards();
    if (!legal.includes(card)) { this.refuse(`the ${cardName(card)} cannot be played: ${this.whyNot(card)}`); return; }
    this.act(card);
  }

  bid(value) {
    const legal = this.legalBids();
    if (!this.myTurn() || this.view.phase !== "bid") { this.refuse(`it is not your turn to bid. ${this.whoseTurnText()}`); return; }
    let action = String(value);
    if (action === "0") action = legal.includes("nil") ? "nil" : "0";
    if (!legal.includes(action) && !(action === "nil" && legal.includes("0"))) {
      this.refuse(`${this.bidText(value)} is not a bid you can make now: you can bid ${this.choicesText(this.bidChoices())}.`);
      return;
    }
    if (action === "nil" && !legal.includes("nil")) action = "0";
    this.act(action);
  }

  hint() {
    const v = this.view;
    if (!v || !this.isPlayer) { this.say("Hints are for players at the table."); return; }
    if (!this.myTurn()) { this.say(`No hint now: ${this.whoseTurnText()}`); return; }
    if (this.app.serverHints && this.app.conn.ready) { this.serverHint(); return; }
    this.localHint();
  }

  /** The bots' hint from the server (`{"type":"hint"}` → action and a one-line reason). */
  async serverHint() {
    const key = this.turnKey;
    // One request a turn: asked again, the same turn's answer is said again (the server's
    // hint is the same for the same position). Before, a second press while the first was
    // worked out, or past the hint rate, was refused, and the page's own hint, often another
    // card, was said instead: "play the king", then "play the three".
    if (!this.hintAsked || this.hintAsked.key !== key) {
      const answer = Promise.race([
        this.app.conn.request({ type: "hint", names: this.hintNames() }),
        new Promise((_, reject) => setTimeout(() => reject(new Error("slow")), 4000)),
      ]).catch(() => null);
      this.hintAsked = { key, answer };
    }
    const asked = this.hintAsked;
    const msg = await asked.answer;
    // the turn moved on meanwhile, or your move was sent before the hint came: a hint for a
    // move made is not said ("It is selected; press Enter to play it" after "You play …")
    if (this.turnKey !== key || !this.myTurn() || this.moveSent()) return;
    const action = msg && msg.action;
    const why = msg && msg.reason;
    if (!action || !this.view.legal_actions.includes(action) && !(action === "0" && this.view.legal_actions.includes("nil"))) {
      // The page's own hint, and for the rest of this turn too: asked again, the server
      // answered in time and its hint, often another bid or card, was said after the page's
      // ("bid 4", then "bid 3"; a busy server's hint can take more than the 4 seconds).
      this.localHint();
      return;
    }
    this.showHint(action, why);
  }

  /** The seats' names for the server's hint, in seat order, as the table draws them
   * ("North" for your partner across from you, a player's name; yours for your seat). */
  hintNames() {
    return Array.from({ length: this.players }, (_, s) => this.seatName(s, { you: false }));
  }

  showHint(action, why, source = "server") {
    this.lastHintSource = source;
    // the bots' reason names the action itself ("Play the 4 of clubs: ...", "Look at your
    // cards: ..."): say it once
    let text = (why || "").trim().replace(/^(bid|play|lead|trump with|discard|look)\b[^:]*:\s*/i, "").replace(/\.$/, "");
    // mid-sentence now: lower case, unless it starts with a seat's name ("West's ace ...")
    if (text && !this.hintNames().some((n) => n && text.startsWith(n))) text = text[0].toLowerCase() + text.slice(1);
    const reason = text ? `: ${text}` : "";
    if (isCard(action)) {
      this.select(action);
      this.sayHint(`Hint: play the ${cardName(action)}${reason}. ${this.howToPlaySelected()}`);
    } else if (action === "blind-nil" || action === "look") {
      this.sayHint(`Hint: ${action === "look" ? "look at your cards" : "bid Blind Nil"}${reason}.`);
    } else {
      const pick = action === "0" ? "nil" : action;
      this.setDraftBid(pick);
      this.sayHint(`Hint: bid ${this.bidText(pick)}${reason}. The bid is chosen for you: confirm it to bid.`);
    }
  }

  /** The page's own hint, from the seat's view (used offline or without the server's). */
  localHint() {
    this.lastHintSource = "page";
    const v = this.view;
    if (v.phase === "bid") {
      if (!v.hand) { this.sayHint("Hint: look at your cards first, unless your side needs a Blind Nil gamble."); return; }
      const n = suggestBid(v.hand, v.hand.length);
      const legal = this.legalBids();
      let pick = n === 0 && (legal.includes("nil") || legal.includes("0")) ? "nil" : String(n);
      if (!legal.includes(pick) && pick !== "nil") {
        const nums = legal.filter((b) => /^\d+$/.test(b)).map(Number);
        if (nums.length) pick = String(nums.reduce((a, b) => (Math.abs(b - n) < Math.abs(a - n) ? b : a)));
      }
      this.setDraftBid(pick);
      this.sayHint(`Hint: bid ${this.bidText(pick)}. Your aces, guarded kings and spades count about ${n} tricks. The bid is chosen for you: confirm it to bid.`);
      return;
    }
    const partners = this.sides[this.mySide] || [this.mySeat];
    const s = suggestPlay(v, partners);
    if (!s) { this.say("No hint."); return; }
    this.select(s.action);
    this.sayHint(`Hint: play the ${cardName(s.action)}: ${s.why}. ${this.howToPlaySelected()}`);
  }

  /** How the card a hint selected is played from where the focus is: Enter on your hand; from
   * elsewhere (the Hint button, where Enter asked for the hint again), J then Enter. */
  howToPlaySelected() {
    const hand = this.el && this.el.querySelector("#hand");
    if (hand && document.activeElement === hand) return "It is selected; press Enter to play it.";
    return this.app.settings.shortcuts ? "It is selected in your hand: J goes there, then Enter plays it."
      : "It is selected in your hand: the Play button plays it.";
  }

  requestSheet() {
    this.app.conn.send({ type: "sheet" });
  }

  // ------------------------------------------------------------------ drafts (seed 003)
  loadDraft() {
    const d = store.draft(this.id);
    const v = this.view;
    if (!d || !v || d.hand !== v.hand_number) { this.bidDraft = this.bidDraft ?? null; return; }
    if (d.bid !== undefined && v.phase === "bid" && v.bids[this.mySeat] === null) this.bidDraft = d.bid;
    const hand = this.handCards();
    if (d.card && hand.includes(d.card)) this.selected = d.card;
  }

  saveDraft() {
    if (!this.view) return;
    // (a card the page chose is not kept: after a reload it was taken for yours, and stayed
    // on a card that cannot be played when your turn came)
    const card = this.autoSelected ? undefined : this.selected || undefined;
    store.saveDraft(this.id, { hand: this.view.hand_number, bid: this.bidDraft ?? undefined, card });
  }

  clearDraft() {
    this.bidDraft = null;
    this.saveDraft();
  }

  setDraftBid(value) {
    this.bidDraft = value;
    this.saveDraft();
    this.renderBidPanel();
  }

  select(card, auto = false) {
    this.activeSpecial = null;
    this.selected = card;
    this.autoSelected = auto; // (`auto`: the page chose it, not you)
    this.saveDraft();
    this.renderHand();
  }

  // ------------------------------------------------------------------ rendering
  mount(container) {
    this.el = h("div", { class: "table-view", "data-table": this.id });
    container.append(this.el);
    this.el.append(h("p", { class: "loading" }, "Joining the table…"));
    this.timerHandle = setInterval(() => this.tick(), 250);
    this.onResize = () => { this.fitBids(); this.fitHand(); this.fitSeats(); };
    window.addEventListener("resize", this.onResize);
    // the felt changes size without the window (the bid panel goes, a box opens above the
    // hand): the seats are fitted to it again (in the next frame: fitting may make it taller)
    this.feltObserver = typeof ResizeObserver === "function" ? new ResizeObserver(() => requestAnimationFrame(() => this.fitSeats())) : null;
  }

  unmount() {
    clearInterval(this.timerHandle);
    window.removeEventListener("resize", this.onResize);
    if (this.feltObserver) this.feltObserver.disconnect();
    this.el = null;
  }

  render() {
    if (!this.el || !this.msg) return;
    this.rememberHeld();
    const mode = this.offTable ? "off" : this.status === "waiting" || !this.view ? "waiting" : "game";
    let hadFocus = this.el.contains(document.activeElement);
    const rebuilt = this.el.dataset.mode !== mode;
    if (rebuilt) {
      const a = document.activeElement;
      hadFocus = hadFocus || !a || a === document.body || a === this.app.main;
      this.el.dataset.mode = mode;
      clear(this.el);
      if (mode === "off") this.buildOffTable();
      else if (mode === "waiting") this.buildWaiting(); else this.buildGame();
      // the table fills the window: felt, hand and actions in sight together
      if (mode === "game") requestAnimationFrame(() => this.showTable());
    }
    if (mode === "off") return;
    if (mode === "waiting") this.renderWaiting(); else this.renderGame();
    this.renderReplaced();
    if (mode === "game") this.renderIdle();
    // never leave the keyboard user stranded on <body> when what they were on went away
    if (hadFocus && (!document.activeElement || document.activeElement === document.body)) {
      const target = (!rebuilt && this.el.querySelector("#bid-panel:not([hidden]) input[name=bid]:checked, #bid-panel:not([hidden]) input[name=bid]"))
        || (this.isPlayer && this.el.querySelector("#hand")) || this.el.querySelector("h1");
      if (target) target.focus();
    }
  }

  /** No longer at the table (removed by the owner; it allows no spectators): what happened
   * (said when its frame came, not again), that the server will not seat you there again
   * (a removal holds for that table), and the way on: the lobby or the home page. The focus
   * goes to it. */
  buildOffTable() {
    const t = this.msg.table;
    const why = cap(String(this.offTable).trim());
    this.el.append(h("section", { class: "panel off-table", id: "off-table", "aria-labelledby": "off-table-title" },
      h("h1", { id: "off-table-title", class: "page-title", tabindex: "-1" }, `You are no longer at ${t.name || "this table"}`),
      h("p", {}, /[.!?]$/.test(why) ? why : `${why}.`),
      h("p", {}, "You cannot sit at this table again, unless its owner lets you back in."),
      h("p", { class: "button-row" },
        h("a", { href: "#/lobby" }, "Back to the lobby"), " ",
        h("a", { href: "#/" }, "Home page"))));
    this.el.querySelector("#off-table-title").focus();
  }

  // ---------- waiting room
  buildWaiting() {
    this.el.append(
      // the table's name (set as text in renderWaiting), then what the room is for
      h("h1", { tabindex: "-1", class: "page-title", id: "waiting-title" }, "Waiting for the start"),
      h("p", { class: "waiting-status" }, "Waiting for the start"),
      h("div", { class: "waiting-grid" },
        h("section", { class: "panel", "aria-labelledby": "seats-title" },
          h("h2", { id: "seats-title", tabindex: "-1" }, "Seats"),
          h("ul", { class: "seat-list", id: "seat-list" }),
          // the owner's: whom they removed, each with "Let … back in"
          h("div", { id: "removed-box", hidden: true },
            h("h3", { id: "removed-title" }, "Removed from this table"),
            h("ul", { class: "seat-list removed-list", id: "removed-list", "aria-labelledby": "removed-title" }))),
        h("section", { class: "panel", "aria-labelledby": "invite-title" },
          h("h2", { id: "invite-title" }, "Invite and start"),
          h("div", { id: "waiting-info" }),
          h("div", { class: "button-row", id: "owner-actions" })),
        this.buildOptionsForm(),
        this.buildChat()),
    );
  }

  /** The owner's options in the waiting room: the create form's fields for the turn timer,
   * the target score, the CPU strength and privacy (the other options are kept as they are).
   * Built once; its fields follow the table's options until the owner edits them. */
  buildOptionsForm() {
    const form = h("form", { class: "panel options-form", id: "table-options", "aria-labelledby": "options-title", hidden: true },
      h("h2", { id: "options-title" }, "Table options"),
      h("fieldset", { class: "field" }, h("legend", {}, "Turn timer"),
        h("p", { class: "check" }, h("input", { id: "w-timer-on", name: "timer_on", type: "checkbox" }), h("label", { for: "w-timer-on" }, "Use a turn timer")),
        h("p", {}, h("label", { for: "w-turn_timer" }, "Seconds per turn"), h("input", { id: "w-turn_timer", name: "turn_timer", type: "number", inputmode: "numeric", min: "5", max: "600", value: "30" }))),
      h("p", { class: "field" }, h("label", { for: "w-target" }, "Target score"),
        h("input", { id: "w-target", name: "target", type: "number", inputmode: "numeric", min: "1", max: "10000" })),
      h("p", { class: "field" }, h("label", { for: "w-cpu" }, "CPU strength for empty seats"), h("span", { id: "w-cpu-slot" })),
      h("p", { class: "field check" }, h("input", { id: "w-private", name: "private", type: "checkbox" }), h("label", { for: "w-private" }, "Private (invite code only)")),
      h("p", { class: "form-error", role: "alert", id: "options-error" }),
      h("div", { class: "button-row" }, h("button", { type: "submit", class: "primary" }, "Save the options")));
    this.optionsEdited = false;
    form.addEventListener("input", () => { this.optionsEdited = true; });
    form.addEventListener("change", () => { this.optionsEdited = true; });
    form.addEventListener("submit", (e) => { e.preventDefault(); this.saveOptions(form); });
    this.app.cpuSelect("w-cpu").then((sel) => {
      const slot = form.querySelector("#w-cpu-slot");
      if (!slot) return;
      slot.replaceWith(sel);
      if (this.msg) this.fillOptionsForm(form, this.msg.table.options, true);
    });
    return form;
  }

  /** Put the table's options in the owner's form (unless the owner is editing it). */
  fillOptionsForm(form, o, force = false) {
    if (this.optionsEdited && !force) return;
    form.querySelector("#w-timer-on").checked = !!o.turn_timer;
    form.querySelector("#w-turn_timer").value = String(o.turn_timer || 30);
    form.querySelector("#w-target").value = o.target ? String(o.target) : "";
    form.querySelector("#w-target").placeholder = targetHint(o.profile);
    const cpu = form.querySelector("select#w-cpu");
    if (cpu) {
      if (o.cpu && ![...cpu.options].some((x) => x.value === o.cpu)) cpu.append(h("option", { value: o.cpu }, o.cpu));
      cpu.value = o.cpu;
    }
    form.querySelector("#w-private").checked = !!o.private;
    this.optionsEdited = false;
  }

  async saveOptions(form) {
    const err = form.querySelector("#options-error");
    err.textContent = "";
    const f = new FormData(form);
    const o = { ...this.msg.table.options, private: !!f.get("private"),
      turn_timer: f.get("timer_on") ? Number(f.get("turn_timer") || 30) : null,
      target: f.get("target") ? Number(f.get("target")) : null };
    if (f.get("cpu")) o.cpu = f.get("cpu");
    try {
      await this.app.conn.request({ type: "options", options: o });
      this.optionsEdited = false;
      if (this.msg) this.fillOptionsForm(form, this.msg.table.options);
    } catch (ex) {
      // the server names the option ("options.turn_timer: ..."): say the field's label
      const m = /([a-z_]+): (.*)$/.exec(ex.message || "");
      const label = m && form.querySelector(`label[for=w-${m[1]}]`);
      err.textContent = label ? `${label.textContent}: ${reasonEnd(m[2])}` : reasonSentence(ex.message);
    }
  }

  /** Before the start, in a team game: who will play with whom ("Partners: Ann and Cara;
   * Bob and a CPU at West."), people first, a CPU (or an empty place) by where it sits. */
  partnersText() {
    const t = this.msg.table;
    if (!t.partners || !t.partners.length) return "";
    const who = (i) => {
      const s = t.seats[i];
      if (s && s.kind === "empty" && s.kept_for) return `${s.kept_for} when back`;
      return s && s.kind === "human" ? s.name : `a CPU at ${this.compass(i)}`;
    };
    const human = (i) => (t.seats[i] && t.seats[i].kind === "human" ? 0 : 1);
    const teams = t.partners.map((team) => listJoin([...team].sort((a, b) => human(a) - human(b) || a - b).map(who)));
    return `Partners: ${teams.join("; ")}.`;
  }

  renderWaiting() {
    const t = this.msg.table;
    const list = this.el.querySelector("#seat-list");
    // the seat's button (or its row: where sitting down put you) that has the focus: redrawn,
    // the focus stays at that seat
    const was = list.contains(document.activeElement) ? document.activeElement.dataset : null;
    const keep = was && (was.act || was.seat !== undefined) ? { act: was.act || null, seat: was.seat } : null;
    clear(list);
    const amOwner = this.amOwner();
    const seatButton = (s, act, text, msg) => h("button", { type: "button", class: "small", "data-act": act, "data-seat": String(s.seat), onclick: () => (msg.type === "add_cpu" ? this.addCpu(msg.seat) : this.request(msg)) }, text);
    t.seats.forEach((s) => {
      // a rematch: the empty place of a player of the match before, kept until they are back
      const kept = s.kind === "empty" && s.kept_for ? s.kept_for : null;
      const label = kept ? `Kept for ${kept}` : s.kind === "empty" ? "Empty" : s.name + (s.kind === "cpu" ? ` (CPU${s.cpu ? `, ${s.cpu}` : ""})` : "");
      const li = h("li", { class: `seat-row kind-${s.kind}${kept ? " kept" : ""}`, "data-seat": String(s.seat), tabindex: "-1" },
        h("span", { class: "seat-compass" }, this.compass(s.seat)),
        h("span", { class: "seat-who" }, label),
        guestMark(s),
        s.owner ? h("span", { class: "badge" }, "owner") : null,
        s.team !== null && s.team !== undefined ? h("span", { class: "badge" }, `team ${s.team + 1}`) : null,
        s.seat === this.mySeat ? h("span", { class: "badge you" }, "you") : null);
      const where = this.compass(s.seat);
      // (a kept place is nobody else's to choose: the server refuses it, so no button)
      if (s.kind === "empty" && !kept && this.isPlayer) li.append(seatButton(s, "sit", `Sit at ${where}`, { type: "seat", seat: s.seat }));
      if (amOwner && s.kind === "empty" && !kept) li.append(seatButton(s, "add", `Add a CPU at ${where}`, { type: "add_cpu", seat: s.seat }));
      // the owner may free a kept place (its player is not coming): anyone may take it then
      if (amOwner && kept) li.append(seatButton(s, "free", `Free ${where}, kept for ${kept}`, { type: "remove", seat: s.seat }));
      if (amOwner && s.kind === "cpu") li.append(seatButton(s, "remove", `Remove the CPU at ${where}`, { type: "remove", seat: s.seat }));
      if (amOwner && s.kind === "human" && s.seat !== this.mySeat) li.append(seatButton(s, "owner", `Make ${s.name} owner`, { type: "give_owner", seat: s.seat }));
      if (amOwner && s.kind === "human" && s.seat !== this.mySeat) li.append(seatButton(s, "kick", `Remove ${s.name}`, { type: "remove", seat: s.seat }));
      // "Team up" in any team game, with someone not already planned as a partner
      // (places across are partners without it)
      const mine = (t.partners || []).find((team) => team.includes(this.mySeat));
      if (t.rules && t.rules.teams && s.kind === "human" && s.seat !== this.mySeat && this.isPlayer && !(mine && mine.includes(s.seat))) {
        li.append(seatButton(s, "team", `Team up with ${s.name}`, { type: "teammate", seat: s.seat }));
      }
      list.append(li);
    });
    if (keep) {
      // the same button, else its undoing (Add a CPU ↔ Remove the CPU; Free: Add a CPU), else the seat's
      // first, else the seat's row (where "Sit at" put you), else the list's first; the
      // page's heading only when the list has none
      const row = list.querySelector(`li[data-seat="${keep.seat}"]`);
      const undo = { add: "remove", remove: "add", kick: "add", free: "add" }[keep.act];
      const target = (!keep.act && row)
        || list.querySelector(`button[data-act="${keep.act}"][data-seat="${keep.seat}"]`)
        || (undo && list.querySelector(`button[data-act="${undo}"][data-seat="${keep.seat}"]`))
        || (row && (row.querySelector("button") || row)) || list.querySelector("button") || this.el.querySelector("h1");
      if (target) target.focus();
    }
    this.renderRemoved(amOwner);
    const title = this.el.querySelector("#waiting-title");
    if (title) title.textContent = t.name || "A table"; // the owner's words: text only
    const infoBox = this.el.querySelector("#waiting-info");
    // the invite link's field or Copy button with the focus: redrawn, it keeps it
    const infoHeld = infoBox.contains(document.activeElement) ? document.activeElement.id || null : null;
    const info = clear(infoBox);
    const o = t.options;
    const cpu = o.cpu ? `${o.cpu[0].toUpperCase()}${o.cpu.slice(1)} CPU players` : null;
    const chosen = [this.rulesText(), `${t.seats.length} players`,
      o.one_hand ? "one-hand match" : o.target ? `to ${o.target} points` : null,
      o.turn_timer ? `${o.turn_timer}-second turn timer` : null, cpu, o.private ? "private" : "public"];
    info.append(
      ...(t.spectating ? [h("p", { id: "watchers" }, this.watchersText())] : []),
      h("p", { id: "waiting-rules" }, `Rules: ${chosen.filter(Boolean).join(", ")}.`),
      ...(this.rules && this.rules.deck_words ? [h("p", { id: "waiting-deck" }, this.rules.deck_words)] : []),
      ...(t.partners && t.partners.length ? [h("p", { id: "partners" }, this.partnersText())] : []),
      // the link as an address to copy, named for what it is (a link named by its address
      // was spelled out by a screen reader, character by character)
      ...(t.invite ? [h("p", {}, "Invite code: ", h("strong", { class: "invite" }, t.invite)),
        h("p", { class: "invite-row" },
          h("label", { for: "invite-link" }, "Invite link (copy it for a friend):"), " ",
          h("input", { type: "text", id: "invite-link", class: "invite-link", readonly: true,
            value: this.inviteAddress(t.invite), onfocus: (e) => e.target.select() }), " ",
          h("button", { type: "button", id: "invite-copy", onclick: () => this.copyInvite(t.invite) },
            "Copy the invite link"))] : []));
    if (infoHeld) { const back = info.querySelector(`#${infoHeld}`); if (back) back.focus({ preventScroll: true }); }
    const optionsForm = this.el.querySelector("#table-options");
    if (optionsForm) {
      optionsForm.hidden = !amOwner;
      this.fillOptionsForm(optionsForm, o);
    }
    const box = this.el.querySelector("#owner-actions");
    // the button there with the focus (Sit down at the table, say): redrawn, it keeps it
    const held = box.contains(document.activeElement) ? document.activeElement.id || null : null;
    const actions = clear(box);
    if (amOwner) {
      actions.append(h("button", { type: "button", class: "primary", onclick: () => this.request({ type: "start" }) }, "Start the match"));
      actions.append(h("span", { class: "note" }, "Empty seats are filled with CPU players."));
    } else {
      actions.append(h("p", {}, "The owner starts the match."));
    }
    // watching (from the lobby, an invitation, a rematch, or let back in after a removal):
    // the way to sit down at a free place, else why not
    const why = this.sitDownWhy();
    if (why === null) {
      actions.append(h("button", { type: "button", class: "primary", id: "sit-again", onclick: () => this.sitAgain() }, "Sit down at the table"));
    } else if (why) {
      actions.append(h("p", { id: "sit-why" }, why));
    }
    actions.append(h("button", { type: "button", onclick: () => this.leave() }, this.isPlayer ? "Leave the table" : "Stop watching"));
    actions.append(h("button", { type: "button", id: "waiting-keys-btn", onclick: () => this.app.openHelp() }, "Keys"));
    if (held) {
      // (Sit down at the table gone, no place being free: its reason, next to Stop watching)
      const back = actions.querySelector(`#${held}`) || actions.querySelector("#sit-why") || this.el.querySelector("#seats-title");
      if (back && back.id === "sit-why") back.tabIndex = -1;
      if (back) back.focus();
    }
    this.renderChat();
  }

  /** The owner's list of the people they removed (`table.removed`, the owner's copy only),
   * each with "Let Bob back in". After one is let back the focus goes to the next one's
   * button (else the one before), else to the Seats heading: not lost on the page's body. */
  renderRemoved(amOwner) {
    const box = this.el.querySelector("#removed-box");
    const list = box && box.querySelector("#removed-list");
    if (!list) return;
    const people = amOwner ? this.msg.table.removed || [] : [];
    const had = list.contains(document.activeElement) ? document.activeElement.dataset.user : null;
    const order = [...list.querySelectorAll("button[data-user]")].map((b) => b.dataset.user);
    clear(list);
    box.hidden = !people.length;
    for (const r of people) {
      list.append(h("li", { class: "seat-row", "data-user": String(r.user_id) },
        h("span", { class: "removed-who" }, r.name),
        guestMark(r),
        h("button", { type: "button", class: "small", "data-act": "readmit", "data-user": String(r.user_id),
          onclick: () => this.request({ type: "readmit", user_id: r.user_id }) }, `Let ${r.name} back in`)));
    }
    if (had === null) return;
    const at = (id) => list.querySelector(`button[data-user="${id}"]`);
    const i = order.indexOf(had);
    const target = at(had) || order.slice(i + 1).map(at).find(Boolean)
      || order.slice(0, Math.max(i, 0)).reverse().map(at).find(Boolean)
      || this.el.querySelector("#seats-title");
    if (target) target.focus();
  }

  /** Watching a table not started yet: why you may not sit down at it now, in words, or
   * null when you may ("Sit down at the table": a place is free, and the page holds a
   * private table's invite code); "" where there is nothing to say (a player, a match
   * under way). */
  sitDownWhy() {
    const t = this.msg && this.msg.table;
    if (!t || this.isPlayer || this.status !== "waiting") return "";
    if (this.cannotSit) return this.cannotSit;
    if (this.rejoinWatching && !this.letBack) return "The owner removed you from your seat: you may watch, and sit down again once they let you back in.";
    const free = t.seats.filter((s) => s.kind === "empty");
    if (!free.length) return "No place is free: you may sit down when one is.";
    // a player of the match before watching its rematch sits down without the code (the
    // server says so: `you.invited`); only its own kept place (`you.kept`) is theirs
    const you = this.msg.you || {};
    if (t.options && t.options.private && !this.invite && !you.invited) return "This table is private: to sit down, open it with its invite code (ask its owner for it).";
    // a rematch's places kept for the players of the match before stay theirs
    if (!free.some((s) => !s.kept_for || s.seat === you.kept)) {
      const names = free.map((s) => s.kept_for);
      return free.length === 1
        ? `The free place is kept for ${names[0]}, who played the match before, until they are back or the match starts: you may sit down when a place is free for you.`
        : `The free places are kept for the players of the match before (${listJoin(names)}) until they are back or the match starts: you may sit down when a place is free for you.`;
    }
    return null;
  }

  /** The waiting room's J for a watcher: to the Sit down at the table button, else why
   * there is none. */
  jumpToSit() {
    const btn = this.el && this.el.querySelector("#sit-again");
    if (btn) { btn.focus(); return; }
    this.say(this.sitDownWhy() || "The match has not started yet.");
  }

  /** Sit down at the table while watching it before the start (come to watch, or let back
   * in by the owner after a removal): the usual join as a player, with a private table's
   * code the page kept; the page is then a player's. */
  async sitAgain() {
    try {
      await this.app.conn.request({ type: "join", table_id: this.id, role: "player", ...(this.invite ? { invite: this.invite } : {}) });
    } catch (err) {
      this.refuse(err.message || `you were not seated, and ${NO_REASON}. You are still watching. ${this.refetchWords(await this.refetch())}`);
      // refused for good (removed from the table, private without its code): the button
      // gives way to the server's reason; a full table or a started match show themselves
      if (err.code === "not_allowed" && !this.isPlayer) {
        this.cannotSit = `You cannot sit down: ${reasonEnd(err.message || NO_REASON)}`;
        this.render();
      }
      return;
    }
    this.letBack = false;
    this.rejoinWatching = false;
    this.watching = false;
    if (location.hash === `#/watch/${this.id}`) history.replaceState(null, "", `#/table/${this.id}`);
    // the snapshot that follows the ack says where you sit, and the focus goes there
    this.satAgain = true;
  }

  /** Sat down again (sitAgain): where you sit, said, and the focus on your place. */
  afterSitting() {
    this.satAgain = false;
    if (!this.isPlayer) return;
    this.say(this.summary());
    const row = this.el && this.el.querySelector(`#seat-list li[data-seat="${this.mySeat}"]`);
    if (row) row.focus();
  }

  /** Before the match (the waiting room): W says it has not started and who starts it. */
  waitingText() {
    if (this.status !== "waiting") return "The match has not started.";
    const owner = this.msg.table.seats.find((s) => s.owner);
    const who = this.amOwner() ? "you start it (Start the match); empty seats get CPU players"
      : owner ? `${owner.name} starts it` : "the owner starts it";
    return `The match has not started: ${who}.`;
  }

  /** The waiting room's R: who sits where (the round status of a match not yet begun). */
  seatsText() {
    const t = this.msg.table;
    const rows = t.seats.map((s) => {
      if (s.kind === "empty") return `${this.compass(s.seat)}: ${s.kept_for ? `kept for ${s.kept_for}` : "empty"}`;
      const notes = [s.seat === this.mySeat ? "you" : null, s.kind === "cpu" ? `CPU${s.cpu ? `, ${s.cpu}` : ""}` : null,
        s.guest ? "guest" : null, s.owner ? "owner" : null,
        s.team !== null && s.team !== undefined ? `team ${s.team + 1}` : null].filter(Boolean);
      return `${this.compass(s.seat)}: ${s.name}${notes.length ? ` (${notes.join(", ")})` : ""}`;
    });
    const watching = t.spectating ? ` ${this.watchersText()}` : "";
    const partners = this.partnersText();
    const gone = this.amOwner() && t.removed && t.removed.length ? ` Removed by you: ${listJoin(t.removed.map((r) => r.name))}.` : "";
    return `Seats: ${rows.join("; ")}.${partners ? ` ${partners}` : ""}${watching}${gone}`;
  }

  /** The match is over: no longer one of "Your tables" on the home page. */
  forget() {
    if (store.lastTable() === this.id) store.setLastTable(null);
    store.setSent(this.id, null);
    this.app.myTables = this.app.myTables.filter((id) => id !== this.id);
  }

  amOwner() {
    const t = this.msg.table;
    const me = t.seats.find((s) => s.seat === this.mySeat);
    return !!(me && me.owner) || (this.app.user && t.owner === this.app.user.id);
  }

  /** The owner's Add a CPU at a place. Pressed on a view the server had moved past (its
   * player of the match before, back at the rematch, left again: the place is kept for them
   * once more), the refusal is said in the page's words, by where the place is and with the
   * button that frees it, not the server's place number and message name. */
  async addCpu(seat) {
    try { await this.app.conn.request({ type: "add_cpu", seat }); } catch (err) {
      const s = this.msg && this.msg.table.seats[seat];
      const kept = s && s.kind === "empty" ? s.kept_for : null;
      const where = this.compass(seat);
      if (!kept) { this.refuse(err.message || `no CPU was added at ${where}, and ${NO_REASON}. ${this.refetchWords(await this.refetch())}`); return; }
      this.refuse(`${where} is kept for ${kept}, who played the match before, until they are back or the match starts. To give it to a CPU all the same, free it first (its button Free ${where}, kept for ${kept}), then add the CPU.`);
    }
  }

  async request(msg) {
    try { await this.app.conn.request(msg); } catch (err) {
      if (err.message) { this.refuse(err.message); return; }
      // (the page's table may be out of date: fetched again; a chat line is not about it)
      const how = msg.type === "chat" ? null : await this.refetch();
      this.refuse(`${this.notDone(msg)}, and ${NO_REASON}.${how ? ` ${this.refetchWords(how)}` : ""}`);
    }
  }

  /** What a request of the waiting room or the chat (`request`) did not do, refused, in
   * words: for a refusal without a reason of the server's. */
  notDone(msg) {
    const s = msg.seat !== undefined && this.msg ? this.msg.table.seats[msg.seat] : null;
    const where = msg.seat !== undefined ? this.compass(msg.seat) : "";
    switch (msg.type) {
      case "start": return "the match did not start";
      case "seat": return `you did not move to ${where}`;
      case "remove": return s && s.kind === "human" ? `${s.name} was not removed` : `${where} did not change`;
      case "give_owner": return `${s ? s.name : "they"} did not become the owner`;
      case "teammate": return `you did not team up${s ? ` with ${s.name}` : ""}`;
      case "readmit": {
        const r = this.msg && (this.msg.table.removed || []).find((x) => x.user_id === msg.user_id);
        return `${r ? r.name : "they"} ${r ? "was" : "were"} not let back in`;
      }
      case "chat": return "your message was not sent";
      default: return "that was not done";
    }
  }

  leave() {
    if (!this.isPlayer) { location.hash = "#/lobby"; return; } // (depart() says leave)
    this.app.conn.send({ type: "leave", table_id: this.id });
    store.setLastTable(null);
    location.hash = "#/";
  }

  /** The page goes elsewhere (a link, the Leave button): during a match you leave the table
   * (`leave`), so that a CPU plays for you until you join again, and the match does not wait
   * for you; after it you leave it too (the others hear so, and an owner's table passes on:
   * before, the open socket kept you there). Before the start your place is kept (its own
   * button frees it). */
  depart() {
    clearTimeout(this.spectatorTimer);
    if (!this.msg || this.offTable || (this.isPlayer && this.status !== "active" && this.status !== "finished")) return;
    // the server has put you at another table already (a rematch you made, whose waiting room
    // opens now): nothing to leave (the server, told which table, would ignore it too)
    const next = this.app.pendingTable;
    if (next && next.table.id !== this.id) return;
    this.app.conn.send({ type: "leave", table_id: this.id });
    const name = this.msg.table.name || "the table";
    // for its rematch, which has the same name: not "You left Club evening." then "You sit …
    // at Club evening."
    if (this.toRematch && this.status === "finished") {
      this.say(this.isPlayer ? "You left the finished match for its rematch." : "You stopped watching the finished match, for its rematch.");
      return;
    }
    this.say(!this.isPlayer ? `You stopped watching ${name}.` : this.status === "active"
      ? `You left ${name}: a CPU plays for you until you return (Your tables, on the home page).`
      : `You left ${name}.`);
  }

  // ---------- game
  buildGame() {
    const n = this.players;
    const felt = h("div", { class: `felt players-${n}`, role: "region", "aria-label": "Card table" });
    if (this.feltObserver) this.feltObserver.observe(felt);
    for (let s = 0; s < n; s++) felt.append(h("div", { class: "seat", "data-seat": s }));
    felt.append(h("div", { class: "center" },
      h("div", { class: "trick", "aria-hidden": "true" }),
      h("h2", { class: "sr-only", id: "trick-list-title" }, "The trick"),
      h("ul", { class: "sr-only trick-list", id: "trick-list", "aria-labelledby": "trick-list-title" }),
      h("p", { class: "trick-info" })));
    this.el.append(
      h("h1", { class: "sr-only", tabindex: "-1", id: "table-title" }, "Spades table"),
      h("div", { class: "game-grid" },
        h("div", { class: "play-area" },
          felt,
          h("section", { class: "my-area", "aria-label": "Your hand and actions" },
            h("p", { class: "status-line", id: "status-line" }),
            h("div", { class: "bid-panel", id: "bid-panel", hidden: true }),
            h("div", {
              class: "hand", role: "listbox", tabindex: "0", id: "hand",
              "aria-orientation": "horizontal", "aria-label": "Your hand",
              "aria-describedby": "hand-help",
            }),
            h("p", { id: "hand-help", class: "sr-only" }, "Arrow keys move between cards, Home and End, H S D C jump to a suit, Enter plays the card."),
            h("div", { class: "button-row action-row" },
              h("button", { type: "button", class: "primary", id: "play-btn", onclick: () => this.play(this.selected) }, "Play selected card"),
              h("button", { type: "button", id: "hint-btn", onclick: () => this.hint() }, "Hint"),
              h("button", { type: "button", id: "sheet-btn", onclick: () => this.openSheet() }, "Score sheet"),
              h("button", { type: "button", id: "help-btn", onclick: () => this.app.openHelp() }, "Keys")))),
        h("aside", { class: "side-area", "aria-label": "Scores, events and chat" },
          h("div", { class: "panel leave-box" },
            h("button", { type: "button", id: "leave-btn", "aria-describedby": "leave-note", onclick: () => { location.hash = this.isPlayer ? "#/" : "#/lobby"; } }),
            h("p", { class: "note", id: "leave-note" }),
            h("p", { class: "note", id: "watchers" })),
          h("section", { class: "panel scores", "aria-labelledby": "scores-title" },
            h("h2", { id: "scores-title" }, "Scores"),
            h("div", { id: "score-box" })),
          h("section", { class: "panel ask", "aria-labelledby": "ask-title" },
            h("h2", { id: "ask-title" }, "Ask the table"),
            h("p", { class: "note", id: "ask-note" }, "The shortcut keys as buttons. On a touch screen, two fingers (three on an iPhone): tap for whose turn, swipe up for the trick, down for the round, left for the scores, right to repeat."),
            h("div", { class: "button-row ask-buttons", "aria-describedby": "ask-note" },
              ASK_BUTTONS.map(([k, label]) => h("button", { type: "button", class: "small", "data-shortcut": k, onclick: () => this.app.shortcut(k) }, label)))),
          h("section", { class: "panel events", "aria-labelledby": "events-title" },
            h("h2", { id: "events-title" }, "Table talk"),
            h("ol", { class: "event-log", id: "event-log", "aria-live": "off", tabindex: "0", "aria-labelledby": "events-title" })),
          this.buildChat())),
      h("dialog", { class: "match-over", id: "match-over", hidden: true, "aria-labelledby": "over-title" }),
      sheetDialog(),
      this.buildBlindNilDialog(),
      this.buildBidDialog(),
    );
    const over = this.el.querySelector("#match-over");
    over.addEventListener("close", () => this.onOverClosed());
    over.addEventListener("keydown", (e) => trapTab(e, over));
    listenGestures(this.el.querySelector(".play-area"), (k) => this.app.shortcut(k));
    const hand = this.el.querySelector("#hand");
    hand.addEventListener("keydown", (e) => this.onHandKey(e));
    hand.addEventListener("focus", () => {
      if (!this.selected && this.handCards().length) this.select(this.defaultCard(), true);
    });
    hand.addEventListener("click", (e) => {
      const opt = e.target.closest("[role=option]");
      if (!opt) return;
      const card = opt.dataset.card;
      if (card === "BID" || card === "NIL") {
        this.activeSpecial = card;
        this.renderHand();
        this.useSpecial(card);
        return;
      }
      this.activeSpecial = null;
      hand.focus({ preventScroll: true });
      // the second tap on a card plays it; a card the page selected (not you) takes two taps
      if (this.selected === card && !this.autoSelected && this.myTurn() && this.view.phase === "play") this.play(card);
      else this.select(card);
    });
    // the recent announcements at this table are shown too, for everyone
    const log = this.el.querySelector("#event-log");
    for (const text of this.app.announcer.saidAt(this.id, 30)) this.logLine(log, text);
    this.unlisten = this.app.onQueued((text) => { if (this.el) this.logLine(this.el.querySelector("#event-log"), text); });
  }

  logLine(log, text) {
    if (!log) return;
    log.append(h("li", {}, text));
    while (log.children.length > 40) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  buildChat() {
    const form = h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const input = form.querySelector("input");
      const text = input.value.trim();
      if (!text) return;
      this.request({ type: "chat", text });
      input.value = "";
    } },
    h("label", { for: "chat-input", class: "sr-only" }, "Chat message"),
    h("input", { id: "chat-input", type: "text", maxlength: "300", autocomplete: "off", placeholder: "Say something…" }),
    h("button", { type: "submit" }, "Send"));
    // Escape in the message box: back to your hand (J's place; the shortcut keys do nothing
    // while typing, and the hand was a dozen Shift+Tabs away), else the table's or the seats'
    // heading (a spectator, the waiting room); the text typed stays
    form.querySelector("input").addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
      if (this.view && this.isPlayer && this.el.querySelector("#hand")) { this.jumpToHand(); return; }
      const to = this.el.querySelector(this.view ? "#table-title" : "#seats-title");
      if (to) to.focus();
    });
    return h("section", { class: "panel chat", "aria-labelledby": "chat-title" },
      h("h2", { id: "chat-title" }, "Chat"),
      h("ol", { class: "chat-log", id: "chat-log", "aria-live": "off", tabindex: "0", "aria-labelledby": "chat-title" }),
      form);
  }

  renderChat() {
    const log = this.el && this.el.querySelector("#chat-log");
    if (!log) return;
    clear(log);
    for (const line of this.chat.slice(-50)) {
      log.append(h("li", {}, h("strong", {}, line.name), guestMark(line), ": ", line.text));
    }
    log.scrollTop = log.scrollHeight;
  }

  renderGame() {
    // the page's heading, read by screen readers: the table's name (the owner's words: text
    // only), as the waiting room's is; it was "Spades table" at every table
    const title = this.el.querySelector("#table-title");
    if (title) title.textContent = (this.msg.table && this.msg.table.name) || "Spades table";
    this.renderLeave();
    this.renderSeats();
    this.renderTrick();
    this.renderStatus();
    this.renderBidPanel();
    this.renderBlockedBid();
    this.renderHand();
    this.renderScores();
    this.renderChat();
    this.renderSummary();
    this.renderOver();
    this.renderRematch();
  }

  /** The owner started a rematch (a `rematch` event): "Olga started a rematch" with Join
   * the rematch, which opens the new table to sit down at it (its players need no invite
   * code). In the end-of-match box while it is open (the page behind it is inert), else at
   * the top of the table. The focus is not moved: the news was said in the live region. */
  renderRematch() {
    if (!this.el || !this.rematch) return;
    const over = this.el.querySelector("#match-over");
    const card = over && over.open && over.querySelector(".over-card");
    const where = card || this.el;
    let box = this.el.querySelector("#rematch-box");
    if (box && box.parentNode === where) return;
    const had = box && box.contains(document.activeElement);
    if (box) box.remove();
    const { id, text } = this.rematch;
    const watcher = !this.isPlayer;
    // a spectator of a private table came with its code (kept by the page): the rematch
    // takes it (the new code is sent to nobody); without it, the owner has the new one
    const locked = watcher && this.msg.table.options && this.msg.table.options.private && !this.invite;
    const follow = (watch) => {
      if (this.invite) store.setInvite(id, this.invite);
      this.toRematch = true; // (depart() says what is left: the match that is over)
      location.hash = `#/${watch ? "watch" : "table"}/${id}`;
    };
    box = h("section", { class: "panel rematch-box", id: "rematch-box", "aria-labelledby": "rematch-title" },
      h("h2", { id: "rematch-title" }, "Rematch"),
      h("p", {}, sentence(text || "The owner started a rematch", this.playerNames())),
      ...(locked ? [h("p", {}, "The new table is private: ask its owner for the invite code.")]
        : watcher ? [h("p", {}, "Join the rematch to sit at a free place at the new table, or watch it."),
          h("div", { class: "button-row" },
            h("button", { type: "button", class: "primary", id: "rematch-join", onclick: () => follow(false) }, "Join the rematch"),
            h("button", { type: "button", id: "rematch-watch", onclick: () => follow(true) }, "Watch the rematch"))]
          : [h("button", { type: "button", class: "primary", id: "rematch-join", onclick: () => follow(false) }, "Join the rematch")]));
    if (card) card.insertBefore(box, card.querySelector(".button-row")); else this.el.prepend(box);
    if (had) box.querySelector("button")?.focus();
  }

  /** The Leave button: what leaving does now. */
  renderLeave() {
    const btn = this.el.querySelector("#leave-btn");
    // (the last hand's summary up: the match is over, its end waits behind the summary)
    const over = this.status === "finished" || (this.view && this.view.phase === "over");
    const playing = this.isPlayer && this.status === "active" && !over;
    const text = this.isPlayer ? "Leave the table" : "Stop watching";
    if (btn.textContent !== text) btn.textContent = text;
    this.el.querySelector("#leave-note").textContent = playing
      ? "A CPU plays for you until you come back (Your tables, on the home page)." : "";
    // a spectator has no hand to play or to be advised on, nor anyone after the match (its
    // last hand's summary up included: Hint was there, to say "No hint now: The match is over.")
    for (const id of ["#play-btn", "#hint-btn"]) this.el.querySelector(id).hidden = !this.isPlayer || over;
    this.renderWatchers();
  }

  /** Where seat `s` sits: me at the bottom, the others clockwise (to my left first). */
  seatAngle(s) {
    const n = this.players;
    const me = this.mySeat ?? 0;
    const k = (s - me + n) % n;
    // six seats: the two beside you a little higher, clear of your seat on a short felt
    if (n === 6) return ([0, 64, 110, 180, 250, 296][k] * Math.PI) / 180;
    return (k * 2 * Math.PI) / n;
  }

  seatPos(s, rx = 42, ry = 40) {
    const a = this.seatAngle(s);
    return { x: 50 - Math.sin(a) * rx, y: 50 + Math.cos(a) * ry };
  }

  renderSeats() {
    const v = this.view;
    const t = this.msg.table;
    for (const el of this.el.querySelectorAll(".felt .seat")) {
      const s = Number(el.dataset.seat);
      const info = t.seats[s] || { kind: "empty", name: "" };
      const pos = this.seatPos(s);
      // on an ellipse inside the felt, so that a whole seat is always on the felt
      const a = this.seatAngle(s);
      el.style.left = `calc(50% - ${(Math.sin(a)).toFixed(4)} * (50% - var(--seat-hw)))`;
      el.style.top = `calc(50% + ${(Math.cos(a)).toFixed(4)} * (50% - var(--seat-hh)))`;
      const k = (s - (this.mySeat ?? 0) + this.players) % this.players;
      el.dataset.place = k === 0 ? "me" : pos.y < 35 ? "top" : pos.x < 50 ? "left" : "right";
      // offline (or the seat in another tab) the turn known is an old one: no marker until
      // the table's state comes again
      const turn = v.current_player === s && v.phase !== "over" && !this.blocked;
      el.classList.toggle("turn", turn);
      el.classList.toggle("dealer", v.dealer === s);
      el.classList.toggle("mine", s === this.mySeat && this.isPlayer);
      const bid = this.bidText(v.bids[s]);
      const side = this.sideOf(s);
      const partner = this.teamGame && side === this.mySide && s !== this.mySeat;
      const name = this.seatName(s, { you: false });
      const label = [
        `${name}${s === this.mySeat && this.isPlayer ? " (you)" : ""}${name === this.compass(s) ? "" : `, ${this.compass(s)}`}`,
        partner ? "your partner" : null,
        info.kind === "human" && info.guest ? "guest" : null,
        info.kind === "cpu" ? "CPU player" : info.covered ? (s === this.mySeat && this.isPlayer ? "a CPU plays for you" : "away, a CPU plays for them") : info.connected === false && info.kind === "human" ? "disconnected" : null,
        v.dealer === s ? "dealer" : null,
        bid === null ? "no bid yet" : `bid ${bid}`,
        `${plural(v.tricks[s], "trick")} taken`,
        `${plural(v.hand_sizes[s], "card")} left`,
        turn ? (s === this.mySeat && this.isPlayer ? "your turn" : "their turn") : null,
      ].filter(Boolean).join(", ");
      clear(el);
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", label);
      const left = turn ? this.timeLeft() : null;
      el.append(
        h("div", { class: "seat-name" },
          h("span", { class: `avatar${info.kind === "cpu" ? " cpu" : ""}`, "aria-hidden": "true", style: `--hue: ${AVATAR_HUES[(s - (this.mySeat ?? 0) + this.players) % this.players]}` },
            this.avatarText(name)),
          // the whole name on hover where the seat shortens it (the seat's label has it too)
          h("span", { class: "who", title: name }, name),
          v.dealer === s ? h("span", { class: "dealer-chip", title: "Dealer", "aria-hidden": "true" }, "D") : null),
        h("div", { class: "seat-meta", "aria-hidden": "true" },
          h("span", { class: "bidtricks", title: "bid / tricks taken" }, `${bid === null ? "–" : bid === "Blind Nil" ? "BN" : bid}/${v.tricks[s]}`),
          partner ? h("span", { class: "tag" }, "partner") : null,
          info.kind === "human" && info.guest ? h("span", { class: "tag guest-tag" }, "guest") : null,
          info.kind === "cpu" ? h("span", { class: "tag cpu-tag" }, "CPU") : null,
          info.covered && this.status === "active" ? h("span", { class: "tag warn" }, "away")
            // (the label said "disconnected"; the seat showed nothing of it)
            : info.connected === false && info.kind === "human" && this.status === "active" ? h("span", { class: "tag warn offline-tag", title: "disconnected" }, "offline") : null,
          turn ? h("span", { class: `tag turn-tag${left !== null ? " time" : ""}` }, left !== null ? `${left} s` : "turn") : null),
      );
      if (s !== this.mySeat || !this.isPlayer) {
        const backs = h("div", { class: "backs", "aria-hidden": "true" });
        const count = Math.min(v.hand_sizes[s], 8);
        for (let i = 0; i < count; i++) backs.append(cardBack());
        el.append(backs);
      }
    }
    this.fitSeats();
  }

  /** Long names on a small felt: every seat wholly on the felt, none over another seat or over
   * a card of the trick (wherever the trick's cards will land, for every seat), moved as little
   * as that takes from its place on the ellipse; the names on one line (shortened, with an
   * ellipsis) if two lines leave no such room; the trick's cards as large as the seats leave
   * room for, down to the smallest they may be. */
  fitSeats() {
    const felt = this.el && this.el.querySelector(".felt");
    if (!felt || !felt.isConnected || !felt.clientWidth || !this.view) return;
    const area = felt.closest(".play-area");
    const seats = [...felt.querySelectorAll(".seat")];
    const looks = ["tight", "wide", "all", "narrow"];
    felt.classList.remove(...looks);
    felt.style.removeProperty("--trick-cap");
    felt.style.removeProperty("min-height");
    if (area) area.classList.remove("grown");
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const least = 1.9 * rem;  // the smallest trick card (as in the CSS)
    this.fitSummary(felt, area);
    const base = felt.offsetHeight;
    const place = (look) => {
      felt.classList.remove(...looks);
      felt.classList.add(...look);
      for (const el of seats) { el.style.removeProperty("--dx"); el.style.removeProperty("--dy"); }
      return this.placeSeats(felt, seats, least);
    };
    // as they are; else the others' names on one line, their seats as wide as half the felt;
    // else on one line at the seats' usual widths; else yours on one line too (the others' as
    // wide, then at their usual widths); else every seat narrower (the dealer's too); else (a phone's felt over the bid panel) the felt taller,
    // 1.5 rem at a time, the page scrolling down to the hand
    let placed = place([]);
    for (const look of [["tight", "wide"], ["tight"], ["tight", "wide", "all"], ["tight", "all"], ["tight", "all", "narrow"]]) {
      if (placed.ok) break;
      placed = place(look);
    }
    for (let grow = 1; !placed.ok && area && grow <= 8; grow++) {
      area.classList.add("grown");
      felt.style.minHeight = `${base + grow * 1.5 * rem}px`;
      placed = place(["tight", "wide"]);
      if (!placed.ok) placed = place(["tight", "all", "narrow"]);
    }
    this.seatsFit = placed.ok;  // read by the tests
    // the largest trick card (at most what the felt's size gives) clear of every seat
    const probe = h("div", { class: "played card", style: "visibility: hidden; left: 0; top: 0" });
    felt.querySelector(".trick").append(probe);
    const full = probe.offsetWidth;
    probe.remove();
    let w = full;
    while (w > least && this.trickRects(felt, w).some((c) => placed.boxes.some((b) => overlaps(b, c)))) w -= 1;
    if (w < full) felt.style.setProperty("--trick-cap", `${Math.max(w, least)}px`);
  }

  /** The hand's summary whole on the felt, never scrolling inside: where it is taller than
   * the felt leaves it (a phone, 360x640: a four-player hand's lines), the felt is made
   * that much taller (the page then scrolls, as for long names: fitSeats), rather than the
   * type smaller. Called by fitSeats, which first takes back what it grew before. */
  fitSummary(felt, area) {
    const box = felt.querySelector(".hand-summary");
    if (box && getComputedStyle(box).position === "fixed") return; // over the window (short and wide)
    for (let i = 0; box && area && i < 4; i++) {
      const over = box.scrollHeight - box.clientHeight;
      if (over <= 1) break;
      area.classList.add("grown");
      // (its max-height is a share of the felt's: the felt grows by more than it lacks)
      const share = box.clientHeight / Math.max(1, felt.clientHeight);
      felt.style.minHeight = `${Math.ceil(felt.offsetHeight + over / Math.min(1, Math.max(0.5, share)) + 2)}px`;
    }
  }

  /** Where the trick's cards of width ``w`` land on ``felt`` (every seat's, the winner a little
   * larger), in the felt's coordinates. */
  trickRects(felt, w) {
    const cx = felt.clientWidth / 2, cy = felt.clientHeight / 2;
    const cw = w * 1.08, ch = w * 1.4 * 1.08;  // 5:7 cards; the winner is scaled by 1.08
    return Array.from({ length: this.players }, (_, s) => {
      const p = this.trickSpot(s);
      const x = cx + p.x * w, y = cy + p.y * 1.4 * w;
      return { l: x - cw / 2, t: y - ch / 2, r: x + cw / 2, b: y + ch / 2 };
    });
  }

  /** Place the seats (all but yours, which stays at the bottom) each as near its place on the
   * ellipse as it can be wholly on the felt, clear of the seats placed before it (the top ones
   * first) and, in the play, of the trick (its cards ``least`` wide); ``ok`` when every seat found such a
   * place, ``boxes`` where they are (in the felt's coordinates). */
  placeSeats(felt, seats, least) {
    const f = felt.getBoundingClientRect();
    const ox = f.left + felt.clientLeft, oy = f.top + felt.clientTop;
    const W = felt.clientWidth, H = felt.clientHeight, gap = 3;
    const boxes = seats.map((el) => {
      const b = el.getBoundingClientRect();
      return { el, l: b.left - ox, t: b.top - oy, r: b.right - ox, b: b.bottom - oy, fixed: el.dataset.place === "me" };
    });
    // the trick's room kept while cards are played (the felt is taller then: no bid panel)
    const playing = this.view.phase === "play" || !!felt.querySelector(".trick .played");
    const cards = playing ? this.trickRects(felt, least) : [];
    const taken = boxes.filter((b) => b.fixed);
    const clear = (b, dx, dy) => {
      const g = { l: b.l + dx - gap, t: b.t + dy - gap, r: b.r + dx + gap, b: b.b + dy + gap };
      return g.l + gap >= -0.5 && g.t + gap >= -0.5 && g.r - gap <= W + 0.5 && g.b - gap <= H + 0.5
        && !cards.some((c) => overlaps(g, c)) && !taken.some((c) => overlaps(g, c));
    };
    // the moves to try, the shortest first (every 4 px, up to half the felt's larger side),
    // made when a seat is not clear where it is
    const reach = Math.ceil(Math.max(W, H) / 2 / 4);
    const moves = () => {
      if (!this.seatMoves || this.seatMoves.reach !== reach) {
        const list = [];
        for (let i = -reach; i <= reach; i++) for (let j = -reach; j <= reach; j++) list.push([i * 4, j * 4]);
        list.sort((p, q) => (p[0] ** 2 + p[1] ** 2) - (q[0] ** 2 + q[1] ** 2));
        this.seatMoves = { reach, list };
      }
      return this.seatMoves.list;
    };
    let ok = true;
    for (const b of boxes.filter((x) => !x.fixed).sort((x, y) => x.t - y.t)) {
      let [dx, dy] = clear(b, 0, 0) ? [0, 0] : moves().find(([x, y]) => clear(b, x, y)) || [null, null];
      if (dx === null) {
        // nowhere clear: on the felt at least, as near its place as that is
        ok = false;
        dx = Math.max(gap - b.l, Math.min(0, W - gap - b.r));
        dy = Math.max(gap - b.t, Math.min(0, H - gap - b.b));
      }
      b.l += dx; b.r += dx; b.t += dy; b.b += dy;
      if (dx) b.el.style.setProperty("--dx", `${dx}px`);
      if (dy) b.el.style.setProperty("--dy", `${dy}px`);
      taken.push(b);
    }
    return { ok, boxes };
  }

  /** Two letters for a place ("NW" for North-west), else the name's initial. */
  avatarText(name) {
    const n = name || "?";
    const m = /^(North|South)-(east|west)$/.exec(n);
    if (m) return `${m[1][0]}${m[2][0].toUpperCase()}`;
    return n.slice(0, 1).toUpperCase();
  }

  /** Where seat ``s``'s card lands on the trick: towards its player, clear of the seats
   * and of the other cards (5 and 6 seats need a rounder spread; 6 on a phone, a wider one). */
  trickSpot(s) {
    // in card sizes from the centre: neighbours never cover more than a corner of each other
    const r = { 3: 0.9, 4: 0.98, 5: 0.9, 6: 0.92 }[this.players] || 0.95;
    const n = this.players;
    const a = ((((s - (this.mySeat ?? 0)) % n) + n) % n) * 2 * Math.PI / n; // evenly round
    return { x: -Math.sin(a) * r, y: Math.cos(a) * r };
  }

  renderTrick() {
    const v = this.view;
    const box = this.el.querySelector(".trick");
    const info = this.el.querySelector(".trick-info");
    const showing = v.trick.length ? v.trick : (this.lastTrick ? this.lastTrick.cards : []);
    const done = !v.trick.length && this.lastTrick;
    const have = new Map([...box.children].map((c) => [c.dataset.key, c]));
    const keep = new Set();
    for (const [s, c] of showing) {
      const key = `${v.hand_number}-${s}-${c}`;
      keep.add(key);
      let el = have.get(key);
      if (!el) {
        el = h("div", { class: "played card", "data-key": key, "data-seat": s }, cardFace(c));
        const p = this.trickSpot(s);
        el.style.left = `calc(50% + ${p.x.toFixed(4)} * var(--card-w))`;
        el.style.top = `calc(50% + ${p.y.toFixed(4)} * 1.4 * var(--card-w))`;
        el.style.setProperty("--from-x", `${(p.x * 250).toFixed(0)}%`);
        el.style.setProperty("--from-y", `${(p.y * 250).toFixed(0)}%`);
        if (this.app.motion()) el.classList.add("enter");
        box.append(el);
      }
      el.classList.toggle("winner", !!(done && this.lastTrick.winner === s));
    }
    for (const [key, el] of have) if (!keep.has(key)) el.remove();
    box.classList.toggle("done", !!done);
    this.renderTrickList(showing, done);
    clear(info);
    // (on a phone's felt the suit's symbol stands for "Spades": the words fit between the side seats)
    info.append(h("span", { class: `broken ${v.spades_broken ? "yes" : "no"}` }, svgUse("suit-S", "mini"), h("span", { class: "broken-word" }, " Spades"), v.spades_broken ? " broken" : [" not broken", h("span", { class: "broken-yet" }, " yet")]));
    if (done) info.append(h("span", { class: "won" }, `${this.seatName(this.lastTrick.winner)} ${this.verb(this.lastTrick.winner, "takes", "take")} the trick`));
  }

  /** The trick as a list a screen reader's browse mode can read: who played what, and who
   * is winning (or won); then the spade status in words. */
  renderTrickList(showing, done) {
    const list = this.el.querySelector("#trick-list");
    if (!list) return;
    const v = this.view;
    const items = [];
    if (!showing.length) items.push("No card played to this trick yet.");
    for (const [s, c] of showing) items.push(`${this.seatName(s)}: ${cardName(c)}`);
    if (showing.length) {
      const win = done ? this.lastTrick.winner : trickWinner(showing);
      items.push(done ? `${this.seatName(win)} ${this.verb(win, "took", "took")} the trick.`
        : `${this.seatName(win)} ${this.verb(win, "is", "are")} winning.`);
    }
    items.push(v.spades_broken ? "Spades broken." : "Spades not broken yet.");
    const text = items.join("|");
    if (list.dataset.text === text) return;
    list.dataset.text = text;
    clear(list);
    for (const t of items) list.append(h("li", {}, t));
  }

  animatePlay() { /* the card's CSS entry animation does it; kept for clarity */ }

  renderStatus() {
    const v = this.view;
    const line = this.el.querySelector("#status-line");
    let text;
    if (this.status === "finished" || v.phase === "over") text = "The match is over.";
    else if (this.myTurn()) {
      if (v.phase === "bid") text = "Your turn: choose your bid and confirm.";
      else if (!v.trick.length) text = "Your turn to lead.";
      else text = `Your turn: ${this.legalCards().some((c) => suitOf(c) === suitOf(v.trick[0][1])) ? `follow ${SUIT_NAMES[suitOf(v.trick[0][1])]}` : "play any card"}.`;
    } else text = this.whoseTurnText({ time: false });
    clear(line);
    const why = this.blocked;
    if (why) line.append(h("span", { class: "status-chip offline", id: "blocked-chip" }, this.blockedWords()), " ");
    // (offline, or the seat in another tab: whose turn it was is no longer news)
    line.append(why && v.phase !== "over" && this.status !== "finished" ? `Hand ${v.hand_number}` : `Hand ${v.hand_number} · ${text}`);
    const clock = this.clockTurn();
    if (!why && clock && clock.deadline && v.phase !== "over" && this.status !== "finished") {
      // the turn timer, visible all the time (WCAG 2.2.1), the next hand's behind the
      // hand's summary too; tick() keeps it current
      line.append(h("span", { class: "status-chip timer-chip", id: "timer-chip", role: "timer", "aria-live": "off" },
        h("span", { class: "timer-bar", "aria-hidden": "true" }), h("span", { class: "timer-text" })));
      this.tick({ drawn: true });
    }
    if (v.phase === "play") {
      line.append(h("span", { class: `status-chip ${v.spades_broken ? "yes" : "no"}` }, svgUse("suit-S", "mini"), v.spades_broken ? "spades broken" : "spades not broken yet"));
    }
    if (!v.trick.length && this.lastTrick) {
      line.append(h("span", { class: "status-chip" }, `${this.seatName(this.lastTrick.winner)} ${this.verb(this.lastTrick.winner, "took", "took")} the trick`));
    }
    line.classList.toggle("your-turn", this.myTurn() && !why);
    line.classList.toggle("blocked", !!why);
  }

  renderBidPanel() {
    const panel = this.el && this.el.querySelector("#bid-panel");
    if (!panel || !this.view) return;
    const v = this.view;
    const bidding = v.phase === "bid" && this.isPlayer && v.bids[this.mySeat] === null;
    this.closeStaleBidDialogs(bidding);
    panel.hidden = !bidding;
    if (!bidding) { clear(panel); return; }
    const mine = this.myTurn();
    const legal = mine ? this.legalBids() : [];
    const options = this.bidChoices();
    const key = `${v.hand_number}|${mine}|${options.join(",")}|${legal.join(",")}|${v.hand ? 1 : 0}`;
    // (a single choice, as under Mirror, is chosen already)
    const draft = this.bidDraft !== null && this.bidDraft !== undefined && options.includes(String(this.bidDraft)) ? String(this.bidDraft)
      : options.length === 1 ? options[0] : null;
    if (panel.dataset.key === key) {
      // only the draft may have changed
      for (const r of panel.querySelectorAll("input[name=bid]")) r.checked = r.value === draft;
      // (the hint chose it with the focus on another bid: the focus goes with the choice, as
      // arrows move it, so that Tab goes on to Confirm bid, not to the chosen bid)
      const at = document.activeElement;
      const chosen = panel.querySelector("input[name=bid]:checked");
      if (chosen && at !== chosen && at && at.name === "bid" && panel.contains(at)) chosen.focus();
      return;
    }
    const hadFocus = panel.contains(document.activeElement);
    panel.dataset.key = key;
    clear(panel);
    const title = h("h2", { id: "bid-title" }, mine ? "Your bid" : "Your bid (choose now, confirm on your turn)");
    panel.append(title);
    const variant = BIDDING_WORDS[this.rules && this.rules.bidding];
    if (variant) panel.append(h("p", { class: "note bid-variant" }, `${variant}.`));
    const forced = this.forcedBid();
    if (forced !== null) {  // nothing to choose or confirm: the server bids it
      title.textContent = "Your bid";
      panel.append(h("p", { id: "bid-forced" }, this.forcedBidText(forced)));
      return;
    }
    if (legal.includes("look")) {
      panel.append(h("p", {}, "Your cards are face down. Bid Blind Nil (", this.rules && this.rules.blind_nil_points ? `±${this.rules.blind_nil_points}` : "±200", ") before looking, or look at them and bid as usual."),
        h("div", { class: "button-row" },
          h("button", { type: "button", class: "primary", id: "look-btn", onclick: () => this.act("look") }, "Look at my cards"),
          h("button", { type: "button", class: "danger", id: "blind-nil-btn", onclick: () => this.askBlindNil() }, "Bid Blind Nil…")));
      return;
    }
    const group = h("div", { role: "radiogroup", "aria-labelledby": "bid-title", class: "bid-choices" });
    for (const o of options) {
      const id = `bid-${o}`;
      const input = h("input", { type: "radio", name: "bid", id, value: o, checked: o === draft });
      input.addEventListener("change", () => { this.bidDraft = o; this.saveDraft(); });
      // Enter on a bid: Confirm bid, as Enter in a form sends it (it did nothing, unsaid)
      input.addEventListener("keydown", (e) => {
        if (e.key !== "Enter" || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
        e.preventDefault();
        if (!input.checked) { input.checked = true; this.bidDraft = o; this.saveDraft(); }
        const confirm = panel.querySelector("#bid-confirm");
        if (confirm) confirm.click();
      });
      group.append(h("span", { class: `bid-choice${o === "nil" ? " nil" : ""}` }, input, h("label", { for: id }, o === "nil" ? "Nil" : o)));
    }
    panel.append(group);
    this.fitBids();
    const confirm = h("button", { type: "button", class: "primary", id: "bid-confirm", onclick: () => {
      const choice = panel.querySelector("input[name=bid]:checked");
      if (!choice) { this.refuse("choose a bid first."); return; }
      this.bid(choice.value);
    } }, "Confirm bid");
    panel.append(h("div", { class: "button-row" }, confirm,
      legal.includes("blind-nil") ? h("button", { type: "button", class: "danger", id: "blind-nil-btn", onclick: () => this.askBlindNil() }, "Blind Nil…") : null,
      h("button", { type: "button", onclick: () => this.hint() }, "Suggest a bid")));
    if (hadFocus) {
      const target = panel.querySelector("input[name=bid]:checked") || panel.querySelector("input[name=bid]");
      if (target) target.focus();
    }
  }

  /** The bid buttons in even rows: as few rows as the panel's width holds (each button at
   * least its `--bid-min` wide, in rem), the bids shared out evenly among them (Nil to 13 in
   * a 768 px window: 7 and 7, where they ran 13 to a row and 13 alone on the next). The grid's
   * columns are its `--bid-cols`. */
  fitBids() {
    const group = this.el && this.el.querySelector("#bid-panel .bid-choices");
    if (!group) return;
    const n = group.children.length;
    const width = group.clientWidth;
    if (!n || !width) return; // (not laid out: the stylesheet's 7 columns until it is)
    const style = getComputedStyle(group);
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const least = (parseFloat(style.getPropertyValue("--bid-min")) || 3) * rem;
    const gap = parseFloat(style.columnGap) || 0;
    const perRow = Math.max(1, Math.floor((width + gap) / (least + gap)));
    const rows = Math.ceil(n / perRow);
    group.style.setProperty("--bid-cols", String(Math.ceil(n / rows)));
  }

  /** While offline (or the table is open in another tab) the bid buttons are off and say why. */
  renderBlockedBid() {
    const words = this.blockedWords();
    for (const b of this.el.querySelectorAll("#bid-panel button")) {
      if (words) { b.setAttribute("aria-disabled", "true"); b.setAttribute("aria-description", words); } else { b.removeAttribute("aria-disabled"); b.removeAttribute("aria-description"); }
    }
  }

  /** The Bid box and the Blind Nil question hold only while that bid can still be made: when
   * the turn timer has bid for you (or the turn has passed), they close, and say so, rather
   * than take an answer that can only be refused. */
  closeStaleBidDialogs(bidding) {
    const box = this.el.querySelector("#bid-dialog");
    if (box && box.open && !(bidding && this.view.hand)) {
      box.close("gone");
      this.say(this.idleCovered ? "The Bid box is closed: a CPU bid for you." : "The Bid box is closed: your bid is made.");
    }
    const blind = this.el.querySelector("#blind-nil-dialog");
    if (blind && blind.open && !this.legalBids().includes("blind-nil")) {
      blind.close("gone");
      this.say("The Blind Nil question is closed: Blind Nil can no longer be bid.");
    }
  }

  focusBid() {
    const panel = this.el && this.el.querySelector("#bid-panel");
    if (!panel || panel.hidden) { this.say("There is no bid to make now."); return; }
    const forced = this.forcedBid();
    if (forced !== null) { this.say(this.forcedBidText(forced)); return; }
    // never the Blind Nil button: that decision has its own key (Shift+B) and a confirmation
    const target = panel.querySelector("input[name=bid]:checked") || panel.querySelector("input[name=bid]")
      || panel.querySelector("#look-btn") || panel.querySelector("#bid-confirm");
    if (target) target.focus();
  }

  /** Blind Nil (±200) is never one key away: its own key or button, then a confirmation
   * whose default answer is "Cancel". */
  askBlindNil() {
    const dlg = this.el && this.el.querySelector("#blind-nil-dialog");
    if (!dlg) return;
    if (!this.legalBids().includes("blind-nil")) { this.say("Blind Nil is not offered now: only the first bidder, before looking at the cards, may bid it."); return; }
    const pts = this.rules && this.rules.blind_nil_points ? this.rules.blind_nil_points : 200;
    dlg.querySelector("#blind-nil-text").textContent = `Bid Blind Nil without looking at your cards? Your side wins ${pts} points if you take no trick, and loses ${pts} if you take one.`;
    this.blindNilReturn = document.activeElement;
    dlg.returnValue = ""; // (not the answer of an earlier question)
    if (!dlg.open) dlg.showModal();
    dlg.querySelector("#blind-nil-cancel").focus();
  }

  buildBlindNilDialog() {
    const dlg = h("dialog", { class: "confirm-dialog", id: "blind-nil-dialog", "aria-labelledby": "blind-nil-title", "aria-describedby": "blind-nil-text" },
      h("h2", { id: "blind-nil-title" }, "Blind Nil?"),
      h("p", { id: "blind-nil-text" }),
      h("div", { class: "button-row" },
        h("button", { type: "button", id: "blind-nil-cancel", class: "primary", onclick: () => dlg.close("cancel") }, "Cancel"),
        h("button", { type: "button", id: "blind-nil-yes", class: "danger", onclick: () => dlg.close("yes") }, "Yes, bid Blind Nil")));
    dlg.addEventListener("keydown", (e) => trapTab(e, dlg));
    dlg.addEventListener("close", () => {
      const back = this.blindNilReturn;
      this.blindNilReturn = null;
      if (dlg.returnValue === "yes") { this.act("blind-nil"); this.focusHand(); return; }
      if (dlg.returnValue === "gone") { this.focusAfterDialog(); return; } // (said why)
      this.say("Blind Nil not bid.");
      if (back && document.contains(back)) back.focus(); else this.focusBid();
    });
    return dlg;
  }

  /** The address that joins the table by its invite code. */
  inviteAddress(code) { return `${location.origin}/#/join/${code}`; }

  /** Copy the invite link; where the page may not (no clipboard: a page not served over
   * HTTPS, say), the address is selected in its field for the keyboard's copy. */
  copyInvite(code) {
    const field = this.el && this.el.querySelector("#invite-link");
    const selected = () => {
      if (field) { field.focus(); field.select(); }
      this.say("The invite link could not be copied here: it is selected, copy it with Control+C (Command+C on a Mac).");
    };
    const clip = navigator.clipboard;
    if (!clip || !clip.writeText) { selected(); return; }
    clip.writeText(this.inviteAddress(code)).then(() => this.say("Invite link copied: paste it to a friend."), selected);
  }

  focusHand() {
    const hand = this.el && this.el.querySelector("#hand");
    if (!hand) return;
    // a spectator has no hand ("Spectating: no hand", an empty list): the table's heading,
    // from which the felt reads on, as Escape from the chat goes
    const title = !this.isPlayer && this.el.querySelector("#table-title");
    (title || hand).focus();
  }

  /** A bid dialog closed: back to the hand, or to "Take my seat back" when a CPU has taken your
   * seat meanwhile (the dialog, modal, kept the focus from it when its box came). */
  focusAfterDialog() {
    const again = this.el && this.el.querySelector("#play-again");
    if (again) again.focus({ preventScroll: true }); else this.focusHand();
  }

  /** J: the hand focused, and the felt with it (and the hand's summary, when it is up) in
   * view: focusing the hand when it has the focus already scrolls nothing. */
  jumpToHand() {
    const hand = this.el && this.el.querySelector("#hand");
    if (!hand) return;
    // (the match over, the hand is hidden: the Join the rematch button when a rematch is
    // offered, else the Score sheet button beside where it was)
    const join = this.el.querySelector("#rematch-join");
    const title = !this.isPlayer && this.el.querySelector("#table-title"); // (no hand: as focusHand)
    const to = hand.hidden ? (join && !join.closest("dialog") ? join : this.el.querySelector("#sheet-btn")) || hand : title || hand;
    // (pressed again there, the focus stays and nothing was said: J went unanswered)
    if (hand.hidden && to === document.activeElement) this.say("The match is over: you hold no cards.");
    to.focus({ preventScroll: true });
    this.showTable();
    hand.scrollIntoView({ block: "nearest", behavior: "instant" });
    const summary = this.el.querySelector(".hand-summary");
    if (summary) summary.scrollIntoView({ block: "nearest", behavior: "instant" });
  }

  renderHand() {
    const hand = this.el && this.el.querySelector("#hand");
    if (!hand || !this.view) return;
    const v = this.view;
    const cards = this.handCards();
    if (this.selected && !cards.includes(this.selected)) this.selected = null;
    const legal = new Set(this.legalCards());
    const myPlay = this.myTurn() && v.phase === "play";
    if (!this.selected && cards.length && document.activeElement === hand) { this.selected = this.defaultCard(); this.autoSelected = true; }
    // a card the page chose (not you) moves to a playable one when your turn comes
    if (myPlay && this.autoSelected && this.selected && !legal.has(this.selected)) {
      const first = cards.find((c) => legal.has(c));
      if (first) this.selected = first;
    }
    const have = new Map([...hand.children].map((c) => [c.dataset.card, c]));
    // seed 002: while you bid, the hand holds a "Bid" card (type your number) and a "Nil" card
    const specials = this.specialItems();
    if (!specials.includes(this.activeSpecial)) this.activeSpecial = null;
    const total = specials.length + cards.length;
    specials.forEach((sp, i) => {
      let el = have.get(sp);
      if (!el) {
        el = h("div", { role: "option", id: `card-${sp}`, class: `card in-hand special special-${sp.toLowerCase()}`, "data-card": sp },
          h("span", { class: "special-face", "aria-hidden": "true" }, h("span", { class: "special-word" }, sp === "BID" ? "Bid" : "Nil"),
            h("span", { class: "special-hint" }, "0 tricks")),
          h("span", { class: "card-name sr-only" }, sp === "BID" ? "Bid: type your number" : "Nil: bid no trick"));
      }
      have.delete(sp);
      // the numbers you may bid (one under Mirror and Whiz)
      if (sp === "BID") el.querySelector(".special-hint").textContent = this.choicesText(this.bidChoices().filter((b) => b !== "nil")).replace(" to ", "–");
      el.setAttribute("aria-posinset", String(i + 1));
      el.setAttribute("aria-setsize", String(total));
      el.setAttribute("aria-selected", String(sp === this.activeSpecial));
      el.classList.toggle("selected", sp === this.activeSpecial);
      if (hand.children[i] !== el) hand.insertBefore(el, hand.children[i] || null);
    });
    const off = specials.length;
    cards.forEach((card, i) => {
      let el = have.get(card);
      if (!el) {
        el = h("div", { role: "option", id: `card-${card}`, class: "card in-hand", "data-card": card }, cardFace(card));
      }
      have.delete(card);
      const playable = myPlay && legal.has(card);
      el.setAttribute("aria-posinset", String(off + i + 1));
      el.setAttribute("aria-setsize", String(total));
      el.setAttribute("aria-selected", String(card === this.selected && !this.activeSpecial));
      const name = `${cardName(card)}, ${myPlay ? (playable ? "playable" : "not playable") : v.phase === "play" ? "wait for your turn" : "bidding"}`;
      let label = el.querySelector(".card-name");
      if (!label) { label = h("span", { class: "card-name sr-only" }); el.append(label); }
      if (label.textContent !== name) label.textContent = name;
      el.classList.toggle("playable", playable);
      el.classList.toggle("unplayable", myPlay && !playable);
      el.classList.toggle("selected", card === this.selected && !this.activeSpecial);
      el.style.setProperty("--i", String(i));
      if (hand.children[off + i] !== el) hand.insertBefore(el, hand.children[off + i] || null);
    });
    for (const el of have.values()) el.remove();
    // the match over and no card left (its last summary put away): no empty box where the
    // hand was
    // (not between the match's last card and its summary: the hand, with the focus, stays)
    hand.hidden = !total && (this.status === "finished" || v.phase === "over") && !this.summaryShown() && !this.awaitingScore;
    // hidden with the focus in it: the Score sheet button beside it, as J goes (not the body)
    if (hand.hidden && document.activeElement === hand) { const sheet = this.el.querySelector("#sheet-btn"); if (sheet) sheet.focus({ preventScroll: true }); }
    hand.style.setProperty("--n", String(total));
    this.fitHand();
    if (this.activeSpecial) hand.setAttribute("aria-activedescendant", `card-${this.activeSpecial}`);
    else if (this.selected) hand.setAttribute("aria-activedescendant", `card-${this.selected}`);
    else hand.removeAttribute("aria-activedescendant");
    const label = v.hand === null ? (this.isPlayer ? "Your hand, face down" : "Spectating: no hand")
      : `Your hand, ${plural(cards.length, "card")}${myPlay ? `, ${legal.size} playable` : ""}`;
    hand.setAttribute("aria-label", label);
    // a spectator's hand is an empty list: no Tab stop of its own (J and the page's arrival
    // go to the table's heading instead), a player's again once they sit down
    hand.tabIndex = this.isPlayer ? 0 : -1;
    if (v.hand === null && !hand.querySelector(".facedown-note")) {
      hand.append(h("p", { class: "facedown-note", "aria-hidden": "true" }, this.isPlayer ? "Cards face down" : "Watching"));
    } else if (v.hand !== null) {
      for (const n of hand.querySelectorAll(".facedown-note")) n.remove();
    }
    const btn = this.el.querySelector("#play-btn");
    if (btn) {
      // the button never offers a play that will be refused: it says why instead
      const sel = this.selected;
      const why = this.blocked;
      const ok = !why && myPlay && sel && legal.has(sel);
      // shown with the card's suit symbol, named with the suit in words (cardShortSaid). The
      // card comes last, so that the words shown are the name's first words, in their order
      // (what a voice user says to press it; "5♥: follow diamonds" was named "5 of hearts:
      // follow diamonds", the shown words apart)
      const label = (card) => {
        if (why) return why === "replaced" ? "Open in another tab" : "Offline: wait";
        if (ok) return `Play ${card(sel)}`;
        if (!myPlay) return sel ? `Not your turn: ${card(sel)}` : "Not your turn";
        if (!sel) return "Select a card";
        const because = this.shortWhy(sel);
        return `${because[0].toUpperCase()}${because.slice(1)}: ${card(sel)}`;
      };
      const text = label(cardShort), said = label(cardShortSaid);
      if (btn.textContent !== text) btn.textContent = text;
      if (said === text) btn.removeAttribute("aria-label");
      else if (btn.getAttribute("aria-label") !== said) btn.setAttribute("aria-label", said);
      btn.setAttribute("aria-disabled", String(!ok));
      btn.classList.toggle("why", !ok);
      btn.hidden = v.phase !== "play" || !this.isPlayer;
    }
  }

  /** Why the selected card cannot be played, in a few words (for the Play button). */
  shortWhy(card) {
    const v = this.view;
    if (v.trick.length) return `follow ${SUIT_NAMES[suitOf(v.trick[0][1])]}`;
    if (suitOf(card) === "S" && !v.spades_broken) return "spades not broken";
    return "not playable now";
  }

  /** The card a keyboard user lands on: the selection, else the first playable card. */
  defaultCard() {
    const cards = this.handCards();
    if (this.selected && cards.includes(this.selected)) return this.selected;
    const legal = this.legalCards();
    return cards.find((c) => legal.includes(c)) || cards[0] || null;
  }

  /** Spread the cards over the width there is: as little overlap as the space allows. The Bid
   * and Nil cards (while you bid) start the first row with their words uncovered: whole, a gap
   * apart, where there is room, else overlapped no further than their words. */
  fitHand() {
    const hand = this.el && this.el.querySelector("#hand");
    const first = hand && hand.querySelector(".card");
    if (!first) return;
    const items = [...hand.querySelectorAll(".card")];
    const specials = items.filter((c) => c.classList.contains("special"));
    const s = specials.length;
    const n = items.length - s;
    const w = first.offsetWidth;
    const style = getComputedStyle(hand);
    const avail = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 4;
    // the step from card to card when `count` cards share `room`
    const stepIn = (room, count) => (count > 1 ? (room - w) / (count - 1) : room >= w ? w : -w);
    // from a Bid or Nil card to the next: at most the card and a gap; at least its words
    const whole = w + Math.round(0.06 * w);
    const words = Math.min(whole, Math.max(0, ...specials.flatMap((c) => [...c.querySelectorAll(".special-face > span")]
      .map((t) => t.offsetLeft + t.offsetWidth))) + Math.ceil(0.1 * w));
    // one row while each card shows at least its corner index and room for a finger (0.45 of a
    // card; while you bid, when the cards are not played, 0.3: the index); else two rows (the
    // second overlapping the lower half of the first), so every index stays readable; as many
    // cards in the first row as give the widest step
    const least = (s ? 0.3 : 0.45) * w;
    let lead = s * whole;  // the room the Bid and Nil cards take at the start of the first row
    let k = n;
    let step = n ? stepIn(avail - lead, n) : w;
    if (s && n > 1 && step < least) {
      // the Bid and Nil cards closer together, as far as that gives the cards their index
      lead = s * Math.max(words, Math.min(whole, (avail - w - (n - 1) * least) / s));
      step = stepIn(avail - lead, n);
    }
    if (step < least && n + s >= 4) {
      lead = s * whole;
      step = -Infinity;
      for (let j = s ? 0 : 1; j < n; j++) {
        const st = Math.min(j ? stepIn(avail - lead, j) : (avail >= lead ? w : -w), stepIn(avail, n - j));
        if (st >= step) { step = st; k = j; }
      }
    }
    const rows = k < n ? 2 : 1;
    hand.style.setProperty("--special-gap", s ? `${Math.floor((lead / s - w) * 10) / 10}px` : "0px");
    const overlap = Math.max(-0.74 * w, Math.min(0.08 * w, step - w));
    hand.style.setProperty("--overlap", `${Math.floor(overlap * 10) / 10}px`);
    hand.classList.toggle("two-rows", rows === 2);
    items.forEach((c, i) => c.classList.toggle("row-start", rows === 2 && i === s + k));
  }

  /** Keys on the list while it holds the Bid and Nil cards; true when the key was used. */
  onSpecialKey(e, specials) {
    const cards = this.handCards();
    const items = [...specials, ...cards];
    const cur = this.activeSpecial ? items.indexOf(this.activeSpecial) : Math.max(specials.length, items.indexOf(this.selected));
    let next = null;
    if (e.key === "Enter" && this.activeSpecial) { e.preventDefault(); this.useSpecial(this.activeSpecial); return true; }
    if (e.key === "Home") next = 0;
    else if ((e.key === "ArrowLeft" || e.key === "ArrowUp") && cur <= specials.length) next = Math.max(0, cur - 1);
    else if ((e.key === "ArrowRight" || e.key === "ArrowDown") && this.activeSpecial) next = cur + 1;
    if (next === null || next >= items.length) return false;
    e.preventDefault();
    e.stopPropagation();
    if (next < specials.length) {
      this.activeSpecial = specials[next];
      this.renderHand();
    } else {
      this.activeSpecial = null;
      this.select(items[next]);
    }
    return true;
  }

  /** Scroll so that the table (felt, hand and actions) fills the window. */
  showTable() {
    const area = this.el && this.el.querySelector(".play-area");
    // its top on a whole pixel at (or just below) the window's top, never a fraction above it
    if (area) window.scrollTo({ top: Math.floor(area.getBoundingClientRect().top + window.scrollY), behavior: "instant" });
  }

  /** The Bid and Nil cards of seed 002, in the hand while your bid is still to be made. */
  specialItems() {
    const v = this.view;
    if (!v || v.phase !== "bid" || !this.isPlayer || !v.hand || v.bids[this.mySeat] !== null) return [];
    if (this.legalBids().includes("look") || this.forcedBid() !== null) return []; // (made for you)
    const choices = this.bidChoices();
    return [...(choices.some((b) => b !== "nil") ? ["BID"] : []), ...(choices.includes("nil") ? ["NIL"] : [])];
  }

  /** Enter or a tap on the Bid card (a number to type) or the Nil card. */
  useSpecial(sp) {
    if (sp === "NIL") {
      if (this.myTurn()) this.bid("nil");
      else { this.setDraftBid("nil"); this.say("Nil is chosen: confirm it when your turn comes."); }
      return;
    }
    this.askBidNumber();
  }

  askBidNumber() {
    const dlg = this.el && this.el.querySelector("#bid-dialog");
    if (!dlg) return;
    const nums = this.bidChoices().filter((b) => b !== "nil").map(Number);
    const input = dlg.querySelector("#bid-number");
    input.min = String(Math.min(...nums));
    input.max = String(Math.max(...nums));
    input.dataset.choices = nums.join(",");
    input.value = this.bidDraft && /^\d+$/.test(String(this.bidDraft)) && this.bidDraft !== "0" ? String(this.bidDraft) : "";
    dlg.querySelector("#bid-number-label").textContent = nums.length === 1 ? `Your bid: ${nums[0]}` : `Your bid, ${this.choicesText(nums.map(String))}`;
    dlg.querySelector("#bid-number-error").textContent = "";
    input.removeAttribute("aria-invalid");
    if (!dlg.open) dlg.showModal();
    input.focus();
  }

  buildBidDialog() {
    const dlg = h("dialog", { class: "confirm-dialog bid-dialog", id: "bid-dialog", "aria-labelledby": "bid-dialog-title" });
    const form = h("form", { method: "dialog", novalidate: true },
      h("h2", { id: "bid-dialog-title" }, "Bid"),
      h("p", { class: "field" }, h("label", { for: "bid-number", id: "bid-number-label" }, "Your bid"),
        h("input", { id: "bid-number", type: "number", inputmode: "numeric", min: "1", step: "1", autocomplete: "off", "aria-describedby": "bid-number-error" })),
      // (shown here and said through the announcer, not a role=alert of its own: the same
      // error twice set the same words, and a live region says nothing when its words stay)
      h("p", { class: "form-error", id: "bid-number-error" }),
      h("div", { class: "button-row" },
        h("button", { type: "submit", class: "primary", value: "bid" }, "Bid"),
        h("button", { type: "button", onclick: () => dlg.close("cancel") }, "Cancel")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const input = form.querySelector("#bid-number");
      const raw = input.value.trim();
      const nums = input.dataset.choices.split(",");
      const n = Number(raw);
      const can = this.choicesText(nums);
      if (!/^\d+$/.test(raw) || !nums.includes(String(n))) {
        const error = raw === "" ? `Type your bid: ${can}.` : `${raw} is not a bid you can make: you can bid ${can}${this.bidChoices().includes("nil") ? " (Nil has its own card)" : ""}.`;
        form.querySelector("#bid-number-error").textContent = error;
        input.setAttribute("aria-invalid", "true");
        input.focus();
        // a new addition each time (in the box's dialog): said again when it is the same
        this.app.sounds.play("refused");
        this.say(error, { assertive: true });
        return;
      }
      input.removeAttribute("aria-invalid");
      dlg.close("bid");
      if (this.myTurn()) this.bid(String(n));
      else { this.setDraftBid(String(n)); this.say(`A bid of ${n} is chosen: confirm it when your turn comes.`); }
    });
    dlg.append(form);
    dlg.addEventListener("keydown", (e) => trapTab(e, dlg));
    dlg.addEventListener("close", () => this.focusAfterDialog());
    return dlg;
  }

  onHandKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key;
    if (key === "Enter" && this.summaryShown()) { e.preventDefault(); this.dismissSummary(); return; }
    // the Bid and Nil cards come first in the list while you bid
    const specials = this.specialItems();
    if (specials.length && this.onSpecialKey(e, specials)) return;
    const cards = this.handCards();
    if (!cards.length) {
      // your cards face down (the first bidder, before looking): the hand's keys said
      // nothing; they say where the way to look is (the buttons a sighted player sees)
      const handKey = ["Enter", " ", "Home", "End", "ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown"].includes(key)
        || (key.length === 1 && SUIT_KEYS[key.toLowerCase()]);
      if (handKey && this.isPlayer && this.view && this.view.hand === null && this.legalBids().includes("look")) {
        e.preventDefault();
        e.stopPropagation();
        this.say("Your cards are face down. B goes to Look at my cards; Shift+B bids Blind Nil.");
      }
      return;
    }
    let i = Math.max(0, cards.indexOf(this.selected));
    let handled = true;
    if (key === "ArrowRight" || key === "ArrowDown") i = Math.min(cards.length - 1, this.selected ? i + 1 : 0);
    else if (key === "ArrowLeft" || key === "ArrowUp") i = Math.max(0, i - 1);
    else if (key === "Home") i = 0;
    else if (key === "End") i = cards.length - 1;
    else if (SUIT_KEYS[key.toLowerCase()] && key.length === 1) {
      const suit = SUIT_KEYS[key.toLowerCase()];
      const inSuit = cards.map((c, j) => [c, j]).filter(([c]) => suitOf(c) === suit);
      if (!inSuit.length) {
        this.say(`You have no ${SUIT_NAMES[suit]}.`);
        e.preventDefault();
        return;
      }
      // (from a card the page chose, not you: the suit's first card, not its second)
      const cur = this.selected && !this.autoSelected && suitOf(this.selected) === suit
        ? inSuit.findIndex(([c]) => c === this.selected) : -1;
      i = inSuit[(cur + 1) % inSuit.length][1];
    } else if (key === "Enter") {
      e.preventDefault();
      if (this.myTurn() && this.view.phase === "play") this.play(this.selected || cards[i]);
      else {
        this.select(this.selected || cards[i]);
        // (at your turn to bid: where the bids are, which a sighted player sees above the hand)
        const how = this.view.phase === "bid" && this.myTurn() && this.legalBids().some((b) => b !== "look" && b !== "blind-nil")
          ? ` Your turn to bid: B goes to the bids${this.specialItems().includes("BID") ? ", Home to the Bid card" : ""}.` : "";
        this.say(this.view.phase === "bid" ? `Cards are played after the bidding.${how}` : `Not your turn: ${this.whoseTurnText()}`);
      }
      return;
    } else if (key === " ") {
      i = Math.max(0, cards.indexOf(this.selected || cards[0]));
    } else handled = false;
    if (!handled) return;
    e.preventDefault();
    e.stopPropagation();
    this.select(cards[i]);
    const el = this.el.querySelector(`#card-${cards[i]}`);
    if (el) el.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  renderScores() {
    const box = this.el.querySelector("#score-box");
    const sc = this.score;
    clear(box);
    const r = this.rules || {};
    const limit = r.bag_limit || 10;
    const table = h("table", { class: "score-table" },
      h("caption", { class: "sr-only" }, "Scores and bags"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, this.teamGame ? "Side" : "Player"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Bags"))));
    const body = h("tbody");
    sc.scores.forEach((p, k) => {
      const warn = sc.bag_warning && sc.bag_warning[k];
      body.append(h("tr", { class: k === this.mySide ? "mine" : "" },
        h("th", { scope: "row" }, this.sideTitle(k)),
        h("td", { class: "num" }, scoreText(p)),
        h("td", { class: `bags${warn ? " near" : ""}` },
          h("span", { class: "bag-count" }, `${sc.bags[k]}/${limit}`),
          warn ? h("span", { class: "bag-warning" }, h("span", { "aria-hidden": "true" }, "⚠ "), warn) : null)));
    });
    table.append(body);
    const goal = r.match === "one-hand" || (this.msg.table.options && this.msg.table.options.one_hand) ? "One-hand match" : `Playing to ${this.target()}`;
    box.append(table, h("p", { class: "note" }, `${goal} · ${this.rulesText()}`));
  }

  renderOver() {
    const box = this.el.querySelector("#match-over");
    // shown once the match_over event (or a snapshot of a finished table) has come: the last
    // hand's trick and summary come first
    const finished = this.status === "finished";
    if (!finished) { box.hidden = true; if (box.open) box.close(); return; }
    if (box.dataset.done) { this.offerRematch(box); return; } // shown once; Close puts it away for good
    if (this.summaryShown()) return; // the last hand's summary first
    box.hidden = false;
    box.dataset.done = "1";
    clear(box);
    const winner = this.msg.table.winner ?? (this.view ? this.view.winner : null);
    const mine = winner !== null && winner === this.mySide;
    box.append(h("div", { class: "over-card" },
      h("h2", { id: "over-title", tabindex: "-1" }, winner === null || winner === undefined ? "A draw!" : mine ? "You win!" : `${this.sideName(winner)} ${this.sides[winner].length > 1 ? "win" : "wins"}`),
      h("p", {}, this.overText(winner)),
      h("div", { class: "button-row" },
        h("button", { type: "button", class: "primary", onclick: () => this.openSheet() }, "Score sheet"),
        h("a", { class: "button", href: `/api/games/${encodeURIComponent(this.msg.table.game_id)}/record`, download: `spades-${this.msg.table.game_id}.json`, "data-record": this.msg.table.game_id }, "Download the record"),
        h("a", { class: "button", href: "#/" }, "New match"),
        this.amOwner() && this.isPlayer ? h("button", { type: "button", id: "over-rematch", onclick: () => this.startRematch() }, "Rematch") : null,
        h("button", { type: "button", id: "over-close", onclick: () => box.close() }, "Close"))));
    // a modal dialog: the focus goes in and stays in until it is closed
    if (!box.open) box.showModal();
    box.querySelector("#over-title").focus();
  }

  /** Made the owner once the box was drawn (the owner left the finished table; the server
   * says "You own the table now"): the Rematch button an owner's box has, in the box while it
   * is open, else beside Score sheet (before: none, so nobody could offer the rematch). */
  offerRematch(box) {
    if (!this.amOwner() || !this.isPlayer || this.rematch || this.el.querySelector("#over-rematch")) return;
    const button = h("button", { type: "button", id: "over-rematch", onclick: () => this.startRematch() }, "Rematch");
    const close = box.open && box.querySelector("#over-close");
    if (close) close.before(button); else this.el.querySelector("#sheet-btn")?.after(button);
  }

  /** Rematch (the owner, after the end): a new table with the same options; its waiting
   * room opens, and the others here hear of it. */
  startRematch() {
    this.app.openNew({ type: "rematch" }).catch((err) => {
      this.say(`Could not start a rematch: ${reasonEnd(err.message || NO_REASON)}`, { assertive: true });
    });
  }

  /** The end-of-match box is closed (Close or Escape): the focus goes to the score sheet
   * button, next to the hand, rather than to the page. */
  onOverClosed() {
    const box = this.el && this.el.querySelector("#match-over");
    if (box) box.hidden = true;
    if (this.el && this.el.querySelector("#rematch-box")) { this.renderRematch(); const b = this.el.querySelector("#rematch-join"); if (b) { b.focus(); return; } }
    const target = this.el && (this.el.querySelector("#sheet-btn") || this.el.querySelector("#table-title"));
    if (target) target.focus();
  }

  // ---------- score sheet
  /** The sheet opens at once, "Loading…" until the sheet comes. The sheet coming never opens
   * it: closed before then, it opened again when the sheet came before the dialog's close
   * event, which is fired a task later. */
  openSheet() {
    const dlg = this.el && this.el.querySelector("#sheet-dialog");
    if (!dlg) return;
    if (!this.sheetData) this.requestSheet();
    this.renderSheet();
    if (!dlg.open) { dlg.showModal(); dlg.querySelector("#sheet-title").focus(); }
  }

  renderSheet() {
    const body = this.el && this.el.querySelector("#sheet-body");
    if (!body) return;
    const d = this.sheetData;
    if (!d) return;
    clear(body);
    body.append(...sheetContent(d, this));
  }

  /** O: the score sheet read out, now, or as soon as it comes (the page asks for it when it
   * has none: after each hand it changes). */
  readSheet() {
    if (this.sheetData) { this.say(this.sheetText()); return; }
    this.readSheetOnArrival = true;
    this.requestSheet();
  }

  sheetText() {
    const d = this.sheetData;
    if (!d.hands.length) return "Score sheet: no hand has been scored yet.";
    const said = (p) => `${p >= 0 ? "plus" : "minus"} ${Math.abs(p)}`;
    const rows = d.hands.map((row, i) => `Hand ${row.number}: ` + d.sides.map((seats, k) => {
      const parts = pointsWords(row, k);
      const detail = parts ? ` (${signsSaid(parts)})` : "";
      // who bid what and took what, as the sheet on the screen shows it; a CPU said to be
      // one once, at the first hand's sides (as in the sheet's head), not in every hand
      const bids = seats.map((s) => `${this.seatName(s, { lower: true, mark: false })} bid ${this.bidText(row.bids[s])} and took ${row.tricks[s]}`).join(", ");
      return `${this.sideTitle(k, { mark: i === 0 })} ${said(row.points[k])}${detail}, total ${row.scores[k] < 0 ? said(row.scores[k]) : row.scores[k]}, ${plural(row.bags[k], "bag")}: ${bids}`;
    }).join("; "));
    return `Score sheet. ${rows.join(". ")}.`;
  }

  // ---------- timer
  /** The countdown on the screen, and the page's own warning near the end of your turn (once
   * "your turn" has been said). */
  tick({ inOrder = false, drawn = false } = {}) {
    const turn = this.clockTurn();
    if (!this.el || !this.view || !turn || !turn.deadline) return;
    if (this.blocked) return; // (the deadline is the old one until the table's state is back)
    // a clock that started behind the hand's summary (the next deal came after it was drawn)
    if (!drawn && this.summaryShown() && !this.el.querySelector("#timer-chip")) { this.renderStatus(); return; }
    const left = this.timeLeft();
    const total = turn.seconds || 30;
    const warnAt = this.warnAt(turn);
    const urgent = left <= warnAt;
    const tag = this.el.querySelector(".seat.turn .turn-tag");
    if (tag) { tag.textContent = `${left} s`; tag.classList.add("time"); tag.classList.toggle("urgent", urgent); }
    const chip = this.el.querySelector("#timer-chip");
    if (chip) {
      const mine = turn.seat === this.mySeat && this.isPlayer;
      const who = mine ? "" : ` for ${this.seatName(turn.seat)}`;
      chip.querySelector(".timer-text").textContent = `${left} s left${who}`;
      chip.setAttribute("aria-label", `${plural(left, "second")} left${who}`);
      chip.style.setProperty("--frac", String(Math.max(0, Math.min(1, (turn.deadline - Date.now() / 1000) / total))));
      chip.classList.toggle("urgent", urgent);
      chip.classList.toggle("mine", mine);
    }
    if (this.myTurn() && this.turnKey === turnKeyOf(this.view) && left !== null && left <= warnAt && left > 0) {
      this.warnTimer(left, this.view, { inOrder });
    }
  }
}
