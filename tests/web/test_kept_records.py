"""Records carried to the page from elsewhere (a user's trial of what outlives one match)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.web.helpers import continue_upload


def test_a_record_that_is_not_json_says_where_even_when_chromium_does_not(
        new_page: Any, server: str, tmp_path: Path) -> None:
    """Chromium's message for a stray comma names no place ("Unexpected token ',', ..." is not
    valid JSON"): the page said only that, not the line and column (docs/web.md)."""
    page = new_page()
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-file")
    bad = tmp_path / "edited.json"
    bad.write_text('{\n  "format": "spades-record/1",\n  "names": [ , "Ann"],\n'
                   '  "hands": []\n}\n', encoding="utf-8")
    page.set_input_files("#rec-file", str(bad))
    page.wait_for_function("document.getElementById('rec-error').textContent !== ''")
    text = page.text_content("#rec-error")
    assert text.startswith("That file is not JSON at line 3, column 14: "), text
    # a file cut short still says where it ends; a fixed one is accepted
    cut = tmp_path / "cut.json"
    cut.write_text('{\n  "format": "spades-record/1",\n  "names": ["Ann"', encoding="utf-8")
    page.set_input_files("#rec-file", str(cut))
    page.wait_for_function("document.getElementById('rec-error').textContent.includes('line 3')")
    assert page.text_content("#rec-error").startswith("That file is not JSON at ")
    assert not page.errors, page.errors


def test_a_comma_after_the_last_item_is_said_at_the_comma_without_the_files_text(
        new_page: Any, server: str, tmp_path: Path) -> None:
    """A record edited by hand with a comma left after the last name said "That file is not
    JSON at line 281, column 2: Unexpected token ']', ..." "West",U+000A ],U+000A "human"...
    is not valid JSON.": the bracket after it, and the parser's quote of the file (a quote
    that begins with "...", which the page did not take out). It says what is wrong, at the
    comma, as spades replay does; other errors in the middle of a file no longer quote it."""
    page = new_page()
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-file")
    record = {"format": "spades-record/1", "rules": "cardems", "hands": [],
              "names": ["North", "East", "Ada", "West"], "human": 2}
    text = json.dumps(record, indent=1).replace('  "West"\n ]', '  "West",\n ]')
    comma_line = next(n for n, line in enumerate(text.split("\n"), 1) if '"West",' in line)
    bad = tmp_path / "comma.json"
    bad.write_text(text, encoding="utf-8")
    page.set_input_files("#rec-file", str(bad))
    page.wait_for_function("document.getElementById('rec-error').textContent !== ''")
    said = page.text_content("#rec-error")
    assert said == (f"That file is not JSON at line {comma_line}, column 9: a comma with no "
                    f"item after it, before the \"]\" on line {comma_line + 1}. JSON allows "
                    "no comma after the last item; remove it."), said
    # a name and its comma run together in the middle of the file: where, not the quote
    other = tmp_path / "joined.json"
    other.write_text(json.dumps(record, indent=1).replace('"East",', '"East"'),
                     encoding="utf-8")
    page.set_input_files("#rec-file", str(other))
    page.wait_for_function("!document.getElementById('rec-error').textContent.includes('comma')")
    said = page.text_content("#rec-error")
    assert said.startswith("That file is not JSON at line "), said
    assert "U+000A" not in said and "is not valid JSON" not in said and "West" not in said, said
    assert not page.errors, page.errors


def test_a_first_upload_for_review_shows_the_history_it_points_to(
        new_page: Any, server: str, tmp_path: Path) -> None:
    """A visitor with no session uploaded a record for review (the name field made the
    session): the status said "Stored for review (it is in your match history)", yet the
    page still said "Play a match first: your statistics and history appear here." with no
    history. The statistics and the history, with the record marked, now come in its place."""
    page = new_page()
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-name")
    assert "Play a match first" in page.inner_text("main")
    page.fill("#rec-name", "Kept Firstupload")
    record = tmp_path / "kept.json"
    example = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
    record.write_text(example.read_text(encoding="utf-8"), encoding="utf-8")
    page.set_input_files("#rec-file", str(record))
    page.check("input[name=mode][value=review]")
    page.click("form[aria-labelledby=rec-title] button[type=submit]")
    page.wait_for_selector("#rec-status a:has-text('Download it again')")
    page.wait_for_selector(".history-table tbody tr.uploaded", timeout=10000)
    assert "Play a match first" not in page.inner_text("main")
    assert "Playing as Kept Firstupload (guest)." in page.inner_text("main")
    row = page.inner_text(".history-table tbody tr.uploaded")
    assert "Uploaded for review" in row and "Download" in row, row
    # the form is still there, under the history, with what it said
    assert "Stored for review" in page.text_content("#rec-status")
    assert not page.errors, page.errors


