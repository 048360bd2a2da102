"""Defects of the table page found by looking and listening: R saying "(CPU)" at every press,
Nil tinted as chosen before any choice, "You are back." said after the summary on a reload,
and what the second tab of the same player shows after a take-over."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import serving
from tests.web.helpers import (
    Speech,
    bid_with_keyboard,
    create_cpu_table,
    play_to_mid_trick,
    settle,
    start_quick_match,
    take_hinted_turn,
    wait_my_turn_or_over,
)
from tests.web.test_blind_trial import _continue_example
from tests.web.test_conn_states import BOX_SHOWN
from tests.web.test_summary_timer import KEEP, play_to_summary


def test_r_says_a_cpu_is_one_once(new_page: Any, server: str, tmp_path: Path) -> None:
    """A continued record's CPUs are "Nora (CPU)": R said "Nora (CPU): ..., Emil (CPU): ...,
    Walt (CPU): ..." at every press. As in the score sheet (its head) and O (its first hand),
    the mark is said once, at the first R, then the plain name."""
    page = new_page()
    _continue_example(page, server, tmp_path, "Roundcpu")
    heard = Speech(page)
    # where the game stands ("You sit South at … Hand 8, bidding."), said after the table
    # opens: waited for, or it may come after the R below and be taken for its answer
    heard.wait_for("You sit South at")
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
    heard.wait_for("say: ping")  # (your own line: "You say: ping")
    said = [e["text"] for e in heard.all()]
    backs = [i for i, text in enumerate(said) if "are back" in text]
    sits = [i for i, text in enumerate(said) if text.startswith("You sit South")]
    assert len(backs) == 1 and len(sits) == 1, said
    assert said[backs[0]] == "You are back." and backs[0] < sits[0], said
    assert not page.errors, page.errors


@pytest.fixture
def slow_handover(server: str, tmp_path: Path) -> Iterator[str]:
    """A server of its own whose seat goes back to an older tab a minute after the tab that
    held it closed (``handover_ms``): longer than any reload here takes."""
    with serving(tmp_path, "--limit", "handover_ms=60000") as url:
        yield url


# what the older tab shows and says: the box's removals (the flicker) counted as they happen
WATCH_BOX = """() => { window.__boxGone = 0; window.__replacedErrors = 0;
  new MutationObserver((records) => { for (const r of records) for (const n of r.removedNodes)
    if (n.id === 'replaced-box') window.__boxGone++; })
    .observe(document.querySelector('main'), {childList: true, subtree: true});
  spadesApp.conn.on('error', (m) => { if (m.code === 'replaced') window.__replacedErrors++; }); }"""


def test_a_reload_of_the_other_tab_does_not_flicker_this_one(new_page: Any, slow_handover: str,
                                                            artifacts: Path) -> None:
    """Two tabs at one seat: the newer one plays, the older shows "This table is open in
    another tab". A reload of the newer one closed its socket, and the server handed the seat
    at once to the older tab, which drew the table and said "You play in this tab again …",
    until the reloaded tab joined a moment later and it was replaced again: the box went and
    came back (a flicker), and a screen reader heard both. Now the older tab is handed the
    seat only ``handover_ms`` after the close (a minute on this server): the reloaded tab
    takes it back first, and the older one shows and says nothing new."""
    server = slow_handover
    older = new_page(viewport={"width": 1280, "height": 800})
    create_cpu_table(older, server, "Twotabs", profile="game93")
    tid = older.evaluate("spadesApp.table.id")
    newer = older.context.new_page()
    newer.goto(f"{server}#/table/{tid}")
    newer.wait_for_function("window.spadesApp && spadesApp.table && spadesApp.table.isPlayer")
    older.wait_for_function(BOX_SHOWN)
    older.evaluate(WATCH_BOX)
    heard = Speech(older)
    heard.seen = len(heard.all())
    # the newer tab reloads (its page goes, so its socket closes, then it comes back)
    newer.goto(server + "api/health")
    newer.goto(f"{server}#/table/{tid}")
    newer.wait_for_function("window.spadesApp && spadesApp.table && spadesApp.table.isPlayer")
    # a request of the older tab answered after the newer one's join: what that join sent
    # the older one came before its answer
    older.evaluate("spadesApp.conn.request({type: 'ping'})")
    settle(older)
    older.screenshot(path=str(artifacts / "two-tabs-after-reload.png"))
    assert older.evaluate("window.__boxGone") == 0, "the older tab showed the table for a moment"
    assert older.is_visible("#replaced-box")
    assert older.evaluate("spadesApp.table.replaced")
    assert heard.new() == [], "the older tab said something of the reload"
    assert not older.errors, older.errors


def test_no_cpu_plays_for_you_once_the_match_is_over(new_page: Any) -> None:
    """Seen on a phone at the end of a one-hand match: while the last hand's summary was up
    (the status line saying "The match is over."), the side panel still said under Leave the
    table "A CPU plays for you until you come back": there is nothing left to play."""
    page = new_page(viewport={"width": 390, "height": 844}, settings=KEEP)
    start_quick_match(page, "Overnote", one_hand=True)
    assert page.text_content("#leave-note").startswith("A CPU plays for you")
    play_to_summary(page)
    page.wait_for_selector("#summary-next")
    assert page.text_content("#summary-next") == "See the result"
    assert "The match is over." in page.text_content(".status-line")
    assert page.text_content("#leave-note") == "", page.text_content("#leave-note")
    assert not page.errors, page.errors


# the chosen bid's label: the middle of its number and of the label, up and down
TICK_LINE = """(() => {
  const l = document.querySelector('#bid-panel input[name=bid]:checked + label');
  const text = [...l.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const range = document.createRange();
  range.selectNodeContents(text);
  const t = range.getBoundingClientRect(), b = l.getBoundingClientRect();
  return {text: text.textContent, mark: getComputedStyle(l, '::before').content,
          off: (t.top + t.bottom) / 2 - (b.top + b.bottom) / 2, height: b.height,
          other: document.querySelector('#bid-panel input[name=bid]:not(:checked) + label')
            .getBoundingClientRect().height};
})()"""


def test_the_chosen_bids_tick_is_beside_its_number(new_page: Any, server: str,
                                                   artifacts: Path) -> None:
    """At a desktop's width the chosen bid's "✓" sat on a line of its own above the number
    (the label a grid, the ✓ a row of it): now it is on the number's line, the number in the
    middle of its button, the button no taller than the others."""
    page = new_page(viewport={"width": 1280, "height": 800})
    create_cpu_table(page, server, "Tickline", profile="game93")
    page.wait_for_selector("#bid-panel:not([hidden]) input[name=bid]", state="attached")
    page.keyboard.press("b")
    page.keyboard.press("ArrowRight")  # 1
    page.keyboard.press("ArrowRight")  # 2
    page.wait_for_selector("#bid-panel input[name=bid]:checked", state="attached")
    settle(page)
    page.locator("#bid-panel").screenshot(path=str(artifacts / "bid-tick-1280x800.png"))
    got = page.evaluate(TICK_LINE)
    assert got["text"] == "2" and "✓" in got["mark"], got
    assert abs(got["off"]) <= 2, got
    assert got["height"] <= got["other"] + 1, got
    assert not page.errors, page.errors


def test_w_marks_a_cpu_at_its_first_answer_that_names_one(new_page: Any, server: str,
                                                          tmp_path: Path) -> None:
    """W's first answer at the table was the one that said "Nora (CPU)", whoever it named:
    pressed first on your own turn ("Your turn to play."), W never said which players were
    CPUs (a CI run pressed it as the turn came back to you). Its first answer that names a
    CPU says so now."""
    page = new_page()
    heard = Speech(page)
    _continue_example(page, server, tmp_path, "Wfirst")
    state = wait_my_turn_or_over(page)
    assert state in ("bid", "play"), state
    page.keyboard.press("w")
    while not re.fullmatch(r"Your turn to (bid|play|lead)\.", heard.wait_for("Your turn to ")["text"]):
        pass  # (the turn's own prompt, "Your turn to bid: Nil or 1 to 13.", may come first)
    named: list[str] = []
    for _ in range(40):
        take_hinted_turn(page, wait_my_turn_or_over(page))
        while not named and page.evaluate("spadesApp.table.view.current_player") != 2:
            page.keyboard.press("w")
            text = heard.wait_for(" to ")["text"]
            if text.startswith(("Nora", "Emil", "Walt")):
                named.append(text)
        if named:
            break
    assert named and re.fullmatch(r"(Nora|Emil|Walt) \(CPU\) to (bid|play|lead)\..*",
                                  named[0]), named
    assert not page.errors, page.errors


def test_w_p_and_the_news_say_a_cpu_is_one_once(new_page: Any, server: str,
                                                tmp_path: Path) -> None:
    """A continued record's CPUs are "Nora (CPU)": W and P said "Nora (CPU)" at every press,
    and the news ("Nora (CPU) bids 3.", "Emil (CPU) plays …") at every event. As R, the score
    sheet and O do, W and P say the mark at their first answer at the table that names a CPU,
    then the plain name; the news says it the first time it names that player, then "Nora"."""
    page = new_page()
    heard = Speech(page)
    _continue_example(page, server, tmp_path, "Newscpu")
    page.keyboard.press("j")
    page.keyboard.press("p")
    first = heard.wait_for("Scores,")["text"]
    assert first.startswith("Scores, playing to 500: Nora (CPU) and you "), first
    assert "Emil (CPU) and Walt (CPU) " in first, first
    page.keyboard.press("p")
    again = heard.wait_for("Scores,")["text"]
    assert "(CPU)" not in again and "Nora and you " in again and "Emil and Walt " in again, again
    # W: its first answer naming a CPU marks it, the next ones do not
    said: list[str] = []
    for _ in range(40):
        if page.evaluate("spadesApp.table.view.current_player") == 2 or len(said) == 2:
            if len(said) == 2:
                break
            take_hinted_turn(page, wait_my_turn_or_over(page))
            continue
        page.keyboard.press("w")
        text = heard.wait_for(" to ")["text"]
        if text.startswith(("Nora", "Emil", "Walt")):
            said.append(text)
    assert len(said) == 2, said  # (its first answer naming a CPU: test_w_marks_a_cpu_…)
    assert re.fullmatch(r"(Nora|Emil|Walt) \(CPU\) to (bid|play|lead)\..*", said[0]), said
    assert "(CPU)" not in said[1], said
    # T: the same
    page.keyboard.press("t")
    page.keyboard.press("t")
    for _ in range(2):
        heard.wait_for("Spades are")
    # what is said as the game goes (the news, your turn's prompt), to the middle of the
    # second trick: each CPU marked once; the answers to keys and the summary apart
    play_to_mid_trick(page, min_cards=2)
    take_hinted_turn(page, wait_my_turn_or_over(page))
    play_to_mid_trick(page, min_cards=2)
    told = [x["text"] for x in heard.all()]
    asked = re.compile(r"(You sit |Scores,|Hint:|(Nora|Emil|Walt)( \(CPU\))? to |No card played"
                       r"|\w+ led\.)")
    news = " ".join(x for x in told if not asked.match(x))
    for cpu in ("Nora", "Emil", "Walt"):
        assert news.count(f"{cpu} (CPU)") == 1, news
        assert news.count(cpu) > 2, news
    # T's first answer that named CPUs marked them, the one after did not
    trick = [x for x in told if re.match(r"(No card played|\w+ led\.)", x)]
    assert len(trick) == 2, trick
    naming = [x for x in trick if re.search(r"\b(Nora|Emil|Walt)\b", x)]
    assert not naming or "(CPU)" in naming[0], trick
    assert all("(CPU)" not in x for x in naming[1:]), trick
    assert not page.errors, page.errors
