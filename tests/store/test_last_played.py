"""A game's ``updated_at`` is the time of its last move, so "most recent first" and
``last`` mean the game last played, not the one last started."""

from __future__ import annotations

from spades.engine import profile
from spades.store import Store


def test_a_move_stored_at_its_number_makes_the_game_the_last_played(database: str) -> None:
    store = Store.open(database)
    try:
        first = store.create_game("terminal", profile("cardems"), seats=[{"name": "Ann"}] * 4)
        second = store.create_game("terminal", profile("cardems"), seats=[{"name": "Ann"}] * 4)
        assert [g.id for g in store.list_games(kind="terminal")] == [second, first]
        before = store.game(first).updated_at
        store.append_at(first, 1, "act", 3, 0)
        assert store.game(first).updated_at > before
        assert [g.id for g in store.list_games(kind="terminal")] == [first, second]
    finally:
        store.close()
