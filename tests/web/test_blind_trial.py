"""A blind player's trial of what was added lately (the score sheet's parts, the rematch's
kept places), by keyboard, reading only what a screen reader gets: the live regions, the
focus and the accessible text (what ``aria-hidden`` hides is not read)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import (
    SPOKEN,
    Speech,
    continue_upload,
    create_cpu_table,
    create_private_table,
    join_by_invite,
    settle,
    start_quick_match,
    tab_to,
    take_hinted_turn,
)
from tests.web.test_idle import IDLE, idle_match, serving_with_idle
from tests.web.test_rematch import play_both_to_end, rematch_room


@pytest.fixture
def idle_server(server: str, tmp_path: Path) -> Iterator[str]:
    """A server of its own whose CPU covers an idle turn after ``IDLE`` seconds."""
    with serving_with_idle(IDLE, tmp_path) as url:
        yield url


def _continue_example(page: Any, server: str, tmp_path: Path, name: str) -> None:
    """Upload the example match's first seven hands to continue it at seat 2 (hand 6 has a
    bag penalty, hand 7 a Nil), and open the table's score sheet with the keyboard."""
    record = json.loads((Path(__file__).resolve().parents[2] / "spades" / "data"
                         / "example-match.json").read_text(encoding="utf-8"))
    path = tmp_path / "seven.json"
    path.write_text(json.dumps({**record, "hands": record["hands"][:7]}), encoding="utf-8")
    continue_upload(page, server, name, path, 2)
    page.wait_for_function("spadesApp.table && spadesApp.table.view"
                           " && spadesApp.table.view.hand_number === 8", timeout=15000)


def test_the_score_sheet_reads_as_sentences(new_page: Any, server: str, tmp_path: Path,
                                            artifacts: Path) -> None:
    """Read cell by cell, a hand of the sheet said "You 4 took 5; Nora 2 took 3 +61 = 261
    4 bags": no "bid", the points glued to the tricks, "equals", the bags glued to the total.
    And O read the points alone, without who bid and took what, which the sheet shows."""
    page = new_page()
    _continue_example(page, server, tmp_path, "Blindsheet")
    page.focus("#sheet-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sheet-dialog[open] #sheet-body .sheet-table")
    cells = page.locator("#sheet-body tbody tr").nth(5).locator("td")
    for i in range(cells.count()):
        said = cells.nth(i).evaluate(SPOKEN)
        assert re.fullmatch(
            r"(\w[\w ()]* bid (Nil|Blind Nil|\d+), took \d+; )*\w[\w ()]* bid (Nil|Blind Nil|\d+), "
            r"took \d+: [+−]\d+( \([^)]*\))?, total −?\d+, \d+ bags?", said), said
    spoken = " ".join(cells.nth(i).evaluate(SPOKEN) for i in range(cells.count()))
    assert "(contract +60, overtricks +3, bag penalty −100), total" in spoken, spoken
    # on the screen: unchanged lines ("= 261" under the points)
    assert re.search(r"\n= −?\d+\n", cells.first.inner_text()), cells.first.inner_text()
    said = _shot_then_o(page, artifacts / "blind-trial-sheet.png")
    assert ("Hand 1: Nora (CPU) and you plus 81, total 81, 1 bag: Nora bid 4 and took "
            "5, you bid 4 and took 4; Emil (CPU) and Walt (CPU) plus 31, total 31, 1 bag: Emil "
            "bid 2 and took 2, Walt bid 1 and took 2.") in said, said
    assert "minus 37 (contract plus 60, overtricks plus 3, bag penalty minus 100)" in said
    assert not page.errors, page.errors


def _shot_then_o(page: Any, shot: Path) -> str:
    """A picture of the open score sheet into ``shot``; then, the sheet closed, what O says
    (after J, which goes to the table)."""
    settle(page)
    page.locator("#sheet-dialog").screenshot(path=str(shot))
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet-dialog", state="hidden")
    heard = Speech(page)
    heard.new()
    page.keyboard.press("j")
    page.keyboard.press("o")
    text: str = heard.wait_for("Score sheet.")["text"]
    return text


