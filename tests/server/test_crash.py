"""The real server killed with SIGKILL mid-hand, started again: the table carries on."""

from __future__ import annotations

import httpx

from tests.server.netclient import NetPlayer, Server, catch_up_all, free_port, new_table, step


def settled(players: list[NetPlayer]) -> bool:
    """Whether, as of the newest frame any of ``players`` has, one of them is to act."""
    catch_up_all(players)
    return any(p.my_turn() for p in players)


def test_kill_9_mid_hand_and_restart_loses_nothing(database: str) -> None:
    server = Server(database, free_port(), "--bots", "inline", "--cpu-delay", "0").start()
    try:
        ann, bob = NetPlayer(server, "Ann"), NetPlayer(server, "Bob")
        tid = new_table(ann, {"one_hand": True, "profile": "game93"})
        assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
        assert ann.request({"type": "start"})["type"] == "ack"
        acted = 0
        while acted < 10:  # some bids and some plays
            acted += step([ann, bob])
        # Settle where a human must act: nothing moves until they do. Both are caught up
        # first: when Bob has just acted (and, say, won the trick, so leads next), Ann's view
        # is still behind his act, and it would be taken as what she saw.
        while not settled([ann, bob]):
            step([ann, bob])
        seen = {p.name: p.view for p in (ann, bob)}
        assert seen["Ann"] is not None and len(seen["Ann"]["plays"]) >= 1
        server.kill()
        for p in (ann, bob):
            p.close()
        server.start()
        back = [NetPlayer(server, p.name, p.token) for p in (ann, bob)]
        for p in back:
            assert tid in p.welcome["tables"]
            assert p.request({"type": "join", "table_id": tid})["type"] == "ack"
            p.until(lambda m: m["type"] == "table")
            old = seen[p.name] or {}
            diff = {k: (old.get(k), v) for k, v in (p.view or {}).items() if old.get(k) != v}
            assert not diff, f"the restarted table differs: {diff}"
        for _ in range(5000):
            if back[0].view is not None and back[0].view["phase"] == "over":
                break
            step(back)
        assert back[0].view is not None and back[0].view["phase"] == "over"
        record = httpx.get(f"{server.url}/api/games/{tid}/record", timeout=10).json()
        assert record["format"] == "spades-record/1" and len(record["hands"]) == 1
        assert len(record["hands"][0]["plays"]) == 52
    finally:
        server.stop()
