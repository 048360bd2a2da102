"""Defects of the table page found by looking and listening: R saying "(CPU)" at every press,
Nil tinted as chosen before any choice, "You are back." said after the summary on a reload,
and what the second tab of the same player shows after a take-over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.helpers import (
    Speech,
    bid_with_keyboard,
    create_cpu_table,
    wait_my_turn_or_over,
)
from tests.web.test_blind_trial import _continue_example


def test_r_says_a_cpu_is_one_once(new_page: Any, server: str, tmp_path: Path) -> None:
    """A continued record's CPUs are "Nora (CPU)": R said "Nora (CPU): ..., Emil (CPU): ...,
    Walt (CPU): ..." at every press. As in the score sheet (its head) and O (its first hand),
    the mark is said once, at the first R, then the plain name."""
    page = new_page()
    _continue_example(page, server, tmp_path, "Roundcpu")
    heard = Speech(page)
    heard.new()
    page.keyboard.press("j")
    page.keyboard.press("r")
    first = heard.wait_for("Hand 8,")["text"]
    for cpu in ("Nora", "Emil", "Walt"):
        assert first.count(f"{cpu} (CPU):") == 1, first
    page.keyboard.press("r")
    again = heard.wait_for("Hand 8,")["text"]
    assert "(CPU)" not in again, again
    for cpu in ("Nora", "Emil", "Walt"):
        assert f"{cpu}: " in again, again
    assert not page.errors, page.errors


# each bid button's look: background, border and the "✓" put before a chosen one
LOOKS = """[...document.querySelectorAll('#bid-panel .bid-choice')].map((c) => {
  const l = c.querySelector('label'), s = getComputedStyle(l);
  return {value: c.querySelector('input').value, checked: c.querySelector('input').checked,
          background: s.backgroundColor, border: s.borderColor,
          mark: getComputedStyle(l, '::before').content};
})"""


def test_no_bid_looks_chosen_before_a_choice(new_page: Any, server: str) -> None:
    """The bid panel tinted Nil gold, the colour of the chosen bid, before anything was
    chosen: every bid looks the same until one is chosen, then only that one is gold."""
    page = new_page()
    create_cpu_table(page, server, "Untinted", profile="game93")
    page.wait_for_selector("#bid-panel:not([hidden]) input[name=bid]", state="attached")
    looks = page.evaluate(LOOKS)
    assert looks[0]["value"] == "nil", looks
    assert not any(x["checked"] for x in looks), looks
    assert len({(x["background"], x["border"], x["mark"]) for x in looks}) == 1, looks
    page.keyboard.press("b")
    page.keyboard.press("ArrowRight")  # 1
    looks = page.evaluate(LOOKS)
    chosen = [x for x in looks if x["checked"]]
    assert [x["value"] for x in chosen] == ["1"], looks
    others = {x["background"] for x in looks if not x["checked"]}
    assert len(others) == 1 and chosen[0]["background"] not in others, looks
    assert not page.errors, page.errors


def test_you_are_back_comes_first_after_a_reload(new_page: Any, server: str) -> None:
    """Reloaded mid-game, the page said where the game stands ("You sit South at … Your turn
    …") and only then "You are back." (the server's `returned` event, which follows the join's
    snapshot). Now "You are back." comes first, as "Back at the table." does on a rejoin
    without reload, and once. (The page is left, and a spectator hears that it went, before
    it is opened again: a reload whose new socket came before the old one closed is no return
    at all, and nothing is said of it.)"""
    page = new_page()
    create_cpu_table(page, server, "Reloadback")  # (public: it may be watched)
    assert wait_my_turn_or_over(page) == "bid"
    bid_with_keyboard(page)
    table = page.evaluate("spadesApp.table.id")
    url = page.url
    watcher = new_page()
    watcher.goto(f"{server}#/watch/{table}")
    watcher.fill("#table-name", "Reloadwatcher")
    watcher.keyboard.press("Enter")
    watcher.wait_for_function("window.spadesApp && spadesApp.table && spadesApp.table.view")
    watching = Speech(watcher)
    page.goto(server + "api/health")  # (the page goes: its socket closes)
    watching.wait_for("Reloadback lost the connection")
    page.goto(url)
    page.wait_for_function("window.spadesApp && spadesApp.table && spadesApp.table.view")
    heard = Speech(page)
    heard.wait_for("You are back")
    # a chat line sent now comes after every event of the join: wait for it, then look
    page.evaluate("spadesApp.conn.request({type: 'chat', text: 'ping'})")
    heard.wait_for("says: ping")
    said = [e["text"] for e in heard.all()]
    backs = [i for i, text in enumerate(said) if "are back" in text]
    sits = [i for i, text in enumerate(said) if text.startswith("You sit South")]
    assert len(backs) == 1 and len(sits) == 1, said
    assert said[backs[0]] == "You are back." and backs[0] < sits[0], said
    assert not page.errors, page.errors
