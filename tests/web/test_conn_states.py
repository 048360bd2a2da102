"""Connection states at the table (audit of a shared table, 2026-12-05).

- A second tab on one's seat: the first says so and offers "Play here"; when the second
  closes, the first plays on by itself (before: frozen, and the player was penalised).
- Offline: the status line says so and the play/bid controls are off, with the reason; no
  timer warning from the old deadline; on return, a catch-up of where the game stands.
- The hand's summary fits a phone (every cell and its button in the window).
- The invite code on the home page uses the name filled in above it; J brings the felt into
  view.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.conftest import start_serve
from tests.web.helpers import (
    Speech,
    bid_with_keyboard,
    create_cpu_table,
    create_private_table,
    play_hinted_to_end,
    take_hinted_turn,
    wait_my_turn_or_over,
)

KEEP = json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 0})

BOX_SHOWN = """() => { const b = document.querySelector('#replaced-box');
  return !!b && b.offsetParent !== null && document.activeElement
    && document.activeElement.id === 'play-here'; }"""


def test_a_second_tab_never_leaves_the_first_stuck(new_page: Any, server: str,
                                                   artifacts: Any) -> None:
    first = new_page()
    create_cpu_table(first, server, "Cara", profile="game93", timer=60)
    tid = first.evaluate("spadesApp.table.id")
    said = Speech(first)
    said.seen = len(said.all())
    second = first.context.new_page()
    second.goto(server + f"#/table/{tid}")
    second.wait_for_function("spadesApp.table && spadesApp.table.view")
    # the first tab says it, visibly and aloud, and offers to play here (focused)
    first.wait_for_function(BOX_SHOWN)
    assert "This table is open in another tab" in first.text_content("#replaced-box")
    said.wait_for("open in another tab")
    assert first.get_attribute("#play-btn", "aria-disabled") == "true"
    first.screenshot(path=str(artifacts / "open-in-another-tab.png"))
    # Play here: the seat comes back to the first tab, the second says it now
    first.click("#play-here")
    first.wait_for_function("() => !document.querySelector('#replaced-box')"
                            " && spadesApp.table.isPlayer")
    second.wait_for_function(BOX_SHOWN)
    # the second takes it again and closes: the first plays on without a click
    second.click("#play-here")
    first.wait_for_function(BOX_SHOWN)
    second.close()
    first.wait_for_function("() => !document.querySelector('#replaced-box')")
    said.wait_for("in this tab again")
    assert not first.errors, first.errors


def _to_my_play_turn(page: Any) -> None:
    for _ in range(10):
        state = wait_my_turn_or_over(page)
        if state == "play":
            return
        assert state == "bid", state
        key = page.evaluate("spadesApp.table.turnKey")
        bid_with_keyboard(page)
        page.wait_for_function("k => spadesApp.table.turnKey !== k", arg=key)
    raise AssertionError("no turn to play came")


def test_offline_at_the_table_is_shown_and_the_controls_wait(
        new_page: Any, server: str, artifacts: Any) -> None:
    page = new_page()
    create_cpu_table(page, server, "Fay", profile="game93", timer=60)
    _to_my_play_turn(page)
    said = Speech(page)
    said.seen = len(said.all())
    page.context.set_offline(True)
    page.evaluate("spadesApp.conn.ws && spadesApp.conn.ws.close()")
    page.wait_for_function("() => /Offline/.test(document.querySelector('#status-line').textContent)")
    # in sight where the table is (the top bar's indicator is scrolled away)
    assert page.evaluate("""(() => { const r = document.querySelector('#status-line')
      .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()""")
    btn = page.locator("#play-btn")
    assert btn.get_attribute("aria-disabled") == "true"
    assert "Offline" in (btn.text_content() or "")
    # the old deadline does not warn while offline
    page.evaluate("""() => { const t = spadesApp.table; t.turn = { ...t.turn,
      deadline: Date.now() / 1000 + 4 }; t.warned = null; t.tick(); }""")
    assert not [e for e in said.new() if re.search(r"\d+ seconds? left to", e["text"])]
    page.keyboard.press("y")  # nor a count from it on demand
    assert "known again" in said.wait_for("Offline")["text"]
    page.screenshot(path=str(artifacts / "offline-at-table.png"))
    # a card played while offline is refused with the reason, not lost
    page.evaluate("() => spadesApp.table.play(spadesApp.table.legalCards()[0])")
    said.wait_for("offline")
    page.context.set_offline(False)
    said.wait_for("Reconnected")
    back = said.wait_for("Hand 1")
    assert "Your turn" in back["text"] and "Scores" in back["text"], back
    page.wait_for_function("() => !/Offline/.test(document.querySelector('#status-line').textContent)")
    assert btn.get_attribute("aria-disabled") != "true" or "Offline" not in (btn.text_content() or "")
    assert not page.errors, page.errors


def test_the_catch_up_names_the_cards_played_for_you(new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Gil", profile="game93")
    _to_my_play_turn(page)
    # as if two cards (not in our hand now) had been played for us while we were away
    gone = page.evaluate("""() => { const hand = spadesApp.table.view.hand;
      const deck = [];
      for (const s of 'SHDC') for (const r of 'AKQJT98765432') deck.push(r + s);
      return deck.filter((c) => !hand.includes(c)).slice(0, 2); }""")
    text = page.evaluate("""(gone) => { const t = spadesApp.table;
      const before = { view: { ...t.view, hand: [...t.view.hand, ...gone] }, score: t.score };
      return t.catchUpText(before); }""", gone)
    names = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    for card in gone:
        name = f"{names.get(card[0], card[0])} of {suits[card[1]]}"
        if card[0] in names:
            assert name in text.lower(), (name, text)
    assert "played for you" in text.lower(), text
    assert "Hand 1" in text and "Scores" in text, text


FITS = """() => { const b = document.querySelector('.hand-summary');
  const out = [];
  for (const el of b.querySelectorAll('th, td, button')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const box = b.getBoundingClientRect();
    if (r.left < Math.max(0, box.left) - 0.5 || r.right > Math.min(innerWidth, box.right) + 0.5
        || r.right > innerWidth + 0.5 || r.left < -0.5)
      out.push(`${el.tagName} ${el.textContent.slice(0, 20)} ${Math.round(r.left)}-${Math.round(r.right)}`);
  }
  return out; }"""


@pytest.mark.parametrize("size", [(360, 740), (390, 844)])
def test_the_hand_summary_fits_a_phone(new_page: Any, server: str, artifacts: Any,
                                       size: tuple[int, int]) -> None:
    w, hgt = size
    page = new_page(viewport={"width": w, "height": hgt}, settings=KEEP, has_touch=True)
    page.fill("#quick-name", f"Gus{w}")
    page.check("input[name=length][value=one]")
    page.click("form.quick button[type=submit]")
    page.wait_for_selector("#hand", state="attached")
    play_hinted_to_end(page)
    page.wait_for_selector(".hand-summary")
    assert page.evaluate(FITS) == []
    # the whole box is in the window, and its button can be reached and seen
    button = page.locator("#summary-next")
    button.scroll_into_view_if_needed()
    assert page.evaluate("""(() => { const r = document.querySelector('#summary-next')
      .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight
      && r.left >= 0 && r.right <= innerWidth; })()""")
    assert page.evaluate("""(() => { const b = document.querySelector('.hand-summary');
      return b.scrollWidth <= b.clientWidth; })()""")
    # the short column names are read in full
    heads = page.evaluate("[...document.querySelectorAll('.summary-table thead th')]"
                          ".map(th => th.getAttribute('aria-label') || th.textContent)")
    assert "Score" in " ".join(heads) and "Bags" in " ".join(heads), heads
    page.screenshot(path=str(artifacts / f"summary-phone-{w}.png"))
    assert not page.errors, page.errors


def test_join_by_invite_code_uses_the_name_above(new_page: Any, server: str) -> None:
    owner = new_page()
    code = create_private_table(owner, server, "Hal", "Hal's friends", "game93")
    guest = new_page()
    guest.fill("#quick-name", "Ivy")
    guest.fill("#invite", code)
    guest.click("#join-title ~ button[type=submit], form[aria-labelledby=join-title] button")
    guest.wait_for_selector("#seat-list")  # seated at once: no second name form
    owner.wait_for_function(
        "[...document.querySelectorAll('.seat-who')].some(e => e.textContent === 'Ivy')")
    assert not guest.errors, guest.errors


def test_j_brings_the_hand_and_the_felt_into_view(new_page: Any, server: str) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    create_cpu_table(page, server, "Jo", profile="game93")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => document.querySelector('#hand').getBoundingClientRect().top"
                           " > innerHeight || document.querySelector('#hand')"
                           ".getBoundingClientRect().bottom < 0")
    page.keyboard.press("j")
    page.wait_for_function("""() => { const r = document.querySelector('#hand')
      .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }""")
    # and most of the felt with it
    seen = page.evaluate("""(() => { const r = document.querySelector('.felt').getBoundingClientRect();
      return (Math.min(innerHeight, r.bottom) - Math.max(0, r.top)) / r.height; })()""")
    assert seen > 0.5, seen
    assert page.evaluate("document.activeElement.id") == "hand"


def test_after_a_server_restart_the_page_says_where_the_game_stands(
        browser: Any, tmp_path: Any) -> None:
    from tests.services import free_port
    from tests.web.conftest import FAST

    port, db = free_port(), str(tmp_path / "restart.sqlite3")
    url = f"http://127.0.0.1:{port}/"
    with open(tmp_path / "serve.log", "w") as log:
        proc = start_serve(port, db, log)
        ctx = browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True,
                                  reduced_motion="reduce")
        try:
            page = ctx.new_page()
            page.add_init_script(f"localStorage.setItem('spades.settings', {json.dumps(FAST)});")
            page.goto(url)
            page.wait_for_selector("#quick-name")
            create_cpu_table(page, url, "Kim", profile="game93", timer=60)
            _to_my_play_turn(page)
            said = Speech(page)
            said.seen = len(said.all())
            proc.kill()  # as the audit's kill -9
            proc.wait(10)
            page.wait_for_function("() => /Offline/.test(document.querySelector('#status-line')"
                                   ".textContent)")
            assert page.get_attribute("#play-btn", "aria-disabled") == "true"
            proc = start_serve(port, db, log)
            said.wait_for("Reconnected")
            back = said.wait_for("Back at the table")
            assert "Hand 1" in back["text"] and "Scores" in back["text"], back
            # nothing from the old deadline before the table was back
            texts = [e["text"] for e in said.all()]
            i = next(k for k, t in enumerate(texts) if "Back at the table" in t)
            assert not [t for t in texts[:i] if re.search(r"\d+ seconds? left to", t)], texts
            page.wait_for_function("() => !/Offline/.test(document.querySelector('#status-line')"
                                   ".textContent)")
        finally:
            ctx.close()
            proc.terminate()
            proc.wait(10)


def test_a_sign_out_elsewhere_is_told_as_such(new_page: Any, server: str) -> None:
    """Signed out from another window: the page says so (before: "Your session has
    expired", whatever the server's reason was)."""
    import httpx

    page = new_page()
    create_cpu_table(page, server, "Gil", profile="game93")
    said = Speech(page)
    said.seen = len(said.all())
    token = page.evaluate("localStorage.getItem('spades.token')")
    token = json.loads(token) if token and token.startswith('"') else token
    r = httpx.post(server + "api/logout", headers={"Authorization": f"Bearer {token}"},
                   timeout=10)
    assert r.status_code == 200, r.text
    item = said.wait_for("signed out")
    assert "signed out elsewhere" in item["text"], item
    assert "expired" not in item["text"], item
    assert not page.errors, page.errors


TURN_SHOWN = """() => [...document.querySelectorAll('.felt .seat')].filter(
  (el) => el.classList.contains('turn') || el.querySelector('.turn-tag')
    || /\\b(your|their) turn\\b/.test(el.getAttribute('aria-label') || '')).length"""


def test_the_turn_marker_is_not_shown_as_current_while_offline(
        new_page: Any, server: str) -> None:
    """Offline, the seat's turn tag stayed as it was ("your turn", the seconds frozen);
    now it goes until the table's state comes back, and comes back from it."""
    page = new_page()
    create_cpu_table(page, server, "Odile", profile="game93", timer=60)
    _to_my_play_turn(page)
    assert page.evaluate(TURN_SHOWN) == 1
    said = Speech(page)
    said.seen = len(said.all())
    page.context.set_offline(True)
    page.evaluate("spadesApp.conn.ws && spadesApp.conn.ws.close()")
    page.wait_for_function("() => /Offline/.test(document.querySelector('#status-line').textContent)")
    assert page.evaluate(TURN_SHOWN) == 0
    # nor does the status line go on saying whose turn it was ("Your turn: follow hearts")
    line = page.text_content("#status-line") or ""
    assert "turn" not in line.lower(), line
    page.context.set_offline(False)
    said.wait_for("Back at the table")
    page.wait_for_function(f"() => ({TURN_SHOWN})() === 1")
    page.wait_for_function("() => /Your turn/.test(document.querySelector('#status-line').textContent)")
    mine = page.evaluate("""() => { const t = spadesApp.table;
      const el = document.querySelector(`.felt .seat[data-seat="${t.mySeat}"]`);
      return el.classList.contains('turn') && /your turn/.test(el.getAttribute('aria-label')); }""")
    assert mine
    assert not page.errors, page.errors


def _same_person_elsewhere(new_page: Any, server: str, first: Any, tid: str) -> Any:
    """Another tab of the person at ``first`` (a browser context of its own, so that its
    network stays up when the first one's goes), at table ``tid``."""
    token = first.evaluate("localStorage.getItem('spades.token')")
    other = new_page()
    other.evaluate("t => localStorage.setItem('spades.token', t)", token)
    other.goto(server + f"#/table/{tid}")
    other.reload()
    other.wait_for_function("spadesApp.table && spadesApp.table.view && spadesApp.table.isPlayer")
    return other


def _lose_and_regain_network(page: Any, between: Any = None) -> None:
    page.context.set_offline(True)
    page.evaluate("spadesApp.conn.ws && spadesApp.conn.ws.close()")
    page.wait_for_function("spadesApp.conn.status === 'offline'")
    if between is not None:
        between()
    page.context.set_offline(False)


def test_a_replaced_tab_takes_its_state_from_the_server_after_its_own_reconnect(
        new_page: Any, server: str) -> None:
    """A tab replaced by another one, that then lost its own connection, stayed on "Play
    here" after reconnecting even when the other tab had closed meanwhile."""
    first = new_page()
    create_cpu_table(first, server, "Pim", profile="game93")
    tid = first.evaluate("spadesApp.table.id")
    said = Speech(first)
    second = _same_person_elsewhere(new_page, server, first, tid)
    first.wait_for_function(BOX_SHOWN)
    said.seen = len(said.all())
    # its network goes; the other tab closes meanwhile; back online, it has the seat again
    _lose_and_regain_network(first, between=second.close)
    first.wait_for_function("() => !document.querySelector('#replaced-box')"
                            " && spadesApp.table.isPlayer && !spadesApp.table.blocked")
    said.wait_for("in this tab again")
    # another tab takes it again and stays open: after a reconnect the first keeps Play here
    # (said once more, briefly) and the other tab keeps the seat
    third = _same_person_elsewhere(new_page, server, first, tid)
    first.wait_for_function(BOX_SHOWN)
    said.wait_for("open in another tab")
    _lose_and_regain_network(first)
    said.wait_for("Reconnected")
    said.wait_for("still open in another tab")
    assert first.evaluate("spadesApp.table.replaced")
    assert first.is_visible("#replaced-box")
    assert not third.query_selector("#replaced-box")
    assert third.evaluate("spadesApp.table.isPlayer && !spadesApp.table.replaced")
    # the other tab closes: the seat comes to the first without a click
    third.close()
    first.wait_for_function("() => !document.querySelector('#replaced-box')"
                            " && spadesApp.table.isPlayer && !spadesApp.table.blocked")
    assert not first.errors, first.errors


def _catch_up_after(page: Any, play_on: Any) -> str:
    """The catch-up the page would give had it been away from our play turn (now) until
    ``play_on`` has played on (with the hint: as the server would have played for us)."""
    page.evaluate("() => { const t = spadesApp.table;"
                  " window.__away = { view: t.view, score: t.score }; }")
    play_on()
    return str(page.evaluate("spadesApp.table.catchUpText(window.__away)"))


def _words(card: str) -> str:
    names = dict(zip("AKQJT98765432", ["ace", "king", "queen", "jack", "ten", "nine", "eight",
                                        "seven", "six", "five", "four", "three", "two"],
                     strict=True))
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    return f"{names[card[0]]} of {suits[card[1]]}"


def test_the_catch_up_says_a_hand_ended_while_away(new_page: Any, server: str) -> None:
    """The catch-up named the cards played for you only within the same hand; a hand that
    ended meanwhile was "finished and scored", with no word of its points or of the cards
    played for you, and the end of the match came with nothing of the hand."""
    page = new_page()
    create_cpu_table(page, server, "Hedda", profile="game93")
    _to_my_play_turn(page)
    held = page.evaluate("spadesApp.table.view.hand")

    def to_hand_2() -> None:
        for _ in range(30):
            wait_my_turn_or_over(page)
            if page.evaluate("spadesApp.table.view.hand_number") > 1:
                return
            take_hinted_turn(page, page.evaluate("spadesApp.table.view.phase"))
        raise AssertionError("hand 2 never came")

    text = _catch_up_after(page, to_hand_2)
    assert "Hand 1 ended while you were away" in text, text
    points = page.evaluate("spadesApp.table.view.results[0].points")
    for p in points:  # (a negative one with the minus sign)
        assert f"{p} point".replace("-", "−") in text, (points, text)
    for card in held:  # every card held then was played for us before the hand ended
        assert _words(card) in text.lower(), (card, text)
    assert "Hand 2" in text and "Scores" in text, text

    # the last hand of a match: its end, the cards, and who won
    one = new_page()
    one.fill("#quick-name", "Hedwig")
    one.check("input[name=length][value=one]")
    one.click("form.quick button[type=submit]")
    one.wait_for_function("spadesApp.table && spadesApp.table.view")
    _to_my_play_turn(one)
    held = one.evaluate("spadesApp.table.view.hand")
    text = _catch_up_after(one, lambda: play_hinted_to_end(one))
    assert "Hand 1 ended while you were away" in text, text
    for card in held:
        assert _words(card) in text.lower(), (card, text)
    assert "The match is over" in text, text
    assert not page.errors and not one.errors, (page.errors, one.errors)


def test_the_catch_up_names_the_bids_made_for_you_in_every_hand_you_missed(
        new_page: Any, server: str) -> None:
    """Back after hands ended: "Bid and played for you in hand 1" named no bid, the hands
    after the first were not said at all, nor the bid and cards made for you in the hand under
    way, and a hand's negative points had a hyphen ("-58 points")."""
    page = new_page()
    create_cpu_table(page, server, "Bram", profile="game93")
    page.wait_for_function("spadesApp.table.view && spadesApp.table.mySeat !== null")
    said = page.evaluate("""() => {
      const t = spadesApp.table, v = t.view, me = t.mySeat, other = (me + 1) % 4;
      const bids = (b) => [0, 1, 2, 3].map((s) => (s === me ? b : 3));
      const row = (b, pts) => ({ bids: bids(b), points: pts });
      // when you went: your turn to bid in hand 1, two cards held
      const away = { hand_number: 1, phase: "bid", bids: [null, null, null, null],
                     hand: ["AH", "KH"], results: [] };
      const saved = t.view, out = {};
      t.view = { ...v, hand_number: 4, phase: "play", results: [row("nil", [-58, 60]),
        row(4, [40, -30]), row("blind-nil", [200, 50])], bids: bids("nil"),
        plays: [[me, "2C"], [other, "3C"]] };
      out.several = t.awayParts(away);
      t.view = { ...v, hand_number: 2, phase: "bid", results: [row(5, [-58, 60])],
        bids: [null, null, null, null], plays: [] };
      out.one = t.awayParts(away);
      t.view = saved;
      return out;
    }""")
    assert said["several"] == [
        "Hands 1 to 3 ended while you were away.",
        "Bid Nil and played for you in hand 1: ace of hearts and king of hearts.",
        "Bid for you: 4 in hand 2 and Blind Nil in hand 3.",
        "Bid for you in hand 4: Nil.",
        "Played for you in hand 4: two of clubs.",
    ], said
    assert said["one"][0].startswith("Hand 1 ended while you were away: ") and \
        "−58 points" in said["one"][0], said
    assert said["one"][1] == ("Bid 5 and played for you in hand 1: ace of hearts and king of"
                              " hearts."), said
    assert not page.errors, page.errors
