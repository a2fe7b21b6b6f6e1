"""The two commands a new machine needs: ``run`` (the whole site) and ``test`` (the suite).

    python -m poker_site.launcher run            # make run
    python -m poker_site.launcher test -- ARGS   # make test ARGS=...

Both provide PostgreSQL and Redis through ``embedded_services()`` when DATABASE_URL / REDIS_URL are
unset. ``run`` migrates, loads the demo data, then supervises daphne, a Celery worker, Celery beat
and the deadline ticker; Ctrl-C (SIGINT) or SIGTERM stops every child, then the embedded servers.

A child that dies is started again after a pause that doubles with each death (``RestartPolicy``), and the launcher
logs how it ended (exit status or signal). When a web process or the ticker dies, the hands it interrupted are rolled
back (CASH-24): a restarted ticker does so on its first tick, and a web process's death starts ``manage.py
hands_recover``. A child that keeps dying (more than ``SUPERVISOR_MAX_RESTARTS`` times within
``SUPERVISOR_RESTART_WINDOW`` seconds) makes the launcher give up: it stops every child and exits with status 1.
The launcher holds the web processes' listening socket, so connections made while daphne restarts wait in its backlog.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from poker_site import env
from poker_site.embedded import PROJECT_DIRECTORY, embedded_services

PYTHON = sys.executable
BIN_DIRECTORY = Path(PYTHON).parent
STOP_GRACE_SECONDS = 10.0


@dataclass
class Child:
    """One supervised process. ``after_death`` is a command started (once, not supervised) each time it dies."""

    name: str
    command: list[str]
    process: subprocess.Popen[bytes] | None = None
    pass_fds: tuple[int, ...] = ()
    after_death: list[str] | None = None
    deaths: collections.deque[float] = field(default_factory=collections.deque)
    """When it died (``time.monotonic()``), within the policy's window."""
    restart_at: float | None = None
    """When to start it again; None while it runs."""


WEBSOCKET_MAXIMUM_MESSAGE_BYTES = 64 * 1024
"""daphne closes a socket (code 1009) whose message is larger than this, before it is buffered for the application.
The table protocol's own limit is 4,096 characters (``games.runtime.protocol``): messages between the two still reach
the
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


def site_processes(
    listener: socket.socket, web_processes: int = 1, *, demo_bots: bool = False, table_processes: int = 0
) -> list[Child]:
    """Every process the site needs, in start order. Each daphne adopts ``listener`` (a socket from
    :func:`listening_socket`, held by the launcher): with several, the kernel spreads connections among them (a
    socket's table state lives in PostgreSQL and its messages come through Redis, so any process can serve any table);
    with one, connections made while it restarts wait in the socket's backlog instead of being refused.

    A web process's death interrupts the hands of the players it served; ``hands_recover`` rolls back every hand in
    progress (CASH-24). The ticker rolls them back itself when it starts (``games.runtime.ticks``).

    With ``table_processes`` (``TABLE_PROCESSES`` when ``TABLE_ACTORS`` is on), that many ``manage.py run_tables``
    own the tables by leases and play their hands in memory (``games.runtime.owner``); one that dies has its tables
    taken over by the others within a lease (its hands in progress rolled back, CASH-23), and is restarted.

    With ``demo_bots``, ``manage.py run_demo_life`` keeps the demo alive: bots at the cash tables of every game, in
    Sit & Gos, scheduled tournaments and HexaPro queues (``games.bots.demo_life``)."""
    manage = [PYTHON, str(PROJECT_DIRECTORY / "manage.py")]
    celery = [str(BIN_DIRECTORY / "celery"), "-A", "poker_site"]
    host, port = listener.getsockname()[:2]
    descriptor = listener.fileno()
    names = ["web"] if web_processes == 1 else [f"web-{number}" for number in range(1, web_processes + 1)]
    web = [
        Child(
            name,
            web_server_command(host, port, listening_descriptor=descriptor),
            pass_fds=(descriptor,),
            after_death=[*manage, "hands_recover"],
        )
        for name in names
    ]
    children = [
        *web,
        Child("worker", [*celery, "worker", "--loglevel", "INFO", "--concurrency", "2", "--pool", "prefork"]),
        Child("beat", [*celery, "beat", "--loglevel", "INFO"]),
        Child("ticker", [*manage, "run_ticker"]),
    ]
    table_names = ["tables"] if table_processes == 1 else [f"tables-{n}" for n in range(1, table_processes + 1)]
    children += [Child(name, [*manage, "run_tables"]) for name in table_names[:table_processes]]
    if demo_bots:
        children.append(Child("demo", [*manage, "run_demo_life", "--base-url", site_address(host, port)]))
    return children


def site_address(host: str, port: int) -> str:
    """The address a process on this machine reaches the site at (a wildcard bind is reached on loopback)."""
    if host in {"", "0.0.0.0"}:
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


PR_SET_PDEATHSIG = 1


def stop_when_parent_dies() -> None:
    """In the child before exec: ask Linux to send SIGTERM when the launcher dies, even by SIGKILL.

    Children run in their own sessions (so Ctrl-C reaches only the launcher, which stops them in order);
    without this a launcher killed outright would leave them orphaned and still serving.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


@dataclass(frozen=True)
class RestartPolicy:
    """How the supervisor treats a child that died: start it again after ``delay``, or give up.

    The pause doubles with each death within the window (0.5 s, 1 s, 2 s, ... up to ``maximum_delay_seconds``), so a
    child that crashes at start-up does not spin; a child whose deaths are older than the window starts over at the
    first delay. More than ``maximum_restarts`` deaths within ``window_seconds`` means it will not stay up: give up."""

    first_delay_seconds: float = 0.5
    maximum_delay_seconds: float = 30.0
    maximum_restarts: int = 5
    window_seconds: float = 60.0

    @classmethod
    def from_environment(cls) -> RestartPolicy:
        return cls(
            maximum_restarts=env.integer("SUPERVISOR_MAX_RESTARTS", cls.maximum_restarts, minimum=0),
            window_seconds=env.number("SUPERVISOR_RESTART_WINDOW", cls.window_seconds, minimum=1.0),
        )

    def delay(self, deaths_in_window: int) -> float:
        """The pause before the next start of a child that died ``deaths_in_window`` times within the window."""
        exponent = min(max(deaths_in_window - 1, 0), 30)
        return float(min(self.first_delay_seconds * 2**exponent, self.maximum_delay_seconds))

    def gives_up(self, deaths_in_window: int) -> bool:
        return deaths_in_window > self.maximum_restarts


def how_it_ended(return_code: int) -> str:
    """``exited with status 3`` or ``was killed by SIGKILL`` (Popen's negative return code is the signal)."""
    if return_code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-return_code).name}"
        return f"was killed by signal {-return_code}"
    return f"exited with status {return_code}"


