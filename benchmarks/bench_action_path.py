"""The server's cost of one player action, in process: ``hand_act`` (and ``hand_start`` between hands) on real tables.

    .venv/bin/python benchmarks/bench_action_path.py [--tables 20] [--actions 3000] [--profile]

This is the part of the live-table path (benchmarks/bench_tables.py) that runs on a worker thread for each ``act``
frame: lock the table and seats, the engine, the event rows, the hand update, the commit, and the hand's settlement
when it ends. It uses its own database (created, migrated and dropped here) on the server in DATABASE_URL, 6-max NL10
tables with six funded players each, and a seeded random legal-action policy (the engine's own legal actions, so no
action is refused). Live updates go to the publisher thread as in the server (Redis in REDIS_URL, own key prefix).

Prints per-action milliseconds (mean, p50, p99), actions per second on one thread, and the SQL statements per action
(a hand's last action also settles it; ``hand_start`` is timed separately). ``--profile`` prints the top functions by
cumulative time (cProfile), ``--statements`` the statements of one mid-hand action.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from benchmarks.bench_tables import with_database  # noqa: E402 - the project is on the path from here on


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--profile", action="store_true", help="print the top functions by cumulative time")
    parser.add_argument("--statements", action="store_true", help="print the SQL of one mid-hand action")
    parser.add_argument(
        "--ending-statements", action="store_true", help="print the SQL of one action that ends (and settles) a hand"
    )
    arguments = parser.parse_args()

    return in_scratch_database("action", lambda: run(arguments))


def in_scratch_database(label: str, work: Callable[[], int]) -> int:
    """Run ``work`` (which migrates) with ``DATABASE_URL`` naming a new database next to the one it named and a Redis
    key prefix of its own, then drop the database; returns ``work``'s exit status (2 without ``DATABASE_URL``)."""
    import psycopg

    base = os.environ.get("DATABASE_URL")
    if not base:
        print("DATABASE_URL is needed (the machine's PostgreSQL)", file=sys.stderr)
        return 2
    database = f"poker_bench_{label}_{os.getpid()}"
    admin = with_database(base, "postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{database}"')
    os.environ.update(
        {
            "DATABASE_URL": with_database(base, database),
            "REDIS_KEY_PREFIX": f"bench-{label}-{os.getpid()}",
            "LOG_LEVEL": "WARNING",
            "ENVIRONMENT": "development",
            "DEBUG": "false",
            "DJANGO_SETTINGS_MODULE": "poker_site.settings",
        }
    )
    try:
        return work()
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def recording(executed: list[str], waited: list[float]) -> Any:
    """A database execute wrapper that notes each statement's SQL in ``executed`` and the seconds spent executing it
    (sending, PostgreSQL's work, receiving) in ``waited``."""

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        executed.append(sql)
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            waited.append(time.perf_counter() - began)

    return wrapper


def run(arguments: argparse.Namespace) -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    call_command("migrate", "--no-input", verbosity=0)

    from games.bots.setup import buy_in_for, ensure_bot_users, ensure_tables
    from games.engine.actions import action_to_dict
    from games.engine.simulation import choose_random_action
    from games.models import GameRules, Hand, HandStatus, PlayerTableSettings, Table
    from games.runtime.engine_state import hand_engine_state
    from games.services import hand_act, hand_start, seat_take
    from poker_site.core.publish import flush

    GameRules.objects.update(pause_between_hands_milliseconds=0)
    tables = ensure_tables(arguments.tables, prefix="ActionPath")
    buy_in = buy_in_for(tables[0])
    users = ensure_bot_users(arguments.tables * 6, prefix="actionbot", balance=40 * buy_in)[0]
    for index, table in enumerate(tables):
        for number in range(1, 7):
            seat_take(users[index * 6 + number - 1], table, buy_in, seat_number=number)
        table.refresh_from_db()
    # Auto top-up on (as the bots do): busted players would otherwise sit out and stop the table dealing.
    PlayerTableSettings.objects.bulk_create(
        [PlayerTableSettings(user=user, auto_top_up=True) for user in users],
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["auto_top_up"],
    )
    users_by_id = {user.pk: user for user in users}
    rng = random.Random(7)

    def next_move(table: Table) -> tuple[str, Any, Any] | None:
        """The acting player and a legal action for them, or None when the table needs a new hand."""
        table_row = Table.objects.only("current_hand_id").get(pk=table.pk)
        if table_row.current_hand_id is None:
            return None
        hand = Hand.objects.get(pk=table_row.current_hand_id)
        if hand.status != HandStatus.RUNNING or hand.acting_seat is None:
            return None
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        action = choose_random_action(legal, rng)
        data = action_to_dict(action)
        user = users_by_id[hand.participants[str(hand.acting_seat)]["user"]]
        return user, data["type"], data.get("amount")

    action_times: list[float] = []
    start_times: list[float] = []
    statements: list[int] = []
    statement_times: list[float] = []
    profiler = cProfile.Profile() if arguments.profile else None
    printed_statements = not arguments.statements
    printed_ending_statements = not arguments.ending_statements
    ending_times: list[float] = []
    ending_statements: list[int] = []
    while len(action_times) < arguments.actions:
        for table in tables:
            move = next_move(table)
            if move is None:
                began = time.perf_counter()
                if hand_start(table, now=timezone.now()) is None:
                    raise SystemExit(f"table {table.pk}: no hand could start")
                start_times.append(time.perf_counter() - began)
                continue
            user, kind, amount = move
            executed: list[str] = []
            with connection.execute_wrapper(recording(executed, statement_times)):
                if profiler is not None:
                    profiler.enable()
                began = time.perf_counter()
                hand = hand_act(table, user, kind, amount)
                action_times.append(time.perf_counter() - began)
                if profiler is not None:
                    profiler.disable()
            statements.append(len(executed))
            if hand.status != HandStatus.RUNNING:
                ending_times.append(action_times[-1])
                ending_statements.append(len(executed))
                if not printed_ending_statements:
                    printed_ending_statements = True
                    print("  statements of a hand-ending action:")
                    for sql in executed:
                        print("   ", sql[:300])
            if not printed_statements and len(action_times) > 50 and len(executed) < 12:
                printed_statements = True
                for sql in executed:
                    print("   ", sql[:300])
    flush()

    def milliseconds(values: list[float], share: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    print(f"hand_act: {len(action_times)} actions on {len(tables)} tables (one thread)")
    print(
        f"  mean {statistics.fmean(action_times) * 1000:.2f} ms, p50 {milliseconds(action_times, 0.5):.2f} ms, "
        f"p99 {milliseconds(action_times, 0.99):.2f} ms -> {len(action_times) / sum(action_times):.0f} actions/s"
    )
    print(
        f"  statements per action: median {statistics.median(statements):.0f}, "
        f"mean {statistics.fmean(statements):.1f}, max {max(statements)}"
    )
    print(
        f"  of which executing statements (psycopg and PostgreSQL, commit not included): "
        f"{sum(statement_times) / len(action_times) * 1000:.2f} ms per action"
    )
    print(
        f"  of which ending the hand (settlement, auto top-ups, seats): {len(ending_times)}, "
        f"mean {statistics.fmean(ending_times) * 1000:.2f} ms, p50 {milliseconds(ending_times, 0.5):.2f} ms, "
        f"p99 {milliseconds(ending_times, 0.99):.2f} ms, statements median {statistics.median(ending_statements):.0f}"
    )
    print(f"hand_start: {len(start_times)} hands, mean {statistics.fmean(start_times) * 1000:.2f} ms")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