def test_the_score_sheet_says_what_points_are_made_of(new_page: Any, server: str,
                                                      tmp_path: Path) -> None:
    """The page's score sheet showed a hand's points alone: "−37 = 261" after a made contract
    of 6 with 3 overtricks, its bag penalty of 100 hidden in the sum (as the terminal's sheet
    hid it). The parts are shown, and read out by O's sheet text."""
    import json

    record = json.loads((Path(__file__).resolve().parents[2] / "spades" / "data"
                         / "example-match.json").read_text(encoding="utf-8"))
    part = {**record, "hands": record["hands"][:7]}  # hand 6: a bag penalty; hand 7: a Nil
    path = tmp_path / "seven.json"
    path.write_text(json.dumps(part), encoding="utf-8")
    page = new_page()
    continue_upload(page, server, "Rhea Sheet", path, 2)  # ("Rhea": an account of test_user_trial2)
    page.wait_for_function("spadesApp.table && spadesApp.table.view"
                           " && spadesApp.table.view.hand_number === 8", timeout=15000)
    page.click("#sheet-btn")
    page.wait_for_selector("#sheet-body .sheet-table")
    rows = page.locator("#sheet-body tbody tr")
    assert rows.count() == 7
    six = rows.nth(5).inner_text()
    assert "(contract +60, overtricks +3, bag penalty −100)" in six, six
    seven = rows.nth(6).inner_text()
    assert "(contract +60, overtricks +1, Nil −100)" in seven, seven
    # contracts and overtricks alone: as before (no parts; the record's CPUs are "Nora (CPU)")
    assert rows.nth(0).locator(".sheet-parts").count() == 0, rows.nth(0).inner_text()
    said = page.evaluate("spadesApp.table.sheetText()")
    assert "minus 37 (contract plus 60, overtricks plus 3, bag penalty minus 100)" in said, said
    assert not page.errors, page.errors


def test_a_terminal_record_continues_at_the_seat_it_says_is_yours(
        new_page: Any, server: str, tmp_path: Path) -> None:
    """``spades export`` writes ``human``, the seat you played at; uploaded to continue, the
    page offered Seat 0 (the partner across) first, so the match went on from the wrong hand
    unless you saw it and changed the seat."""
    import json

    record = json.loads((Path(__file__).resolve().parents[2] / "spades" / "data"
                         / "example-match.json").read_text(encoding="utf-8"))
    first = record["hands"][0]
    part = {**record, "hands": [{**first, "plays": first["plays"][:6]}], "human": 2,
            "cpu": ["intermediate", "intermediate", None, "intermediate"]}
    path = tmp_path / "from-the-terminal.json"
    path.write_text(json.dumps(part), encoding="utf-8")
    page = new_page()
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-name")
    page.fill("#rec-name", "Sofia")
    page.set_input_files("#rec-file", str(path))
    page.check("input[name=mode][value=continue]")
    page.wait_for_function("document.querySelector('#rec-seat option[value=\"3\"]')"
                           " && document.querySelector('#rec-seat').value === '2'")
    assert page.eval_on_selector("#rec-seat", "s => s.selectedOptions[0].textContent") \
        == "Seat 2 (Sofia)"
    page.click("form[aria-labelledby=rec-title] button[type=submit]")
    page.wait_for_function("spadesApp.table && spadesApp.table.mySeat === 2", timeout=15000)
    assert not page.errors, page.errors


def test_the_statistics_say_whose_counts_they_are(new_page: Any, server: str) -> None:
    """"Bids made" counted the side's contracts, "Nil tried" your own bids, "Bags" the side's:
    the page did not say so (nor that only finished matches count). Nor that an unfinished
    match's hands are not counted here, which ``spades stats`` counts: the same games gave
    other numbers in the terminal, and neither said why."""
    page = new_page()
    page.goto(server + "#/stats")
    page.evaluate("fetch('/api/guest', {method: 'POST', headers: {'Content-Type': "
                  "'application/json'}, body: JSON.stringify({name: 'Stella'})})"
                  ".then(r => r.json()).then(s => { localStorage.setItem('spades.token', "
                  "JSON.stringify(s.token)); location.reload(); })")
    page.wait_for_selector(".stats-note")
    assert page.text_content(".stats-note") == (
        "Over your finished matches only: a match not finished adds nothing here, not even "
        "its hands, until it ends (spades stats in the terminal also counts the hands so far "
        "of its unfinished games). Bids made and set are your side's contracts; nil and "
        "blind nil, your own bids; bags and bag penalties, your side's.")
    assert not page.errors, page.errors


