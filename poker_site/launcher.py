"""The two commands a new machine needs: ``run`` (the whole site) and ``test`` (the suite).

    python -m poker_site.launcher run            # make run
    python -m poker_site.launcher test -- ARGS   # make test ARGS=...

Both provide PostgreSQL and Redis through ``embedded_services()`` when DATABASE_URL / REDIS_URL are
unset. ``run`` migrates, loads the demo data, then supervises daphne, a Celery worker, Celery beat
and the deadline ticker; Ctrl-C (SIGINT) or SIGTERM stops every child, then the embedded servers.
If any child dies, the others are stopped too, so the site is never half up.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from poker_site.embedded import PROJECT_DIRECTORY, embedded_services

PYTHON = sys.executable
BIN_DIRECTORY = Path(PYTHON).parent
STOP_GRACE_SECONDS = 10.0


@dataclass
class Child:
    name: str
    command: list[str]
    process: subprocess.Popen[bytes] | None = None
    pass_fds: tuple[int, ...] = ()


WEBSOCKET_MAXIMUM_MESSAGE_BYTES = 64 * 1024
"""daphne closes a socket (code 1009) whose message is larger than this, before it is buffered for the application.
The table protocol's own limit is 4,096 characters (``games.protocol``): messages between the two still reach the
consumer, which answers ``message_too_large`` so a client learns why; anything bigger is cut off at the door."""


def web_server_command(
    host: str,
    port: int,
    *,
    listening_descriptor: int | None = None,
    application: str = "poker_site.asgi:application",
) -> list[str]:
    """The daphne command line that serves ``application`` (the site) on ``host:port`` (the launcher, the live-site
    tests, the benchmark), or on an inherited listening socket (``listening_descriptor``) that several daphne
    processes accept from."""
    address = ["--fd", str(listening_descriptor)] if listening_descriptor is not None else ["-b", host, "-p", str(port)]
    return [
        str(BIN_DIRECTORY / "daphne"),
        *address,
        "--websocket-max-message-size",
        str(WEBSOCKET_MAXIMUM_MESSAGE_BYTES),
        application,
    ]


def listening_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket for ``host:port`` that the web processes inherit (the kernel spreads connections)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, port))
    listener.listen(1024)
    listener.set_inheritable(True)
    return listener


def site_processes(host: str, port: int, web_processes: int = 1, listener: socket.socket | None = None) -> list[Child]:
    """Every process the site needs, in start order. With more than one web process, each daphne adopts
    ``listener`` (a socket from :func:`listening_socket`): a socket's table state lives in PostgreSQL and its messages
    come through the Redis channel layer, so any process can serve any table."""
    manage = [PYTHON, str(PROJECT_DIRECTORY / "manage.py")]
    celery = [str(BIN_DIRECTORY / "celery"), "-A", "poker_site"]
    if web_processes == 1 or listener is None:
        web = [Child("web", web_server_command(host, port))]
    else:
        descriptor = listener.fileno()
        web = [
            Child(
                f"web-{number}", web_server_command(host, port, listening_descriptor=descriptor), pass_fds=(descriptor,)
            )
            for number in range(1, web_processes + 1)
        ]
    return [
        *web,
        Child("worker", [*celery, "worker", "--loglevel", "INFO", "--concurrency", "2", "--pool", "prefork"]),
        Child("beat", [*celery, "beat", "--loglevel", "INFO"]),
        Child("ticker", [*manage, "run_ticker"]),
    ]


PR_SET_PDEATHSIG = 1


def stop_when_parent_dies() -> None:
    """In the child before exec: ask Linux to send SIGTERM when the launcher dies, even by SIGKILL.

    Children run in their own sessions (so Ctrl-C reaches only the launcher, which stops them in order);
    without this a launcher killed outright would leave them orphaned and still serving.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


class Supervisor:
    """Starts children in their own process groups and stops all of them together."""

    def __init__(self, children: list[Child]) -> None:
        self.children = children
        self.stopping = False

    def start(self) -> None:
        for child in self.children:
            # A new session: Ctrl-C reaches only the supervisor, which then stops children in order.
            child.process = subprocess.Popen(
                child.command,
                cwd=PROJECT_DIRECTORY,
                start_new_session=True,
                preexec_fn=stop_when_parent_dies,
                pass_fds=child.pass_fds,
            )
            print(f"[launcher] started {child.name} (pid {child.process.pid})", flush=True)

    def request_stop(self, signal_number: int, _frame: object) -> None:
        print(f"[launcher] received {signal.Signals(signal_number).name}, stopping", flush=True)
        self.stopping = True

    def wait(self) -> int:
        """Block until a stop is requested or a child exits; return the launcher's exit status."""
        while not self.stopping:
            for child in self.children:
                assert child.process is not None
                code = child.process.poll()
                if code is not None:
                    print(f"[launcher] {child.name} exited with status {code}; stopping the site", flush=True)
                    return 1
            time.sleep(0.2)
        return 0

    def stop(self) -> None:
        running = [child for child in self.children if child.process and child.process.poll() is None]
        for child in running:
            assert child.process is not None
            os.killpg(child.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for child in running:
            assert child.process is not None
            try:
                child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                print(f"[launcher] {child.name} did not stop in time; killing it", flush=True)
                os.killpg(child.process.pid, signal.SIGKILL)
                child.process.wait()
            # Celery's prefork pool children share the group; make sure none is left.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.process.pid, signal.SIGKILL)
        print("[launcher] all site processes stopped", flush=True)


def wait_for_port(host: str, port: int, supervisor: Supervisor, timeout: float = 120.0) -> bool:
    """Wait until the web server accepts connections, so the printed URL works when it is printed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not supervisor.stopping:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    print(f"[launcher] the web server did not listen on {host}:{port}", flush=True)
    return False


def manage(*arguments: str) -> None:
    subprocess.run([PYTHON, str(PROJECT_DIRECTORY / "manage.py"), *arguments], cwd=PROJECT_DIRECTORY, check=True)


def run_site() -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    web_processes = max(1, int(os.environ.get("WEB_PROCESSES", "1")))
    listener = listening_socket(host, port) if web_processes > 1 else None
    supervisor = Supervisor(site_processes(host, port, web_processes, listener))
    signal.signal(signal.SIGINT, supervisor.request_stop)
    signal.signal(signal.SIGTERM, supervisor.request_stop)
    with embedded_services() as services:
        print(f"[launcher] PostgreSQL: {services['DATABASE_URL']}", flush=True)
        print(f"[launcher] Redis: {services['REDIS_URL']}", flush=True)
        manage("migrate", "--no-input")
        manage("seed_demo")
        if supervisor.stopping:
            return 0
        try:
            supervisor.start()
            if not wait_for_port(host, port, supervisor):
                return 1
            print(f"[launcher] lobby: http://{host}:{port}/  (Ctrl-C stops everything)", flush=True)
            status = supervisor.wait()
        finally:
            supervisor.stop()
    print("[launcher] embedded services stopped; bye", flush=True)
    return status


def run_tests(arguments: list[str]) -> int:
    with embedded_services():
        completed = subprocess.run([PYTHON, "-m", "pytest", *arguments], cwd=PROJECT_DIRECTORY)
    return completed.returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test"}:
        print("usage: python -m poker_site.launcher run | test [-- pytest arguments]", file=sys.stderr)
        return 2
    if argv[0] == "run":
        return run_site()
    rest = argv[1:]
    if rest and rest[0] == "--":
        rest = rest[1:]
    return run_tests(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
