"""Defects seen by a reviewer playing by keyboard at 390x844 (a phone) and 1280x800 (a laptop):
your own seat's name cut ("Looker…") on the short table while bidding; after the match, the
hand an empty outlined box; the hand's summary a tall box with empty space below its button;
the gold Bid card in the hand looking like a chosen bid (gold with ✓ in the bid panel).
Photographed into artifacts/web/ (look-*.png)."""

from __future__ import annotations

import colorsys
import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import (
    Speech,
    continue_upload,
    create_cpu_table,
    play_to_mid_trick,
    settle,
    start_quick_match,
)
from tests.web.test_layouts import FITS, SIZES
from tests.web.test_summary_timer import KEEP, play_to_summary

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# your seat's name: its box and the text's, its font size, and what a screen reader has
MY_NAME = """(() => {
  const seat = document.querySelector('.felt .seat[data-place="me"]');
  const n = seat.querySelector('.who');
  const b = n.getBoundingClientRect(), s = seat.getBoundingClientRect();
  return {text: n.textContent, scroll: n.scrollWidth, client: n.clientWidth,
          scrollH: n.scrollHeight, clientH: n.clientHeight,
          font: parseFloat(getComputedStyle(n).fontSize),
          lines: Math.round(b.height / parseFloat(getComputedStyle(n).lineHeight)),
          inSeat: b.left >= s.left - 1 && b.right <= s.right + 1 && b.top >= s.top - 1
                  && b.bottom <= s.bottom + 1,
          label: seat.getAttribute('aria-label')};
})()"""