def test_a_cpu_is_said_to_be_one_once_in_the_score_sheet(new_page: Any, server: str,
                                                         tmp_path: Path, artifacts: Path) -> None:
    """A continued record's CPUs are "Nora (CPU)": the sheet said "Nora (CPU) bid 4, took 5"
    in every row, and O "Nora (CPU) and you ...: Nora (CPU) bid 4 and took 5" in every hand,
    twice. Now the sheet's head says it ("Nora (CPU) and you"), its rows "Nora"; O says it at
    the first hand, as the head does, then "Nora"."""
    page = new_page()
    _continue_example(page, server, tmp_path, "Blindcpu")
    page.focus("#sheet-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sheet-dialog[open] #sheet-body .sheet-table")
    head = [th.evaluate(SPOKEN) for th in page.locator("#sheet-body thead th").all()]
    assert head == ["Hand", "Nora (CPU) and you", "Emil (CPU) and Walt (CPU)"], head
    rows = page.locator("#sheet-body tbody")
    spoken, shown = rows.evaluate(SPOKEN), rows.inner_text()
    for text in (spoken, shown):  # what is read and what is seen, the same names
        assert "(CPU)" not in text, text
    assert "Nora bid 4, took 5; You bid 4, took 4: +81" in spoken, spoken
    said = _shot_then_o(page, artifacts / "blind-trial-sheet-cpu.png")
    for cpu in ("Nora", "Emil", "Walt"):
        assert said.count(f"{cpu} (CPU)") == 1, said
    assert said.startswith("Score sheet. Hand 1: Nora (CPU) and you plus 81"), said
    assert "Hand 2: Nora and you plus 42" in said, said
    assert not page.errors, page.errors


def test_the_owner_hears_the_places_kept_at_a_rematch(new_page: Any, server: str) -> None:
    """The owner's Rematch opened the new waiting room saying only "You sit South at Club.
    The match has not started yet.": that the friend's place waits for him was only in the
    seat list (and R)."""
    olga = new_page()
    code = create_private_table(olga, server, "Olgablind", "Blind club", "game93",
                                one_hand=True)
    fred = new_page()
    join_by_invite(olga, fred, server, code, "Fredblind")
    olga.focus("text=Start the match")
    olga.keyboard.press("Enter")
    for page in (olga, fred):
        page.wait_for_function("spadesApp.table.view && spadesApp.table.view.phase === 'bid'",
                               timeout=15000)
    play_both_to_end([olga, fred])
    olga.wait_for_selector("#match-over[open] #over-rematch", timeout=30000)
    heard = Speech(olga)
    heard.new()
    olga.focus("#over-rematch")
    olga.keyboard.press("Enter")
    said = heard.wait_for("You sit South at Blind club")["text"]
    assert ("The match has not started yet. Rematch: a place is kept for the players of the "
            "match before: North for Fredblind.") in said, said
    assert not olga.errors and not fred.errors, (olga.errors, fred.errors)


def _to_the_first_summary(new_page: Any, name: str, one_hand: bool = False
                          ) -> tuple[Any, Speech]:
    """``name`` plays hand 1 of a game93 match (of one hand, or to the target) by the hints,
    with the hand's summary kept until put away (Settings: 0 seconds), until that summary is
    up: the page and what it said from the start."""
    page = new_page(settings=json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 0}))
    start_quick_match(page, name, profile="game93", one_hand=one_hand)
    heard = Speech(page)
    for _ in range(20):
        page.wait_for_function("spadesApp.table.summaryShown()"
                               " || (spadesApp.table.view && spadesApp.table.turnKey !== null)",
                               timeout=30000)
        if page.evaluate("spadesApp.table.summaryShown()"):
            break
        take_hinted_turn(page, page.evaluate("spadesApp.table.view.phase"))
    return page, heard


def test_w_behind_the_summary_says_the_next_hand_is_dealt(new_page: Any) -> None:
    """With the hand's summary kept until put away (Settings: 0 seconds), the next hand's
    deal and bids are said as they come; W then said "Waiting for the next deal.", against
    what had just been heard. It says the next hand is dealt and how to go on to it."""
    page, heard = _to_the_first_summary(new_page, "Blindwait")
    heard.wait_for("Hand 2:")  # the next deal is said as it comes
    page.wait_for_function("spadesApp.table.view.current_player < 0")
    page.keyboard.press("j")
    heard.new()
    page.keyboard.press("w")
    # (not any line with "hand" in it: the next hand's news goes on being said meanwhile)
    said = heard.wait_for("summary is still up")["text"]
    assert said == ("The next hand is dealt: the last hand's summary is still up. Escape puts "
                    "it away and goes on to the next hand."), said
    page.keyboard.press("Escape")
    page.wait_for_function("!spadesApp.table.summaryShown()"
                           " && spadesApp.table.view.hand_number === 2")
    assert not page.errors, page.errors


