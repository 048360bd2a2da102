// ARIA live regions with a queue: nothing is cut off and nothing is read twice.
//
// Two regions (polite and assertive) that only ever receive *additions*: each message is a new
// paragraph appended after the previous one has had time to be spoken, and removed later
// (removals are not read: aria-relevant="additions"). Messages queued close together are
// joined into one paragraph. Identical text queued again while still waiting is dropped.
// Every message spoken is kept in `history` (the "announcements" panel and the tests read it).

const KEEP_MS = 12000;

export class Announcer {
  constructor(polite, assertive, { pace = 1 } = {}) {
    this.regions = { polite, assertive };
    this.queues = { polite: [], assertive: [] };
    this.busyUntil = { polite: 0, assertive: 0 };
    this.timers = { polite: null, assertive: null };
    this.history = [];
    this.last = "";
    this.pace = pace; // 0 = no pause between messages (tests), 1 = speaking pace
    this.listeners = [];
    this.counter = 0;
    this.said = []; // every message as it was queued (the visible "Table talk" list)
    this.queuedListeners = new Set();
  }

  /** Queue a message: the one way text reaches the live regions (and the voice), in order.
   * `assertive` for your turn and refused actions. `stale`, if given, is asked just before the
   * message goes out: a message that no longer holds (a hint for a turn that has passed) is
   * dropped instead of being read late. */
  say(message, { assertive = false, stale = null } = {}) {
    const text = String(message || "").trim();
    if (!text) return;
    const kind = assertive ? "assertive" : "polite";
    const q = this.queues[kind];
    if (q.some((m) => m.text === text)) return; // already waiting: never read twice
    q.push({ text, stale });
    this.said.push(text);
    if (this.said.length > 200) this.said.shift();
    for (const fn of this.queuedListeners) fn(text, kind);
    this.schedule(kind);
  }

  /** Read the last announcement again (a user request, so it is spoken even if the same). */
  repeat() {
    const last = this.last || "Nothing has been announced yet.";
    this.emit("polite", `Again: ${last}`, { remember: false });
  }

  onAnnounce(fn) { this.listeners.push(fn); }

  schedule(kind) {
    if (this.timers[kind]) return;
    const wait = Math.max(0, this.busyUntil[kind] - Date.now());
    this.timers[kind] = setTimeout(() => {
      this.timers[kind] = null;
      const q = this.queues[kind];
      if (!q.length) return;
      // everything waiting goes out as one paragraph, in order (less what has gone stale)
      const text = q.splice(0, q.length).filter((m) => !(m.stale && m.stale())).map((m) => m.text).join(" ");
      if (text) this.emit(kind, text);
      if (q.length) this.schedule(kind);
    }, this.pace === 0 ? 0 : Math.max(wait, 60));
  }

  emit(kind, text, { remember = true } = {}) {
    const region = this.regions[kind];
    const p = document.createElement("p");
    p.dataset.n = String(++this.counter);
    p.textContent = text;
    region.append(p);
    setTimeout(() => p.remove(), KEEP_MS);
    // Roughly 14 characters a second at a screen reader's default rate.
    this.busyUntil[kind] = Date.now() + this.pace * Math.min(6000, 300 + text.length * 55);
    const entry = { text, kind, at: Date.now(), n: this.counter };
    this.history.push(entry);
    if (this.history.length > 500) this.history.shift();
    if (remember) this.last = text;
    for (const fn of this.listeners) fn(entry);
  }
}
