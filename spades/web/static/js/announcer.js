// ARIA live regions fed in order: every message is one addition, said as soon as it comes.
//
// Two regions (polite and assertive) that only ever receive *additions*: each message is a new
// paragraph, removed later (removals are not read: aria-relevant="additions"). Polite messages
// go out one at a time, in the order they were queued, with a short gap between two additions
// (so a screen reader reads them as separate utterances, as accessible games do); nothing waits
// on a guess of how long a screen reader talks. Assertive is for what must interrupt (a
// refusal, the timer's last warning): it goes out at once, ahead of anything waiting.
// Every message spoken is kept in `history` (the "announcements" panel and the tests read it).

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
    this.queuedListeners = new Set();
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
    if (this.said.length > 200) this.said.shift();
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