def test_let_back_in_says_where_the_button_to_sit_is(new_page: Any, server: str) -> None:
    """Removed, watching, and let back in: Bob heard "Ann let you back to the table: you may
    sit down again", and then had to hunt the page for how (the focus is not moved)."""
    ann, bob = new_page(), new_page()
    code = create_private_table(ann, server, "Annblind", "Blind den", "cardems")
    join_by_invite(ann, bob, server, code, "Bobblind")
    told = Speech(bob)
    ann.get_by_role("button", name="Remove Bobblind").click()
    told.wait_for("Annblind removed you from your seat; you are watching the table")
    back = ann.get_by_role("button", name="Let Bobblind back in")
    back.focus()
    ann.keyboard.press("Enter")
    told.wait_for("Annblind let you back to the table: you may sit down again")
    told.wait_for("The Sit down at the table button is next to Stop watching.")
    bob.get_by_role("button", name="Sit down at the table").wait_for()
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


def test_no_your_turn_while_a_cpu_plays_for_you(new_page: Any, idle_server: str) -> None:
    """Idle, covered by a CPU: the page said "Your turn to lead. Spades are not broken. 11
    cards playable." at each of the turns the CPU then played for her, as if she should act."""
    page = new_page()
    with idle_match(page, idle_server, "Idlblind", "Idle blind"):
        heard = Speech(page)
        heard.wait_for("you have not played for 2 seconds", timeout=60)
        for _ in range(3):  # three moves made for her
            heard.wait_for("for you.", timeout=30)
        said = [s["text"] for s in heard.all()]
        start = next(i for i, t in enumerate(said) if "you have not played" in t.lower())
        assert not [t for t in said[start:] if t.startswith("Your turn")], said[start:]
        # back: where the game stands, her turn among it when it is hers
        page.wait_for_function("document.activeElement && document.activeElement.id"
                               " === 'play-again'")
        page.keyboard.press("Enter")
        heard.wait_for("you are back", timeout=15)
        heard.wait_for("Hand", timeout=15)
    assert not page.errors, page.errors


def test_back_from_idle_behind_the_summary_says_where_the_game_stands(
        new_page: Any, idle_server: str) -> None:
    """Take my seat back pressed while the hand's summary held the felt: "You are back." and
    then nothing of the hand that ended while she was away, nor where the game stood (the
    `returned` event waited behind the summary, and the snapshot that followed dropped it)."""
    page = new_page(settings=json.dumps({"pace": 0, "volume": 0.4, "summarySeconds": 0}))
    with idle_match(page, idle_server, "Idlsum", "Idle summary"):
        heard = Speech(page)
        heard.wait_for("you have not played for 2 seconds", timeout=60)
        heard.wait_for("Hand 1 scored", timeout=60)  # played for her to the end
        page.wait_for_function("spadesApp.table.summaryShown()")
        page.wait_for_function("document.activeElement && document.activeElement.id"
                               " === 'play-again'")
        page.keyboard.press("Enter")
        heard.wait_for("You are back", timeout=15)
        said = heard.wait_for("while you were away", timeout=15)["text"]
        assert said.startswith("Hand 1 ended while you were away"), said
        assert "Scores" in said, said
        # the join is answered with the table first, then its `returned` event ("you are
        # back"): once that has come too, "You are back" was said once, before where the
        # game stands (not after it, nor twice)
        page.wait_for_function("spadesApp.table.backSaidAt !== null"
                               " && spadesApp.table.seq > spadesApp.table.backSaidAt")
        backs = [e["text"] for e in heard.all() if e["text"].startswith("You are back")]
        assert backs == ["You are back."], backs
    assert not page.errors, page.errors


