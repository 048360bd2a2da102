"""The session driver (spades/session.py): each move checked (nothing changed when refused),
stored at its number, committed with its events; stale moves refused; a stored game resumed
equals the live one; a second writer on one game refused by a real store."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spades.bots import make_bot
from spades.engine import (
    DEAL,
    NIL,
    BidMade,
    CardPlayed,
    Event,
    HandDealt,
    IllegalAction,
    Match,
    MatchOver,
    Rules,
    TimedOut,
    cards_of,
    mask_of,
    profile,
)
from spades.session import Move, Session, StaleMove
from spades.store import ConflictError, Store

RULES = profile("cardems", target=150)


def shuffled(match: Match, rng: random.Random) -> list[int]:
    cards = cards_of(match.rules.deck)
    rng.shuffle(cards)
    n = match.n
    return [mask_of(cards[i::n]) for i in range(n)]


def next_move(session: Session, rng: random.Random, timeouts: bool = False) -> Move:
    """The next move of a game played by random bots (and now and then the turn timer)."""
    m = session.match
    if m.phase is DEAL:
        return session.deal(shuffled(m, rng))
    if timeouts and rng.random() < 0.1:
        return session.timeout()
    seat = m.current_player
    return session.act(seat, make_bot("random", rng.randrange(1000)).act(m.observation(seat)))


def finished(match: Match) -> bool:
    """Over, or three hands played (random bots may take long to reach a target)."""
    return match.is_over() or len(match.results) >= 3


@pytest.mark.parametrize("one_hand", [False, True])
def test_deal_act_timeout_commit_tell_what_a_recording_match_tells(one_hand: bool) -> None:
    """Driven through a session, with moves stored in a list, a match tells exactly the
    events of the same moves applied straight to a recording match."""
    rules = profile("cardems", target=150, turn_timer=30, one_hand=one_hand)
    session = Session(Match(rules, dealer=1))
    plain = Match(rules, dealer=1, events=True)
    stored: list[Move] = []
    rng = random.Random(3)
    told: list[Event] = []
    kinds = set()
    while not finished(session.match):
        move = next_move(session, rng, timeouts=True)
        assert move.seq == len(stored) + 1
        stored.append(move)
        events = session.commit(move)
        told += events
        kinds.add(move.kind)
        if move.kind == "deal":
            assert isinstance(move.value, tuple) and move.stored_value == list(move.value)
            plain.deal(list(move.value))
            assert isinstance(events[0], HandDealt)
        elif move.kind == "timeout":
            assert isinstance(move.value, int)
            plain.apply_timeout(move.value)
            first = events[0]
            assert isinstance(first, TimedOut)
            assert (first.seat, first.action, first.penalty_bags) == (
                move.seat, move.value, rules.timeout_penalty_bags)
        else:
            assert isinstance(move.value, int)
            plain.apply(move.value)
        assert events == plain.take_events()
        assert session.stored == move.seq
    assert kinds == {"deal", "act", "timeout"}
    assert isinstance(told[-1], MatchOver) == one_hand
    assert session.match.to_record() == plain.to_record()


def test_a_refused_move_changes_nothing() -> None:
    session = Session(Match(RULES, dealer=0))
    with pytest.raises(IllegalAction, match="nobody is to act now"):
        session.act(1, NIL + 3)
    with pytest.raises(IllegalAction, match="a deal needs 4 hands"):
        session.deal([1, 2])
    rng = random.Random(1)
    session.commit(session.deal(shuffled(session.match, rng)))
    record = session.match.to_record()
    with pytest.raises(IllegalAction, match="cannot deal now"):
        session.deal(shuffled(session.match, rng))
    with pytest.raises(IllegalAction, match="not that seat's turn"):
        session.act(2, NIL + 3)  # seat 1 bids first
    with pytest.raises(IllegalAction):
        session.act(1, NIL + 14)
    with pytest.raises(IllegalAction):
        session.act(1, 0)  # a card while bidding
    assert session.match.to_record() == record and session.stored == 1
    assert session.commit(session.act(1, NIL + 3)) == [BidMade(1, 3)]


def test_a_stale_move_is_refused_by_commit() -> None:
    session = Session(Match(RULES, dealer=0))
    session.commit(session.deal(shuffled(session.match, random.Random(2))))
    first = session.act(1, NIL + 3)
    second = session.act(1, NIL + 4)  # decided for the same turn, committed too late
    assert first.seq == second.seq == 2
    session.commit(first)
    record = session.match.to_record()
    with pytest.raises(StaleMove, match="game is at move 2"):
        session.commit(second)
    with pytest.raises(StaleMove, match="is for seat 1, but seat 2 is to act"):
        session.commit(Move(3, "act", NIL + 4, 1))
    assert session.match.to_record() == record and session.stored == 2
    assert session.commit(session.act(2, NIL + 2)) == [BidMade(2, 2)]


def stored_moves(store: Store, gid: str) -> list[tuple[int, str, int | list[int], int | None]]:
    return [(e.seq, e.kind, e.value, e.seat) for e in store.events(gid)]


def new_game(store: Store, rules: Rules = RULES, dealer: int = 3) -> str:
    return store.create_game("terminal", rules, seats=[{"name": n} for n in "NESW"],
                             first_dealer=dealer)


def test_resume_of_stored_moves_equals_the_live_match(tmp_path: Path) -> None:
    """A match played through a session into a real store, resumed at every seventh move:
    the resumed session is the live one (same state, same number) and tells the same
    events for the moves that follow."""
    store = Store.open(tmp_path / "games.sqlite3")
    rules = profile("cardems", target=150, turn_timer=30)
    gid = new_game(store, rules)
    live = Session(Match(rules, dealer=3))
    rng = random.Random(5)
    checked = 0
    while not finished(live.match):
        move = next_move(live, rng, timeouts=True)
        store.append_at(gid, move.seq, move.kind, move.stored_value, move.seat)
        if move.seq % 7 == 0:
            resumed = Session.resume(rules, 3, stored_moves(store, gid)[:-1])
            assert resumed.stored == live.stored == move.seq - 1
            assert resumed.match.to_record() == live.match.to_record()
            assert resumed.match.observation(0) == live.match.observation(0)
            assert resumed.commit(move) == live.commit(move)
            checked += 1
        else:
            live.commit(move)
    assert checked > 20
    final = Session.resume(rules, 3, stored_moves(store, gid))
    assert final.match.to_record() == live.match.to_record()
    assert final.stored == live.stored == len(store.events(gid))
    store.close()


def test_resume_refuses_moves_that_do_not_fit() -> None:
    with pytest.raises(ValueError, match="a deal is a list of card masks"):
        Session.resume(RULES, 0, [(1, "deal", 5, None)])
    with pytest.raises(ValueError, match="'undo' with 3 is not a move"):
        Session.resume(RULES, 0, [(1, "undo", 3, None)])
    with pytest.raises(IllegalAction):
        Session.resume(RULES, 0, [(1, "act", NIL + 3, 1)])  # before any deal


def test_a_second_writer_on_one_game_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """Two sessions resumed from one stored game (two terminals, or a terminal and a
    server): the first to store its move wins; the other gets ConflictError from the real
    store, its match is untouched, and resuming again lets it play on."""
    db = tmp_path / "games.sqlite3"
    store = Store.open(db)
    gid = new_game(store)
    one = Session(Match(RULES, dealer=3))
    deal = one.deal(shuffled(one.match, random.Random(9)))
    store.append_at(gid, deal.seq, deal.kind, deal.stored_value, deal.seat)
    one.commit(deal)
    other_store = Store.open(db)  # another process's connection
    two = Session.resume(RULES, 3, stored_moves(other_store, gid))
    assert two.stored == one.stored == 1

    mine = one.act(0, NIL + 3)
    theirs = two.act(0, NIL + 5)
    store.append_at(gid, mine.seq, mine.kind, mine.stored_value, mine.seat)
    assert one.commit(mine) == [BidMade(0, 3)]
    before = stored_moves(store, gid)
    record = two.match.to_record()
    with pytest.raises(ConflictError, match="event 2 is already stored by another writer"):
        other_store.append_at(gid, theirs.seq, theirs.kind, theirs.stored_value, theirs.seat)
    assert stored_moves(store, gid) == before  # nothing written over
    assert two.match.to_record() == record and two.stored == 1  # nothing applied

    two = Session.resume(RULES, 3, stored_moves(other_store, gid))
    assert two.match.to_record() == one.match.to_record()
    nxt = two.act(1, NIL + 2)
    assert nxt.seq == 3
    other_store.append_at(gid, nxt.seq, nxt.kind, nxt.stored_value, nxt.seat)
    assert two.commit(nxt) == [BidMade(1, 2)]
    with pytest.raises(StaleMove):
        one.commit(Move(2, "act", NIL + 4, 1))  # what the first did not see: refused
    assert [e.seq for e in store.events(gid)] == [1, 2, 3]
    store.close()
    other_store.close()


def test_the_events_of_a_card_carry_its_trick() -> None:
    session = Session(Match(RULES, dealer=3))
    session.commit(session.deal(shuffled(session.match, random.Random(4))))
    for seat in range(4):
        session.commit(session.act(seat, NIL + 3))
    seat = session.match.current_player
    card = session.match.legal_actions()[0]
    assert session.commit(session.act(seat, card)) == [CardPlayed(seat, card, 1)]
