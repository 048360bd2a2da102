"""Issue 10 in the terminal: a whole match of ``spades play --plain`` tells every event of
the game once, in order, as it happens, and the moments that are decided during a hand (a
nil broken or made, a contract made or set) at the trick that decides them.

The human follows a simple policy (nil in odd hands, 3 in even ones; always the first card
listed) and quits and resumes once in the middle of a hand. The transcript is checked
against the stored record: against the engine's events of its replay, told by the same
narrator for South (every event sentence present, in order, none twice), and against
``spades replay --events`` and trick winners and decisions worked out here from the bids
and the cards alone."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any, cast

import pexpect

from spades.engine import BID, NIL, Event, Match, parse_card, profile, replay
from spades.engine.cards import RANK_OF, SPADES, SUIT_OF
from spades.present.narrate import Narrator
from spades.session import Move, MoveKind, Session
from spades.store import EventRow, Store
from spades.tui.game import deal_masks
from tests.terminal.driver import (
    BID_PROMPT,
    CARD_PROMPT,
    MATCH_OVER,
    export,
    listing_cards,
    run_cli,
    saved_game,
    spawn,
)

# Intermediate CPUs, seed 7, to 150: two hands in which the human's nil is broken in one
# and a contract is made and one is set (checked below, so a change of the CPUs that loses
# one of them fails loudly rather than testing less).
ARGS = ("--plain", "--seed", "7", "--target", "150", "--cpu", "intermediate", "--no-pause")
NAMES = ("North", "East", "South", "West")
HUMAN = 2


def play_whole_match(db: Path) -> tuple[str, str]:
    """Play the match with the policy, quitting and resuming once: (game id, transcript)."""
    log = io.StringIO()
    child = spawn(db, *ARGS)
    child.logfile_read = log
    game = saved_game(child)
    turns = 0
    resumed = False
    while True:
        i = child.expect([CARD_PROMPT, BID_PROMPT, MATCH_OVER])
        if i == 2:
            break
        if i == 1:
            hand = int(re.findall(r"Hand (\d+): ", log.getvalue())[-1])
            child.sendline("nil" if hand % 2 else "3")
            continue
        turns += 1
        if turns == 5 and not resumed:  # quit in the middle of the first hand, resume
            child.sendline("q")
            child.expect(r"The game is saved\.")
            child.expect(pexpect.EOF)
            child = spawn(db, "--plain", "--no-pause", "--resume", game)
            child.logfile_read = log
            child.expect(rf"Resuming game {game}")
            resumed = True
            continue
        child.sendline(listing_cards(child.before)[0])
    child.expect(r"see its score sheet with spades show " + game)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and resumed
    return game, log.getvalue()


def trick_winner(plays: list[tuple[int, int]]) -> int:
    """The seat that wins a trick of ``(seat, card)`` plays (no jokers): the highest spade,
    else the highest card of the suit led."""
    led = SUIT_OF[plays[0][1]]
    trumps = [p for p in plays if SUIT_OF[p[1]] == SPADES]
    return max(trumps or [p for p in plays if SUIT_OF[p[1]] == led],
               key=lambda p: RANK_OF[p[1]])[0]


def decisions(bids: list[int], winners: list[int]) -> list[tuple[str, int, bool, int]]:
    """What a hand's tricks decide, in order: ``(kind, seat or side, made, trick)`` for
    each nil (broken at the first trick its bidder wins, else made at the last) and each
    side's contract (made when its tricks reach it, set when they no longer can; cardems
    counts a failed nil's tricks toward the contract)."""
    rules = profile("cardems")
    size = len(winners)
    out: list[tuple[tuple[int, int, bool, int], tuple[str, int, bool, int]]] = []
    for seat, bid in enumerate(bids):
        if bid == 0:
            won = [t for t, w in enumerate(winners, start=1) if w == seat]
            t = won[0] if won else size
            out.append(((t, 0, not won, seat), ("nil", seat, not won, t)))
    for side, seats in enumerate(rules.sides):
        contract = sum(bids[s] for s in seats)
        if contract == 0:
            continue
        if contract > size:  # set before a card is played
            out.append(((0, 1, False, side), ("contract", side, False, 0)))
            continue
        counted = 0
        for t, w in enumerate(winners, start=1):
            if w in seats:
                counted += 1
                if counted == contract:
                    out.append(((t, 1, True, side), ("contract", side, True, t)))
                    break
            if counted + size - t == contract - 1:
                out.append(((t, 1, False, side), ("contract", side, False, t)))
                break
    # Within one trick: nils before contracts, a broken nil before those made, then by
    # seat or side.
    return [d for _, d in sorted(out, key=lambda x: (x[0][0], x[0][1], x[0][3]) if x[0][1]
                                 else x[0])]


