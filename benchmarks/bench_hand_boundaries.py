"""The durable hand boundaries of a table actor, in process: ``hand_begin`` and ``hand_end`` on real 6-max tables.

    .venv/bin/python benchmarks/bench_hand_boundaries.py [--tables 20] [--hands 300] [--profile] [--statements]
        [--connection-reports]

With table actors (issue 27, ``TABLE_ACTORS=1``) a hand touches PostgreSQL only at its start and its end; the actions
in between are applied in memory. Those two transactions are the runtime process's share of the CPU per action that
``benchmarks/bench_tables.py`` measures over sockets. This benchmark drives ``games.runtime.actor.TableActor`` on one
thread, as the owner's database pool does, with a seeded random legal-action policy, on its own database (created,
migrated and dropped here) and its own Redis key prefix (the hand log and the broadcasts go to Redis as in the owner).

Prints, per hand boundary: CPU milliseconds (``time.process_time``: this process only, not PostgreSQL), wall
milliseconds, and the SQL statements (savepoints and transaction control not counted); and the CPU per action of the
whole loop (deal, actions, end) ÷ actions. ``--profile`` prints the top functions by cumulative time (cProfile) of the
boundaries, ``--statements`` the statements of one hand start and one hand end.

``--connection-reports``: in every hand, after its first action, one player not to act loses their socket and opens
one again (two reports, CASH-22), sent to the actor as the owner sends them. Hands alternate between the actor's way
(the report applied to the held hand in memory, ``games.runtime.play.connection_report_apply``) and the peer, the way
before it: the same report as a durable table command (the hand's seat changes written, ``games.runtime.clocks``'s
service, the seats read back). Prints each way's CPU, wall time and statements per report.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from benchmarks.bench_action_path import in_scratch_database, recording  # noqa: E402 - the project is on the path from here on


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--profile", action="store_true", help="print the top functions of the boundaries (cProfile)")
    parser.add_argument("--statements", action="store_true", help="print the SQL of one hand start and one hand end")
    parser.add_argument(
        "--connection-reports",
        action="store_true",
        help="in every hand a player loses and regains their socket: in memory and durably, hand by hand",
    )
    arguments = parser.parse_args()

    return in_scratch_database("boundaries", lambda: run(arguments))


def _counted(statements: list[str]) -> int:
    """Statements that do work: savepoints, releases and transaction control are not counted."""
    return sum(1 for sql in statements if not sql.lstrip().upper().startswith(("SAVEPOINT", "RELEASE", "ROLLBACK")))


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
    from games.models import GameRules, PlayerTableSettings
    from games.runtime.actor import CONNECTION_LOST, CONNECTION_RESTORED, DealNext, TableActor, TableCommand
    from games.runtime.owner import command_run
    from games.runtime.play import PlayerAction
    from games.services import seat_take
    from poker_site.core.publish import flush

    GameRules.objects.update(pause_between_hands_milliseconds=0)
    tables = ensure_tables(arguments.tables, prefix="Boundaries")
    buy_in = buy_in_for(tables[0])
    users = ensure_bot_users(arguments.tables * 6, prefix="boundarybot", balance=40 * buy_in)[0]
    for index, table in enumerate(tables):
        for number in range(1, 7):
            seat_take(users[index * 6 + number - 1], table, buy_in, seat_number=number)
    # Auto top-up on (as the bots do): busted players would otherwise sit out and stop the table dealing.
    PlayerTableSettings.objects.bulk_create(
        [PlayerTableSettings(user=user, auto_top_up=True) for user in users],
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["auto_top_up"],
    )
    rng = random.Random(7)
    actors = [TableActor(table.pk) for table in tables]
    begin_cpu: list[float] = []
    begin_wall: list[float] = []
    begin_statements: list[int] = []
    end_cpu: list[float] = []
    end_wall: list[float] = []
    end_statements: list[int] = []
    actions = 0
    reports: dict[str, tuple[list[float], list[float], list[int]]] = {
        "in memory": ([], [], []),
        "durable": ([], [], []),
    }
    reported: set[int] = set()  # the hands whose reports were sent

    def connection_reports(actor: TableActor) -> None:
        """One player not to act loses their socket and opens one again: in memory in even hands, durably in odd."""
        live = actor.live
        assert live is not None
        if live.hand.pk in reported:
            return
        reported.add(live.hand.pk)
        user_id = next(
            int(seat.user_id)
            for number, seat in sorted(live.seats.items())
            if seat.user_id is not None and number != live.hand.acting_seat
        )
        way = "in memory" if live.hand.number % 2 == 0 else "durable"
        for report in (CONNECTION_LOST, CONNECTION_RESTORED):
            service = functools.partial(command_run, actor.table_id, user_id, report, {})
            # The peer: an unknown command type is not a connection report to the actor, so it runs the durable
            # service between the hand's seat changes written and read back, as every report did before.
            command = TableCommand(user_id, report if way == "in memory" else f"{report} (durable)", service)
            executed: list[str] = []
            with connection.execute_wrapper(recording(executed, [])):
                cpu, wall = time.process_time(), time.perf_counter()
                outcome = actor.handle(command, timezone.now())
                spent_cpu, spent_wall = time.process_time() - cpu, time.perf_counter() - wall
            if outcome.result is not True:
                raise SystemExit(f"table {actor.table_id}: the {report} report changed nothing ({outcome})")
            reports[way][0].append(spent_cpu)
            reports[way][1].append(spent_wall)
            reports[way][2].append(_counted(executed))

    profiler = cProfile.Profile() if arguments.profile else None
    printed = not arguments.statements
    loop_cpu = time.process_time()
    hands = 0
    while hands < arguments.hands:
        for actor in actors:
            if actor.live is None:
                executed: list[str] = []
                with connection.execute_wrapper(recording(executed, [])):
                    if profiler is not None:
                        profiler.enable()
                    cpu, wall = time.process_time(), time.perf_counter()
                    dealt = actor.handle(DealNext(), timezone.now())
                    begin_cpu.append(time.process_time() - cpu)
                    begin_wall.append(time.perf_counter() - wall)
                    if profiler is not None:
                        profiler.disable()
                if dealt.hand_started is None:
                    raise SystemExit(f"table {actor.table_id}: no hand could start")
                begin_statements.append(_counted(executed))
                if not printed and hands == 0:
                    print("  statements of a hand start:")
                    for sql in executed:
                        print("   ", sql[:240])
                hands += 1
                continue
            live = actor.live
            legal = live.state.legal_actions()
            assert legal is not None
            assert live.hand.acting_seat is not None
            data = action_to_dict(choose_random_action(legal, rng))
            user_id = live.seats[live.hand.acting_seat].user_id
            executed = []
            with connection.execute_wrapper(recording(executed, [])):
                if profiler is not None:
                    profiler.enable()
                cpu, wall = time.process_time(), time.perf_counter()
                outcome = actor.handle(PlayerAction(user_id, data["type"], data.get("amount")), timezone.now())
                spent_cpu, spent_wall = time.process_time() - cpu, time.perf_counter() - wall
                if profiler is not None:
                    profiler.disable()
            assert outcome.refused is None, outcome.refused
            actions += 1
            if arguments.connection_reports and actor.live is not None:
                connection_reports(actor)
            if outcome.hand_ended is not None:
                end_cpu.append(spent_cpu)
                end_wall.append(spent_wall)
                end_statements.append(_counted(executed))
                if not printed:
                    printed = True
                    print("  statements of a hand end:")
                    for sql in executed:
                        print("   ", sql[:240])
    # The reports are timed on their own: the loop's figure per action stays the actions' and boundaries'.
    loop_cpu = time.process_time() - loop_cpu - sum(sum(cpu) for cpu, _wall, _statements in reports.values())
    flush()

    def summary(name: str, cpu: list[float], wall: list[float], statements: list[int]) -> None:
        print(
            f"{name}: {len(cpu)}, CPU mean {statistics.fmean(cpu) * 1000:.2f} ms (p50 "
            f"{statistics.median(cpu) * 1000:.2f}), wall mean {statistics.fmean(wall) * 1000:.2f} ms, statements "
            f"median {statistics.median(statements):.0f} (min {min(statements)}, max {max(statements)})"
        )

    summary("hand start (hand_begin)", begin_cpu, begin_wall, begin_statements)
    summary("hand end (the hand-ending action with hand_end)", end_cpu, end_wall, end_statements)
    print(
        f"loop: {hands} hands, {actions} actions ({actions / max(1, hands):.1f} per hand), this process's CPU "
        f"{loop_cpu / max(1, actions) * 1000:.2f} ms per action, of which the boundaries "
        f"{(sum(begin_cpu) + sum(end_cpu)) / max(1, actions) * 1000:.2f} ms"
    )
    if arguments.connection_reports:
        for way, (cpu, wall, statements) in reports.items():
            summary(f"connection report, {way}", cpu, wall, statements)
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
