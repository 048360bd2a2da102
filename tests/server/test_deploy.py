"""The server as docs/deploy.md deploys it: two processes on PostgreSQL and Redis behind
Debian's nginx with TLS, using the repository's own nginx site file; forwarded addresses
believed only from trusted proxies; cross-site pages refused the WebSocket."""

from __future__ import annotations

import json
import re
import socket
import ssl
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.server.helpers import wait_until
from tests.server.netclient import NetPlayer, Server, card_room, free_port, new_table, step
from tests.services import NginxServer, PostgresServer, RedisServer

pytestmark = pytest.mark.alone

SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx-spades.conf"


class Front:
    """nginx with TLS in front of the servers: what a player's browser talks to."""

    def __init__(self, nginx: NginxServer, tls: ssl.SSLContext,
                 servers: list[Server] | None = None) -> None:
        self.nginx = nginx
        self.ssl = tls
        self.servers = servers or []
        self.url = f"https://localhost:{nginx.port}"
        self.ws_url = f"wss://localhost:{nginx.port}/ws"
        self.origin: Any = self.url

    def logs(self) -> list[tuple[str, str]]:
        """What nginx and each server process logged (the ends), for a failed test's report
        (tests/server/conftest.py)."""
        out = [(f"nginx {name}", (self.nginx.dir / name).read_text(errors="replace")[-6000:])
               for name in ("error.log", "stderr.log") if (self.nginx.dir / name).exists()]
        return out + [(f"server on port {s.port}", s.log()[-6000:]) for s in self.servers]


def site_for_test(upstreams: list[int], https_port: int, http_port: int, cert: Path,
                  key: Path) -> str:
    """The deploy file with the test's ports and certificate (on 127.0.0.1 only): nothing
    else is changed."""
    text = SITE.read_text()
    lines = "".join(f"server 127.0.0.1:{p};\n    " for p in upstreams)
    text, n = re.subn(r"(server 127\.0\.0\.1:\d+;\n\s*)+", lambda _m: lines, text, count=1)
    assert n == 1
    text = text.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
    text = text.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    text = re.sub(r"\n\s*listen \[::\]:\d+[^;]*;", "", text)  # loopback only
    text = text.replace("spades.example.org;", "localhost;")
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
    return text


