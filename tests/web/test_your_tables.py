"""The home page's "Your tables": tables of the same name are told apart. A user who hit
``tables_per_user`` with five tables named "Olga's table" saw five identical links
"Return to Olga's table" (a screen reader read the same words five times)."""

from __future__ import annotations

from typing import Any


def test_your_tables_of_the_same_name_are_told_apart(new_page: Any, server: str) -> None:
    page = new_page()
    page.goto(server)
    page.wait_for_selector("#quick-name")
    page.evaluate("""() => {
        localStorage.setItem("spades.tableNames", JSON.stringify({
            "aaaaaaaa-0001": "Olga's table", "bbbbbbbb-0002": "Olga's table",
            "cccccccc-0003": "Tea for two"}));
        spadesApp.myTables = ["aaaaaaaa-0001", "bbbbbbbb-0002", "cccccccc-0003", "dddddddd-4"];
        spadesApp.renderHome();
    }""")
    links = page.locator("#back-title + ul a").all_inner_texts()
    assert links == ["Return to Olga's table (aaaaaaaa)", "Return to Olga's table (bbbbbbbb)",
                     "Return to Tea for two", "Return to a table (dddddddd)"], links
    assert not page.errors, page.errors
