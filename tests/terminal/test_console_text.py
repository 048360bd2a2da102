"""The pieces of ``spades play`` in-process: reading with a deadline, the texts, the
parsing of what the player types, and the deal."""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import pytest

from spades.engine import (
    BLIND_NIL,
    LOOK,
    NIL,
    OVER,
    Match,
    MatchOver,
    SpadesError,
    card_name,
    card_str,
    parse_card,
    profile,
    sorted_for_display,
)
from spades.store import Store, rebuild
from spades.tui import text
from spades.tui.console import Console, InputClosed, LineReader
from spades.tui.game import TerminalGame, deal_masks, playable
from tests.tables import scored_hands


def pipe_console(data: bytes = b"", *, rich: bool = False) -> tuple[Console, io.StringIO, int]:
    r, w = os.pipe()
    if data:
        os.write(w, data)
    out = io.StringIO()
    return Console(out, LineReader(r), rich=rich), out, w


def test_line_reader_splits_lines_and_times_out() -> None:
    r, w = os.pipe()
    reader = LineReader(r)
    os.write(w, b"qh\n10h\r\npartial")
    assert reader.read_line(None) == "qh"
    assert reader.read_line(time.monotonic() + 1) == "10h"
    start = time.monotonic()
    assert reader.read_line(time.monotonic() + 0.2) is None  # "partial" has no newline yet
    assert 0.15 < time.monotonic() - start < 1.5
    os.write(w, b" line\n")
    assert reader.read_line(None) == "partial line"
    os.close(w)
    with pytest.raises(InputClosed):
        reader.read_line(None)


def test_ask_warns_before_the_deadline_then_gives_up() -> None:
    console, out, _w = pipe_console()
    warned: list[float] = []
    deadline = time.monotonic() + 0.6
    got = console.ask("Your card: ", deadline=deadline, warnings=(0.3,),
                      on_warning=warned.append)
    assert got is None
    assert warned == [0.3]
    assert out.getvalue().count("Your card: ") == 2


def test_hand_is_read_in_words_in_seed_002_order() -> None:
    hand = sum(1 << parse_card(c) for c in ["2C", "AS", "QH", "3H", "KD", "4S"])
    line = text.hand_plain(hand)
    assert line == ("Your hand, 6 cards: hearts: three, queen; spades: four, ace; "
                    "diamonds: king; clubs: two.")
    legal = (1 << parse_card("3H")) | (1 << parse_card("QH"))
    assert text.hand_plain(hand, legal, "You can play") == (
        "You can play, 2 cards: hearts: three, queen.")
    assert text.number_ranges(hand) == "hearts 1 to 2, spades 3 to 4, diamonds 5, clubs 6"
    # mid-hand, only what is held: a played suit not named, a gap said in runs
    held = hand & ~(1 << parse_card("2C")) & ~(1 << parse_card("4S"))
    assert text.number_ranges(hand, held) == "hearts 1 to 2, spades 4, diamonds 5"
    six = sum(1 << parse_card(c) for c in ["2C", "3C", "4C", "5C", "6C"])
    assert text.number_ranges(six, six & ~(1 << parse_card("4C"))) == "clubs 1 to 2 and 4 to 5"
    played = hand & ~(1 << parse_card("3H")) & ~(1 << parse_card("4S"))
    assert text.numbered_cards(hand, played) == (
        "Card numbers: 2 queen of hearts, 4 ace of spades, 5 king of diamonds, "
        "6 two of clubs.")


def test_rules_and_help_texts() -> None:
    rules = profile("cards4net")
    lines = " ".join(text.rules_lines(rules, text.default_names(4, 2)))
    # in words, as Nil's line says it (a screen reader says "±" as "plus-minus" or not at all)
    assert ("Blind Nil: +200 if you take no trick, -200 otherwise; only as the first bid of "
            "a hand, before looking at the cards." in lines), lines
    assert "counter drops to 0" in lines and "±" not in lines
    ten = " ".join(text.rules_lines(profile("cardems", ten_for_200=True),
                                    text.default_names(4, 2)))
    assert ("(10 for 200: a contract of exactly 10 scores +200 made, -200 set)." in ten
            and "±" not in ten)
    assert "only by a spade played on a trick led in another suit" in lines
    assert any("q  quit" in line for line in text.help_lines())
    assert any("CPUs adapt" in line and "never see hidden cards" in line
               for line in text.help_lines())
    assert text.default_names(3, 0) == ["North", "Southeast", "Southwest"]
    assert text.default_names(6, 3, "Ann") == [
        "North", "Northeast", "Southeast", "Ann", "Southwest", "Northwest"]


