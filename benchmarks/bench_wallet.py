"""Wallet transfers per second on PostgreSQL: one client and eight concurrent clients, reconciled at the end.

Run it standalone (it creates and drops its own scratch database next to the one DATABASE_URL names):

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/poker REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python benchmarks/bench_wallet.py [--seconds 20] [--clients 8] [--keep-database]

Without DATABASE_URL / REDIS_URL it starts the embedded servers like ``make run`` does.

Workloads, each timed for ``--seconds`` in one-second slices that alternate between the workloads (so load from
other processes falls on all of them alike):
* ``transfer_create`` between random player cash accounts (two legs, little contention);
* ``transfer_create`` of a hand settlement (three legs, every transfer also credits the one house rake account,
  the hottest row in the product);
* peer "floor": the least any PostgreSQL double-entry ledger must do per transfer, in raw SQL on the same tables:
  one transaction with one ``UPDATE ... SET balance = balance + CASE`` and one multi-row INSERT of legs (plus the
  transfer row); no locks taken first, no idempotency check, no validation. It runs on raw psycopg, each client with
  one connection kept for the whole benchmark (no Django, no ORM, no reconnecting): it shows what the safety and the
  framework cost.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

PROJECT_DIRECTORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIRECTORY))

PLAYERS = 64
START_BALANCE = 10**9  # cents per player: never runs dry during a run


@dataclass
class Result:
    name: str
    clients: int
    transfers: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.transfers / self.seconds


def _scratch_url(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(_scratch_url(url, "postgres"), autocommit=True) as connection:
        connection.execute(sql)


Work = Callable[[random.Random, int, int], None]
"""``work(rng, sequence, client)``: one transfer by client number ``client``."""


def _run_clients(clients: int, seconds: float, work: Work, run: int) -> int:
    """Run ``work(rng, sequence, client)`` in a loop on ``clients`` threads (each its own connection) for ``seconds``.
    Sequences are unique across runs (``run``) and clients, so idempotency keys never repeat. A client's error stops
    the run and is raised: a window with errors is never reported as a figure. A window in which no transfer
    completed is an error too."""
    from django.db import connection

    counts = [0] * clients
    errors: list[BaseException] = []
    barrier = threading.Barrier(clients + 1)
    stop = threading.Event()

    def client(index: int) -> None:
        rng = random.Random(index)
        try:
            barrier.wait()
            while not stop.is_set():
                work(rng, run * 10**12 + index * 10**9 + counts[index], index)
                counts[index] += 1
        except BaseException as error:
            errors.append(error)
            stop.set()
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(index,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    barrier.wait()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    if not sum(counts):
        raise RuntimeError(f"no transfer completed in a {seconds:.1f} s window of {clients} client(s)")
    return sum(counts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--seconds",
        type=float,
        default=20.0,
        help="time per workload and client count, run in alternating one-second slices",
    )
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients in the concurrent runs")
    parser.add_argument("--keep-database", action="store_true", help="do not drop the scratch database")
    options = parser.parse_args()

    with ExitStack() as stack:
        if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
            from poker_site.embedded import embedded_services

            stack.enter_context(embedded_services())
        base_url = os.environ["DATABASE_URL"]
        scratch = f"bench_wallet_{os.getpid()}"
        _admin(base_url, f'CREATE DATABASE "{scratch}"')
        try:
            os.environ["DATABASE_URL"] = _scratch_url(base_url, scratch)
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poker_site.settings")
            os.environ.setdefault("LOG_LEVEL", "WARNING")
            return _benchmark(options.seconds, options.clients)
        finally:
            from django.db import connections

            connections.close_all()
            if not options.keep_database:
                _admin(base_url, f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')


def _benchmark(seconds: float, clients: int) -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from poker_site.accounts.models import User
    from wallet.models import AccountKind
    from wallet.services import (
        TransferLeg,
        ledger_reconcile,
        ledger_summary,
        player_cash_account,
        reference_account,
        system_account,
        transfer_create,
    )

    call_command("migrate", verbosity=0)
    outside = system_account(AccountKind.OUTSIDE_WORLD)
    rake = system_account(AccountKind.HOUSE_RAKE)
    accounts = []
    for number in range(PLAYERS):
        user = User.objects.create_user(f"bench{number}", password=None)
        cash = player_cash_account(user)
        transfer_create(
            kind="deposit",
            legs=[TransferLeg(outside, -START_BALANCE), TransferLeg(cash, START_BALANCE)],
            idempotency_key=f"seed:{number}",
            reference=f"bench-seed:{number}",
        )
        accounts.append(cash)
    sessions = [
        reference_account(AccountKind.TABLE_SESSION, f"bench-session:{n}", owner=account.owner)
        for n, account in enumerate(accounts)
    ]
    for account, session in zip(accounts, sessions, strict=True):
        transfer_create(
            kind="cash_buy_in",
            legs=[TransferLeg(account, -(10**8)), TransferLeg(session, 10**8)],
            idempotency_key=f"buy-in:{session.pk}",
            reference=session.reference,
        )
    run_id = uuid.uuid4().hex[:8]

    def two_legs(rng: random.Random, sequence: int, _client: int) -> None:
        source, destination = rng.sample(accounts, 2)
        amount = rng.randint(1, 500)
        transfer_create(
            kind="bench_transfer",
            legs=[TransferLeg(source, -amount), TransferLeg(destination, amount)],
            idempotency_key=f"{run_id}:pair:{sequence}",
            reference="bench",
        )

    def hand_settlement(rng: random.Random, sequence: int, _client: int) -> None:
        loser, winner = rng.sample(sessions, 2)
        pot_share = rng.randint(100, 5_000)
        raked = max(1, pot_share // 20)
        transfer_create(
            kind="hand_settlement",
            legs=[TransferLeg(loser, -pot_share), TransferLeg(winner, pot_share - raked), TransferLeg(rake, raked)],
            idempotency_key=f"{run_id}:hand:{sequence}",
            reference=f"hand:{sequence}",
        )

    ids = [account.pk for account in accounts]

    import psycopg

    floor_connections: dict[int, psycopg.Connection[tuple[int, ...]]] = {}

    def floor(rng: random.Random, sequence: int, client: int) -> None:
        if client not in floor_connections:  # one per client, kept across the slices (closed at the end)
            floor_connections[client] = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
        database = floor_connections[client]
        source, destination = rng.sample(ids, 2)
        amount = rng.randint(1, 500)
        with database.transaction(), database.cursor() as cursor:
            cursor.execute(
                "INSERT INTO wallet_transfer (kind, idempotency_key, reference, description, currency, fingerprint, "
                "created_at) VALUES ('bench_floor', %s, 'bench', '', 'EUR', '', now()) RETURNING id",
                [f"{run_id}:floor:{sequence}"],
            )
            (transfer_id,) = cursor.fetchone()  # type: ignore[misc]
            cursor.execute(
                "UPDATE wallet_account SET balance = balance + CASE id WHEN %s THEN %s WHEN %s THEN %s END "
                "WHERE id IN (%s, %s) RETURNING id, balance",
                [source, -amount, destination, amount, source, destination],
            )
            after = dict(cursor.fetchall())
            cursor.execute(
                "INSERT INTO wallet_leg (transfer_id, account_id, amount, balance_after) VALUES (%s, %s, %s, %s), "
                "(%s, %s, %s, %s)",
                [transfer_id, source, -amount, after[source], transfer_id, destination, amount, after[destination]],
            )

    workloads: list[tuple[str, Work]] = [
        ("transfer_create, 2 legs between random players", two_legs),
        ("transfer_create, hand settlement (3 legs, hot rake account)", hand_settlement),
        ("peer floor: raw psycopg UPDATE + INSERT, no locks/checks", floor),
    ]
    # The workloads run in alternating one-second slices, so that load from other processes on a shared machine
    # falls on all of them alike and the ratios stay comparable.
    totals: dict[tuple[str, int], Result] = {}
    run = 0
    slices = max(1, round(seconds))
    try:
        for count in (1, clients):
            for _slice in range(slices):
                for name, work in workloads:
                    run += 1
                    done = _run_clients(count, seconds / slices, work, run=run)
                    total = totals.setdefault((name, count), Result(name, count, 0, 0.0))
                    total.transfers += done
                    total.seconds += seconds / slices
            for name, _work in workloads:
                rate = totals[name, count].per_second
                print(f"{name:<62} {count:>2} client(s): {rate:>8.0f} transfers/s", flush=True)
    finally:
        for database in floor_connections.values():
            database.close()
    results = list(totals.values())

    problems = ledger_reconcile()
    print()
    if problems:
        print("RECONCILIATION FAILED:")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print(ledger_summary())
    print()
    print(
        f"PostgreSQL {connection.pg_version // 10000}, {os.cpu_count()} CPU(s), {seconds:.0f} s per workload in "
        f"1 s slices alternating between workloads, load average {os.getloadavg()[0]:.1f}"
    )
    print("| workload | clients | transfers/s |")
    print("|---|---:|---:|")
    for result in results:
        print(f"| {result.name} | {result.clients} | {result.per_second:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
