"""A screen reader's view of the page, and a whole match played through it (issue 10).

``RECORDER`` is an init script: a MutationObserver notes every text added to the two live
regions (``window.__sr.adds``: time, region, text), a wrapped WebSocket notes every frame's
arrival before the page handles it (``window.__sr.frames``: time, seq, kind, the news texts,
whose turn it is) and the type of every message the page sends (``sent``). ``play_match``
plays a whole match with the keyboard alone; ``check_order`` says what is wrong with what was
heard (the test asserts it is nothing, the benchmark reports it); ``delays`` measures each news
text from its frame's arrival to the live region.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.helpers import take_hinted_turn

RECORDER = """(() => {
  const rec = window.__sr = { adds: [], frames: [], seat: null, sent: [] };
  const watch = () => {
    for (const [id, kind] of [["live-polite", "polite"], ["live-assertive", "assertive"]]) {
      const el = document.getElementById(id);
      if (!el) continue;
      new MutationObserver((muts) => {
        const at = performance.now();
        for (const m of muts) for (const n of m.addedNodes) {
          const text = (n.textContent || "").trim();
          if (text) rec.adds.push({ at, kind, text });
        }
      }).observe(el, { childList: true });
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    constructor(...args) {
      super(...args);
      const send = this.send.bind(this);
      this.send = (data) => {
        try { rec.sent.push(JSON.parse(data).type); } catch { /* not ours */ }
        return send(data);
      };
      // registered before the page's onmessage: this runs first, at the frame's arrival
      this.addEventListener("message", (e) => {
        const at = performance.now();
        let msg;
        try { msg = JSON.parse(e.data); } catch { return; }
        if (msg.type === "table" && msg.you) rec.seat = msg.you.seat;
        if (msg.type !== "event") return;
        rec.frames.push({
          at, seq: msg.seq, kind: msg.event.kind,
          news: (msg.event.news || []).map((n) => ({ type: n.type, text: n.text })),
          turn: msg.turn ? msg.turn.seat : null,
        });
      });
    }
  };
})();"""

YOUR_TURN = "window.__sr.adds.filter((a) => a.text.startsWith('Your turn'))"

STATE = """() => { const t = window.spadesApp && spadesApp.table; if (!t || !t.view) return false;
  if (t.status === 'finished') return 'over';
  if (document.querySelector('.felt .hand-summary')) return 'summary';
  return t.turnKey !== null ? t.view.phase : false; }"""


def start_match(page: Any, name: str, target: int | None = None) -> None:
    """The home page's "Play against CPUs now", at its defaults (rules, CPU strength, to the
    target score), with the keyboard; ``target`` fills in a lower target."""
    page.focus("#quick-name")
    page.keyboard.press("Control+A")
    page.keyboard.type(name)
    if target is not None:
        page.focus("#quick-target")
        page.keyboard.type(str(target))
    page.focus("form.quick button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_function("window.spadesApp && spadesApp.table && spadesApp.table.view",
                           timeout=15000)


def play_match(page: Any, turn_timeout: float = 60000, max_turns: int = 600) -> int:
    """Play until the match is over: the hinted bid or card on each turn, Escape on each
    hand's summary. Returns the number of turns taken; waits until the last news is said."""
    turns = 0
    said = 0  # "your turn" heard so far
    for _ in range(max_turns):
        page.wait_for_function(STATE, timeout=turn_timeout)
        state = page.evaluate(f"({STATE})()")
        if state == "over":
            break
        if state == "summary":
            page.keyboard.press("Escape")
            page.wait_for_function("() => !document.querySelector('.felt .hand-summary')")
            continue
        # as a screen-reader user does: act once "your turn" has been heard
        page.wait_for_function(f"() => {YOUR_TURN}.length > {said}", timeout=turn_timeout)
        said = page.evaluate(f"{YOUR_TURN}.length")
        take_hinted_turn(page, str(state))
        turns += 1
    else:
        raise AssertionError("the match did not end")
    # the last news is said (or, if it never is, check_order says so)
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("""() => { const r = window.__sr;
          const news = r.frames.flatMap((f) => f.news);
          return news.length && r.adds.some((a) => a.text === news[news.length - 1].text); }""",
                               timeout=10000)
    return turns


