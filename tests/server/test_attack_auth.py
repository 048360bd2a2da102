"""Hostile clients against signing in: guessing passwords at speed, locking others out,
enumerating names, taking names, and sockets that outlive their session."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spades.server import auth
from spades.server.auth import LoginGuard, TooMany
from spades.server.settings import Settings
from tests.server.helpers import Player, in_process, wait_until
from tests.server.netclient import Server, free_port

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db: Path = tmp_path_factory.mktemp("auth") / "auth.sqlite3"
    s = Server(db, free_port(), "--bots", "inline", "--cpu-delay", "0").start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def light_client(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """``client`` with argon2 at its lightest (one pass over 8 KiB, one thread): for the tests
    of who is counted and refused, where some hundred password checks at the server's cost
    (64 MiB, four threads, about 0.07 s each alone) took 16 s alone and 230 s on a busy
    machine. The checks stay argon2 checks, counted and gated as before."""
    monkeypatch.setattr(auth, "PasswordHasher", lambda: PasswordHasher(
        time_cost=1, memory_cost=8, parallelism=1))
    with in_process(settings) as c:
        yield c


def _register(c: Any, name: str, password: str = PASSWORD) -> Any:
    return c.post("/api/register", json={"name": name, "password": password})


def _login(c: Any, name: str, password: str = PASSWORD) -> Any:
    return c.post("/api/login", json={"name": name, "password": password})


def test_concurrent_guesses_cannot_outrun_the_throttle(server: Server) -> None:
    r = httpx.post(server.url + "/api/register", json={"name": "Victim One",
                                                       "password": PASSWORD}, timeout=30)
    assert r.status_code == 200, r.text

    async def guesses() -> list[int]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as c:
            answers = await asyncio.gather(*(
                c.post("/api/login", json={"name": "Victim One", "password": f"guess {i:04}"})
                for i in range(60)))
        return [a.status_code for a in answers]

    codes = asyncio.run(guesses())
    assert codes.count(401) <= 10, codes  # before: all 60 were checked
    assert codes.count(429) >= 50
    assert set(codes) <= {401, 429}


def test_four_concurrent_registrations_of_one_name_one_wins(server: Server) -> None:
    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as c:
            return list(await asyncio.gather(*(
                c.post("/api/register", json={"name": name, "password": PASSWORD})
                for name in ("Racer", "racer", "RACER", "Racer "))))

    answers = asyncio.run(race())
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409, 409, 409], [a.text for a in answers]
    winner = next(a for a in answers if a.status_code == 200).json()["user"]
    r = httpx.post(server.url + "/api/login", json={"name": "rAcEr", "password": PASSWORD},
                   timeout=30)
    assert r.status_code == 200 and r.json()["user"]["id"] == winner["id"]


def test_a_success_does_not_reset_the_failures_of_others(light_client: TestClient) -> None:
    client = light_client
    assert _register(client, "Victim Two").status_code == 200
    assert _register(client, "Mallory").status_code == 200
    for i in range(9):
        assert _login(client, "Victim Two", f"wrong guess {i}").status_code == 401
    assert _login(client, "Mallory").status_code == 200  # one's own account, same address
    assert _login(client, "Victim Two", "wrong guess 9").status_code == 401
    r = _login(client, "Victim Two", "wrong guess 10")
    assert r.status_code == 429, r.text  # before: the success had reset the count
    assert int(r.headers["Retry-After"]) > 0


def test_a_nat_neighbour_does_not_lock_the_owner_out(light_client: TestClient) -> None:
    client = light_client
    owner_host = TestClient(client.app, client=("203.0.113.7", 1000))
    assert _register(client, "Owner").status_code == 200
    assert _login(owner_host, "Owner").status_code == 200  # the owner's usual address
    neighbour = TestClient(client.app, client=("203.0.113.7", 2000))  # same address (NAT)
    codes = []
    for i in range(120):  # spraying guesses over many names
        codes.append(_login(neighbour, f"Someone {i % 12}", "nope nope").status_code)
    assert codes.count(429) > 0  # the address is throttled...
    # ...but not the owner's sign-in: at most the address's rates, of sign-ins (each password
    # check counts in login_address_rate) and of requests, hold it back for their
    # Retry-After (a second or two, while the neighbour keeps on), never for the failures'
    # window (300 s)
    _signs_in_within_the_address_rates(owner_host)
    elsewhere = [TestClient(client.app, client=(f"198.51.100.{i}", 1)) for i in range(12)]
    for i in range(110):  # guesses at the owner's account from many addresses
        _login(elsewhere[i % 12], "Owner", f"bad guess {i}")
    # (the address's rates may still hold her back a second, after her sign-ins just now)
    _signs_in_within_the_address_rates(owner_host)
    _signs_in_within_the_address_rates(owner_host, "typo typo", 401)  # her password checked


def _signs_in_within_the_address_rates(owner_host: TestClient, password: str = PASSWORD,
                                       answer: int = 200) -> None:
    """The owner's sign-in from her usual address is answered ``answer`` (her password is
    checked), held back at most by the address's rates (of sign-ins and of requests) for
    their Retry-After, a second or two."""
    first = _login(owner_host, "Owner", password)
    if first.status_code == 429:
        assert "from your address: at most" in first.json()["detail"], first.text
        assert int(first.headers["Retry-After"]) <= 2
        wait_until(lambda: _login(owner_host, "Owner", password).status_code == answer,
                   "the owner's sign-in", seconds=10, every=0.25)
    else:
        assert first.status_code == answer, first.text


def _at(client: TestClient, host: str) -> TestClient:
    """A client of the same running app (the same event loop) from address ``host``."""
    other = TestClient(client.app, client=(host, 1))
    other.portal = client.portal
    return other


def test_a_burst_of_password_work_from_one_address_does_not_queue_another_address(
        light_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every argon2 hash (a sign-up) and check (a sign-in) waited for the password workers
    first come, first served: 20 sign-ups and 20 sign-ins sent together from one address
    held another address's sign-in 3.4 s (hostile-guest trial, low). The workers are now
    shared fairly between addresses (``fair.FairGate``): the first worker to come free goes
    to the other address, before the rest of the burst. Here every hash and check is held
    until the test lets it go, one at a time, and the order they start in is read."""
    client = light_client
    assert _register(client, "Bob").status_code == 200  # (before any is held)
    workers = auth.PASSWORD_WORKERS
    arrived: list[str] = []  # the passwords of the requests at the workers' gate
    started: list[str] = []  # and of those hashed or checked, in order
    permits = threading.Semaphore(0)
    real_hashed, real_verified = auth.Passwords.hashed, auth.Passwords.verified
    real_hash, real_verify = auth.Passwords.hash, auth.Passwords.verify

    async def hashed(self: auth.Passwords, password: str, *rest: Any) -> str:
        arrived.append(password)  # (on the loop, with no await before the gate)
        return await real_hashed(self, password, *rest)

    async def verified(self: auth.Passwords, digest: str | None, password: str,
                       *rest: Any) -> bool:
        arrived.append(password)
        return await real_verified(self, digest, password, *rest)

    def held(real: Any) -> Any:
        def run(self: auth.Passwords, *args: Any) -> Any:
            started.append(args[-1])
            assert permits.acquire(timeout=60)
            return real(self, *args)
        return run

    monkeypatch.setattr(auth.Passwords, "hashed", hashed)
    monkeypatch.setattr(auth.Passwords, "verified", verified)
    monkeypatch.setattr(auth.Passwords, "hash", held(real_hash))
    monkeypatch.setattr(auth.Passwords, "verify", held(real_verify))
    codes: dict[str, int] = {}

    def send(host: str, path: str, name: str, password: str) -> None:
        codes[name] = _at(client, host).post(
            path, json={"name": name, "password": password}).status_code

    burst = workers + 8  # half sign-ups, half sign-ins (of names that are no accounts)
    threads = [threading.Thread(target=send, args=(
        "203.0.113.1", "/api/register" if i % 2 else "/api/login",
        f"Mallory {chr(65 + i)}", f"mallory's password {i}")) for i in range(burst)]
    try:
        for t in threads:
            t.start()
        wait_until(lambda: len(arrived) == burst and len(started) == workers,
                   "the burst at the password workers")
        threads.append(threading.Thread(target=send, args=(
            "198.51.100.2", "/api/login", "Bob", PASSWORD)))
        threads[-1].start()
        wait_until(lambda: len(arrived) == burst + 1, "Bob's sign-in at the workers")
        permits.release()  # one worker comes free
        wait_until(lambda: len(started) == workers + 1, "the next password check")
        print("order:", started)
        assert started[workers] == PASSWORD, started  # Bob's, before the rest of the burst
    finally:
        permits.release(2 * burst)
        for t in threads:
            t.join(60)
    assert codes["Bob"] == 200
    assert sorted(codes.values()) == [200] * (burst // 2 + 1) + [401] * (burst - burst // 2), codes


def test_unknown_names_are_checked_as_slowly_as_known_ones(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:

    calls: list[str] = []
    real = PasswordHasher.verify

    def counting(self: PasswordHasher, digest: str, password: str) -> bool:
        calls.append(digest)
        return real(self, digest, password)

    monkeypatch.setattr(PasswordHasher, "verify", counting)
    assert _register(client, "Known").status_code == 200
    assert _login(client, "Known", "wrong one").status_code == 401
    assert _login(client, "Nobody Here", "wrong one").status_code == 401
    assert len(calls) == 2  # before: the unknown name answered without any hashing
    assert calls[0].startswith("$argon2") and calls[1].startswith("$argon2")
    assert calls[0] != calls[1]


def test_the_guard_counts_before_checking_and_forgets_after_the_window() -> None:
    now = [0.0]
    guard = LoginGuard(pair_limit=3, account_limit=5, address_limit=8, window=60,
                       clock=lambda: now[0])
    pending = [guard.begin("a", "x") for _ in range(3)]  # three in flight at once
    with pytest.raises(TooMany) as exc:
        guard.begin("a", "x")
    assert exc.value.wait == 60
    guard.succeeded(pending[0])  # takes back its own count only
    guard.begin("a", "x")
    with pytest.raises(TooMany):
        guard.begin("a", "x")
    now[0] = 61
    guard.begin("a", "x")


# Names -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["ANN", "ann", "Ａｎｎ", "Аnn", "  Ann  "])
def test_look_alike_and_case_variants_of_an_account_are_refused(
        client: TestClient, name: str) -> None:
    assert _register(client, "Ann").status_code == 200
    r = _register(client, name)
    assert r.status_code in (409, 422), r.text
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 409, r.text  # guests cannot take an account's name


def test_accented_names_are_one_name_and_login_collapses_spaces(client: TestClient) -> None:
    assert _register(client, "Élise  Dupont").status_code == 200
    assert _register(client, "élise dupont").status_code == 409
    assert _login(client, "  élise   DUPONT ").status_code == 200


def test_mixed_script_names_are_refused(client: TestClient) -> None:
    r = _register(client, "Bоb")  # a Cyrillic о
    assert r.status_code == 422 and "script" in r.text


@pytest.mark.parametrize("name", ["West", "north", "Ｓｏｕｔｈ", "Northeast", "CPU", "CPU East",
                                  "Partner", "Seat 2"])
def test_names_the_tables_use_for_seats_are_refused(client: TestClient, name: str) -> None:
    # Before the fix a guest called "West" sat as North's partner: "West and East's
    # contract is made" then meant the opponents.
    for r in (client.post("/api/guest", json={"name": name}), _register(client, name)):
        assert r.status_code == 422, r.text
        assert "seat or a CPU player" in r.json()["detail"]


@pytest.mark.parametrize("name", ["O'Brien", "D\u2019Angelo", "Westley", "Southall"])
def test_names_with_apostrophes_and_seat_words_inside_are_taken(
        client: TestClient, name: str) -> None:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    assert r.json()["user"]["name"] == name


def test_passwords_of_only_spaces_are_refused(client: TestClient) -> None:
    r = _register(client, "Spacey", " " * 8)
    assert r.status_code == 422 and "spaces" in r.text


def test_user_ids_are_not_sequential(client: TestClient) -> None:
    ids = [client.post("/api/guest", json={"name": f"G{i}"}).json()["user"]["id"]
           for i in range(5)]
    assert all(b - a != 1 for a, b in itertools.pairwise(ids))
    assert min(ids) >= 2**32


# Sessions ----------------------------------------------------------------------------

def _closed_for_auth(p: Player, within: float = 10.0) -> dict[str, Any] | None:
    """Ping until the server says the session ended (its error frame), for ``within`` s."""
    deadline = time.monotonic() + within
    n = 0
    while time.monotonic() < deadline:
        n += 1
        p.send({"type": "ping", "ref": n})
        m = p.until(lambda m, n=n: (m["type"] == "pong" and m["ref"] == n)
                    or (m["type"] == "error" and m["code"] == "auth"))
        if m["type"] == "error":
            return m
        time.sleep(0.1)  # a polling interval, not a wait for an outcome
    return None


def test_logout_closes_the_sessions_open_sockets(client: TestClient) -> None:
    r = _register(client, "Leaver")
    token = r.json()["token"]
    p = Player(client, "Leaver", token)
    other = Player(client, "Stayer")
    out = client.post("/api/logout", headers={"Authorization": f"Bearer {token}"})
    assert out.status_code == 200
    err = _closed_for_auth(p)
    assert err is not None, "the socket outlived its session"
    with pytest.raises(Exception):  # closed by the server  # noqa: B017
        p.recv()
    other.send({"type": "ping", "ref": 1})
    assert other.until(lambda m: m["type"] == "pong")["ref"] == 1


def test_an_expired_session_closes_its_socket(client: TestClient) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import update

    from spades.server.hub import Hub
    from spades.store.schema import sessions

    token = client.post("/api/guest", json={"name": "Brief"}).json()["token"]
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    soon = datetime.now(UTC) + timedelta(seconds=0.5)
    with hub.store.engine.begin() as conn:
        conn.execute(update(sessions).values(expires_at=soon))
    p = Player(client, "Brief", token)
    err = _closed_for_auth(p)  # before: the socket stayed open
    assert err is not None and "expired" in err["message"]


# Why a socket was closed ---------------------------------------------------------------------

def _close_of(p: Player) -> tuple[int, str]:
    """Read ``p``'s frames up to the server's close: its code and reason."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(1000):
            p.recv()
    return closed.value.code, closed.value.reason


def _fits(reason: str) -> bool:
    """A close reason a WebSocket can carry: at most 123 bytes of UTF-8."""
    return 0 < len(reason.encode("utf-8")) <= 123


def test_a_socket_closed_by_a_sign_out_says_so(client: TestClient) -> None:
    """Another window (or program) signing the session out closes its sockets with 1008 and
    a reason saying so (before: 1008 and no reason, so a client could only guess)."""
    token = _register(client, "Leaver2").json()["token"]
    p = Player(client, "Leaver2", token)
    assert client.post("/api/logout", headers={"Authorization": f"Bearer {token}"}
                       ).status_code == 200
    err = p.until(lambda m: m["type"] == "error")
    assert err["code"] == "auth" and "signed out" in err["message"], err
    code, reason = _close_of(p)
    assert code == 1008 and "signed out" in reason and _fits(reason), (code, reason)


def test_a_socket_closed_as_its_session_expires_says_so(client: TestClient,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's end comes while the socket is open: closed with 1008 and a reason
    saying it expired (before: no reason). The session ends as soon as it is open here, so
    the test waits for no clock."""
    from datetime import UTC, datetime

    from spades.server.hub import Conn, Hub

    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    real = Hub.open_session

    def at_once(conn: Conn, digest: str, expires: datetime) -> None:
        real(hub, conn, digest, datetime.now(UTC))

    monkeypatch.setattr(hub, "open_session", at_once)
    p = Player(client, "Brief2")
    err = p.until(lambda m: m["type"] == "error")
    assert err["code"] == "auth" and "expired" in err["message"], err
    code, reason = _close_of(p)
    assert code == 1008 and "expired" in reason and _fits(reason), (code, reason)


def test_a_refused_hello_closes_saying_why(settings: Settings) -> None:
    """A first message that is no valid hello, and no hello in time, close with 1008 and a
    reason (before: none)."""
    settings.hello_timeout = 0.2
    with in_process(settings) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "token": "not a session", "ref": 1})
            assert ws.receive_json()["code"] == "auth"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008 and "hello" in closed.value.reason
            assert _fits(closed.value.reason), closed.value.reason
        with client.websocket_connect("/ws") as ws:  # says nothing: closed when time is up
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008 and "hello" in closed.value.reason
            assert _fits(closed.value.reason), closed.value.reason


