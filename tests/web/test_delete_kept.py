"""Records kept for review are capped on the server (``review_uploads_per_address``: past it
``POST /api/records`` answers 413 and says to delete one); the page had no way to delete
one. Now each record kept for review has a Delete button in the match history, named for
its record, that asks first in a modal dialog (the focus on "Keep it", Escape keeps it, the
focus back on the button), then sends ``DELETE /api/games/{id}``: the row goes, "Record
deleted" is said and the focus goes to the next record's button (or the history's heading);
a refusal or a network failure is said in words and the row stays. The 413 of an upload
says why in plain words (not the cap's --limit name) and leads to those buttons. On a
server of the test's own, whose cap is 2 (the shared one turns the cap off)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import serving
from tests.web.helpers import ACTIVE, EXAMPLE, Speech, settle
from tests.web.test_axe_and_screenshots import audit
from tests.web.test_records import upload


@pytest.fixture
def capped(server: str, tmp_path: Path) -> Iterator[str]:
    """A server of the test's own keeping at most 2 records for review per address."""
    with serving(tmp_path, "--limit", "review_uploads_per_address=2") as url:
        yield url


def _record(folder: Path, first: str) -> Path:
    """The example match with its first seat named ``first`` (rows told apart by names)."""
    rec = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    rec["names"] = [first, "Bram", "Cleo", "Dov"]
    path = folder / f"{first}.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    return path


def _kept(page: Any, server: str, path: Path) -> None:
    upload(page, server, path, "review")
    page.wait_for_selector("#rec-status a:has-text('Download it again')")


def _confirm(page: Any) -> Any:
    """Enter on the focused Delete button: the dialog, its focus on "Keep it"; Tab, Enter:
    "Delete the record". Returns the dialog."""
    page.keyboard.press("Enter")
    dialog = page.get_by_role("alertdialog", name="Delete this record?")
    dialog.wait_for()
    assert page.evaluate(ACTIVE) == "Keep it"
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE) == "Delete the record"
    page.keyboard.press("Enter")
    dialog.wait_for(state="hidden")
    return dialog


def _status(page: Any, server: str, game_id: str) -> int:
    """What the server answers the page's session for the record ``game_id``."""
    code: int = page.evaluate(
        """([url, id]) => fetch(url + 'api/games/' + id + '/record', {headers:
             {Authorization: 'Bearer ' + JSON.parse(localStorage.getItem('spades.token'))}})
           .then(r => r.status)""", [server, game_id])
    return code


