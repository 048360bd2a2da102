"""Defects found by the second user trial of the page: watching from the lobby, the account
screens, Mirror and Blind Nil on the create form, the hand's summary adding up, the turn after
looking at the cards, the bidding variants said and offered truly, the record upload form, the
layouts at 1366x768, and small wording."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.web.helpers import (
    Speech,
    create_cpu_table,
    join_by_invite,
    play_hinted_to_end,
    start_quick_match,
    wait_my_turn_or_over,
)


def test_watch_from_the_lobby_as_a_new_visitor(new_page: Any, server: str) -> None:
    ann = new_page()
    create_cpu_table(ann, server, "Wanda", profile="race400", players=4,
                     table_name="Wanda watched")
    ann_speech = Speech(ann)
    vic = new_page()
    vic.goto(server + "#/lobby")
    vic.click("a[aria-label='Watch Wanda watched']")
    # no session: a name right here, then on to the table as a spectator
    vic.fill("#table-name", "Vic")
    vic.click("main form button[type=submit]")
    vic.wait_for_function("spadesApp.table && spadesApp.table.view", timeout=15000)
    assert vic.evaluate("spadesApp.table.msg.you.role") == "spectator"
    Speech(vic).wait_for("You are watching Wanda watched")
    assert vic.text_content("#leave-btn") == "Stop watching"
    assert not vic.is_visible("#hint-btn")
    # the players see and hear who watches (once, not on every frame)
    ann.wait_for_function("document.getElementById('watchers').textContent.includes('Vic')")
    assert "1 spectator watching: Vic" in ann_speech.wait_for("watching")["text"]
    vic.click("#leave-btn")
    vic.wait_for_function("location.hash === '#/lobby'")
    Speech(vic).wait_for("You stopped watching Wanda watched")
    assert "Nobody is watching" in ann_speech.wait_for("watching")["text"]
    said = [e["text"] for e in ann_speech.all() if "watching" in e["text"]]
    assert len(said) == 2, said
    assert not ann.errors and not vic.errors, (ann.errors, vic.errors)


def test_register_sign_in_and_out_with_the_reasons_at_their_fields(new_page: Any,
                                                                    server: str) -> None:
    page = new_page()
    page.click(".topbar nav a[href='#/account']")
    page.fill("#reg-name", "Rhea")
    page.fill("#reg-password", "a good password")
    page.click("form:has(#reg-name) button[type=submit]")
    page.wait_for_function("document.getElementById('conn').textContent === 'Rhea'")
    # the name is kept over a reload
    page.reload()
    page.wait_for_function("document.getElementById('conn').textContent === 'Rhea'")
    page.click("#sign-out")
    page.wait_for_function("document.getElementById('conn').textContent === 'Not signed in'")
    # taken: at the name; wrong password: at the password
    page.fill("#reg-name", "rhea")
    page.fill("#reg-password", "another password")
    page.click("form:has(#reg-name) button[type=submit]")
    page.wait_for_function("document.getElementById('reg-name-error').textContent !== ''")
    assert "taken" in page.text_content("#reg-name-error")
    assert page.get_attribute("#reg-name", "aria-invalid") == "true"
    page.fill("#in-name", "Rhea")
    page.fill("#in-password", "not the password")
    page.click("form:has(#in-name) button[type=submit]")
    page.wait_for_function("document.getElementById('in-password-error').textContent !== ''")
    # (the server's words as a sentence: tests/web/test_refusal_sentences.py)
    assert page.text_content("#in-password-error") == "Wrong name or password."
    # a guest who types the account's name is offered the sign-in form, and comes back
    page.goto(server + "#/")
    page.fill("#quick-name", "Rhea")
    page.click("form.quick button[type=submit]")
    page.click("#quick-error a:has-text('Sign in as Rhea')")
    assert page.input_value("#in-name") == "Rhea"
    page.wait_for_function("document.activeElement.id === 'in-password'")
    page.fill("#in-password", "a good password")
    page.keyboard.press("Enter")
    page.wait_for_function("location.hash === '#/'"
                           " && document.getElementById('conn').textContent === 'Rhea'")
    assert not page.errors, page.errors


def test_a_guest_sees_their_name_after_a_reload(new_page: Any) -> None:
    page = new_page()
    page.fill("#quick-name", "Gil")
    page.click("form.quick button[type=submit]")
    page.wait_for_selector("#hand", state="attached")
    page.reload()
    page.wait_for_function("document.getElementById('conn').textContent === 'Gil (guest)'")


def test_mirror_turns_blind_nil_off_and_errors_name_the_field(new_page: Any,
                                                              server: str) -> None:
    page = new_page()
    page.goto(server + "#/create")
    page.fill("#c-your-name", "Mira")
    page.select_option("#c-profile", "cards4net")
    assert page.is_checked("#c-blind_nil")
    page.select_option("#c-bidding", "mirror")
    assert not page.is_checked("#c-blind_nil") and page.is_disabled("#c-blind_nil")
    page.click("#c-cpus")
    page.wait_for_function("spadesApp.table && spadesApp.table.view", timeout=15000)
    assert page.evaluate("spadesApp.table.rules.bidding") == "mirror"
    # a refusal of the server names the field by its label, not by the knob
    page.goto(server + "#/create")
    page.select_option("#c-profile", "race400")
    page.select_option("#c-players", "5")
    page.select_option("#c-teams", "2")
    page.click("#c-cpus")
    page.wait_for_function("document.getElementById('create-error').textContent !== ''")
    text = page.text_content("#create-error")
    assert text.startswith("Sides: "), text
    assert page.get_attribute("#c-teams", "aria-invalid") == "true"


# (the summary's lines of a failed Nil adding up to the hand's points, and "Your Blind Nil":
# the page no longer builds them; they are the server's, the terminal's hand details, which
# tests/terminal/test_console_text.py (test_hand_summary_adds_up_one_sentence_a_line) and
# tests/terminal/test_blind_trial_words.py check; tests/web/test_summary_words.py shows them)


def test_after_looking_at_the_cards_the_turn_to_bid_is_said(new_page: Any, server: str) -> None:
    page = new_page()
    # the last seat deals: the creator (seat 0) bids first, cards face down
    create_cpu_table(page, server, "Luca", profile="cards4net", first_dealer=3)
    speech = Speech(page)
    speech.wait_for("Your turn to bid. You may bid Blind Nil")
    page.keyboard.press("b")
    assert page.evaluate("document.activeElement.id") == "look-btn"
    page.keyboard.press("Enter")
    speech.wait_for("You look at your cards")
    speech.wait_for("You hold 13 cards")
    assert re.match(r"Your turn to bid: Nil or \d+", speech.wait_for("Your turn to bid")["text"])


def create_whiz_table(page: Any, server: str, name: str, table_name: str, first_dealer: str,
                      private: bool = False) -> None:
    """Fill "Create a table" for a cards4net table with Whiz bidding (no Blind Nil) and the
    given first dealer's seat, and create it."""
    page.goto(server + "#/create")
    page.fill("#c-your-name", name)
    page.fill("#c-name", table_name)
    page.select_option("#c-profile", "cards4net")
    page.select_option("#c-bidding", "whiz")
    page.uncheck("#c-blind_nil")
    if private:
        page.check("#c-private")
    page.select_option("#c-first_dealer", first_dealer)
    page.click("text=Create the table")