class Supervisor:
    """Starts children in their own process groups, restarts one that dies (``policy``), and stops all together."""

    def __init__(self, children: list[Child], policy: RestartPolicy | None = None) -> None:
        self.children = children
        self.policy = policy or RestartPolicy()
        self.stopping = False
        self.jobs: list[tuple[str, subprocess.Popen[bytes]]] = []
        """``after_death`` commands still running, by the name of the child whose death started them."""

    def start(self) -> None:
        for child in self.children:
            self._spawn(child)
            print(f"[launcher] started {child.name} (pid {self._pid(child)})", flush=True)

    @staticmethod
    def _popen(command: list[str], pass_fds: tuple[int, ...] = ()) -> subprocess.Popen[bytes]:
        # A new session: Ctrl-C reaches only the supervisor, which then stops children in order.
        return subprocess.Popen(
            command,
            cwd=PROJECT_DIRECTORY,
            start_new_session=True,
            preexec_fn=stop_when_parent_dies,
            pass_fds=pass_fds,
        )

    def _spawn(self, child: Child) -> None:
        child.process = self._popen(child.command, child.pass_fds)
        child.restart_at = None

    @staticmethod
    def _pid(child: Child) -> int:
        assert child.process is not None
        return child.process.pid

    def request_stop(self, signal_number: int, _frame: object) -> None:
        print(f"[launcher] received {signal.Signals(signal_number).name}, stopping", flush=True)
        self.stopping = True

    def wait(self) -> int:
        """Supervise until a stop is requested (return 0) or a child keeps dying (return 1)."""
        while not self.stopping:
            if not self.supervise_once(time.monotonic()):
                return 1
            time.sleep(0.2)
        return 0

    def supervise_once(self, now: float) -> bool:
        """One look at every child: note deaths, start what is due, reap finished jobs. False means give up."""
        for child in self.children:
            assert child.process is not None
            if child.restart_at is None:
                code = child.process.poll()
                if code is not None and not self._child_died(child, code, now):
                    return False
            elif now >= child.restart_at and not self.stopping:
                self._spawn(child)
                print(f"[launcher] restarted {child.name} (pid {self._pid(child)})", flush=True)
        self._reap_jobs()
        return True

    def _child_died(self, child: Child, code: int, now: float) -> bool:
        """Record the death and schedule the restart; False when the policy gives up."""
        # Celery's prefork pool children share the group; none may outlive its parent.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._pid(child), signal.SIGKILL)
        child.deaths.append(now)
        while child.deaths and now - child.deaths[0] > self.policy.window_seconds:
            child.deaths.popleft()
        deaths = len(child.deaths)
        ended = f"[launcher] {child.name} (pid {self._pid(child)}) {how_it_ended(code)}"
        if self.policy.gives_up(deaths):
            print(
                f"{ended}: {deaths} deaths within {self.policy.window_seconds:g} s; giving up, stopping the site",
                flush=True,
            )
            return False
        if child.after_death is not None:
            self.jobs.append((child.name, self._popen(child.after_death)))
            started = " ".join(Path(part).name for part in child.after_death[1:])
            print(f"[launcher] {child.name} died: started {started}", flush=True)
        delay = self.policy.delay(deaths)
        child.restart_at = now + delay
        window = self.policy.window_seconds
        print(f"{ended}; restarting it in {delay:g} s (death {deaths} within {window:g} s)", flush=True)
        return True

    def _reap_jobs(self) -> None:
        for name, job in list(self.jobs):
            code = job.poll()
            if code is None:
                continue
            self.jobs.remove((name, job))
            if code != 0:
                print(f"[launcher] the job after {name}'s death {how_it_ended(code)}", flush=True)

    def stop(self) -> None:
        processes = [(child.name, child.process) for child in self.children if child.process is not None]
        processes += self.jobs
        running = [(name, process) for name, process in processes if process.poll() is None]
        for _name, process in running:
            # SIGTERM to the child alone, not its process group: Celery's main process then shuts down warm (stops
            # taking tasks, lets its pool children finish theirs, then exits); the pool children signalled directly
            # died mid-task (WorkerLostError, messages restored). Whatever is left at the deadline is killed below.
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for name, process in running:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                print(f"[launcher] {name} did not stop in time; killing it", flush=True)
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for _name, process in processes:
            # Celery's prefork pool children share the group; make sure none is left.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        print("[launcher] all site processes stopped", flush=True)


