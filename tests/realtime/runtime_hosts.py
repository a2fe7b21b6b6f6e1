"""Runtime "hosts" for the live tests of table actors (issue 27): ``manage.py run_tables`` processes each in its own
network namespace (reaching PostgreSQL and Redis only through ``socat`` forwarders on its own virtual link; where
namespaces cannot be made, each known by its own loopback address, 127.0.0.2 and 127.0.0.3), who owns which table, and
players who act at their tables through the tables' streams."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis

from games.runtime import inbox
from tests.realtime.live_site import PROJECT


def namespaces_available() -> bool:
    """Whether this machine lets the test make network namespaces and virtual links (root, ``ip``, ``socat``)."""
    if os.geteuid() != 0 or not shutil.which("ip") or not shutil.which("socat"):
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


def moved(url: str, host: str, port: int) -> str:
    parts = urlsplit(url)
    credentials = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    return urlunsplit((parts.scheme, f"{credentials}{host}:{port}", parts.path, parts.query, parts.fragment))


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
            for forwarder in host.forwarders:
                forwarder.kill()
                forwarder.wait(10)
            for command in host.cleanup:
                subprocess.run(command, capture_output=True, check=False)


def namespace_host(index: int, environment: dict[str, str]) -> Host:
    """A network namespace with a virtual link to this one (10.231.<n>.0/30); forwarders on this side's end of the
    link carry its PostgreSQL and Redis connections to the shared servers."""
    tag = f"pk{os.getpid() % 100000}{'ab'[index]}"
    subnet = f"10.231.{(os.getpid() * 2 + index) % 250}"
    inside, outside = f"{subnet}.2", f"{subnet}.1"
    host = Host(inside, ["ip", "netns", "exec", tag], "", "", [["ip", "netns", "del", tag]], [])
    for command in (
        ["ip", "netns", "add", tag],
        ["ip", "link", "add", f"{tag}h", "type", "veth", "peer", "name", f"{tag}n"],
        ["ip", "link", "set", f"{tag}n", "netns", tag],
        ["ip", "addr", "add", f"{outside}/30", "dev", f"{tag}h"],
        ["ip", "link", "set", f"{tag}h", "up"],
        ["ip", "netns", "exec", tag, "ip", "addr", "add", f"{inside}/30", "dev", f"{tag}n"],
        ["ip", "netns", "exec", tag, "ip", "link", "set", f"{tag}n", "up"],
        ["ip", "netns", "exec", tag, "ip", "link", "set", "lo", "up"],
    ):
        subprocess.run(command, check=True, capture_output=True)
    for name in ("DATABASE_URL", "REDIS_URL"):
        target = urlsplit(environment[name])
        port = 15432 + index if name == "DATABASE_URL" else 16379 + index
        host.forwarders.append(
            subprocess.Popen(
                [
                    "socat",
                    f"TCP-LISTEN:{port},bind={outside},fork,reuseaddr",
                    f"TCP:{target.hostname}:{target.port}",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        address = moved(environment[name], outside, port)
        setattr(host, "database_url" if name == "DATABASE_URL" else "redis_url", address)
    return host


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
