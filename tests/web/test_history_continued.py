"""In the match history a record kept for review is marked as one where its result is
("Uploaded for review"), but a match continued from an uploaded record was not marked at all:
its row read as any match played here ("Won", "Lost"), only its Delete button's label said
"continued match". Now its result says so ("Won, continued from a record"), in the Result
column a screen reader reads with the row, and under the score on a phone, where that column
is hidden."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.web.helpers import EXAMPLE, finish_continued

MARKED = r"(Won|Lost|Draw), continued from a record"


def test_a_continued_match_is_marked_as_one_in_the_history(new_page: Any, server: str,
                                                           tmp_path: Path) -> None:
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    record["names"] = ["Cleo", "Hugo", "Ines", "Otto"]
    page = new_page()
    finish_continued(page, server, "Carmen Marked", record, tmp_path)

    page.goto(server + "#/stats")
    row = page.locator(".history-table tbody tr.continued")
    row.wait_for()
    assert row.count() == 1
    cells = row.locator("td")
    result = cells.nth(4).inner_text()
    assert re.fullmatch(MARKED, result), result  # before: "Won" (or "Lost"), unmarked
    # read with the row (its cells as a screen reader goes along it)
    assert re.search(MARKED, row.inner_text()), row.inner_text()

    # on a phone the Result column is hidden: the mark goes under the score
    page.set_viewport_size({"width": 390, "height": 844})
    assert not cells.nth(4).is_visible()
    under = cells.nth(3).locator("small.narrow-only")
    assert under.is_visible()
    assert re.fullmatch(MARKED, under.inner_text().strip()), under.inner_text()
    assert not page.errors, page.errors
