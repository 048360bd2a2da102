"""Defects found by a user trial of friends at a private table (one of them blind, by keyboard
and screen reader only): a turn timer, Cards4net with Blind Nil, the invite link, a
spectator, chat, a player who drops and comes back mid-hand, a full hand and a rematch."""

from __future__ import annotations

from typing import Any

from tests.server.helpers import wait_until
from tests.web.helpers import (
    Speech,
    browser_reopened,
    create_cpu_table,
    friends_at_table,
    take_hinted_turn,
)
from tests.web.test_rematch import friends_played_to_end


def test_the_invite_link_offers_to_watch_a_started_match(new_page: Any, server: str) -> None:
    """Wes opened the friends' invite link once their match had started: "Could not join: the
    match has started: join as a spectator", and nothing to do it with (a private table cannot
    be watched from the lobby, and #/watch needs the code the page had not kept). Now the
    page offers "Watch the table" there, which opens the table to watch, by keyboard."""
    olga, _, code = friends_at_table(new_page, server, "Olgawatch", "Carlwatch",
                                     "Watch night", "cards4net")
    wes = new_page()
    wes.goto(server + f"#/join/{code}")
    wes.fill("#invite-name", "Weswatch")
    wes.click("form.panel button[type=submit]")
    wes.wait_for_selector("text=the match has started")
    watch = wes.get_by_role("button", name="Watch the table")
    watch.focus()
    heard = Speech(wes)
    wes.keyboard.press("Enter")
    heard.wait_for("You are watching Watch night")
    wes.wait_for_function("spadesApp.table && spadesApp.table.view && !spadesApp.table.isPlayer")
    assert wes.evaluate("location.hash").startswith("#/watch/")
    Speech(olga).wait_for("Weswatch")  # the players hear who watches
    assert not olga.errors and not wes.errors, (olga.errors, wes.errors)


MY_TURN = """(() => { const t = spadesApp.table;
  return !!(t && t.view && t.status === 'active' && t.turnKey !== null); })()"""


def test_back_mid_hand_she_hears_the_bids_tricks_and_the_last_trick(
        new_page: Any, browser: Any, server: str) -> None:
    """Bea closed her browser mid-hand and opened it again (Your tables, Return to …): she
    heard "You are back. You sit South at … Hand 1, playing. You hold 10 cards: … Your turn to
    lead." The trick finished while she was away had gone to her: nothing said so, nor what
    anyone had bid and taken. Now where the hand stands is said after where she sits."""
    olga, bea_first, _ = friends_at_table(new_page, server, "Olgaback2", "Beaback2",
                                             "Back night", one_hand=True)
    pages = [olga, bea_first]
    for _ in range(40):  # hinted turns until Bea's turn after the first trick
        wait_until(lambda: any(p.evaluate(MY_TURN) for p in pages), "a turn", 30, 0.05)
        if bea_first.evaluate(MY_TURN) and bea_first.evaluate(
                "spadesApp.table.view.phase === 'play'"
                " && spadesApp.table.view.plays.length >= spadesApp.table.players"):
            break
        for p in pages:
            if p.evaluate(MY_TURN):
                take_hinted_turn(p, p.evaluate("spadesApp.table.view.phase"))
    else:
        raise AssertionError("Bea's turn after the first trick never came")
    view = bea_first.evaluate("spadesApp.table.view")
    state = bea_first.context.storage_state()
    bea_first.context.close()  # the browser closed
    Speech(olga).wait_for("Beaback2 lost the connection")
    with browser_reopened(browser, state, server, "Back night") as bea:
        heard = Speech(bea)
        heard.wait_for("You are back")
        said = heard.wait_for("You sit South at Back night")["text"]
        names = bea.evaluate("spadesApp.table.view.bids.map((_, s) =>"
                             " spadesApp.table.seatName(s, {lower: true, mark: false}))")
        done = len(view["plays"]) // len(view["bids"])
        rows = "; ".join(
            f"{names[s]} bid {'Nil' if b == 'nil' else b}, {t} trick{'' if t == 1 else 's'}"
            for s, (b, t) in enumerate(zip(view["bids"], view["tricks"], strict=True)))
        assert f"Bids and tricks: {rows}. Trick {done} went to {names[view['leader']]}." in said, said
        turn = heard.wait_for("Your turn")  # and then her turn, after it
        assert turn["text"].startswith("Your turn"), turn
        assert not bea.errors, bea.errors