def _show(page: Any, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    page.evaluate("spadesApp.table.fitHand(); spadesApp.table.showTable()")
    settle(page)


# the max-width of a seat at another place than yours on this felt: plain, and dealing
_SEAT_MAX = """(() => {{
  const at = document.querySelector('.seat:not([data-place="me"])');
  const probe = at.cloneNode(false);
  probe.className = 'seat{}';
  at.parentNode.appendChild(probe);
  const px = parseFloat(getComputedStyle(probe).maxWidth);
  probe.remove();
  return px;
}})()"""
SIDE_SEAT = _SEAT_MAX.format("")
DEALER_WIDER = _SEAT_MAX.format(" dealer")


def test_your_long_name_shows_whole_while_bidding(new_page: Any, server: str,
                                                   artifacts: Path) -> None:
    """At 1280x800 while bidding (a short felt) your seat's name was cut to "Looker…" (7 rem,
    5.6 rem on a short felt). Names up to the server's 24 characters now show whole there on one
    line, while bidding and mid-trick, and on a phone (390x844) whole too, on two lines; the
    seat's accessible name keeps the full name, and the table still fits (``FITS``)."""
    bad: list[str] = []
    for name in ("Maximiliana", "Maximiliana Konstantinou"):  # the second: 24 characters
        assert len(name) <= 24
        page = new_page(viewport=LAPTOP)
        create_cpu_table(page, server, name, profile="game93")
        page.wait_for_selector("#bid-panel:not([hidden]) input[name=bid]", state="attached")
        for size, viewport in (("1280x800", LAPTOP), ("390x844", PHONE)):
            _show(page, viewport)
            page.screenshot(path=str(artifacts / f"look-name-{len(name)}-{size}.png"))
            got = page.evaluate(MY_NAME)
            assert got["text"] == name, got
            assert name in got["label"], got
            if got["scroll"] > got["client"] + 1 or got["scrollH"] > got["clientH"] + 1:
                bad.append(f"{name!r} at {size}: cut ({got['client']} of {got['scroll']} px)")
            if not got["inSeat"]:
                bad.append(f"{name!r} at {size}: out of its seat")
            if got["font"] < 11:
                bad.append(f"{name!r} at {size}: {got['font']} px type, too small to read")
            if size == "1280x800" and got["lines"] != 1:  # a laptop has the room for one line
                bad.append(f"{name!r} at {size}: on {got['lines']} lines")
            # another seat that deals is as narrow as the short felt makes it, a chip wider
            # (the dealer's 14.6 rem came after the short felt's rules and overrode them)
            if page.evaluate(DEALER_WIDER) > page.evaluate(SIDE_SEAT) + 40:
                bad.append(f"at {size}: a dealer's seat ignores the short felt")
        # mid-trick the longer seat still fits (no seat over a trick card, nothing off screen)
        page.set_viewport_size(LAPTOP)
        play_to_mid_trick(page, min_cards=2)
        for size, viewport in (("1280x800", LAPTOP), ("390x844", PHONE)):
            _show(page, viewport)
            page.screenshot(path=str(artifacts / f"look-name-{len(name)}-{size}-playing.png"))
            bad += [f"{name!r} at {size}, playing: {p}" for p in page.evaluate(FITS)]
            got = page.evaluate(MY_NAME)
            if got["scroll"] > got["client"] + 1 or got["scrollH"] > got["clientH"] + 1:
                bad.append(f"{name!r} at {size}, playing: cut")
            if size == "1280x800" and got["lines"] != 1:
                bad.append(f"{name!r} at {size}, playing: on {got['lines']} lines")
        assert not page.errors, page.errors
    assert not bad, "\n".join(bad)


# the summary's box and the bottom of what is in it
SUMMARY_ROOM = """(() => {
  const box = document.querySelector('.hand-summary');
  const b = box.getBoundingClientRect();
  const last = box.lastElementChild.getBoundingClientRect();
  const pad = parseFloat(getComputedStyle(box).paddingBottom)
    + parseFloat(getComputedStyle(box).borderBottomWidth);
  return {empty: b.bottom - pad - last.bottom, height: b.height,
          scrolls: box.scrollHeight > box.clientHeight + 1};
})()"""

# the hand after the match: drawn (not display: none), its height, and how many cards
HAND_AFTER = """(() => {
  const h = document.getElementById('hand');
  const b = h.getBoundingClientRect();
  const s = getComputedStyle(h);
  return {shown: s.display !== 'none' && s.visibility !== 'hidden' && b.height > 1,
          cards: h.querySelectorAll('.card').length, height: b.height,
          text: h.innerText.trim(), label: h.getAttribute('aria-label')};
})()"""


def test_the_summary_fits_its_content_and_the_empty_hand_goes(
        new_page: Any, server: str, artifacts: Path) -> None:
    """The hand's summary filled the felt (inset 6 % 8 %) with empty space below its button:
    it is now as tall as what it holds. After the match, the hand was an empty outlined box:
    with no cards it is no longer drawn."""
    page = new_page(viewport=LAPTOP, settings=KEEP)
    start_quick_match(page, "Summa Looker", profile="game93", one_hand=True)
    play_to_summary(page)  # the match's only hand
    page.wait_for_selector(".hand-summary")
    # the match is over behind its last summary: nothing to play or to be advised on
    assert page.locator("#hint-btn").is_hidden() and page.locator("#play-btn").is_hidden()
    for size, viewport in (("1280x800", LAPTOP), ("390x844", PHONE)):
        _show(page, viewport)
        page.locator(".hand-summary").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"look-summary-{size}.png"))
        room = page.evaluate(SUMMARY_ROOM)
        # what is left below the button row: at most a line's worth, unless it must scroll
        assert room["scrolls"] or room["empty"] <= 12, (size, room)
    page.set_viewport_size(LAPTOP)
    page.keyboard.press("Escape")  # the summary goes: the end of the match comes
    page.wait_for_function("() => !spadesApp.table.summaryShown()")
    page.wait_for_selector("#match-over:not([hidden])", timeout=30000)
    page.keyboard.press("Escape")  # the end-of-match box closed: the table behind it
    page.wait_for_selector("#match-over", state="hidden")
    for size, viewport in (("1280x800", LAPTOP), ("390x844", PHONE)):
        _show(page, viewport)
        page.screenshot(path=str(artifacts / f"look-over-{size}.png"))
        hand = page.evaluate(HAND_AFTER)
        assert hand["cards"] == 0, hand
        assert not hand["shown"], (size, hand)
    # nothing left to play or to be advised on: no Play, no Hint
    assert page.locator("#hint-btn").is_hidden() and page.locator("#play-btn").is_hidden()
    # J (to the hand) goes to the Score sheet button beside where the hand was
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.id") == "sheet-btn"
    # pressed again there, where the focus cannot move, J says why (it said nothing)
    speech = Speech(page)
    speech.seen = len(speech.all())
    page.keyboard.press("j")
    assert speech.wait_for("The match is over")["text"] == "The match is over: you hold no cards."
    assert page.evaluate("document.activeElement.id") == "sheet-btn"
    assert not page.errors, page.errors