SPADES_HELD = "spadesApp.table.view.hand.filter(c => c.endsWith('S') || c.endsWith('J')).length"


def whiz_deal_is_forced(page: Any, speech: Speech) -> bool:
    """After "Start the match" at a Whiz table: whether ``page``'s hand holds no spades. Then
    its only bid is Nil, which the game makes at once and says why (the deal is random: about
    one hand in 77 holds no spade)."""
    page.wait_for_function("spadesApp.table.view && spadesApp.table.view.hand"
                           " && spadesApp.table.view.hand.length", timeout=15000)
    if page.evaluate(SPADES_HELD):
        return False
    said = speech.wait_for("the game bids it for you")["text"]
    assert said == ("Whiz bidding: you hold no spades, so your only bid is Nil; the game bids it"
                    " for you. You bid Nil."), said
    return True


def test_whiz_is_said_and_only_its_bids_are_offered(new_page: Any, server: str) -> None:
    for _ in range(4):  # a hand without spades is bid for you: dealt again, at a new table
        page = new_page()
        create_whiz_table(page, server, "Wiz", "Whiz table", first_dealer="3")  # Wiz bids first
        page.wait_for_selector("#waiting-info")
        rules = page.text_content("#waiting-info")
        assert "Whiz bidding (Nil or the number of your spades)" in rules, rules
        speech = Speech(page)
        page.click("text=Start the match")
        if not whiz_deal_is_forced(page, speech):
            break
    assert wait_my_turn_or_over(page) == "bid"
    spades = page.evaluate(SPADES_HELD)
    said = speech.wait_for("Your turn to bid")["text"]
    assert said == f"Your turn to bid: Nil or {spades}.", said
    assert "Whiz: Nil or the number of your spades" in page.text_content("#bid-panel")
    assert "Whiz" in page.text_content("#score-box .note")
    offered = page.evaluate("[...document.querySelectorAll('input[name=bid]')].map(i => i.value)")
    assert offered == ["nil", str(spades)], offered
    assert page.text_content("#card-BID .special-hint") == str(spades)
    page.keyboard.press("j")
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    page.wait_for_selector("#bid-dialog[open]")
    assert page.text_content("#bid-number-label") == f"Your bid: {spades}"
    wrong = 1 if spades != 1 else 2
    page.keyboard.type(str(wrong))
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('bid-number-error').textContent !== ''")
    err = page.text_content("#bid-number-error")
    assert f"{wrong} is not a bid you can make: you can bid {spades}" in err, err
    page.keyboard.press("Escape")
    # a refused bid names the legal ones
    page.evaluate("spadesApp.table.bid('14')")
    refused = speech.wait_for("Refused")["text"]
    assert refused.endswith(f"you can bid Nil or {spades}."), refused


