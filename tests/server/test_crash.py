"""The real server killed with SIGKILL mid-hand, started again: the table carries on."""

from __future__ import annotations

import signal

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


def test_sigterm_after_cpus_thought_stops_cleanly(database: str) -> None:
    """A graceful stop (SIGTERM) once the CPU worker processes have been used: the server
    exits with status 0 and leaves nothing to the resource tracker (uvicorn raised the signal
    again after its stop, and the process, killed by it, skipped the pools' clean-up:
    "resource_tracker: There appear to be 5 leaked semaphore objects")."""
    server = Server(database, free_port(), "--bots", "process", "--cpu-delay", "0").start()
    try:
        ann = NetPlayer(server, "Ann")
        ann.request({"type": "create", "cpus": True,
                     "options": {"profile": "cardems", "cpu": "expert", "private": True}})
        # until a CPU has bid (Ann bids when asked, so the CPUs after her get their turn)
        while True:
            m = ann.recv()
            event = m.get("event") if m["type"] == "event" else None
            if event and event["kind"] == "bid" and event["seat"] != 0:
                break
            if ann.my_turn():
                assert ann.view is not None
                ann.send({"type": "act", "action": ann.view["legal_actions"][0]})
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(60) == 0
        err = server.log()
        assert "leaked" not in err and "Traceback" not in err, err
        ann.close()
    finally:
        server.stop()