def web_answers(host: str, port: int, timeout: float = 2.0) -> bool:
    """Whether an HTTP request to ``/healthz`` gets an HTTP answer (any status). Connecting alone proves nothing: the
    launcher's listening socket accepts connections into its backlog before any daphne serves them."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            connection.sendall(f"HEAD /healthz HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
            return connection.recv(5) == b"HTTP/"
    except OSError:
        return False


def wait_for_web(host: str, port: int, supervisor: Supervisor, timeout: float = 120.0) -> bool:
    """Supervise until the web server answers, so the printed URL works when it is printed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not supervisor.stopping:
        if not supervisor.supervise_once(time.monotonic()):
            return False
        if web_answers(host, port):
            return True
        time.sleep(0.2)
    if not supervisor.stopping:
        print(f"[launcher] the web server did not answer on {host}:{port}", flush=True)
    return supervisor.stopping


def manage(*arguments: str) -> None:
    subprocess.run([PYTHON, str(PROJECT_DIRECTORY / "manage.py"), *arguments], cwd=PROJECT_DIRECTORY, check=True)


def table_processes_from_environment() -> int:
    """How many ``run_tables`` the site runs: ``TABLE_PROCESSES`` (default 1) when ``TABLE_ACTORS`` is on (issue 27,
    table actors; the default), none when it is off (every action is played by the per-action durable path in the web
    process)."""
    if not env.table_actors():
        return 0
    return env.integer("TABLE_PROCESSES", 1, minimum=1)


def run_site() -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    web_processes = max(1, int(os.environ.get("WEB_PROCESSES", "1")))
    table_processes = table_processes_from_environment()
    # The demo site lives by default: its bots play (DEMO_BOTS=false turns them off). Every child reads the setting.
    os.environ["DEMO_BOTS"] = "true" if env.boolean("DEMO_BOTS", True) else "false"
    demo_bots = os.environ["DEMO_BOTS"] == "true"
    listener = listening_socket(host, port)
    supervisor = Supervisor(
        site_processes(listener, web_processes, demo_bots=demo_bots, table_processes=table_processes),
        RestartPolicy.from_environment(),
    )
    signal.signal(signal.SIGINT, supervisor.request_stop)
    signal.signal(signal.SIGTERM, supervisor.request_stop)
    with embedded_services() as services:
        print(f"[launcher] PostgreSQL: {services['DATABASE_URL']}", flush=True)
        print(f"[launcher] Redis: {services['REDIS_URL']}", flush=True)
        manage("seed_demo", "--migrate")  # one Django start-up for both
        if supervisor.stopping:
            return 0
        try:
            supervisor.start()
            if not wait_for_web(host, port, supervisor):
                return 1
            print(f"[launcher] lobby: http://{host}:{port}/  (Ctrl-C stops everything)", flush=True)
            status = supervisor.wait()
        finally:
            supervisor.stop()
            listener.close()
    print("[launcher] embedded services stopped; bye", flush=True)
    return status


def run_tests(arguments: list[str]) -> int:
    """Run pytest with ``arguments``. It writes bytecode caches even where the environment says not to
    (``PYTHONDONTWRITEBYTECODE``, set in some container images): without them every xdist worker compiles the project
    and re-runs pytest's assertion rewriting of every test module on each run (measured: 22 s of CPU a worker to
    collect the suite, 8.5 s with the caches)."""
    with embedded_services():  # it may set DATABASE_URL and REDIS_URL
        environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        completed = subprocess.run([PYTHON, "-m", "pytest", *arguments], cwd=PROJECT_DIRECTORY, env=environment)
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