def test_the_friend_back_at_the_rematch_hears_he_is_back_at_his_place(
        new_page: Any, server: str) -> None:
    """Fred pressed Join the rematch and heard "You sit South at Club evening. The match has
    not started yet.": nothing said that this was his place of the match before, kept for
    him (his partner the same). Now he is told, after where he sits."""
    olga, fred, fred_seat = rematch_room(new_page, server, "Olgaback", "Fredback")
    new = olga.evaluate("spadesApp.table.id")
    heard = Speech(fred)
    heard.wait_for("Olgaback started a rematch")
    fred.wait_for_selector("#match-over[open] #rematch-join")
    tab_to(fred, "rematch-join", 12)
    fred.keyboard.press("Enter")
    fred.wait_for_function("n => spadesApp.table && spadesApp.table.id === n"
                           " && spadesApp.table.isPlayer", arg=new, timeout=15000)
    assert fred.evaluate("spadesApp.table.mySeat") == fred_seat
    sat = heard.wait_for("You sit South at Club evening")
    back = heard.wait_for("back at your place")  # (after where he sits)
    assert back["text"] == ("You are back at your place of the match before, across from "
                            "your partner Olgaback."), back
    assert sat["text"].startswith("You sit South at Club evening."), sat
    # the owner hears him sit down, as before
    Speech(olga).wait_for("Fredback sits down at North")
    assert not olga.errors and not fred.errors, (olga.errors, fred.errors)


def _wait_bid_turn(page: Any) -> None:
    page.wait_for_function("spadesApp.table.myTurn() && spadesApp.table.view.phase === 'bid'"
                           " && !!document.querySelector('#bid-confirm')", timeout=30000)


def test_the_hint_moves_the_focus_to_the_bid_it_chose(new_page: Any) -> None:
    """B, then I: the hint checked its bid ("The bid is chosen for you: confirm it to bid")
    but the focus stayed on the radio button it was on (unchecked), from which Tab went to
    the chosen bid, not to Confirm bid: Enter there did nothing. The focus now follows the
    hint to the bid it chose, and Tab goes on to Confirm bid."""
    page = new_page()
    start_quick_match(page, "Blindhint", profile="game93")
    _wait_bid_turn(page)
    heard = Speech(page)
    page.keyboard.press("i")  # the hint's bid, learned (with the focus in the hand)
    heard.wait_for("Hint: bid")
    hinted = page.evaluate("document.querySelector('input[name=bid]:checked').id")
    page.keyboard.press("b")  # the chosen bid
    assert page.evaluate("document.activeElement.id") == hinted
    page.keyboard.press("ArrowRight")  # another bid chosen (and focused) by hand
    other = page.evaluate("document.activeElement.id")
    assert other != hinted and page.evaluate("document.activeElement.checked")
    page.keyboard.press("i")  # the hint again, with the focus on that other bid
    heard.wait_for("Hint: bid")
    page.wait_for_function("id => document.getElementById(id).checked", arg=hinted)
    said = page.evaluate("document.activeElement.id")
    assert said == hinted, f"the focus stayed on {said}, the hint chose {hinted}"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "bid-confirm"
    assert not page.errors, page.errors


FOCUSED = ("(() => { const a = document.activeElement; return !a || a === document.body"
           " ? 'body' : (a.id || a.tagName); })()")


def test_the_focus_stays_at_the_table_when_the_last_card_ends_the_match(
        new_page: Any) -> None:
    """The match's last card: the hand (with the focus) was hidden before the hand's summary
    came, and the focus fell to the page's body: a screen reader said nothing more of where
    she was, and Enter (which puts the summary away) did nothing. The hand keeps the focus
    until the summary is put away; Enter there goes on to the result."""
    page, _ = _to_the_first_summary(new_page, "Blindlast", one_hand=True)
    assert page.evaluate(FOCUSED) == "hand", page.evaluate(FOCUSED)
    page.keyboard.press("Enter")  # the summary put away: the result
    page.wait_for_selector("#match-over[open]")
    page.wait_for_function("document.activeElement && document.activeElement.id"
                           " === 'over-title'")
    assert not page.errors, page.errors


SLOW_HINT = """() => { const conn = spadesApp.table.app.conn; const request = conn.request.bind(conn);
  window.__release = null;
  conn.request = (msg) => {
    if (msg.type === 'hint') {
      const answer = request(msg);
      return new Promise((resolve, reject) => {
        window.__release = () => answer.then(resolve, reject); });
    }
    if (msg.type === 'act' && window.__release) { const r = window.__release;
      window.__release = null; const sent = request(msg); r(); return sent; }
    return request(msg);
  }; }"""