def _hue(css: str) -> tuple[float, float]:
    """An rgb() colour's hue (degrees) and saturation."""
    r, g, b = (int(float(x)) / 255 for x in css[css.index("(") + 1:css.index(")")]
               .replace(",", " ").split()[:3])
    hue, _, sat = colorsys.rgb_to_hls(r, g, b)
    return hue * 360, sat


def test_the_bid_card_does_not_look_like_a_chosen_bid(new_page: Any, server: str,
                                                     artifacts: Path) -> None:
    """The Bid card in the hand was gold (#f3e3b5, a gold border), like the chosen bid in the
    bid panel (gold with a ✓). Now it is another colour altogether, and the chosen bid keeps
    the gold."""
    page = new_page(viewport=LAPTOP)
    create_cpu_table(page, server, "Goldless", profile="game93")
    page.wait_for_selector("#bid-panel:not([hidden]) input[name=bid]", state="attached")
    page.keyboard.press("b")
    page.keyboard.press("ArrowRight")  # 1 chosen: gold with its ✓
    page.wait_for_selector("#bid-panel input[name=bid]:checked", state="attached")
    _show(page, LAPTOP)
    page.screenshot(path=str(artifacts / "look-bid-card-1280x800.png"))
    looks = page.evaluate("""(() => {
      const c = getComputedStyle(document.querySelector('#hand .card.special-bid'));
      const l = getComputedStyle(document.querySelector('#bid-panel input:checked + label'));
      return {card: c.backgroundColor, cardBorder: c.borderTopColor,
              chosen: l.backgroundColor};
    })()""")
    card, chosen = _hue(looks["card"]), _hue(looks["chosen"])
    border = _hue(looks["cardBorder"])
    apart = min(abs(card[0] - chosen[0]), 360 - abs(card[0] - chosen[0]))
    assert apart >= 60 and card[1] > 0.2, looks
    # its border not gold either
    apart = min(abs(border[0] - chosen[0]), 360 - abs(border[0] - chosen[0]))
    assert apart >= 60, looks
    assert not page.errors, page.errors


# every word of the other seats' names: on how many lines it is drawn (a word broken partway
# through is on two), and on how many lines the whole name is
WORDS_BROKEN = """(() => {
  const out = [];
  for (const n of document.querySelectorAll('.felt .seat:not([data-place="me"]) .who')) {
    const text = n.firstChild;
    if (!text) continue;
    const lh = parseFloat(getComputedStyle(n).lineHeight);
    const lines = (r) => new Set([...r.getClientRects()].filter((b) => b.width > 0)
      .map((b) => Math.round(b.top / (lh / 2)))).size;
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(text.textContent))) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      if (lines(range) > 1) out.push(`seat ${n.closest('.seat').dataset.seat}: "${m[0]}" broken`
        + ` in "${text.textContent}" (${Math.round(n.getBoundingClientRect().width)} px wide)`);
    }
    if (n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1)
      out.push(`seat ${n.closest('.seat').dataset.seat}: "${text.textContent}" cut`);
    if (parseFloat(getComputedStyle(n).fontSize) < 11)
      out.push(`seat ${n.closest('.seat').dataset.seat}: type too small`);
  }
  return out;
})()"""

