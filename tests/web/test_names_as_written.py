"""A player's name is shown and said as they wrote it, also where it opens a sentence or a
line: "eBay sits down", "kim and you" (the page capitalised them: "EBay", "Kim")."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, create_private_table, join_by_invite


def test_a_name_opening_a_sentence_or_a_score_line_keeps_its_case(new_page: Any,
                                                                  server: str) -> None:
    kim = new_page()
    code = create_private_table(kim, server, "kim", "Names as written", "cardems")
    speech = Speech(kim)
    guest = new_page()
    join_by_invite(kim, guest, server, code, "eBay")
    said = speech.wait_for("ebay")["text"]
    assert said.startswith("eBay "), said

    kim.click("text=Start the match")
    kim.wait_for_function("spadesApp.table && spadesApp.table.view"
                          " && spadesApp.table.view.phase !== 'deal'", timeout=15000)
    # the score lines name each side: kim's side is "kim and you" on eBay's page ("Kim and
    # you" before), and "You and eBay" on kim's
    guest.wait_for_function("spadesApp.table && spadesApp.table.view", timeout=15000)
    titles = guest.evaluate("[0, 1].map(k => spadesApp.table.sideTitle(k))")
    assert "kim and you" in titles, titles
    assert "You and eBay" in kim.evaluate("[0, 1].map(k => spadesApp.table.sideTitle(k))")
    for page in (kim, guest):
        text = page.evaluate("document.body.innerText")
        assert "EBay" not in text and "Kim" not in text, text