def test_a_hint_that_comes_after_the_card_was_played_is_not_said(new_page: Any) -> None:
    """I, then Enter before the server's hint came: the card in focus was played, and then the
    hint said "Hint: play the four of diamonds: … It is selected; press Enter to play it."
    (and selected it), after "You play" had gone: a hint for a move already made."""
    page = new_page()
    start_quick_match(page, "Blindlate", profile="game93")
    for _ in range(20):
        state = page.evaluate("spadesApp.table.turnKey !== null && spadesApp.table.view.phase")
        if state == "play":
            break
        if state == "bid":
            take_hinted_turn(page, "bid")
        page.wait_for_function("spadesApp.table.turnKey !== null", timeout=30000)
    page.evaluate(SLOW_HINT)  # the hint's answer held until the card is sent
    heard = Speech(page)
    heard.new()
    page.keyboard.press("j")
    page.keyboard.press("i")
    page.wait_for_function("window.__release !== null")
    page.keyboard.press("Enter")  # the card in focus, before the hint came
    heard.wait_for("You play")
    page.wait_for_function("spadesApp.table.hintAsked === null"
                           " || spadesApp.table.turnKey !== spadesApp.table.hintAsked.key")
    said = [e["text"] for e in heard.all()[heard.seen - 1:]]
    assert not [t for t in heard.all() if t["text"].startswith("Hint: play")], said
    assert not page.errors, page.errors


def test_the_keys_of_a_face_down_hand_say_how_to_look(new_page: Any, server: str) -> None:
    """The first bidder under Cards4net, her cards face down: J took her to "Your hand, face
    down", where Enter, the arrows and H said nothing at all (a sighted player sees the Look
    at my cards button above). They say where the way to look (or bid Blind Nil) is."""
    page = new_page()
    # cards4net, East (seat 3) deals: you (South) bid first, before looking
    create_cpu_table(page, server, "Blindface", profile="cards4net", first_dealer=3)
    page.wait_for_function("spadesApp.table.myTurn() && spadesApp.table.view.hand === null",
                           timeout=20000)
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.id") == "hand"
    heard = Speech(page)
    for key in ("Enter", "ArrowRight", "h"):
        heard.new()
        page.keyboard.press(key)
        said = heard.wait_for("face down", timeout=3)["text"]
        assert said == ("Your cards are face down. B goes to Look at my cards; Shift+B bids "
                        "Blind Nil."), said
    assert page.evaluate("spadesApp.table.view.hand") is None  # nothing done for her
    assert not page.errors, page.errors


def test_w_offline_says_so_and_no_turn_from_before(new_page: Any, server: str) -> None:
    """Offline at her turn (a turn timer of 60 s): the status line says "Offline", Y that the
    time left is known again once the table is back; W said "Your turn to bid. 52 seconds
    left.", from the old deadline, as if she could bid (a bid is refused: offline)."""
    page = new_page()
    create_cpu_table(page, server, "Blindoff", profile="game93", timer=60)
    page.wait_for_function("spadesApp.table.myTurn()", timeout=20000)
    page.keyboard.press("j")
    heard = Speech(page)
    page.context.set_offline(True)
    page.evaluate("spadesApp.conn.ws && spadesApp.conn.ws.close()")
    page.wait_for_function(
        "() => /Offline/.test(document.querySelector('#status-line').textContent)")
    heard.new()
    page.keyboard.press("w")
    said = heard.wait_for("", timeout=3)["text"]
    assert said == ("Offline: reconnecting… Your moves wait until the connection is back. "
                    "Where the game stands is said once the table is back."), said
    page.context.set_offline(False)
    heard.wait_for("Back at the table", timeout=20)
    heard.new()
    page.keyboard.press("w")
    assert heard.wait_for("", timeout=3)["text"].startswith("Your turn to")
    assert not page.errors, page.errors


def test_enter_on_a_bid_confirms_it(new_page: Any) -> None:
    """B, the arrows to a bid, then Enter: nothing happened and nothing was said (only Tab to
    Confirm bid and Enter bid). Enter on a bid confirms it, as Enter sends a form."""
    page = new_page()
    start_quick_match(page, "Blindenter", profile="game93")
    _wait_bid_turn(page)
    heard = Speech(page)
    page.keyboard.press("b")
    page.keyboard.press("ArrowRight")
    bid = page.evaluate("document.activeElement.checked && document.activeElement.value")
    assert bid, bid
    heard.new()
    page.keyboard.press("Enter")
    said = heard.wait_for("You bid", timeout=5)["text"]
    assert said == f"You bid {'Nil' if bid == 'nil' else bid}.", said
    assert not page.errors, page.errors


