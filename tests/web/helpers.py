"""Driving the page the way a keyboard or screen-reader user does, and reading what it said."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: The example match record the docs show (a finished cardems match).
EXAMPLE = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
#: The focused element's label, or its text.
ACTIVE = "document.activeElement && (document.activeElement.getAttribute('aria-label')" \
         " || document.activeElement.textContent.trim())"

ACTIVE_LABEL = """(() => {
  const h = document.getElementById('hand');
  const id = h && h.getAttribute('aria-activedescendant');
  const el = id && document.getElementById(id);
  return el ? el.textContent.trim() : null;
})()"""


def settle(page: Any) -> None:
    """Wait until no CSS animation or transition is running (before an audit or a
    screenshot, which would otherwise catch a card in flight or a colour half-way)."""
    page.wait_for_function("""() => document.getAnimations().every(
        a => a.playState === 'finished' || a.playState === 'idle')""")


class Speech:
    """What the live regions said, as the tests read it (``spadesApp.announcer.history``)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.seen = 0

    def all(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = self.page.evaluate(
            "spadesApp.announcer.history.map(e => ({text: e.text, kind: e.kind}))")
        return out

    def new(self) -> list[dict[str, Any]]:
        items = self.all()
        fresh = items[self.seen:]
        self.seen = len(items)
        return fresh

    def wait_for(self, needle: str, timeout: float = 15, kind: str | None = None
                 ) -> dict[str, Any]:
        """The first new announcement containing ``needle`` (case-insensitive)."""
        end = time.time() + timeout
        pending: list[dict[str, Any]] = []
        while time.time() < end:
            items = self.all()
            pending = items[self.seen:]
            for i, item in enumerate(pending):
                if needle.lower() in item["text"].lower() and (kind is None or item["kind"] == kind):
                    self.seen += i + 1  # later announcements stay for the next wait
                    return item
            time.sleep(0.05)
        raise AssertionError(f"never announced: {needle!r}; said: "
                             f"{[p['text'] for p in pending][-12:]}")

    def wait_for_match_over(self, timeout: float = 60) -> dict[str, Any]:
        """The announcement of the match's end (who won, or a draw)."""
        end = time.time() + timeout
        while time.time() < end:
            items = self.all()
            for i, item in enumerate(items[self.seen:]):
                if MATCH_OVER.search(item["text"]):
                    self.seen += i + 1
                    return item
            time.sleep(0.05)
        raise AssertionError("the end of the match was never announced")


MATCH_OVER = re.compile(r"\bthe match with [-−]?\d+ points|\bthe match is a draw", re.I)


def start_quick_match(page: Any, name: str, profile: str = "game93", one_hand: bool = True
                      ) -> None:
    """Fill the "Play against CPUs now" form with the keyboard and submit it."""
    page.focus("#quick-name")
    page.keyboard.press("Control+A")
    page.keyboard.type(name)
    page.keyboard.press("Tab")  # rules
    page.select_option("#quick-profile", profile)
    if one_hand:
        page.check("input[name=length][value=one]")
    page.focus("form.quick button[type=submit]")
    page.keyboard.press("Enter")
    try:
        page.wait_for_selector("#hand", timeout=15000, state="attached")
    except Exception as exc:
        raise AssertionError("the table did not open: " + page.evaluate(
            "location.hash + ' | ' + document.querySelector('main').innerText.slice(0, 400)")
            + f" | errors {getattr(page, 'errors', [])}") from exc


def my_turn_key(page: Any) -> Any:
    return page.evaluate("spadesApp.table && spadesApp.table.turnKey")


def wait_my_turn_or_over(page: Any, timeout: float = 30000) -> str:
    page.wait_for_function(
        "() => { const t = spadesApp.table; if (!t || !t.view) return false;"
        " return t.status === 'finished' || t.view.phase === 'over' || t.turnKey !== null; }",
        timeout=timeout)
    t = page.evaluate("(() => { const t = spadesApp.table;"
                      " return t.status === 'finished' || t.view.phase === 'over' ? 'over'"
                      " : t.view.phase; })()")
    return str(t)


def wait_turn_passed(page: Any, key: Any, timeout: float = 15000) -> None:
    page.wait_for_function("k => spadesApp.table.turnKey !== k", arg=key, timeout=timeout)


HINTS = """(() => { if (window.__hints === undefined) { window.__hints = 0;
  spadesApp.onQueued((t) => { if (t.startsWith('Hint')) window.__hints++; }); }
  return window.__hints; })()"""


def press_hint(page: Any) -> None:
    """I: the hint (the server's, which answers over the socket, or the page's own); wait
    until it has been given."""
    n = page.evaluate(HINTS)
    page.keyboard.press("i")
    page.wait_for_function(f"n => {HINTS} > n", arg=n, timeout=8000)


def bid_with_keyboard(page: Any) -> str:
    """B focuses the bid, I (hint) chooses one, Tab to Confirm, Enter. Returns the bid label."""
    page.keyboard.press("b")
    press_hint(page)
    try:
        page.wait_for_selector("input[name=bid]:checked", state="attached", timeout=3000)
    except Exception as exc:
        raise AssertionError("the hint chose no bid: " + str(page.evaluate(
            "[spadesApp.announcer.said.slice(-6), spadesApp.table.bidDraft,"
            " spadesApp.table.view.legal_actions, document.getElementById('bid-panel').dataset.key]"))
        ) from exc
    bid = page.evaluate("document.querySelector('input[name=bid]:checked').value")
    key = page.evaluate("document.getElementById('bid-panel').dataset.key")
    page.keyboard.press("b")
    page.keyboard.press("Tab")
    at = page.evaluate("""[document.activeElement.id, document.activeElement.tagName,
      document.getElementById('bid-panel').dataset.key, spadesApp.announcer.said.slice(-6),
      [...document.querySelectorAll('dialog[open]')].map((d) => d.id)]""")
    assert at[0] == "bid-confirm", f"Tab from bid {bid} (panel {key}) went to {at}"
    page.keyboard.press("Enter")
    return str(bid)


def walk_to_card(page: Any, ending: str) -> bool:
    """J focuses the hand; Home, then arrows walk to the first card whose label ends with
    ``ending`` (", playable", "not playable"). False when no card has it."""
    page.keyboard.press("j")
    page.keyboard.press("Home")
    for _ in range(20):
        label = page.evaluate(ACTIVE_LABEL)
        if label and label.endswith(ending):
            return True
        page.keyboard.press("ArrowRight")
    return False


def play_with_keyboard(page: Any) -> str:
    """J focuses the hand; arrows walk to the first playable card; Enter plays it."""
    if not walk_to_card(page, ", playable"):
        raise AssertionError("no playable card found with the arrow keys")
    card = page.evaluate("spadesApp.table.selected")
    page.keyboard.press("Enter")
    return str(card)


def wait_table_opened(page: Any, wait: Callable[[], object]) -> None:
    """Run ``wait`` (for the new table to show); if it fails, say why the create form did
    not open it (its error: a name an account of another test took, ...)."""
    try:
        wait()
    except Exception as exc:
        raise AssertionError("the table did not open: " + page.evaluate(
            "location.hash + ' | ' + document.querySelector('#create-error').textContent")
            + f" | errors {getattr(page, 'errors', [])}") from exc


def create_cpu_table(page: Any, server: str, name: str, profile: str = "race400",
                     players: int = 4, teams: str = "", timer: int | None = None,
                     table_name: str | None = None, first_dealer: int | None = None) -> None:
    """Fill the "Create a table" form (every option) and press "Create and play against CPUs
    now"; wait for the table to open."""
    page.goto(server + "#/create")
    page.wait_for_selector("#c-profile")
    page.fill("#c-your-name", name)
    page.fill("#c-name", table_name if table_name is not None else f"{name}'s table")
    page.select_option("#c-profile", profile)
    if page.is_visible("#c-players"):
        page.select_option("#c-players", str(players))
    if teams and page.is_visible("#c-teams"):
        page.select_option("#c-teams", teams)
    if first_dealer is not None:
        page.select_option("#c-first_dealer", str(first_dealer))
    if timer is not None:
        page.check("#c-timer-on")
        page.fill("#c-turn_timer", str(timer))
    page.click("#c-cpus")
    page.mouse.move(0, 0)  # no card raised by a resting pointer in the screenshots
    wait_table_opened(page, lambda: page.wait_for_function(
        "spadesApp.table && spadesApp.table.view", timeout=15000))


def create_private_table(page: Any, server: str, name: str, table_name: str,
                         profile: str, timer: int | None = None, *, one_hand: bool = False,
                         target: int | None = None, cpu: str | None = None,
                         grace: int | None = None, dealer: int | None = None) -> str:
    """Fill the "Create a table" form for a private table of people (with a turn timer of
    ``timer`` seconds, a one-hand match, a target score, a CPU strength, the seconds a
    dropped player's seat waits or the first dealer's place, if given) and create it; wait
    for the waiting room's invitation. Returns the invitation code."""
    page.goto(server + "#/create")
    page.fill("#c-your-name", name)
    page.fill("#c-name", table_name)
    page.select_option("#c-profile", profile)
    page.check("#c-private")
    if timer is not None:
        page.check("#c-timer-on")
        page.fill("#c-turn_timer", str(timer))
    if one_hand:
        page.check("#c-one_hand")
    if target is not None:
        page.fill("#c-target", str(target))
    if cpu is not None:
        page.wait_for_selector("select#c-cpu")  # put in once the profiles are known
        page.select_option("#c-cpu", cpu)
    if grace is not None:
        page.fill("#c-grace_seconds", str(grace))
    if dealer is not None:
        page.select_option("#c-first_dealer", str(dealer))
    page.click("text=Create the table")
    wait_table_opened(page, lambda: page.wait_for_selector(".invite"))
    return str(page.text_content(".invite")).strip()


def friends_at_table(new_page: Any, server: str, owner: str, friend: str, table_name: str,
                     profile: str = "game93", timer: int | None = None, *, start: bool = True,
                     **options: Any) -> tuple[Any, Any, str]:
    """``owner``'s private table (``timer`` and ``options`` as :func:`create_private_table`
    takes them), ``friend`` seated by its invitation, CPUs in the other places; when
    ``start``, the owner starts it and her page waits for the bidding. Their two pages and
    the invitation code."""
    olga = new_page()
    code = create_private_table(olga, server, owner, table_name, profile, timer, **options)
    bea = new_page()
    join_by_invite(olga, bea, server, code, friend)
    if start:
        olga.click("text=Start the match")
        olga.wait_for_function("spadesApp.table.view && spadesApp.table.view.phase === 'bid'",
                               timeout=15000)
    return olga, bea, code


def join_by_invite(owner: Any, guest: Any, server: str, code: str, name: str) -> None:
    """``guest`` (a page) joins the owner's table by invitation ``code`` under ``name``, and
    the owner's waiting room shows them seated."""
    guest.goto(server + f"#/join/{code}")
    guest.fill("#invite-name", name)
    guest.click("form.panel button[type=submit]")
    guest.wait_for_selector("#seat-list")
    owner.wait_for_function(
        f"[...document.querySelectorAll('.seat-who')].some(e => e.textContent === '{name}')")


def play_to_mid_trick(page: Any, min_cards: int = 2) -> None:
    """Bid with the hint and play hinted cards until it is our turn with ``min_cards`` on the
    trick (or as many as there can be before us)."""
    for _ in range(30):
        state = wait_my_turn_or_over(page)
        if state == "over":
            return
        if state == "play" and page.evaluate("spadesApp.table.view.trick.length") >= min_cards:
            return
        take_hinted_turn(page, state)


def take_hinted_turn(page: Any, state: str) -> None:
    """Act on our turn (``state`` "bid" or "play") by keyboard: the suggested bid, or the
    hint (I), then Enter on the hand; wait until the turn has passed."""
    key = my_turn_key(page)
    if state == "bid":
        bid_with_keyboard(page)
    else:
        press_hint(page)
        page.keyboard.press("j")
        page.keyboard.press("Enter")
    wait_turn_passed(page, key)


def play_hinted_to_end(page: Any, turns: int = 20) -> None:
    """Take our turns with the hint until the match is over (at most ``turns`` of them)."""
    for _ in range(turns):
        state = wait_my_turn_or_over(page)
        if state == "over":
            return
        take_hinted_turn(page, state)


def open_bid_box(page: Any) -> None:
    """J, Home: the Bid card; Enter opens its box."""
    page.keyboard.press("j")
    page.keyboard.press("Home")
    page.wait_for_function("document.getElementById('hand').getAttribute('aria-activedescendant')"
                           " === 'card-BID'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#bid-dialog[open]")


def tab_to(page: Any, element_id: str, presses: int = 15) -> None:
    """Press Tab until the element ``element_id`` has the focus (at most ``presses``)."""
    for _ in range(presses):
        if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == element_id


def continue_upload(page: Any, server: str, name: str, path: Any, seat: int) -> None:
    """On the statistics page, ``name`` uploads the record at ``path`` to continue it at
    ``seat``; the new table opens."""
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-name")
    page.fill("#rec-name", name)
    page.set_input_files("#rec-file", str(path))
    page.check("input[name=mode][value=continue]")
    page.select_option("#rec-seat", str(seat))
    page.click("form[aria-labelledby=rec-title] button[type=submit]")
    # the table's route, or the form's refusal in words (e.g. a name another test registered)
    page.wait_for_function("location.hash.startsWith('#/table/')"
                           " || document.getElementById('rec-error').textContent !== ''")
    refused = page.text_content("#rec-error") if page.is_visible("#rec-error") else ""
    assert not refused, f"{name}'s upload was refused: {refused}"


def finish_continued(page: Any, server: str, name: str, record: dict[str, Any],
                     folder: Path) -> Speech:
    """``name`` continues ``record`` at seat 0, cut before its last trick (written to
    ``folder``), and plays that trick by hints: the match ends. What the page said."""
    last = record["hands"][-1]
    cut_record = dict(record, hands=[*record["hands"][:-1], dict(last, plays=last["plays"][:-4])])
    cut = folder / "cut.json"
    cut.write_text(json.dumps(cut_record), encoding="utf-8")
    speech = Speech(page)
    continue_upload(page, server, name, cut, seat=0)
    page.wait_for_function("spadesApp.table && spadesApp.table.view")
    play_hinted_to_end(page)
    speech.wait_for_match_over()
    return speech


@contextmanager
def browser_reopened(browser: Any, state: Any, server: str, table_name: str) -> Iterator[Any]:
    """The browser opened again from a closed one's saved `state` (its cookies and storage), back
    at `table_name` by its "Return to" link and the keyboard; the page's errors are kept in
    `page.errors`, and the browser is closed again at the end."""
    ctx = browser.new_context(storage_state=state, bypass_csp=True, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(server)
        page.get_by_role("link", name=f"Return to {table_name}").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("spadesApp.table && spadesApp.table.view")
        yield page
    finally:
        ctx.close()


# the text of an element as a screen reader reads it in browse mode: aria-hidden left out,
# the visually hidden words in
SPOKEN = """(el) => {
  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return n.textContent;
    if (n.nodeType !== Node.ELEMENT_NODE || n.getAttribute('aria-hidden') === 'true') return '';
    return [...n.childNodes].map(walk).join('');
  };
  return walk(el).replace(/\\s+/g, ' ').trim();
}"""


def refuse_between(page: Any, refuse: dict[str, bool],
                   heard: Callable[[dict[str, Any]], None] | None = None,
                   told: Callable[[dict[str, Any]], None] | None = None) -> list[Any]:
    """Stand between the page and the server (Playwright's ``route_web_socket``), as a server
    of another version, or something on the way that rewrites frames, could: the page's next
    message of a type set true in ``refuse`` is answered with an ``error`` without a reason
    (and not sent on; the flag goes back to false). ``heard`` sees each of the page's
    messages, ``told`` each of the server's. The page is reloaded (:func:`route_socket`).
    Returns the routed sockets (the latest last)."""
    sockets: list[Any] = []

    def between(ws: Any) -> None:
        server = ws.connect_to_server()
        sockets.append(ws)

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if heard is not None:
                heard(data)
            kind = data.get("type")
            if refuse.get(kind):
                refuse[kind] = False
                ws.send(json.dumps({"type": "error", "ref": data.get("ref"),
                                    "code": "illegal", "message": ""}))
                return
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if told is not None:
                told(json.loads(message))
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    route_socket(page, between)
    page.wait_for_selector("#quick-name")
    return sockets


def route_socket(page: Any, between: Callable[[Any], None]) -> None:
    """Send the page's socket through ``between`` (Playwright's ``route_web_socket``) and
    reload the page, since the socket opened before the route is not routed."""
    page.route_web_socket(re.compile(r"/ws$"), between)
    page.reload()


def a_first_bid_refused_bare(page: Any, name: str, refuse: dict[str, bool],
                             heard: Callable[[dict[str, Any]], None] | None = None,
                             told: Callable[[dict[str, Any]], None] | None = None
                             ) -> tuple[Speech, list[Any], str]:
    """``name`` starts a one-hand game93 match behind :func:`refuse_between`, and her first
    bid is answered with an ``error`` without a reason: what the page says of it (what was
    refused, that the table was fetched again, that it is still her turn) is checked here.
    What the page said from the start, the routed sockets and the bid (as its page names it:
    "Nil" for nil)."""
    sockets = refuse_between(page, refuse, heard, told)
    speech = Speech(page)
    start_quick_match(page, name, profile="game93", one_hand=True)
    assert sockets, "the page's WebSocket was not routed"
    assert wait_my_turn_or_over(page) == "bid"
    refuse["act"] = True
    bid = bid_with_keyboard(page)
    said = speech.wait_for("Refused:")["text"]
    shown = "Nil" if bid == "nil" else bid
    assert said == (f"Refused: your bid of {shown} was not taken, and the server gave no "
                    "reason. The table was fetched again. It is still your turn to bid: "
                    "bid again."), said
    return speech, sockets, shown
