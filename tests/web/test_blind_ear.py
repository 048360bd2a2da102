"""A blind player's trial by ear and keyboard (cards4net with Blind Nil, a turn timer, a
reload, a rematch): what the live regions said where it was missing or wrong."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import SPOKEN, Speech, create_cpu_table, tab_to, wait_my_turn_or_over
from tests.web.test_rematch import rematch_room


def test_your_cards_are_told_after_you_bid_blind_nil(new_page: Any, server: str) -> None:
    """After "You bid Blind Nil." the cards turn face up, but nothing said so or what they
    were (looking at them says "You hold 13 cards: …"; the terminal shows the hand after a
    Blind Nil too): a listener had to walk 13 cards with the arrows to learn them."""
    page = new_page()
    speech = Speech(page)
    create_cpu_table(page, server, "Blindear", profile="cards4net", first_dealer=3)
    assert wait_my_turn_or_over(page) == "bid"
    speech.wait_for("Your turn to bid. You may bid Blind Nil")
    page.keyboard.press("Shift+B")
    page.wait_for_selector("#blind-nil-dialog[open]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "blind-nil-yes"
    page.keyboard.press("Enter")
    speech.wait_for("You bid Blind Nil.")
    told = speech.wait_for("You hold 13 cards")
    after = [s["text"] for s in speech.all()]
    # said at once, before the next player's bid
    i = after.index(told["text"])
    assert after[i - 1] == "You bid Blind Nil.", after[i - 3:i + 1]
    assert not page.errors, page.errors


def test_every_column_of_the_lobby_has_a_name(new_page: Any, server: str) -> None:
    """The lobby's table of open tables had a last column (Join / Watch) with an empty
    header: walking its cells, a screen reader named that column with nothing (axe:
    empty-table-header)."""
    host = new_page()
    create_cpu_table(host, server, "Lobbyear", table_name="Lobby ear table")
    page = new_page()
    page.goto(server + "#/lobby")
    page.wait_for_selector(".lobby-table thead th")
    heads = page.eval_on_selector_all(".lobby-table thead th", "els => els.map(e => e.textContent.trim())")
    assert all(heads), heads
    assert heads[-1] == "Action", heads


def test_joining_the_rematch_does_not_say_you_left_the_table_you_sit_at(new_page: Any,
                                                                       server: str) -> None:
    """Joining the rematch (the new table has the old one's name), the friend heard "You left
    Club evening." and at once "You sit … at Club evening.": as if thrown out of the table
    just joined. What is left is the match that is over, for its rematch."""
    _olga, fred, _seat = rematch_room(new_page, server, "Olgaear", "Fredear")
    said = Speech(fred)
    said.wait_for("Olgaear started a rematch")
    fred.wait_for_selector("#match-over[open] #rematch-join")
    tab_to(fred, "rematch-join", 12)
    fred.keyboard.press("Enter")
    said.wait_for("You sit")
    told = [s["text"] for s in said.all()]
    assert "You left Club evening." not in told, told
    assert "You left the finished match for its rematch." in told, told
    assert not fred.errors, fred.errors


def test_the_keys_and_the_score_sheet_open_at_their_start(new_page: Any, server: str) -> None:
    """? at the table opened the Keys dialog with the focus on the "Settings" link in the
    middle of its first sentence (a screen reader said "Keys, dialog, Settings, link"; Enter
    there took the player away from the table), and the Score sheet with the focus on Close,
    after the whole sheet (reading on from there: nothing). Both now start at their heading,
    as the end-of-match box does; Escape gives the focus back."""
    page = new_page()
    create_cpu_table(page, server, "Keysear", profile="game93")
    assert wait_my_turn_or_over(page) == "bid"
    page.keyboard.press("j")
    page.keyboard.press("?")
    page.wait_for_selector("#help-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "help-title"
    page.keyboard.press("Escape")
    page.wait_for_selector("#help-dialog:not([open])", state="attached")
    page.wait_for_function("document.activeElement.id === 'hand'")
    page.focus("#sheet-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sheet-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "sheet-title"
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet-dialog:not([open])", state="attached")
    page.wait_for_function("document.activeElement.id === 'sheet-btn'")
    assert not page.errors, page.errors




def test_the_lobby_says_the_turn_timer_in_seconds(new_page: Any, server: str) -> None:
    """The lobby's Timer column read "30s" (a speech synthesizer says "thirties"); it says
    "30 seconds" now, and shows "30s" as before."""
    host = new_page()
    create_cpu_table(host, server, "Timerear", table_name="Timer ear table", timer=30)
    page = new_page()
    page.goto(server + "#/lobby")
    row = page.locator(".lobby-table tbody tr", has_text="Timer ear table")
    row.wait_for()
    spoken = row.evaluate(SPOKEN)
    assert "30 seconds" in spoken and "30s" not in spoken, spoken
    assert "30s" in row.inner_text()


def test_the_lobby_says_players_and_status_in_words(new_page: Any, server: str) -> None:
    """A lobby row was read "1 of 4" with the server's own status word, "active" (and "· 3
    open", whose dot a screen reader leaves unsaid: "1 of 4 3 open"); it says "1 of 4
    players" and "playing" now, and shows what it showed."""
    host = new_page()
    create_cpu_table(host, server, "Wordsear", table_name="Words ear table", timer=30)
    page = new_page()
    page.goto(server + "#/lobby")
    row = page.locator(".lobby-table tbody tr", has_text="Words ear table")
    row.wait_for()
    page.wait_for_function("""() => [...document.querySelectorAll('.lobby-table tbody tr')]
      .some((r) => r.textContent.includes('Words ear table') && r.textContent.includes('playing'))""")
    spoken = row.evaluate(SPOKEN)
    assert "1 of 4 players" in spoken and "playing" in spoken, spoken
    assert "active" not in spoken, spoken


def test_the_tables_heading_is_its_name(new_page: Any, server: str) -> None:
    """The heading a screen reader lists first at a table (H, or its list of headings) was
    "Spades table" at every table; it is the table's name now, as in the waiting room."""
    page = new_page()
    create_cpu_table(page, server, "Headear", table_name="Heading ear table")
    wait_my_turn_or_over(page)
    page.wait_for_function(
        "document.getElementById('table-title')?.textContent === 'Heading ear table'")


def _arrive_as_spectator(new_page: Any, server: str, name: str, table_name: str
                         ) -> tuple[Any, Any]:
    """``name`` makes a CPU table named ``table_name``, and ``name`` + "watcher" arrives
    there as a spectator (by its watch link), with the focus on the table's heading:
    the host's and the watcher's pages."""
    host = new_page()
    create_cpu_table(host, server, name, table_name=table_name)
    wait_my_turn_or_over(host)
    table = host.evaluate("spadesApp.table.id")
    watcher = new_page()
    watcher.goto(f"{server}#/watch/{table}")
    watcher.fill("#table-name", f"{name}watcher")
    watcher.keyboard.press("Enter")
    watcher.wait_for_function("window.spadesApp && spadesApp.table && spadesApp.table.view")
    watcher.wait_for_function(
        "document.activeElement && document.activeElement.id === 'table-title'")
    return host, watcher


def test_a_spectator_lands_on_the_tables_heading_not_an_empty_hand(
        new_page: Any, server: str) -> None:
    """A spectator arrived with the focus on an empty list, "Spectating: no hand", and J went
    there too (Escape from the chat went to the table's heading): both go to the heading, the
    table's name, from which the felt reads on."""
    _, watcher = _arrive_as_spectator(new_page, server, "Spec", "Spectator ear table")
    watcher.focus("#chat-log")
    watcher.keyboard.press("j")
    watcher.wait_for_function("document.activeElement && document.activeElement.id === 'table-title'")
    assert watcher.evaluate("document.activeElement.textContent") == "Spectator ear table"
    assert not watcher.errors, watcher.errors


def test_a_spectators_tab_does_not_stop_on_the_empty_hand(new_page: Any, server: str) -> None:
    """A spectator's Tab stopped on an empty list, "Spectating: no hand" (the hand, which a
    spectator does not have): now it goes by; J still goes to the table's heading."""
    host, watcher = _arrive_as_spectator(new_page, server, "Tab", "Spectator tab table")
    stops = []
    for _ in range(40):  # from the heading on, through the hand's section and past it
        watcher.keyboard.press("Tab")
        stops.append(watcher.evaluate("document.activeElement.id"))
        if stops[-1] == "leave-btn":
            break
    assert "play-btn" in stops or "hint-btn" in stops or "sheet-btn" in stops, stops
    assert "hand" not in stops, stops
    watcher.focus("#chat-log")
    watcher.keyboard.press("j")
    watcher.wait_for_function(
        "document.activeElement && document.activeElement.id === 'table-title'")
    # the host's hand is still a Tab stop
    host.focus("#table-title")
    tab_to(host, "hand", presses=20)
    assert not watcher.errors, watcher.errors