def test_record_upload_form_name_seats_json_errors_and_size(new_page: Any, server: str,
                                                            tmp_path: Any) -> None:
    page = new_page()
    page.goto(server + "#/stats")
    page.wait_for_selector("#rec-file")
    # no session: a name field here
    assert page.is_visible("#rec-name")
    # seats numbered as the record numbers them (from 0)
    rec = tmp_path / "rec.json"
    rec.write_text(json.dumps({"format": "spades-record/1", "rules": {"players": 4},
                               "names": ["Ann", "Bob", "Cliff", "Dee"], "hands": []}))
    page.set_input_files("#rec-file", str(rec))
    page.check("input[name=mode][value=continue]")
    page.wait_for_function("document.querySelectorAll('#rec-seat option').length === 4"
                           " && document.querySelector('#rec-seat option[value=\"2\"]')"
                           ".textContent === 'Seat 2 (Cliff)'")
    # not JSON: where the parser stopped
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "format": "spades-record/1",\n  "names": [1 2]\n}\n')
    page.set_input_files("#rec-file", str(bad))
    page.wait_for_function("document.getElementById('rec-error').textContent !== ''")
    text = page.text_content("#rec-error")
    assert re.search(r"not JSON at line 3, column \d+", text), text
    # too big: said before it is sent
    big = tmp_path / "big.json"
    big.write_text(" " * 1_000_001 + "{}")
    page.set_input_files("#rec-file", str(big))
    page.fill("#rec-name", "Uma")
    page.click("form[aria-labelledby=rec-title] button[type=submit]")
    page.wait_for_function("document.getElementById('rec-error').textContent.includes('at most')")
    assert page.text_content("#rec-error") == ("A record file may be at most 1000000 bytes;"
                                                " this one is 1000003.")
    assert not page.errors, page.errors