def test_tab_stays_in_the_score_sheet_and_the_keys(new_page: Any) -> None:
    """The Score sheet and Keys dialogs are modal, as the end of the match's, which keeps Tab
    inside; from their Close button Tab went out of the page (the browser's address bar), and
    back into the dialog only by a second Tab. Tab now goes round inside them."""
    page = new_page()
    start_quick_match(page, "Blindtab", profile="game93")
    page.wait_for_function("spadesApp.table.view", timeout=15000)
    for opener, dialog in (("#sheet-btn", "sheet-dialog"), ("#help-btn", "help-dialog")):
        page.focus(opener)
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#{dialog}[open]")
        seen = []
        for _ in range(4):
            page.keyboard.press("Tab")
            seen.append(page.evaluate(f"""(() => {{ const a = document.activeElement;
              return a && a.closest('#{dialog}') ? (a.id || a.textContent.trim()) : 'out'; }})()"""))
        assert "out" not in seen, (dialog, seen)
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(f"!!document.activeElement.closest('#{dialog}')"), dialog
        page.keyboard.press("Escape")
        page.wait_for_selector(f"#{dialog}", state="hidden")
        assert page.evaluate("document.activeElement.id") == opener[1:]
    assert not page.errors, page.errors


def test_enter_on_a_card_at_your_bid_says_how_to_bid(new_page: Any) -> None:
    """Enter on a card at her turn to bid said "Cards are played after the bidding." and no
    more: not that the turn was hers, to bid, nor where (a sighted player sees the bids
    above the hand)."""
    page = new_page()
    start_quick_match(page, "Blindcard", profile="game93")
    _wait_bid_turn(page)
    page.keyboard.press("j")
    page.keyboard.press("End")  # a card (not the Bid or Nil card)
    heard = Speech(page)
    heard.new()
    page.keyboard.press("Enter")
    said = heard.wait_for("after the bidding", timeout=3)["text"]
    assert said == ("Cards are played after the bidding. Your turn to bid: B goes to the bids, "
                    "Home to the Bid card."), said
    assert not page.errors, page.errors


def test_the_hint_button_says_how_to_play_the_card_it_chose(new_page: Any) -> None:
    """Enter on the Hint button: "… It is selected; press Enter to play it." With the focus on
    that button, Enter asked for the hint again, and again, never playing the card. Away
    from the hand, the hint says how to get to it."""
    page = new_page()
    start_quick_match(page, "Blindhbtn", profile="game93")
    for _ in range(6):
        page.wait_for_function("spadesApp.table.turnKey !== null", timeout=30000)
        if page.evaluate("spadesApp.table.view.phase") == "play":
            break
        take_hinted_turn(page, "bid")
    page.focus("#hint-btn")
    heard = Speech(page)
    heard.new()
    page.keyboard.press("Enter")
    said = heard.wait_for("Hint: play", timeout=8)["text"]
    assert "press Enter to play it" not in said, said
    assert said.endswith("It is selected in your hand: J goes there, then Enter plays it."), said
    words = page.evaluate("c => document.getElementById('card-' + c).querySelector('.card-name')"
                          ".textContent.split(',')[0]", page.evaluate("spadesApp.table.selected"))
    assert f"play the {words}" in said, (words, said)
    page.keyboard.press("j")
    page.keyboard.press("Enter")
    assert heard.wait_for("You play", timeout=8)["text"] == f"You play the {words}."
    assert not page.errors, page.errors


def test_a_turn_held_behind_the_summary_is_told(new_page: Any) -> None:
    """The hand's summary kept until put away (Settings: 0 seconds): the next hand's deal and
    bids were said as they came, up to the bid before hers, and then nothing: her turn waited
    behind the summary, unsaid, until she thought of pressing Escape (a sighted player sees
    the summary's Next deal button). It is told once, when it comes, with the way on."""
    page, heard = _to_the_first_summary(new_page, "Blindheld")
    page.wait_for_function("""() => spadesApp.table.queue.some(m => m.event && m.turn
      && m.turn.seat === spadesApp.table.mySeat)""", timeout=30000)
    told = heard.wait_for("behind the hand's summary", timeout=5)["text"]
    assert told == ("Your turn to bid waits behind the hand's summary: Escape puts it away."), told
    texts = [e["text"] for e in heard.all()]
    after = texts[next(i for i, t in enumerate(texts) if t.startswith("Hand 1 scored")):]
    assert not [t for t in after if t.startswith("Your turn to bid:")], after  # (not yet)
    page.keyboard.press("Escape")
    heard.wait_for("Your turn to bid:", timeout=5)
    assert sum("behind the hand's summary" in e["text"] for e in heard.all()) == 1
    assert not page.errors, page.errors
