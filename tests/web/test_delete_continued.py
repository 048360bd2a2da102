"""A match continued from an upload (``POST /api/records`` ``continue``) counts in the
server's caps on records kept for review, and its uploader may delete it once it has ended
(``DELETE /api/games/{id}``); the 413 of a full store says to delete some to make room. But
the match history offered a Delete button only for records kept for review: with only a
continued match that had ended, the page said "you keep none yourself that you could
delete", and nothing on it could make room. Now the history (``deletable``) gives such a
match the same Delete button, asked first in the same dialog and said in the same words as
a record kept for review. On a server of the test's own, whose cap is 1 per address."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import serving
from tests.web.helpers import ACTIVE, EXAMPLE, finish_continued
from tests.web.test_records import upload


@pytest.fixture
def capped(server: str, tmp_path: Path) -> Iterator[str]:
    """A server of the test's own keeping at most 1 record for review per address."""
    with serving(tmp_path, "--limit", "review_uploads_per_address=1") as url:
        yield url


def test_a_continued_match_that_has_ended_is_deleted_from_the_history(
        new_page: Any, capped: str, tmp_path: Path) -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record["names"] = ["Cora", "Emil", "Sofia", "Walt"]
    full = tmp_path / "full.json"
    full.write_text(json.dumps(record), encoding="utf-8")
    page = new_page()
    speech = finish_continued(page, capped, "Contessa", record, tmp_path)

    # the store is full (the continued match counts): the page says to delete it, and where
    upload(page, capped, full, "review")  # (going to the statistics page leaves the table)
    speech.wait_for("You left")
    error = page.locator("#rec-error")
    page.wait_for_function("document.getElementById('rec-error').textContent.includes('room')")
    said = error.inner_text()
    # before: "Your address keeps 1 record uploaded, the most one address may keep: you keep
    # none yourself that you could delete." (and no button to a Delete button)
    assert said.startswith("No room to keep this record for review. You keep 1 record "
                           "uploaded, the most one address may keep: delete some to make room "
                           "(each has a Delete button in your match history, above)."), said
    error.get_by_role("button", name="Go to the records you kept").wait_for()
    page.keyboard.press("Shift+Tab")  # from Upload, back to the way there
    assert page.evaluate(ACTIVE) == "Go to the records you kept"
    page.keyboard.press("Enter")
    rows = page.locator(".history-table tbody tr")
    assert rows.count() == 1
    label = page.evaluate(ACTIVE)
    assert re.fullmatch(r"Delete the continued match of .+ \(.+\)", label), label
    continued_id = page.evaluate("document.activeElement.closest('tr').dataset.game")

    # asked first, as a record kept for review is; then deleted, and said so
    page.keyboard.press("Enter")
    dialog = page.get_by_role("alertdialog", name="Delete this record?")
    dialog.wait_for()
    text = dialog.locator("#delete-text").inner_text()
    assert text.startswith("Delete the continued match of "), text
    assert page.evaluate(ACTIVE) == "Keep it"
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE) == "Delete the record"
    page.keyboard.press("Enter")
    dialog.wait_for(state="hidden")
    item = speech.wait_for("Record deleted")
    assert item["text"].startswith("Record deleted: the continued match of "), item
    page.locator("#history").get_by_text("No matches yet.").wait_for()
    assert page.evaluate("document.activeElement.id") == "hist-title"
    assert page.locator("#history-note").inner_text() == ""
    code = page.evaluate(
        """([url, id]) => fetch(url + 'api/games/' + id + '/record', {headers:
             {Authorization: 'Bearer ' + JSON.parse(localStorage.getItem('spades.token'))}})
           .then(r => r.status)""", [capped, continued_id])
    assert code == 404  # gone from the server

    # there is room again
    upload(page, capped, full, "review")
    page.wait_for_selector("#rec-status a:has-text('Download it again')")
    assert not page.errors, page.errors
