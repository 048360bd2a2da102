// ARIA live regions fed in order: every message is one addition, said as soon as it comes.
//
// Two regions (polite and assertive) that only ever receive *additions*: each message is a new
// paragraph, removed later (removals are not read: aria-relevant="additions"). Polite messages
// go out one at a time, in the order they were queued, with a short gap between two additions
// (so a screen reader reads them as separate utterances, as accessible games do); nothing waits
// on a guess of how long a screen reader talks. Assertive is for what must interrupt (a
// refusal, the timer's last warning): it goes out at once, ahead of anything waiting.
// Every message spoken is kept in `history` (the "announcements" panel and the tests read it).
// A modal dialog (the score sheet, the keys, the end of the match…) makes everything outside
// it inert, live regions included: a screen reader would hear nothing said while it is open.
// So while one is open the two regions are inside it (the topmost), and back after it closes.

const KEEP_MS = 12000;
export const GAP_MS = 100; // between two additions to the polite region

export class Announcer {
  constructor(polite, assertive, { pace = 1 } = {}) {
    this.regions = { polite, assertive };
    this.queue = []; // polite messages waiting for the gap: {text, stale}
    this.nextAt = 0; // the earliest time the next polite addition may go out
    this.timer = null;
    this.history = [];
    this.last = "";
    this.pace = pace; // 0 = no gap between additions, 1 = the short gap
    this.listeners = [];
    this.counter = 0;
    this.said = []; // every message as it was queued (the visible "Table talk" list)
    this.saidWhere = []; // the table each of them was said at (`where` then)
    this.where = null; // the table the page is at (its id), set by the app
    this.queuedListeners = new Set();
    // a dialog opened or closed: the regions follow (emit() checks again before each addition)
    new MutationObserver(() => this.placeRegions())
      .observe(document.body, { subtree: true, attributes: true, attributeFilter: ["open"] });
  }

  /** Where the regions must be for a screen reader to hear them: in the topmost open modal
   * dialog (the one holding the focus), else in the page. */
  placeRegions() {
    const open = [...document.querySelectorAll("dialog[open]")].filter((d) => d.matches(":modal"));
    const active = document.activeElement && document.activeElement.closest && document.activeElement.closest("dialog");
    const host = open.includes(active) ? active : open[open.length - 1] || document.body;
    for (const region of Object.values(this.regions)) {
      if (region.parentNode === host) continue;
      // what is in it was said already: moved, it must not be read again
      while (region.firstChild) region.firstChild.remove();
      host.append(region);
    }
  }

  /** The last `n` messages said at the table `where` (not another table's: a new match's
   * "Table talk" began with the lines of the match before). */
  saidAt(where, n) {
    return this.said.filter((_, i) => this.saidWhere[i] === where).slice(-n);
  }

  /** Queue a message: the one way text reaches the live regions (and the voice), in order.
   * `assertive` for refused actions and the timer's last warning only. `stale`, if given, is
   * asked just before the message goes out: a message that no longer holds (your turn, a hint
   * for a turn that has passed) is dropped instead of being read late. `event`: a game event's
   * sentence, always said (two events may have the same words); other text already waiting is
   * not queued twice. */
  say(message, { assertive = false, stale = null, event = false } = {}) {
    const text = String(message || "").trim();
    if (!text) return;
    const kind = assertive ? "assertive" : "polite";
    if (!event && !assertive && this.queue.some((m) => m.text === text)) return;
    this.said.push(text);
    this.saidWhere.push(this.where);
    if (this.said.length > 200) { this.said.shift(); this.saidWhere.shift(); }
    for (const fn of this.queuedListeners) fn(text, kind);
    if (assertive) {
      if (!(stale && stale())) this.emit("assertive", text);
      return;
    }
    this.queue.push({ text, stale });
    this.flush();
  }

  /** Read the last announcement again (a user request, so it is spoken even if the same). */
  repeat() {
    const last = this.last || "Nothing has been announced yet.";
    this.say(`Again: ${last}`, { event: true });
  }

  onAnnounce(fn) { this.listeners.push(fn); }

  get gap() { return this.pace === 0 ? 0 : GAP_MS; }

  /** Send out what is waiting: one addition now if the gap has passed, the rest after it. */
  flush() {
    if (this.timer) return;
    while (this.queue.length) {
      const wait = this.nextAt - Date.now();
      if (wait > 0) {
        this.timer = setTimeout(() => { this.timer = null; this.flush(); }, wait);
        return;
      }
      const m = this.queue.shift();
      if (m.stale && m.stale()) continue;
      this.emit("polite", m.text);
      this.nextAt = Date.now() + this.gap;
    }
  }

  emit(kind, text) {
    this.placeRegions();
    const region = this.regions[kind];
    const p = document.createElement("p");
    p.dataset.n = String(++this.counter);
    p.textContent = text;
    region.append(p);
    setTimeout(() => p.remove(), KEEP_MS);
    const entry = { text, kind, at: Date.now(), n: this.counter };
    this.history.push(entry);
    if (this.history.length > 500) this.history.shift();
    if (!text.startsWith("Again: ")) this.last = text;
    for (const fn of this.listeners) fn(entry);
  }
}