def test_a_file_that_is_no_text_says_so_and_forgets_the_seats_of_the_file_before(
        new_page: Any, server: str, tmp_path: Path) -> None:
    """An image or a program chosen as a record was said to be "not JSON ...: Unexpected token
    '\\x7f', "\\x7fELF\\x02\\x01..." is not valid JSON": control characters in the alert, which
    a screen reader reads as noise, and nothing of what the file is. The seat menu kept the
    names of the record chosen before it."""
    page = new_page()
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-file")
    example = Path(__file__).resolve().parents[2] / "spades" / "data" / "example-match.json"
    page.set_input_files("#rec-file", str(example))
    page.wait_for_function(
        "document.querySelector('#rec-seat option').textContent === 'Seat 0 (Nora)'")
    error = "document.getElementById('rec-error').textContent"
    seats = "Array.from(document.querySelectorAll('#rec-seat option'), o => o.textContent)"

    png = tmp_path / "photo.json"
    png.write_bytes(b'{"a": 1,\n "b": "\x89PNG\r\n\x1a\n\x00\x00"}')
    page.set_input_files("#rec-file", str(png))
    page.wait_for_function(f"{error} !== ''")
    assert page.evaluate(error) == ("That file is not UTF-8 text at line 2, column 8 (byte "
                                    "0x89): a record is a JSON text file.")
    assert page.evaluate(seats) == ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]

    page.set_input_files("#rec-file", str(example))
    page.wait_for_function(
        "document.querySelector('#rec-seat option').textContent === 'Seat 0 (Nora)'")
    elf = tmp_path / "program.json"
    elf.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00")
    page.set_input_files("#rec-file", str(elf))
    page.wait_for_function(f"{error} !== ''")
    said = page.evaluate(error)
    assert said == "That file is not JSON at line 1, column 1: Unexpected token 'U+007F'.", said
    assert page.evaluate(seats) == ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]

    # JSON Lines, which spades replay and spades import read: said "not JSON at line 2,
    # column 1: Unexpected non-whitespace character after JSON at position 9110 (line 2
    # column 1)", the place twice and not what the file is
    line = json.dumps(json.loads(example.read_text(encoding="utf-8")))
    many = tmp_path / "many.jsonl"
    many.write_text(f"{line}\n{line}\n\n{line}\n", encoding="utf-8")
    page.set_input_files("#rec-file", str(many))
    page.wait_for_function(f"{error}.includes('JSON Lines')")
    assert page.evaluate(error) == (
        "That file holds 3 lines of JSON, one record each (JSON Lines): upload one record a "
        "file (spades replay and spades import read them all).")
    two = tmp_path / "two.json"
    two.write_text('{"a": 1}\n  }', encoding="utf-8")  # (not a record on each line)
    page.set_input_files("#rec-file", str(two))
    page.wait_for_function(f"{error}.includes('line 2')")
    said = page.evaluate(error)
    assert said.startswith("That file is not JSON at line 2, column 3: ") and (
        "position" not in said), said
    assert not page.errors, page.errors


def _keep_for_review(page: Any, server: str, name: str, record: dict[str, Any],
                     path: Path) -> None:
    """``name`` uploads ``record`` (written to ``path``) for review on the statistics page;
    the page is loaded again, the record in the history."""
    path.write_text(json.dumps(record, separators=(",", ":")), encoding="utf-8")
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-name")
    page.fill("#rec-name", name)
    page.set_input_files("#rec-file", str(path))
    page.check("input[name=mode][value=review]")
    page.click("form[aria-labelledby=rec-title] button[type=submit]")
    page.wait_for_selector("#rec-status a:has-text('Download it again')", timeout=30000)
    page.reload()
    page.locator(".history-table tbody tr.uploaded").first.wait_for()


def _example() -> dict[str, Any]:
    record: dict[str, Any] = json.loads((Path(__file__).resolve().parents[2] / "spades"
                                         / "data" / "example-match.json").read_text("utf-8"))
    return record


def test_an_unfinished_record_kept_for_review_shows_its_score_sheet(
        new_page: Any, server: str, tmp_path: Path, artifacts: Path) -> None:
    """An unfinished record uploaded for review had a Download link and no Score sheet
    button (a finished one has both): the hands played so far could not be seen on the
    page."""
    record = _example()
    third = dict(record["hands"][2], plays=record["hands"][2]["plays"][:9])
    page = new_page()
    _keep_for_review(page, server, "Unfinia", {**record, "hands": [*record["hands"][:2], third]},
                     tmp_path / "unfinished.json")
    row = page.locator(".history-table tbody tr.uploaded").first
    assert row.locator("td").nth(4).inner_text() == "Uploaded for review, not finished"
    button = row.get_by_role("button", name=re.compile("^Score sheet of the uploaded record"))
    button.focus()  # before: no such button
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Score sheet")
    sheet = dialog.locator(".sheet-table")
    sheet.wait_for()
    assert sheet.locator("caption").inner_text() == "Every hand so far"
    assert sheet.locator("tbody tr").count() == 2
    assert sheet.locator("tfoot").inner_text().split("\t")[1:] == ["123 (3 bags)", "92 (2 bags)"]
    assert dialog.locator(".sheet-result").count() == 0  # (no result: not finished)
    page.screenshot(path=str(artifacts / "unfinished-upload-sheet.png"))
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.classList.contains('history-sheet')")
    # on a phone the row with its two buttons does not make the page scroll sideways
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.documentElement.clientWidth <= 390")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not page.errors, page.errors