def certificate(folder: Path) -> tuple[Path, Path]:
    """A throw-away certificate for localhost and its key."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def client_tls(cert: Path) -> ssl.SSLContext:
    """The tests' Python clients' TLS: trusting ``cert``, and TLS 1.2 at most (nginx offers
    1.2 and 1.3; browsers keep 1.3, which
    :func:`test_a_hand_is_played_through_nginx_with_tls` checks nginx negotiates).

    websockets' sync client reads its socket in a thread of its own while the caller's
    thread writes the opening handshake, and after a TLS 1.3 handshake the server's session
    tickets arrive just then: an SSL object read and written at once by two threads can lose
    the write. nginx then waits for a request that never comes (the project's CI: "timed
    out while waiting for handshake response", 60 s). Against this site, 1,000 wss
    handshakes in a row lost 2 with TLS 1.3 and took 130 s; with TLS 1.2, 1,500 lost none
    in 8 s."""
    tls = ssl.create_default_context(cafile=str(cert))
    tls.maximum_version = ssl.TLSVersion.TLSv1_2
    return tls


def start_nginx(site: Callable[[int], str]) -> NginxServer:
    """nginx running ``site(its port)`` in its http block."""
    nginx = NginxServer("")
    try:
        text = site(nginx.port)
        nginx.conf.write_text(nginx.conf.read_text().replace("\n\n}\n", f"\n{text}\n}}\n"))
        return nginx.start()
    except BaseException:
        nginx.stop()
        raise


@pytest.fixture
def front(tmp_path: Path, postgres: PostgresServer, redis_server: RedisServer
          ) -> Iterator[Front]:
    """Two server processes on one PostgreSQL and one Redis, behind nginx with TLS."""
    cert, key = certificate(tmp_path)
    with card_room(2, postgres, redis_server, "deploy", "--bots", "inline", "--cpu-delay",
                   "0") as servers:
        nginx = start_nginx(lambda port: site_for_test([s.port for s in servers], port,
                                                       free_port(), cert, key))
        try:
            yield Front(nginx, client_tls(cert), servers)
        finally:
            nginx.stop()


def test_a_hand_is_played_through_nginx_with_tls(front: Front) -> None:
    browser_like = ssl.create_default_context()
    browser_like.check_hostname = False
    browser_like.verify_mode = ssl.CERT_NONE  # (only the version is looked at)
    with socket.create_connection(("localhost", front.nginx.port), timeout=30) as raw, \
            browser_like.wrap_socket(raw, server_hostname="localhost") as tls:
        assert tls.version() == "TLSv1.3"  # (the Python clients below keep to 1.2: client_tls)
    ann = NetPlayer(front, "Ann")
    bob = NetPlayer(front, "Bob")
    tid = new_table(ann, {"one_hand": True, "profile": "cardems"})
    assert bob.request({"type": "join", "table_id": tid})["type"] == "ack"
    assert ann.request({"type": "start"})["type"] == "ack"
    for _ in range(5000):
        if ann.view is not None and ann.view["phase"] == "over":
            break
        step([ann, bob])
    assert ann.view is not None and ann.view["phase"] == "over"
    record = httpx.get(f"{front.url}/api/games/{tid}/record", verify=front.ssl, timeout=10)
    assert record.status_code == 200
    assert len(record.json()["hands"][0]["plays"]) == 52


def test_a_cross_site_page_cannot_open_the_websocket_through_nginx(front: Front) -> None:
    with pytest.raises(InvalidStatus) as info:
        connect(front.ws_url, ssl=front.ssl, origin="https://evil.example",  # type: ignore[arg-type]
                open_timeout=60)
    assert info.value.response.status_code == 403


def _failed_logins_until_refused(url: str, forwarded: str | None, limit: int = 30) -> int:
    """Wrong passwords for one name until 429: how many were answered 401 first (the
    throttle counts failures per address and name)."""
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    for i in range(limit):
        r = httpx.post(url + "/api/login", json={"name": "nobody", "password": "wrong-pass"},
                       headers=headers, timeout=30)
        if r.status_code == 429:
            return i
        assert r.status_code == 401, r.text
    return limit


@pytest.mark.parametrize("trusted", [True, False])
def test_forwarded_addresses_are_believed_only_from_trusted_proxies(tmp_path: Path,
                                                                    trusted: bool) -> None:
    allow = "127.0.0.1" if trusted else ""
    server = Server(tmp_path / "fwd.sqlite3", free_port(), "--bots", "inline",
                    "--forwarded-allow-ips", allow).start()
    try:
        first = _failed_logins_until_refused(server.url, "203.0.113.5")
        assert 0 < first < 30  # the throttle stops one address
        # Another forwarded address: a new client if the proxy is trusted, else the same.
        second = _failed_logins_until_refused(server.url, "198.51.100.7")
        if trusted:
            assert second == first
        else:
            assert second == 0
    finally:
        server.stop()


def test_a_proxy_that_drops_the_upgrade_headers_is_told_to_the_operator(tmp_path: Path) -> None:
    """nginx's /ws without ``proxy_set_header Upgrade``/``Connection`` (a common slip when
    a site is written by hand): every player's WebSocket was answered 404, as if there were
    no such path, and the server logged nothing at its default level. Now the client gets
    426 saying what is missing, and the server's log one warning naming the proxy's headers."""
    cert, key = certificate(tmp_path)
    server = Server(tmp_path / "s.sqlite3", free_port(), "--bots", "inline").start()
    try:
        def site(port: int) -> str:
            text = site_for_test([server.port], port, free_port(), cert, key)
            for line in ("proxy_set_header Upgrade $http_upgrade;",
                         "proxy_set_header Connection $connection_upgrade;"):
                assert line in text
                text = text.replace(line, "")
            return text
        nginx = start_nginx(site)
        try:
            front = Front(nginx, client_tls(cert))
            with pytest.raises(InvalidStatus) as info:
                connect(front.ws_url, ssl=front.ssl, origin=front.url,  # type: ignore[arg-type]
                        open_timeout=60)
            answer = info.value.response
            assert answer.status_code == 426, answer.status_code
            assert b"Upgrade" in answer.body, answer.body
            plain = httpx.get(front.url + "/ws", verify=front.ssl, timeout=30)
            assert plain.status_code == 426
            assert "Upgrade" in plain.json()["detail"]
        finally:
            nginx.stop()
        wait_until(lambda: "WARNING spades.server: a request to /ws" in server.log(),
                   "the server's warning", seconds=30)
        lines = [x for x in server.log().splitlines() if "a request to /ws" in x]
        assert len(lines) == 1, lines  # once a minute, not once per player
        assert "proxy_set_header Upgrade" in lines[0], lines[0]
    finally:
        server.stop()


def test_a_plain_request_to_ws_over_http2_through_nginx_is_told_426(tmp_path: Path) -> None:
    """The deploy site speaks HTTP/2 to browsers. A plain ``GET /ws`` through it (a page or a
    script that asks /ws as HTTP) got a protocol error instead of the 426 that says what is
    wrong: the 426 carried ``Upgrade`` and ``Connection``, header fields HTTP/2 forbids, and
    nginx passed ``Upgrade`` on. Behind a proxy the server no longer sends them."""
    cert, key = certificate(tmp_path)
    server = Server(tmp_path / "s.sqlite3", free_port(), "--bots", "inline").start()
    try:
        nginx = start_nginx(lambda port: site_for_test([server.port], port, free_port(), cert, key))
        try:
            url = f"https://localhost:{nginx.port}/ws"
            for version in ("--http2", "--http1.1"):
                answer = subprocess.run(
                    ["curl", "-sS", version, "--cacert", str(cert), "-o", "-",
                     "-w", "\n%{http_code} %{http_version}", url],
                    capture_output=True, text=True, timeout=60)
                assert answer.returncode == 0, (version, answer.stderr)
                body, _, status = answer.stdout.rpartition("\n")
                assert status == ("426 2" if version == "--http2" else "426 1.1"), status
                assert "Upgrade" in json.loads(body)["detail"]
        finally:
            nginx.stop()
        direct = httpx.get(server.url + "/ws", timeout=30)  # no proxy: HTTP/1.1's 426 in full
        assert direct.status_code == 426
        assert direct.headers["upgrade"] == "websocket", direct.headers
    finally:
        server.stop()


def test_each_process_says_how_many_processes_share_its_room(postgres: PostgresServer,
                                                              redis_server: RedisServer) -> None:
    """An operator could not tell from a deployment whether its processes share one Redis
    (one given another --redis or --redis-prefix runs a room of its own, and nothing said
    so): ``/api/health`` said only ``"redis": true``. It now says how many processes are in
    the room (the same from each) and this one's id; a stopped process leaves the count."""
    def health(server: Server) -> dict[str, Any]:
        answer: dict[str, Any] = httpx.get(server.url + "/api/health", timeout=30).json()
        return answer

    with card_room(2, postgres, redis_server, "share", "--bots", "inline") as servers:
        wait_until(lambda: all(health(s).get("processes") == 2 for s in servers),
                   "both processes counting two", seconds=30)
        nodes = {health(s)["node"] for s in servers}
        assert len(nodes) == 2, nodes
        alone = Server(postgres.create_database("alone"), free_port(), "--bots", "inline",
                       "--redis", redis_server.url, "--redis-prefix",
                       f"other{free_port()}:").start()
        try:  # another prefix: a room of its own, which its count shows
            assert health(alone)["processes"] == 1
            assert health(servers[0])["processes"] == 2
        finally:
            alone.stop()
        servers[1].stop()
        wait_until(lambda: health(servers[0])["processes"] == 1, "the count after a stop",
                   seconds=30)


