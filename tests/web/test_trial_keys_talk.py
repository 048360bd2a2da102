"""Defects found by a keyboard-only player's trial of the page (2026-12-07): a suit's letter
skipped the suit's first card when the page had chosen it; after a reload while bidding the
hand kept the page's choice as if it were yours, a card that could not be played; a new
table's "Table talk" began with the lines of the table before."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import create_cpu_table, start_quick_match


def test_a_suits_letter_goes_to_its_first_card_from_a_card_the_page_chose(
        new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Kaya", profile="game93")
    page.wait_for_function("spadesApp.table.view && spadesApp.table.handCards().length === 13")
    # the page's own choice of a card (as on focus, or at your turn: the first playable
    # card), the first of a suit you hold two or more of
    suit, first = page.evaluate("""() => {
      const t = spadesApp.table, cards = t.handCards();
      const c = cards.find((x) => cards.filter((y) => y[1] === x[1]).length > 1);
      t.selected = c; t.autoSelected = true; t.renderHand();
      return [c[1], c];
    }""")
    page.focus("#hand")
    page.keyboard.press(suit.lower())
    # before: the suit's second card, as if its first had been chosen by a press already
    assert page.evaluate("spadesApp.table.selected") == first
    page.keyboard.press(suit.lower())  # again: the next card of that suit
    second = page.evaluate("(s) => spadesApp.table.handCards().filter((c) => c[1] === s)[1]", suit)
    assert page.evaluate("spadesApp.table.selected") == second
    assert not page.errors, page.errors


def test_after_a_reload_the_card_the_page_chose_is_not_taken_for_yours(
        new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Rilo", profile="game93")
    page.wait_for_function("spadesApp.table.view && spadesApp.table.handCards().length === 13"
                           " && spadesApp.table.view.phase === 'bid'")
    page.focus("#hand")  # the page chooses a card to start from
    page.wait_for_function("spadesApp.table.selected && spadesApp.table.autoSelected")
    # a bid chosen before the turn (kept for a reload, with what else the page keeps)
    page.evaluate("spadesApp.table.setDraftBid('3')")
    page.reload()
    page.wait_for_function("spadesApp.table && spadesApp.table.view && spadesApp.table.draftLoaded"
                           " !== undefined && spadesApp.table.handCards().length")
    # before: the page's card came back as chosen by you, and stayed on it at your turn to
    # play ("2♥: follow diamonds") instead of moving to your first playable card
    kept = page.evaluate("[spadesApp.table.selected, spadesApp.table.autoSelected,"
                         " spadesApp.table.bidDraft]")
    assert kept[0] is None or kept[1] is True, kept
    assert kept[2] == "3", kept  # the bid chosen stays
    assert not page.errors, page.errors


def test_a_new_tables_talk_has_none_of_the_table_before(new_page: Any, server: str) -> None:
    page = new_page()
    start_quick_match(page, "Tove")
    page.wait_for_function("spadesApp.table && spadesApp.table.view")
    first = page.evaluate("spadesApp.table.id")
    page.evaluate("spadesApp.announcer.say('Said at the first table.')")
    page.wait_for_function("document.getElementById('event-log').textContent"
                           ".includes('Said at the first table.')")
    page.goto(server + "#/")
    page.wait_for_selector("#quick-name")
    start_quick_match(page, "Tove")
    page.wait_for_function("(id) => spadesApp.table && spadesApp.table.id !== id"
                           " && spadesApp.table.view", arg=first)
    log = page.text_content("#event-log") or ""
    assert "Said at the first table." not in log, log
    # what is said at this table is there
    page.evaluate("spadesApp.announcer.say('Said at the second table.')")
    page.wait_for_function("document.getElementById('event-log').textContent"
                           ".includes('Said at the second table.')")
    # and back at the first table, its own lines again
    page.goto(server + f"#/table/{first}")
    page.wait_for_function("(id) => spadesApp.table && spadesApp.table.id === id", arg=first)
    log = page.text_content("#event-log") or ""
    assert "Said at the first table." in log and "Said at the second table." not in log, log
    assert not page.errors, page.errors
