"""Records carried to the page from elsewhere (a user's trial of what outlives one match)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


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
