"""A player who does not play at a table without a turn timer: after the server's
``idle_seconds`` a CPU plays for them, the page says so (in words, through the live region)
and offers "Take my seat back", reachable by keyboard, which takes the seat back."""

from __future__ import annotations

import contextlib
import threading
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.netclient import NetPlayer
from tests.web.conftest import serving
from tests.web.helpers import Speech, create_private_table, open_bid_box
from tests.web.test_axe_and_screenshots import audit

#: Seconds a turn waits before a CPU covers it, on this test's own server.
IDLE = 2


@contextlib.contextmanager
def serving_with_idle(seconds: float, folder: Path) -> Iterator[str]:
    """A ``spades serve`` of its own with ``--limit idle_seconds=SECONDS``: its address."""
    with serving(folder, "--limit", f"idle_seconds={seconds}") as url:
        yield url


@pytest.fixture
def idle_server(server: str, tmp_path: Path) -> Iterator[str]:
    with serving_with_idle(IDLE, tmp_path) as url:
        yield url


@contextlib.contextmanager
def idle_match(page: Any, server: str, name: str, title: str) -> Iterator[NetPlayer]:
    """``name``'s private game93 table on ``page`` with Wren (:func:`waiting_partner`),
    started by keyboard: Wren plays on until the block ends."""
    code = create_private_table(page, server, name, title, "game93")
    with waiting_partner(server, code) as wren:
        page.wait_for_function("[...document.querySelectorAll('.seat-who')]"
                               ".some(e => e.textContent === 'Wren')")
        page.focus("text=Start the match")
        page.keyboard.press("Enter")
        yield wren


@contextlib.contextmanager
def waiting_partner(server: str, code: str) -> Iterator[NetPlayer]:
    """Wren joins the table by invitation over a WebSocket of his own and plays each of his
    turns at once, until the test ends: someone at the table waits for the page's player
    (alone with CPUs, nobody is covered for being idle)."""
    at = types.SimpleNamespace(url=server.rstrip("/"),
                               ws_url=server.replace("http", "ws", 1) + "ws")
    wren = NetPlayer(at, "Wren")
    assert wren.request({"type": "join", "invite": code})["type"] == "ack"
    stop = threading.Event()

    def play() -> None:
        acted = -1
        while not stop.is_set():
            try:
                wren.recv(timeout=0.2)
            except TimeoutError:
                continue
            if wren.my_turn() and wren.seq != acted and wren.view is not None:
                acted = wren.seq or 0
                wren.send({"type": "act", "action": wren.view["legal_actions"][0]})

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    try:
        yield wren
    finally:
        stop.set()
        thread.join(10)
        wren.close()


def test_a_cpu_plays_for_an_idle_player_until_they_press_play_again(
        new_page: Any, idle_server: str, axe_source: str, artifacts: Path) -> None:
    page = new_page()
    with idle_match(page, idle_server, "Idla", "Idla's table"):
        page.wait_for_function("spadesApp.table && spadesApp.table.view")
        speech = Speech(page)
        # Idla never plays: her turn comes, Wren waits, and after IDLE s a CPU takes her seat
        said = speech.wait_for("you have not played for 2 seconds", timeout=60)
        assert "a CPU plays for you until you are back" in said["text"]
        box = page.wait_for_selector("#idle-box", timeout=15000)
        assert "A CPU is playing for you" in box.inner_text()
        assert page.evaluate("spadesApp.table.msg.table.seats[spadesApp.table.mySeat].covered")
        audit(page, axe_source, "the table while a CPU plays for you")
        page.screenshot(path=str(artifacts / "idle-cpu-plays-for-you.png"))
        # the button has the keyboard's focus (she was not writing): Enter takes the seat back
        page.wait_for_function("document.activeElement && document.activeElement.id === 'play-again'")
        # the focus on the hand with the box gone, latched as it happens: she does not play,
        # so 0.4 s later (IDLE_AGAIN) a CPU may take her seat again, box and focus with it,
        # and a busy page can show both in one frame, which a test that polls never sees
        page.evaluate("""document.addEventListener('focusin', (e) => {
          if (e.target.id === 'hand' && !document.getElementById('idle-box')) window.__backToHand = true;
        })""")
        page.keyboard.press("Enter")
        speech.wait_for("you are back", timeout=15)
        # then where the game stands, as after a reconnect (before: nothing more; what the
        # CPU did for her and whose turn it is had gone by while she was away)
        caught = speech.wait_for("Hand 1", timeout=15)["text"]
        assert "Scores" in caught and ("turn" in caught or " to bid" in caught
                                       or " to play" in caught or " to lead" in caught), caught
        # the box went and the focus went to the hand
        page.wait_for_function("window.__backToHand === true", timeout=15000)
        # the help (?) says what happens, with this server's time
        helped = page.evaluate("spadesApp.idleHelp()")
        assert "has waited 2 seconds for your turn, a CPU plays for you" in helped
        assert "Take my seat back" in helped
        assert not page.errors, page.errors


#: A turn long enough to open the Bid box before the CPU comes (the box opens at the deal).
SLOW_IDLE = 8


@pytest.fixture
def slow_idle_server(server: str, tmp_path: Path) -> Iterator[str]:
    with serving_with_idle(SLOW_IDLE, tmp_path) as url:
        yield url


def test_idle_with_the_bid_box_open_the_focus_goes_to_play_again(
        new_page: Any, slow_idle_server: str) -> None:
    """Dora opens the Bid box and steps away. Before: the box (modal) kept the focus from
    "Take my seat back" when the CPU took her seat; when the CPU's bid closed it the focus went to
    her hand and she heard "your bid is made" (a keyboard user had to look for the way
    back). Now the focus goes to "Take my seat back" and she hears that a CPU bid for her."""
    server = slow_idle_server
    page = new_page()
    code = create_private_table(page, server, "Dora", "Dora's table", "game93")
    with waiting_partner(server, code):
        page.wait_for_function("[...document.querySelectorAll('.seat-who')]"
                               ".some(e => e.textContent === 'Wren')")
        page.click("text=Start the match")
        page.wait_for_function("spadesApp.table && spadesApp.table.view"
                               " && spadesApp.table.view.phase === 'bid'")
        speech = Speech(page)
        open_bid_box(page)
        speech.wait_for(f"you have not played for {SLOW_IDLE} seconds", timeout=60)
        said = speech.wait_for("The Bid box is closed", timeout=30)
        assert said["text"] == "The Bid box is closed: a CPU bid for you.", said
        page.wait_for_function("!document.querySelector('#bid-dialog[open]')")
        page.wait_for_function("document.activeElement && document.activeElement.id === 'play-again'")
        # the focus on the hand with the box gone, latched as it happens: she does not bid, so
        # 1.6 s later (a fifth of the idle wait) a CPU may take her seat again, box and focus
        # with it, before a test that polls has seen the hand focused
        page.evaluate("""document.addEventListener('focusin', (e) => {
          if (e.target.id === 'hand' && !document.getElementById('idle-box')) window.__backToHand = true;
        })""")
        page.keyboard.press("Enter")
        speech.wait_for("you are back", timeout=15)
        page.wait_for_function("window.__backToHand === true", timeout=15000)
        assert not page.errors, page.errors
