"""Issue 27: a web process killed with SIGKILL while a table actor plays a cash table. Two daphne processes serve the
site (as the launcher's ``WEB_PROCESSES`` runs them), a ``manage.py run_tables`` process owns the table, and a player's
socket follows the table through one daphne. When that daphne dies, the socket connects again, as the page
does, to the other one, resynchronises from the sequence it had (the snapshot, then the events it missed, from the
durable rows and the hand log in Redis) and follows the next hands there: every sequence number from its first to its
last reached it, no hand was interrupted (the hand lives in its owner, not in the web process: CASH-23 does not come
into play), and ``wallet_reconcile`` passes (GEN-06)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.management import call_command

from games.models import Hand, HandStatus, Seat
from games.runtime import inbox
from tests.realtime.conftest import session_cookie
from tests.realtime.following_socket import FollowingSocket
from tests.realtime.live_site import live_site, process_groups_stop, site_environment, web_process
from tests.realtime.runtime_hosts import Host, Players, owners, start_runtime, wait_for
from tests.tables.support import open_table, player, seat_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.live]

SETTINGS = {"TABLE_ACTORS": "on", "LOG_LEVEL": "WARNING"}


def test_a_socket_on_a_killed_web_process_reconnects_to_the_other_and_misses_no_event(tmp_path: Path) -> None:
    environment = {**site_environment(), **SETTINGS}
    client = redis.Redis.from_url(settings.REDIS_URL)
    runtime_host = Host("127.0.0.1", [], environment["DATABASE_URL"], environment["REDIS_URL"], [], [])
    runtime = None
    try:
        with (
            live_site(tmp_path / "site", SETTINGS, table_processes=0) as first_url,
            web_process(tmp_path / "site", "daphne-second", SETTINGS) as (second_url, second),
        ):
            runtime = start_runtime(runtime_host, environment, tmp_path / "runtime.log")
            # The runtime process is alive before the table opens: the owners deal every table (not the ticker).
            wait_for(lambda: inbox.lease_store(client).live_processes(), "the runtime process alive", 60)
            users = [player(f"web-kill-{number}") for number in range(3)]
            table = open_table("holdem", "NL10")
            seat_players(table, users, 1_000)
            seated = list(Seat.objects.filter(table=table, user__isnull=False).values_list("user_id", flat=True))
            wait_for(lambda: owners(client, [table.pk])[table.pk], "the table owned", 60)
            with (
                FollowingSocket([second_url, first_url], table.pk, session_cookie(users[0]).decode()) as socket,
                Players({table.pk: seated}) as players,
            ):
                killed_in = wait_for(
                    lambda: next(
                        iter(event["hand_id"] for event in socket.seen(lambda event: event["type"] == "action_taken")),
                        None,
                    ),
                    lambda: f"an action seen through the web process to be killed (answers {dict(players.answers)})",
                    60,
                )
                os.killpg(second.pid, signal.SIGKILL)
                seen_before = socket.last_sequence or 0
                wait_for(lambda: len(socket.connections) == 2, "the socket connected to the other web process", 30)
                later = socket.wait_for(
                    lambda event: event["type"] == "hand_started" and (event["hand_id"] or 0) > killed_in,
                    "a later hand dealt, seen through the second web process",
                    60,
                )
                socket.wait_for(
                    lambda event: event["type"] == "hand_settled" and event["hand_id"] == later["hand_id"],
                    "that hand settled",
                    60,
                )
            print(f"\nsocket reconnected to {socket.connections[1]}; resyncs {socket.resyncs}")
            assert socket.connections == [second_url, first_url]
            assert socket.resyncs >= 1, "the reconnected socket did not fetch what it missed"
            numbers = sorted(socket.events)
            assert numbers[-1] > seen_before
            assert numbers == list(range(numbers[0], numbers[-1] + 1)), "an event was missed across the reconnection"
            assert not Hand.objects.filter(table=table, status=HandStatus.CANCELLED).exists()
    finally:
        # The runtime process stops last: while it lives the site's ticker deals at no table, and its SIGTERM cancels
        # the hand it holds; stopped first, it left the ticker a moment to deal a hand at the table that then ran on.
        if runtime is not None:
            process_groups_stop([runtime], timeout=30)
        client.close()
    assert not Hand.objects.filter(status=HandStatus.RUNNING).exists()
    call_command("wallet_reconcile")