def test_a_record_kept_for_review_is_deleted_from_the_history_by_keyboard(
        new_page: Any, capped: str, tmp_path: Path, artifacts: Path, axe_source: str) -> None:
    page = new_page()
    speech = Speech(page)
    ada, eva, ivo = (_record(tmp_path, n) for n in ("Ada", "Eva", "Ivo"))
    page.goto(capped + "#/stats")
    page.fill("#rec-name", "Delia")
    _kept(page, capped, ada)
    _kept(page, capped, eva)

    # past the cap: the server's reason, and the way to make room on this page
    upload(page, capped, ivo, "review")
    error = page.locator("#rec-error")
    error.get_by_role("button", name="Go to the records you kept").wait_for()
    said = error.inner_text()
    # in plain words: before, the limit by its --limit name ("… is 2
    # (review_uploads_per_address)"), meaningless to a player
    assert said.startswith("No room to keep this record for review. You keep 2 records "
                           "uploaded, the most one address may keep: delete some to make room "
                           "(each has a Delete button in your match history, above)."), said
    assert "review_uploads" not in said and "(this one 1)" not in said, said
    assert "nobody opens (downloads, or looks at its score sheet) for 60 days." in said, said
    assert "DELETE /api" not in said, said  # (before: the server's words for API clients)
    page.keyboard.press("Shift+Tab")  # from Upload, back to the way there
    assert page.evaluate(ACTIVE) == "Go to the records you kept"
    page.keyboard.press("Enter")
    rows = page.locator(".history-table tbody tr.uploaded")
    assert rows.count() == 2
    label = page.evaluate(ACTIVE)
    assert re.fullmatch(r"Delete the uploaded record of .+ \((Ada|Eva), Bram, Cleo, Dov\)",
                        label), label
    first = label[-len("Ada, Bram, Cleo, Dov)"):-len(", Bram, Cleo, Dov)")]
    other = "Eva" if first == "Ada" else "Ada"
    first_id = page.evaluate("document.activeElement.closest('tr').dataset.game")
    settle(page)
    page.screenshot(path=str(artifacts / "history-delete-button.png"), full_page=True)
    audit(page, axe_source, "the history with Delete buttons and the upload refused")

    # asked first; Escape keeps it, the focus back on its button
    page.keyboard.press("Enter")
    dialog = page.get_by_role("alertdialog", name="Delete this record?")
    dialog.wait_for()
    assert dialog.get_attribute("aria-describedby") == "delete-text"
    text = dialog.locator("#delete-text").inner_text()
    assert text.startswith("Delete the uploaded record of ") and f"({first}, Bram" in text, text
    assert page.evaluate(ACTIVE) == "Keep it"  # the safe answer first, as Blind Nil's
    settle(page)
    page.screenshot(path=str(artifacts / "history-delete-dialog.png"))
    audit(page, axe_source, "the dialog asking to delete a record")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # Tab stays in the dialog
    assert page.evaluate(ACTIVE) == "Keep it"
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate(ACTIVE) == label
    assert rows.count() == 2 and _status(page, capped, first_id) == 200

    # the network fails: said in words, the row stays, the focus on its button
    page.route("**/api/games/*", lambda route: route.abort() if route.request.method == "DELETE"
               else route.continue_())
    _confirm(page)
    speech.wait_for("The record was not deleted: the server could not be reached")
    assert "could not be reached" in page.locator("#history-note").inner_text()
    assert rows.count() == 2 and page.evaluate(ACTIVE) == label
    page.unroute("**/api/games/*")

    # deleted: the row goes, said so, the focus on the next record's Delete button
    _confirm(page)
    speech.wait_for("Record deleted")
    rows.nth(1).wait_for(state="detached")
    assert rows.count() == 1
    assert re.fullmatch(rf"Delete the uploaded record of .+ \({other}, Bram, Cleo, Dov\)",
                        page.evaluate(ACTIVE)), page.evaluate(ACTIVE)
    assert page.locator("#history-note").inner_text() == ""
    assert _status(page, capped, first_id) == 404  # gone from the server

    # there is room again
    _kept(page, capped, ivo)
    rows.nth(1).wait_for()
    assert rows.count() == 2

    # a record gone meanwhile (deleted from another tab): said so, the row stays
    gone = rows.filter(has_text=f"{other}, Bram").locator(".history-delete")
    gone_id = page.evaluate("e => e.closest('tr').dataset.game", gone.element_handle())
    assert page.evaluate(
        """([url, id]) => fetch(url + 'api/games/' + id, {method: 'DELETE', headers:
             {Authorization: 'Bearer ' + JSON.parse(localStorage.getItem('spades.token'))}})
           .then(r => r.status)""", [capped, gone_id]) == 204
    gone.focus()
    _confirm(page)
    speech.wait_for("The record was not deleted: the server has no such record of yours")
    assert rows.count() == 2 and page.evaluate(
        "document.activeElement.closest('tr').dataset.game") == gone_id

    # the last one deleted: the focus on the history's heading (on a phone, whose page does
    # not scroll sideways with the Delete button in the row)
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    speech = Speech(page)  # (a new page: its announcements from none)
    rows.first.wait_for()
    assert rows.count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "history-delete-phone.png"), full_page=True)
    rows.first.locator(".history-delete").focus()
    _confirm(page)
    speech.wait_for("Record deleted")
    page.locator("#history").get_by_text("No matches yet.").wait_for()
    assert page.evaluate("document.activeElement.id") == "hist-title"
    assert not page.errors, page.errors


def test_a_server_full_of_records_is_said_without_how_many_it_keeps(
        new_page: Any, server: str, tmp_path: Path) -> None:
    """A server that keeps as many records for review as it may for everyone
    (``review_uploads``): the 413 said how many it keeps for everyone, and the page said
    it ("The server keeps 1 record uploaded by everyone, the most it may keep"), to anyone.
    Now the server says only that it is full and what your address keeps, and so does the
    page, with the way to make room."""
    with serving(tmp_path, "--limit", "review_uploads=1") as full:
        page = new_page()
        page.goto(full + "#/stats")
        page.fill("#rec-name", "Fulvia")
        _kept(page, full, _record(tmp_path, "Ada"))
        upload(page, full, _record(tmp_path, "Eva"), "review")
        error = page.locator("#rec-error")
        error.get_by_role("button", name="Go to the records you kept").wait_for()
        said = error.inner_text()
        assert said.startswith("No room to keep this record for review. The server keeps as "
                               "many records uploaded by everyone as it may. Your address "
                               "keeps 1 record uploaded (1 of them yours). Delete some of "
                               "yours to make room (each has a Delete button in your match "
                               "history, above)."), said
        assert "review_uploads" not in said, said
