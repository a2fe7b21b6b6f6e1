"""Two table runtime "hosts" (issue 27, step 5): two ``manage.py run_tables`` processes, each in its own network
namespace (reaching PostgreSQL and Redis only through forwarders on its own loopback, over Unix sockets; where
namespaces cannot be made, each known by its own loopback address, 127.0.0.2 and 127.0.0.3), share one PostgreSQL and
one Redis and spread 20 cash tables between them while players' actions arrive on the tables' streams. One is killed
with SIGKILL in the middle of hands: within 10 s the other owns every one of its tables, the hands in progress there
are cancelled with every stack back to its start-of-hand amount (CASH-23, TRN-33), play goes on at those tables, and
``wallet_reconcile`` passes (GEN-06)."""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from games.models import Hand, HandEvent, HandPlayer, HandStatus, Seat, Table
from games.runtime import inbox
from tests.realtime.live_site import process_groups_stop, site_environment
from tests.realtime.runtime_hosts import Players, hosts, owners, start_runtime, wait_for
from tests.tables.support import open_table, player, seat_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.live]

TABLES = 20
PLAYERS_PER_TABLE = 3
"""A cash table of the seeded catalogue deals from three players (its game's ``minimum_players_to_start``)."""
TAKEOVER_LIMIT_SECONDS = 10.0


def test_the_tables_of_a_killed_runtime_host_are_taken_over_within_10_s_and_play_goes_on(tmp_path: Path) -> None:
    environment = {**site_environment(), "TABLE_ACTORS": "on", "LOG_LEVEL": "WARNING"}
    client = redis.Redis.from_url(settings.REDIS_URL)
    store = inbox.lease_store(client)
    with hosts(environment) as (first, second):
        processes = [
            start_runtime(first, environment, tmp_path / "runtime-first.log"),
            start_runtime(second, environment, tmp_path / "runtime-second.log"),
        ]
        try:
            # Both hosts announce themselves before the tables open, so each claims its half as they do.
            wait_for(lambda: len(store.live_processes()) == 2, "both runtime processes alive", 60)
            users = [player(f"host-player-{number}") for number in range(PLAYERS_PER_TABLE * TABLES)]
            tables = []
            for number in range(TABLES):
                table = open_table("holdem", "NL10")
                seat_players(table, users[PLAYERS_PER_TABLE * number : PLAYERS_PER_TABLE * (number + 1)], 1_000)
                tables.append(table)
            table_ids = [table.pk for table in tables]
            seated = {
                table.pk: list(Seat.objects.filter(table=table, user__isnull=False).values_list("user_id", flat=True))
                for table in tables
            }
            by_host = wait_for(
                lambda: (
                    spread
                    if all((spread := owners(client, table_ids)).values())
                    and Counter(owner.split(":")[0] for owner in spread.values())
                    == Counter({first.address: TABLES // 2, second.address: TABLES // 2})
                    else None
                ),
                "the 20 tables spread 10 and 10 over the two hosts",
                60,
            )
            victim_tables = sorted(table for table, owner in by_host.items() if owner.startswith(f"{first.address}:"))

            with Players(seated) as players:
                # Hands are dealt and played (their actions applied in their owners' memory only); wait until actions
                # have been applied at every table and most tables of the first host have a hand in progress.
                def hands_in_progress() -> bool:
                    current = Table.objects.filter(pk__in=victim_tables, current_hand__isnull=False).count()
                    return current * 2 >= len(victim_tables) and players.answers["ok"] >= 2 * TABLES

                wait_for(hands_in_progress, lambda: f"hands in progress (answers: {dict(players.answers)})", 60)
                os.killpg(processes[0].pid, signal.SIGKILL)
                killed_at = time.monotonic()
                processes[0].wait(10)
                interrupted = {
                    table_id: hand_id
                    for table_id, hand_id in Table.objects.filter(pk__in=victim_tables).values_list(
                        "pk", "current_hand_id"
                    )
                    if hand_id is not None
                }
                start_stacks = {
                    (hand_id, player_row.user_id): player_row.start_stack
                    for hand_id in interrupted.values()
                    for player_row in HandPlayer.objects.filter(hand_id=hand_id)
                }

                def taken_over() -> bool:
                    current = owners(client, victim_tables)
                    if not all(owner and owner.startswith(f"{second.address}:") for owner in current.values()):
                        return False
                    return not Hand.objects.filter(pk__in=interrupted.values(), status=HandStatus.RUNNING).exists()

                wait_for(taken_over, "the takeover of every table of the killed host", 30)
                takeover_seconds = time.monotonic() - killed_at
                resumed_at = timezone.now()
                # Play goes on at every table of the killed host: a hand dealt by the survivor there ends.
                wait_for(
                    lambda: all(
                        Hand.objects.filter(
                            table_id=table_id, status=HandStatus.FINISHED, started_at__gte=resumed_at
                        ).exists()
                        for table_id in victim_tables
                    ),
                    "a hand finished after the takeover at every table of the killed host",
                    60,
                )
            print(
                f"\ntakeover of {len(victim_tables)} tables ({len(interrupted)} hands in progress) after SIGKILL: "
                f"{takeover_seconds:.2f} s; answers {dict(players.answers)}"
            )
            assert takeover_seconds <= TAKEOVER_LIMIT_SECONDS, f"takeover took {takeover_seconds:.1f} s"
            assert interrupted, "no hand was in progress at the killed host's tables"
            for hand_id in interrupted.values():
                hand = Hand.objects.get(pk=hand_id)
                assert hand.status == HandStatus.CANCELLED
                assert HandEvent.objects.filter(hand=hand, kind="hand_cancelled").exists()
                for row in HandPlayer.objects.filter(hand=hand):
                    assert row.end_stack == start_stacks[(hand_id, row.user_id)]
            # The surviving host's tables were never interrupted.
            survivor_tables = [table for table in table_ids if table not in victim_tables]
            assert not Hand.objects.filter(table_id__in=survivor_tables, status=HandStatus.CANCELLED).exists()
        finally:
            process_groups_stop(processes, timeout=30)
            client.close()
    # The survivor stopped cleanly (SIGTERM): its hands in progress were cancelled, its leases released, and the
    # ledger is in balance.
    assert not Hand.objects.filter(status=HandStatus.RUNNING).exists()
    checker = redis.Redis.from_url(settings.REDIS_URL)
    try:
        assert not any(owners(checker, table_ids).values())
    finally:
        checker.close()
    call_command("wallet_reconcile")
