"""A card played just before the connection closed (its answer never came): the server
played it, and the page, back at the table, said it as "Played for you while you were away"
(as if the timer or a CPU had played it), after "Refused: The connection was lost." Now it
is said as your own play, in the words of one ("You played the seven of hearts."), and
nothing calls it refused; a card the page did not send is still "played for you"."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, create_cpu_table
from tests.web.test_conn_states import _to_my_play_turn

NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine",
         "8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three",
         "2": "two"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def spoken(card: str) -> str:
    if card in ("LJ", "BJ"):
        return "little joker" if card == "LJ" else "big joker"
    return f"{NAMES[card[:-1]]} of {SUITS[card[-1]]}"


def _hold_answers(page: Any) -> None:
    """The table's answers from now on are held back from the page (kept in
    ``window.__answers``): the page never hears them."""
    page.evaluate("""() => { const ws = spadesApp.conn.ws; window.__answers = [];
      ws.onmessage = (e) => window.__answers.push(JSON.parse(e.data)); }""")


def _sent_then_closed(page: Any, send: str) -> Any:
    """``send`` (JS taking the table, returning what it sent), its answer held back from the
    page; once the server has answered (it made the move: before, the socket was closed at
    once, and the server now and then never took the move), the socket closes. Returns
    what was sent."""
    _hold_answers(page)
    sent = page.evaluate(f"() => {{ const t = spadesApp.table; {send} }}")
    page.wait_for_function("() => window.__answers.some((m) => m.type === 'ack')")
    page.evaluate("spadesApp.conn.ws.close()")
    return sent


def test_a_card_sent_before_the_connection_closed_is_your_own_play(
        new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Sentbeforeclose", profile="game93")
    _to_my_play_turn(page)
    said = Speech(page)
    said.seen = len(said.all())
    # the card goes out and the socket closes before its answer comes
    card = _sent_then_closed(page, "const c = t.legalCards()[0]; t.play(c); return c;")
    back = said.wait_for("Back at the table")["text"]
    assert f"You played the {spoken(card)}." in back, back
    assert "played for you" not in back.lower(), back
    assert "Hand 1" in back and "Scores" in back, back
    before = [e["text"] for e in said.all()]
    assert not [t for t in before if t.startswith("Refused")], before
    assert not page.errors, page.errors


def test_a_card_the_page_did_not_send_is_still_played_for_you(
        new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Notsentcard", profile="game93")
    _to_my_play_turn(page)
    # as if the page had sent one card and the server had another played at the seat
    # (the timer's, a CPU's) while the connection was down
    text, gone = page.evaluate("""() => { const t = spadesApp.table; const v = t.view;
      const deck = [];
      for (const s of 'SHDC') for (const r of 'AKQJT98765432') deck.push(r + s);
      const gone = deck.filter((c) => !v.hand.includes(c)
        && !(v.plays || []).some((p) => p[1] === c)).slice(0, 2);
      const was = { ...v, hand: [...v.hand, ...gone], plays: [...(v.plays || [])] };
      const now = { ...v, plays: [...(v.plays || []), [t.mySeat, gone[1]]] };
      t.sentPlay = { card: gone[0], view: was };
      const real = t.view;
      t.view = now;
      try { return [t.catchUpText({ view: was, score: t.score }), gone]; }
      finally { t.view = real; } }""")
    assert "You played" not in text, text
    assert "played for you while you were away" in text.lower(), text
    for card in gone:
        assert spoken(card) in text, (card, text)


def test_a_bid_sent_before_the_connection_closed_is_your_own_bid(
        new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Bidbeforeclose", profile="game93")
    page.wait_for_function("() => { const t = spadesApp.table;"
                           " return t && t.view && t.view.phase === 'bid' && t.myTurn(); }",
                           timeout=15000)
    said = Speech(page)
    said.seen = len(said.all())
    _sent_then_closed(page, "t.bid(3); return 3;")
    back = said.wait_for("Back at the table")["text"]
    assert "You bid 3." in back, back
    assert "bid for you" not in back.lower(), back
    assert not [e["text"] for e in said.all() if e["text"].startswith("Refused")]
    assert not page.errors, page.errors


def _sent_and_reloaded(page: Any, send: str) -> Any:
    """``send`` (JS taking the table, returning what it sent) with the table's answers held
    back from the page (the connection as good as dropped: the page never hears them), then,
    once the server has answered (it made the move), the page reloaded. Returns what was
    sent."""
    _hold_answers(page)
    sent = page.evaluate(f"() => {{ const t = spadesApp.table; {send} }}")
    page.wait_for_function("() => window.__answers.some((m) => m.type === 'ack')")
    page.reload()
    page.wait_for_function("() => spadesApp.table && spadesApp.table.view"
                           " && spadesApp.table.isPlayer")
    return sent


def test_a_card_sent_before_a_reload_is_your_own_play(new_page: Any, server: str) -> None:
    """The page that sent a card knew it was its own; a page opened anew in the same tab (a
    reload after the connection dropped) did not, and said "Played for you while you were
    away: the seven of hearts." The tab now keeps what it sent (sessionStorage)."""
    page = new_page()
    create_cpu_table(page, server, "Sentreload", profile="game93")
    _to_my_play_turn(page)
    card = _sent_and_reloaded(page, "const c = t.legalCards()[0]; t.play(c); return c;")
    said = Speech(page).wait_for("You sit")["text"]
    assert f"You played the {spoken(card)}." in said, said
    assert "played for you" not in said.lower(), said
    assert not page.errors, page.errors


def test_a_bid_sent_before_a_reload_is_your_own_bid(new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Bidreload", profile="game93")
    page.wait_for_function("() => { const t = spadesApp.table;"
                           " return t && t.view && t.view.phase === 'bid' && t.myTurn(); }",
                           timeout=15000)
    _sent_and_reloaded(page, "t.bid(3); return 3;")
    said = Speech(page).wait_for("You sit")["text"]
    assert "You bid 3." in said, said
    assert "bid for you" not in said.lower(), said
    assert not page.errors, page.errors


def test_what_another_player_sent_in_this_tab_is_not_yours(
        new_page: Any, server: str) -> None:
    """What the tab kept is said as your own only for the player who sent it."""
    page = new_page()
    create_cpu_table(page, server, "Sentother", profile="game93")
    page.wait_for_function("() => spadesApp.table && spadesApp.table.isPlayer")
    tid = page.evaluate("spadesApp.table.id")
    page.evaluate("""t => sessionStorage.setItem('spades.sent.' + t, JSON.stringify({
      user: -1, seat: spadesApp.table.mySeat, play: { card: '2C', view: { hand_number: 1,
      plays: [] } }, bid: { bid: 3, view: { hand_number: 1 } } }))""", tid)
    page.reload()
    page.wait_for_function("() => spadesApp.table && spadesApp.table.msg"
                           " && spadesApp.table.isPlayer")
    assert page.evaluate("[spadesApp.table.sentPlay, spadesApp.table.sentBid]") == [None, None]
    assert not page.errors, page.errors
