"""Private instances of real services for the tests: a PostgreSQL server in a temporary
folder on a free 127.0.0.1 port, stopped when the test session ends. Never a mock.

``scripts/test`` installs Debian's ``postgresql`` package when ``initdb`` is missing; this
module only finds and runs it. PostgreSQL refuses to run as root, so under root the server
runs as the ``postgres`` system user that the package creates.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path


class ServiceMissing(RuntimeError):
    """The service's programs are not installed on this machine."""


#: Where test servers and services listen: under the ephemeral range (32768 on), where the
#: system picks the local ports of outgoing connections, so that none of those takes a port
#: between its choice and the server's bind.
TEST_PORTS = (10000, 32000)
_handed_out: set[int] = set()
_pick = random.SystemRandom()


def free_port() -> int:
    """A free port on 127.0.0.1 for a test's own server or service. Under pytest-xdist each
    worker chooses in a band of its own: with ports the system hands out (bind to 0), two
    workers could both be given one port, and a server that then lost the race was found
    "started" by another worker's server answering there. A port is not handed out twice in
    one process."""
    low, high = TEST_PORTS
    worker, count = os.environ.get("PYTEST_XDIST_WORKER", ""), os.environ.get(
        "PYTEST_XDIST_WORKER_COUNT", "")
    if worker.startswith("gw") and worker[2:].isdigit() and count.isdigit() and int(count) > 0:
        band = (high - low) // int(count)
        low += int(worker[2:]) % int(count) * band
        high = low + band
    for _ in range(1000):
        port = _pick.randrange(low, high)
        if port in _handed_out:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise RuntimeError(f"no free port on 127.0.0.1 between {low} and {high}")


def stop_process(proc: subprocess.Popen[bytes] | None, folder: Path, wait: float = 10.0) -> None:
    """Stop a service (terminate, then kill if it lingers) and remove its folder."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    with contextlib.suppress(OSError):
        shutil.rmtree(folder)


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if candidates:
        return candidates[-1]
    raise ServiceMissing(f"PostgreSQL's {name} is not installed (scripts/test installs "
                         f"Debian's postgresql package)")


class PostgresServer:
    """``initdb`` + ``postgres`` in a temporary folder; :meth:`create_database` gives each
    test a database of its own."""

    def __init__(self) -> None:
        self.initdb = _pg_bin("initdb")
        self.postgres = _pg_bin("postgres")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="spades-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._count = 0
        self._as: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise ServiceMissing("running as root, and there is no postgres user to run "
                                     "PostgreSQL as") from None
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def start(self, timeout: float = 60.0) -> None:
        subprocess.run([*self._as, self.initdb, "-D", str(self.data), "-U", "spades",
                        "--auth=trust", "--encoding=UTF8", "--no-sync"],
                       check=True, capture_output=True)
        self._run(timeout)

    def pause(self, timeout: float = 60.0) -> None:
        """Stop the server (fast shutdown: its clients are cut off) and keep its data, for
        :meth:`resume`: the database going away under the processes using it."""
        assert self.proc is not None
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGINT)  # (self.proc may be runuser, which passes on nothing)
        self.proc.wait(timeout)

    def resume(self, timeout: float = 60.0) -> None:
        """Start the paused server again, on the same port and data."""
        self._run(timeout)

    def _run(self, timeout: float) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [*self._as, self.postgres, "-D", str(self.data), "-p", str(self.port),
                 "-h", "127.0.0.1", "-k", str(self.dir), "-c", "fsync=off",
                 "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                 "-c", "max_connections=200"],
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:  # wait for the condition: a connection that answers
            if self._ready():
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("PostgreSQL did not start: " + self.log.read_text()[-2000:])
            time.sleep(0.05)

    def _ready(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.dsn("postgres"), connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def dsn(self, database: str) -> str:
        return f"postgresql://spades@127.0.0.1:{self.port}/{database}"

    def url(self, database: str) -> str:
        """A SQLAlchemy URL (the form ``spades serve --db`` takes)."""
        return f"postgresql+psycopg://spades@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its SQLAlchemy URL."""
        import psycopg

        self._count += 1
        name = f"{prefix}_{os.getpid()}_{self._count}"
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        stop_process(self.proc, self.dir, 30)  # smart shutdown; then fast


NGINX_CONF = """\
worker_processes 1;
worker_rlimit_nofile 20000;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
{site}
}}
"""


class NginxServer:
    """Debian's nginx with a site file of the project's (``docs/deploy.md``), its upstream
    servers and port filled in, run in the foreground from a temporary folder."""

    def __init__(self, site: str) -> None:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(nginx).exists():
            raise ServiceMissing("nginx is not installed (scripts/test installs Debian's nginx)")
        self.nginx = nginx
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="spades-nginx-"))
        self.conf = self.dir / "nginx.conf"
        body = NGINX_CONF.format(dir=self.dir, site=site)
        if os.geteuid() == 0:  # workers run as nobody: let them read and write here
            body = "user root;\n" + body
        self.conf.write_text(body)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> NginxServer:
        with open(self.dir / "stderr.log", "ab") as log:
            self.proc = subprocess.Popen(
                [self.nginx, "-p", str(self.dir), "-c", str(self.conf), "-g", "daemon off;"],
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=1):
                return self
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("nginx did not start: "
                                   + (self.dir / "stderr.log").read_text()[-2000:])
            time.sleep(0.05)

    def stop(self) -> None:
        stop_process(self.proc, self.dir)


class RedisServer:
    """Debian's redis-server on a free 127.0.0.1 port, nothing written to disk."""

    def __init__(self) -> None:
        program = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(program).exists():
            raise ServiceMissing("redis-server is not installed (scripts/test installs "
                                 "Debian's redis-server package)")
        self.program = program
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="spades-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 30.0) -> RedisServer:
        with open(self.dir / "redis.log", "ab") as log:
            self.proc = subprocess.Popen(
                [self.program, "--port", str(self.port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", str(self.dir)],
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("redis-server did not start: "
                                   + (self.dir / "redis.log").read_text()[-2000:])
            time.sleep(0.05)

    def stop(self) -> None:
        stop_process(self.proc, self.dir)
