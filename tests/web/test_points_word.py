"""P's answer names one point in the singular ("You and North 1 point, 1 bag"): it said
"1 points", though the bags beside it were counted right."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import start_quick_match


def test_the_scores_say_one_point_and_other_counts_of_points(new_page: Any) -> None:
    page = new_page()
    start_quick_match(page, "Una Point", one_hand=True)
    page.wait_for_function("spadesApp.table && spadesApp.table.score")
    said = page.evaluate("""() => {
        const t = spadesApp.table;
        t.score = {...t.score, scores: [1, -1], bags: [1, 0], bag_warning: null};
        return t.scoresText();
    }""")
    assert " 1 point, 1 bag;" in said, said
    assert " -1 points, 0 bags." in said, said
    assert not page.errors, page.errors
