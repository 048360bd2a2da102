"""The server writes many refusals for scripts with the name of a field first: the record
upload's ("record: hand 1, bid 1: …", "record: rules: name: …"), the table options'
("first_dealer: must be a seat from 0 to 3", "profile: unknown …", "bag_limit: …"), the
chat's rate ("chat: at most 1 line a second from you, …"), a message's field as pydantic
names it ("chat.text: String should have …"). The page made a sentence of them by a capital
letter alone: "Record: hand 1, …", "First_dealer: must be …", and said "Refused: chat: at
most …"; a screen reader read the field's name as a word of its own. Now the names are words
in the sentence: "The record: hand 1, …", "The name of the rules of the record: …", "The first
dealer: must be …", "Refused: the chat: at most …". The server's words on the wire are kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.web.helpers import Speech, create_cpu_table

#: What the server sends (spades/engine/records.py, spades/engine/rules.py,
#: spades/server/options.py, spades/server/app.py, spades/server/hub.py), and the sentence
#: the page makes of it.
SENTENCES = {
    "record: hand 1, bid 1: '²' is not a bid": "The record: hand 1, bid 1: '²' is not a bid.",
    "record: rules: players: must be a number, true or false, text or null":
        "The number of players of the rules of the record: must be a number, true or false, "
        "text or null.",
    "record: rules: target: must be a whole number 1 or more, not nan":
        "The target score of the rules of the record: must be a whole number 1 or more, not "
        "nan.",
    "first_dealer: must be a seat from 0 to 3": "The first dealer: must be a seat from 0 to 3.",
    "profile: unknown 'x'; choose one of cardems, game93":
        "The rules profile: unknown 'x'; choose one of cardems, game93.",
    "teams: cardems is a partnership game": "The sides: cardems is a partnership game.",
    "bag_limit: cardems does not offer this option (its rules options: none)":
        "The bag limit: cardems does not offer this option (its rules options: none).",
    "match: 'x' contradicts one_hand: true": "The length of the match: 'x' contradicts "
                                             "one_hand: true.",
    "join: give the table's table_id or its invite code":
        "The join: give the table's table_id or its invite code.",
    "chat: at most 1 line a second from you, all your connections together":
        "The chat: at most 1 line a second from you, all your connections together.",
    "chat.text: String should have at most 300 characters":
        "The text of the chat: string should have at most 300 characters.",
    "mode: Input should be 'review' or 'continue'":
        "The mode: input should be 'review' or 'continue'.",
    # not a field: as before
    "this table is private: join with its invite code":
        "This table is private: join with its invite code.",
    "no room to keep this record for review: your address keeps 3":
        "No room to keep this record for review: your address keeps 3.",
}


def test_refusals_that_name_a_field_first_read_as_sentences(new_page: Any, server: str,
                                                            tmp_path: Path) -> None:
    page = new_page()
    made = page.evaluate("""async (texts) => {
        const dom = await import('/js/dom.js');
        return texts.map((t) => dom.reasonSentence(t)); }""", list(SENTENCES))
    assert dict(zip(SENTENCES, made, strict=True)) == SENTENCES

    # the record upload: the server's "record: …" under the form (before: "Record: …")
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-file")
    page.fill("#rec-name", "Fay Fieldfirst")
    error = "document.getElementById('rec-error').textContent"
    for n, (rules, shown) in enumerate([
            ({"preset": "cardems", "name": "x"},
             "The name of the rules of the record: 'x' is not the preset 'cardems'"),
            ("cardems", "The record: hand 1: must be an object with dealer, deal, bids and "
                        "plays, not []")]):
        rec = tmp_path / f"rec{n}.json"
        rec.write_text(json.dumps({"format": "spades-record/1", "rules": rules,
                                   "hands": [[]] if n else []}))
        page.set_input_files("#rec-file", str(rec))
        page.evaluate("document.getElementById('rec-error').textContent = ''")
        page.click("form[aria-labelledby=rec-title] button[type=submit]")
        page.wait_for_function(f"{error} !== ''")
        text = page.text_content("#rec-error") or ""
        assert text.startswith(shown), text

    # the chat's rate at a table: said as a sentence (before: "Refused: chat: at most …")
    create_cpu_table(page, server, "Fay Fieldfirst", profile="cardems")
    speech = Speech(page)
    page.wait_for_selector("#chat-input")
    page.evaluate("""() => { for (let i = 0; i < 8; i++)
        spadesApp.table.request({ type: "chat", text: `line ${i}` }); }""")
    said = speech.wait_for("Refused:")["text"]
    assert said.startswith("Refused: the chat: at most "), said
    assert not page.errors, page.errors
