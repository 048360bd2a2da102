"""Records carried to the page from elsewhere (a user's trial of what outlives one match)."""

from __future__ import annotations

import json
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
    continue_upload(page, server, "Rhea", path, 2)
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
    the page did not say so (nor that only finished matches count)."""
    page = new_page()
    page.goto(server + "#/stats")
    page.evaluate("fetch('/api/guest', {method: 'POST', headers: {'Content-Type': "
                  "'application/json'}, body: JSON.stringify({name: 'Stella'})})"
                  ".then(r => r.json()).then(s => { localStorage.setItem('spades.token', "
                  "JSON.stringify(s.token)); location.reload(); })")
    page.wait_for_selector(".stats-note")
    assert page.text_content(".stats-note") == (
        "Over your finished matches. Bids made and set are your side's contracts; nil and "
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
