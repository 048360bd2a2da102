"""Defects found by the fourth user trial of the page, played by a blind player with a screen
reader and the keyboard alone: "Saved." heard once only in Settings, the Bid box's error not
marking its field invalid, and the shortcut keys (the keys list included) doing nothing in the
waiting room before the match starts."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import (
    Speech,
    create_cpu_table,
    create_private_table,
    join_by_invite,
    open_bid_box,
)

# What a screen reader hears from the live regions (aria-live, role=status/alert): every element
# with text added to one, and every change of a region's text. Setting a region's text to the
# words it holds already changes nothing a screen reader hears.
HEARD = """(() => {
  if (window.__heard) return;
  const heard = window.__heard = [];
  const last = new Map();
  const regionOf = (n) => {
    const el = n.nodeType === 1 ? n : n.parentElement;
    return el && el.closest('[aria-live]:not([aria-live="off"]), [role=status], [role=alert]');
  };
  new MutationObserver((muts) => {
    for (const m of muts) {
      const region = regionOf(m.target);
      if (!region) continue;
      let added = false;
      for (const n of m.addedNodes) {
        if (n.nodeType === 1 && n.textContent.trim()) { heard.push(n.textContent.trim()); added = true; }
      }
      const text = region.textContent.trim();
      if (!added && text && text !== last.get(region)) heard.push(text);
      last.set(region, text);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()"""


def heard(page: Any) -> list[str]:
    out: list[str] = page.evaluate("window.__heard.slice()")
    return out


def wait_heard(page: Any, needle: str, count: int) -> None:
    """Until ``needle`` has been heard ``count`` times in all."""
    try:
        page.wait_for_function(
            "([n, c]) => window.__heard.filter((t) => t.includes(n)).length >= c",
            arg=[needle, count], timeout=5000)
    except Exception as exc:
        raise AssertionError(f"{needle!r} not heard {count} times; heard {heard(page)}") from exc


def test_settings_say_saved_after_every_change(new_page: Any, server: str) -> None:
    """Each change in Settings is saved at once and says so. The second change set the status
    to the "Saved." it held already: a screen reader heard nothing the second time."""
    page = new_page()
    page.goto(server + "#/settings")
    page.wait_for_selector("#s-muted")
    page.evaluate(HEARD)
    page.focus("#s-muted")
    page.keyboard.press("Space")
    wait_heard(page, "Saved", 1)
    page.keyboard.press("Space")  # the same box again
    wait_heard(page, "Saved", 2)
    page.focus("#s-four")
    page.keyboard.press("Space")  # another
    wait_heard(page, "Saved", 3)
    page.focus("#s-summary")
    page.keyboard.press("ArrowDown")  # a list's choice
    wait_heard(page, "Saved", 4)
    stored = page.evaluate("JSON.parse(localStorage.getItem('spades.settings'))")
    assert stored["muted"] is False and stored["fourColour"] is True, stored
    assert not page.errors, page.errors


def bid_box_state(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("""() => {
      const el = document.getElementById('bid-number');
      const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
      return { invalid: el.getAttribute('aria-invalid'), focused: document.activeElement === el,
               described: ids.map((i) => document.getElementById(i))
                 .filter(Boolean).map((e) => e.textContent).join(' ') };
    }""")
    return out


def test_the_bid_box_marks_its_field_invalid(new_page: Any, server: str) -> None:
    """A bid the box refuses: the error is said and describes the field, and the field is
    marked invalid too (it was not); a new box starts clean."""
    page = new_page()
    create_cpu_table(page, server, "Ivo", profile="cardgames-club")
    page.wait_for_function("spadesApp.table.view.hand && spadesApp.table.view.phase === 'bid'")
    open_bid_box(page)
    state = bid_box_state(page)
    assert state["focused"] and state["invalid"] is None, state
    page.keyboard.press("Enter")  # nothing typed
    page.wait_for_function("document.getElementById('bid-number-error').textContent !== ''")
    state = bid_box_state(page)
    assert state["invalid"] == "true" and state["focused"], state
    assert "Type your bid" in state["described"], state
    page.keyboard.type("99")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.getElementById('bid-number-error').textContent.startsWith('99 ')")
    state = bid_box_state(page)
    assert state["invalid"] == "true" and "99 is not a bid you can make" in state["described"]
    # closed and opened again: no error, not invalid
    page.keyboard.press("Escape")
    page.wait_for_selector("#bid-dialog:not([open])", state="attached")
    page.wait_for_function("document.activeElement.id === 'hand'")
    # (no turn timer: the bid is still ours to make)
    open_bid_box(page)
    state = bid_box_state(page)
    assert state["invalid"] is None and state["described"] == "", state
    # a good bid: the box closes, the field no longer invalid
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    page.wait_for_selector("#bid-dialog:not([open])", state="attached")
    assert page.evaluate("document.getElementById('bid-number').getAttribute('aria-invalid')"
                         ) is None
    assert not page.errors, page.errors


def test_the_waiting_room_answers_the_shortcut_keys(new_page: Any, server: str) -> None:
    """Before the match starts, ? opened nothing and W, R, L said nothing. Now: ? is the keys
    list, W says the match has not started and who starts it, R who sits where, L repeats
    (a chat line, say); the keys about cards, bids and scores say the match has not started."""
    wendy = new_page()
    code = create_private_table(wendy, server, "Wendy", "Wendy's friends", "cardgames-club")
    speech = Speech(wendy)
    speech.seen = len(speech.all())
    wendy.focus("h1")  # where the page puts a reader: the page's heading
    wendy.keyboard.press("?")
    wendy.wait_for_selector("#help-dialog[open]")
    assert "Before the match starts" in wendy.text_content("#help-dialog")
    wendy.keyboard.press("Escape")
    wendy.wait_for_selector("#help-dialog:not([open])", state="attached")
    wendy.wait_for_function("document.activeElement.tagName === 'H1'")
    wendy.keyboard.press("w")
    said = speech.wait_for("The match has not started")["text"]
    assert "you start it" in said, said
    wendy.keyboard.press("r")
    seats = speech.wait_for("Seats:")["text"]
    assert "Wendy (you, " in seats and "owner" in seats and seats.count("empty") == 3, seats
    # a guest sits down: R says so; the guest's keys work too
    gus = new_page()
    join_by_invite(wendy, gus, server, code, "Gus")
    wendy.keyboard.press("r")
    seats = speech.wait_for("Seats:")["text"]
    assert "Gus" in seats and seats.count("empty") == 2, seats
    gus_speech = Speech(gus)
    gus_speech.seen = len(gus_speech.all())
    gus.focus("h1")
    gus.keyboard.press("w")
    said = gus_speech.wait_for("The match has not started")["text"]
    assert "Wendy starts it" in said, said
    gus.focus("#chat-input")
    gus.keyboard.type("hello all")
    gus.keyboard.press("Enter")
    speech.wait_for("says: hello all")
    wendy.focus("h1")
    wendy.keyboard.press("l")
    assert speech.wait_for("Again: Gus")["text"].endswith("says: hello all")
    for key in ("t", "p", "o", "i", "y", "j", "b", "Shift+B"):
        wendy.keyboard.press(key)
        speech.wait_for("The match has not started yet")
    assert wendy.evaluate("document.activeElement.tagName") == "H1"
    # the keys switched off in Settings: nothing (WCAG 2.1.4)
    wendy.evaluate("spadesApp.settings.shortcuts = false")
    wendy.keyboard.press("?")
    assert not wendy.evaluate("!!document.querySelector('#help-dialog[open]')")
    wendy.evaluate("spadesApp.settings.shortcuts = true")
    # typing in the chat box is typing, not keys
    wendy.focus("#chat-input")
    wendy.keyboard.type("r?")
    assert wendy.input_value("#chat-input") == "r?"
    assert not wendy.evaluate("!!document.querySelector('#help-dialog[open]')")
    assert not wendy.errors and not gus.errors, (wendy.errors, gus.errors)


def test_the_waiting_rooms_seat_buttons_keep_the_focus(new_page: Any, server: str) -> None:
    """Enter on "Add a CPU" redrew the seats and the focus fell to the page's heading: a
    keyboard user lost their place (and a screen reader said nothing of what happened at the
    seat). Now the focus stays at that seat, on its new button, which names the seat."""
    page = new_page()
    create_private_table(page, server, "Rosalind", "Rosalind's table", "cardgames-club")
    speech = Speech(page)
    speech.seen = len(speech.all())
    add = page.locator("#seat-list button", has_text="Add a CPU").first
    label = add.text_content()
    assert label and label.startswith("Add a CPU at "), label
    where = label.removeprefix("Add a CPU at ")
    add.focus()
    page.keyboard.press("Enter")
    speech.wait_for(f"A CPU sits down at {where}")
    page.wait_for_function("document.activeElement.tagName === 'BUTTON'"
                           " && document.activeElement.textContent.startsWith('Remove')")
    assert page.evaluate("document.activeElement.textContent") == f"Remove the CPU at {where}"
    page.keyboard.press("Enter")  # and back: the seat is empty again
    page.wait_for_function("l => document.activeElement.textContent === l", arg=label)
    assert not page.errors, page.errors


def test_sit_at_keeps_the_focus_at_your_new_seat_and_says_where(new_page: Any, server: str
                                                                 ) -> None:
    """Enter on "Sit at North" moved you, then the focus fell to the list's first button
    (another seat's "Sit at"), and what was heard was "Yvonne moves". Now "You move to North"
    is heard and the focus is on your row."""
    page = new_page()
    create_private_table(page, server, "Yvonne", "Yvonne's table", "cardgames-club")
    speech = Speech(page)
    speech.seen = len(speech.all())
    sit = page.locator("#seat-list button", has_text="Sit at North")
    sit.focus()
    page.keyboard.press("Enter")
    speech.wait_for("You move to the place that was North: you sit South now, and the place"
                    " you left is North.")
    page.wait_for_function("document.activeElement.matches('#seat-list li.seat-row')"
                           " && !!document.activeElement.querySelector('.badge.you')")
    assert not page.errors, page.errors