def test_the_hint_to_look_at_your_cards_says_it_once(new_page: Any, server: str) -> None:
    """First to bid under Cards4net, I said "Hint: look at your cards: look at your cards: at
    this score a Blind Nil is not worth the risk." (the reason's own "Look at your cards:" was
    kept, as it was not for bids and cards)."""
    page = new_page()
    create_cpu_table(page, server, "Lookhint", profile="cards4net", first_dealer=3)
    heard = Speech(page)
    heard.wait_for("Your turn to bid. You may bid Blind Nil before looking")
    # the server's hint, as I asks for it, said as the page says it (I itself falls back
    # on the page's own hint when the server is slow to answer)
    msg = page.evaluate("spadesApp.conn.request({type: 'hint',"
                        " names: spadesApp.table.hintNames()})")
    assert msg["action"] == "look", msg  # (no Blind Nil at 0 to 0)
    page.evaluate("m => spadesApp.table.showHint(m.action, m.reason)", msg)
    hint = heard.wait_for("Hint:")["text"]
    assert hint.startswith("Hint: look at your cards: "), (hint, msg)
    assert hint.lower().count("look at your cards") == 1, hint
    assert not page.errors, page.errors


def test_escape_in_the_chat_box_goes_back_to_the_hand(new_page: Any, server: str) -> None:
    """Bea answered a chat line mid-hand; then her turn came with the focus in the message
    box, where the keys (J, I, B) only type letters, and Escape did nothing: her hand was
    fifteen Shift+Tabs away. Escape now takes her back to her hand (and, in the waiting room,
    to the seats' heading)."""
    olga, bea, _ = friends_at_table(new_page, server, "Olgachat", "Beachat", "Chat night",
                                    start=False, one_hand=True)
    bea.focus("#chat-input")
    bea.keyboard.type("ready")
    bea.keyboard.press("Escape")
    assert bea.evaluate("document.activeElement.id") == "seats-title"
    olga.click("text=Start the match")
    bea.wait_for_function("spadesApp.table.view && spadesApp.table.view.phase === 'bid'",
                          timeout=15000)
    bea.focus("#chat-input")
    bea.keyboard.type("good luck")
    bea.keyboard.press("Enter")
    Speech(olga).wait_for("Beachat, guest says: good luck")
    bea.keyboard.press("Escape")
    assert bea.evaluate("document.activeElement.id") == "hand"
    assert not bea.errors, bea.errors


def test_a_player_who_dropped_is_shown_disconnected(new_page: Any, server: str) -> None:
    """Bea's browser closed mid-hand: Olga heard "Your partner Bea lost the connection", and
    Bea's seat (its label: "disconnected") showed nothing of it on the screen, her turn's
    timer running down as if she were thinking. Now the seat shows "offline" until she
    is back ("offline", which fits beside the other tags)."""
    # Bea (across: place 2) deals: her seat has the D chip
    olga, bea, _ = friends_at_table(new_page, server, "Olgadrop", "Beadrop", "Drop night",
                                    timer=60, one_hand=True, dealer=2)
    mine = bea.evaluate("spadesApp.table.mySeat")
    assert mine == 2 and olga.evaluate("spadesApp.table.view.dealer") == mine

    def beas_turn() -> bool:  # (her turn's timer chip beside the tags)
        if olga.evaluate(MY_TURN):
            take_hinted_turn(olga, "bid")
        return bool(olga.evaluate("s => spadesApp.table.view.current_player === s", mine))
    wait_until(beas_turn, "Bea's turn to bid", 60, 0.1)
    seat = olga.locator(".felt .seat", has_text="Beadrop")
    assert "offline" not in seat.inner_text().lower()
    bea.context.close()
    Speech(olga).wait_for("Beadrop lost the connection")
    olga.wait_for_function("[...document.querySelectorAll('.felt .seat')].some(e =>"
                           " /Beadrop/.test(e.textContent) && /offline/i.test(e.innerText))")
    assert "disconnected" in str(seat.get_attribute("aria-label"))
    # inside the seat, not past its edge (with the partner, guest and timer tags beside it)
    inside = seat.evaluate("""(el) => { const r = el.getBoundingClientRect();
      return [...el.querySelectorAll('.seat-meta > *')].every((t) => {
        const b = t.getBoundingClientRect();
        return b.left >= r.left - 0.5 && b.right <= r.right + 0.5; }); }""")
    assert inside, seat.inner_text()
    assert not olga.errors, olga.errors


