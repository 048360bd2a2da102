"""What a sighted player saw trying the page at 1280x800 and 390x844 (a hand against CPUs, the
score sheet, the statistics and history):

- the statistics wrote a negative number with the hyphen ("Points -29", "Average points
  -14.50") where the score sheet and the history write the same points with the minus sign
  ("−29", as ``scoreText`` writes them);
- the empty target fields said "profile's" (the quick form's, the create form's, the waiting
  room's): a word with nothing after it, and a screen reader's hint for the field ("Target,
  profile's"). They now say what an empty field stands for: "500 if left empty", the chosen
  profile's own target (400 under race400);
- the score sheet of a finished match was headed "Every hand so far (match over)": "so far"
  of a match that is over. It is now "Every hand of the finished match" (still "Every hand so
  far" while the match goes on);
- the table scrolls the site's name and menu out of sight to show the felt whole; the pages
  opened after it (the home page after the match's "New match", Settings, Help) kept that scroll, their
  menu out of sight above their heading. A page now opens at its top;
- the settings ran each box into its words ("☐Mute", the box above the middle of their line)
  and each label into its control ("Volume" against its slider)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.helpers import create_private_table, play_hinted_to_end, start_quick_match


@pytest.mark.parametrize(("average", "said"), [(-14.5, "−14.5"), (39.2, "39.2"), (32.0, "32.0")])
def test_negative_statistics_have_the_minus_sign(new_page: Any, server: str, average: float,
                                                 said: str) -> None:
    # the average is as the server rounds it (one decimal, as spades stats says it): before
    # it was written with two, "39.20" for 157 points over 4 hands (39.25), and a whole one
    # with none ("32")
    page = new_page()
    page.evaluate("""async () => {  // a session: the statistics page shows its statistics
        const r = await fetch('/api/guest', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Mina Minus'})});
        const s = await r.json();
        localStorage.setItem('spades.token', JSON.stringify(s.token)); }""")

    def negative(route: Any) -> None:  # (a lost match's points, whatever the CPUs did)
        answer = route.fetch()
        body = answer.json()
        body["stats"] = {"total": {"matches_played": 2, "points": -29,
                                   "average_points": average}}
        route.fulfill(response=answer, body=json.dumps(body))

    page.route("**/api/users/*/stats", negative)
    page.goto(server + "#/stats")
    page.reload()  # (the page reads the session when it loads)
    page.wait_for_selector("dl.stats")
    shown = page.evaluate("""Object.fromEntries([...document.querySelectorAll('dl.stats div')]
        .map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent]))""")
    # before: "-29", "-14.50"
    assert shown == {"Matches played": "2", "Points": "−29", "Average points": said}, shown
    assert not page.errors, page.errors


def test_an_empty_target_field_says_what_it_stands_for(new_page: Any, server: str) -> None:
    page = new_page()
    target = "document.getElementById('quick-target').placeholder"
    assert page.evaluate(target) == "500 if left empty"  # before: "profile's"
    page.select_option("#quick-profile", "race400")
    assert page.evaluate(target) == "400 if left empty"

    page.goto(server + "#/create")
    page.wait_for_selector("#c-profile")
    page.select_option("#c-profile", "race400")
    assert page.evaluate("document.getElementById('c-target').placeholder") == \
        "400 if left empty"
    page.select_option("#c-profile", "cardems")
    assert page.evaluate("document.getElementById('c-target').placeholder") == \
        "500 if left empty"

    owner = new_page()
    create_private_table(owner, server, "Tess Target", "Tess's table", "race400")
    owner.wait_for_selector("#w-target")
    assert owner.evaluate("document.getElementById('w-target').placeholder") == \
        "400 if left empty"
    assert not page.errors and not owner.errors, (page.errors, owner.errors)


def test_the_sheet_of_a_finished_match_is_not_headed_so_far(new_page: Any) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    start_quick_match(page, "Fin Sheet", profile="cardems", one_hand=True)
    play_hinted_to_end(page)
    over = page.locator("#match-over button:has-text('Score sheet')")
    over.click()
    page.wait_for_selector("#sheet-dialog[open] .sheet-table")
    said = page.locator("#sheet-dialog .sheet-table caption").inner_text()
    assert said == "Every hand of the finished match", said  # before: "… so far (match over)"
    assert not page.errors, page.errors


def test_the_pages_after_the_table_open_at_their_top(new_page: Any) -> None:
    page = new_page(viewport={"width": 390, "height": 844})
    start_quick_match(page, "Tori Top", profile="cardems", one_hand=True)
    # the table shows the felt whole: the site's name and menu above it out of sight
    page.wait_for_function("window.scrollY > 0")
    play_hinted_to_end(page)
    page.click("#match-over a:has-text('New match')")
    page.wait_for_selector("#quick-name")
    page.wait_for_function("document.activeElement && document.activeElement.tagName === 'H1'")
    # before: the home page opened scrolled as the table was, its menu out of sight
    assert page.evaluate("window.scrollY") == 0
    page.evaluate("location.hash = '#/settings'")  # (as the menu's link does)
    page.wait_for_function("document.activeElement && document.activeElement.textContent"
                           " === 'Settings'")
    assert page.evaluate("window.scrollY") == 0
    assert not page.errors, page.errors


GAPS = """() => [...document.querySelectorAll('.settings fieldset p')].map((p) => {
    const label = p.querySelector('label');
    const control = p.querySelector('input, select');
    const a = (p.classList.contains('check') ? control : label).getBoundingClientRect();
    const b = (p.classList.contains('check') ? label : control).getBoundingClientRect();
    return {id: control.id, gap: b.top >= a.bottom ? null : b.left - a.right,
            centres: Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2)};
})"""


def test_the_settings_keep_each_box_and_control_apart_from_its_words(new_page: Any,
                                                                     server: str) -> None:
    """The settings' rows ran a box into its label ("☐Mute") and a label into its control
    ("Volume" against its slider), the box above the middle of its words' line."""
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page = new_page(viewport=size)
        page.goto(server + "#/settings")
        page.wait_for_selector("#s-muted")
        rows = page.evaluate(GAPS)
        assert len(rows) >= 10, rows
        for row in rows:
            # side by side: apart (before: 0 px) and centred on each other; a control too
            # wide for its label's line is under it (gap None)
            assert row["gap"] is None or (row["gap"] >= 4 and row["centres"] <= 2), (size, row)
        assert not page.errors, page.errors
