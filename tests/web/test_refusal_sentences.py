"""The server words its refusals for scripts, as clauses: "this table is private: join with
its invite code", "no such table (it may have finished)", "wrong name or password". The page
showed and said them as they came, a sentence starting in lower case and ending without a
full stop. Now what the page shows on its own starts with a capital letter and ends as a
sentence ("This table is private: join with its invite code."); after the page's own words
("Could not join: …") it ends as a sentence. The server's words on the wire stay as they
are (scripts rely on them)."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Speech, create_private_table


def test_the_servers_refusals_are_shown_and_said_as_sentences(new_page: Any,
                                                              server: str) -> None:
    owner, vera = new_page(), new_page()
    create_private_table(owner, server, "Orla Sentence", "Orla's words", "cardems")
    tid = owner.evaluate("spadesApp.table.id")

    # a private table's address without its invitation: the join is refused
    vera.evaluate("localStorage.removeItem('spades.token')")
    speech = Speech(vera)
    vera.goto(server + f"#/table/{tid}")
    vera.fill("#table-name", "Vera Sentence")
    vera.keyboard.press("Enter")
    vera.wait_for_selector("text=Could not join the table")
    why = vera.locator("#main .panel p").first.inner_text()
    assert why == "This table is private: join with its invite code.", why  # before: "this …"
    said = speech.wait_for("Could not join")["text"]
    assert said == "Could not join: this table is private: join with its invite code.", said

    # an invitation that opens no table
    vera.goto(server + "#/join/NOSUCHCODE")
    alert = vera.locator("#main p[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == "No such table (it may have finished).", alert.inner_text()

    # a form's error: a guest's name that is an account's
    vera.evaluate("""(url) => fetch(url + 'api/register', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Rina Sentence', password: 'a good password'})})""", server)
    guest = new_page()
    guest.fill("#quick-name", "Rina Sentence")
    guest.click("form.quick button[type=submit]")
    guest.wait_for_function("document.getElementById('quick-error').textContent !== ''")
    error = guest.text_content("#quick-error") or ""
    assert error.startswith("That name belongs to an account: sign in, or choose another "
                            "name. Sign in as Rina Sentence"), error

    # the account form's: a wrong password
    guest.goto(server + "#/account")
    guest.fill("#in-name", "Rina Sentence")
    guest.fill("#in-password", "not the password")
    guest.click("form:has(#in-name) button[type=submit]")
    guest.wait_for_function("document.getElementById('in-password-error').textContent !== ''")
    assert guest.text_content("#in-password-error") == "Wrong name or password."
    assert not vera.errors and not guest.errors and not owner.errors
