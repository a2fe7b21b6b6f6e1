"""Runtime "hosts" for the live tests of table actors (issue 27): ``manage.py run_tables`` processes each in its own
network namespace (reaching PostgreSQL and Redis only through ``socat`` forwarders, over Unix sockets; where
namespaces cannot be made, each known by its own loopback address, 127.0.0.2 and 127.0.0.3), who owns which table, and
players who act at their tables through the tables' streams."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis

from games.runtime import inbox
from tests.realtime.live_site import PROJECT


def namespaces_available() -> bool:
    """Whether this machine lets the test make network namespaces (root, ``ip``, ``socat``, ``ss``)."""
    if os.geteuid() != 0 or not all(shutil.which(tool) for tool in ("ip", "socat", "ss")):
        return False
    probe = f"pk{os.getpid() % 100000}p"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, check=False).returncode == 0
    if made:
        subprocess.run(["ip", "netns", "del", probe], capture_output=True, check=False)
    return made


@dataclass
class Host:
    """One runtime "host": the address its process is known by, the command prefix that puts it in its namespace,
    the database and Redis addresses it reaches, and what to tear down."""

    address: str
    prefix: list[str]
    database_url: str
    redis_url: str
    cleanup: list[list[str]]
    forwarders: list[subprocess.Popen[bytes]]
    directories: list[Path] = field(default_factory=list)


def moved(url: str, host: str, port: int) -> str:
    """``url`` pointed at ``host:port`` over TCP (a ``host`` in its query, a Unix socket's directory, is dropped)."""
    parts = urlsplit(url)
    credentials = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    query = urlencode([(key, value) for key, value in parse_qsl(parts.query) if key not in ("host", "port")])
    return urlunsplit((parts.scheme, f"{credentials}{host}:{port}", parts.path, query, parts.fragment))


def server_address(url: str) -> str:
    """Where ``socat`` reaches the server of ``url``: its TCP address, or its Unix socket when the URL names a socket
    directory (the embedded PostgreSQL of a machine without DATABASE_URL: ``postgresql://postgres:@/poker?host=/dir``,
    listening on ``/dir/.s.PGSQL.<port>``)."""
    parts = urlsplit(url)
    if parts.hostname:
        return f"TCP:{parts.hostname}:{parts.port}"
    query = dict(parse_qsl(parts.query))
    directory = query.get("host", "")
    if not directory.startswith("/"):
        raise ValueError(f"no server address in {url}")
    port = parts.port or int(query.get("port", 5432))
    return f"UNIX-CONNECT:{directory}/.s.PGSQL.{port}"


@contextlib.contextmanager
def hosts(environment: dict[str, str]) -> Iterator[list[Host]]:
    made: list[Host] = []
    try:
        if namespaces_available():
            for index in range(2):
                made.append(namespace_host(index, environment))
        else:
            for address in ("127.0.0.2", "127.0.0.3"):
                made.append(Host(address, [], environment["DATABASE_URL"], environment["REDIS_URL"], [], []))
        yield made
    finally:
        for host in made:
            host_remove(host)


def host_remove(host: Host) -> None:
    """Stop the host's forwarders (with the connections they forked) and remove its namespace and socket files."""
    for running in host.forwarders:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(running.pid, signal.SIGKILL)
        running.wait(10)
    for command in host.cleanup:
        subprocess.run(command, capture_output=True, check=False)
    for directory in host.directories:
        shutil.rmtree(directory, ignore_errors=True)


def namespace_host(index: int, environment: dict[str, str]) -> Host:
    """A network namespace with nothing in it but its own loopback: its PostgreSQL and Redis connections go to
    forwarders listening on that loopback, which carry them through Unix sockets (files, which namespaces share) to
    forwarders on this side that connect to the shared servers. The process can reach nothing else.

    No virtual link: an interface or address added to this (the root) namespace is a network change for every program
    watching it, and a browser test running beside on another xdist worker failed with Chromium's
    ``net::ERR_NETWORK_CHANGED`` (issue 26; the link was the suspected cause, not reproduced). A namespace's own
    loopback changes nothing here. Known in the leases by its namespace's name (each namespace's loopback is
    127.0.0.1). Whatever was made is removed again if the set-up fails half-way."""
    tag = f"pk{os.getpid() % 100000}{'ab'[index]}"
    sockets = Path(tempfile.mkdtemp(prefix=f"{tag}-"))
    host = Host(tag, ["ip", "netns", "exec", tag], "", "", [["ip", "netns", "del", tag]], [], [sockets])
    try:
        return _namespace_connected(host, index, environment)
    except BaseException:
        host_remove(host)
        raise


def _namespace_connected(host: Host, index: int, environment: dict[str, str]) -> Host:
    tag = host.address
    for command in (["ip", "netns", "add", tag], ["ip", "netns", "exec", tag, "ip", "link", "set", "lo", "up"]):
        subprocess.run(command, check=True, capture_output=True)
    for name, port in (("DATABASE_URL", 15432 + index), ("REDIS_URL", 16379 + index)):
        path = host.directories[0] / f"{name.lower()}.sock"
        host.forwarders.append(forwarder(["socat", f"UNIX-LISTEN:{path},fork", server_address(environment[name])]))
        wait_for(path.exists, f"the forwarder's socket {path}", 10)
        host.forwarders.append(
            forwarder(
                [*host.prefix, "socat", f"TCP-LISTEN:{port},bind=127.0.0.1,fork,reuseaddr", f"UNIX-CONNECT:{path}"]
            )
        )
        wait_for(lambda port=port: listening(host, port), f"the forwarder on port {port} in {tag}", 10)
        setattr(
            host, "database_url" if name == "DATABASE_URL" else "redis_url", moved(environment[name], "127.0.0.1", port)
        )
    return host


def forwarder(command: list[str]) -> subprocess.Popen[bytes]:
    """A ``socat`` in a process group of its own: stopping the group ends the connections it forked too."""
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def listening(host: Host, port: int) -> bool:
    found = subprocess.run([*host.prefix, "ss", "-Hltn", f"sport = :{port}"], capture_output=True, check=False)
    return bool(found.stdout.strip())


def start_runtime(host: Host, environment: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    command = [*host.prefix, sys.executable, str(PROJECT / "manage.py"), "run_tables", "--address", host.address]
    with log.open("wb") as output:
        return subprocess.Popen(
            command,
            cwd=PROJECT,
            env={**environment, "DATABASE_URL": host.database_url, "REDIS_URL": host.redis_url},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def owners(client: redis.Redis, table_ids: list[int]) -> dict[int, str | None]:
    store = inbox.lease_store(client)
    values = client.mget([store.owner_key(table_id) for table_id in table_ids])
    return {
        table_id: None if value is None else value.decode() for table_id, value in zip(table_ids, values, strict=True)
    }


def wait_for(condition: Any, what: Any, timeout: float) -> Any:
    """Poll ``condition`` until it returns something true; ``what`` (text, or a callable giving it when the wait
    fails) names it."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"{what() if callable(what) else what} did not happen within {timeout} s"
        time.sleep(0.05)
    return value


class Players:
    """Every seated player keeps trying to act at their table through its stream (check, else call), as a client
    would, each table in its own thread so that a table whose owner is dead holds up no other."""

    def __init__(self, seated: dict[int, list[int]]) -> None:
        self.seated = seated
        self.stop = threading.Event()
        self.answers: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._play, args=(table,), daemon=True) for table in seated]

    def __enter__(self) -> Players:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(30)

    def _play(self, table_id: int) -> None:
        try:
            self._play_on(table_id)
        except BaseException as error:  # counted, so that a failure shows it
            with self.lock:
                self.answers[f"{type(error).__name__}: {error}"] += 1
            raise

    def _play_on(self, table_id: int) -> None:
        while not self.stop.is_set():
            for user_id in self.seated[table_id]:
                for action in ("check", "call"):
                    reply = inbox.message_send(table_id, user_id, "act", {"action": action}, wait_seconds=2)
                    with self.lock:
                        self.answers["ok" if reply.ok else reply.code] += 1
                    if reply.ok or reply.code != "illegal_action":
                        break
            self.stop.wait(0.1)
