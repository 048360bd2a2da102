"""The guest mark on the page: a guest's name in the seats (waiting room and game) and in
the chat has a small visible "guest" badge, read as "Ann (guest)"; an account's has none
(issue 15: "guests ... are marked as guests")."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import httpx

from tests.server.netclient import NetPlayer
from tests.web.helpers import create_private_table

#: Each seat on the felt: its label, whether it has the guest tag, and whether the tag shows
#: (a box of some size and not hidden, as Playwright's is_visible reads it).
SEATS_JS = """() => [...document.querySelectorAll('.felt .seat')].map(el => {
  const tag = el.querySelector('.guest-tag');
  const box = tag ? tag.getBoundingClientRect() : null;
  return {label: el.getAttribute('aria-label') || '', tag: tag !== null,
          visible: tag !== null && box.width > 0 && box.height > 0
                   && getComputedStyle(tag).visibility !== 'hidden'};
})"""


class _Shim:
    def __init__(self, server: str) -> None:
        self.url = server.rstrip("/")
        self.ws_url = self.url.replace("http://", "ws://") + "/ws"


def test_guests_are_marked_in_seats_and_chat(new_page: Any, server: str,
                                            artifacts: Path) -> None:
    ann = new_page()
    code = create_private_table(ann, server, "Ann", "Guests and accounts", "game93")

    # Bea has an account: she joins from a plain WebSocket client and is not marked.
    bea_name = "Bea" + secrets.token_hex(3)
    r = httpx.post(server + "api/register", json={"name": bea_name, "password": "long enough"},
                   timeout=10)
    assert r.status_code == 200, r.text
    bea = NetPlayer(_Shim(server), bea_name, r.json()["token"])
    try:
        assert bea.request({"type": "join", "invite": code, "role": "player"})["type"] == "ack"
        row_of = "n => [...document.querySelectorAll('#seat-list li')].find(li => " \
                 "li.querySelector('.seat-who').textContent === n)"
        ann.wait_for_function(f"({row_of})({bea_name!r})")
        ann_row = ann.evaluate_handle(f"({row_of})('Ann')").as_element()
        bea_row = ann.evaluate_handle(f"({row_of})({bea_name!r})").as_element()
        assert ann_row is not None and bea_row is not None
        mark = ann_row.query_selector(".guest-mark")
        assert mark is not None and mark.is_visible()
        shown = mark.evaluate("m => [...m.childNodes].filter(n => n.nodeType === 3)"
                              ".map(n => n.textContent).join('')")
        assert shown == "guest"  # the visible word (the brackets are for screen readers)
        assert "Ann (guest)" in ann_row.text_content()  # what a screen reader reads
        assert bea_row.query_selector(".guest-mark") is None

        # Chat: Ann's line is marked, Bea's is not.
        ann.fill("#chat-input", "hello from a guest")
        ann.press("#chat-input", "Enter")
        assert bea.request({"type": "chat", "text": "hello from an account"})["type"] == "ack"
        ann.wait_for_function("document.querySelectorAll('#chat-log li').length >= 2")
        lines = ann.query_selector_all("#chat-log li")
        by_text = {li.text_content(): li for li in lines}
        mine = next(li for t, li in by_text.items() if "hello from a guest" in t)
        hers = next(li for t, li in by_text.items() if "hello from an account" in t)
        assert mine.text_content().startswith("Ann (guest): ")
        chat_mark = mine.query_selector(".guest-mark")
        assert chat_mark is not None and chat_mark.is_visible()
        assert hers.query_selector(".guest-mark") is None
        assert hers.text_content().startswith(f"{bea_name}: ")
        ann.screenshot(path=str(artifacts / "guest-mark-waiting.png"), full_page=True)

        # In the game: Ann's seat shows the mark and its label says "guest"; Bea's and the
        # CPUs' do not.
        ann.click("text=Start the match")
        ann.wait_for_function("spadesApp.table && spadesApp.table.view "
                              "&& document.querySelectorAll('.felt .seat').length === 4")
        ann.wait_for_selector(".felt .seat .guest-tag")
        # One snapshot of every seat, taken in the page in one go: the felt is drawn again on
        # each event (the CPUs bid meanwhile), so handles held across calls can go stale.
        seats = ann.evaluate(SEATS_JS)
        marked = []
        for seat in seats:
            label = seat["label"]
            if seat["tag"]:
                assert seat["visible"], label
                marked.append(label)
            assert ("guest" in label.split(", ")) == seat["tag"], label
        assert len(marked) == 1 and marked[0].startswith("Ann (you), "), marked
        assert ann.text_content(".felt .seat .guest-tag") == "guest"
        who = ann.evaluate("[...document.querySelectorAll('.felt .seat .who')].map(e => "
                           "e.scrollWidth <= e.clientWidth ? e.textContent : '')")
        assert "Ann" in who  # the name is whole (the tag is under it, not beside it)
        ann.screenshot(path=str(artifacts / "guest-mark-game.png"))
        assert not ann.errors, ann.errors
    finally:
        bea.close()
