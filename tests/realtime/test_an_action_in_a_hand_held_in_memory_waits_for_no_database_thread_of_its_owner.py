"""A table owner applies a player's action in a hand it holds in memory on its event loop (issue 27): the engine, the
hand log's append and the publish need no database, so the action is applied and answered while every database
thread of the owner is busy (with other tables' hand starts and ends on a busy site; here held on purpose). A hand the
action completes is answered at once too; its durable end waits for a database thread, and is written once one is
free, with every event at the number it was published with."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from games.models import Hand, HandEvent, HandStatus, Seat, Table
from games.runtime import commands
from games.runtime.hand_log import hand_log_rows_after
from games.runtime.protocol import ClientMessage
from tests.realtime.table_owner import table_owner_running, wait_for
from tests.tables.support import open_table, player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)


def test_actions_are_applied_and_answered_while_every_database_thread_is_busy_and_the_hand_ends_once_one_is_free(
    settings: Any,
) -> None:
    settings.TABLE_ACTORS = True
    settings.TABLE_REPLY_SECONDS = 10  # an action that waited for a database thread would be refused after this
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1_000)
    by_seat = {seat.number: seat.user for seat in Seat.objects.filter(table=table, user__isnull=False)}

    with table_owner_running() as owner:
        hand_id = wait_for(lambda: Table.objects.get(pk=table.pk).current_hand_id, "the owner's first deal")

        def acting_seat() -> int | None:
            owned = owner.tables.get(table.pk)
            live = owned.actor.live if owned is not None else None
            # A completed hand has nobody to act (the answer can come before the actor lets the hand go).
            return live.hand.acting_seat if live is not None and not live.state.is_complete else None

        first = wait_for(acting_seat, "the first player to act")
        last_durable = Table.objects.get(pk=table.pk).last_sequence
        gate = threading.Event()
        threads = owner.database_pool._max_workers
        held = [owner.database_pool.submit(gate.wait, 60) for _ in range(threads)]
        try:
            assert commands.execute(by_seat[first], table, ClientMessage("act", {"action": "call"})) == {}
            second = acting_seat()
            assert second not in (None, first)
            assert commands.execute(by_seat[second], table, ClientMessage("act", {"action": "fold"})) == {}
            third = acting_seat()
            assert third is not None
            assert commands.execute(by_seat[third], table, ClientMessage("act", {"action": "fold"})) == {}
            wait_for(lambda: owner.tables[table.pk].actor.live is None, "the hand let go")  # the hand is complete ...
            assert Hand.objects.get(pk=hand_id).status == HandStatus.RUNNING  # ... and its end not written yet
            logged = [(row.sequence, row.kind) for row in hand_log_rows_after(table.pk, last_durable)]
            assert [kind for _sequence, kind in logged].count("action_taken") == 3
            assert not all(future.done() for future in held)
        finally:
            gate.set()

        wait_for(lambda: Hand.objects.get(pk=hand_id).status == HandStatus.FINISHED, "the hand's durable end")
        written = dict(
            HandEvent.objects.filter(table=table, sequence__in=[sequence for sequence, _kind in logged]).values_list(
                "sequence", "kind"
            )
        )
        assert written == dict(logged)