@dataclass
class Heard:
    adds: list[dict[str, Any]]
    frames: list[dict[str, Any]]
    seat: int | None
    sent: list[str] = field(default_factory=list)


def heard(page: Any) -> Heard:
    r = page.evaluate("window.__sr")
    return Heard(r["adds"], r["frames"], r["seat"], r["sent"])


def as_said(text: str) -> str:
    """A news text as the page says it: a negative score with the minus sign ("-68 in all" →
    "−68 in all"; a hyphen inside a word, "Bot-2", stays), as the page writes scores."""
    return re.sub(r"(?<![\w-])-(?=\d)", "\u2212", text)


def match_news(h: Heard) -> list[int | None]:
    """For each news item (in frame order), the index of the live-region addition that said
    it (news said in order, each once), or None where it was never said."""
    where: list[int | None] = []
    i = 0
    for f in h.frames:
        for n in f["news"]:
            j = i
            while j < len(h.adds) and h.adds[j]["text"] != as_said(n["text"]):
                j += 1
            if j < len(h.adds):
                where.append(j)
                i = j + 1
            else:
                where.append(None)
    return where


def check_order(h: Heard) -> list[str]:
    """What is wrong with what was heard; [] when every news text was said once, in order, one
    per addition, each turn after everything before it, no stale turn, assertive only for what
    must interrupt."""
    problems: list[str] = []
    news = [(f, n) for f in h.frames for n in f["news"]]
    if not news:
        return ["no news at all"]
    where = match_news(h)
    missing = [n["text"] for (_, n), w in zip(news, where, strict=True) if w is None]
    if missing:
        problems.append(f"{len(missing)} news texts not said (in order): {missing[:5]}")
    counts: dict[str, int] = {}
    for _, n in news:
        counts[as_said(n["text"])] = counts.get(as_said(n["text"]), 0) + 1
    for text, k in counts.items():
        said = sum(a["text"] == text for a in h.adds)
        if said != k:
            problems.append(f"said {said} times, told {k}: {text!r}")
    # one trick per addition
    for a in h.adds:
        if len(set(re.findall(r"\btrick (\d+)\b", a["text"]))) > 1:
            problems.append(f"two tricks in one addition: {a['text']!r}")
    # your turn: after every news before it; never after the turn has passed
    seq_at = {}  # news index -> seq of its frame
    k = 0
    for f in h.frames:
        for _ in f["news"]:
            seq_at[k] = f["seq"]
            k += 1
    turns = 0
    for i, a in enumerate(h.adds):
        if not a["text"].startswith("Your turn"):
            continue
        turns += 1
        before = [f for f in h.frames if f["at"] <= a["at"]]
        mine = [f for f in before if f["turn"] == h.seat and f["news"]]
        if not mine:
            problems.append(f"'Your turn' with no frame giving the turn: {a['text']!r}")
            continue
        given = mine[-1]
        later = [f for f in before if f["at"] > given["at"] and f["news"]]
        if later:
            problems.append(f"stale 'Your turn' (said after the turn passed): {a['text']!r}")
        late = [news[j][1]["text"] for j, w in enumerate(where)
                if seq_at[j] <= given["seq"] and (w is None or w > i)]
        if late:
            problems.append(f"'Your turn' said before {late[:3]}")
    if not turns:
        problems.append("'Your turn' was never said")
    for a in h.adds:
        if a["kind"] == "assertive" and not re.match(r"(Refused|\d+ seconds? left)", a["text"]):
            problems.append(f"assertive for something that need not interrupt: {a['text']!r}")
    return problems


def delays(h: Heard) -> list[float]:
    """Milliseconds from each news item's frame arriving to its text in the live region."""
    where = match_news(h)
    out: list[float] = []
    k = 0
    for f in h.frames:
        for _ in f["news"]:
            w = where[k]
            if w is not None:
                out.append(h.adds[w]["at"] - f["at"])
            k += 1
    return out