def make_game(tmp_path: Path, rules_name: str = "cardems", **knobs: object) -> TerminalGame:
    store = Store.open(tmp_path / "g.sqlite3")
    rules = profile(rules_name, **knobs)
    gid = store.create_game("terminal", rules, seats=[{"name": n} for n in text.COMPASS],
                            first_dealer=1, options={"human": 2, "seed": 5})
    console, _out, _w = pipe_console()
    return TerminalGame(store, gid, Match(rules, dealer=1), console,
                        names=list(text.COMPASS), human=2,
                        levels=["random", "random", None, "random"], seed=5)


def test_parse_entry_cards_bids_and_numbers(tmp_path: Path) -> None:
    game = make_game(tmp_path, "cards4net")
    game.deal()
    obs = game.match.observation(2)
    assert obs.hand is None  # South bids first and may bid blind nil unseen
    assert game.parse_entry("blind nil", obs) == BLIND_NIL
    assert game.parse_entry("look", obs) == LOOK
    game.commit(2, LOOK)
    obs = game.match.observation(2)
    assert game.parse_entry("nil", obs) == NIL
    assert game.parse_entry("4", obs) == NIL + 4
    with pytest.raises(SpadesError, match="time to bid"):
        game.parse_entry("qh", obs)
    game.commit(2, NIL + 3)
    while game.match.phase == "bid":
        game.commit(game.match.current_player, NIL + 2)
    while game.match.current_player != 2:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    obs = game.match.observation(2)
    assert obs.hand is not None
    first = sorted_for_display(obs.hand)[0]
    for typed in ["1", card_str(first), card_str(first).lower(), card_name(first)]:
        assert game.parse_entry(typed, obs) == first
    with pytest.raises(SpadesError, match="no card number 14"):
        game.parse_entry("14", obs)
    with pytest.raises(SpadesError, match="not a card or a command"):
        game.parse_entry("banana", obs)


def test_a_card_typed_without_of_is_read_and_a_bare_joker_asks_which(tmp_path: Path) -> None:
    """"queen hearts" and "joker" were refused as not a card or a command."""
    game = make_game(tmp_path, "cardems", jokers=True)
    game.deal()
    while game.match.phase == "bid":
        game.commit(game.match.current_player, NIL + 3)
    while game.match.current_player != 2:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    obs = game.match.observation(2)
    assert game.parse_entry("queen hearts", obs) == parse_card("QH")
    assert game.parse_entry("Ace  Spades", obs) == parse_card("AS")
    with pytest.raises(SpadesError, match=r"^joker: say big joker or little joker$"):
        game.parse_entry("joker", obs)
    with pytest.raises(SpadesError, match=r"^'spades ace' is not a card or a command"):
        game.parse_entry("spades ace", obs)
    plain = make_game(tmp_path / "plain")
    plain.deal()
    with pytest.raises(SpadesError, match=r"^'joker' is not a bid"):
        plain.parse_entry("joker", plain.match.observation(plain.match.current_player))