def test_a_mirror_bid_is_made_for_you_and_said_why(new_page: Any, server: str) -> None:
    # rules-profiles.md: Mirror bids are "automatic". Before, the page said "Your turn to
    # bid: your bid can only be 3" and waited for Confirm bid (a turn timer then bid it with
    # a penalty bag); the terminal made it at once. Now the server makes it, as the
    # terminal does, and the page says why and the bid, not "your turn".
    page = new_page()
    page.goto(server + "#/create")
    page.fill("#c-your-name", "Mirra")
    page.select_option("#c-profile", "cards4net")
    page.select_option("#c-bidding", "mirror")
    page.select_option("#c-first_dealer", "3")  # the creator bids first
    page.click("#c-cpus")
    speech = Speech(page)
    said = speech.wait_for("Mirror bidding: ")["text"]
    assert re.search(r"so the game bids (it|Nil) for you\. You bid (\d+|Nil)\.", said), said
    page.wait_for_function("spadesApp.table.view.bids.every((b) => b !== null)"
                           " || spadesApp.table.view.phase !== 'bid'")
    turns = [e["text"] for e in speech.all() if e["text"].startswith("Your turn to bid")]
    assert not turns, turns
    # B says the bid is not yours to make (before the bid: "Your only bid is …")
    page.keyboard.press("b")
    speech.wait_for("no bid to make now")
    assert not page.errors, page.errors


def test_before_your_turn_a_bid_with_no_choice_is_said_to_be_made_for_you(
        new_page: Any, server: str) -> None:
    page = new_page()
    create_cpu_table(page, server, "Suzy", profile="cards4net")
    page.wait_for_function("spadesApp.table.view && spadesApp.table.mySeat !== null")
    # the page's own reading of the rules before your turn, at a table whose bidding it is
    # told (the view as the server sends it, with partners' bids set)
    got = page.evaluate("""() => {
      const t = spadesApp.table, v = t.view, me = t.mySeat, mate = (me + 2) % 4;
      const hand = ["AH", "KH", "2C", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"];
      const saved = [t.msg.table.rules, t.view];
      const out = {};
      const bids = (b) => v.bids.map((x, s) => (s === mate ? b : s === me ? null : x));
      t.view = { ...v, phase: "bid", current_player: (me + 1) % 4, hand, bids: bids("blind-nil") };
      t.msg.table.rules = { ...saved[0], bidding: "suicide" };
      out.suicideAfterBlindNil = t.bidChoices();
      t.view = { ...t.view, bids: bids(4) };
      out.suicideAfterFour = [t.bidChoices(), t.forcedBid()];
      t.msg.table.rules = { ...saved[0], bidding: "whiz" };
      out.whizNoSpade = [t.bidChoices(), t.forcedBid(), t.forcedBidText(t.forcedBid())];
      t.msg.table.rules = { ...saved[0], bidding: "mirror" };
      out.mirror = t.forcedBid();
      out.mirrorCards = t.specialItems();  // no Bid or Nil card in the hand for it
      t.msg.table.rules = { ...saved[0], bidding: "standard" };
      out.standard = t.forcedBid();
      [t.msg.table.rules, t.view] = saved;
      return out;
    }""")
    # Suicide: a partner's Blind Nil is their side's Nil, as a Nil is (before: "Nil" only,
    # and the page offered a second Nil)
    assert got["suicideAfterBlindNil"] == [str(n) for n in range(1, 14)], got
    assert got["suicideAfterFour"] == [["nil"], "nil"], got
    assert got["whizNoSpade"] == [["nil"], "nil", "Your only bid is Nil (whiz bidding): the"
                                  " game bids it for you on your turn."], got
    assert got["mirror"] == "nil" and got["mirrorCards"] == [] and got["standard"] is None, got
    assert not page.errors, page.errors


def test_a_finished_match_leaves_your_tables(new_page: Any, server: str) -> None:
    page = new_page()
    start_quick_match(page, "Fin", profile="game93", one_hand=True)
    page.goto(server + "#/")
    page.wait_for_selector("#back-title")  # the running match is one of "Your tables"
    page.click("text=Return to")
    play_hinted_to_end(page)
    page.wait_for_selector("#match-over:not([hidden])")
    page.goto(server + "#/")
    page.wait_for_selector("#quick-name")
    assert not page.is_visible("#back-title")
    page.reload()
    page.wait_for_selector("#quick-name")
    page.wait_for_function("document.getElementById('conn').dataset.status === 'online'")
    assert not page.is_visible("#back-title")