def test_a_close_reason_is_cut_to_123_bytes_not_characters() -> None:
    """A reason is cut to what a close frame holds, 123 bytes of UTF-8, at a character's
    edge (before: to 120 characters, up to 480 bytes, which no close frame can carry)."""
    from spades.server.limits import close_socket

    class Socket:
        reason = ""

        async def close(self, code: int, reason: str) -> None:
            self.reason = reason

    for text in ("é" * 200, "a" * 300, "too slow: " + "字" * 60, "short"):
        ws = Socket()
        asyncio.run(close_socket(ws, 1008, text, 1.0))
        cut = ws.reason.encode("utf-8")
        assert len(cut) <= 123 and text.startswith(ws.reason), (text, ws.reason)
        assert len(cut) > 119 or ws.reason == text, (text, ws.reason)


def test_a_refused_hello_that_is_no_hello_still_answers_with_its_ref(
        settings: Settings) -> None:
    """The ``error auth`` refusing a first message answers it, so it carries the message's
    ``ref``, as the refusal of any later message does (a bad_message about the rest of a
    message still echoes a good ref). A hello that did not match its schema (a token that
    is no string, a field too many) was refused with ``"ref": null``; a bad ref is still
    not echoed."""
    cases: list[tuple[dict[str, Any], Any]] = [
        ({"type": "hello", "token": 5, "ref": 7}, 7),
        ({"type": "hello", "token": "x", "ref": "r1", "extra": 1}, "r1"),
        ({"type": "hello", "token": "x" * 200, "ref": 0}, 0),
        ({"type": "hello", "token": 5, "ref": 2**60}, None),
        ({"type": "hello", "token": 5}, None)]
    with in_process(settings) as client:
        for first, ref in cases:
            with client.websocket_connect("/ws") as ws:
                ws.send_json(first)
                answer = ws.receive_json()
                assert answer["code"] == "auth" and answer["ref"] == ref, (first, answer)