def test_friendly_reasons_speak_to_the_player(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    assert game.friendly("must follow suit: hearts were led and seat 2 holds hearts") == (
        "must follow suit: hearts were led and you hold hearts")
    assert game.friendly("seat 2 does not hold the ace of spades") == (
        "you do not hold the ace of spades")


def test_deal_is_stored_before_it_is_played_and_replays(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    game.deal()
    assert game.store.events(game.game_id)[0].kind == "deal"
    assert deal_masks(Match(game.match.rules, dealer=1), 5) == list(game.match.log[0].deal)
    for _ in range(9):
        game.commit(game.match.current_player, game.match.legal_actions()[-1])
    again = rebuild(game.match.rules, 1, game.store.events(game.game_id))
    assert again.observation(2) == game.match.observation(2)


def test_numbers_signs_and_unicode_digits() -> None:
    assert text.read_number("-1") == -1
    assert text.read_number(" +3 ") == 3
    assert text.read_number("\u0663") == 3  # an Arabic-Indic digit is still a digit
    assert text.read_number("qh") is None and text.read_number("-") is None
    with pytest.raises(SpadesError, match="'²' is not a number that can be read here"):
        text.read_number("²")
    with pytest.raises(SpadesError, match="far too large"):
        text.read_number("9" * 5000)


def test_bids_with_a_sign_or_an_odd_digit(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    game.deal()
    while game.match.current_player != 2:
        game.commit(game.match.current_player, NIL + 2)
    obs = game.match.observation(2)
    assert game.parse_entry("+3", obs) == NIL + 3
    assert game.parse_entry("0", obs) == NIL
    for typed, reason in [("-1", "a bid cannot be negative"), ("-11", "cannot be negative"),
                          ("²", "not a number that can be read"), ("3²", "digits 0 to 9")]:
        with pytest.raises(SpadesError, match=reason):
            game.parse_entry(typed, obs)


def test_card_numbers_stay_put_as_cards_are_played(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    game.deal()
    while game.match.phase == "bid":
        game.commit(game.match.current_player, NIL + 3)
    dealt = sorted_for_display(game.match.log[-1].deal[2])
    while game.match.current_player != 2:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    obs = game.match.observation(2)
    assert game.parse_entry("+2", obs) == dealt[1]
    for typed, reason in [("-11", "there is no card number -11"), ("14", "no card number 14"),
                          ("²", "not a number that can be read")]:
        with pytest.raises(SpadesError, match=reason):
            game.parse_entry(typed, obs)
    card = game.match.legal_actions()[0]
    game.commit(2, card)
    while game.match.current_player != 2:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    obs = game.match.observation(2)
    number = dealt.index(card) + 1
    with pytest.raises(SpadesError, match=f"card {number}, the {card_name(card)}, has already"):
        game.parse_entry(str(number), obs)
    other = next(c for c in dealt if c != card)
    assert game.parse_entry(str(dealt.index(other) + 1), obs) == other


def test_text_falls_back_to_ascii_when_the_terminal_cannot_take_it() -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    console = Console(out, LineReader(os.pipe()[0]))
    console.say("Score sheet — cardems · ±200 Q♥ Zoë")
    assert raw.getvalue() == b"Score sheet - cardems . +/-200 QH Zo?\n"


def test_score_sheet_counts_one_bag_in_the_singular() -> None:
    from spades.cli.sheet import score_sheet

    match = Match(profile("cardems"), dealer=0)
    match.bags[0] = 1
    assert "(1 bag)" in score_sheet(match, list(text.COMPASS))
    assert "(0 bags)" in score_sheet(match, list(text.COMPASS))


def pty_console() -> tuple[Console, io.StringIO, int]:
    """A console reading the terminal side of a pseudo-terminal; type into the other fd."""
    import pty

    master, slave = pty.openpty()
    out = io.StringIO()
    return Console(out, LineReader(slave), echo_keys=True), out, master


def type_when_keyed(console: Console, keys: int, data: bytes) -> threading.Thread:
    """Type ``data`` once the console takes keys one by one (the terminal's own line
    editing off), so that the console, not the terminal, edits the line."""
    import termios

    def run() -> None:
        while termios.tcgetattr(console.reader.fd)[3] & termios.ICANON:
            time.sleep(0.001)  # waiting for a condition, not a fixed time
        os.write(keys, data)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_timeout_drops_what_was_typed_and_a_warning_shows_it_again() -> None:
    console, out, keys = pty_console()
    os.write(keys, b"1")
    warned: list[float] = []
    got = console.ask("Your card: ", deadline=time.monotonic() + 0.6, warnings=(0.3,),
                      on_warning=lambda left: warned.append(left) or console.say("soon"))
    assert got is None and warned == [0.3]
    assert console.dropped == "1"
    assert out.getvalue().endswith("Your card: 1\nsoon\nYour card: 1\n")
    os.write(keys, b"2\n")  # the next answer is 2, not 12
    assert console.ask("Your card: ", deadline=time.monotonic() + 30) == "2"


def test_keys_are_edited_and_echoed_under_a_deadline() -> None:
    console, out, keys = pty_console()
    type_when_keyed(console, keys, "qx\x7fh\x1b[D é\x15t\r3\n".encode())
    assert console.ask("> ", deadline=time.monotonic() + 30) == "t"
    assert out.getvalue() == "> qx\b \bh é" + "\b \b" * 4 + "t\n"
    assert console.ask("> ") == "3"  # the rest waits for the next prompt, as typed ahead
    type_when_keyed(console, keys, b"\x04")  # Ctrl-D at the start of the line
    with pytest.raises(InputClosed):
        console.ask("> ", deadline=time.monotonic() + 30)


def test_a_piped_line_without_its_newline_is_dropped_at_the_deadline() -> None:
    console, _out, w = pipe_console(b"x")
    assert console.ask("> ", deadline=time.monotonic() + 0.2) is None
    assert console.dropped == "x"
    os.write(w, b"t\n")
    assert console.ask("> ", deadline=time.monotonic() + 30) == "t"


@pytest.mark.parametrize("rules_name, seed", [("cardems", 1), ("cards4net", 2),
                                               ("race400", 3), ("cardgames-club", 4)])
def test_hand_summary_adds_up_one_sentence_a_line(rules_name: str, seed: int) -> None:
    import re

    from spades.bots import make_bot

    rules = profile(rules_name, target=2000, bag_limit=3)  # bag penalties come early
    match = Match.new(rules, seed=seed)
    bots = [make_bot("random", seed * 10 + s) for s in range(rules.players)]
    names = text.default_names(rules.players, 0)
    seen = {"made": 0, "set": 0, "nil": 0, "penalty": 0}
    for result in scored_hands(match, bots, 12):
        lines = text.result_lines(result, rules, names)
        assert lines[0] == f"Hand {result.number} is over."
        for line in lines:
            assert line.endswith(".") and ". " not in line, line
        group: list[str] = []
        k = 0
        for line in lines[1:]:
            if line.startswith("Warning: "):
                break
            who = text.side_name(rules, k, names)
            if not line.startswith(f"{who}: "):
                group.append(line)
                continue
            assert line == (f"{who}: {result.points[k]:+d} this hand, {result.scores[k]} in "
                            f"all, {text.plural(result.bags[k], 'bag')}.")
            signed = sum(int(n) for g in group for n in re.findall(r"(?<![\w-])[+-]\d+", g))
            assert signed == result.points[k], (group, result)
            group, k = [], k + 1
        assert k == len(rules.sides)
        joined = " ".join(lines)
        seen["made"] += "contract made" in joined
        seen["set"] += "contract set" in joined
        seen["nil"] += "Nil made" in joined or "Nil broken" in joined
        seen["penalty"] += "Bag penalty" in joined
    assert all(seen.values()), seen


def test_a_terminal_line_left_unfinished_is_dropped_when_keys_are_not_echoed() -> None:
    """Output not on a terminal (a log): the terminal edits the line itself, and what it
    holds unfinished at the deadline is flushed."""
    console, _out, keys = pty_console()
    console.echo_keys = False
    os.write(keys, b"1")
    echoed = b""
    while b"1" not in echoed:  # the terminal's echo: it holds the key now
        echoed += os.read(keys, 100)
    assert console.ask("> ", deadline=time.monotonic() + 0.2) is None
    # the terminal's unfinished line is read before it is flushed, so that the game can say
    # what was not used ("What you had typed (1) was not used."), as when it takes the keys
    assert console.dropped == "1"
    os.write(keys, b"2\n")
    assert console.ask("> ", deadline=time.monotonic() + 30) == "2"


def test_the_match_result_is_told_once_and_a_resumed_finished_game_still_tells_it(
        tmp_path: Path) -> None:
    """The last card's events tell who won (the narrator's sentence); the score sheet then
    does not say it again. A game whose last card was stored but never told (the program
    killed at that moment) tells the result when it is resumed, and is marked finished."""
    game = make_game(tmp_path, one_hand=True)
    game.deal()
    while game.match.phase is not OVER:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    game.finish()
    assert isinstance(game.console.out, io.StringIO)
    out = game.console.out.getvalue()
    winner = game.match.winner
    said = game.narrator.say(MatchOver(winner, tuple(game.match.scores)))
    assert out.count(said) == 1
    assert out.index("Hand 1 scored: ") < out.index("Hand 1 in detail:") < out.index(said)
    assert game.store.game(game.game_id).status == "finished"

    game.store.update_game(game.game_id, status="active")
    console, again, _w = pipe_console()
    resumed = TerminalGame(game.store, game.game_id,
                           rebuild(game.match.rules, 1, game.store.events(game.game_id)),
                           console, names=list(text.COMPASS), human=2,
                           levels=["random", "random", None, "random"], seed=5)
    assert resumed.run() == 0
    assert said in again.getvalue()  # the play's words (test_blind_trial_endings)
    assert game.store.game(game.game_id).status == "finished"


def test_status_between_hands_names_the_dealer_of_the_hand_played_and_the_next() -> None:
    """At "Press Enter for the next hand", ``s`` tells the hand just played with its own
    dealer (as the score sheet does), and who deals the next one."""
    from spades.bots import make_bot

    names = ["North", "East", "South", "West"]
    match = Match(profile("cardems"), dealer=2)
    assert text.status_lines(match, names)[0] == "Hand 1 is next, South to deal."
    match.deal(deal_masks(match, 5))
    assert text.status_lines(match, names)[0] == "Hand 1, South dealt."
    bot = make_bot("random", 1)
    while not match.results:
        match.apply(bot.act(match.observation(match.current_player)))
    assert match.phase == "deal" and match.dealer == 3
    lines = text.status_lines(match, names)
    assert lines[0] == "Hand 1, South dealt, is over; hand 2 is next, West to deal."
    assert lines[-1] == text.scores_sentence(match, names)


def test_status_tells_the_readers_own_bid_as_yours() -> None:
    """The play-by-play says "You bid 3."; ``s`` says it the same way, not "South bid 3"."""
    names = ["North", "East", "South", "West"]
    match = Match(profile("cardems"), dealer=1)
    match.deal(deal_masks(match, 5))
    for bid in (4, 3):
        match.apply(NIL + bid)
    assert text.status_lines(match, names, me=2)[1] == (
        "Your partner North has not bid yet, 0 tricks; East has not bid yet, 0 tricks; you "
        "bid 4, 0 tricks; West bid 3, 0 tricks.")
    assert text.status_lines(match, names, me=0)[1] == (
        "You have not bid yet, 0 tricks; East has not bid yet, 0 tricks; your partner South "
        "bid 4, 0 tricks; West bid 3, 0 tricks.")
    names[0] = "ann"  # a player's own name is told as written
    assert text.status_lines(match, names)[1].startswith("ann has not bid yet, 0 tricks; ")


def test_status_tells_the_readers_own_deal_as_yours() -> None:
    """``s`` said "Hand 1, South dealt." to South, where the game says "you deal"."""
    from spades.bots import make_bot

    names = ["North", "East", "South", "West"]
    match = Match(profile("cardems"), dealer=2)
    assert text.status_lines(match, names, me=2)[0] == "Hand 1 is next, and you deal."
    match.deal(deal_masks(match, 5))
    assert text.status_lines(match, names, me=2)[0] == "Hand 1, you dealt."
    assert text.status_lines(match, names, me=0)[0] == "Hand 1, South dealt."
    bot = make_bot("random", 1)
    while not match.results:
        match.apply(bot.act(match.observation(match.current_player)))
    assert text.status_lines(match, names, me=2)[0] == (
        "Hand 1, you dealt, is over; hand 2 is next, West to deal.")
    assert text.status_lines(match, names, me=3)[0] == (
        "Hand 1, South dealt, is over; hand 2 is next, and you deal.")


def test_cards_are_read_with_suit_symbols_as_the_rich_view_shows_them(tmp_path: Path) -> None:
    from spades.engine import card_symbol

    game = make_game(tmp_path, "cardems")
    game.deal()
    while game.match.phase == "bid":
        game.commit(game.match.current_player, NIL + 3)
    while game.match.current_player != 2:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    obs = game.match.observation(2)
    assert obs.hand is not None
    outlined = str.maketrans("♠♥♦♣", "♤♡♢♧")
    for card in sorted_for_display(obs.hand):
        shown = card_symbol(card)  # like 3♠ or 10♥
        for typed in (shown, shown.translate(outlined), shown + "\ufe0f", f" {shown.lower()} "):
            assert game.parse_entry(typed, obs) == card, typed
    with pytest.raises(SpadesError, match="not a card or a command"):
        game.parse_entry("3★", obs)


def test_the_rich_view_says_in_words_which_cards_may_be_played(tmp_path: Path) -> None:
    """The colour view showed the cards you may not play dimmed, and nothing else: on a
    terminal that does not show dim text, nothing told them apart. A line names what may be
    played, by the cards' numbers."""
    import re

    from spades.engine.cards import SUIT_OF

    game = make_game(tmp_path, "cardems")
    game.pause = False  # (no "Press Enter for the next hand" at the end)
    game.deal()
    while game.match.phase == "bid":
        game.commit(game.match.current_player, NIL + 3)
    checked = 0
    while game.match.phase == "play":
        if game.match.current_player == 2:
            obs = game.match.observation(2)
            legal = playable(obs)
            console, out, _w = pipe_console(rich=True)
            game.console = console
            game.show_turn(obs)
            said = out.getvalue()
            if legal != obs.hand:
                line = re.search(r"^You can play: (.*)\.$", said, re.M)
                assert line, said
                suits = {SUIT_OF[c] for c in range(52) if legal >> c & 1}
                assert line[1] == text.number_ranges(game.dealt(), legal), said
                assert len(line[1].split(", ")) == len(suits), said
                checked += 1
            else:
                assert "You can play" not in said, said
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    assert checked, "no turn with cards that may not be played"


def test_the_pause_between_hands_refuses_what_is_not_a_command(tmp_path: Path) -> None:
    """At "Press Enter for the next hand", junk is named as not a command (it only repeated
    the prompt), and ``t`` does not tell the spades of the hand that has ended."""
    game = make_game(tmp_path)
    game.pause = False
    game.deal()
    while not game.match.results:
        game.commit(game.match.current_player, game.match.legal_actions()[0])
    assert game.match.phase == "deal"
    console, out, _w = pipe_console(b"xyz\n9\n" + b"y" * 300 + b"\nt\n\n")
    game.console = console
    game.hand_pause()
    lines = out.getvalue().split("Press Enter for the next hand (or type a command): ")[1:]
    assert [line.strip() for line in lines] == [
        "'xyz' is not a command: press Enter to deal the next hand, or type ? for the "
        "commands.",
        "'9' is not a command: press Enter to deal the next hand, or type ? for the commands.",
        "'yyyyyyyyyyyyyyyyyyyy...' is not a command: press Enter to deal the next hand, or "
        "type ? for the commands.",
        "No trick is being played: the next hand is not dealt yet.",
        ""]


@pytest.mark.parametrize("rich", [False, True])
def test_a_prompt_left_unanswered_ends_its_line_before_anything_else_is_said(rich: bool) -> None:
    """Under a deadline with nothing typed, the prompt's line is ended before the warning
    and again when the deadline passes, so "Time is up" is never written after the prompt
    on its line; also when the deadline has already passed as the prompt is shown (a slow
    command at the prompt). A clock that jumps 4 seconds a reading: no waiting."""
    now = [0.0]

    def clock() -> float:
        now[0] += 4
        return now[0]

    r, _w = os.pipe()
    out = io.StringIO()
    console = Console(out, LineReader(r, clock), rich=rich, clock=clock)
    prompt = console.style("Your bid: ", "\x1b[1m")
    got = console.ask(prompt, deadline=10, warnings=(3,),
                      on_warning=lambda left: console.say(f"{left:g} seconds left."))
    assert got is None
    console.say("Time is up for you.")
    assert out.getvalue() == f"{prompt}\n3 seconds left.\n{prompt}\nTime is up for you.\n"
    out.seek(0)
    out.truncate()
    assert console.ask(prompt, deadline=now[0] - 1, warnings=(3,)) is None
    console.say("Time is up for you.")
    assert out.getvalue() == f"{prompt}\nTime is up for you.\n"


@pytest.mark.parametrize("rules_name, knobs, removed", [
    ("cards4net", {"jokers": True}, "The two of clubs and the two of diamonds are removed; the "
                                    "big and little jokers are added: 52 cards, 13 each."),
    ("race400", {"players": 3}, "The two of clubs is removed so that the deck divides evenly: "
                                "51 cards, 17 each."),
    ("race400", {"players": 6}, "The two of clubs, the two of diamonds, the two of hearts and "
                                "the two of spades are removed so that the deck divides evenly: "
                                "48 cards, 8 each."),
])
def test_the_rules_say_which_cards_leave_the_deck(rules_name: str, knobs: dict[str, object],
                                                  removed: str) -> None:
    rules = profile(rules_name, **knobs)
    lines = text.rules_lines(rules, text.default_names(rules.players, 0))
    assert lines[1] == removed, lines[:3]
    plain = text.rules_lines(profile("cardems"), text.default_names(4, 2))
    assert not any("removed" in line or "added" in line for line in plain)


def test_the_richer_view_wraps_long_lines_between_words() -> None:
    # The terminal cut "Bidding is over with 13 of 13 tricks bid: your side ..." wherever
    # its width ended, in the middle of words ("diamo" / "nds"), at 40 or 100 columns alike.
    sentence = ("Bidding is over with 13 of 13 tricks bid: your side bids 6, East and West "
                "bid 7; West leads.")
    block = "Your hand (13 cards):\n  ♣   10:5♣  11:6♣  12:10♣  13:A♣  " + "x" * 50
    r, _w = os.pipe()
    out = io.StringIO()
    console = Console(out, LineReader(r), rich=True, columns=lambda: 40)
    console.say(sentence)
    lines = out.getvalue().splitlines()
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines), lines
    assert " ".join(lines) == sentence
    out.seek(0)
    out.truncate()
    console.say(block)  # a word longer than the line stays whole; an indent is kept
    lines = out.getvalue().splitlines()
    assert lines[0] == "Your hand (13 cards):" and "  " + "x" * 50 in lines
    assert all(line.startswith("  ") for line in lines[1:]), lines


def test_the_line_view_wraps_long_lines_between_words_at_a_terminal() -> None:
    # `spades play --plain` left long lines to the terminal, which cut them mid-word at its
    # width ("... your side bids 6, East and W" / "est bid 7"); they break between words,
    # prompts too (keeping the space where the answer is typed)
    sentence = ("Bidding is over with 13 of 13 tricks bid: your side bids 6, East and West "
                "bid 7; West leads.")
    r, _w = os.pipe()
    plain = io.StringIO()
    console = Console(plain, LineReader(r), columns=lambda: 40)
    console.say(sentence)
    lines = plain.getvalue().splitlines()
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines), lines
    assert " ".join(lines) == sentence
    prompt = "Press Enter for the next hand (or type a command): "
    assert console.wrap_prompt(prompt) == (
        "Press Enter for the next hand (or type a\ncommand): ")
    # not a terminal (piped output, a log a screen reader reads): one whole line
    piped = io.StringIO()
    Console(piped, LineReader(r), columns=lambda: None).say(sentence)
    assert piped.getvalue() == sentence + "\n"
    assert Console(piped, LineReader(r), columns=lambda: None).wrap_prompt(prompt) == prompt