def test_the_cards4net_rules_keep_the_deck_at_52_with_jokers(new_page: Any, server: str) -> None:
    page = new_page()
    page.goto(server + "#/rules/cards4net")
    text = page.text_content("article.prose")
    assert "or 54" not in text and "the deck stays 52" in text, text[:300]


def test_a_started_match_offers_to_watch_instead(new_page: Any, server: str) -> None:
    ann = new_page()
    create_cpu_table(ann, server, "Olga", profile="race400", players=4, table_name="Started")
    table_id = ann.evaluate("spadesApp.table.id")
    bob = new_page()
    bob.goto(server + f"#/table/{table_id}")
    bob.fill("#table-name", "Bert")
    bob.click("main form button[type=submit]")
    bob.click("a:has-text('Watch the table instead')")
    bob.wait_for_function("spadesApp.table && spadesApp.table.msg"
                          " && spadesApp.table.msg.you.role === 'spectator'", timeout=15000)
    assert not bob.errors, bob.errors


def test_whiz_before_your_turn_offers_only_what_whiz_can_allow(new_page: Any,
                                                               server: str) -> None:
    for _ in range(4):  # Bob's bid waits for him only if he holds spades: else dealt again
        ann = new_page()
        create_whiz_table(ann, server, "Ann", "Whiz friends", first_dealer="0",  # Ann bids last
                          private=True)
        code = str(ann.text_content(".invite")).strip()
        bob = new_page()
        join_by_invite(ann, bob, server, code, "Bob")
        ann.click("text=Start the match")
        ann.wait_for_function("spadesApp.table.view && spadesApp.table.view.phase === 'bid'"
                              " && spadesApp.table.view.hand", timeout=15000)
        if not whiz_deal_is_forced(bob, Speech(bob)):
            break
    # Bob (who does not bid) is before Ann: her bid waits for him
    ann.wait_for_function("s => spadesApp.table.view.current_player === s",
                          arg=bob.evaluate("spadesApp.table.mySeat"), timeout=15000)
    assert not ann.evaluate("spadesApp.table.myTurn()")
    spades = ann.evaluate(SPADES_HELD)
    ann.wait_for_selector("#bid-panel:not([hidden]) input[name=bid]", state="attached")
    offered = ann.evaluate("[...document.querySelectorAll('input[name=bid]')].map(i => i.value)")
    assert offered == (["nil", str(spades)] if spades else ["nil"]), offered
    assert "Whiz: Nil or the number of your spades" in ann.text_content("#bid-panel")
    assert not ann.errors and not bob.errors, (ann.errors, bob.errors)


def test_the_lobby_shows_a_match_nobody_is_at_as_paused(new_page: Any, server: str) -> None:
    # Before: a table whose only player had left stood as "active" with a Watch button,
    # though its match waits until a player comes back.
    ann = new_page()
    create_cpu_table(ann, server, "Pia", profile="race400", players=4, table_name="Pia left")
    vic = new_page()  # a guest, so that the lobby comes live over the WebSocket
    vic.goto(server + "#/")
    session = vic.evaluate("fetch('/api/guest', {method: 'POST', headers: {'content-type': "
                           "'application/json'}, body: JSON.stringify({name: 'Vic'})})"
                           ".then((r) => r.json())")
    vic.evaluate("(t) => localStorage.setItem('spades.token', JSON.stringify(t))",
                 session["token"])
    vic.goto(server + "#/lobby")
    vic.reload()
    row = vic.locator("#lobby-list tr", has_text="Pia left")
    row.locator("a", has_text="Watch").wait_for()
    ann.click("#leave-btn")
    row.filter(has_text="paused: waits for its players").wait_for()
    assert row.locator("a").count() == 0
    assert not ann.errors and not vic.errors, (ann.errors, vic.errors)