def test_open_websockets_are_capped_per_client_behind_nginx(tmp_path: Path) -> None:
    """``conns_per_address`` caps the open connections of one client address, but behind
    nginx every connection comes from nginx, a trusted proxy, which that cap leaves alone:
    one client could open any number of WebSockets through the site. Now the server counts
    the open WebSockets of each client's own address (the one nginx passes on)."""
    cert, key = certificate(tmp_path)
    server = Server(tmp_path / "s.sqlite3", free_port(), "--bots", "inline",
                    "--conns-per-address", "3").start()
    opened: list[Any] = []
    try:
        nginx = start_nginx(lambda port: site_for_test([server.port], port, free_port(), cert,
                                                       key))
        try:
            front = Front(nginx, client_tls(cert), [server])

            def socket_from(source: str) -> Any:
                """A WebSocket of a client at ``source`` through nginx, signed in."""
                web = httpx.Client(verify=front.ssl, timeout=30, transport=httpx.HTTPTransport(
                    local_address=source, verify=front.ssl))
                with web:
                    token = web.post(front.url + "/api/guest", json={"name": "Capped"}
                                     ).json()["token"]
                sock = socket.create_connection(("localhost", nginx.port), timeout=30,
                                                source_address=(source, 0))
                ws = connect(front.ws_url, sock=sock, ssl=front.ssl,  # type: ignore[arg-type]
                             server_hostname="localhost", origin=front.url,
                             open_timeout=60).__enter__()  # (as NetPlayer: no bare connect)
                opened.append(ws)
                ws.send(json.dumps({"type": "hello", "token": token}))
                assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
                return ws

            for _ in range(3):
                socket_from("127.0.0.5")
            with pytest.raises(InvalidStatus) as info:
                socket_from("127.0.0.5")
            assert info.value.response.status_code == 429
            assert b"too many open connections from your address" in info.value.response.body
            socket_from("127.0.0.6")  # another client is not affected
            opened.pop(0).close()  # one closed: room for one more
            wait_until(lambda: _opens("127.0.0.5", socket_from), "room for a socket again")
        finally:
            for ws in opened:
                ws.close()
            nginx.stop()
    finally:
        server.stop()


def _opens(source: str, socket_from: Callable[[str], Any]) -> bool:
    try:
        socket_from(source)
    except InvalidStatus:
        return False
    return True