def test_negative_totals_on_the_score_sheet_have_the_minus_sign_of_the_points(
        new_page: Any, server: str, tmp_path: Path, artifacts: Path) -> None:
    """A hand's points were written "−110" (the minus sign), its total and the sheet's
    Total row "-110" and "-49" (a hyphen): one sign, the minus sign, for both."""
    record = _example()
    first = dict(record["hands"][0], bids=[10, 4, 1, 4])  # Emil and Walt set: −110
    page = new_page()
    _keep_for_review(page, server, "Minna", {**record, "hands": [first, record["hands"][1]]},
                     tmp_path / "set.json")
    page.locator(".history-table tbody tr.uploaded").first.get_by_role(
        "button", name=re.compile("^Score sheet")).click()
    sheet = page.get_by_role("dialog", name="Score sheet").locator(".sheet-table")
    sheet.wait_for()
    first_row = sheet.locator("tbody tr").first.locator("td").nth(1)
    assert first_row.locator(".sheet-pts").inner_text() == "−110"
    assert first_row.locator(".sheet-total").inner_text().endswith("= −110")  # was "= -110"
    total = sheet.locator("tfoot td").nth(1).inner_text()
    assert total.startswith("−49 ("), total  # before: "-49 (...)"
    assert "-" not in sheet.inner_text()
    # the final score the sheet's dialog says for a finished match is written the same way
    page.screenshot(path=str(artifacts / "negative-totals-sheet.png"))
    assert not page.errors, page.errors


def test_a_record_file_of_the_largest_size_is_taken(new_page: Any, server: str,
                                                    tmp_path: Path) -> None:
    """The page let a record file of the server's max_record_bytes (1000000) through, then
    sent it wrapped ({"record": ..., "mode": ...}), some bytes more, which the server refused:
    "a record may be at most 1000000 bytes", of a file that was not over it. A file one
    byte over is still refused by the page, before it is sent."""
    record = _example()
    bare = len(json.dumps({**record, "note": ""}, separators=(",", ":")))
    largest = {**record, "note": "x" * (1_000_000 - bare)}
    page = new_page()
    _keep_for_review(page, server, "Maxima", largest, tmp_path / "largest.json")
    assert (tmp_path / "largest.json").stat().st_size == 1_000_000
    assert page.locator("#rec-error").inner_text() == ""
    over = tmp_path / "over.json"
    over.write_text(json.dumps({**record, "note": "x" * (1_000_001 - bare)},
                               separators=(",", ":")), encoding="utf-8")
    page.set_input_files("#rec-file", str(over))
    page.wait_for_function("document.getElementById('rec-error').textContent !== ''")
    assert page.text_content("#rec-error") == ("A record file may be at most 1000000 bytes; "
                                               "this one is 1000001.")
    assert not page.errors, page.errors


def test_a_seat_chosen_while_the_file_is_read_is_kept(new_page: Any, server: str,
                                                      tmp_path: Path) -> None:
    """The page reads a chosen record (to offer its seats by name) and then drew the seats
    anew: a seat chosen meanwhile (a big file, a slow machine) went back to the record's own,
    and the match went on from a hand the user had not chosen."""
    record = json.loads((Path(__file__).resolve().parents[2] / "spades" / "data"
                         / "example-match.json").read_text(encoding="utf-8"))
    first = record["hands"][0]
    part = {**record, "hands": [{**first, "plays": first["plays"][:6]}], "human": 2}
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(part), encoding="utf-8")
    page = new_page()
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-file")
    # the file's reading waits until the test lets it go on
    page.evaluate("""() => {
        const read = spadesApp.readRecord.bind(spadesApp);
        window.letRead = null;
        spadesApp.readRecord = (file) => new Promise((ok) => { window.letRead = ok; })
            .then(() => read(file));
    }""")
    page.set_input_files("#rec-file", str(path))
    page.check("input[name=mode][value=continue]")
    page.wait_for_function("window.letRead !== null")
    page.select_option("#rec-seat", "1")
    page.evaluate("window.letRead()")
    page.wait_for_function("document.querySelector('#rec-seat option[value=\"1\"]')"
                           ".textContent.includes('(')")  # the seats named from the record
    assert page.input_value("#rec-seat") == "1"
    assert page.eval_on_selector("#rec-seat", "s => s.selectedOptions[0].textContent") \
        == f"Seat 1 ({record['names'][1]})"
    assert not page.errors, page.errors