def test_whole_match_tells_every_event_once_in_order(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    game, transcript = play_whole_match(db)
    record = export(db, game)
    lines = [line.strip() for line in transcript.replace("\r", "").split("\n")]

    # Every event sentence, in order, none twice, none missing: the record's replay told
    # by the same narrator to the same listener.
    events: list[Event] = []
    replay(record, into=events)
    expected = Narrator(profile("cardems"), names=NAMES, me=HUMAN).story(events)
    wanted = set(expected)
    told = [line for line in lines if line in wanted]
    assert told == expected

    # The public stream of the same record agrees, event by event.
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    out = run_cli("replay", str(path), "--events")
    assert out.returncode == 0, out.stderr
    stream: list[dict[str, Any]] = [json.loads(line) for line in out.stdout.splitlines()]
    assert [e["type"] for e in stream] == [e.kind for e in events]

    # Walk the transcript's sentences with the stream: the order within every hand.
    seen: list[tuple[str, int, bool, int]] = []
    worked: list[tuple[str, int, bool, int]] = []
    hands = 0
    for sentence, e in zip(told, stream, strict=True):
        kind = e["type"]
        if kind == "deal":
            hands += 1
            assert sentence.startswith(f"Hand {hands}: ")
            bids: list[int | None] = [None] * 4
            closed = False
            trick: list[tuple[int, int]] = []
            winners: list[int] = []
            decided = False  # the hand's decisions told after its last trick so far
        elif kind == "bid":
            assert not closed
            bids[e["seat"]] = 0 if e["bid"] == "nil" else e["bid"]
        elif kind == "bidding_closed":
            assert None not in bids  # every bid was told before the bidding-over line
            closed = True
            assert sentence.startswith("Bidding is over with ")
        elif kind in ("play", "spades_broken"):
            assert closed
            if kind == "play":
                trick.append((e["seat"], parse_card(e["card"])))
                assert len(trick) <= 4 and e["trick"] == len(winners) + 1
        elif kind == "trick":
            assert len(trick) == 4  # the trick's four plays, then its winner
            winner = trick_winner(trick)
            winners.append(winner)
            assert (e["winner"], e["trick"]) == (winner, len(winners))
            who = "You win" if winner == HUMAN else (
                f"{'Your partner ' if winner == 0 else ''}{NAMES[winner]} wins")
            assert sentence.startswith(f"{who} trick {len(winners)} with the "), sentence
            trick = []
        elif kind in ("nil", "contract"):
            # Told right after the trick that decides it: no card played since.
            assert trick == [] and e["trick"] == len(winners)
            who = e["seat"] if kind == "nil" else e["side"]
            seen.append((kind, who, e["made"], e["trick"]))
            word = ("made" if e["made"] else "broken") if kind == "nil" else (
                "made" if e["made"] else "set")
            assert sentence.endswith(f" is {word}."), sentence
        elif kind == "hand_scored":
            assert len(winners) == 13 and trick == []  # after the hand's last trick
            assert sentence.startswith(f"Hand {hands} scored: ")
            assert all(b is not None for b in bids)
            worked += decisions([b or 0 for b in bids], winners)
            decided = True
        elif kind == "match_over":
            assert decided and e is stream[-1]
    assert seen == worked  # the same decisions, at the same tricks, in the same order
    assert hands == len(record["hands"]) >= 2
    assert ("nil", HUMAN, False) in [s[:3] for s in seen]
    assert {(s[0], s[2]) for s in seen if s[0] == "contract"} == {("contract", True),
                                                                   ("contract", False)}

    # The terminal's own lines are still there, in their places.
    text = "\n".join(lines)
    assert text.count("Hand 1 in detail:") == 1
    assert text.index("Hand 1 scored: ") < text.index("Hand 1 in detail:") < text.index(
        "Hand 2: ")
    assert re.search(r"Totals: [^\n]*", text)


def stored_move(row: EventRow) -> Move:
    """A stored move as the session made it."""
    value = tuple(row.value) if isinstance(row.value, list) else row.value
    return Move(row.seq, cast(MoveKind, row.kind), value, row.seat)


def test_a_game_saved_before_sessions_resumes_telling_only_what_follows(
        tmp_path: Path) -> None:
    """A game stored as ``spades play`` stored games before it had sessions (each move
    committed with ``append_at`` at the number after the last, the seat with it; a turn
    timer's move among them), left in the middle of a trick: it resumes, and what is told
    is exactly the events of the moves made after it resumed, once each, in order."""
    db = tmp_path / "saved.sqlite3"
    store = Store.open(db)
    rules = profile("cardems", turn_timer=30)
    gid = store.create_game("terminal", rules, seats=[
        {"name": n, "cpu": None if s == HUMAN else "random", "user_id": None}
        for s, n in enumerate(NAMES)], first_dealer=0, options={"human": HUMAN, "seed": 7})
    match = Match(rules, dealer=0)
    moves = 0

    def put(kind: str, value: int | list[int], seat: int | None = None) -> None:
        nonlocal moves
        moves += 1
        store.append_at(gid, moves, kind, value, seat)

    masks = deal_masks(match, 7)
    put("deal", masks)
    match.deal(masks)
    while match.phase is BID:
        seat = match.current_player
        if seat == 1:  # East's bid by the turn timer
            action = match.clone().apply_timeout()
            put("timeout", action, seat)
            match.apply_timeout(action)
        else:
            put("act", NIL + 3, seat)
            match.apply(NIL + 3)
    while len(match.trick_winners) < 2 or not match.trick or match.current_player == HUMAN:
        seat = match.current_player
        action = match.legal_actions()[0]
        put("act", action, seat)
        match.apply(action)
    saved = moves
    store.close()

    log = io.StringIO()
    child = spawn(db, "--plain", "--no-pause", "--resume", gid[:8])
    child.logfile_read = log
    child.expect(rf"Resuming game {gid[:8]}")
    while True:
        i = child.expect([CARD_PROMPT, BID_PROMPT])
        if i == 1 or "scored: " in log.getvalue():
            break
        child.sendline(listing_cards(child.before)[0])
    child.sendline("q")
    child.expect(pexpect.EOF)

    store = Store.open(db)
    rows = store.events(gid)
    store.close()
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1)) and len(rows) > saved
    session = Session.resume(rules, 0, [(r.seq, r.kind, r.value, r.seat) for r in rows[:saved]])
    narrator = Narrator(rules, names=NAMES, me=HUMAN)
    expected: list[str] = []
    for r in rows[saved:]:
        expected += narrator.story(session.commit(stored_move(r)))
    replayed = Session(Match(rules, dealer=0))
    before: list[str] = []  # what was told before the game was saved
    for r in rows[:saved]:
        before += narrator.story(replayed.commit(stored_move(r)))
    lines = [line.strip() for line in log.getvalue().replace("\r", "").split("\n")]
    assert [line for line in lines if line in set(expected)] == expected
    assert expected[-1].startswith("Hand 2: ")  # the whole rest of the hand, and the deal
    assert len(before) > 10 and not set(before) & set(lines)  # nothing told again