# names of 12 to 14 letters (one word each), as a continued record's CPUs ("… (CPU)")
LONG_NAMES = ["Konstantinou", "Wolfeschlegel", "Sofia", "Vanderbilthof"]


def test_other_long_names_are_not_broken_mid_word(new_page: Any, server: str, tmp_path: Path,
                                                  artifacts: Path) -> None:
    """On the short felt (1280x800 while bidding, a phone) the side seats were 6.6 rem at most:
    "Konstantinou (CPU)" broke as "Konstantin / ou (CPU)". A word of up to 14 letters is now
    whole on its line there, while bidding and mid-trick, and the table still fits."""
    record = json.loads((Path(__file__).resolve().parents[2] / "spades" / "data"
                         / "example-match.json").read_text(encoding="utf-8"))
    path = tmp_path / "long.json"
    path.write_text(json.dumps({**record, "names": LONG_NAMES, "hands": record["hands"][:7]}),
                    encoding="utf-8")
    page = new_page(viewport=LAPTOP)
    continue_upload(page, server, "Sofia", path, 2)
    page.wait_for_function("spadesApp.table && spadesApp.table.view"
                           " && spadesApp.table.view.hand_number === 8", timeout=15000)
    bad: list[str] = []
    for state in ("bidding", "playing"):
        if state == "playing":
            page.set_viewport_size(LAPTOP)
            play_to_mid_trick(page, min_cards=2)
        for size, viewport in (("1280x800", LAPTOP), ("390x844", PHONE),
                               ):
            _show(page, viewport)
            page.screenshot(path=str(artifacts / f"look-side-names-{state}-{size}.png"))
            shown = page.evaluate("[...document.querySelectorAll('.felt .seat .who')]"
                                  ".map((n) => n.textContent)")
            assert "Konstantinou (CPU)" in shown, shown
            bad += [f"{state} {size}: {p}" for p in page.evaluate(WORDS_BROKEN)]
            bad += [f"{state} {size}: {p}" for p in page.evaluate(FITS)]
    assert not page.errors, page.errors
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("players", [5, 6])
def test_long_names_fit_five_and_six_seats(new_page: Any, server: str, artifacts: Path,
                                           players: int) -> None:
    """Five and six seats whose players have names of 13 letters, on a laptop's or a desktop's
    screen: no word broken, and the table fits (``FITS``), while bidding and mid-trick."""
    page = new_page(viewport=LAPTOP)
    create_cpu_table(page, server, f"Longseats {players}", players=players, teams="0",
                     profile="game93")
    # the CPUs named as long as a person may be (the page draws what the snapshot names)
    rename = ("(() => { const t = spadesApp.table; t.msg.table.seats.forEach((s, i) => {"
              " if (i !== t.mySeat) { s.name = 'Wolfeschlegel'; s.kind = 'human'; } });"
              " t.renderSeats(); t.fitHand(); t.showTable(); })()")
    bad: list[str] = []
    for state in ("bidding", "playing"):
        if state == "playing":
            page.set_viewport_size(LAPTOP)
            play_to_mid_trick(page, min_cards=2)
        for size in ("1920x1080", "1366x768", "1280x720"):
            page.set_viewport_size(SIZES[size])
            page.evaluate(rename)
            settle(page)
            page.screenshot(path=str(artifacts / f"look-long-{players}p-{state}-{size}.png"))
            bad += [f"{state} {size}: {p}" for p in page.evaluate(WORDS_BROKEN)]
            bad += [f"{state} {size}: {p}" for p in page.evaluate(FITS)]
    assert not page.errors, page.errors
    assert not bad, "\n".join(bad)