def test_the_rematch_offered_after_the_box_is_closed_is_one_key_away(
        new_page: Any, server: str) -> None:
    """Bea had closed the end-of-match box (the focus on the Score sheet button) when Olga
    started a rematch: she heard "Olga started a rematch." and its Join button was put at the
    top of the table, 24 Tabs away, with nothing said of where. Now she hears that J goes to
    it, and J does."""
    olga, bea, _ = rematch_ready(new_page, server, "Olgajoin", "Beajoin")
    bea.keyboard.press("Escape")
    bea.wait_for_function("document.activeElement && document.activeElement.id === 'sheet-btn'")
    heard = Speech(bea)
    heard.new()
    olga.focus("#over-rematch")
    olga.keyboard.press("Enter")
    heard.wait_for("Olgajoin started a rematch")
    heard.wait_for("J goes to the Join the rematch button.")
    bea.keyboard.press("j")
    assert bea.evaluate("document.activeElement.id") == "rematch-join"
    bea.keyboard.press("Enter")
    bea.wait_for_function("spadesApp.table && spadesApp.table.isPlayer"
                          " && spadesApp.table.status === 'waiting'", timeout=15000)
    assert not olga.errors and not bea.errors, (olga.errors, bea.errors)


def rematch_ready(new_page: Any, server: str, owner: str, friend: str) -> tuple[Any, Any, int]:
    """A private one-hand table of ``owner`` and ``friend`` played to its end by both pages
    (the end-of-match box open on both)."""
    olga, bea, _ = friends_played_to_end(new_page, server, owner, friend, "Join night")
    return olga, bea, int(bea.evaluate("spadesApp.table.mySeat"))


def test_your_own_chat_line_is_said_as_yours(new_page: Any, server: str) -> None:
    """Bea sent "hello from Bea" and heard "Bea, guest says: hello from Bea", as if another
    Bea (a guest) had written: every other news of hers says "you". Now "You say: …"; the
    others hear her name, as before."""
    olga, bea, _ = friends_at_table(new_page, server, "Olgaself", "Beaself", "Self night",
                                    start=False, one_hand=True)
    heard, told = Speech(bea), Speech(olga)
    bea.focus("#chat-input")
    bea.keyboard.type("hello from Bea")
    bea.keyboard.press("Enter")
    assert told.wait_for("hello from Bea")["text"] == "Beaself, guest says: hello from Bea"
    assert heard.wait_for("hello from Bea")["text"] == "You say: hello from Bea"
    olga.focus("#chat-input")
    olga.keyboard.type("hi Bea")
    olga.keyboard.press("Enter")
    assert heard.wait_for("hi Bea")["text"] == "Olgaself, guest says: hi Bea"
    assert told.wait_for("hi Bea")["text"] == "You say: hi Bea"
    assert not olga.errors and not bea.errors, (olga.errors, bea.errors)


def test_back_on_a_new_page_she_hears_what_was_played_for_her(
        new_page: Any, browser: Any, server: str) -> None:
    """Bea's browser closed for longer than her seat waits (a CPU then plays for her); opened
    again, the page said her hand ("You hold 1 cards: 1 diamond" too) and nothing of the bid
    and the cards played for her meanwhile, which a reconnect without closing says ("Played
    for you while you were away: …"). The page now keeps her hand in the browser as the game
    goes, and says it after a new start too."""
    olga, bea_first, _ = friends_at_table(new_page, server, "Olgaheld", "Beaheld",
                                             "Held night", one_hand=True, grace=1)
    bea_first.wait_for_function("spadesApp.table.view && spadesApp.table.view.phase === 'bid'"
                                " && spadesApp.table.view.hand", timeout=15000)
    before = bea_first.evaluate("spadesApp.table.view.hand")
    seat = bea_first.evaluate("spadesApp.table.mySeat")
    state = bea_first.context.storage_state()
    bea_first.context.close()
    # Olga plays on until the CPU has bid and played two cards for Bea
    def two_played() -> bool:
        if olga.evaluate(MY_TURN):
            take_hinted_turn(olga, olga.evaluate("spadesApp.table.view.phase"))
        return bool(olga.evaluate("s => spadesApp.table.view.phase === 'play'"
                                  " && spadesApp.table.view.hand_sizes[s] <= 11", seat))
    wait_until(two_played, "two cards played for Bea", 90, 0.1)
    with browser_reopened(browser, state, server, "Held night") as bea:
        said = Speech(bea).wait_for("You sit South at Held night")["text"]
        view = bea.evaluate("spadesApp.table.view")
        gone = [c for c in before if c not in view["hand"]]
        names = bea.evaluate("g => import('./js/cards.js').then((m) => g.map(m.cardName))",
                             gone)
        bid = "Nil" if view["bids"][seat] == "nil" else str(view["bids"][seat])
        assert f"Bid for you while you were away: {bid}." in said, said
        played = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        assert f"Played for you while you were away: {played}." in said, said
        # (and a last card is "1 card": "You hold 1 cards: 1 diamond." before)
        assert bea.evaluate("spadesApp.table.handSummary(['2D'])") == (
            "You hold 1 card: 1 diamond.")
        assert not bea.errors, bea.errors
